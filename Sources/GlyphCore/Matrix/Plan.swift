import Dispatch
import Foundation

/// A variant with its spec, layout and scene, ready to render.
public struct PlannedVariant: Sendable {
    public let spec: Spec
    public let layout: Layout
    /// What the variant draws, resolved once: the renderer and the rules read it.
    public let scene: Scene
    /// Position in the whole selected (filtered, unsharded) matrix: the same in every shard.
    public let index: Int
    public var variant: Variant { layout.variant }

    public init(spec: Spec, layout: Layout, index: Int) {
        self.spec = spec
        self.layout = layout
        scene = Scene(spec: spec, layout: layout)
        self.index = index
    }
}

/// The selected variants of a set of specs, all laid out (so every error surfaces before anything is written).
public struct Plan: Sendable {
    public let specs: [Spec]
    public let items: [PlannedVariant]
    /// How many variants the specs have before filtering.
    public let total: Int
    /// How many the filter selected (before sharding).
    public let selected: Int

    public init(specs: [Spec], filter: VariantFilter = VariantFilter(), shard: Shard? = nil,
                text: any TextMeasuring) throws(InputError) {
        var seen = Set<String>()
        for spec in specs {
            if !seen.insert(spec.name).inserted {
                throw InputError(file: spec.sourceFile ?? spec.name, keyPath: "name",
                                 message: "two specs are named \"\(spec.name)\"; names must be unique (they name the files)")
            }
        }
        self.specs = specs
        var selected: [(Spec, Variant)] = []
        var total = 0
        for spec in specs {
            for v in spec.variants() {
                total += 1
                if filter.matches(v) { selected.append((spec, v)) }
            }
        }
        let keep = shard.map { $0.members(selected.map { $0.1.preset }) }
        var items: [PlannedVariant] = []
        for (index, (spec, v)) in selected.enumerated() where keep?[index] ?? true {
            let derived = spec.spec(for: v.setting)
            items.append(PlannedVariant(spec: derived, layout: try Layout(spec: derived, variant: v, text: text), index: index))
        }
        self.items = items
        self.total = total
        self.selected = selected.count
    }
}

/// `--shard I/N`: the I-th of N deterministic slices of the selected matrix (1-based).
///
/// A slice holds whole presets (every variant of a preset's selection), because audits compare
/// variants with each other within a preset: states and Dynamic Type sizes of one component, and
/// also every component of a theme (`text-contrast`, the authored colours of `nontext-contrast`,
/// whose findings cover all shapes and sizes at once). So the findings of the shards, merged, are
/// those of one whole run. Presets go, largest first (ties in matrix order), to the shard with the
/// fewest variants so far, so no two shards differ by more than the largest preset.
public struct Shard: Sendable, Equatable {
    public let index: Int
    public let count: Int

    public init?(_ text: String) {
        // Digits only: Int() would also take a sign ("+1/2").
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy { (0x30...0x39).contains($0) } }),
              let i = Int(parts[0]), let n = Int(parts[1]), n >= 1, (1...n).contains(i) else { return nil }
        index = i
        count = n
    }

    public var description: String { "\(index)/\(count)" }

    /// For each position, whether it falls in this shard; `groups[i]` names the group (preset) of position i.
    public func members(_ groups: [String]) -> [Bool] {
        var sizes: [String: Int] = [:]
        var order: [String] = []
        for g in groups {
            if sizes[g] == nil { order.append(g) }
            sizes[g, default: 0] += 1
        }
        // One slot per shard that can receive a preset: while a shard is empty the next preset goes
        // to the first empty one, so with more shards than presets the shards past the presets'
        // number stay empty, and no slot is needed for them (N may be 2^63 - 1).
        var load = [Int](repeating: 0, count: min(count, order.count))
        var owner: [String: Int] = [:]
        for g in order.enumerated().sorted(by: { sizes[$0.element]! > sizes[$1.element]! || (sizes[$0.element]! == sizes[$1.element]! && $0.offset < $1.offset) }).map(\.element) {
            let target = load.indices.min { load[$0] < load[$1] || (load[$0] == load[$1] && $0 < $1) }!
            owner[g] = target
            load[target] += sizes[g]!
        }
        return groups.map { owner[$0] == index - 1 }
    }
}
