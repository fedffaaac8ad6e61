import Foundation
import GlyphCore
import GlyphRaster

/// How renders are compared with their baselines.
public struct SnapshotOptions: Sendable, Equatable {
    /// The per-pixel comparison (threshold, anti-aliasing detection, diff image colours).
    public var pixelmatch: PixelmatchOptions
    /// Most pixels allowed to differ (`--max-diff-pixels`); nil = not set.
    public var maxDiffPixels: Int?
    /// Largest share of pixels allowed to differ, 0...1 (`--max-diff-ratio`); nil = not set.
    public var maxDiffRatio: Double?
    /// The colour threshold of an exact comparison (the baselines' renderer is this one): 0, or
    /// the one the user gave (`--threshold`).
    public var exactThreshold: Double

    public init(pixelmatch: PixelmatchOptions = .init(), maxDiffPixels: Int? = nil, maxDiffRatio: Double? = nil,
                exactThreshold: Double = 0) {
        self.pixelmatch = pixelmatch
        self.maxDiffPixels = maxDiffPixels
        self.maxDiffRatio = maxDiffRatio
        self.exactThreshold = exactThreshold
    }

    /// pixelmatch's options for an exact comparison: anti-aliased pixels count (`includeAA`) and
    /// the threshold is `exactThreshold`, so every changed pixel counts against the gates.
    public var exactPixelmatch: PixelmatchOptions {
        var p = pixelmatch
        p.includeAA = true
        p.threshold = exactThreshold
        return p
    }

    /// Whether a difference passes the gates: the sizes are equal and the mismatched pixels are
    /// within every gate that is set; with no gate set, no pixel may differ.
    public func passes(_ d: ImageDifference) -> Bool {
        guard d.sameSize else { return false }
        if maxDiffPixels == nil && maxDiffRatio == nil { return d.mismatchedPixels == 0 }
        if let maxDiffPixels, d.mismatchedPixels > maxDiffPixels { return false }
        if let maxDiffRatio, d.mismatchRatio > maxDiffRatio { return false }
        return true
    }
}

/// Which baseline writes a check may make. Without any, a check writes no baseline.
public struct SnapshotWrites: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Write the baselines that are missing.
    public static let record = SnapshotWrites(rawValue: 1)
    /// Rewrite the baselines that fail the comparison (and only those).
    public static let update = SnapshotWrites(rawValue: 2)
    /// Delete stale baselines.
    public static let prune = SnapshotWrites(rawValue: 4)
}

/// The outcome for one variant (or, for a stale baseline, one file).
public struct SnapshotResult: Sendable, Equatable, Codable {
    public enum Status: String, Sendable, Codable, CaseIterable {
        /// The render equals the baseline within the gates.
        case match
        /// The render differs beyond the gates, or has another size.
        case mismatch
        /// There is no baseline for this variant.
        case new
        /// A baseline in the checker's stale scope (see `StaleScope`) that no variant of the run's
        /// specs produces.
        case stale
        /// The baseline is there but cannot be read as a PNG.
        case unreadable
    }

    /// The baseline write this check made.
    public enum Action: String, Sendable, Codable {
        case recorded, updated, pruned
    }

    /// Pictures written for a mismatch.
    public struct Outputs: Sendable, Equatable, Codable {
        public var actual: String
        public var diff: String
        public var sideBySide: String
    }

    /// The variant id; for a stale baseline its path relative to the snapshot folder, without `.png`,
    /// read as an id (`VariantID(parsing:)`: a path that is not one is written back as it was). Encoded as its text.
    public var id: VariantID
    public var status: Status
    /// The baseline file.
    public var baseline: String
    public var action: Action?
    /// The numbers, for `match` and `mismatch`.
    public var difference: ImageDifference?
    /// Why an `unreadable` baseline cannot be read.
    public var message: String?
    /// The pictures written for a mismatch (when an output folder is set).
    public var outputs: Outputs?
    /// A file that could not be written or deleted (a runtime failure).
    public var writeError: String?
    /// For a `new` variant not recorded: where its render was written to be copied into the snapshot
    /// folder (`SnapshotChecker.newSnapshots`, under CI).
    public var newRender: String?
    /// For a `new` variant not recorded or a `mismatch` not updated: where its render was staged
    /// for `glyphaudit accept` (`SnapshotChecker.candidates`, under CI or with `--stage`).
    public var candidate: String?
    /// For a mismatch: both sizes and a 128-bit hash of the baseline's and the render's pixels
    /// (`ImageComparator.changeKey`), so that identical diffs can be folded (`SnapshotGroup`); never
    /// written out.
    public var changeDigest: String?
    /// Under `--incremental`: the variant was not drawn, its inputs and renderer equal its
    /// baseline's manifest entry (a match).
    public var reused: Bool?
    /// When candidates are staged: the manifest entry this run computed for the variant (its inputs,
    /// renderer and audit numbers), for `glyphaudit accept` to write with the pixels — on every staged
    /// candidate, and on a match with identical pixels whose entry differs from the folder's.
    public var manifestEntry: SnapshotManifest.Entry?

