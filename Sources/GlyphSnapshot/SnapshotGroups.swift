import Foundation
import GlyphCore

/// Changed baselines grouped by what changed (docs/snapshots.md, "Changes by cause"): the variants
/// whose pixels changed, by the spec and token keys that changed for them (`sizes.sm.markWeight 1.5 →
/// 2.25`), a renderer change on its own, and pixels that changed with no input change ("the renderer
/// drew the same inputs differently"); and the stale baselines, whose inputs changed while their
/// pixels were not re-recorded. Within a group, variants with identical diffs (the same baseline and
/// render pixels) are folded.
public struct SnapshotGroup: Sendable, Equatable, Codable {
    public enum Kind: String, Sendable, Codable {
        /// Pixels changed; spec or token keys that fed the variant changed.
        case inputs
        /// Pixels changed; only the renderer (libraries, fonts, glyphaudit's render version) changed.
        case renderer
        /// Pixels changed, inputs equal: the renderer drew the same inputs differently.
        case unexplained
        /// Pixels changed; the inputs' digest changed, but no recorded key nor the renderer did
        /// (the layout or label measuring of another glyphaudit, or keys recorded for older inputs).
        case unrecorded
        /// The inputs changed but the pixels did not (or the render matched within tolerance): the
        /// baseline was not re-recorded for its inputs (`--update` refreshes the manifest).
        case stale
    }

    /// One key that changed: its value in the manifest and now (nil: not there).
    public struct Change: Sendable, Equatable, Codable, CustomStringConvertible {
        public var key: String
        public var before: String?
        public var after: String?
        public var description: String { "\(key) \(before ?? "(unset)") → \(after ?? "(unset)")" }
    }

    /// Variants whose diffs are identical (same baseline pixels, same render pixels).
    public struct Fold: Sendable, Equatable, Codable {
        /// The variant that stands for the fold (the first in plan order).
        public var representative: String
        public var variants: [String]
    }

    /// `g` and 10 hex digits of the SHA-256 of the kind and cause: the same cause has the same id in
    /// every run and shard.
    public var id: String
    public var kind: Kind
    /// What changed, in one line: `sizes.sm.markWeight 1.5 → 2.25`.
    public var cause: String
    public var changes: [Change]?
    public var count: Int
    /// The variant ids, in plan order.
    public var variants: [String]
    /// Identical diffs folded (changed pixels only; nil for a stale group).
    public var diffs: [Fold]?

    /// `48 variants: sizes.sm.markWeight 1.5 → 2.25` (and the folds: `, 12 distinct diffs`).
    public var summary: String {
        let head = kind == .stale ? "\(counted(count, "stale baseline")) (inputs changed, not re-recorded)" : counted(count, "variant")
        var s = "\(head): \(cause)"
        if let diffs, diffs.count < count { s += " (\(counted(diffs.count, "distinct diff")))" }
        return s
    }

