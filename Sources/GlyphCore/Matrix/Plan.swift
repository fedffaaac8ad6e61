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
    /// The scene's label part (`Scene.label`), without resolving the scene when it is not kept.
    public var label: ScenePart? { resolvedScene.map { $0.scene.label } ?? Scene.label(spec: shared.spec, layout: layout) }
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
    /// The shard the plan is of, if any.
    public let shard: Shard?
    /// Every selected variant, laid out: `items` without a shard; with one, also the variants of
    /// the other shards, for the rules that compare a shard's variants with theirs on layouts and
    /// colours alone (no renders; `Pipeline.runByGroups`, docs/report-format.md "Sharding").
    public let all: [PlannedVariant]

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
        let keep = shard.map { $0.members(selected.map { $0.1.groupKey }) }
        var items: [PlannedVariant] = []
        var all: [PlannedVariant] = []
        // One shared spec per spec and display setting (specs' names are unique).
        var shared: [String: SharedSpec] = [:]
        for (index, (spec, v)) in selected.enumerated() {
            let key = "\(spec.name)\u{0}\(v.setting?.rawValue ?? "")"
            let derived = shared[key] ?? SharedSpec(spec.spec(for: v.setting))
            shared[key] = derived
            let item = PlannedVariant(shared: derived, layout: try Layout(spec: derived.spec, variant: v, text: text), index: index)
            if keep?[index] ?? true { items.append(item) }
            if shard != nil { all.append(item) }
        }
        self.items = items
        self.all = shard == nil ? items : all
        self.shard = shard
        self.total = total
        self.selected = selected.count
    }
}

/// `--shard I/N`: the I-th of N deterministic slices of the selected matrix (1-based).
///
/// A slice holds whole variant groups (`Variant.groupKey`: a preset's component in one theme and
/// display setting), so a spec with one component and three themes spreads over three shards. The
/// rules that compare within a group (state-shape, the pixels of nontext-contrast, focus-indicator)
/// run in the group's shard. The rest compare across groups on layouts and colours, not renders:
/// across components (text-contrast, the authored colours of nontext-contrast, setting-regression)
/// and across the themes of a component (target-size, dynamic-type-scaling, clipping, image-aspect;
/// clipping reads the ink of an image glyph in the component's first theme). Every shard plans the
/// whole selection's layouts for them, and each such finding is reported by one shard only — the
/// one holding the first group of its preset (colours) or of its component (the rest) — so the
/// findings of the shards, merged, are those of one whole run. Groups go, largest first (ties in
/// matrix order), to the shard with the fewest variants so far, so no two shards differ by more
/// than the largest group.
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

    /// For each position, whether it falls in this shard; `groups[i]` names the group of position i.
    public func members(_ groups: [String]) -> [Bool] {
        var sizes: [String: Int] = [:]
        var order: [String] = []
        for g in groups {
            if sizes[g] == nil { order.append(g) }
            sizes[g, default: 0] += 1
        }
        // One slot per shard that can receive a group: while a shard is empty the next group goes
        // to the first empty one, so with more shards than groups the shards past the groups'
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

extension Variant {
    /// The variant group: preset, component (shape and size), theme and display setting. The unit
    /// of shards and of the incremental audit cache: the rules that read renders compare variants
    /// within one group only (see `Shard`).
    public var groupKey: String {
        "\(preset)\u{0}\(component)\u{0}\(theme)\u{0}\(setting?.rawValue ?? "")"
    }
}