    public init(id: VariantID, status: Status, baseline: String, action: Action? = nil,
                difference: ImageDifference? = nil, message: String? = nil, outputs: Outputs? = nil,
                writeError: String? = nil, newRender: String? = nil) {
        self.id = id
        self.status = status
        self.baseline = baseline
        self.action = action
        self.difference = difference
        self.message = message
        self.outputs = outputs
        self.writeError = writeError
        self.newRender = newRender
    }

    /// What differs, in the one wording `check`'s list and the reports use: for a mismatch
    /// `ImageDifference.summary` ("3 px differ (0.096% of 3136), largest colour difference 0.966" or
    /// "size changed: baseline 56×56 px, render 28×28 px"); for a match whose pixels are not
    /// identical "differs within tolerance: " and the same numbers; nil otherwise.
    public var differenceSummary: String? {
        guard let d = difference else { return nil }
        switch status {
        case .mismatch: return d.summary
        case .match where withinTolerance: return "differs within tolerance: " + d.summary
        default: return nil
        }
    }

    /// A match whose pixels are not identical: they differ, but within the threshold, as
    /// anti-aliasing, or within the gates.
    public var withinTolerance: Bool { status == .match && difference.map { !$0.identical } == true }

    /// Whether this result fails a check: a mismatch not updated, a new variant not recorded, an
    /// unreadable baseline, or a failed write. Stale baselines do not fail a check.
    public var failed: Bool {
        if writeError != nil { return true }
        switch status {
        case .match, .stale: return false
        case .mismatch: return action != .updated
        case .new: return action != .recorded
        case .unreadable: return true
        }
    }
}

/// Every result of a check, in plan order, stale baselines last.
public struct SnapshotReport: Sendable, Equatable, Codable {
    public var snapshots: String
    public var results: [SnapshotResult]
    /// Whether renders were compared exactly (the folder's fingerprint is the renderer's).
    public var exact: Bool?
    /// Why the comparison was not exact (or, with `--update`, why baselines were rebased): one line
    /// per changed fingerprint component; nil when exact or when no baseline was compared.
    public var comparisonNotes: [String]?
    /// The fingerprint file written by this check (`--record` / `--update`), nil when none was.
    public var fingerprintWritten: String?
    /// Why a write was asked for but the fingerprint was left as it was.
    public var fingerprintNote: String?
    /// Where the renders of the variants without a baseline went (under CI), with their fingerprint.
    public var newSnapshots: String?
    /// A fingerprint file that could not be written (a runtime failure, like a baseline's).
    public var fingerprintError: String?
    /// Where the renders staged for `glyphaudit accept` went (every changed and new render, under
    /// CI or with `--stage`), with the fingerprint of the renderer that drew them; nil when none was.
    public var candidates: String?
    /// The changed and stale baselines grouped by cause, when the folder has a manifest
    /// (`SnapshotManifest`); nil without one.
    public var groups: [SnapshotGroup]?
    /// The manifest file written by this check (`--record` / `--update`), nil when none was.
    public var manifestWritten: String?
    /// When candidates are staged: the keys of the run's presets and the renderer's components, as
    /// the manifest records them (with the results' `manifestEntry`, what `accept` writes).
    public var manifestKeys: [String: [String: String]]?
    public var manifestRenderer: [String: String]?

    public struct Counts: Sendable, Equatable, Codable {
        public var variants = 0
        public var match = 0
        /// Of the matches, those whose pixels differ within tolerance (not identical).
        public var withinTolerance = 0
        public var mismatch = 0
        public var new = 0
        public var stale = 0
        public var unreadable = 0
        public var recorded = 0
        public var updated = 0
        public var pruned = 0
        public var writeErrors = 0
    }

