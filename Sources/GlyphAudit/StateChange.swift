import Foundation
import GlyphColor
import GlyphCore

/// How much of a glyph's picture changes between two states, in each of the four views, once any
/// change of colour alone is explained away.
///
/// Two renders are compared pixel by pixel as pairs of colours (the colour in state A, the colour in
/// state B). A pure recolouring maps each colour of A to one colour of B and back, so the mapping is
/// learned from the pictures themselves, one to one: the surface (seen in the area's margin) is its
/// own partner, then the colour pairs that cover the most pixels are partnered first, each colour
/// once; a colour left over (an anti-aliasing level that rounds two ways) takes the colour it meets
/// most often. A pixel is *changed* in a view when its colour in B differs perceivably from the
/// partner of its colour in A, or its colour in A from the partner of its colour in B (greyscale: a
/// contrast ratio of at least `greyRatio`; colour views: an OKLab distance of at least
/// `colorDistance` after the view's simulation). Changed pixels are regions that appear, disappear,
/// move or change outline; a new colour alone changes none, so a pure recolouring scores exactly 0.
/// A changed pixel counts only when a neighbour changed too (a lone pixel whose anti-aliasing
/// rounds differently is not a change anyone sees). The area is given in square points (changed
/// pixels / scale²), so the same design measures about the same at @1x and @3x.
struct StateChange: Sendable {
    static let views = ColorView.allCases

    struct Thresholds: Sendable, Equatable {
        var greyRatio: Double
        var colorDistance: Double
    }

    /// Changed pixels per view (`views` order), those with a changed neighbour.
    let changed: [Int]
    /// Changed pixels per view, lone ones included: more than 0 whenever the pictures differ by more
    /// than a change of colour in that view, however little.
    let raw: [Int]
    /// True when every key colour of each state is drawn in the same colour in the other: the two
    /// pictures differ in anti-aliasing only, if at all.
    var sameColours = false
    /// The changed pixels' bounding box per view, in pixels of the glyph's area (nil: none changed).
    let boxes: [PixelBox?]

    struct PixelBox: Sendable, Equatable {
        var x0: Int, y0: Int, x1: Int, y1: Int
    }

    /// Changed area per view, in square points at display scale `scale` (identical pixels may be two
    /// variants at different scales: a 16 pt glyph at @3x and a 24 pt one at @2x).
    func areas(scale: Int) -> [Double] { changed.map { Double($0) / Double(scale * scale) } }

    /// The same with lone changed pixels counted too.
    func rawAreas(scale: Int) -> [Double] { raw.map { Double($0) / Double(scale * scale) } }

    /// A glyph's colours and, for each pixel, its colour's index (renders are flat colours with
    /// anti-aliased edges: a few hundred colours at most), and whether every colour is a grey.
    struct Indexed: Sendable {
        var width: Int
        var height: Int
        var index: [UInt16]
        var colors: [UInt32]
        /// True when every colour is a neutral grey (r = g = b within one level): a picture without
        /// colour, which every colour-vision view sees as greyscale does.
        var neutral: Bool
    }

    static func indexed(_ g: GlyphPixels) -> Indexed {
        let n = g.width * g.height
        var palette = Palette()
        var index = [UInt16](repeating: 0, count: n)
        if n > 0 {
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
        }
        let neutral = palette.colors.allSatisfy { c in
            let r = Int(c & 0xFF), gg = Int((c >> 8) & 0xFF), b = Int((c >> 16) & 0xFF)
            return abs(r - gg) <= 1 && abs(gg - b) <= 1 && abs(r - b) <= 1
        }
        return Indexed(width: g.width, height: g.height, index: index, colors: palette.colors, neutral: neutral)
    }

