import Foundation
import GlyphAudit
import GlyphCore
import GlyphPipeline
import GlyphReport
import GlyphSnapshot

enum CheckCommand {
    static let command = Command(
        name: "check",
        summary: "Compare renders with the baseline PNGs; record, update or prune baselines.",
        usage: "glyphaudit check [--preset NAME]… [--spec FILE]… [--only KEY=VALUE]… [--jobs N] [--snapshots DIR] "
            + "[--out DIR] [--record] [--update] [--prune] [--max-diff-pixels N] [--max-diff-ratio R] [--threshold T] "
            + "[--include-aa] [--alpha A] [--ci] [--stage] [--incremental] [--margin-tolerance SHARE] [--json] [--quiet] [--verbose]",
        discussion: """
        Renders every selected variant in memory and compares it with its baseline
        DIR/<preset>/<shape>-<size>/<dynamic type>/<theme>/<state>@<scale>x.png (libpng decode; identical
        pixels are found with one memory comparison, pixelmatch v6.0.0 runs only where they differ).
        A variant fails when more pixels differ than the gates allow (with no gate, any pixel) or when
        its size changed. The largest colour difference is on --threshold's scale. For each failing
        variant three PNGs go to --out: <id>.actual.png, <id>.diff.png (pixelmatch's diff image) and
        <id>.sidebyside.png (expected | actual | diff).

        DIR/renderer.json records what rendered the baselines: glyphaudit's render version, cairo,
        pango, librsvg, libpng, zlib and the label fonts (name and SHA-256). When it is this renderer's,
        the comparison is exact: anti-aliased pixels count and the colour threshold is 0 (unless
        --threshold is given), so every changed pixel counts against the gates. When it is not, or it
        is missing, pixelmatch's tolerances apply (threshold 0.1, anti-aliasing ignored unless
        --include-aa), one line on stderr names each component that changed, and pixels that differ
        within tolerance pass, counted in the summary ("8 match (1 differs within tolerance)").
        --record and --update write it (atomically) when every baseline compared agrees with this
        renderer; --update of a folder of another renderer compares exactly and rewrites every
        baseline that changed, so the folder is rebased in one step.

        Listed on stdout: mismatches with their numbers, new variants (no baseline), stale baselines
        and unreadable baselines, at most 20 failures and 20 stale baselines ("… and N more";
        --verbose lists all). Baselines written (--record, --update, --prune) are counted in one
        paragraph; --verbose lists each. A stale baseline is a PNG that no variant of the run's
        specs' full matrix produces (--only never makes one stale). With no --preset and no --spec every PNG in
        DIR counts, at its root and in folders of presets that no longer exist included; with
        --preset or --spec only those presets' folders DIR/<name>/ are looked at. Nothing else
        writes a baseline than --record (missing ones), --update (failing ones; matching files are
        left untouched) and --prune (stale ones). An unreadable baseline is never overwritten:
        delete it and run --record.
        Every write is atomic (temporary dotfile in the same folder, then rename); dotfiles are ignored.

        DIR/manifest.json (written by --record and --update) records per variant the SHA-256 of its resolved
        inputs (scene, spec and token keys, renderer) and the keys' values. With it, changed baselines are
        grouped by cause ("24 variants: sizes.sm.markWeight 1.5 → 2.25"; a renderer change, or pixels that
        changed with every input the same, as groups of their own; identical diffs folded) and baselines whose
        inputs changed while their pixels still match are listed as stale. A key keeps its recorded value while
        a variant left as it was (outside --only, or a mismatch --record leaves) was recorded with it, so the
        next check still names that variant's cause. --incremental does not redraw a
        variant whose inputs equal its manifest entry (for local loops; docs/snapshots.md).
        The manifest also keeps each variant's audit numbers (state-change areas, contrast ratios, room inside
        the frames, target size): with a manifest, or when writing one or staging, check audits as run does
        (the rules of the nearest .glyphaudit.json) and lists a number that fell by more than the tolerance
        (--margin-tolerance, else rules.margin.tolerance, else 0.25) as a `margin` line with both numbers, a warning unless
        .glyphaudit.json's rules.margin says otherwise (error: exit 1).

        Under CI (--ci, or the environment variable CI set to anything but "", "false" or "0") the
        render of each variant without a baseline is written to <out>/new-snapshots/ in the snapshot
        folder's layout, with renderer.json, and a message says how to add them.
        Under CI, or with --stage, every changed and every new render is staged in <out>/candidates/ (the
        snapshot folder's layout, with renderer.json), and <out>/report.json lists them with the SHA-256 of
        every spec, token and image file the check read: `glyphaudit accept <out>` writes them into the
        snapshot folder without rendering (`glyphaudit accept --help`).

        Exit status: 0 every variant matches (after --record/--update); 1 a mismatch, or a new variant
        without --record; 2 an unreadable baseline or renderer.json, a file that cannot be written, or
        bad input. Stale baselines are reported but do not fail the check.
        """,
        options: Selection.options + [
            SnapshotOptionGroup.snapshots.withHelp("The baselines (default: snapshots)."),
            out,
            SnapshotOptionGroup.record.withHelp("Write the baselines that are missing (and renderer.json)."),
            SnapshotOptionGroup.update.withHelp("Rewrite the baselines of failing variants (only those), and renderer.json."),
            prune,
            SnapshotOptionGroup.maxDiffPixels.withHelp(
                "Pass a variant when at most N pixels differ (default 0; with --max-diff-ratio alone, that gate only)."),
            SnapshotOptionGroup.maxDiffRatio.withHelp(
                "Pass a variant when at most this share (0-1) of its pixels differ; both gates must hold when both are set."),
            PixelmatchOptionGroup.threshold,
        ] + PixelmatchOptionGroup.comparison + [
            SnapshotOptionGroup.ci,
            AcceptCommand.stage,
            ManifestOptions.incremental,
            ManifestOptions.marginTolerance,
            OutputOptions.json.withHelp("Print every result as JSON on stdout (instead of the list)."),
            OutputOptions.quiet.withHelp("No summary line on stderr; only the list (or JSON)."),
            OutputOptions.verbose.withHelp("List every result and every baseline written (not at most 20 lines and a count)."),
        ],
        run: run)