    public var counts: Counts {
        var c = Counts()
        for r in results {
            if r.status != .stale { c.variants += 1 }
            switch r.status {
            case .match:
                c.match += 1
                if r.withinTolerance { c.withinTolerance += 1 }
            case .mismatch: c.mismatch += 1
            case .new: c.new += 1
            case .stale: c.stale += 1
            case .unreadable: c.unreadable += 1
            }
            switch r.action {
            case .recorded: c.recorded += 1
            case .updated: c.updated += 1
            case .pruned: c.pruned += 1
            case nil: break
            }
            if r.writeError != nil { c.writeErrors += 1 }
        }
        return c
    }

    public var failed: Bool { fingerprintError != nil || results.contains { $0.failed } }

    /// The exit status of `glyphaudit check`: 2 for an unreadable baseline or a failed write, 1 for
    /// a mismatch or a new variant that was not written, else 0.
    public var status: ExitStatus { ExitStatus(failed: failed, badInput: badInput) }
    public var exitStatus: Int32 { status.rawValue }

    /// An unreadable baseline or renderer.json, or a file that could not be written: bad input (2).
    public var badInput: Bool {
        fingerprintError != nil || results.contains(where: { $0.status == .unreadable || $0.writeError != nil })
    }

    package init(snapshots: String, results: [SnapshotResult]) {
        self.snapshots = snapshots
        self.results = results
    }

    /// The variants without a baseline that were not recorded (each fails the check).
    public var missing: [SnapshotResult] { results.filter { $0.status == .new && $0.action != .recorded } }
}

/// Which baselines a check may call stale. Either way a PNG is stale only when no variant of the
/// **full, unfiltered** matrix of the run's specs produces it, so a filter (`--only`) or a shard never
/// makes a baseline stale.
public enum StaleScope: Sendable, Equatable {
    /// Only PNGs under `<root>/<name>/` for each spec of the run. For a selection the user picked
    /// (`--preset`, `--spec`): other presets' folders and the root are none of the run's business.
    case specFolders
    /// Every PNG under the root, the root itself and the folders of presets that no longer exist
    /// included. For the default selection (every built-in preset), which owns the whole folder.
    case wholeFolder
}

/// Compares renders with their baselines, writes the pictures of mismatches, and makes the
/// baseline writes it is allowed to (`writes`).
public struct SnapshotChecker: Sendable {
    public var store: SnapshotStore
    /// Where the pictures of mismatches go (`<id>.actual.png`, `.diff.png`, `.sidebyside.png`); nil = nowhere.
    public var output: URL?
    public var options: SnapshotOptions
    public var writes: SnapshotWrites
    /// Where stale baselines are looked for.
    public var staleScope: StaleScope
    /// Exact or tolerant, from the folder's renderer fingerprint (`SnapshotComparison.of`); by
    /// default tolerant and unfingerprinted.
    public var comparison: SnapshotComparison
    /// Where the render of each variant without a baseline is written (when not recorded), in the
    /// snapshot folder's layout, so the folder can be copied over the baselines; nil = nowhere.
    public var newSnapshots: URL?
    /// The snapshot folder's lock, held while the checker lives when it writes (`SnapshotLock`).
    public var lock: SnapshotLock?
    /// Where the render of every variant that fails (a `new` one not recorded, a `mismatch` not
    /// updated) is staged for `glyphaudit accept`, in the snapshot folder's layout, with the
    /// renderer's fingerprint beside them; nil = nowhere.
    public var candidates: URL?
    /// The folder's manifest as read (nil: none), and this run's inputs; nil inputs: no manifest
    /// is read or written (a library caller that does not say what renders).
    public var manifest: SnapshotManifest?
    public var manifestInputs: ManifestInputs?
    /// The baselines listed from the start of the run (`BaselineListing`), when the run started one.
    public var listing: BaselineListing?

    public init(store: SnapshotStore, output: URL?, options: SnapshotOptions = .init(), writes: SnapshotWrites = [],
                staleScope: StaleScope = .specFolders, comparison: SnapshotComparison = .tolerant, newSnapshots: URL? = nil) {
        self.store = store
        self.output = output
        self.options = options
        self.writes = writes
        self.staleScope = staleScope
        self.comparison = comparison
        self.newSnapshots = newSnapshots
    }

    /// pixelmatch's options in force: exact ones when the comparison is exact.
    public var pixelmatch: PixelmatchOptions { comparison.exact ? options.exactPixelmatch : options.pixelmatch }

