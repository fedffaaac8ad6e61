import Foundation
import GlyphAudit
import GlyphCore
import GlyphPipeline
import GlyphRender
import GlyphReport
import GlyphSnapshot

enum RunCommand {
    static let command = Command(
        name: "run",
        summary: "Render, audit, check snapshots and write every report in one pass (the CI entry point).",
        usage: "glyphaudit run [--preset NAME]… [--spec FILE]… [--only KEY=VALUE]… [--out DIR] [--format LIST] "
            + "[--fail-on LEVEL] [--snapshots DIR] [--record] [--update] [--max-diff-pixels N] [--max-diff-ratio R] "
            + "[--include-aa] [--alpha A] [--ci] [--stage] [--incremental] [--margin-tolerance SHARE] [--shard I/N] [--root DIR] [--config FILE] [--baseline FILE] [--jobs N] [--quiet] [--verbose]",
        discussion: """
        Renders every selected variant once, in memory; audits them (`glyphaudit rules`); compares them with
        their baselines in --snapshots (the default folder, snapshots, is skipped with a note when it does not
        exist; a folder named with --snapshots must exist unless --record (which creates it) or --update is given); and writes
        the reports into --report: index.html (with its pictures), report.json, junit.xml, results.sarif and
        summary.md. With no --preset and no --spec, runs on the four built-in presets. When GITHUB_ACTIONS=true,
        failing findings and snapshots are also printed as workflow annotations (at most 10 ::error and 10
        ::warning, one per rule and preset; docs/report-format.md). Paths in results.sarif, junit.xml and the
        annotations start at the repository root, the nearest folder holding .git at or above the working folder
        (or --root DIR, which must hold the working folder), so a run from a subfolder links up. junit.xml gives
        each test case the time its work took (report.json: timings); with GLYPHAUDIT_REPRODUCIBLE=1 no time
        is written (time="0"), so the same inputs give byte-identical reports.
        Snapshots are compared exactly when --snapshots' renderer.json is this renderer's, else with
        anti-aliasing tolerance and a note per changed component (`glyphaudit check --help`). The summary
        lists at most 20 snapshot failures ("… and N more"; --verbose lists all).
        With DIR/manifest.json, changed snapshots are grouped by cause (summary, report.json snapshotGroups,
        summary.md). --incremental reuses components whose variants' inputs equal their manifest entries:
        not drawn, their audits read from DIR/.glyphaudit-cache/ (docs/snapshots.md); a changed component
        an earlier run audited is drawn again to be compared, its audit read from there too.
        Under CI (--ci, or the environment variable CI set to anything but "", "false" or "0") a variant
        without a baseline fails the run even when there is no snapshot folder at all: its render goes to
        <report>/new-snapshots/ in the snapshot folder's layout, with renderer.json, to be copied over
        the snapshot folder and committed.
        Under CI, or with --stage, every changed and every new render is staged in <report>/candidates/ (the
        snapshot folder's layout, with the renderer.json of the renderer that drew them), and report.json
        records the SHA-256 of every spec, token and image file the run read (inputs): `glyphaudit accept
        <report>` then writes them into the snapshot folder without rendering (`glyphaudit accept --help`).
        Exit status: 0 clean; 1 findings at or above --fail-on, or snapshot failures (not with --fail-on never,
        which exits 0 on both, the reports listing them); 2 bad input (also an
        unreadable baseline, the report written all the same) or a runtime failure; 64 usage error.
        """,
        options: Selection.options + AuditOptions.options + [
            ReportOptions.report,
            ReportOptions.formats,
            SnapshotOptionGroup.snapshots,
            SnapshotOptionGroup.record,
            SnapshotOptionGroup.update,
            SnapshotOptionGroup.maxDiffPixels,
            SnapshotOptionGroup.maxDiffRatio,
        ] + PixelmatchOptionGroup.comparison + [
            SnapshotOptionGroup.ci,
            AcceptCommand.stage,
            ManifestOptions.incremental,
            ManifestOptions.marginTolerance,
            shard,
            RootOption.option,
            OutputOptions.quiet,
            OutputOptions.verbose.withHelp(
                "Also print the configuration file used, how long each stage took, and every snapshot failure (not at most 20)."),
        ],
        run: run)

    static let shard = Option(name: "shard", value: "I/N", help: "Run the I-th of N slices of the matrix (merge them with merge-reports).")