    /// Groups the results of a check by cause, against `manifest`. `inputs` are the variants'
    /// inputs by id; `refreshed` says that the manifest is being rewritten for this run's matching
    /// variants (`--record`/`--update`), so none of them is stale. Groups: most variants first, then by id.
    public static func group(_ results: [SnapshotResult], inputs: [String: VariantInput], manifest: SnapshotManifest,
                             current: ManifestInputs, refreshed: Bool) -> [SnapshotGroup] {
        var order: [String] = []
        var byKey: [String: SnapshotGroup] = [:]
        var diffKeys: [String: [(String, String)]] = [:]
        var causes: [String: (Kind, [Change]?, String)] = [:]
        // (A reused result's inputs are its entry's: it is in no group.)
        for r in results where (r.status == .match || r.status == .mismatch) && r.reused != true {
            let id = r.id.description
            guard let input = inputs[id], let entry = manifest.variants[id] else { continue }
            let inputsChanged = entry.digest != input.digest
            let pixelsChanged = r.status == .mismatch
            // A render that matches its baseline: stale when its inputs changed, unless this run
            // re-records its entry (identical pixels under --record/--update).
            if !pixelsChanged && (!inputsChanged || refreshed && r.difference?.identical != false) { continue }
            // The cause depends on the variant's scopes, its preset and the digests only: worked out
            // once per distinct combination (a theme colour changes hundreds of variants alike).
            let causeKey = "\(inputsChanged)\n\(input.variant.preset)\n\(SpecInputs.scopes(of: input.variant).joined(separator: "\n"))\n"
                + "\(entry.keys)\n\(input.keysDigest)\n\(entry.renderer)"
            if causes[causeKey] == nil {
                causes[causeKey] = { () -> (Kind, [Change]?, String) in
                    let kind: Kind
                    var changes: [Change]? = nil
                    let cause: String
                    if !inputsChanged {
                        kind = .unexplained
                        cause = "renderer drew the same inputs differently"
                    } else {
                        var parts: [String] = []
                        if entry.keys != input.keysDigest {
                            if let recorded = manifest.keys[input.variant.preset],
                               SpecInputs.keysDigest(recorded.filter { SpecInputs.feeds($0.key, input.variant) }.map { ($0.key, $0.value) }) == entry.keys {
                                let now = input.inputs.keys
                                let names = Set(recorded.keys).union(now.keys).filter { SpecInputs.feeds($0, input.variant) }.sorted()
                                let found = names.compactMap { k in recorded[k] == now[k] ? nil : Change(key: k, before: recorded[k], after: now[k]) }
                                if !found.isEmpty {
                                    changes = found
                                    parts.append(found.map(\.description).joined(separator: "; "))
                                }
                            } else {
                                parts.append("spec or token keys changed (the manifest no longer holds the values recorded for this baseline)")
                            }
                        }
                        var rendererChanged = false
                        if entry.renderer != current.rendererID {
                            rendererChanged = true
                            if let old = manifest.renderers[entry.renderer] {
                                let list = RendererFingerprint(components: current.renderer).changes(from: RendererFingerprint(components: old))
                                parts.append("renderer: " + list.map(\.description).joined(separator: "; "))
                            } else {
                                parts.append("renderer changed")
                            }
                        }
                        if parts.isEmpty {
                            kind = .unrecorded
                            cause = "resolved inputs changed with no recorded key changed (layout, label measuring or glyphaudit itself)"
                        } else {
                            kind = changes != nil || !rendererChanged ? .inputs : .renderer
                            cause = parts.joined(separator: "; ")
                        }
                    }
                    return (kind, changes, cause)
                }()
            }
            let (found, changes, cause) = causes[causeKey]!
            // (A render with unchanged inputs is here only when its pixels changed.)
            let kind = pixelsChanged ? found : .stale
            let key = kind.rawValue + "\n" + cause
            if byKey[key] == nil {
                order.append(key)
                byKey[key] = SnapshotGroup(id: "g" + SHA256.hex(key).prefix(10), kind: kind, cause: cause, changes: changes, count: 0,
                                           variants: [], diffs: nil)
            }
            byKey[key]!.count += 1
            byKey[key]!.variants.append(id)
            if pixelsChanged { diffKeys[key, default: []].append((id, r.changeDigest ?? id)) }
        }
        var groups = order.map { key -> SnapshotGroup in
            var g = byKey[key]!
            if let d = diffKeys[key] {
                var foldOrder: [String] = []
                var folds: [String: [String]] = [:]
                for (id, digest) in d {
                    if folds[digest] == nil { foldOrder.append(digest) }
                    folds[digest, default: []].append(id)
                }
                g.diffs = foldOrder.map { Fold(representative: folds[$0]![0], variants: folds[$0]!) }
            }
            return g
        }
        groups.sort { $0.count != $1.count ? $0.count > $1.count : $0.id < $1.id }
        return groups
    }

    /// The groups of two shards of one run as one list: groups of the same id joined (variants and
    /// folds of the same representative's digest are not known across shards, so folds are kept apart).
    public static func merge(_ a: [SnapshotGroup], _ b: [SnapshotGroup]) -> [SnapshotGroup] {
        var out = a
        for g in b {
            if let i = out.firstIndex(where: { $0.id == g.id }) {
                out[i].count += g.count
                out[i].variants += g.variants
                if let d = g.diffs { out[i].diffs = (out[i].diffs ?? []) + d }
            } else {
                out.append(g)
            }
        }
        out.sort { $0.count != $1.count ? $0.count > $1.count : $0.id < $1.id }
        return out
    }
}
