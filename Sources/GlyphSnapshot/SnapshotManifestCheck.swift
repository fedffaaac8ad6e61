import Foundation
import GlyphCore
import GlyphRaster

/// The inputs of a check's variants by id, and its groups (`SnapshotGroup.group`) when the folder
/// has a manifest.
struct ManifestGroups: Sendable {
    var inputs: [String: VariantInput]
    var groups: [SnapshotGroup]?
}

extension SnapshotChecker {
    /// The inputs by id and the groups of a check whose variants gave `results` (the stale
    /// baselines are in no group); nil without manifest inputs, or with neither inputs nor manifest.
    func manifestGroups(_ results: [SnapshotResult], inputs: [VariantInput]) -> ManifestGroups? {
        guard let current = manifestInputs, !inputs.isEmpty || manifest != nil else { return nil }
        let byID = Dictionary(inputs.map { ($0.variant.id, $0) }, uniquingKeysWith: { a, _ in a })
        let writing = !writes.intersection([.record, .update]).isEmpty
        return ManifestGroups(inputs: byID, groups: manifest.map { manifest in
            SnapshotGroup.group(results, inputs: byID, manifest: manifest, current: current, refreshed: writing)
        })
    }

    /// The groups of the check (when the folder has a manifest) and, after `--record` / `--update`,
    /// the manifest rewritten: every variant whose baseline was written, or whose render is
    /// pixel-identical to its baseline, gets its entry for this run's inputs (and `margins`); the
    /// entries of the others are kept, those of pruned baselines removed; the keys of the run's
    /// presets are this run's, but for the values entries left as they were still need
    /// (`SnapshotManifest.setKeys`).
    func concludeManifest(_ report: inout SnapshotReport, specs: [Spec], grouped: ManifestGroups?, margins: [String: AuditNumbers]) {
        guard let current = manifestInputs, let grouped else { return }
        let byID = grouped.inputs
        let writing = !writes.intersection([.record, .update]).isEmpty
        report.groups = grouped.groups
        if candidates != nil { stageEntries(&report, specs: specs, inputs: byID, margins: margins) }
        guard writing, !report.results.contains(where: { $0.writeError != nil }) else { return }
        var next = manifest ?? SnapshotManifest()
        next.renderers[current.rendererID] = current.renderer
        var rewritten = Set<String>()
        for r in report.results {
            let id = r.id.description
            if r.action == .pruned { next.variants[id] = nil; continue }
            guard let input = byID[id] else { continue }
            let drawn = r.action == .recorded || r.action == .updated || (r.status == .match && r.difference?.identical != false)
            guard drawn else { continue }
            var entry = SnapshotManifest.Entry(digest: input.digest, keys: input.keysDigest, renderer: current.rendererID,
                                               margins: margins[id] ?? next.variants[id]?.margins)
            if let m = margins[id] { entry.margins = m }
            next.variants[id] = entry
            rewritten.insert(id)
        }
        // The presets' keys now, but a key keeps its recorded value while an entry left as it was
        // (not selected, or not rewritten) was written with it.
        let bySpec = Dictionary(specs.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        var matrices: [String: Set<String>] = [:]
        next.setKeys(Dictionary(specs.map { ($0.name, current.inputs(of: $0).keys) }, uniquingKeysWith: { _, b in b }),
                     rewritten: rewritten) { id in
            let preset = VariantID(parsing: id).preset
            guard let spec = bySpec[preset] else { return false }
            if matrices[preset] == nil { matrices[preset] = Set(spec.variants().map(\.id)) }
            return matrices[preset]!.contains(id)
        }
        // Only the renderers some entry names.
        let used = Set(next.variants.values.map(\.renderer))
        next.renderers = next.renderers.filter { used.contains($0.key) }
        if next == manifest { return }
        do {
            try next.write(in: store.root)
            report.manifestWritten = store.root.appendingPathComponent(SnapshotManifest.fileName).path
        } catch {
            report.fingerprintError = "\(error)"
        }
    }
}

extension SnapshotChecker {
    /// When candidates are staged: what `accept` writes into the manifest with the pixels — the
    /// entry of every staged candidate, and of every match with identical pixels whose entry is not
    /// the folder's (what `--record --update` would write for them), with the keys of the run's
    /// presets and the renderer's components.
    func stageEntries(_ report: inout SnapshotReport, specs: [Spec], inputs: [String: VariantInput], margins: [String: AuditNumbers]) {
        guard let current = manifestInputs else { return }
        var any = false
        for i in report.results.indices {
            let r = report.results[i]
            let id = r.id.description
            guard let input = inputs[id], r.status != .stale else { continue }
            let old = manifest?.variants[id]
            let entry = SnapshotManifest.Entry(digest: input.digest, keys: input.keysDigest, renderer: current.rendererID,
                                               margins: margins[id] ?? old?.margins)
            let matches = r.status == .match && r.difference?.identical != false
            guard r.candidate != nil || (matches && entry != old) else { continue }
            report.results[i].manifestEntry = entry
            any = true
        }
        guard any else { return }
        report.manifestKeys = Dictionary(specs.map { ($0.name, current.inputs(of: $0).keys) }, uniquingKeysWith: { a, _ in a })
        report.manifestRenderer = current.renderer
    }
}

extension SnapshotChecker {
    /// Under `--incremental`: the result of a variant whose input digest equals its manifest entry's
    /// and whose baseline is there, without drawing it — a match with identical pixels (the manifest
    /// says this baseline is what these inputs draw with this renderer); nil when it must be drawn.
    public func reused(_ variant: Variant, input: VariantInput?, pixelSize: PixelSize) -> SnapshotResult? {
        guard unchanged(variant, input) else { return nil }
        let path = store.path(relativePath: store.relativePath(of: variant))
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return reusedResult(variant, path, pixelSize)
    }