    static func formats(_ args: Arguments) throws(UsageError) -> [ReportFormat] {
        guard args.value(ReportOptions.formats) != nil else { return ReportFormat.allCases }
        let names = args.list(ReportOptions.formats).filter { !$0.isEmpty }
        if names.isEmpty {
            throw UsageError(message: "\(args.spelling(ReportOptions.formats)) needs one or more of \(ReportFormat.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        var out: [ReportFormat] = []
        for n in names {
            guard let f = ReportFormat(rawValue: n) else {
                throw UsageError(message: "\(args.spelling(ReportOptions.formats)) takes \(ReportFormat.allCases.map(\.rawValue).joined(separator: ", ")), got \"\(n)\"")
            }
            if !out.contains(f) { out.append(f) }
        }
        return out
    }

    static func run(_ args: Arguments) throws -> ExitStatus {
        let start = DispatchTime.now()
        let formats = try formats(args)
        let failOn = try AuditCommand.failLevel(args)
        let jobs = try Selection.jobs(args)
        var shard: Shard?
        if let s = args.value(Self.shard) {
            guard let parsed = Shard(s) else { throw UsageError(message: "--shard takes I/N with 1 ≤ I ≤ N, got \"\(s)\"") }
            shard = parsed
        }
        let maxPixels = try args.int(SnapshotOptionGroup.maxDiffPixels)
        let maxRatio = try args.double(SnapshotOptionGroup.maxDiffRatio)
        let pixelmatch = try CheckCommand.pixelmatch(args)
        let config = try AuditCommand.config(args)
        let root = try RootOption.paths(args)
        let report = URL(fileURLWithPath: args.value(ReportOptions.report) ?? "glyphaudit-out")
        try OutputPaths.folder(args.value(ReportOptions.report) ?? "glyphaudit-out", option: args.spelling(ReportOptions.report))
        var writes: SnapshotWrites = []
        if args.flag(SnapshotOptionGroup.record) { writes.insert(.record) }
        if args.flag(SnapshotOptionGroup.update) { writes.insert(.update) }
        // Before anything is rendered or written: a folder named with --snapshots must be there (a
        // typo must not pass as "nothing to check"); the default one may be missing (not checked).
        let (snapshotFolder, snapshotsExist) = try CheckCommand.snapshotFolder(args)
        if !snapshotsExist && args.value(SnapshotOptionGroup.snapshots) != nil && writes.isEmpty {
            throw InputError(file: snapshotFolder.path,
                             message: "the snapshot folder given with --snapshots does not exist (run with --record to create it)")
        }
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let progress = Progress(enabled: !Console.quiet, timings: args.flag(OutputOptions.verbose))

        progress.stage("laying out")
        // Selection.plan refuses an empty plan, but a shard may rightly be empty: refuse only an
        // empty selection (before sharding).
        let filter = try Selection.filter(args)
        let (specs, read) = try InputLog.recording { try Selection.specs(args) }
        let plan = try Plan(specs: specs, filter: filter, shard: shard)
        if plan.selected == 0 {
            throw InputError(file: "--only", message: "no variant matches \(args.all(SelectionOptions.only).joined(separator: " ")) "
                             + "(\(plan.total) variants before filtering)")
        }
        if plan.items.isEmpty {
            // A shard may hold nothing when there are more shards than presets.
            progress.note("shard \(shard?.description ?? "") holds no variant of this run")
        }

        // Under CI a missing baseline fails, so the baselines are checked even when there are none.
        let ci = CheckCommand.ci(args)
        let checking = snapshotsExist || !writes.isEmpty || ci
        if !checking {
            progress.note("no baselines in \(snapshotFolder.path): snapshots not checked (run with --record to create them)")
        }
        progress.stage("rendering, auditing\(checking ? ", checking" : "") \(plan.items.count) variants")
        progress.count("rendering, auditing\(checking ? ", checking" : "")", total: plan.items.count)
        var job = RunJob(
            jobs: jobs, config: config, report: report, formats: formats, shard: shard, failOn: failOn, filter: filter,
            snapshots: checking ? snapshotFolder : nil,
            snapshotOptions: SnapshotOptions(pixelmatch: pixelmatch, maxDiffPixels: maxPixels, maxDiffRatio: maxRatio),
            snapshotWrites: writes, staleScope: CheckCommand.staleScope(args), ci: ci, cwd: cwd, tool: "glyphaudit \(version)").reporting { progress.advance($0) }
        job.stage = args.flag(AcceptCommand.stage)
        job.inputs = InputRecord.list(read, base: cwd)
        job.incremental = args.flag(ManifestOptions.incremental)
        job.timed = !Reproducible.requested()
        job.marginTolerance = try marginTolerance(args)
        let outcome = try Pipeline.run(plan, job)
        for w in outcome.audit.placeholderWarnings { progress.note("glyphaudit: " + w) }
        for note in outcome.snapshots?.comparisonNotes ?? [] { progress.note(note) }
        let result = outcome.report, audit = outcome.audit, snapshotReport = outcome.snapshots
        for format in formats {
            progress.stage("writing \(format.fileName)")
            try result.write(to: report, formats: [format], paths: root)
        }
        progress.done()

        try printSummary(result, audit: audit, snapshots: snapshotReport, report: report, formats: formats, seconds: seconds(since: start),
                     verbose: args.flag(OutputOptions.verbose))
        if ProcessInfo.processInfo.environment["GITHUB_ACTIONS"] == "true" {
            for line in result.githubAnnotations(paths: root) { try Console.out(line) }
        }
        if let s = snapshotReport {
            if let e = s.fingerprintError { Console.error(e) }
            if let message = CheckCommand.missingMessage(s, args: args, copyFrom: ci ? report.appendingPathComponent(RunJob.newSnapshotsFolder) : nil) {
                Console.error(message)
            }
            if let message = AcceptCommand.stagedMessage(s, report: report, args: args) { Console.info(message) }
        }
        // An unreadable baseline is bad input, as in `check`: named on stderr, exit 2 (the report,
        // written all the same, shows it among the snapshots); after a failed write (also named) it is not.
        let writeFailed = snapshotReport?.results.contains(where: { $0.writeError != nil }) == true || snapshotReport?.fingerprintError != nil
        if !writeFailed {
            for r in snapshotReport?.results ?? [] where r.status == .unreadable {
                Console.error("\(r.baseline): unreadable baseline: \(r.message ?? "?")")
            }
        }
        return ExitStatus(failed: !result.passed, badInput: snapshotReport?.badInput ?? false)
    }

    static func printSummary(_ r: RunReport, audit: AuditResult, snapshots: SnapshotReport?, report: URL,
                             formats: [ReportFormat], seconds: Double, verbose: Bool = false) throws(Console.OutputFailure) {
        if Console.quiet { return }
        let c = r.counts
        var lines: [String] = []
        lines.append("glyphaudit run: \(c.variants) variants\(r.shard.map { " (shard \($0))" } ?? "") — "
                     + (r.passed ? "passed" : "failed") + " (fails on \(r.failOn))")
        lines.append("  findings: \(counted(c.errors, "error")), \(counted(c.warnings, "warning")), \(c.infos) info"
                     + (c.accepted > 0 ? ", \(c.accepted) accepted" : ""))
        for rule in r.rules {
            guard let byRule = c.byRule[rule.id] else { continue }
            let parts = ["error", "warning", "info"].compactMap { s in byRule[s].map { counted($0, s) } }
            lines.append("    \(rule.id.padding(toLength: 22, withPad: " ", startingAt: 0)) \(parts.joined(separator: ", "))")
        }
        if let s = snapshots {
            let k = s.counts
            lines.append("  snapshots (\(relativePath(s.snapshots, base: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)))): "
                         + "\(k.match) match\(CheckCommand.withinTolerance(k.withinTolerance)), \(k.mismatch) changed, \(k.new) new, \(k.stale) stale"
                         + (k.recorded > 0 ? ", \(k.recorded) recorded" : "") + (k.updated > 0 ? ", \(k.updated) updated" : "")
                         + (k.unreadable > 0 ? ", \(k.unreadable) unreadable" : ""))
            if let file = s.fingerprintWritten { lines.append("    wrote \(CheckCommand.displayPath(file))") }
            if let note = s.fingerprintNote { lines.append("    \(CheckCommand.displayPath(note))") }
            if let file = s.manifestWritten { lines.append("    wrote \(CheckCommand.displayPath(file))") }
            lines += CheckCommand.groupLines(s.groups, indent: "  ")
            let failures = s.results.filter(\.failed).map { "    \($0.status.rawValue): \($0.id)" }
            let where_ = [ReportFormat.html, .json, .markdown, .junit, .sarif].first(where: formats.contains)
                .map { CheckCommand.displayPath(report.appendingPathComponent($0.fileName).path) }
            lines += verbose ? failures : capped(failures, limit: CheckCommand.listLimit, indent: "    ", note: "see \(where_ ?? "--verbose")")
        } else {
            lines.append("  snapshots: not checked")
        }
        lines.append("  reports: " + formats.map { report.appendingPathComponent($0.fileName).path }.joined(separator: ", "))
        lines.append(String(format: "  %.2f s", seconds))
        for l in lines { try Console.out(l) }
    }

    /// `--margin-tolerance SHARE` (0–1), nil when not given (`run` and `check`).
    static func marginTolerance(_ args: Arguments) throws -> Double? {
        guard let t = try args.double(ManifestOptions.marginTolerance) else { return nil }
        guard t >= 0 && t <= 1 else { throw UsageError(message: "--margin-tolerance takes a share from 0 to 1, got \(t)") }
        return t
    }
}
