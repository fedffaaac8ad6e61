import Foundation

/// Whether two renders of a glyph are the same regions in other colours: a pure recolouring.
///
/// A recolouring maps each colour of one state to one colour of the other and back (grey ring →
/// blue ring, surface → surface). Anti-aliased pixels do not map cleanly (a ramp of 200 greys may
/// become a ramp of 19), so only pixels that lie inside a flat area — their 3 × 3 neighbourhood is
/// one colour — in at least one of the two states are compared. Each colour's partner is the colour
/// it meets most often in the other state; a compared pixel is *inconsistent* when its two colours
/// are not each other's partners. The share is inconsistent pixels over the pixels of the boundary
/// band (pixels that are not flat in one state or the other: about three pixels along every edge of
/// either state), so it does not shrink as the glyph grows. A new mark, a moved knob or a hollow box
/// that fills (the surface inside maps to the fill while the surface outside stays surface) make it
/// large (0.06 and more measured); a change of colour alone leaves it at 0.
struct RegionMap: Sendable {
    let width: Int
    let height: Int
    /// The colour index of each pixel (`StructureMap.Indexed.index`).
    let index: [UInt16]
    /// 1 where the pixel's 3 × 3 neighbourhood (inside the area) is one colour.
    let flat: [UInt8]
    let colorCount: Int

    init(_ g: GlyphPixels, _ indexed: StructureMap.Indexed) {
        let w = g.width, h = g.height, n = w * h
        width = w
        height = h
        index = indexed.index
        colorCount = indexed.colors.count
        var flat = [UInt8](repeating: 0, count: n)
        if n > 0 {
            indexed.index.withUnsafeBufferPointer { idx in
                // Rows first: same[p] = 1 when p and its left and right neighbours share a colour.
                var same = [UInt8](repeating: 0, count: n)
                same.withUnsafeMutableBufferPointer { s in
                    for y in 0..<h {
                        let row = y * w
                        for x in 0..<w {
                            let c = idx[row + x]
                            let left = x == 0 || idx[row + x - 1] == c
                            let right = x == w - 1 || idx[row + x + 1] == c
                            s[row + x] = left && right ? 1 : 0
                        }
                    }
                }
                same.withUnsafeBufferPointer { s in
                    flat.withUnsafeMutableBufferPointer { f in
                        for y in 0..<h {
                            let row = y * w
                            for x in 0..<w where s[row + x] != 0 {
                                let c = idx[row + x]
                                let up = y == 0 || (s[row - w + x] != 0 && idx[row - w + x] == c)
                                let down = y == h - 1 || (s[row + w + x] != 0 && idx[row + w + x] == c)
                                if up && down { f[row + x] = 1 }
                            }
                        }
                    }
                }
            }
        }
        self.flat = flat
    }

    /// Inconsistent pixels over the boundary band's pixels for `a` and `b`: 0 for a pure recolouring
    /// (or two identical renders), at most 1; 1 when the areas differ in size.
    static func inconsistentShare(_ a: RegionMap, _ b: RegionMap) -> Double {
        guard a.width == b.width, a.height == b.height else { return 1 }
        let n = a.width * a.height
        guard n > 0 else { return 0 }
        var table = PairTable()
        var edge = 0
        a.index.withUnsafeBufferPointer { ia in
            b.index.withUnsafeBufferPointer { ib in
                a.flat.withUnsafeBufferPointer { fa in
                    b.flat.withUnsafeBufferPointer { fb in
                        // Runs of the same pair (most of a flat render) are added at once.
                        var run: UInt32 = 0, length: Int32 = 0
                        for p in 0..<n {
                            let x = ia[p], y = ib[p]
                            if fa[p] & fb[p] == 0 { edge += 1 }
                            guard fa[p] | fb[p] != 0 else { continue }
                            let k = UInt32(x) << 16 | UInt32(y)
                            if k == run && length > 0 {
                                length += 1
                            } else {
                                if length > 0 { table.add(run, length) }
                                run = k
                                length = 1
                            }
                        }
                        if length > 0 { table.add(run, length) }
                    }
                }
            }
        }
        guard edge > 0 else { return 0 }  // two flat areas, one colour each: a recolouring at most
        // Each colour's partner: the colour of the other state it meets most often (ties: the first met).
        var rowBest = [(count: Int32, partner: Int32)](repeating: (0, -1), count: a.colorCount)
        var colBest = [(count: Int32, partner: Int32)](repeating: (0, -1), count: b.colorCount)
        var compared = 0
        table.forEach { key, count in
            let x = Int(key >> 16), y = Int(key & 0xFFFF)
            compared += Int(count)
            if count > rowBest[x].count { rowBest[x] = (count, Int32(y)) }
            if count > colBest[y].count { colBest[y] = (count, Int32(x)) }
        }
        var consistent = 0
        table.forEach { key, count in
            let x = Int(key >> 16), y = Int(key & 0xFFFF)
            if rowBest[x].partner == Int32(y) && colBest[y].partner == Int32(x) { consistent += Int(count) }
        }
        return min(1, Double(compared - consistent) / Double(edge))
    }

    /// Counts of colour pairs (`a << 16 | b`), open addressing, grown as needed; entries are visited
    /// in the order they were first added, so ties break the same way every run.
    struct PairTable {
        private var keys = [UInt32](repeating: 0, count: 256)
        private var slots = [Int32](repeating: -1, count: 256)
        private var order: [UInt32] = []
        private var counts: [Int32] = []
        private var mask = 255

        @inline(__always)
        private static func hash(_ k: UInt32) -> Int { Int(truncatingIfNeeded: (k &* 0x9E37_79B1) >> 8) }

        mutating func add(_ k: UInt32, _ n: Int32) {
            var h = Self.hash(k) & mask
            while true {
                let s = slots[h]
                if s < 0 {
                    slots[h] = Int32(order.count)
                    keys[h] = k
                    order.append(k)
                    counts.append(n)
                    if order.count * 2 > keys.count { grow() }
                    return
                }
                if keys[h] == k {
                    counts[Int(s)] += n
                    return
                }
                h = (h + 1) & mask
            }
        }

        private mutating func grow() {
            let size = keys.count * 2
            keys = [UInt32](repeating: 0, count: size)
            slots = [Int32](repeating: -1, count: size)
            mask = size - 1
            for (i, k) in order.enumerated() {
                var h = Self.hash(k) & mask
                while slots[h] >= 0 { h = (h + 1) & mask }
                keys[h] = k
                slots[h] = Int32(i)
            }
        }

        func forEach(_ body: (UInt32, Int32) -> Void) {
            for i in order.indices { body(order[i], counts[i]) }
        }
    }
}
