import Foundation
import Testing
import GlyphCore
import GlyphRaster
import GlyphRender
import GlyphTestSupport

@Suite("The renderer still produces the built-in baselines in snapshots/")
struct BaselineTests {
    @Test("every built-in variant, byte for byte")
    func presetsMatchSnapshots() throws {
        let root = TestPaths.packageRoot.appendingPathComponent("snapshots")
        let plan = try Plan(specs: Presets.names.map { try Presets.load($0) })
        let items = plan.items
        #expect(items.count == 2340)
        let problems = parallelMap(items.count, jobs: defaultJobs) { i -> String? in
            let item = items[i]
            let file = root.appendingPathComponent(item.variant.fileName("png"))
            guard let expected = try? Data(contentsOf: file) else { return "\(item.variant.id): no baseline" }
            let raster = Renderer.raster(item.layout, spec: item.spec)
            guard let actual = try? raster.pngData(), actual == expected else {
                let baseline = try? Raster(pngData: expected)
                let same = baseline == raster ? "same pixels, other bytes" : "pixels differ"
                return "\(item.variant.id): \(same)"
            }
            return nil
        }.compactMap { $0 }
        #expect(problems.isEmpty, "\(problems.count) variants differ, e.g. \(problems.prefix(5))")
    }
}
