import Foundation
import GlyphCore

extension SnapshotChecker {
    /// The groups of the check (when the folder has a manifest) and, after `--record` / `--update`,
    /// the manifest rewritten: every variant whose baseline was written, or whose render is
    /// pixel-identical to its baseline, gets its entry for this run's inputs (and `margins`); the
    /// entries of the others are kept, those of pruned baselines removed; the keys of the run's
    /// presets are this run's.
    func concludeManifest(_ report: inout SnapshotReport, specs: [Spec], inputs: [VariantInput], margins: [String: [String: Double]]) {
        guard let current = manifestInputs, !inputs.isEmpty || manifest != nil else { return }
        let byID = Dictionary(inputs.map { ($0.variant.id, $0) }, uniquingKeysWith: { a, _ in a })
        let writing = !writes.intersection([.record, .update]).isEmpty
        if let manifest {
            report.groups = SnapshotGroup.group(report.results, inputs: byID, manifest: manifest, current: current, refreshed: writing)
        }
        guard writing, !report.results.contains(where: { $0.writeError != nil }) else { return }
        var next = manifest ?? SnapshotManifest()
        for spec in specs { next.keys[spec.name] = current.inputs(of: spec).keys }
        next.renderers[current.rendererID] = current.renderer
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
