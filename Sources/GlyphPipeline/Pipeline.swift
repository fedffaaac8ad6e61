import Foundation
import GlyphAudit
import GlyphCore
import GlyphRaster
import GlyphRender
import GlyphReport
import GlyphSnapshot

/// What a pipeline run does besides rendering: each part is optional.
public struct PipelineOptions: Sendable {
    /// Threads for rendering and measuring.
    public var jobs: Int
    /// Audits with this auditor (its rules and configuration); nil: no audit.
    public var auditor: Auditor?
    /// Writes the picture of every finding that has one into this folder (`--evidence`).
    public var evidence: URL?
    /// Compares every render with its baseline (and writes what the checker may).
    public var snapshots: SnapshotChecker?
    /// Writes the @2x renders into `<folder>/images/` for the contact sheets of the HTML report.
    public var pictures: URL?
    /// Told how many more variants are done, after each component (a progress display).
    public var progress: (@Sendable (Int) -> Void)?
    /// `--incremental`: a variant group (`Variant.groupKey`) whose variants' inputs equal their
    /// baselines' manifest entries is not drawn; its audit comes from `auditCache`.
    public var incremental: Bool = false
    public var auditCache: AuditCache?
    /// Measures how long each preset, component and rule takes (`PipelineResult.timings`, JUnit's `time`).
    public var timed: Bool = false
    /// Compares the audit numbers with the manifest's (`PipelineResult.marginFindings`), beside the
    /// snapshot check's conclusion.
    public var marginPolicy: MarginPolicy?

    public init(jobs: Int = defaultJobs, auditor: Auditor? = nil, evidence: URL? = nil, snapshots: SnapshotChecker? = nil,
                pictures: URL? = nil) {
        self.jobs = jobs
        self.auditor = auditor
        self.evidence = evidence
        self.snapshots = snapshots
        self.pictures = pictures
    }
}

/// What a pipeline run produced.
public struct PipelineResult: Sendable {
    /// The audit, when one was asked for.
    public var audit: AuditResult?
    /// The snapshot comparison, when one was asked for (stale baselines included).
    public var snapshots: SnapshotReport?
    /// One record per variant of the plan, in plan order, with its size and contact-sheet picture.
    public var variants: [VariantRecord]
    /// The audit numbers measured per variant id (`AuditMargins`).
    public var margins: [String: AuditNumbers] = [:]
    /// The run's times, when `PipelineOptions.timed` asked for them.
    public var timings: [PresetTiming]?
    /// The `margin` findings, when `PipelineOptions.marginPolicy` asked for them.
    public var marginFindings: [Finding]?
}