    static let out = Option(name: "out", value: "DIR", help: "Where the pictures of mismatches go (default: glyphaudit-out/snapshots).")
    static let prune = Option.flag("prune", "Delete stale baselines.")

    /// Whether the run is under CI: `--ci`, or `CI` set to a non-empty value other than `false` / `0`.
    static func ci(_ args: Arguments, environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        if args.flag(SnapshotOptionGroup.ci) { return true }
        guard let value = environment["CI"]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return false }
        return !["false", "0"].contains(value.lowercased())
    }

    /// How many lines of results a listing shows without --verbose.
    static let listLimit = 20

    /// pixelmatch's options from --include-aa, --alpha and (where the command has it) --threshold.
    static func pixelmatch(_ args: Arguments) throws -> PixelmatchOptions {
        var pixelmatch = PixelmatchOptions()
        if args.declares(PixelmatchOptionGroup.threshold), let t = try args.double(PixelmatchOptionGroup.threshold) { pixelmatch.threshold = t }
        if let a = try args.double(PixelmatchOptionGroup.alpha) { pixelmatch.alpha = a }
        pixelmatch.includeAA = args.flag(PixelmatchOptionGroup.includeAA)
        return pixelmatch
    }

    /// The folder of the baselines (--snapshots, default `snapshots`) and whether it exists; a file
    /// standing there is bad input (2), before anything is rendered.
    static func snapshotFolder(_ args: Arguments) throws -> (url: URL, exists: Bool) {
        let folder = URL(fileURLWithPath: args.value(SnapshotOptionGroup.snapshots) ?? "snapshots")
        var info = stat()
        guard stat(folder.path, &info) == 0 else { return (folder, false) }
        if (info.st_mode & S_IFMT) != S_IFDIR {
            throw InputError(file: folder.path, message: "is a file, not a folder; --snapshots takes the folder of the baselines")
        }
        return (folder, true)
    }

    static func run(_ args: Arguments) throws -> ExitStatus {
        if !args.positionals.isEmpty {
            throw UsageError(message: "check takes no arguments, got \"\(args.positionals[0])\"")
        }
        let jobs = try Selection.jobs(args)
        let options = SnapshotOptions(pixelmatch: try pixelmatch(args),
                                      maxDiffPixels: try args.int(SnapshotOptionGroup.maxDiffPixels),
                                      maxDiffRatio: try args.double(SnapshotOptionGroup.maxDiffRatio),
                                      exactThreshold: try args.double(PixelmatchOptionGroup.threshold) ?? 0)
        var writes: SnapshotWrites = []
        if args.flag(SnapshotOptionGroup.record) { writes.insert(.record) }
        if args.flag(SnapshotOptionGroup.update) { writes.insert(.update) }
        if args.flag(prune) { writes.insert(.prune) }
        let (snapshots, _) = try snapshotFolder(args)
        let out = URL(fileURLWithPath: args.value(Self.out) ?? "glyphaudit-out/snapshots")
        // Written only on failures, so the default is not checked (a file named glyphaudit-out may be there).
        if let given = args.value(Self.out) { try OutputPaths.folder(given, option: "--out") }
        let ci = ci(args)
        let verbose = args.flag(OutputOptions.verbose)
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)

        let start = DispatchTime.now()
        let staging = ci || args.flag(AcceptCommand.stage)
        let (plan, read) = try InputLog.recording { try Selection.plan(args) }
        // The audit numbers kept in the manifest are measured with the configuration's rules, and its
        // `rules.margin` says how a loss is reported (docs/snapshots.md, "Audit margins"): read only
        // when the check may measure them.
        let manifestThere = FileManager.default.fileExists(atPath: snapshots.appendingPathComponent(SnapshotManifest.fileName).path)
        let config = manifestThere || !writes.isDisjoint(with: [.record, .update]) || staging ? try marginConfig(cwd) : AuditConfig()
        let policy = MarginPolicy(config: config, tolerance: try RunCommand.marginTolerance(args))
        // One transaction: the files written are renamed into place when the check ends, and none is
        // when a write fails (full disk, read-only folder): then the temporary files and the folders
        // the run made are removed, and one message says so.
        let (done, failure) = try AtomicFile.transaction { () throws -> (SnapshotReport, URL?, [Finding]) in
            let store = SnapshotStore(root: snapshots), scope = staleScope(args)
            let listing = BaselineListing(store: store, folders: scope == .specFolders ? plan.specs.map(\.name) : nil)
            let checker = try SnapshotChecker.fingerprinted(
                store: store, output: out, options: options, writes: writes, staleScope: scope,
                newSnapshots: ci ? out.appendingPathComponent(RunJob.newSnapshotsFolder) : nil,
                candidates: staging ? out.appendingPathComponent(RunJob.candidatesFolder) : nil, listing: listing, cwd: cwd)
            let outcome = try Pipeline.check(plan, checker: checker, jobs: jobs, incremental: args.flag(ManifestOptions.incremental),
                                             config: config, policy: policy, tool: "glyphaudit \(version)")
            let report = outcome.snapshots
            // The accept step's report: the candidates and the inputs they were drawn from.
            if staging && !AtomicFile.transactionFailed {
                try AcceptCommand.writeCheckReport(report, plan: plan, filter: try Selection.filter(args), inputs: InputRecord.list(read, base: cwd),
                                                   margins: outcome.margins, snapshots: snapshots, out: out, cwd: cwd)
            }
            if AtomicFile.transactionFailed, let lock = checker.lock { lock.release(removeFile: lock.madeFolder) }
            return (report, checker.newSnapshots, outcome.margins)
        }
        let report = done.0
        let margins = done.2
        // A margin loss fails the check only when the configuration makes `margin` an error.
        let status: ExitStatus = report.status == .clean && margins.contains { $0.severity == .error } ? .failed : report.status
        if let failure {
            let written = report.results.count { $0.action == .recorded || $0.action == .updated }
            let pruned = report.results.count { $0.action == .pruned }
            Console.writeFailure(failure, detail: "nothing was written: the \(counted(written, "baseline")) this run had written were never renamed into place "
                          + "and the folders it made were removed"
                          + (pruned > 0 ? "; \(counted(pruned, "stale baseline")) had been deleted (--prune)" : ""))
            return .badInput
        }

        for note in report.comparisonNotes ?? [] { Console.info(note) }
        if args.flag(OutputOptions.json) {
            var json = JSONReport(report: report)
            json.exitStatus = status.rawValue
            json.margins = margins.isEmpty ? nil : margins.map(JSONReport.MarginLoss.init)
            try Console.stdout(JSONOutput.data(json))
        } else {
            var lines = listing(report, verbose: verbose, see: "--verbose lists them all, --json gives every result")
            lines += capped(margins.map(describe), limit: verbose ? Int.max : listLimit, indent: "", note: "--verbose lists them all")
            lines += groupLines(report.groups)
            if !writes.isEmpty && !verbose { lines.append(writeSummary(report)) }
            try Console.stdout(Data(lines.map { $0 + "\n" }.joined().utf8))
        }
        for r in report.results {
            if r.status == .unreadable {
                Console.error("\(r.baseline): unreadable baseline: \(r.message ?? "?")")
            }
            if let e = r.writeError { Console.error(e) }
        }
        if let e = report.fingerprintError { Console.error(e) }
        if let message = missingMessage(report, args: args, copyFrom: done.1) { Console.error(message) }
        if let message = AcceptCommand.stagedMessage(report, report: out, args: args) { Console.info(message) }
        Console.info(summary(report.counts, elapsed: seconds(since: start)))
        return status
    }

    /// The configuration the margins are measured and reported with: the nearest `.glyphaudit.json`
    /// from the working folder up to the repository root, as `audit` finds it (check has no --config).
    static func marginConfig(_ cwd: URL) throws -> AuditConfig {
        guard let file = AuditConfig.lookup(from: cwd).file else { return AuditConfig() }
        return try AuditConfig.load(file: file)
    }

    /// One line of a margin loss: `margin     <id>  warning: contrast.fill fell from 7 to 4 (…)`.
    static func describe(_ f: Finding) -> String {
        "margin".padding(toLength: 11, withPad: " ", startingAt: 0) + "\(f.variant)  \(f.severity.rawValue): \(f.message)"
    }

    /// The lines of the results worth a line: without `verbose`, the baselines written are left to
    /// `writeSummary` and at most `listLimit` lines are shown, then "… and N more (<see>)".
    static func listing(_ report: SnapshotReport, verbose: Bool, see: String) -> [String] {
        let shown = report.results.filter { r in verbose || r.action == nil || r.writeError != nil }
        if verbose { return shown.compactMap { describe($0) } }
        // Failures and stale baselines are capped each on their own, so neither hides the other.
        return capped(shown.filter { $0.status != .stale }.compactMap { describe($0) }, limit: listLimit, indent: "", note: see)
            + capped(shown.filter { $0.status == .stale }.compactMap { describe($0) }, limit: listLimit, indent: "", note: see)
    }

    /// One paragraph for the writes of --record, --update and --prune: what was written, left
    /// unchanged and removed, and what became of renderer.json.
    static func writeSummary(_ report: SnapshotReport) -> String {
        let c = report.counts
        let written = c.recorded + c.updated
        var text = "\(displayPath(report.snapshots)): \(counted(written, "baseline")) written (\(c.recorded) recorded, \(c.updated) updated), "
            + "\(c.match) unchanged, \(c.pruned) stale removed"
        if let file = report.fingerprintWritten {
            text += "; \(displayPath(file)) written"
        } else if let note = report.fingerprintNote {
            text += "; \(displayPath(note))"
        }
        if let file = report.manifestWritten { text += "; \(displayPath(file)) written" }
        return text + (written + c.pruned > 0 ? " (--verbose lists every file)." : ".")
    }

    /// Under CI, for the variants without a baseline: how to add them; nil when there are none or
    /// their renders were not written (not under CI).
    static func missingMessage(_ report: SnapshotReport, args: Arguments, copyFrom folder: URL?) -> String? {
        let missing = report.missing
        guard let folder, !missing.isEmpty, missing.contains(where: { $0.newRender != nil }) else { return nil }
        var command = ["glyphaudit", "check", "--record"]
        for p in args.all(SelectionOptions.preset) { command += ["--preset", p] }
        for s in args.all(SelectionOptions.spec) { command += ["--spec", s] }
        for o in args.all(SelectionOptions.only) { command += ["--only", o] }
        if let s = args.value(SnapshotOptionGroup.snapshots) { command += ["--snapshots", s] }
        let quoted = command.map(shellQuoted)
        let target = displayPath(report.snapshots)
        return "\(counted(missing.count, "baseline")) missing: record them with `\(quoted.joined(separator: " "))` "
            + "(or run --record), or copy \(displayPath(folder.path))/ into \(target)/ (renderer.json included) and commit them"
    }

    /// The default selection (no --preset, no --spec: every built-in preset) owns the whole snapshot
    /// folder; a selection the user picked owns only its presets' folders.
    /// The changes by cause (`SnapshotGroup`): a heading and one line per group, its variants'
    /// count, what changed and its id (for `accept --group`); nothing without a manifest or a change.
    static func groupLines(_ groups: [SnapshotGroup]?, indent: String = "") -> [String] {
        guard let groups, !groups.isEmpty else { return [] }
        return ["\(indent)changes by cause (\(counted(groups.count, "group"))):"]
            + groups.map { "\(indent)  \($0.id)  \($0.summary)" }
    }

    static func staleScope(_ args: Arguments) -> StaleScope {
        args.all(SelectionOptions.preset).isEmpty && args.all(SelectionOptions.spec).isEmpty ? .wholeFolder : .specFolders
    }

    /// The JSON document: the results, the counts and the exit status.
    struct JSONReport: Encodable {
        var snapshots: String
        var summary: SnapshotReport.Counts
        var exitStatus: Int32
        /// Exact comparison (renderer.json is this renderer's), and why not.
        var exact: Bool?
        var comparisonNotes: [String]?
        var fingerprintWritten: String?
        var fingerprintNote: String?
        var fingerprintError: String?
        var newSnapshots: String?
        var manifestWritten: String?
        var snapshotGroups: [SnapshotGroup]?
        var results: [Result]
        /// The audit numbers that fell from the manifest's by more than the tolerance.
        var margins: [MarginLoss]?

        /// A `margin` finding: the variant (a group id, `*` where its variants differ), the number's
        /// name, both numbers (of the largest loss) and how many variants lost it.
        struct MarginLoss: Encodable {
            var id: String
            var variants: Int
            var name: String
            var severity: Severity
            var before: Double
            var after: Double
            var tolerance: Double
            var message: String

            init(_ f: Finding) {
                id = f.variant.description
                variants = Int(f.numbers["variants"] ?? 1)
                name = f.subject
                severity = f.severity
                before = f.numbers["before"] ?? 0
                after = f.numbers["after"] ?? 0
                tolerance = f.numbers["tolerance"] ?? 0
                message = f.message
            }
        }

        /// A result, with `withinTolerance` for a match whose pixels differ.
        struct Result: Encodable {
            var id: VariantID
            var status: SnapshotResult.Status
            var baseline: String
            var action: SnapshotResult.Action?
            var withinTolerance: Bool?
            var difference: ImageDifference?
            var message: String?
            var outputs: SnapshotResult.Outputs?
            var writeError: String?
            var newRender: String?

            init(_ r: SnapshotResult) {
                id = r.id
                status = r.status
                baseline = r.baseline
                action = r.action
                withinTolerance = r.withinTolerance ? true : nil
                difference = r.difference
                message = r.message
                outputs = r.outputs
                writeError = r.writeError
                newRender = r.newRender
            }
        }

        init(report: SnapshotReport) {
            snapshots = report.snapshots
            summary = report.counts
            exitStatus = report.exitStatus
            exact = report.exact
            comparisonNotes = report.comparisonNotes
            fingerprintWritten = report.fingerprintWritten
            fingerprintNote = report.fingerprintNote
            fingerprintError = report.fingerprintError
            newSnapshots = report.newSnapshots
            manifestWritten = report.manifestWritten
            snapshotGroups = report.groups
            results = report.results.map(Result.init)
        }
    }

    /// A word as a POSIX shell reads it back: as it is when it is plain, else in single quotes.
    static func shellQuoted(_ word: String) -> String {
        let plain = !word.isEmpty && word.unicodeScalars.allSatisfy {
            CharacterSet.alphanumerics.contains($0) || "_./=,:@+-".unicodeScalars.contains($0)
        }
        return plain ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// The numbers of a difference (`ImageDifference.summary`, the one wording), for `diff` too.
    static func numbers(_ d: ImageDifference?) -> String { d?.summary ?? "" }

    /// One line per result worth a line (everything but a plain match).
    static func describe(_ r: SnapshotResult) -> String? {
        let file = displayPath(r.baseline)
        func tag(_ s: String) -> String { s.padding(toLength: 11, withPad: " ", startingAt: 0) }
        var line: String
        switch r.status {
        case .match:
            return nil
        case .mismatch:
            line = tag(r.action == .updated ? "updated" : "mismatch") + r.id.description + "  " + (r.differenceSummary ?? "")
            if let o = r.outputs { line += "; diff: \(displayPath(o.diff))" }
            if r.action == .updated { line += "; rewrote \(file)" }
        case .new:
            line = tag(r.action == .recorded ? "recorded" : "new") + r.id.description
            line += r.action == .recorded ? "  wrote \(file)" : "  no baseline at \(file) (--record writes it)"
            if let render = r.newRender { line += "; render: \(displayPath(render))" }
        case .stale:
            line = tag(r.action == .pruned ? "pruned" : "stale") + file
            line += r.action == .pruned ? "  deleted" : "  no variant produces it (--prune deletes it)"
        case .unreadable:
            line = tag("unreadable") + r.id.description + "  \(file): \(r.message ?? "?")"
                + " (delete it and run --record to write a new one)"
        }
        if let e = r.writeError { line += "  FAILED: \(e)" }
        return line
    }

    static func summary(_ c: SnapshotReport.Counts, elapsed: Double) -> String {
        var parts = ["\(c.match) match" + withinTolerance(c.withinTolerance), "\(c.mismatch) mismatch", "\(c.new) new",
                     "\(c.stale) stale"]
        if c.unreadable > 0 { parts.append("\(c.unreadable) unreadable") }
        var done: [String] = []
        if c.recorded > 0 { done.append("\(c.recorded) recorded") }
        if c.updated > 0 { done.append("\(c.updated) updated") }
        if c.pruned > 0 { done.append("\(c.pruned) pruned") }
        return String(format: "checked %@: %@%@ in %.2f s", counted(c.variants, "variant"), parts.joined(separator: ", "),
                      done.isEmpty ? "" : "; " + done.joined(separator: ", "), elapsed)
    }

    /// " (1 differs within tolerance)", or nothing when every match is identical.
    static func withinTolerance(_ n: Int) -> String {
        n == 0 ? "" : " (\(n) \(n == 1 ? "differs" : "differ") within tolerance)"
    }

    /// A path relative to the working directory when it lies below it.
    static func displayPath(_ path: String) -> String {
        let cwd = FileManager.default.currentDirectoryPath
        let prefix = cwd.hasSuffix("/") ? cwd : cwd + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }
}
