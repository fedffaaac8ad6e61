import GlyphColor
import GlyphRaster
// Measures what a render painted (the render and the audit tests).
extension Raster {
    /// Bounding box (in pixels) of the pixels for which `test` holds: (minX, minY, maxX+1, maxY+1).
    public func bounds(where test: (RGBA) -> Bool) -> (x0: Int, y0: Int, x1: Int, y1: Int)? {
        var x0 = Int.max, y0 = Int.max, x1 = -1, y1 = -1
        for y in 0..<height {
            for x in 0..<width where test(color(x, y)) {
                x0 = min(x0, x); y0 = min(y0, y); x1 = max(x1, x); y1 = max(y1, y)
            }
        }
        return x1 < 0 ? nil : (x0, y0, x1 + 1, y1 + 1)
    }
}
