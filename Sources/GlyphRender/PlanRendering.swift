import Foundation
import GlyphCore
import GlyphRaster

extension Plan {
    /// Renders every item in memory on `jobs` threads; the result is index-aligned with `items`.
    public func renderAll(jobs: Int, parts: RenderParts = .all) -> [Raster] {
        let items = self.items
        return parallelMap(items.count, jobs: jobs) { i in Renderer.raster(items[i].scene, parts: parts) }
    }
}
