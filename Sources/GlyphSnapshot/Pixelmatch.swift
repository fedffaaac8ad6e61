import GlyphRaster
// A Swift port of pixelmatch v6.0.0 (https://github.com/mapbox/pixelmatch, ISC License,
// Copyright (c) Mapbox), the small pixel-level image comparison library.
//
// The behaviour follows v6.0.0 exactly (it matches that release's test fixtures, counts and
// diff images byte for byte):
//
// - colour distance: YIQ (Kotsarenko & Ramos), squared and weighted; a pixel differs when
//   |delta| > 35215 · threshold² (35215 is the largest value the metric can take);
// - semi-transparent pixels are blended over white before they are measured
//   (v7 blends over a checkerboard instead; that is not ported);
// - anti-aliasing detection after V. Vysniauskas, "Anti-aliased Pixel and Intensity Slope
//   Detector" (2009): `antialiased(img1) || antialiased(img2)`;
// - the diff image: similar pixels are img1 turned grey and faded towards white by `alpha`,
//   anti-aliased pixels are `aaColor`, different pixels `diffColor` (or `diffColorAlt` where
//   img2 is darker). With `diffMask` only different pixels are written.
//
// The arithmetic is done in Double in the same order as the JavaScript, so results are
// identical, and values stored into the output are truncated like a JS Uint8Array store.

/// An 8-bit RGB colour used by `PixelmatchOptions`.
public struct RGB8: Sendable, Hashable {
    public var r: UInt8
    public var g: UInt8
    public var b: UInt8

    public init(_ r: UInt8, _ g: UInt8, _ b: UInt8) {
        self.r = r
        self.g = g
        self.b = b
    }
}

/// The options of pixelmatch v6.0.0, with the same defaults.
public struct PixelmatchOptions: Sendable, Equatable {
    /// Matching threshold, 0...1; smaller is more sensitive.
    public var threshold: Double
    /// Count anti-aliased pixels as different instead of detecting and ignoring them.
    public var includeAA: Bool
    /// Opacity of the original image in the diff output.
    public var alpha: Double
    /// Colour of anti-aliased pixels in the diff output.
    public var aaColor: RGB8
    /// Colour of different pixels in the diff output.
    public var diffColor: RGB8
    /// When set, colour of different pixels where img2 is darker than img1.
    public var diffColorAlt: RGB8?
    /// Draw only the different pixels (a mask); leave every other output pixel untouched.
    public var diffMask: Bool

    public init(threshold: Double = 0.1,
                includeAA: Bool = false,
                alpha: Double = 0.1,
                aaColor: RGB8 = RGB8(255, 255, 0),
                diffColor: RGB8 = RGB8(255, 0, 0),
                diffColorAlt: RGB8? = nil,
                diffMask: Bool = false) {
        self.threshold = threshold
        self.includeAA = includeAA
        self.alpha = alpha
        self.aaColor = aaColor
        self.diffColor = diffColor
        self.diffColorAlt = diffColorAlt
        self.diffMask = diffMask
    }
}

/// What a comparison found.
public struct PixelmatchResult: Sendable, Equatable {
    /// Pixels counted as different: pixelmatch's return value. Anti-aliased pixels are not
    /// counted unless `includeAA`.
    public var mismatched: Int
    /// Pixels over the threshold that were classed as anti-aliasing (always 0 with `includeAA`).
    public var antialiased: Int
    /// The largest |YIQ delta| of any pixel, divided by 35215 so it lies in 0...1; 0 when the
    /// images are identical. A pixel is over the threshold when its value is > threshold².
    public var maxDelta: Double

    public init(mismatched: Int, antialiased: Int, maxDelta: Double) {
        self.mismatched = mismatched
        self.antialiased = antialiased
        self.maxDelta = maxDelta
    }
}

public enum Pixelmatch {
    /// The largest value the YIQ delta can take (black-white pairs give about 32857, the
    /// largest pair, cyan-red, about 35214.75).
    public static let maxYIQDelta = 35215.0

