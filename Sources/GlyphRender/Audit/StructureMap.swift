import Foundation

/// Where a glyph's perceivable boundaries lie, in each of the four views at once.
///
/// A pixel is a boundary pixel in a view when its colour differs by a perceivable amount from the
/// pixel two steps away horizontally or vertically (both pixels of such a pair are marked):
/// - greyscale: the WCAG contrast ratio of the two luminances is at least `greyRatio` (~1.35);
/// - protanopia, deuteranopia, tritanopia: after Machado 2009 simulation in linear RGB, the OKLab
///   distance is at least `colorDistance` (~0.12).
/// Comparing pixels two apart (not neighbours) makes a one-pixel anti-aliased edge a boundary too.
/// Bit `v` of `bits[p]` is set when pixel `p` is a boundary in view `v` (`ColorView.allCases` order);
/// `dilated` is the same map grown by one pixel (3 × 3), for comparing two states tolerantly.
struct StructureMap: Sendable {
    static let views = ColorView.allCases

    struct Thresholds: Sendable, Equatable {
        var greyRatio: Double
        var colorDistance: Double
    }

    let width: Int
    let height: Int
    let bits: [UInt8]
    let dilated: [UInt8]
    /// Boundary pixels per view.
    let counts: [Int]

    /// The glyph's colours and, for each pixel, its colour's index (renders are flat colours with
    /// anti-aliased edges: a few hundred colours at most).
    struct Indexed: Sendable {
        var index: [UInt16]
        var colors: [UInt32]
    }

    static func indexed(_ g: GlyphPixels) -> Indexed {
        let n = g.width * g.height
        var palette = Palette()
        var index = [UInt16](repeating: 0, count: n)
        guard n > 0 else { return Indexed(index: index, colors: []) }
        g.pixels.withUnsafeBufferPointer { px in
            index.withUnsafeMutableBufferPointer { out in
                var last: UInt32 = px[0] &+ 1
                var lastIndex: UInt16 = 0
                for p in 0..<n {
                    let c = px[p]
                    if c != last {
                        last = c
                        lastIndex = palette.index(of: c)
                    }
                    out[p] = lastIndex
                }
            }
        }
        return Indexed(index: index, colors: palette.colors)
    }

    /// A glyph's map, computing its own colour features.
    init(_ g: GlyphPixels, _ t: Thresholds) {
        let indexed = Self.indexed(g)
        self.init(g, indexed, features: indexed.colors.map { Features($0) }, t)
    }

    /// A glyph's map from its indexed pixels and the features of its colours (`features[i]` for
    /// `indexed.colors[i]`), so that colours shared by many glyphs are simulated once.
    init(_ g: GlyphPixels, _ indexed: Indexed, features: [Features], _ t: Thresholds) {
        width = g.width
        height = g.height
        let n = width * height
        var bits = [UInt8](repeating: 0, count: n)
        var dilated = [UInt8](repeating: 0, count: n)
        var counts = [Int](repeating: 0, count: 4)
        guard n > 0 else {
            self.bits = bits
            self.dilated = dilated
            self.counts = counts
            return
        }
        let index = indexed.index
        let greyRatio = t.greyRatio
        let d2 = t.colorDistance * t.colorDistance

        func differ(_ a: Features, _ b: Features) -> UInt8 {
            var m: UInt8 = 0
            let hi = max(a.grey, b.grey), lo = min(a.grey, b.grey)
            if hi >= greyRatio * lo { m |= 1 }
            if a.distance2(b, 0) >= d2 { m |= 2 }
            if a.distance2(b, 1) >= d2 { m |= 4 }
            if a.distance2(b, 2) >= d2 { m |= 8 }
            return m
        }

        let w = width, h = height
        index.withUnsafeBufferPointer { idx in
            bits.withUnsafeMutableBufferPointer { b in
                features.withUnsafeBufferPointer { f in
                    for y in 0..<h {
                        let row = y * w
                        for x in 0..<w {
                            let p = row + x
                            let i = idx[p]
                            if x + 2 < w {
                                let j = idx[p + 2]
                                if i != j {
                                    let m = differ(f[Int(i)], f[Int(j)])
                                    b[p] |= m
                                    b[p + 2] |= m
                                }
                            }
                            if y + 2 < h {
                                let j = idx[p + 2 * w]
                                if i != j {
                                    let m = differ(f[Int(i)], f[Int(j)])
                                    b[p] |= m
                                    b[p + 2 * w] |= m
                                }
                            }
                        }
                    }
                }
            }
        }

        // Grow by one pixel: a 3 × 3 OR, done as a horizontal pass and a vertical pass.
        var horizontal = [UInt8](repeating: 0, count: n)
        bits.withUnsafeBufferPointer { b in
            horizontal.withUnsafeMutableBufferPointer { o in
                for y in 0..<h {
                    let row = y * w
                    for x in 0..<w {
                        var v = b[row + x]
                        if x > 0 { v |= b[row + x - 1] }
                        if x + 1 < w { v |= b[row + x + 1] }
                        o[row + x] = v
                    }
                }
            }
        }
        horizontal.withUnsafeBufferPointer { hb in
            dilated.withUnsafeMutableBufferPointer { o in
                for y in 0..<h {
                    let row = y * w
                    for x in 0..<w {
                        var v = hb[row + x]
                        if y > 0 { v |= hb[row - w + x] }
                        if y + 1 < h { v |= hb[row + w + x] }
                        o[row + x] = v
                    }
                }
            }
        }

        var histogram = [Int](repeating: 0, count: 16)
        bits.withUnsafeBufferPointer { b in
            for v in b { histogram[Int(v & 15)] += 1 }
        }
        for v in 0..<4 {
            for k in 0..<16 where k & (1 << v) != 0 { counts[v] += histogram[k] }
        }
        self.bits = bits
        self.dilated = dilated
        self.counts = counts
    }