/// select → render → audit → snapshot check → pictures, streaming.
///
/// The plan is worked through one component at a time (a preset's shape and size: every Dynamic
/// Type size, theme, state and scale of it), the unit the rules compare within. Each variant is
/// rendered once; its snapshot comparison, its contact-sheet picture and the cut of its glyph are
/// made at once and the render is dropped. The component's glyphs are audited, its evidence
/// pictures drawn, and then they are released too. What is kept for the whole run is small:
/// findings, snapshot results, one record per variant. So memory is bounded by the largest
/// component, not by the matrix (docs/performance.md).
public enum Pipeline {
    public static func run(_ plan: Plan, _ options: PipelineOptions) throws -> PipelineResult {
        // Under --incremental and --shard the unit is the variant group (GroupPipeline.swift).
        if options.incremental || plan.shard != nil { return try runByGroups(plan, options) }
        let drawing = CairoDrawing()
        let jobs = options.jobs
        var found: [Finding] = []
        var snapshotResults: [SnapshotResult] = []
        var inputs: [VariantInput] = []
        var margins: [String: AuditNumbers] = [:]
        var variants: [VariantRecord] = []
        variants.reserveCapacity(plan.items.count)
        var timer = options.timed ? PipelineTimer() : nil
        let ruleOrder = options.auditor?.rules.map(\.id) ?? []

        for (spec, items) in presetSlices(plan) {
            let sliceStart = PipelineTimer.now()
            let slices = componentSlices(items)
            // The pass across components, per rule, shared evenly among the slice's components.
            let across = timer == nil ? nil : RuleTimes()
            defer { timer?.preset(spec.name, PipelineTimer.now() - sliceStart) }
            if let auditor = options.auditor {
                // Colours across the preset's components: layouts only, no pixels.
                let input = AuditInput(specs: [spec], items: items, glyphs: [], jobs: jobs, drawing: drawing)
                let measured = AuditMargins()
                var findings = AuditMargins.$current.withValue(measured) { auditor.findings(input, pass: .acrossComponents, times: across) }
                if let folder = options.evidence { try EvidenceWriter.write(&findings, input: input, to: folder) }
                found += findings
                AuditMargins.merge(measured.all, into: &margins)
            }
            let share = (across?.all ?? [:]).mapValues { $0 / UInt64(max(1, slices.count)) }
            for slice in slices {
                let componentStart = PipelineTimer.now()
                // The component's scenes, resolved once for its renders and rules, dropped with it.
                let component = slice.map { $0.resolved() }
                let done = try renderComponent(component, options: options, drawing: drawing)
                let rendered = PipelineTimer.now() - componentStart
                let ruleTimes = timer == nil ? nil : RuleTimes()
                if let auditor = options.auditor {
                    let input = AuditInput(specs: [spec], items: component, glyphs: done.map { $0.glyph! }, jobs: jobs,
                                           drawing: drawing)
                    let measured = AuditMargins()
                    var findings = AuditMargins.$current.withValue(measured) { auditor.findings(input, pass: .components, times: ruleTimes) }
                    if let folder = options.evidence { try EvidenceWriter.write(&findings, input: input, to: folder) }
                    found += findings
                    AuditMargins.merge(measured.all, into: &margins)
                }
                for (item, d) in zip(component, done) {
                    if let s = d.snapshot { snapshotResults.append(s) }
                    if let i = d.input { inputs.append(i) }
                    let v = item.variant
                    variants.append(VariantRecord(index: item.index, id: v.variantID, preset: v.preset, component: v.component,
                                                  dynamicType: v.dynamicType.short, theme: v.theme, state: v.state.rawValue,
                                                  scale: v.scale, image: d.picture, width: d.width, height: d.height))
                }
                if let ruleTimes {
                    timer?.component(spec.name, slice[0].variant.component, setting: slice[0].variant.setting, render: rendered,
                                     rules: ruleTimes.all.merging(share, uniquingKeysWith: +), ruleOrder: ruleOrder)
                }
                options.progress?(component.count)
            }
        }

        let audit = options.auditor.map { $0.conclude(found, presets: plan.specs.map(\.name), variants: plan.items.count) }
        var result = PipelineResult(audit: audit, snapshots: nil, variants: variants, margins: margins, timings: timer?.timings)
        (result.snapshots, result.marginFindings) = conclude(plan, options, results: snapshotResults, inputs: inputs, margins: margins)
        return result
    }

    /// The snapshot check concluded (the stale baselines listed while the changes are grouped) and,
    /// at the same time, the margins compared (`PipelineOptions.marginPolicy`): listing folders
    /// leaves a core free.
    static func conclude(_ plan: Plan, _ options: PipelineOptions, results: [SnapshotResult], inputs: [VariantInput],
                         margins: [String: AuditNumbers]) -> (SnapshotReport?, [Finding]?) {
        let jobs = options.jobs, checker = options.snapshots, policy = options.marginPolicy
        let audited = options.auditor != nil
        return concurrentlyOnPool(jobs: jobs, {
            checker.map { $0.conclude(results, specs: plan.specs, inputs: inputs, margins: audited ? margins : [:], jobs: jobs) }
        }, {
            policy.map { $0.findings(recorded: checker?.manifest?.recordedMargins, after: margins, variants: plan.items.map(\.variant), jobs: jobs) }
        })
    }

    /// What a variant group reused under --incremental gives the run.
    struct Reused: Sendable {
        var findings: [Finding]
        var snapshots: [SnapshotResult]
        var variants: [VariantRecord]
        var margins: [String: AuditNumbers] = [:]
        var inks: [String: [Double]] = [:]
    }

