import Foundation
import Testing
import GlyphColor
import GlyphCore
import GlyphRender

@Suite("Plan and shards")
struct PlanTests {
    @Test("every variant falls in exactly one shard, whole presets per shard, for N = 1 … 9")
    func shards() throws {
        let specs = try Presets.names.map { try Presets.load($0) }
        let whole = try Plan(specs: specs)
        #expect(whole.items.map(\.index) == Array(0..<2340))
        for n in 1...9 {
            var seen: [Int: Int] = [:]
            var presetShard: [String: Int] = [:]
            for i in 1...n {
                let plan = try Plan(specs: specs, shard: Shard("\(i)/\(n)")!)
                for item in plan.items {
                    seen[item.index, default: 0] += 1
                    // Whole presets: text-contrast and nontext-contrast fold findings across the
                    // components of a theme, so a preset split over shards would merge differently.
                    let preset = item.variant.preset
                    if let other = presetShard[preset] {
                        #expect(other == i, "\(preset) split across shards \(other) and \(i)")
                    }
                    presetShard[preset] = i
                    #expect(whole.items[item.index].variant == item.variant)
                }
            }
            #expect(seen.count == 2340 && seen.values.allSatisfy { $0 == 1 }, "N = \(n)")
        }
        // Four presets (432, 432, 1152, 324 variants: the SwiftUI ones with focused variants), largest
        // first to the lighter shard: 1152 → 1, 432 → 2, 432 → 2, 324 → 2 gives 1152 and 1188.
        let two = try (1...2).map { try Plan(specs: specs, shard: Shard("\($0)/2")!).items.count }
        #expect(two == [1152, 1188])
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
