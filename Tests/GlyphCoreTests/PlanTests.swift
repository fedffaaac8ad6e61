import Foundation
import Testing
import GlyphColor
import GlyphCore
import GlyphRender

@Suite("Plan and shards")
struct PlanTests {
    @Test("every variant falls in exactly one shard, whole variant groups per shard, for N = 1 … 9")
    func shards() throws {
        let specs = try Presets.names.map { try Presets.load($0) }
        let whole = try Plan(specs: specs)
        #expect(whole.items.map(\.index) == Array(0..<2340))
        #expect(whole.all.count == 2340 && whole.shard == nil)
        // The largest group: swiftui-checkbox's components hold 216 variants and their focused
        // twins over 3 themes, so 144 a theme; the others fewer.
        var groupSizes: [String: Int] = [:]
        for item in whole.items { groupSizes[item.variant.groupKey, default: 0] += 1 }
        let largest = try #require(groupSizes.values.max())
        for n in 1...9 {
            var seen: [Int: Int] = [:]
            var groupShard: [String: Int] = [:]
            var counts: [Int] = []
            for i in 1...n {
                let plan = try Plan(specs: specs, shard: Shard("\(i)/\(n)")!)
                // Every shard lays out the whole selection, for the rules that compare across groups.
                #expect(plan.all.count == 2340)
                counts.append(plan.items.count)
                for item in plan.items {
                    seen[item.index, default: 0] += 1
                    // Whole groups: the rules that read renders compare within a group only.
                    let group = item.variant.groupKey
                    if let other = groupShard[group] {
                        #expect(other == i, "\(group) split across shards \(other) and \(i)")
                    }
                    groupShard[group] = i
                    #expect(whole.items[item.index].variant == item.variant)
                }
            }
            #expect(seen.count == 2340 && seen.values.allSatisfy { $0 == 1 }, "N = \(n)")
            // Largest group first to the lightest shard: no two shards differ by more than the largest group.
            #expect(counts.max()! - counts.min()! <= largest, "N = \(n): \(counts)")
        }
    }

    @Test("a one-component spec spreads over shards: swiftui-switch's three themes over two shards")
    func oneComponentShards() throws {
        let spec = try Presets.load("swiftui-switch")
        let whole = try Plan(specs: [spec])
        #expect(Set(whole.items.map(\.variant.component)).count == 1)
        let shards = try (1...2).map { try Plan(specs: [spec], shard: Shard("\($0)/2")!) }
        // Three equal groups (default, inverse, disabled, in matrix order) each to the lightest shard,
        // the first on a tie: default → 1, inverse → 2, disabled → 1.
        #expect(shards.map { Set($0.items.map(\.variant.theme)) } == [["default", "disabled"], ["inverse"]])
        #expect(shards[0].items.count + shards[1].items.count == whole.items.count)
        #expect(shards[0].items.count == 2 * shards[1].items.count)
    }

    @Test("a plan keeps no scene per variant; one resolved late is the scene of its spec and layout")
    func scenesResolvedLate() throws {
        let plan = try Plan(specs: [Presets.load("swiftui-checkbox")])
        #expect(plan.items.count == 432, "216 and their focused twins")
        #expect(plan.items.allSatisfy { !$0.isResolved })
        let item = try #require(plan.items.first { $0.variant.theme == "default" && $0.variant.state == .checked })
        let resolved = item.resolved()
        #expect(resolved.isResolved)
        // Assets/presets/swiftui-checkbox.json: themes.default has surface #FFFFFF, label #000000.
        let scene = resolved.scene
        #expect(scene.surface?.color?.authored.hex == "#FFFFFF")
        #expect(scene.label?.color?.authored.hex == "#000000")
        #expect(scene.label?.color?.source.keyPath == "themes.default.label")
        // Read without resolving, the same scene: the same parts, rects and colours.
        let lazy = item.scene
        #expect(lazy.parts.map(\.kind) == scene.parts.map(\.kind))
        #expect(lazy.parts.map(\.rect) == scene.parts.map(\.rect))
        #expect(lazy.parts.map(\.color) == scene.parts.map(\.color))
        // appearance.checked: ring, no fill, a check mark.
        #expect(scene.parts.map(\.kind) == [.surface, .ring, .mark, .label])
    }

    @Test("--shard text")
    func shardText() {
        #expect(Shard("2/3") == Shard("2/3"))
        #expect(Shard("0/3") == nil)
        #expect(Shard("4/3") == nil)
        #expect(Shard("1/0") == nil)
        #expect(Shard("a/b") == nil)
    }
}