    /// A variant group none of whose variants needs drawing: each one's inputs equal its baseline's
    /// manifest entry (`SnapshotChecker.reused`), and its audit is in the cache (when the run
    /// audits; with evidence pictures asked for, a cached audit that found something pictured is
    /// drawn again). Contact-sheet pictures are the baselines' bytes (the same encoder wrote them).
    static func reuse(_ items: [PlannedVariant], inputs: [VariantInput], cacheKey: String?,
                              options: PipelineOptions) throws -> Reused? {
        guard let checker = options.snapshots else { return nil }
        guard let results = checker.reused(zip(items, inputs).map { item, input in
            (item.variant, input, PixelSize(width: item.scene.pixelWidth, height: item.scene.pixelHeight))
        }) else { return nil }
        var audit = CachedAudit()
        if options.auditor != nil {
            guard let cached = cachedAudit(cacheKey, options: options) else { return nil }
            audit = cached
        }
        let (findings, margins, inks) = (audit.findings, audit.margins, audit.inks)
        var records: [VariantRecord] = []
        for (item, r) in zip(items, results) {
            let v = item.variant
            var picture: String?
            if let pictures = options.pictures, v.scale == 2 {
                let rel = "\(RunReport.imageFolder)/\(v.fileName("png"))"
                let url = pictures.appendingPathComponent(rel)
                do {
                    try writeIfChanged(try InputFile.read(r.baseline, limit: Limits.pngFileBytes, what: "PNG"), to: url)
                } catch let e as InputError {
                    throw e
                } catch {
                    throw InputError(file: url.path, message: "\(error)")
                }
                picture = rel
            }
            records.append(VariantRecord(index: item.index, id: v.variantID, preset: v.preset, component: v.component,
                                         dynamicType: v.dynamicType.short, theme: v.theme, state: v.state.rawValue,
                                         scale: v.scale, image: picture, width: item.scene.pixelWidth, height: item.scene.pixelHeight))
        }
        return Reused(findings: findings, snapshots: results, variants: records, margins: margins, inks: inks)
    }

    /// A variant group's audit as the cache keeps it.
    struct CachedAudit: Sendable {
        var findings: [Finding] = []
        var margins: [String: AuditNumbers] = [:]
        var inks: [String: [Double]] = [:]
    }

    /// The cached audit of a variant group whose inputs' key is `cacheKey`, its evidence pictures
    /// put into the run's evidence folder when the run draws them; nil when there is none (or it
    /// was made without pictures, or one went missing, and the run draws them).
    static func cachedAudit(_ cacheKey: String?, options: PipelineOptions) -> CachedAudit? {
        guard let cacheKey, let cache = options.auditCache, let entry = cache.read(cacheKey), let numbers = entry.margins,
              let measured = entry.inks else { return nil }
        if let evidence = options.evidence {
            guard entry.evidence, cache.restorePictures(entry, key: cacheKey, into: evidence) else { return nil }
            return CachedAudit(findings: entry.findings, margins: numbers, inks: measured)
        }
        return CachedAudit(findings: entry.findings.map { f in
            var f = f
            f.picturePath = nil
            return f
        }, margins: numbers, inks: measured)
    }

    /// What is kept of one render.
    struct Rendered: Sendable {
        var glyph: GlyphStore.Entry?
        var snapshot: SnapshotResult?
        var input: VariantInput?
        var picture: String?
        var width: Int
        var height: Int
    }

    /// Renders a component's variants in parallel; each render is checked, pictured and cut, then dropped.
    /// `inputs`, when given, are the items' manifest inputs (in their order), computed already. Under
    /// --incremental a variant drawn for its group's audit whose inputs equal its baseline's manifest
    /// entry is not compared: it is the match `SnapshotChecker.reused` gives, as when its whole group
    /// is reused (the baseline is not read).
    static func renderComponent(_ items: [PlannedVariant], inputs known: [VariantInput?]? = nil, options: PipelineOptions,
                                        audited: Bool = true, drawing: CairoDrawing) throws -> [Rendered] {
        // The glyphs cut for the audit (none when the audit comes from the cache).
        let audit = options.auditor != nil && audited
        let checker = options.snapshots
        let pictures = options.pictures
        // The largest renders first, so that the threads finish together (the last ones are small).
        let area = items.map { $0.scene.pixelWidth * $0.scene.pixelHeight }
        let order = items.indices.sorted { (area[$0], $1) > (area[$1], $0) }
        let done = try parallelMap(items.count, jobs: options.jobs) { k -> Result<Rendered, InputError> in
            let item = items[order[k]]
            let raster = Renderer.raster(item.scene)
            var out = Rendered(width: raster.width, height: raster.height)
            if audit { out.glyph = GlyphStore.Entry(GlyphPixels.cut(item, from: raster, drawing: drawing)) }
            out.input = known.map { $0[order[k]] } ?? checker?.manifestInputs?.input(item)
            if options.incremental, var r = checker?.reused(item.variant, input: out.input, pixelSize: PixelSize(width: raster.width, height: raster.height)) {
                r.reused = nil  // drawn (for the audit), though not compared
                out.snapshot = r
            } else {
                out.snapshot = checker?.check(item.variant, actual: raster)
            }
            if let pictures, item.variant.scale == 2 {
                let rel = "\(RunReport.imageFolder)/\(item.variant.fileName("png"))"
                let url = pictures.appendingPathComponent(rel)
                do {
                    try writeIfChanged(try raster.pngData(), to: url)
                } catch let e as InputError {
                    return .failure(e)
                } catch {
                    return .failure(InputError(file: url.path, message: "\(error)"))
                }
                out.picture = rel
            }
            return .success(out)
        }.map { try $0.get() }
        var byIndex = done
        for (k, i) in order.enumerated() { byIndex[i] = done[k] }
        return byIndex
    }