    /// Compares two states' glyphs; `fa[i]` are the view features of `a.colors[i]`, `fb` of `b`'s.
    /// `known` holds colours whose views are already computed (every colour of every glyph audited):
    /// a predicted mixture is often one of them.
    /// `greyOnly`: the features are `ViewColour(grey:)`'s, and only the greyscale view is measured
    /// (the colour views count nothing, unless both pictures are neutral).
    static func measure(_ a: Indexed, _ b: Indexed, _ fa: [ViewColour], _ fb: [ViewColour], _ t: Thresholds,
                        known: [UInt32: ViewColour] = [:], greyOnly: Bool = false) -> StateChange {
        guard a.width == b.width, a.height == b.height else { return allChanged(a, b) }
        let table = pairTable(a, b)
        var entries: [PairEntry] = []
        entries.reserveCapacity(table.count)
        table.forEach { slot, key, count in entries.append((slot, key, count)) }
        let keyA = keyColours(entries, colors: a.colors.count, state: .a)
        let keyB = keyColours(entries, colors: b.colors.count, state: .b)
        let (partnerInB, partnerInA) = partners(a, b, entries, keyA: keyA, keyB: keyB)
        let (masks, sameColours) = pairMasks(a, b, fa, fb, t, known: known, entries: entries, tableCount: table.count,
                                             keyA: keyA, keyB: keyB, partnerInB: partnerInB, partnerInA: partnerInA,
                                             greyOnly: greyOnly)
        guard masks.contains(where: { $0 != 0 }) else {
            let none = [Int](repeating: 0, count: 4)
            return StateChange(changed: none, raw: none, sameColours: sameColours, boxes: [PixelBox?](repeating: nil, count: 4))
        }
        let mask = pixelMask(a, b, table: table, masks: masks)
        let (changed, raw, boxes) = countChanged(mask, width: a.width, height: a.height)
        return StateChange(changed: changed, raw: raw, sameColours: sameColours, boxes: boxes)
    }

    /// A pair of colours (`a << 16 | b`), its slot in the pair table and how many pixels have it.
    typealias PairEntry = (slot: Int, key: UInt32, count: Int32)

    /// Which state's colours of a pair key (`a << 16 | b`).
    enum State { case a, b }

    /// Different areas (never for two states of one variant): everything changed.
    static func allChanged(_ a: Indexed, _ b: Indexed) -> StateChange {
        let all = max(a.width * a.height, b.width * b.height)
        let box = PixelBox(x0: 0, y0: 0, x1: max(a.width, b.width), y1: max(a.height, b.height))
        return StateChange(changed: [all, all, all, all], raw: [all, all, all, all], boxes: [box, box, box, box])
    }

