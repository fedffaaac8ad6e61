import Foundation
import GlyphCore
import GlyphRender

/// The options every command that works on variants shares, and what they select.
enum Selection {
    static let options: [Option] = SelectionOptions.options + [JobsOptions.jobs]

    /// The specs named by --preset and --spec; all built-in presets when neither is given.
    static func specs(_ args: Arguments) throws -> [Spec] {
        var specs: [Spec] = []
        let presets = args.list(SelectionOptions.preset)
        let files = args.all(SelectionOptions.spec)
        for name in presets { specs.append(try Presets.load(try preset(name, option: "--preset"))) }
        for file in files { specs.append(try Spec.load(contentsOf: URL(fileURLWithPath: file))) }
        if presets.isEmpty && files.isEmpty {
            for name in Presets.names { specs.append(try Presets.load(name)) }
        }
        for spec in specs { for w in spec.warnings { Console.warning(w.description) } }
        return specs
    }

    /// A preset name from the command line; an unknown one is a usage error (64), like any other
    /// option value the tool does not know.
    static func preset(_ name: String, option: String) throws -> String {
        guard Presets.names.contains(name) else {
            throw UsageError(message: "\(option): unknown preset \"\(name)\"; built-in presets: \(Presets.names.joined(separator: ", "))")
        }
        return name
    }

    /// The --only filters; a malformed one (no `=`, an unknown key) is a usage error (64).
    static func filter(_ args: Arguments) throws -> VariantFilter {
        var filter = VariantFilter()
        for only in args.all(SelectionOptions.only) {
            do { try filter.add(only) } catch {
                throw UsageError(message: error.message.contains("--only") ? error.message : "--only \(only): \(error.message)")
            }
        }
        return filter
    }

    static func jobs(_ args: Arguments) throws -> Int {
        try args.int(JobsOptions.jobs) ?? defaultJobs
    }

    /// Loads, filters and lays out; refuses an empty selection.
    static func plan(_ args: Arguments, shard: Shard? = nil) throws -> Plan {
        let plan = try Plan(specs: try specs(args), filter: try filter(args), shard: shard)
        if plan.items.isEmpty {
            throw InputError(file: "--only", message: "no variant matches \(clipped(args.all(SelectionOptions.only).joined(separator: " "), limit: 200)) "
                             + "(\(plan.total) variants before filtering)")
        }
        return plan
    }
}

/// Messages go to stderr; data goes to stdout.
enum Console {
    nonisolated(unsafe) static var quiet = false

    /// A write to stdout failed (a full disk, a closed descriptor): the command stops, and the tool
    /// says so in one line and exits 2 (FileHandle.write would trap instead).
    struct OutputFailure: Error, CustomStringConvertible {
        let code: Int32
        var description: String { "cannot write the output: \(String(cString: strerror(code)))" }
    }

    static func out(_ s: String) throws(OutputFailure) {
        try stdout(Data((s + "\n").utf8))
    }

    /// Writes `data` to stdout whole, or throws.
    static func stdout(_ data: Data) throws(OutputFailure) {
        if let code = AtomicFile.writeAll(data, to: STDOUT_FILENO) { throw OutputFailure(code: code) }
    }

    /// Writes to stderr; a failure there has nowhere to be told, and is not fatal.
    static func stderr(_ s: String) {
        _ = AtomicFile.writeAll(Data(s.utf8), to: StandardError.fd)
    }

    static func info(_ s: String) {
        if !quiet { stderr(s + "\n") }
    }

    /// A warning about the input: always shown (also with --quiet), on stderr.
    static func warning(_ s: String) {
        stderr("glyphaudit: warning: " + s + "\n")
    }

    /// Whether `writeFailure` has told the failed write already (the command's own words).
    nonisolated(unsafe) static var writeFailureTold = false

    /// The one message of a command whose transaction failed to write (`detail` adds what the
    /// command knows, e.g. how many baselines it had written); later calls print nothing.
    static func writeFailure(_ failure: AtomicFile.Failure, detail: String? = nil) {
        guard !writeFailureTold else { return }
        writeFailureTold = true
        let shown = { (p: String) in CheckCommand.displayPath(p) }
        stderr("glyphaudit: " + (failure.makingFolder
                    ? "\(shown(failure.file)): cannot write: cannot create the folder \(shown(failure.folder)): \(failure.reason); "
                    : "\(shown(failure.folder)): cannot write: \(failure.reason) (at \(shown(failure.file))); ")
               + (detail ?? "nothing was written: the files this run had written were never renamed into place "
                  + "and the folders it made were removed") + "\n")
    }

    /// An error, each line of it at most `lineLimit` characters: a value quoted whole (a 500 KB
    /// token, a 120 KB option value) is cut with "…" and its length, so a message stays readable.
    static func error(_ s: String) {
        // After a write of the command's transaction failed, its messages about that (one per file)
        // give way to the one `writeFailure` prints.
        if AtomicFile.transactionFailed { return }
        let lines = s.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.count > lineLimit ? line.prefix(lineLimit) + "… (\(line.count) characters in all)" : String(line)
        }
        stderr("glyphaudit: " + lines.joined(separator: "\n") + "\n")
    }

    /// The longest line `error` prints whole.
    static let lineLimit = 1000
}

/// At most `limit` lines of a long list, then "… and N more" for the rest, with `(note)` after it
/// when given (where to see them all).
/// A value as a message quotes it: whole up to `limit` characters, else cut with "…" and its length.
func clipped(_ s: String, limit: Int = 120) -> String {
    s.count > limit ? s.prefix(limit) + "… (\(s.count) characters)" : s
}

func capped(_ lines: [String], limit: Int, indent: String = "  ", note: String? = nil) -> [String] {
    guard lines.count > limit else { return lines }
    return Array(lines.prefix(limit)) + ["\(indent)… and \(lines.count - limit) more" + (note.map { " (\($0))" } ?? "")]
}

func seconds(since start: DispatchTime) -> Double {
    Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
}
