import Foundation
import GlyphAudit
import GlyphCore
import GlyphReport
import GlyphSnapshot

extension Pipeline {
    /// The pipeline by variant group (`Variant.groupKey`: a component in one theme and display
    /// setting), for `--incremental` and `--shard`. A group is drawn (or, under `--incremental`,
    /// reused with its cached audit when its every variant's inputs equal its baseline's manifest
    /// entry) and audited by the rules that compare within a group (`Auditor.groupRuleIDs`). The
    /// other rules' component pass folds the component's themes on layouts and the image inks each
    /// group measured (`ClippingRule.glyphInks`): it runs over the whole component, drawn or not;
    /// the pass across components runs on the preset's layouts. In a shard (whose plan holds the
    /// whole selection's layouts in `Plan.all`), the findings of those two passes are kept by the
    /// shard holding the first group of their component or preset, so the shards' findings,
    /// merged, are a whole run's. The findings are a whole run's in another order; `conclude` and
    /// the report's canonical order make the reports equal.
    static func runByGroups(_ plan: Plan, _ options: PipelineOptions) throws -> PipelineResult {
        let drawing = CairoDrawing()
        let jobs = options.jobs
        let owned = Set(plan.items.map(\.index))
        // What the run gathers, each part added as it is done (under the lock: parts are worked
        // two at a time), so that no part is kept longer than its merge.
        struct Gathered: Sendable {
            var found: [Finding] = []
            var snapshotResults: [SnapshotResult] = []
            var inputs: [VariantInput] = []
            // The plan index of each snapshot result and input (Int.max: not this run's), to sort them.
            var resultOrder: [Int] = []
            var inputOrder: [Int] = []
            var margins: [String: AuditNumbers] = [:]
            /// The ids of the components gathered before the pass across components was done,
            /// whose numbers do not hold its numbers yet.
            var withoutAcross: Set<String> = []
            /// How many variants of the pass across components' numbers the components gathered after it took in.
            var tookAcross = 0
            var variants: [VariantRecord] = []
            /// The first error of a part, by its place in the run.
            var error: (place: Int, error: Error)?
            /// Each component's drawing and rule times, by its place in the preset (timed runs).
            var times: [(place: Int, rendered: UInt64, rules: [String: UInt64])] = []
        }
        var first = Gathered()
        first.variants.reserveCapacity(plan.items.count)
        first.margins.reserveCapacity(plan.items.count)
        let gathered = Mutex(first)
        // The numbers of this run's own variants (a shard's), for the manifest and the margin findings.
        let ownIDs = plan.shard == nil ? nil : Set(plan.items.map(\.variant.id))
        @Sendable func own(_ numbers: [String: AuditNumbers]) -> [String: AuditNumbers] {
            ownIDs.map { own in numbers.filter { own.contains($0.key) } } ?? numbers
        }
        var timer = options.timed ? PipelineTimer() : nil
        let ruleOrder = options.auditor?.rules.map(\.id) ?? []
        var place = 0

        for (spec, items) in presetSlices(plan.specs, plan.all) where items.contains(where: { owned.contains($0.index) }) {
            let sliceStart = PipelineTimer.now()
            defer { timer?.preset(spec.name, PipelineTimer.now() - sliceStart) }
            let components = componentSlices(items).filter { slice in slice.contains(where: { owned.contains($0.index) }) }
            // The pass across components, per rule, shared evenly among the components drawn here.
            let across = timer == nil ? nil : RuleTimes()
            let acrossPass = { @Sendable () throws -> ComponentPart in
                guard let auditor = options.auditor else { return ComponentPart() }
                // Colours across the preset's components: layouts only, no pixels. Every shard runs it
                // for its variants' numbers (contrast); the one holding the preset's first variant
                // reports its findings.
                var part = ComponentPart()
                let input = AuditInput(specs: [spec], items: items, glyphs: [], jobs: jobs, drawing: drawing)
                let measured = AuditMargins()
                var findings = AuditMargins.$current.withValue(measured) { auditor.findings(input, pass: .acrossComponents, times: across) }
                if owned.contains(items[0].index) {
                    if let folder = options.evidence { try EvidenceWriter.write(&findings, input: input, to: folder) }
                    part.found = findings
                }
                part.numbers = [measured.all]
                return part
            }
            // The pass across components and the components, two at a time (each parallel inside):
            // one's serial steps (reading cache entries, the rules that fold its themes) overlap the
            // other's drawing. Each part is added as it is done: the findings, results and records
            // are put in order afterwards; a variant is in one component, and the pass across
            // components' numbers win over a component's (as when it was merged first), so the
            // result does not depend on which finished first. A component done after the pass across
            // components (which starts first) takes that pass's numbers into its own there and then.
            // The largest components (by pixels) start first, so that the two finish together; two at
            // a time only while each is small, so that memory stays bounded by the largest
            // component, as in a whole run (docs/performance.md).
            let timed = timer != nil
            let pixels = components.map { slice in slice.reduce(0.0) { sum, item in
                let c = item.layout.canvas, k = Double(item.variant.scale)
                return sum + c.width * c.height * k * k
            } }
            let start = [0] + components.indices.sorted { (pixels[$0], $1) > (pixels[$1], $0) }.map { $0 + 1 }
            let together = components.allSatisfy { $0.count <= Self.concurrentComponentVariants } ? min(2, jobs) : 1
            let base = place
            place += components.count + 1
            let acrossFound = Mutex<(found: [Finding], numbers: [String: AuditNumbers])?>(nil)
            _ = parallelMapOnPool(components.count + 1, jobs: together) { k -> Bool in
                let c = start[k]
                let part: ComponentPart
                do {
                    part = c == 0 ? try acrossPass()
                        : try groupComponent(components[c - 1], spec: spec, owned: owned, options: options, drawing: drawing, timed: timed)
                } catch {
                    gathered.withLock { g in
                        if g.error == nil || g.error!.place > base + c { g.error = (base + c, error) }
                    }
                    return false
                }
                if c == 0 {
                    let numbers = own(part.numbers.first ?? [:])
                    acrossFound.withLock { $0 = (part.found, numbers) }
                    return true
                }
                // The component's numbers merged in its order (first number of a name kept), then the
                // pass across components' (theirs win), outside the lock.
                var table: [String: AuditNumbers] = [:]
                for numbers in part.numbers { AuditMargins.merge(numbers, into: &table) }
                table = own(table)
                let across = acrossFound.withLock { $0?.numbers }
                let took = across.map { AuditMargins.override(&table, with: $0) } ?? 0
                gathered.withLock { g in
                    g.tookAcross += took
                    g.found += part.found
                    for (id, t) in table { g.margins[id] = t }
                    if across == nil { g.withoutAcross.formUnion(table.keys) }
                    g.snapshotResults += part.snapshotResults
                    g.resultOrder += part.resultOrder
                    g.inputs += part.inputs
                    g.inputOrder += part.inputOrder
                    g.variants += part.variants
                    if let rules = part.ruleTimes { g.times.append((c - 1, part.rendered, rules)) }
                }
                return true
            }
            let (found, acrossNumbers) = acrossFound.withLock { $0 } ?? ([], [:])
            try gathered.withLock { g throws in
                if let e = g.error { throw e.error }
                g.found += found
                // The pass across components' numbers, where a component's do not hold them yet: they
                // win over a component's.
                let late = !g.withoutAcross.isEmpty
                // (Nothing to do when every component took them in as it was gathered.)
                for (id, m) in acrossNumbers where late || g.tookAcross < acrossNumbers.count {
                    if let i = g.margins.index(forKey: id) {
                        if late && g.withoutAcross.contains(id) { g.margins.values[i] = g.margins.values[i].merged(with: m, otherWins: true) }
                    } else {
                        g.margins[id] = m
                    }
                }
                g.withoutAcross = []
                g.tookAcross = 0
                if let timer0 = timer {
                    var t = timer0
                    let share = (across?.all ?? [:]).mapValues { $0 / UInt64(max(1, components.count)) }
                    for time in g.times.sorted(by: { $0.place < $1.place }) {
                        let slice = components[time.place]
                        t.component(spec.name, slice[0].variant.component, setting: slice[0].variant.setting, render: time.rendered,
                                    rules: time.rules.merging(share, uniquingKeysWith: +), ruleOrder: ruleOrder)
                    }
                    timer = t
                    g.times = []
                }
            }
        }
        var (found, snapshotResults, inputs, margins, variants, resultOrder, inputOrder) = gathered.withLock { g in
            (g.found, g.snapshotResults, g.inputs, g.margins, g.variants, g.resultOrder.map { owned.contains($0) ? $0 : Int.max },
             g.inputOrder.map { owned.contains($0) ? $0 : Int.max })
        }
        gathered.withLock { $0 = Gathered() }

        // Snapshot results and inputs in plan order, as a whole run gives them.
        // (Sorted by their plan index, kept beside them: the same order as by each one's id's index.)
        func sorted<T>(_ list: [T], by keys: [Int]) -> [T] {
            precondition(list.count == keys.count, "one order key per element")
            return keys.indices.sorted { (keys[$0], $0) < (keys[$1], $1) }.map { list[$0] }
        }
        snapshotResults = sorted(snapshotResults, by: resultOrder)
        inputs = sorted(inputs, by: inputOrder)
        variants.sort { $0.index < $1.index }
        // The audit concluded, then the check (which lists the stale baselines while it groups the
        // changes) beside the margins compared.
        let audit = options.auditor.map { $0.conclude(found, presets: plan.specs.map(\.name), variants: plan.items.count) }
        var result = PipelineResult(audit: audit, snapshots: nil, variants: variants, margins: margins, timings: timer?.timings)
        (result.snapshots, result.marginFindings) = conclude(plan, options, results: snapshotResults, inputs: inputs, margins: margins)
        return result
    }

