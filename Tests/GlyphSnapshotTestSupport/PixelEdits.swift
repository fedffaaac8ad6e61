import GlyphRaster
import GlyphSnapshot

// Pixel edits the snapshot tests of both test targets make to renders: a change the comparator must
// catch, and one its anti-aliasing detector must explain.

/// A pixel whose 8 neighbours all have its colour (so changing it is not anti-aliasing), nearest the centre.
public func centralFlatPixel(_ r: Raster) -> (Int, Int)? {
    var best: (Int, Int)?
    var bestDistance = Int.max
    for y in 1..<(r.height - 1) {
        for x in 1..<(r.width - 1) {
            let p = r.pixel(x, y)
            var flat = true
            for dy in -1...1 {
                for dx in -1...1 where r.pixel(x + dx, y + dy) != p { flat = false }
            }
            let distance = abs(x - r.width / 2) + abs(y - r.height / 2)
            if flat && distance < bestDistance { best = (x, y); bestDistance = distance }
        }
    }
    return best
}

/// A copy of `r` with one pixel changed so that pixelmatch sees a difference over the threshold
/// that its anti-aliasing detector explains: 0 mismatched, 1 anti-aliased pixel.
public func antialiasedPixelChange(_ r: Raster) -> Raster? {
    func luma(_ q: (r: UInt8, g: UInt8, b: UInt8, a: UInt8)) -> Int { Int(q.r) * 299 + Int(q.g) * 587 + Int(q.b) * 114 }
    for y in 1..<(r.height - 1) {
        for x in 1..<(r.width - 1) {
            // Candidates: the darkest and the brightest neighbour's colour, and their midpoint.
            var neighbours: [(r: UInt8, g: UInt8, b: UInt8, a: UInt8)] = []
            for dy in -1...1 { for dx in -1...1 where dx != 0 || dy != 0 { neighbours.append(r.pixel(x + dx, y + dy)) } }
            guard let dark = neighbours.min(by: { luma($0) < luma($1) }),
                  let light = neighbours.max(by: { luma($0) < luma($1) }), luma(light) - luma(dark) > 60_000 else { continue }
            let mid = (r: UInt8((Int(dark.r) + Int(light.r)) / 2), g: UInt8((Int(dark.g) + Int(light.g)) / 2),
                       b: UInt8((Int(dark.b) + Int(light.b)) / 2), a: UInt8((Int(dark.a) + Int(light.a)) / 2))
            for c in [mid, dark, light] where c != r.pixel(x, y) {
                var changed = r
                let i = (y * r.width + x) * 4
                changed.pixels[i] = c.r; changed.pixels[i + 1] = c.g; changed.pixels[i + 2] = c.b; changed.pixels[i + 3] = c.a
                let result = Pixelmatch.compare(changed, r, diff: false).result
                if result.mismatched == 0 && result.antialiased == 1 { return changed }
            }
        }
    }
    return nil
}

extension Raster {
    /// The pixel at (x, y) as [r, g, b, a].
    public func rgbaBytes(_ x: Int, _ y: Int) -> [UInt8] {
        let i = (y * width + x) * 4
        return Array(pixels[i..<i + 4])
    }

    /// The `width` × `height` pixels with their top-left corner at (x, y): one panel of a composed picture.
    public func region(x: Int, y: Int, width w: Int, height h: Int) -> Raster {
        var out: [UInt8] = []
        out.reserveCapacity(w * h * 4)
        for row in y..<(y + h) {
            let start: Int = (row * width + x) * 4
            out += pixels[start..<(start + w * 4)]
        }
        return Raster(width: w, height: h, pixels: out)
    }

    /// Sets a pixel to black or white, whichever is farther from its colour.
    public mutating func setContrasting(_ x: Int, _ y: Int) {
        let i = (y * width + x) * 4
        let luma = Int(pixels[i]) * 299 + Int(pixels[i + 1]) * 587 + Int(pixels[i + 2]) * 114
        let v: UInt8 = luma > 127_500 ? 0 : 255
        pixels[i] = v; pixels[i + 1] = v; pixels[i + 2] = v; pixels[i + 3] = 255
    }
}
