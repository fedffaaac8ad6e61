import Foundation
import GlyphAudit
import GlyphCore
import GlyphReport
import GlyphSnapshot

enum MergeReportsCommand {
    static let command = Command(
        name: "merge-reports",
        summary: "Merge the reports of --shard runs into one complete set of reports.",
        usage: "glyphaudit merge-reports DIR… [--report DIR] [--formats LIST] [--fail-on LEVEL] [--force] [--quiet]",
        discussion: """
        Each DIR is the --report folder of one `glyphaudit run --shard I/N`; its report.json and pictures
        are read. The merged reports equal those of one unsharded run with the same --fail-on. Run the shards
        with --fail-on never, so that each finishes and every shard's report is there to merge
        (`glyphaudit run --shard I/N --fail-on never --report out-I`): merge-reports decides the run, at its
        own --fail-on (default error, as run's; the level the shards ran with does not count, but all must
        have run with the same). An existing --report folder that is not empty (glyphaudit-out by default)
        is written into only with --force; the files merge-reports writes replace theirs, others are kept.
        The shards' new-snapshots/ folders (renders without a baseline, under CI) are gathered into one.
        Exit status: 0 when the merged run passes; 1 when it has findings at or above --fail-on or snapshot
        failures; 2 when a report is missing, unreadable, of another run, or a shard is missing or doubled,
        or the --report folder is not empty and --force is not given.
        """,
        options: [
            ReportOptions.report.withHelp("Where to write the merged reports (default: glyphaudit-out; if not empty, only with --force)."),
            ReportOptions.formats,
            AuditOptions.failOn.withHelp("The merged run's fail level: error (default), warning or never."),
            force,
            OutputOptions.quiet,
        ],
        run: run)

    static let force = Option.flag("force", "Write into a --report folder that is not empty.")

    /// How many failed snapshots the summary names before "… and N more".
    static let listLimit = 10

    static func run(_ args: Arguments) throws -> ExitStatus {
        let dirs = args.positionals
        guard !dirs.isEmpty else { throw UsageError(message: "name the shards' report folders") }
        let formats = try RunCommand.formats(args)
        let failOn = try AuditCommand.failLevel(args)?.rawValue ?? "never"
        let out = URL(fileURLWithPath: args.value(ReportOptions.report) ?? "glyphaudit-out")
        try checkDestination(out, force: args.flag(force))
        var parts: [(report: RunReport, file: String)] = []
        for dir in dirs {
            let file = URL(fileURLWithPath: dir).appendingPathComponent(ReportFormat.json.fileName)
            parts.append((try RunReport.read(file), file.path))
        }
        var merged = try RunReport.merge(parts)
        // The merge decides the run: the shards ran with their own level (`never`, so each finished).
        merged.failOn = failOn
        // Copy every picture the shards wrote (checked first, so nothing is written on bad input).
        var copies: [(from: URL, to: URL)] = []
        for (dir, part) in zip(dirs, parts) {
            for rel in part.report.referencedFiles {
                let from = URL(fileURLWithPath: dir).appendingPathComponent(rel)
                guard FileManager.default.fileExists(atPath: from.path) else {
                    throw InputError(file: from.path, message: "the report refers to this file, but it is missing")
                }
                copies.append((from, out.appendingPathComponent(rel)))
            }
            // Under CI each shard leaves the renders of its variants without a baseline in
            // new-snapshots/ (snapshot-folder layout, renderer.json beside them): gathered into one.
            for rel in newSnapshotFiles(in: URL(fileURLWithPath: dir)) {
                copies.append((URL(fileURLWithPath: dir).appendingPathComponent(rel), out.appendingPathComponent(rel)))
            }
        }
        // A shard run without pictures (an older `run --shard --formats json`) leaves the merged HTML
        // report without contact sheets: say so rather than lose them silently.
        if formats.contains(.html) {
            for (report, file) in parts {
                let missing = report.picturesMissing
                if missing > 0 {
                    Console.info("warning: \(file): \(counted(missing, "@2x variant")) without a picture (that run wrote no html); "
                                 + "the merged HTML report lacks their contact-sheet cells and evidence. Rerun the shard to get them.")
                }
            }
        }
        for c in copies where c.from.standardizedFileURL != c.to.standardizedFileURL {
            let data: Data
            do { data = try InputFile.read(c.from.path, limit: Limits.pngFileBytes, what: "picture") } catch {
                throw InputError(file: c.from.path, message: error.message)
            }
            try writeIfChanged(data, to: c.to)
        }
        try merged.write(to: out, formats: formats)
        let counts = merged.counts
        Console.info("merged \(parts.count) reports: \(counted(counts.variants, "variant")), \(counted(counts.errors, "error")), "
                     + "\(counted(counts.warnings, "warning")), \(counted(counts.snapshotFailed, "snapshot failure")) → \(out.path)")
        for line in verdict(merged) { Console.info(line) }
        return merged.status
    }

    /// The regular files below a report folder's `new-snapshots/`, relative to the report folder,
    /// sorted (symbolic links are not followed).
    static func newSnapshotFiles(in report: URL) -> [String] {
        let root = report.appendingPathComponent("new-snapshots")
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey]) else { return [] }
        var files: [String] = []
        for case let url as URL in walker where (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true {
            files.append("new-snapshots/" + url.path.dropFirst(root.path.count + 1))
        }
        return files.sorted()
    }

    /// An existing destination that is not an empty folder is written into only with --force (a
    /// file in its place never): nothing of an earlier run is replaced unasked.
    static func checkDestination(_ out: URL, force: Bool) throws(InputError) {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: out.path, isDirectory: &isFolder) else { return }
        guard isFolder.boolValue else {
            throw InputError(file: out.path, message: "exists and is not a folder; name another with --report DIR")
        }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? []
        if !entries.isEmpty && !force {
            throw InputError(file: out.path, message: "the folder exists and is not empty (\(entries.count) \(entries.count == 1 ? "entry" : "entries")); "
                             + "merge-reports writes into it only with --force, or name another with --report DIR")
        }
    }

    /// Whether the merged run passes at its level, and what fails it: findings by rule, then the
    /// failed snapshots (the first few, then how many more).
    static func verdict(_ r: RunReport) -> [String] {
        let failing = r.failingFindings
        let snapshots = (r.snapshots?.results ?? []).filter(\.failed)
        var lines = ["merged run: \(r.passed ? "passed" : "failed") (fails on \(r.failOn))"
                     + (r.passed ? "" : ": \(counted(failing.count, "finding")), \(counted(snapshots.count, "snapshot failure"))")]
        for rule in r.rules.map(\.id) {
            let fs = failing.filter { $0.rule == rule }
            if fs.isEmpty { continue }
            let parts = ["error", "warning"].compactMap { s -> String? in
                let n = fs.filter { $0.severity.rawValue == s }.count
                return n > 0 ? counted(n, s) : nil
            }
            lines.append("  \(rule.padding(toLength: 22, withPad: " ", startingAt: 0)) \(parts.joined(separator: ", "))")
        }
        lines += capped(snapshots.map { "  snapshot \($0.status.rawValue): \($0.id)" }, limit: listLimit)
        return lines
    }
}