    /// Checks one render against its baseline. Safe to call from many threads at once.
    public func check(_ variant: Variant, actual: Raster) -> SnapshotResult {
        let relative = store.relativePath(of: variant)
        var result = SnapshotResult(id: variant.variantID, status: .match, baseline: store.path(relativePath: relative))
        switch store.baseline(relativePath: relative) {
        case .missing:
            result.status = .new
            if writes.contains(.record) {
                do {
                    try store.write(actual, relativePath: relative)
                    result.action = .recorded
                } catch {
                    result.writeError = "\(error)"
                }
            } else {
                if let newSnapshots {
                    let url = newSnapshots.appendingPathComponent(relative)
                    do {
                        try writeIfChanged(try actual.pngData(), to: url)
                        result.newRender = url.path
                    } catch {
                        result.writeError = "\(error)"
                    }
                }
                stage(actual, relative, &result)
            }
        case .unreadable(let message):
            result.status = .unreadable
            result.message = message
        case .image(let expected):
            // The fast path: identical pixels, one memory comparison.
            if ImageComparator.samePixels(expected, actual) {
                result.difference = .identical(PixelSize(actual))
                return result
            }
            let wantImages = output != nil
            let (difference, diff, rows) = ImageComparator.compared(expected: expected, actual: actual,
                                                                    options: pixelmatch, diffImage: wantImages)
            result.difference = difference
            if options.passes(difference) { return result }
            result.status = .mismatch
            result.changeDigest = ImageComparator.changeKey(expected: expected, actual: actual, rows: rows)
            if output != nil, let problem = ImageComparator.canvasProblem(expected, actual) {
                result.writeError = "\(variant.id): \(problem)"
            }
            if let output, let diff {
                do {
                    result.outputs = try writePictures(variant.id, expected: expected, diff: diff, actual: actual, into: output)
                } catch {
                    result.writeError = "\(error)"
                }
            }
            if writes.contains(.update) {
                do {
                    try store.write(actual, relativePath: relative)
                    result.action = .updated
                } catch {
                    result.writeError = "\(error)"
                }
            } else {
                stage(actual, relative, &result)
            }
        }
        return result
    }

    /// Stages a failing render as a candidate for `glyphaudit accept` (when `candidates` is set).
    func stage(_ actual: Raster, _ relative: String, _ result: inout SnapshotResult) {
        guard let candidates, result.writeError == nil else { return }
        let url = candidates.appendingPathComponent(relative)
        do {
            try writeIfChanged(try actual.pngData(), to: url)
            result.candidate = url.path
        } catch {
            result.writeError = "\(error)"
        }
    }

    /// The report of a check whose variants gave `results` (in plan order): the stale baselines of
    /// `specs` are added (and pruned when allowed), and the fingerprint files are written:
    ///
    /// - into the snapshot folder, after `--record` or `--update`, when every baseline the check
    ///   compared agrees with this renderer (identical; or, compared exactly, within the gates; or
    ///   rewritten). Otherwise it is left as it was and `fingerprintNote` says why;
    /// - into `newSnapshots`, beside the renders of the variants without a baseline.
    ///
    /// With `jobs` > 1 the stale baselines are listed while the groups are worked out.
    public func conclude(_ results: [SnapshotResult], specs: [Spec], inputs: [VariantInput] = [],
                         margins: [String: AuditNumbers] = [:], jobs: Int = 1) -> SnapshotReport {
        let (stale, grouped) = concurrently(jobs: jobs, { staleBaselines(of: specs, checked: results) },
                                            { manifestGroups(results, inputs: inputs) })
        var report = SnapshotReport(snapshots: store.root.path, results: results + stale)
        concludeManifest(&report, specs: specs, grouped: grouped, margins: margins)
        let compared = results.contains { $0.status == .match || $0.status == .mismatch }
        report.exact = comparison.exact
        if compared && !comparison.reasons.isEmpty { report.comparisonNotes = comparison.reasons }
        guard let renderer = comparison.renderer else { return report }
        let fingerprintFile = store.root.appendingPathComponent(RendererFingerprint.fileName)
        if !writes.intersection([.record, .update]).isEmpty {
            // The baselines this renderer's renders do not agree with, after the writes.
            let disagree = results.filter { r in
                switch r.status {
                case .match: return !comparison.exact && r.difference?.identical == false
                case .mismatch: return r.action != .updated
                case .unreadable: return true
                case .new, .stale: return false
                }
            }
            let wrote = results.contains { $0.action == .recorded || $0.action == .updated }
            if results.contains(where: { $0.writeError != nil }) {
                report.fingerprintNote = "\(fingerprintFile.path) not written: a baseline could not be written"
            } else if !disagree.isEmpty {
                let n = disagree.count
                report.fingerprintNote = "\(fingerprintFile.path) not written: \(n) baseline\(n == 1 ? "" : "s") "
                    + "\(n == 1 ? "differs" : "differ") from this renderer's render\(n == 1 ? "" : "s") "
                    + (comparison.exact ? "(run with --update to rewrite them)" : "within tolerance (run with --update to rewrite them and the fingerprint)")
            } else if comparison.fingerprintCurrent {
                // Already this renderer's: nothing to write.
            } else if wrote || compared {
                do {
                    try renderer.write(in: store.root)
                    report.fingerprintWritten = fingerprintFile.path
                } catch {
                    report.fingerprintError = "\(error)"
                }
            }
        }
        if let newSnapshots, results.contains(where: { $0.newRender != nil }) {
            do {
                try renderer.write(in: newSnapshots)
                report.newSnapshots = newSnapshots.path
            } catch {
                report.fingerprintError = "\(error)"
            }
        }
        if let candidates, results.contains(where: { $0.candidate != nil }) {
            do {
                try renderer.write(in: candidates)
                report.candidates = candidates.path
            } catch {
                report.fingerprintError = "\(error)"
            }
        }
        return report
    }