    /// Compares two same-size RGBA8 (straight alpha) buffers.
    ///
    /// Writes the diff image into `output` when given (width·height·4 bytes). With
    /// `options.diffMask` only the different pixels are written, so pass a zeroed buffer to get
    /// a transparent background. Buffers of the wrong size are a precondition failure (pixelmatch
    /// throws "Image sizes do not match." / "Image data size does not match width/height.").
    public static func compare(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>,
                               width: Int, height: Int,
                               output: UnsafeMutableBufferPointer<UInt8>?,
                               options: PixelmatchOptions = .init()) -> PixelmatchResult {
        compare(a, b, width: width, height: height, output: output, options: options, rows: nil)
    }

    /// `compare`, given where the rows differ (`RowDifferences` of `a` and `b`) when there is no
    /// output: only those spans are looked at.
    static func compare(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>,
                        width: Int, height: Int,
                        output: UnsafeMutableBufferPointer<UInt8>?,
                        options: PixelmatchOptions, rows known: RowDifferences?) -> PixelmatchResult {
        precondition(a.count == b.count && (output == nil || output!.count == a.count),
                     "Image sizes do not match.")
        precondition(width >= 0 && height >= 0 && a.count == width * height * 4,
                     "Image data size does not match width/height.")

        let len = width * height
        guard len > 0, let img1 = a.baseAddress, let img2 = b.baseAddress else {
            return PixelmatchResult(mismatched: 0, antialiased: 0, maxDelta: 0)
        }
        let out = output?.baseAddress
        let drawBackground = !options.diffMask
        var gray = GrayPixels(img1, alpha: options.alpha)

        // Without a diff image equal pixels do nothing: only the span of each row from its first to
        // its last differing pixel is looked at.
        let rows = out == nil ? known ?? RowDifferences(img1, img2, width: width, height: height) : nil
        // Fast path if identical.
        if rows.map({ $0.rows == 0 }) ?? identical(img1, img2, count: len) {
            if let out, drawBackground {
                for i in 0..<len { gray.draw(4 * i, out) }
            }
            return PixelmatchResult(mismatched: 0, antialiased: 0, maxDelta: 0)
        }

        // Maximum acceptable square distance between two colours.
        let maxDelta = maxYIQDelta * options.threshold * options.threshold
        let includeAA = options.includeAA
        let aaColor = options.aaColor
        let diffColor = options.diffColor
        let altColor = options.diffColorAlt ?? options.diffColor

        var diff = 0
        var antialiasedCount = 0
        var largest = 0.0
        // The last differing pair of pixels and its colour delta (no pair yet: equal words never get here).
        var lastPair: UInt64 = 0
        var lastDelta = 0.0

        // Compare each pixel of one image against the other one.
        for y in 0..<height {
            var span = 0..<width
            if let rows {
                let first = Int(rows.spans[2 * y]), end = Int(rows.spans[2 * y + 1])
                if first == end { continue }
                span = first..<end
            }
            for x in span {
                let pos = (y * width + x) * 4

                // Equal pixels (one 32-bit compare) have delta 0, which is never over the threshold.
                if word(img1, pos) == word(img2, pos) {
                    if let out, drawBackground { gray.draw(pos, out) }
                    continue
                }

                // Squared YIQ distance, negative if the img2 pixel is darker: a function of the two
                // pixels alone, so the last pair's is kept (a flat colour changed repeats one pair).
                let pair = UInt64(word(img1, pos)) << 32 | UInt64(word(img2, pos))
                if pair != lastPair {
                    lastPair = pair
                    lastDelta = colorDelta(img1, img2, pos, pos)
                }
                let delta = lastDelta
                let magnitude = abs(delta)
                if magnitude > largest { largest = magnitude }

                if magnitude > maxDelta {
                    // A real rendering difference, or just anti-aliasing?
                    if !includeAA && (antialiased(img1, x, y, width, height, img2)
                                      || antialiased(img2, x, y, width, height, img1)) {
                        // Anti-aliasing: not counted, and not part of a mask.
                        antialiasedCount += 1
                        if let out, drawBackground { drawPixel(out, pos, aaColor) }
                    } else {
                        if let out { drawPixel(out, pos, delta < 0 ? altColor : diffColor) }
                        diff += 1
                    }
                } else if let out, drawBackground {
                    // Similar pixels: the background, img1 in grey blended with white.
                    gray.draw(pos, out)
                }
            }
        }

        return PixelmatchResult(mismatched: diff, antialiased: antialiasedCount,
                                maxDelta: largest / maxYIQDelta)
    }