    /// Whether the variant's input digest and renderer are its manifest entry's.
    private func unchanged(_ variant: Variant, _ input: VariantInput?) -> Bool {
        guard let input, let entry = manifest?.variants[variant.id] else { return false }
        return entry.digest == input.digest && entry.renderer == manifestInputs?.rendererID
    }

    private func reusedResult(_ variant: Variant, _ path: String, _ pixelSize: PixelSize) -> SnapshotResult {
        var result = SnapshotResult(id: variant.variantID, status: .match, baseline: path)
        result.difference = .identical(pixelSize)
        result.reused = true
        return result
    }

    /// The same for several variants (a variant group): their results, or nil when one of them must
    /// be drawn. Each folder of their baselines is listed once (a group's are in one or two).
    public func reused(_ variants: [(variant: Variant, input: VariantInput?, pixelSize: PixelSize)]) -> [SnapshotResult]? {
        var folders: [String: Set<String>] = [:]
        var results: [SnapshotResult] = []
        results.reserveCapacity(variants.count)
        for (variant, input, pixelSize) in variants {
            guard unchanged(variant, input) else { return nil }
            let relative = store.relativePath(of: variant)
            let path = store.path(relativePath: relative)
            // In the run's listing (else its folder is listed now: the listing skips dot-folders).
            if listing?.hasRegularFile(relative) == true {
                results.append(reusedResult(variant, path, pixelSize))
                continue
            }
            let cut = path.utf8.lastIndex(of: UInt8(ascii: "/"))!
            let folder = String(path[..<cut]), name = String(path[path.index(after: cut)...])
            if folders[folder] == nil { folders[folder] = SnapshotStore.regularFiles(inFolder: folder) ?? [] }
            guard folders[folder]!.contains(name) else { return nil }
            results.append(reusedResult(variant, path, pixelSize))
        }
        return results
    }

    /// Checks the plan like `run(_:jobs:render:)`, but a variant whose inputs equal its baseline's
    /// manifest entry is not drawn (`reused`).
    public func runIncremental(_ plan: Plan, jobs: Int, render: @Sendable (PlannedVariant) -> Raster) -> SnapshotReport {
        let items = plan.items
        let inputs = manifestInputs.map { m in parallelMap(items.count, jobs: jobs) { i in m.input(items[i]) } } ?? []
        let results = parallelMap(items.count, jobs: jobs) { i in
            let item = items[i]
            let size = PixelSize(width: item.scene.pixelWidth, height: item.scene.pixelHeight)
            return reused(item.variant, input: inputs.isEmpty ? nil : inputs[i], pixelSize: size)
                ?? check(item.variant, actual: render(item))
        }
        return conclude(results, specs: plan.specs, inputs: inputs, jobs: jobs)
    }
}