    func writePictures(_ id: String, expected: Raster, diff: Raster, actual: Raster,
                       into folder: URL) throws -> SnapshotResult.Outputs {
        let actualURL = folder.appendingPathComponent("\(id).actual.png")
        let diffURL = folder.appendingPathComponent("\(id).diff.png")
        let sideURL = folder.appendingPathComponent("\(id).sidebyside.png")
        try AtomicFile.write(try actual.pngData(), to: actualURL)
        try AtomicFile.write(try diff.pngData(), to: diffURL)
        let side = ImageComparator.sideBySide(expected: expected, actual: actual, diff: diff)
        try AtomicFile.write(try side.pngData(), to: sideURL)
        return .init(actual: actualURL.path, diff: diffURL.path, sideBySide: sideURL.path)
    }

    /// The baselines in `staleScope` (the folders of `specs`, or the whole snapshot folder) that no
    /// variant of the specs' full (unfiltered) matrix produces; deleted when `writes` contains `.prune`.
    /// `checked`: results of this check, whose baselines are not stale; the full matrix is only
    /// enumerated for the files that are none of them (usually none: a run's own variants' baselines).
    public func staleBaselines(of specs: [Spec], checked: [SnapshotResult] = []) -> [SnapshotResult] {
        let files: [String]
        let folders = staleScope == .specFolders ? specs.map(\.name) : nil
        if let listing, listing.folders == folders {
            files = listing.files
        } else if let folders {
            files = store.baselineFiles(inFolders: folders)
        } else {
            files = PNGFiles.list(under: store.root)
        }
        let checkedPaths = Set(checked.map(\.baseline))
        let prefix = store.root.path + "/"
        let others = files.filter { !checkedPaths.contains(prefix + $0) }
        if others.isEmpty { return [] }
        var expected = Set<String>()
        for spec in specs {
            for v in spec.variants() { expected.insert(store.relativePath(of: v)) }
        }
        return others.filter { !expected.contains($0) }.map { relative in
            var result = SnapshotResult(id: VariantID(parsing: String(relative.dropLast(4))), status: .stale,
                                        baseline: store.path(relativePath: relative))
            if writes.contains(.prune) {
                do {
                    try store.remove(relativePath: relative)
                    result.action = .pruned
                } catch {
                    result.writeError = "\(error)"
                }
            }
            return result
        }
    }

    /// Renders every item of the plan on `jobs` threads with `render`, checks each against its
    /// baseline (one render in memory per thread), then concludes (stale baselines, fingerprint).
    public func run(_ plan: Plan, jobs: Int, render: @Sendable (PlannedVariant) -> Raster) -> SnapshotReport {
        let items = plan.items
        let inputs = manifestInputs.map { m in parallelMap(items.count, jobs: jobs) { i in m.input(items[i]) } } ?? []
        let results = parallelMap(items.count, jobs: jobs) { i in
            check(items[i].variant, actual: render(items[i]))
        }
        return conclude(results, specs: plan.specs, inputs: inputs, jobs: jobs)
    }

    /// The same with renders already made (`rasters` index-aligned with `plan.items`, as
    /// `Plan.renderAll` returns them), for a run that also audits them.
    public func run(_ plan: Plan, rasters: [Raster], jobs: Int) -> SnapshotReport {
        precondition(rasters.count == plan.items.count, "one raster per planned variant")
        let items = plan.items
        let results = parallelMap(items.count, jobs: jobs) { i in check(items[i].variant, actual: rasters[i]) }
        return conclude(results, specs: plan.specs, jobs: jobs)
    }
}