    /// Compares two rasters of the same size. Returns the result, and the diff image when
    /// `diff` is true (transparent where nothing is drawn, i.e. outside the mask with `diffMask`).
    public static func compare(_ a: Raster, _ b: Raster, options: PixelmatchOptions = .init(),
                               diff: Bool) -> (result: PixelmatchResult, diff: Raster?) {
        precondition(a.width == b.width && a.height == b.height, "Image sizes do not match.")
        let width = a.width
        let height = a.height
        guard diff else { return (compare(a, b, options: options, rows: RowDifferences(a, b)), nil) }
        return a.pixels.withUnsafeBufferPointer { pa in
            b.pixels.withUnsafeBufferPointer { pb in
                var result = PixelmatchResult(mismatched: 0, antialiased: 0, maxDelta: 0)
                let count = pa.count
                // Without a mask every output pixel is written, so it need not be zeroed first.
                let pixels = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
                    if options.diffMask || count == 0 {
                        buffer.initialize(repeating: 0)
                    }
                    result = compare(pa, pb, width: width, height: height, output: buffer, options: options)
                    initialized = count
                }
                return (result, Raster(width: width, height: height, pixels: pixels))
            }
        }
    }

    /// Compares two rasters of the same size without a diff image, given their `RowDifferences`.
    static func compare(_ a: Raster, _ b: Raster, options: PixelmatchOptions, rows: RowDifferences) -> PixelmatchResult {
        a.pixels.withUnsafeBufferPointer { pa in
            b.pixels.withUnsafeBufferPointer { pb in
                compare(pa, pb, width: a.width, height: a.height, output: nil, options: options, rows: rows)
            }
        }
    }

    // MARK: - Internals

    /// Pixel at byte offset `pos` as one 32-bit word.
    @inline(__always)
    private static func word(_ img: UnsafePointer<UInt8>, _ pos: Int) -> UInt32 {
        UnsafeRawPointer(img).loadUnaligned(fromByteOffset: pos, as: UInt32.self)
    }

    /// Whether the first `count` pixels of both images are equal.
    private static func identical(_ img1: UnsafePointer<UInt8>, _ img2: UnsafePointer<UInt8>, count: Int) -> Bool {
        let p1 = UnsafeRawPointer(img1)
        let p2 = UnsafeRawPointer(img2)
        let bytes = count * 4
        // Two pixels at a time, then the odd one.
        var offset = 0
        while offset + 8 <= bytes {
            if p1.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                != p2.loadUnaligned(fromByteOffset: offset, as: UInt64.self) { return false }
            offset += 8
        }
        if offset < bytes {
            return p1.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
                == p2.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
        }
        return true
    }

    /// Whether a pixel is likely part of anti-aliasing (Vysniauskas 2009): among its 8
    /// neighbours in `img` there are at most 2 of equal brightness, at least one darker and one
    /// brighter, and the darkest or the brightest neighbour has 3+ equal siblings in both images.
    private static func antialiased(_ img: UnsafePointer<UInt8>, _ x1: Int, _ y1: Int,
                                    _ width: Int, _ height: Int,
                                    _ img2: UnsafePointer<UInt8>) -> Bool {
        let x0 = max(x1 - 1, 0)
        let y0 = max(y1 - 1, 0)
        let x2 = min(x1 + 1, width - 1)
        let y2 = min(y1 + 1, height - 1)
        let pos = (y1 * width + x1) * 4
        var zeroes = x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2 ? 1 : 0
        var minDelta = 0.0
        var maxDelta = 0.0
        var minX = 0, minY = 0, maxX = 0, maxY = 0
        let centerY = brightness(img, pos)

        // Go through the 8 adjacent pixels (columns outside, as upstream: it decides ties).
        for x in x0...x2 {
            for y in y0...y2 {
                if x == x1 && y == y1 { continue }

                // Brightness delta between the centre pixel and this one.
                let delta = brightnessDelta(img, pos, centerY, (y * width + x) * 4)

                if delta == 0 {
                    // More than 2 equal siblings: definitely not anti-aliasing.
                    zeroes += 1
                    if zeroes > 2 { return false }
                } else if delta < minDelta {
                    minDelta = delta
                    minX = x
                    minY = y
                } else if delta > maxDelta {
                    maxDelta = delta
                    maxX = x
                    maxY = y
                }
            }
        }

        // Without both darker and brighter siblings it is not anti-aliasing.
        if minDelta == 0 || maxDelta == 0 { return false }

        // If the darkest or the brightest sibling has 3+ equal siblings in both images
        // (so it is definitely not anti-aliased itself), this pixel is anti-aliased.
        return (hasManySiblings(img, minX, minY, width, height) && hasManySiblings(img2, minX, minY, width, height))
            || (hasManySiblings(img, maxX, maxY, width, height) && hasManySiblings(img2, maxX, maxY, width, height))
    }

    /// Whether a pixel has 3+ adjacent pixels of exactly the same RGBA (an image edge counts as one).
    private static func hasManySiblings(_ img: UnsafePointer<UInt8>, _ x1: Int, _ y1: Int,
                                        _ width: Int, _ height: Int) -> Bool {
        let x0 = max(x1 - 1, 0)
        let y0 = max(y1 - 1, 0)
        let x2 = min(x1 + 1, width - 1)
        let y2 = min(y1 + 1, height - 1)
        let value = word(img, (y1 * width + x1) * 4)
        var zeroes = x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2 ? 1 : 0

        for x in x0...x2 {
            for y in y0...y2 {
                if x == x1 && y == y1 { continue }
                if value == word(img, (y * width + x) * 4) { zeroes += 1 }
                if zeroes > 2 { return true }
            }
        }
        return false
    }

    /// Colour difference after Kotsarenko & Ramos, "Measuring perceived color difference using
    /// YIQ NTSC transmission color space in mobile applications": the weighted squared YIQ
    /// distance, negative when the second pixel is darker (pixelmatch's `colorDelta`).
    @inline(__always)
    private static func colorDelta(_ img1: UnsafePointer<UInt8>, _ img2: UnsafePointer<UInt8>,
                                   _ k: Int, _ m: Int) -> Double {
        let (r1, g1, b1) = blendedRGB(img1, k)
        let (r2, g2, b2) = blendedRGB(img2, m)

        let y1 = rgb2y(r1, g1, b1)
        let y2 = rgb2y(r2, g2, b2)
        let y = y1 - y2
        let i = rgb2i(r1, g1, b1) - rgb2i(r2, g2, b2)
        let q = rgb2q(r1, g1, b1) - rgb2q(r2, g2, b2)

        let delta = 0.5053 * y * y + 0.299 * i * i + 0.1957 * q * q

        // Encode in the sign whether the pixel lightens or darkens.
        return y1 > y2 ? -delta : delta
    }

    /// The brightness (Y) difference between the pixel at `k`, whose brightness is `yk`, and the
    /// one at `m` of the same image (`colorDelta(img, img, k, m, yOnly: true)`).
    @inline(__always)
    private static func brightnessDelta(_ img: UnsafePointer<UInt8>, _ k: Int, _ yk: Double, _ m: Int) -> Double {
        if word(img, k) == word(img, m) { return 0 }
        return yk - brightness(img, m)
    }

    /// The Y of the pixel blended over white.
    @inline(__always)
    private static func brightness(_ img: UnsafePointer<UInt8>, _ k: Int) -> Double {
        let (r, g, b) = blendedRGB(img, k)
        return rgb2y(r, g, b)
    }

    /// The pixel's colour, blended over white when it is not opaque.
    @inline(__always)
    private static func blendedRGB(_ img: UnsafePointer<UInt8>, _ k: Int) -> (Double, Double, Double) {
        let r = Double(img[k])
        let g = Double(img[k + 1])
        let b = Double(img[k + 2])
        let a8 = img[k + 3]
        if a8 == 255 { return (r, g, b) }
        let a = Double(a8) / 255
        return (blend(r, a), blend(g, a), blend(b, a))
    }

    @inline(__always)
    private static func rgb2y(_ r: Double, _ g: Double, _ b: Double) -> Double {
        r * 0.29889531 + g * 0.58662247 + b * 0.11448223
    }

    @inline(__always)
    private static func rgb2i(_ r: Double, _ g: Double, _ b: Double) -> Double {
        r * 0.59597799 - g * 0.27417610 - b * 0.32180189
    }

    @inline(__always)
    private static func rgb2q(_ r: Double, _ g: Double, _ b: Double) -> Double {
        r * 0.21147017 - g * 0.52261711 + b * 0.31114694
    }

    /// Blends a semi-transparent colour channel with white.
    @inline(__always)
    private static func blend(_ c: Double, _ a: Double) -> Double {
        255 + (c - 255) * a
    }

    @inline(__always)
    private static func drawPixel(_ output: UnsafeMutablePointer<UInt8>, _ pos: Int, _ color: RGB8) {
        output[pos] = color.r
        output[pos + 1] = color.g
        output[pos + 2] = color.b
        output[pos + 3] = 255
    }

    /// Draws the background of the diff image: img1's pixel as grey (its luminance), faded
    /// towards white by `alpha` times its own opacity (pixelmatch's `drawGrayPixel`). The last
    /// pixel's value is kept, as runs of equal pixels are common.
    private struct GrayPixels {
        let img: UnsafePointer<UInt8>
        let alpha: Double
        var lastPixel: UInt32
        var lastGray: UInt8

        init(_ img: UnsafePointer<UInt8>, alpha: Double) {
            self.img = img
            self.alpha = alpha
            lastPixel = word(img, 0)
            lastGray = Self.value(img, 0, alpha)
        }

        @inline(__always)
        static func value(_ img: UnsafePointer<UInt8>, _ i: Int, _ alpha: Double) -> UInt8 {
            let y = rgb2y(Double(img[i]), Double(img[i + 1]), Double(img[i + 2]))
            return uint8Store(blend(y, alpha * Double(img[i + 3]) / 255))
        }

        @inline(__always)
        mutating func draw(_ i: Int, _ output: UnsafeMutablePointer<UInt8>) {
            let pixel = word(img, i)
            if pixel != lastPixel {
                lastPixel = pixel
                lastGray = Self.value(img, i, alpha)
            }
            output[i] = lastGray
            output[i + 1] = lastGray
            output[i + 2] = lastGray
            output[i + 3] = 255
        }
    }

    /// The byte a JavaScript Uint8Array stores for a number: truncated toward zero, modulo 256,
    /// NaN and infinities as 0.
    @inline(__always)
    private static func uint8Store(_ v: Double) -> UInt8 {
        if v >= 0 && v < 256 { return UInt8(v) }
        return uint8StoreSlow(v)
    }

    private static func uint8StoreSlow(_ v: Double) -> UInt8 {
        guard v.isFinite else { return 0 }
        let wrapped = v.rounded(.towardZero).truncatingRemainder(dividingBy: 256)   // in (-256, 256)
        return UInt8(truncatingIfNeeded: Int(wrapped))
    }
}