    /// How much of the structure changed between two states, per view: the boundary pixels of
    /// either state with no boundary of the other state within one pixel, over all boundary
    /// pixels of both. 0 when neither has any boundary.
    static func changedShare(_ a: StructureMap, _ b: StructureMap) -> [Double] {
        var histogramA = [Int](repeating: 0, count: 16)
        var histogramB = [Int](repeating: 0, count: 16)
        let w = min(a.width, b.width), h = min(a.height, b.height)
        a.bits.withUnsafeBufferPointer { ab in
            a.dilated.withUnsafeBufferPointer { ad in
                b.bits.withUnsafeBufferPointer { bb in
                    b.dilated.withUnsafeBufferPointer { bd in
                        for y in 0..<h {
                            let ra = y * a.width, rb = y * b.width
                            for x in 0..<w {
                                histogramA[Int(ab[ra + x] & ~bd[rb + x] & 15)] += 1
                                histogramB[Int(bb[rb + x] & ~ad[ra + x] & 15)] += 1
                            }
                        }
                    }
                }
            }
        }
        return (0..<4).map { v in
            var changed = 0
            for k in 0..<16 where k & (1 << v) != 0 { changed += histogramA[k] + histogramB[k] }
            let all = a.counts[v] + b.counts[v]
            return all == 0 ? 0 : Double(changed) / Double(all)
        }
    }

    /// A colour in the four views: greyscale as `Y + 0.05` (for the WCAG ratio) and OKLab after each
    /// CVD simulation.
    struct Features: Sendable {
        var grey: Double
        var lab: (Double, Double, Double, Double, Double, Double, Double, Double, Double)

        /// From a packed RGBA pixel (`r | g << 8 | b << 16 | a << 24`).
        init(_ p: UInt32) {
            let table = SRGB.linearTable
            let r: Double, g: Double, b: Double
            if p >> 24 == 255 {
                r = table[Int(p & 0xFF)]; g = table[Int((p >> 8) & 0xFF)]; b = table[Int((p >> 16) & 0xFF)]
            } else {
                // Translucent pixels (only on a translucent surface) are seen over white.
                let o = GlyphPixels.unpack(p).composited(over: .white)
                r = SRGB.toLinear(o.r); g = SRGB.toLinear(o.g); b = SRGB.toLinear(o.b)
            }
            grey = relativeLuminance(linearR: r, linearG: g, linearB: b) + 0.05
            func lab(_ k: CVDKind) -> (Double, Double, Double) {
                let (x, y, z) = simulateLinear(k, r: r, g: g, b: b)
                let l = OKLab.fromLinearSRGB(r: x, g: y, b: z)
                return (l.L, l.a, l.b)
            }
            let pr = lab(.protanopia), d = lab(.deuteranopia), t = lab(.tritanopia)
            self.lab = (pr.0, pr.1, pr.2, d.0, d.1, d.2, t.0, t.1, t.2)
        }

        @inline(__always)
        func distance2(_ o: Features, _ view: Int) -> Double {
            let a: (Double, Double, Double), b: (Double, Double, Double)
            switch view {
            case 0: a = (lab.0, lab.1, lab.2); b = (o.lab.0, o.lab.1, o.lab.2)
            case 1: a = (lab.3, lab.4, lab.5); b = (o.lab.3, o.lab.4, o.lab.5)
            default: a = (lab.6, lab.7, lab.8); b = (o.lab.6, o.lab.7, o.lab.8)
            }
            let dl = a.0 - b.0, da = a.1 - b.1, db = a.2 - b.2
            return dl * dl + da * da + db * db
        }
    }

    /// Packed RGBA → small index, open addressing.
    struct Palette {
        var keys = [UInt32](repeating: 0, count: 1024)
        var slots = [Int32](repeating: -1, count: 1024)
        var colors: [UInt32] = []
        var mask = 1023

        mutating func index(of c: UInt32) -> UInt16 {
            var h = Int(truncatingIfNeeded: (c &* 0x9E37_79B1) >> 16) & mask
            while true {
                let s = slots[h]
                if s < 0 {
                    if colors.count >= 65_535 { return 65_534 }
                    slots[h] = Int32(colors.count)
                    keys[h] = c
                    colors.append(c)
                    if colors.count * 2 > keys.count { grow() }
                    return UInt16(colors.count - 1)
                }
                if keys[h] == c { return UInt16(s) }
                h = (h + 1) & mask
            }
        }

        private mutating func grow() {
            let old = zip(keys, slots).filter { $0.1 >= 0 }
            let size = keys.count * 2
            keys = [UInt32](repeating: 0, count: size)
            slots = [Int32](repeating: -1, count: size)
            mask = size - 1
            for (k, s) in old {
                var h = Int(truncatingIfNeeded: (k &* 0x9E37_79B1) >> 16) & mask
                while slots[h] >= 0 { h = (h + 1) & mask }
                keys[h] = k
                slots[h] = s
            }
        }
    }
}