    /// How many pixels have each pair of colours (the colour in A, the colour in B). Runs of the same
    /// pair (most of a flat render) are added at once.
    static func pairTable(_ a: Indexed, _ b: Indexed) -> PairTable {
        let n = a.width * a.height
        var table = PairTable()
        a.index.withUnsafeBufferPointer { ia in
            b.index.withUnsafeBufferPointer { ib in
                var run: UInt32 = 0, length: Int32 = 0
                for p in 0..<n {
                    let k = UInt32(ia[p]) << 16 | UInt32(ib[p])
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
        return table
    }

    /// The key colours of one state: the flat colours a render is made of (surface, ring, fill,
    /// mark), as the colours covering the most pixels, at least `keySupport` each; the others are
    /// anti-aliasing, mixtures of key colours.
    static func keyColours(_ entries: [PairEntry], colors: Int, state: State) -> [Bool] {
        var counts = [Int](repeating: 0, count: colors)
        for e in entries {
            counts[Int(state == .a ? e.key >> 16 : e.key & 0xFFFF)] += Int(e.count)
        }
        let ranked = counts.indices.filter { counts[$0] >= keySupport }
            .sorted { counts[$0] != counts[$1] ? counts[$0] > counts[$1] : $0 < $1 }.prefix(maxKeys)
        var key = [Bool](repeating: false, count: counts.count)
        for i in ranked { key[i] = true }
        return key
    }

    /// Each key colour's partner, one to one as a recolouring would pair them: the surface (seen in
    /// the area's margin: where the top-left pixel is one colour in both states) with itself, then
    /// the pairs of key colours that cover the most pixels first, each colour taken once. A key
    /// colour left without a partner (one that only one state has) takes the colour it meets most often.
    static func partners(_ a: Indexed, _ b: Indexed, _ entries: [PairEntry], keyA: [Bool], keyB: [Bool])
        -> (inB: [Int], inA: [Int]) {
        var partnerInB = [Int](repeating: -1, count: a.colors.count)
        var partnerInA = [Int](repeating: -1, count: b.colors.count)
        if a.width * a.height > 0, a.colors[Int(a.index[0])] == b.colors[Int(b.index[0])] {
            partnerInB[Int(a.index[0])] = Int(b.index[0])
            partnerInA[Int(b.index[0])] = Int(a.index[0])
        }
        for e in entries.sorted(by: { $0.count != $1.count ? $0.count > $1.count : $0.slot < $1.slot }) {
            let x = Int(e.key >> 16), y = Int(e.key & 0xFFFF)
            if keyA[x] && keyB[y] && partnerInB[x] < 0 && partnerInA[y] < 0 {
                partnerInB[x] = y
                partnerInA[y] = x
            }
        }
        var mostInB = [(count: Int32, partner: Int)](repeating: (0, 0), count: a.colors.count)
        var mostInA = [(count: Int32, partner: Int)](repeating: (0, 0), count: b.colors.count)
        for e in entries {
            let x = Int(e.key >> 16), y = Int(e.key & 0xFFFF)
            if e.count > mostInB[x].count { mostInB[x] = (e.count, y) }
            if e.count > mostInA[y].count { mostInA[y] = (e.count, x) }
        }
        for x in partnerInB.indices where keyA[x] && partnerInB[x] < 0 { partnerInB[x] = mostInB[x].partner }
        for y in partnerInA.indices where keyB[y] && partnerInA[y] < 0 { partnerInA[y] = mostInA[y].partner }
        return (partnerInB, partnerInA)
    }

    /// The views in which each pair of colours (by slot) is a change, and whether every key colour
    /// keeps its colour. What each colour would be in the other state if the change were a
    /// recolouring: a key colour's partner; an anti-aliased colour, the same mixture of its key
    /// colours' partners.
    static func pairMasks(_ a: Indexed, _ b: Indexed, _ fa: [ViewColour], _ fb: [ViewColour], _ t: Thresholds,
                          known: [UInt32: ViewColour], entries: [PairEntry], tableCount: Int,
                          keyA: [Bool], keyB: [Bool], partnerInB: [Int], partnerInA: [Int],
                          greyOnly: Bool = false) -> (masks: [UInt8], sameColours: Bool) {
        var predicted: [UInt32: ViewColour] = [:]
        func prediction(_ c: UInt32, _ mix: Mixer) -> ViewColour {
            let p = mix(c)
            if let hit = known[p] ?? predicted[p] { return hit }
            let f = greyOnly ? ViewColour(grey: p) : ViewColour(p)
            predicted[p] = f
            return f
        }
        let keysOfA = a.colors.indices.filter { keyA[$0] }, keysOfB = b.colors.indices.filter { keyB[$0] }
        let carriedFromA = Mixer(keysOfA.map { (a.colors[$0], b.colors[partnerInB[$0]]) })
        let carriedFromB = Mixer(keysOfB.map { (b.colors[$0], a.colors[partnerInA[$0]]) })
        let sameColours = keysOfA.allSatisfy { a.colors[$0] == b.colors[partnerInB[$0]] }
            && keysOfB.allSatisfy { b.colors[$0] == a.colors[partnerInA[$0]] }
        var inB = [ViewColour?](repeating: nil, count: a.colors.count)
        var inA = [ViewColour?](repeating: nil, count: b.colors.count)
        let bothNeutral = a.neutral && b.neutral
        var masks = [UInt8](repeating: 0, count: tableCount)
        for e in entries {
            let x = Int(e.key >> 16), y = Int(e.key & 0xFFFF)
            if inB[x] == nil {
                inB[x] = keyA[x] ? fb[partnerInB[x]] : prediction(a.colors[x], carriedFromA)
            }
            if inA[y] == nil {
                inA[y] = keyB[y] ? fa[partnerInA[y]] : prediction(b.colors[y], carriedFromB)
            }
            var m = fb[y].differs(inB[x]!, t) | fa[x].differs(inA[y]!, t)
            if bothNeutral { m = m & 1 == 0 ? 0 : 15 }
            masks[e.slot] = m
        }
        return (masks, sameColours)
    }

    /// Each pixel's views (the mask of its pair of colours), with a border of one empty pixel all
    /// round, so neighbours need no bounds checks: the row stride is `width + 2`.
    static func pixelMask(_ a: Indexed, _ b: Indexed, table: PairTable, masks: [UInt8]) -> [UInt8] {
        let w = a.width, h = a.height
        let pw = w + 2
        var pixelMask = [UInt8](repeating: 0, count: pw * (h + 2))
        a.index.withUnsafeBufferPointer { ia in
            b.index.withUnsafeBufferPointer { ib in
                pixelMask.withUnsafeMutableBufferPointer { m in
                    var lastKey: UInt32 = .max, lastMask: UInt8 = 0
                    for y in 0..<h {
                        for x in 0..<w {
                            let p = y * w + x
                            let k = UInt32(ia[p]) << 16 | UInt32(ib[p])
                            if k != lastKey {
                                lastKey = k
                                lastMask = masks[table.slot(of: k)!]
                            }
                            m[(y + 1) * pw + x + 1] = lastMask
                        }
                    }
                }
            }
        }
        return pixelMask
    }

    /// The changed pixels per view: only those with a changed neighbour (8-connected) count (a lone
    /// pixel whose anti-aliasing differs is not a change anyone sees), `raw` counts them all; and
    /// the counted pixels' bounding box per view.
    static func countChanged(_ pixelMask: [UInt8], width w: Int, height h: Int)
        -> (changed: [Int], raw: [Int], boxes: [PixelBox?]) {
        let pw = w + 2
        // One table: the histogram of counted masks (0..<16), of raw masks (16..<32), the boxes' x0, y0
        // per view (32..<40) and x1, y1 per view (40..<48). Read through pointers: a debug build
        // checks and retains at every array subscript.
        var table = [Int](repeating: 0, count: 48)
        for i in 32..<40 { table[i] = .max }
        for i in 40..<48 { table[i] = .min }
        pixelMask.withUnsafeBufferPointer { mb in
            table.withUnsafeMutableBufferPointer { tb in
                let m = mb.baseAddress!, histogram = tb.baseAddress!, rawHistogram = histogram + 16
                let lo = histogram + 32, hi = histogram + 40
                for y in 0..<h {
                    let row = (y + 1) * pw + 1
                    var x = -1
                    while x + 1 < w {
                        x += 1
                        let q = row + x
                        let v = m[q]
                        guard v != 0 else { continue }
                        rawHistogram[Int(v)] += 1
                        let around = m[q - pw - 1] | m[q - pw] | m[q - pw + 1] | m[q - 1] | m[q + 1]
                            | m[q + pw - 1] | m[q + pw] | m[q + pw + 1]
                        let counted = v & around
                        guard counted != 0 else { continue }
                        histogram[Int(counted)] += 1
                        var view = 0
                        while view < 4 {
                            if counted & (1 << view) != 0 {
                                if x < lo[2 * view] { lo[2 * view] = x }
                                if y < lo[2 * view + 1] { lo[2 * view + 1] = y }
                                if x + 1 > hi[2 * view] { hi[2 * view] = x + 1 }
                                if y + 1 > hi[2 * view + 1] { hi[2 * view + 1] = y + 1 }
                            }
                            view += 1
                        }
                    }
                }
            }
        }
        let histogram = Array(table[0..<16]), rawHistogram = Array(table[16..<32])
        let lo = Array(table[32..<40]), hi = Array(table[40..<48])
        var boxes = [PixelBox?](repeating: nil, count: 4)
        for view in 0..<4 where hi[2 * view] > Int.min {
            boxes[view] = PixelBox(x0: lo[2 * view], y0: lo[2 * view + 1], x1: hi[2 * view], y1: hi[2 * view + 1])
        }
        var changed = [Int](repeating: 0, count: 4)
        var raw = changed
        for v in 0..<4 {
            for k in 0..<16 where k & (1 << v) != 0 {
                changed[v] += histogram[k]
                raw[v] += rawHistogram[k]
            }
        }
        return (changed, raw, boxes)
    }

    /// A colour is a key colour when it covers at least this many pixels (and is among the `maxKeys` most common).
    static let keySupport = 3
    static let maxKeys = 6

    /// A colour as a mixture of key colours, carried over to their partners. The pair of key colours
    /// (or the one key colour) nearest to the colour in RGBA is taken, the colour projected onto the
    /// segment between them (a little beyond it too: a thin stroke may never show its pure colour),
    /// and the partners mixed in the same proportion (cairo blends in these values).
    struct Mixer {
        /// Four channels (r, g, b, a) as doubles. Plain scalars, not `SIMD4`: the same arithmetic in the
        /// same order (a sum adds its terms left to right, as `SIMD4.sum()` does), and a debug build runs
        /// it without a generic call per channel.
        struct V4 {
            var r, g, b, a: Double
            static let zero = V4(r: 0, g: 0, b: 0, a: 0)
            init(r: Double, g: Double, b: Double, a: Double) { (self.r, self.g, self.b, self.a) = (r, g, b, a) }
            init(_ p: UInt32) {
                self.init(r: Double(p & 0xFF), g: Double((p >> 8) & 0xFF), b: Double((p >> 16) & 0xFF), a: Double(p >> 24))
            }
            static func - (x: V4, y: V4) -> V4 { V4(r: x.r - y.r, g: x.g - y.g, b: x.b - y.b, a: x.a - y.a) }
            /// x + t × y, channel by channel.
            static func plus(_ x: V4, _ t: Double, _ y: V4) -> V4 {
                V4(r: x.r + t * y.r, g: x.g + t * y.g, b: x.b + t * y.b, a: x.a + t * y.a)
            }
            /// x − t × y, channel by channel.
            static func minus(_ x: V4, _ t: Double, _ y: V4) -> V4 {
                V4(r: x.r - t * y.r, g: x.g - t * y.g, b: x.b - t * y.b, a: x.a - t * y.a)
            }
            static func dot(_ x: V4, _ y: V4) -> Double { x.r * y.r + x.g * y.g + x.b * y.b + x.a * y.a }
        }
        struct Segment {
            var p: V4, pq: V4, inverseLength: Double
            var partner: V4, partnerStep: V4
        }
        var segments: [Segment] = []

        /// `keys`: (key colour, its partner) pairs.
        init(_ keys: [(UInt32, UInt32)]) {
            let k = keys.map { (V4($0.0), V4($0.1)) }
            for i in k.indices {
                // A key alone is the segment of no length.
                segments.append(Segment(p: k[i].0, pq: .zero, inverseLength: 0, partner: k[i].1, partnerStep: .zero))
                for j in k.indices where j > i {
                    let pq = k[j].0 - k[i].0
                    let len = V4.dot(pq, pq)
                    guard len > 0 else { continue }
                    segments.append(Segment(p: k[i].0, pq: pq, inverseLength: 1 / len, partner: k[i].1, partnerStep: k[j].1 - k[i].1))
                }
            }
        }

        func callAsFunction(_ c: UInt32) -> UInt32 {
            guard !segments.isEmpty else { return c }
            let x = V4(c)
            var best = Double.infinity, mixed = V4.zero
            segments.withUnsafeBufferPointer { buffer in
                let base = buffer.baseAddress!
                var i = 0
                while i < buffer.count {
                    let s = base[i]
                    i += 1
                    let d = x - s.p
                    let u = V4.dot(d, s.pq) * s.inverseLength
                    let m = u >= -0.25 ? u : -0.25, t = m < 4 ? m : 4  // min(4, max(-0.25, u))
                    let e = V4.minus(d, t, s.pq)
                    let ee = V4.dot(e, e)
                    if ee < best {
                        best = ee
                        mixed = V4.plus(s.partner, t, s.partnerStep)
                    }
                }
            }
            func byte(_ d: Double) -> UInt32 {
                let r = d.rounded(), m = r >= 0 ? r : 0  // min(255, max(0, r))
                return UInt32(m < 255 ? m : 255)
            }
            return byte(mixed.r) | byte(mixed.g) << 8 | byte(mixed.b) << 16 | byte(mixed.a) << 24
        }
    }

    /// Two glyphs compared, computing their own colour features (for tests and evidence).
    static func measure(_ a: GlyphPixels, _ b: GlyphPixels, _ t: Thresholds) -> StateChange {
        let ia = indexed(a), ib = indexed(b)
        return measure(ia, ib, ia.colors.map(ViewColour.init(_:)), ib.colors.map(ViewColour.init(_:)), t)
    }

    /// The same in the greyscale view alone (`focus-indicator` reads no other): its count is
    /// `measure`'s, without the colour-vision simulations.
    static func measureGrey(_ a: GlyphPixels, _ b: GlyphPixels, _ t: Thresholds) -> StateChange {
        let ia = indexed(a), ib = indexed(b)
        let fa: [ViewColour] = ia.colors.map { ViewColour(grey: $0) }, fb: [ViewColour] = ib.colors.map { ViewColour(grey: $0) }
        return measure(ia, ib, fa, fb, t, known: [:], greyOnly: true)
    }

    /// A colour in the four views: greyscale as `Y + 0.05` (for the WCAG ratio) and OKLab after each
    /// CVD simulation (Machado 2009, severity 1, in linear RGB).
    struct ViewColour: Sendable {
        var grey: Double
        var lab: (Double, Double, Double, Double, Double, Double, Double, Double, Double)

        /// A packed pixel's linear RGB; translucent pixels (only on a translucent surface) are seen over white.
        private static func linear(_ p: UInt32) -> (Double, Double, Double) {
            let table = SRGB.linearTable
            if p >> 24 == 255 { return (table[Int(p & 0xFF)], table[Int((p >> 8) & 0xFF)], table[Int((p >> 16) & 0xFF)]) }
            let o = GlyphPixels.unpack(p).composited(over: .white)
            return (SRGB.toLinear(o.r), SRGB.toLinear(o.g), SRGB.toLinear(o.b))
        }

        /// The greyscale view alone (the colour views all zero: they see no difference).
        init(grey p: UInt32) {
            let (r, g, b) = Self.linear(p)
            grey = relativeLuminance(linearR: r, linearG: g, linearB: b) + 0.05
            lab = (0, 0, 0, 0, 0, 0, 0, 0, 0)
        }

        /// From a packed RGBA pixel (`r | g << 8 | b << 16 | a << 24`).
        init(_ p: UInt32) {
            let (r, g, b) = Self.linear(p)
            grey = relativeLuminance(linearR: r, linearG: g, linearB: b) + 0.05
            func lab(_ k: CVDKind) -> (Double, Double, Double) {
                let (x, y, z) = simulateLinear(k, r: r, g: g, b: b)
                let l = OKLab.fromLinearSRGB(r: x, g: y, b: z)
                return (l.L, l.a, l.b)
            }
            let pr = lab(.protanopia), d = lab(.deuteranopia), t = lab(.tritanopia)
            self.lab = (pr.0, pr.1, pr.2, d.0, d.1, d.2, t.0, t.1, t.2)
        }

        /// Bit `v` set when the two colours are perceivably different in view `v`.
        func differs(_ o: ViewColour, _ t: Thresholds) -> UInt8 {
            var m: UInt8 = 0
            if max(grey, o.grey) >= t.greyRatio * min(grey, o.grey) { m |= 1 }
            let d2 = t.colorDistance * t.colorDistance
            func dist2(_ a: (Double, Double, Double), _ b: (Double, Double, Double)) -> Double {
                let dl = a.0 - b.0, da = a.1 - b.1, db = a.2 - b.2
                return dl * dl + da * da + db * db
            }
            if dist2((lab.0, lab.1, lab.2), (o.lab.0, o.lab.1, o.lab.2)) >= d2 { m |= 2 }
            if dist2((lab.3, lab.4, lab.5), (o.lab.3, o.lab.4, o.lab.5)) >= d2 { m |= 4 }
            if dist2((lab.6, lab.7, lab.8), (o.lab.6, o.lab.7, o.lab.8)) >= d2 { m |= 8 }
            return m
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

    /// Counts of colour pairs (`a << 16 | b`), open addressing, grown as needed; entries are visited
    /// in the order they were first added, so ties break the same way every run.
    struct PairTable {
        private var keys = [UInt32](repeating: 0, count: 256)
        private var slots = [Int32](repeating: -1, count: 256)
        private var order: [UInt32] = []
        private var counts: [Int32] = []
        private var mask = 255

        var count: Int { order.count }

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

        /// The entry's position in first-added order.
        func slot(of k: UInt32) -> Int? {
            var h = Self.hash(k) & mask
            while true {
                let s = slots[h]
                if s < 0 { return nil }
                if keys[h] == k { return Int(s) }
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

        /// Every entry: its slot, key and count, in first-added order.
        func forEach(_ body: (Int, UInt32, Int32) -> Void) {
            for i in order.indices { body(i, order[i], counts[i]) }
        }
    }
}
