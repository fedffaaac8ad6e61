import Foundation
import GlyphAudit
import GlyphColor
import GlyphCore
import GlyphExport
import GlyphPipeline
import GlyphRaster
import GlyphRender
import GlyphReport
import GlyphSnapshot

enum MergeReportsCommand {
    static let command = Command(
        name: "merge-reports",
        summary: "Merge the reports of --shard runs into one complete set of reports.",
        usage: "glyphaudit merge-reports DIR… [--report DIR] [--formats LIST] [--quiet]",
        discussion: """
        Each DIR is the --report folder of one `glyphaudit run --shard I/N`; its report.json and pictures
        are read. The merged reports equal those of one unsharded run. Exit status: 0 when the merged run
        passes, 1 when it has findings at its fail level or snapshot failures, 2 when a report is missing,
        unreadable, of another run, or a shard is missing or doubled.
        """,
        options: [
            Option(name: "report", value: "DIR", help: "Where to write the merged reports (default: glyphaudit-out)."),
            Option(name: "formats", value: "LIST", help: "Comma-separated: html, json, junit, sarif, markdown (default: all)."),
            Option.flag("quiet", "Print nothing but errors."),
        ],
        run: run)

    static func run(_ args: Arguments) throws -> Int32 {
        let dirs = args.positionals
        guard !dirs.isEmpty else { throw UsageError(message: "name the shards' report folders") }
        let formats = try RunCommand.formats(args)
        let out = URL(fileURLWithPath: args.value("report") ?? "glyphaudit-out")
        var parts: [(report: RunReport, file: String)] = []
        for dir in dirs {
            let file = URL(fileURLWithPath: dir).appendingPathComponent(ReportFormat.json.fileName)
            parts.append((try RunReport.read(file), file.path))
        }
        let merged = try RunReport.merge(parts)
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
        return merged.exitStatus
    }
}
