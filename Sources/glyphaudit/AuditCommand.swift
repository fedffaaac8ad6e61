import Foundation
import GlyphAudit
import GlyphCore
import GlyphPipeline

enum AuditCommand {
    static let command = Command(
        name: "audit",
        summary: "Audit every selected variant for accessibility (findings only).",
        usage: "glyphaudit audit [--preset NAME]… [--spec FILE]… [--only KEY=VALUE]… [--config FILE] [--baseline FILE] "
            + "[--write-baseline FILE] [--fail-on error|warning|never] [--evidence DIR] [--json] [--jobs N] [--quiet] [--verbose]",
        discussion: """
        Renders the selected variants in memory and runs every rule (`glyphaudit rules` lists them). Prints
        the findings grouped by preset and rule with counts, then the details (repeats across Dynamic Type sizes
        and scales folded into one entry; the first 20 entries of a preset, then how many more: --verbose lists
        every finding); with --json, prints them as JSON on stdout instead. Findings a baseline accepts (the config's "accepted" list, or --baseline FILE) are
        shown but never fail the run; an entry that recorded a finding's message accepts it only while the
        message is the same (a finding that changed or got worse shows as new again), and while entries that
        accept findings keep the placeholder reason "TODO: …" a warning on stderr says how many and where.
        --write-baseline FILE writes every open warning and error into FILE as accepted, with its message and
        severity (keeping reasons already given; new ones say "TODO: …"), and exits 0. --evidence DIR writes a picture proving each
        finding. With no --preset and no --spec, the four built-in presets are audited. The configuration is
        --config FILE, else the nearest .glyphaudit.json from the working folder up to the repository root (the
        first folder holding .git; outside a repository, the working folder only); --verbose names it.
        Exit status: 0 clean; 1 open findings at or above --fail-on (default: error); 2 bad input.
        """,
        options: Selection.options + AuditOptions.options + [
            writeBaseline,
            evidence,
            OutputOptions.json.withHelp("Print the findings as JSON on stdout."),
            OutputOptions.verbose.withHelp("List every finding, without folding repeats together or cutting long lists short; "
                                           + "say which configuration file is read."),
            OutputOptions.quiet.withHelp("Print nothing but errors (and --json output)."),
        ],
        run: run)

    static let writeBaseline = Option(name: "write-baseline", value: "FILE", help: "Write every open warning and error as accepted, then exit 0.")
    static let evidence = Option(name: "evidence", value: "DIR", help: "Write a picture proving each finding into DIR.")

    /// `--fail-on`: nil means never.
    static func failLevel(_ args: Arguments) throws(UsageError) -> Severity? {
        switch args.value(AuditOptions.failOn) ?? AuditOptions.failLevels[0] {
        case "error": return .error
        case "warning": return .warning
        case "never": return nil
        case let other: throw UsageError(message: "--fail-on takes \(Arguments.alternatives(AuditOptions.failLevels)), got \"\(other)\"")
        }
    }

