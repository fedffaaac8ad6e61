import Foundation
import Testing
@testable import GlyphRender

@Suite("Plan and shards")
struct PlanTests {
    @Test("every variant falls in exactly one shard, whole components per shard, for N = 1 … 9")
    func shards() throws {
        let specs = try Presets.names.map { try Presets.load($0) }
        let whole = try Plan(specs: specs)
        #expect(whole.items.map(\.index) == Array(0..<1908))
        for n in 1...9 {
            var seen: [Int: Int] = [:]
            var componentShard: [String: Int] = [:]
            for i in 1...n {
                let plan = try Plan(specs: specs, shard: Shard("\(i)/\(n)")!)
                for item in plan.items {
                    seen[item.index, default: 0] += 1
                    let component = "\(item.variant.preset)/\(item.variant.component)"
                    if let other = componentShard[component] {
                        #expect(other == i, "\(component) split across shards \(other) and \(i)")
                    }
                    componentShard[component] = i
                    #expect(whole.items[item.index].variant == item.variant)
                }
            }
            #expect(seen.count == 1908 && seen.values.allSatisfy { $0 == 1 }, "N = \(n)")
        }
        // Seven components (216, 216, 4 × 288, 324 variants), largest first to the lighter shard:
        // 324 → 1, 288 → 2, 288 → 2, 288 → 1, 288 → 2, 216 → 1, 216 → 1 gives 1044 and 864.
        let two = try (1...2).map { try Plan(specs: specs, shard: Shard("\($0)/2")!).items.count }
        #expect(two == [1044, 864])
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