    /// The most variants a component may have for a run by groups to work two components at a time.
    static let concurrentComponentVariants = 1_024

    /// What one component gives a run by groups, in the order the run takes it.
    struct ComponentPart: Sendable {
        var found: [Finding] = []
        /// The audit numbers measured, in the order they are merged (the first number of a name kept).
        var numbers: [[String: AuditNumbers]] = []
        var snapshotResults: [SnapshotResult] = []
        /// The plan index of each snapshot result and input.
        var resultOrder: [Int] = []
        var inputs: [VariantInput] = []
        var inputOrder: [Int] = []
        var variants: [VariantRecord] = []
        /// Nanoseconds spent drawing, and each rule's (when the run is timed).
        var rendered: UInt64 = 0
        var ruleTimes: [String: UInt64]?
    }

    /// One component of a run by groups (`runByGroups`): its groups reused or drawn and audited,
    /// then the rules that fold its themes.
    static func groupComponent(_ slice: [PlannedVariant], spec: Spec, owned: Set<Int>, options: PipelineOptions,
                               drawing: CairoDrawing, timed: Bool) throws -> ComponentPart {
        let jobs = options.jobs
        var part = ComponentPart()
        let ruleTimes = timed ? RuleTimes() : nil
        // The component's scenes resolved once, and under --incremental its inputs, in parallel.
        let manifest = options.incremental ? options.snapshots?.manifestInputs : nil
        let prepared = parallelMap(slice.count, jobs: jobs) { i -> (PlannedVariant, VariantInput?) in
            let item = owned.contains(slice[i].index) ? slice[i].resolved() : slice[i]
            return (item, owned.contains(item.index) ? manifest?.input(item) : nil)
        }
        let component = prepared.map(\.0)
        // Each item's input by its index in the plan (a theme's items are not contiguous in
        // a component: Dynamic Type sizes come first in the matrix).
        let inputByIndex = Dictionary(prepared.compactMap { p in p.1.map { (p.0.index, $0) } }, uniquingKeysWith: { a, _ in a })
        var inks: [String: [Double]] = [:]
        let groups = slices(component, by: \.theme).filter { owned.contains($0[0].index) }
        // Each group's inputs, cache key and, when all are unchanged, its reuse (the cache
        // read), in parallel; then the groups in order, the others drawn. A group drawn again
        // (its pixels are compared with baselines its inputs no longer match) takes its audit from
        // the cache when an earlier run audited the same inputs.
        typealias Attempt = (inputs: [VariantInput]?, key: String?, reused: Result<Reused?, Error>, audit: CachedAudit?)
        let tried = parallelMap(groups.count, jobs: jobs) { g -> Attempt in
            let group = groups[g]
            let groupInputs = manifest == nil ? nil : group.compactMap { inputByIndex[$0.index] }
            let cacheKey = groupInputs.flatMap { i in options.auditCache?.key(group, digests: i.map(\.digest)) }
            guard let groupInputs else { return (nil, cacheKey, .success(nil), nil) }
            let reused = Result { try reuse(group, inputs: groupInputs, cacheKey: cacheKey, options: options) }
            if case .success(nil) = reused, options.auditor != nil {
                return (groupInputs, cacheKey, reused, cachedAudit(cacheKey, options: options))
            }
            return (groupInputs, cacheKey, reused, nil)
        }
        for (group, attempt) in zip(groups, tried) {
            let cacheKey = attempt.key
            if let groupInputs = attempt.inputs, let reused = try attempt.reused.get() {
                part.found += reused.findings
                part.numbers.append(reused.margins)
                inks.merge(reused.inks) { a, _ in a }
                part.snapshotResults += reused.snapshots
                part.resultOrder += group.map(\.index)
                part.inputs += groupInputs
                part.inputOrder += group.compactMap { inputByIndex[$0.index] == nil ? nil : $0.index }
                part.variants += reused.variants
                options.progress?(group.count)
                continue
            }
            let renderStart = PipelineTimer.now()
            let done = try renderComponent(group, inputs: manifest == nil ? nil : group.map { inputByIndex[$0.index] },
                                           options: options, audited: attempt.audit == nil, drawing: drawing)
            part.rendered += PipelineTimer.now() - renderStart
            if let cached = attempt.audit {
                part.found += cached.findings
                part.numbers.append(cached.margins)
                inks.merge(cached.inks) { a, _ in a }
            } else if let auditor = options.auditor {
                let input = AuditInput(specs: [spec], items: group, glyphs: done.map { $0.glyph! }, jobs: jobs,
                                       drawing: drawing)
                let measured = AuditMargins()
                var findings = AuditMargins.$current.withValue(measured) {
                    auditor.findings(input, pass: .components, only: Auditor.groupRuleIDs, times: ruleTimes)
                }
                if let folder = options.evidence { try EvidenceWriter.write(&findings, input: input, to: folder) }
                part.found += findings
                let numbers = measured.all
                part.numbers.append(numbers)
                let groupInks = ClippingRule.glyphInks(input)
                inks.merge(groupInks) { a, _ in a }
                if let cacheKey, let cache = options.auditCache {
                    // A cache that cannot be written is no failure: the next run draws again.
                    try? cache.write(AuditCache.Entry(findings: findings, evidence: options.evidence != nil, margins: numbers,
                                                      inks: groupInks),
                                     key: cacheKey, evidence: options.evidence)
                }
            }
            for (item, d) in zip(group, done) {
                if let s = d.snapshot {
                    part.snapshotResults.append(s)
                    part.resultOrder.append(item.index)
                }
                if let i = d.input {
                    part.inputs.append(i)
                    part.inputOrder.append(item.index)
                }
                let v = item.variant
                part.variants.append(VariantRecord(index: item.index, id: v.variantID, preset: v.preset, component: v.component,
                                                   dynamicType: v.dynamicType.short, theme: v.theme, state: v.state.rawValue,
                                                   scale: v.scale, image: d.picture, width: d.width, height: d.height))
            }
            options.progress?(group.count)
        }
        if let auditor = options.auditor {
            // The rules that fold the component's themes: layouts and the groups' image inks.
            // A shard without the component's first group runs them for its variants'
            // numbers (target-size) only; the first group's shard reports the findings.
            let input = AuditInput(specs: [spec], items: component, glyphInks: inks, jobs: jobs, drawing: drawing)
            let measured = AuditMargins()
            var findings = AuditMargins.$current.withValue(measured) {
                auditor.findings(input, pass: .components, only: auditor.foldRuleIDs, times: ruleTimes)
            }
            if owned.contains(component[0].index) {
                if let folder = options.evidence { try EvidenceWriter.write(&findings, input: input, to: folder) }
                part.found += findings
            }
            part.numbers.append(measured.all)
        }
        part.ruleTimes = ruleTimes?.all
        return part
    }

}