    /// The configuration, for every command that reads it (audit, run, rules): `--config FILE`, else
    /// the nearest `.glyphaudit.json` from the working folder up to the repository root
    /// (`AuditConfig.lookup`); plus `--baseline FILE` when the command has it. With `--verbose`, says
    /// on stderr which file it read ("config: PATH").
    static func config(_ args: Arguments) throws -> AuditConfig {
        var config = AuditConfig()
        let verbose = args.flag(OutputOptions.verbose)
        if let file = args.value(AuditOptions.config) {
            guard FileManager.default.fileExists(atPath: file) else {
                throw InputError(file: file, message: "no such configuration file")
            }
            if verbose { Console.info("config: \(file) (--config)") }
            config = try AuditConfig.load(file: file)
        } else {
            let lookup = AuditConfig.lookup(from: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
            if let file = lookup.file {
                if verbose { Console.info("config: \(file)") }
                config = try AuditConfig.load(file: file)
            } else if verbose {
                let top = lookup.searched.last!.path
                Console.info("config: none (no \(AuditConfig.fileName) "
                             + (lookup.searched.count == 1 && !FileManager.default.fileExists(atPath: top + "/.git")
                                ? "in the working folder, which is in no git repository)"
                                : "from the working folder up to the repository root, \(top))"))
            }
        }
        if args.declares(AuditOptions.baseline), let file = args.value(AuditOptions.baseline) {
            guard FileManager.default.fileExists(atPath: file) else {
                throw InputError(file: file, message: "no such baseline file")
            }
            config.accepted += try AuditConfig.loadBaseline(file: file)
        }
        return config
    }

    static func run(_ args: Arguments) throws -> ExitStatus {
        let failOn = try failLevel(args)
        let jobs = try Selection.jobs(args)
        let config = try config(args)
        if let folder = args.value(Self.evidence) { try OutputPaths.folder(folder, option: "--evidence") }
        if let file = args.value(writeBaseline) { try OutputPaths.file(file, option: "--write-baseline") }
        let start = DispatchTime.now()
        let plan = try Selection.plan(args)
        let done = try Pipeline.run(plan, PipelineOptions(jobs: jobs, auditor: Auditor(config: config, rules: Auditor.rules(for: plan.specs)),
                                                          evidence: args.value(Self.evidence).map { URL(fileURLWithPath: $0) }))
        let result = done.audit!
        let elapsed = seconds(since: start)

        let baselineFile = args.value(writeBaseline)
        if let file = baselineFile {
            let data = AuditConfig.baselineData(for: result, previous: config.accepted)
            try AtomicFile.write(data, to: URL(fileURLWithPath: file))
            let n = Set(result.findings.filter { $0.severity >= .warning }.map { "\($0.rule) \($0.variant) \($0.subject)" }).count
            let todo = (try? AuditConfig.loadBaseline(file: file))?.filter(\.hasPlaceholderReason).count ?? 0
            Console.info("wrote \(n) accepted findings to \(file)"
                         + (todo > 0 ? " (\(todo) with a \"\(AcceptedFinding.placeholderPrefix): …\" reason to replace)" : ""))
        } else {
            for w in result.placeholderWarnings { Console.info("glyphaudit: " + w) }
        }
        if args.flag(OutputOptions.json) {
            try Console.stdout(result.jsonData())
        } else if !Console.quiet {
            try Console.out(AuditText.render(result, verbose: args.flag(OutputOptions.verbose), color: AuditText.useColor))
        }
        let presets = result.presets.count == 1 ? "1 preset" : "\(result.presets.count) presets"
        Console.info(String(format: "audited %d variants of %@ with %d rules in %.2f s", result.variants,
                            presets, result.rules.count, elapsed))
        if baselineFile != nil { return .clean }
        return ExitStatus(failed: result.fails(at: failOn))
    }
}

/// The audit as text: counts per preset and rule, then the details, repeats folded together.
enum AuditText {
    static var useColor: Bool {
        isatty(STDOUT_FILENO) != 0 && !Terminal.noColor
    }

    static func paint(_ s: String, _ severity: Severity, _ color: Bool) -> String {
        guard color else { return s }
        let code = switch severity {
        case .error: "31"
        case .warning: "33"
        case .info: "36"
        }
        return "\u{1B}[\(code)m\(s)\u{1B}[0m"
    }

    static func counts(_ findings: [Finding]) -> String {
        var parts: [String] = []
        for s in [Severity.error, .warning, .info] {
            let n = findings.filter { $0.severity == s }.count
            if n > 0 { parts.append("\(n) \(s.rawValue)\(n == 1 ? "" : "s")") }
        }
        return parts.isEmpty ? "clean" : parts.joined(separator: ", ")
    }

    /// Findings that differ only in Dynamic Type size and scale (and their numbers) fold into one entry.
    struct Fold {
        var findings: [Finding]
        var id: String
    }

    static func fold(_ findings: [Finding]) -> [Fold] {
        var order: [String] = []
        var groups: [String: [Finding]] = [:]
        for f in findings {
            let key = f.foldKey
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(f)
        }
        return order.map { key in
            let fs = groups[key]!
            let ids = fs.map(\.id)
            var id = fs[0].variant.description
            if fs.count > 1, ids.allSatisfy(\.isComplete), let merged = VariantID.group(ids) { id = merged.description }
            return Fold(findings: fs, id: id)
        }
    }