    /// The plan's items by preset, presets in plan order (a preset's items are contiguous); a
    /// preset with display settings gives one slice per setting (the default first), each with the
    /// spec its variants were planned from, so the rules compare variants of one setting only.
    static func presetSlices(_ plan: Plan) -> [(Spec, [PlannedVariant])] { presetSlices(plan.specs, plan.items) }

    static func presetSlices(_ specs: [Spec], _ planned: [PlannedVariant]) -> [(Spec, [PlannedVariant])] {
        specs.flatMap { spec -> [(Spec, [PlannedVariant])] in
            let items = planned.filter { $0.spec.name == spec.name }
            if spec.settings.isEmpty { return items.isEmpty ? [] : [(spec, items)] }
            return ([nil] + spec.settings.map(Optional.some)).compactMap { setting in
                let slice = items.filter { $0.variant.setting == setting }
                return slice.isEmpty ? nil : (spec.spec(for: setting), slice)
            }
        }
    }

    /// A preset's items by component, in order of first appearance.
    static func componentSlices(_ items: [PlannedVariant]) -> [[PlannedVariant]] { slices(items) { $0.component } }

    /// Items split by `key`, in order of first appearance.
    static func slices(_ items: [PlannedVariant], by key: (Variant) -> String) -> [[PlannedVariant]] {
        var order: [String] = []
        var slices: [String: [PlannedVariant]] = [:]
        for item in items {
            let c = key(item.variant)
            if slices[c] == nil { order.append(c) }
            slices[c, default: []].append(item)
        }
        return order.map { slices[$0]! }
    }
}

/// The files `render` writes for each variant.
public enum RenderFileFormat: String, Sendable, CaseIterable {
    case png, svg, pdf
}

extension Pipeline {
    /// Writes every variant of the plan in each format into `folder` (`<variant file name>.<format>`,
    /// atomically), one variant per thread at a time. Returns what failed, as `<id>: <error>`.
    /// `progress`, when given, is told of each variant written (from the rendering threads).
    public static func writeFiles(_ plan: Plan, formats: [RenderFileFormat], into folder: URL, jobs: Int,
                                  progress: (@Sendable (Int) -> Void)? = nil) -> [String] {
        let items = plan.items
        return parallelMap(items.count, jobs: jobs) { i -> String? in
            let item = items[i].resolved()
            do {
                for format in formats {
                    let data: Data
                    switch format {
                    case .png: data = try Renderer.raster(item.scene).pngData()
                    case .svg: data = Renderer.vector(item.scene, format: .svg)
                    case .pdf: data = Renderer.vector(item.scene, format: .pdf)
                    }
                    try AtomicFile.write(data, to: folder.appendingPathComponent(item.variant.fileName(format.rawValue)))
                }
                progress?(1)
                return nil
            } catch {
                return "\(item.variant.id): \(error)"
            }
        }.compactMap { $0 }
    }

    /// One contact sheet per preset, shape and size of the plan's specs (@2x), as `<preset>-<component>.png`.
    public static func writeContactSheets(_ plan: Plan, into folder: URL) throws {
        for spec in plan.specs {
            for shape in spec.shapes {
                for size in spec.sizes {
                    let name = spec.control == .switch ? "switch-\(size.name)" : "\(shape.rawValue)-\(size.name)"
                    let png = try ContactSheet.make(spec: spec, shape: shape, size: size.name).pngData(.small)
                    try AtomicFile.write(png, to: folder.appendingPathComponent("\(spec.name)-\(name).png"))
                }
            }
        }
    }
}

