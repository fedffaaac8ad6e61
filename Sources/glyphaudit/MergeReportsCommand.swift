import Foundation
import GlyphAudit
import GlyphCore
import GlyphReport
import GlyphSnapshot

enum MergeReportsCommand {
    static let command = Command(
        name: "merge-reports",
        summary: "Merge the reports of --shard runs into one complete set of reports.",
        usage: "glyphaudit merge-reports DIR… [--out DIR] [--format LIST] [--fail-on LEVEL] [--root DIR] [--force] [--quiet]",
        discussion: """
        Each DIR is the --report folder of one `glyphaudit run --shard I/N`; its report.json and pictures
        are read. The merged reports equal those of one unsharded run with the same --fail-on (but for times). Run the shards
        with --fail-on never, so that each finishes and every shard's report is there to merge
        (`glyphaudit run --shard I/N --fail-on never --report out-I`): merge-reports decides the run, at its
        own --fail-on (default error, as run's; the level the shards ran with does not count, but all must
        have run with the same). An existing --report folder that is not empty (glyphaudit-out by default)
        is written into only with --force; the files merge-reports writes replace theirs, others are kept.
        The shards' new-snapshots/ folders (renders without a baseline, under CI) are gathered into one, and
        so are their candidates/ (every changed and new render, staged under CI or with --stage, for
        `glyphaudit accept`) with their renderer.json, which must be the same in every shard.
        junit.xml's times are the shards' added up (none with GLYPHAUDIT_REPRODUCIBLE=1, as for run).
        The pictures a report.json names are read only inside its shard folder: an absolute path, a `..`,
        a symbolic link or a file that is not a PNG is refused before anything is written (docs/limits.md).
        Exit status: 0 when the merged run passes; 1 when it has findings at or above --fail-on or snapshot
        failures (at --fail-on never neither fails it); 2 when a report is missing, unreadable, of another run, names a picture outside its folder
        or one that is not a regular PNG file, or a shard is missing or doubled,
        or the --report folder is not empty and --force is not given.
        """,
        options: [
            ReportOptions.report.withHelp("Where to write the merged reports (default: glyphaudit-out; if not empty, only with --force)."),
            ReportOptions.formats,
            AuditOptions.failOn.withHelp("The merged run's fail level: error (default), warning or never (nothing fails)."),
            RootOption.option,
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
        let root = try RootOption.paths(args)
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
        // The shards' times add up; GLYPHAUDIT_REPRODUCIBLE drops them (time="0", no timings).
        if Reproducible.requested() { merged.timings = nil }
        // Every picture the shards wrote, checked before any folder is made or file written: first
        // each name (a plain path inside the shard's folder, ending in .png), then each file (opened
        // inside the shard's folder without following a link, a regular PNG file within the PNG
        // limit). The copy below opens and checks each again, the file it copies.
        var copies: [Picture] = []
        var candidateRenderer: (data: Data, file: String)?
        for (dir, part) in zip(dirs, parts) {
            for ref in part.report.pictureReferences {
                if let problem = Beneath.problem(ref.path) {
                    throw InputError(file: part.file, keyPath: ref.keyPath, message: problem)
                }
                guard ref.path.hasSuffix(".png") else {
                    throw InputError(file: part.file, keyPath: ref.keyPath,
                                     message: "\"\(clipped(ref.path))\" is not a .png file; a report's pictures are PNG files")
                }
                copies.append(Picture(dir: dir, rel: ref.path, report: part.file, keyPath: ref.keyPath))
            }
            // Under CI each shard leaves the renders of its variants without a baseline in
            // new-snapshots/ (snapshot-folder layout, renderer.json beside them): gathered into one.
            for rel in newSnapshotFiles(in: URL(fileURLWithPath: dir)) {
                copies.append(Picture(dir: dir, rel: rel, report: part.file, keyPath: nil))
            }
            // The candidates staged for `accept` (named above among the pictures) come with the
            // fingerprint of their renderer: one renderer for all the shards.
            if part.report.snapshots?.results.contains(where: { $0.candidate != nil }) == true {
                let fingerprint = Picture(dir: dir, rel: candidatesFingerprint, report: part.file, keyPath: "snapshots.candidates")
                let data = try fingerprint.read()
                if let first = candidateRenderer, first.data != data {
                    throw InputError(file: fingerprint.from.path, message: "the candidates of this shard were drawn by another renderer "
                                     + "than those of \(first.file) (their renderer.json differ); merge the shards of one run")
                }
                if candidateRenderer == nil { candidateRenderer = (data, fingerprint.from.path) }
                copies.append(fingerprint)
            }
        }
        for c in copies { _ = try c.read() }
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
        for c in copies {
            let to = out.appendingPathComponent(c.rel)
            if c.from.standardizedFileURL == to.standardizedFileURL { continue }
            try writeIfChanged(try c.read(), to: to)
        }
        try merged.write(to: out, formats: formats, paths: root)
        let counts = merged.counts
        Console.info("merged \(parts.count) reports: \(counted(counts.variants, "variant")), \(counted(counts.errors, "error")), "
                     + "\(counted(counts.warnings, "warning")), \(counted(counts.snapshotFailed, "snapshot failure")) → \(out.path)")
        for line in verdict(merged) { Console.info(line) }
        return merged.status
    }

    /// The fingerprint of the renderer that drew a report's candidates.
    static let candidatesFingerprint = "candidates/renderer.json"

    /// A file a shard's report folder holds for the merged one: a picture its report.json names
    /// (`keyPath`), or a file of its new-snapshots/.
    struct Picture {
        let dir: String
        let rel: String
        let report: String
        let keyPath: String?
        var from: URL { URL(fileURLWithPath: dir).appendingPathComponent(rel) }

        /// Its bytes, read inside the shard's folder (no link followed): a regular PNG file within
        /// the PNG limit, or the renderer.json of new-snapshots/ or candidates/ within its 1 MiB.
        func read() throws(InputError) -> Data {
            let png = rel.hasSuffix(".png")
            let data: Data
            do {
                data = try Beneath.read(rel, in: dir, limit: png ? Limits.pngFileBytes : 1 << 20, what: png ? "picture" : "file")
            } catch {
                if let keyPath, error.missing {
                    throw InputError(file: report, keyPath: keyPath, message: "\"\(clipped(rel))\" is missing from \(dir)")
                }
                throw InputError(file: from.path, message: error.message)
            }
            if png && !data.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
                throw InputError(file: from.path, message: "is not a PNG file (no PNG signature); a report's pictures are PNG files")
            }
            return data
        }
    }

    /// The regular files below a report folder's `new-snapshots/` that a merge gathers (its PNG
    /// files and renderer.json), relative to the report folder, sorted (symbolic links are not
    /// followed; anything else there is left).
    static func newSnapshotFiles(in report: URL) -> [String] {
        let root = report.appendingPathComponent("new-snapshots")
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey]) else { return [] }
        var files: [String] = []
        for case let url as URL in walker where (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true {
            let rel = "new-snapshots/" + url.path.dropFirst(root.path.count + 1)
            if rel.hasSuffix(".png") || rel == "new-snapshots/renderer.json" { files.append(rel) }
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