    /// How many entries of a list (a preset's folded findings, baseline entries) the text shows
    /// before "… and N more"; --verbose shows every one.
    static let listLimit = 20

    static func render(_ result: AuditResult, verbose: Bool, color: Bool) -> String {
        var out = ""
        let open = result.open
        out += "glyphaudit audit: \(result.variants) variants, \(result.rules.count) rules — \(counts(open))"
        let accepted = result.findings.count - open.count
        if accepted > 0 { out += " (\(accepted) accepted by the baseline)" }
        out += "\n\n"
        for preset in result.presets {
            let fs = open.filter { $0.preset == preset }
            out += "\(preset.padding(toLength: 28, withPad: " ", startingAt: 0))\(counts(fs))\n"
            for rule in result.rules {
                let rs = fs.filter { $0.rule == rule }
                if rs.isEmpty { continue }
                out += "  \(rule.padding(toLength: 26, withPad: " ", startingAt: 0))\(counts(rs))\n"
            }
        }
        if result.findings.isEmpty { return out }
        out += "\nDetails\n"
        for preset in result.presets {
            let fs = result.findings.filter { $0.preset == preset }
            if fs.isEmpty { continue }
            out += "\n\(preset)\n"
            let all = verbose ? fs.map { Fold(findings: [$0], id: $0.variant.description) } : fold(fs)
            let folds = verbose ? all : Array(all.prefix(listLimit))
            for fold in folds {
                let f = fold.findings[0]
                let tag = f.accepted != nil ? "accepted" : f.severity.rawValue
                var head = "  \(paint(tag.padding(toLength: 8, withPad: " ", startingAt: 0), f.severity, color)) \(f.rule)"
                if let c = f.criterion { head += " (\(c))" }
                head += "  \(fold.id)"
                if fold.findings.count > 1 { head += "  [\(fold.findings.count) variants]" }
                out += head + "\n"
                out += "           \(f.message)\n"
                if let s = f.suggestion { out += "           fix: \(s.text)\n" }
                if fold.findings.count > 1 {
                    out += "           (shown: \(f.variant))\n"
                }
                if let a = f.accepted { out += "           accepted: \(a)\n" }
                if let l = f.location { out += "           at \(l.description)\n" }
                if let p = f.picturePath { out += "           evidence: \(p)\n" }
            }
            if folds.count < all.count { out += "  … and \(all.count - folds.count) more in \(preset) (--verbose or --json lists every finding)\n" }
        }
        func entry(_ a: AcceptedFinding) -> String {
            var s = "  \(a.rule)  \(a.variant)\(a.subject.map { "  \($0)" } ?? "")"
            if let file = a.file { s += "  (\(file)\(a.line.map { ":\($0)" } ?? ""))" }
            return s + "\n"
        }
        func more(_ n: Int, of total: Int) -> String {
            n < total ? "  … and \(total - n) more (--verbose lists them all)\n" : ""
        }
        if !result.changedAccepted.isEmpty {
            out += "\nBaseline entries whose finding changed since it was accepted (open again):\n"
            let shown = verbose ? result.changedAccepted : Array(result.changedAccepted.prefix(listLimit))
            for c in shown {
                out += entry(c.entry)
                if let m = c.entry.message { out += "      accepted: \(m)\n" }
                if let s = c.entry.severity, s != c.now.severity { out += "      accepted as \(s.rawValue), now \(c.now.severity.rawValue)\n" }
                out += "      now:      \(c.now.message)\n"
            }
            out += more(shown.count, of: result.changedAccepted.count)
        }
        let stale = result.unusedAccepted.filter { a in !result.changedAccepted.contains { $0.entry == a } }
        if !stale.isEmpty {
            out += "\nBaseline entries that matched no finding (fixed, or stale):\n"
            let shown = verbose ? stale : Array(stale.prefix(listLimit))
            for a in shown { out += entry(a) }
            out += more(shown.count, of: stale.count)
        }
        return out
    }
}