/// `glyphaudit run` as one library call: what to do, and where.
public struct RunJob: Sendable {
    public var jobs: Int
    public var config: AuditConfig
    /// The report folder: pictures (contact sheets, evidence, snapshot diffs) go inside it.
    public var report: URL
    /// The formats the caller will write; pictures are made when `html` is among them, or in a shard
    /// (merge-reports may write the HTML report).
    public var formats: [ReportFormat]
    public var shard: Shard?
    public var failOn: Severity?
    public var filter: VariantFilter
    /// Compares with the baselines in this folder; nil: snapshots are not checked.
    public var snapshots: URL?
    public var snapshotOptions: SnapshotOptions
    public var snapshotWrites: SnapshotWrites
    public var staleScope: StaleScope
    /// Under CI (`--ci`, or `CI` set): the render of each variant without a baseline is written into
    /// `<report>/new-snapshots/` in the snapshot folder's layout, with the renderer's fingerprint,
    /// ready to be copied over the snapshot folder.
    public var ci: Bool
    /// `--stage`: stage candidates (below) also outside CI.
    public var stage = false
    /// The files the run read as input (`InputLog`), recorded in the report when candidates are staged.
    public var inputs: [InputRecord] = []
    /// Paths in the report (specs, token files, baselines) are relative to this folder where they lie below it.
    public var cwd: URL
    /// The tool and version the report names.
    public var tool: String
    /// Told how many more variants are done (`PipelineOptions.progress`).
    public var progress: (@Sendable (Int) -> Void)?
    /// `--incremental` (docs/snapshots.md): unchanged variant groups are not drawn; their audits
    /// come from `<snapshots>/.glyphaudit-cache/`.
    public var incremental: Bool = false
    /// `--margin-tolerance`: an audit number that fell by more than this share of its value in the
    /// manifest is a `margin` finding (docs/snapshots.md, "Audit margins"); nil: the configuration's
    /// `rules.margin.tolerance`, else 0.25. The configuration's `rules.margin` sets its severity.
    public var marginTolerance: Double?
    public static let defaultMarginTolerance = MarginRule.defaultTolerance
    /// Times each preset, component and rule into the report (`RunReport.timings`, JUnit's `time`);
    /// off, the report holds no time and the same inputs give byte-identical reports.
    public var timed = false

    public init(jobs: Int = defaultJobs, config: AuditConfig = AuditConfig(), report: URL,
                formats: [ReportFormat] = ReportFormat.allCases, shard: Shard? = nil, failOn: Severity? = .error,
                filter: VariantFilter = VariantFilter(), snapshots: URL? = nil, snapshotOptions: SnapshotOptions = .init(),
                snapshotWrites: SnapshotWrites = [], staleScope: StaleScope = .specFolders, ci: Bool = false,
                cwd: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath), tool: String) {
        self.jobs = jobs
        self.config = config
        self.report = report
        self.formats = formats
        self.shard = shard
        self.failOn = failOn
        self.filter = filter
        self.snapshots = snapshots
        self.snapshotOptions = snapshotOptions
        self.snapshotWrites = snapshotWrites
        self.staleScope = staleScope
        self.ci = ci
        self.cwd = cwd
        self.tool = tool
    }

    var wantsPictures: Bool { formats.contains(.html) || shard != nil }

    /// The same job, telling `progress` how many more variants are done.
    public func reporting(to progress: @escaping @Sendable (Int) -> Void) -> RunJob {
        var job = self
        job.progress = progress
        return job
    }

    /// The folder of the report where the renders of variants without a baseline go under CI.
    public static let newSnapshotsFolder = "new-snapshots"
    /// The folder of the report where every changed and new render is staged for `glyphaudit accept`
    /// (under CI or with `--stage`), in the snapshot folder's layout, with `renderer.json`.
    public static let candidatesFolder = "candidates"

    /// Whether candidates are staged: under CI or with `--stage`.
    public var staging: Bool { ci || stage }
}

