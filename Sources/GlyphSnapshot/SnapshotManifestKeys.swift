import Foundation
import GlyphCore

extension SnapshotManifest {
    /// Sets the keys of each preset of `current` (preset → key path → value, `SpecInputs.keys`) to
    /// their values now, after the entries `rewritten` were written for these values, as
    /// `check`/`run --record`/`--update` and `accept` do.
    ///
    /// A write that leaves entries as they were (a partial selection: `--only`, `accept --group`;
    /// or `--record` without `--update`, which leaves a changed baseline alone) keeps, for each key
    /// that feeds such an entry, the value the table recorded for it, when the recorded table is the
    /// one that entry was written with (its keys' digest): the next `check` still names that cause
    /// (`sizes.md.markWeight 2 → 3`) for the variants left, not "keys changed". Once every variant
    /// fed by a key is rewritten, the key takes its value now: partial writes that together rewrite
    /// every entry leave the table one write of everything leaves.
    ///
    /// `live` says whether a variant id is still one of its spec's (an entry of a stale baseline,
    /// not pruned, is never compared again: it keeps no key).
    public mutating func setKeys(_ current: [String: [String: String]], rewritten: Set<String>,
                                 live: (String) -> Bool = { _ in true }) {
        let recorded = keys
        var held: [String: [(id: String, scopes: [String], entry: Entry)]] = [:]
        for (id, entry) in variants where !rewritten.contains(id) {
            let vid = VariantID(parsing: id)
            guard current[vid.preset] != nil, recorded[vid.preset] != nil, let scopes = SpecInputs.scopes(of: vid) else { continue }
            held[vid.preset, default: []].append((id, scopes, entry))
        }
        for (preset, now) in current {
            var table = now
            if let old = recorded[preset], old != now, let entries = held[preset] {
                let changed = Set(old.keys).union(now.keys).filter { old[$0] != now[$0] }
                // Worked out once per scopes and keys' digest (a size's entries are alike).
                var explained: [String: Bool] = [:]
                var keep = Set<String>()
                for (id, scopes, entry) in entries {
                    let fed = changed.filter { SpecInputs.feeds($0, scopes: scopes) }
                    guard !fed.isEmpty, !fed.isSubset(of: keep) else { continue }
                    let combination = scopes.joined(separator: "\n") + "\n" + entry.keys
                    if explained[combination] == nil {
                        let pairs = old.filter { SpecInputs.feeds($0.key, scopes: scopes) }.map { ($0.key, $0.value) }
                        explained[combination] = SpecInputs.keysDigest(pairs) == entry.keys
                    }
                    guard explained[combination]!, live(id) else { continue }
                    keep.formUnion(fed)
                }
                for key in keep { table[key] = old[key] }
            }
            keys[preset] = table
        }
    }
}
