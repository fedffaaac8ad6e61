import Dispatch
import Foundation

/// A variant with its spec, layout and scene, ready to render.
///
/// A plan holds one for every selected variant for the whole run, so it is kept small: the spec
/// is shared by every variant planned from it (one box per spec and display setting, not a copy
/// of the spec's fields in each), and the scene is resolved when it is needed (`resolved()`; the
/// pipeline resolves a component's variants when it reaches them) rather than kept for each
/// variant of the matrix (about 3 KB each; docs/performance.md). The scene is a pure function of
/// the spec and the layout, so a scene resolved late is the same as one resolved up front.
public struct PlannedVariant: Sendable {
    private let shared: SharedSpec
    public var spec: Spec { shared.spec }
    public let layout: Layout
    private let resolvedScene: ResolvedScene?
    /// What the variant draws: the renderer and the rules read it. Resolved on each access unless
    /// the item was `resolved()` (or made with `init(spec:layout:index:)`).
    public var scene: Scene { resolvedScene?.scene ?? Scene(spec: shared.spec, layout: layout) }
    /// Position in the whole selected (filtered, unsharded) matrix: the same in every shard.
    public let index: Int
    public var variant: Variant { layout.variant }

    /// An item with its scene resolved.
    public init(spec: Spec, layout: Layout, index: Int) {
        shared = SharedSpec(spec)
        self.layout = layout
        resolvedScene = ResolvedScene(Scene(spec: spec, layout: layout))
        self.index = index
    }

    /// An item whose scene is resolved when it is read (what a plan keeps).
    init(shared: SharedSpec, layout: Layout, index: Int) {
        self.shared = shared
        self.layout = layout
        resolvedScene = nil
        self.index = index
    }

    private init(_ item: PlannedVariant, scene: Scene) {
        shared = item.shared
        layout = item.layout
        resolvedScene = ResolvedScene(scene)
        index = item.index
    }

    /// Whether `scene` is kept (else it is resolved on each access).
    public var isResolved: Bool { resolvedScene != nil }

    /// The same item with its scene resolved once and kept: for the variants worked on now (a
    /// component being rendered and audited), whose scene is read many times.
    public func resolved() -> PlannedVariant {
        resolvedScene != nil ? self : PlannedVariant(self, scene: Scene(spec: shared.spec, layout: layout))
    }
}

/// A resolved scene, held by reference: an item without one keeps a pointer's room, not a scene's.
final class ResolvedScene: Sendable {
    let scene: Scene
    init(_ scene: Scene) { self.scene = scene }
}

/// A spec shared by the planned variants made from it.
final class SharedSpec: Sendable {
    let spec: Spec
    init(_ spec: Spec) { self.spec = spec }
}

/// The selected variants of a set of specs, all laid out (so every error surfaces before anything is written);
/// their scenes are resolved when read (`PlannedVariant.resolved()`).
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
        // One shared spec per spec and display setting (specs' names are unique).
        var shared: [String: SharedSpec] = [:]
        for (index, (spec, v)) in selected.enumerated() where keep?[index] ?? true {
            let key = "\(spec.name)\u{0}\(v.setting?.rawValue ?? "")"
            let derived = shared[key] ?? SharedSpec(spec.spec(for: v.setting))
            shared[key] = derived
            items.append(PlannedVariant(shared: derived, layout: try Layout(spec: derived.spec, variant: v, text: text), index: index))
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