/// What `run` found, as the report model (canonical order) and as the audit and check gave it.
public struct RunOutcome: Sendable {
    public var report: RunReport
    public var audit: AuditResult
    public var snapshots: SnapshotReport?
}

extension Pipeline {
    /// Renders, audits and checks `plan` (streaming, as `run(_:_:)`), writes the pictures into the
    /// report folder, and returns the report model; the caller writes its formats.
    public static func run(_ plan: Plan, _ job: RunJob) throws -> RunOutcome {
        let pictures = job.wantsPictures
        let auditor = Auditor(config: job.config, rules: Auditor.rules(for: plan.specs))
        let marginPolicy = MarginPolicy(config: job.config, tolerance: job.marginTolerance)
        let checker = try job.snapshots.map { folder throws(InputError) in
            // The baselines listed while the manifest is read and the run goes on: stale ones at the
            // end, and under --incremental the baselines of the variants not drawn.
            let store = SnapshotStore(root: folder)
            let listing = BaselineListing(store: store, folders: job.staleScope == .specFolders ? plan.specs.map(\.name) : nil)
            return try SnapshotChecker.fingerprinted(store: store,
                                              output: pictures ? job.report.appendingPathComponent("snapshots") : nil,
                                              options: job.snapshotOptions, writes: job.snapshotWrites,
                                              staleScope: job.staleScope,
                                              newSnapshots: job.ci ? job.report.appendingPathComponent(RunJob.newSnapshotsFolder) : nil,
                                              candidates: job.staging ? job.report.appendingPathComponent(RunJob.candidatesFolder) : nil,
                                              listing: listing, cwd: job.cwd)
        }
        let options = {
            var options = PipelineOptions(jobs: job.jobs, auditor: auditor,
                                          evidence: pictures ? job.report.appendingPathComponent("evidence") : nil,
                                          snapshots: checker, pictures: pictures ? job.report : nil)
            options.progress = job.progress
            options.timed = job.timed
            if job.incremental, let folder = job.snapshots {
                options.incremental = true
                options.auditCache = AuditCache(snapshots: folder, auditor: auditor, tool: job.tool)
            }
            options.marginPolicy = marginPolicy
            return options
        }()
        let done = try run(plan, options)
        let audit = done.audit!
        let snapshots = try done.snapshots.map { checked in
            try SnapshotSection(checked, folder: job.snapshots!, report: job.report, cwd: job.cwd)
        }
        // In the report, paths are relative to the report folder (pictures) and the working folder (specs).
        let recordedMargins = checker?.manifest?.recordedMargins
        var findings = audit.findings + (done.marginFindings ?? [])
        for i in findings.indices {
            if let e = findings[i].picturePath { findings[i].picturePath = "evidence/" + e }
            if var l = findings[i].location {
                l.file = relativePath(l.file, base: job.cwd)
                l.tokenFile = l.tokenFile.map { relativePath($0, base: job.cwd) }
                findings[i].location = l
            }
        }
        var report = RunReport(tool: job.tool, shard: job.shard?.description, failOn: job.failOn?.rawValue ?? "never",
                               selected: plan.selected, filter: RunReport.filterText(job.filter),
                               presets: RunReport.presetRecords(plan, base: job.cwd), variants: done.variants,
                               findings: findings, snapshots: snapshots,
                               rules: auditor.rules.map { RuleRecord($0, config: job.config) }
                                   // The margins were compared (a manifest that records them, the rule on): a rule
                                   // of the run like the others (its counts, JUnit cases, SARIF rule).
                                   + (recordedMargins == nil || marginPolicy.severity == nil ? [] : [RuleRecord(MarginRule(), config: job.config)]))
        if job.staging { report.inputs = job.inputs }
        report.snapshotGroups = done.snapshots?.groups
        report.timings = done.timings
        let checked = done.snapshots
        // The run's own tables (every variant's margins, the manifest read, the audit cache) are
        // released on another thread while the report is put in order.
        let tables = Released((consume done, consume options, consume checker))
        DispatchQueue.global(qos: .utility).async { tables.release() }
        report.canonicalize()
        return RunOutcome(report: report, audit: audit, snapshots: checked)
    }
}

/// Holds values until `release()`: the last reference dropped on the thread that calls it.
final class Released<T>: @unchecked Sendable {
    private var value: T?
    init(_ value: T) { self.value = value }
    func release() { value = nil }
}
