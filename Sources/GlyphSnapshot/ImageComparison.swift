import Foundation
import GlyphColor
import GlyphCore
import GlyphRaster

/// The size of an image in pixels.
public struct PixelSize: Sendable, Hashable, Codable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public init(_ raster: Raster) {
        self.init(width: raster.width, height: raster.height)
    }

    public var pixels: Int { width * height }
    public var description: String { "\(width)×\(height) px" }
}

/// What comparing an expected image with an actual one found.
public struct ImageDifference: Sendable, Equatable, Codable {
    public var expectedSize: PixelSize
    public var actualSize: PixelSize
    /// Pixels counted as different: pixelmatch's count over the common area, plus, when the sizes
    /// differ, every pixel of the larger canvas outside the common area.
    public var mismatchedPixels: Int
    /// Pixels over the threshold that pixelmatch classed as anti-aliasing (not counted).
    public var antialiasedPixels: Int
    /// The largest colour difference of any pixel of the common area, on the scale of pixelmatch's
    /// `threshold`: √(|YIQ delta| / 35215), 0...1. A pixel is over the threshold exactly when its
    /// value is greater than `threshold` (0.1 by default), so the two can be compared directly.
    public var maxColorDelta: Double
    /// The pixels are identical (same size, every byte equal).
    public var identical: Bool
    /// How many pixels the comparison covered: the canvas holding both images.
    public var comparedPixels: Int

    public var sameSize: Bool { expectedSize == actualSize }

    /// `mismatchedPixels / comparedPixels` (0 for empty images).
    public var mismatchRatio: Double {
        comparedPixels == 0 ? 0 : Double(mismatchedPixels) / Double(comparedPixels)
    }

    enum CodingKeys: String, CodingKey {
        case expectedSize, actualSize, mismatchedPixels, antialiasedPixels, maxColorDelta, identical, comparedPixels
        case mismatchRatio, sameSize
    }

    public init(expectedSize: PixelSize, actualSize: PixelSize, mismatchedPixels: Int, antialiasedPixels: Int,
                maxColorDelta: Double, identical: Bool, comparedPixels: Int) {
        self.expectedSize = expectedSize
        self.actualSize = actualSize
        self.mismatchedPixels = mismatchedPixels
        self.antialiasedPixels = antialiasedPixels
        self.maxColorDelta = maxColorDelta
        self.identical = identical
        self.comparedPixels = comparedPixels
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(expectedSize: try c.decode(PixelSize.self, forKey: .expectedSize),
                  actualSize: try c.decode(PixelSize.self, forKey: .actualSize),
                  mismatchedPixels: try c.decode(Int.self, forKey: .mismatchedPixels),
                  antialiasedPixels: try c.decode(Int.self, forKey: .antialiasedPixels),
                  maxColorDelta: try c.decode(Double.self, forKey: .maxColorDelta),
                  identical: try c.decode(Bool.self, forKey: .identical),
                  comparedPixels: try c.decode(Int.self, forKey: .comparedPixels))
    }

    /// Also writes the derived `mismatchRatio` and `sameSize`, for readers of the JSON.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(expectedSize, forKey: .expectedSize)
        try c.encode(actualSize, forKey: .actualSize)
        try c.encode(mismatchedPixels, forKey: .mismatchedPixels)
        try c.encode(antialiasedPixels, forKey: .antialiasedPixels)
        try c.encode(maxColorDelta, forKey: .maxColorDelta)
        try c.encode(identical, forKey: .identical)
        try c.encode(comparedPixels, forKey: .comparedPixels)
        try c.encode(mismatchRatio, forKey: .mismatchRatio)
        try c.encode(sameSize, forKey: .sameSize)
    }

    /// What differs, in words (`check`'s list, the reports): "3 px differ (0.096% of 3136), largest
    /// colour difference 0.966" (with ", N anti-aliased px ignored" when pixelmatch set some aside),
    /// or, when the size changed, "size changed: baseline 56×56 px, render 28×28 px".
    public var summary: String {
        if !sameSize { return "size changed: baseline \(expectedSize), render \(actualSize)" }
        return String(format: "%d px differ (%.3f%% of %d), largest colour difference %@",
                      mismatchedPixels, mismatchRatio * 100, comparedPixels, maxColorDeltaText)
            + (antialiasedPixels > 0 ? ", \(antialiasedPixels) anti-aliased px ignored" : "")
    }

    /// The largest colour difference as text: three decimals, or as many more as it takes to show
    /// two significant digits, so a real difference never prints as 0.000 (the smallest possible,
    /// one alpha level of a near-white pixel, is about 0.000015).
    public var maxColorDeltaText: String { Self.format(colorDelta: maxColorDelta) }

    public static func format(colorDelta v: Double) -> String {
        guard v > 0, v.isFinite else { return "0" }
        let decimals = min(max(3, Int((-log10(v)).rounded(.down)) + 2), 12)
        return String(format: "%.\(decimals)f", v)
    }

    public static func identical(_ size: PixelSize) -> ImageDifference {
        ImageDifference(expectedSize: size, actualSize: size, mismatchedPixels: 0, antialiasedPixels: 0,
                        maxColorDelta: 0, identical: true, comparedPixels: size.pixels)
    }
}

/// Compares two images of any size with pixelmatch, and composes the pictures that show the result.
///
/// Identical pixels are found with one memory comparison; pixelmatch runs only when they differ.
/// Images of different sizes are compared on a canvas as large as both, aligned top left: the
/// common area with pixelmatch, every other canvas pixel counted as different (and drawn in the
/// diff colour).
public enum ImageComparator {
    /// The canvas a diff image of two rasters needs (as large as both), and why it is not drawn when
    /// it would pass `Limits.pngPixels`; nil when it fits.
    public static func canvasProblem(_ a: Raster, _ b: Raster) -> String? {
        let width = max(a.width, b.width)
        let height = max(a.height, b.height)
        if width * height <= Limits.pngPixels { return nil }
        return "no diff image: a canvas as large as both images (\(a.width) × \(a.height) and \(b.width) × \(b.height) px) "
            + "would be \(width) × \(height) px; the limit is \(Limits.pngPixels) px (docs/limits.md)"
    }

    /// Compares `expected` (pixelmatch's img1, the one the diff image fades to grey) with `actual`.
    /// With `diffImage` the pixelmatch diff image is returned too (also for identical images),
    /// unless its canvas would pass the limit (`canvasProblem`).
    public static func compare(expected: Raster, actual: Raster, options: PixelmatchOptions = .init(),
                               diffImage requested: Bool = false) -> (difference: ImageDifference, diff: Raster?) {
        let c = compared(expected: expected, actual: actual, options: options, diffImage: requested)
        return (c.difference, c.diff)
    }

    /// `compare`, with where the rows differ when the sizes are equal and there is no diff image (for
    /// `changeKey`).
    static func compared(expected: Raster, actual: Raster, options: PixelmatchOptions,
                         diffImage requested: Bool) -> (difference: ImageDifference, diff: Raster?, rows: RowDifferences?) {
        let diffImage = requested && canvasProblem(expected, actual) == nil
        let expectedSize = PixelSize(expected)
        let actualSize = PixelSize(actual)
        if expectedSize == actualSize {
            if !diffImage && samePixels(expected, actual) { return (.identical(expectedSize), nil, nil) }
            let rows = diffImage ? nil : RowDifferences(expected, actual)
            let (result, diff) = rows.map { (Pixelmatch.compare(expected, actual, options: options, rows: $0), nil) }
                ?? Pixelmatch.compare(expected, actual, options: options, diff: true)
            let identical = result.mismatched == 0 && result.antialiased == 0 && result.maxDelta == 0
                && samePixels(expected, actual)
            return (ImageDifference(expectedSize: expectedSize, actualSize: actualSize,
                                    mismatchedPixels: result.mismatched, antialiasedPixels: result.antialiased,
                                    maxColorDelta: thresholdScale(result.maxDelta), identical: identical,
                                    comparedPixels: expectedSize.pixels), diff, rows)
        }

        // Different sizes: pixelmatch on the common area, the rest of the canvas counts as different.
        let common = PixelSize(width: min(expectedSize.width, actualSize.width),
                               height: min(expectedSize.height, actualSize.height))
        let canvas = PixelSize(width: max(expectedSize.width, actualSize.width),
                               height: max(expectedSize.height, actualSize.height))
        let (result, commonDiff) = Pixelmatch.compare(expected.cropped(to: common), actual.cropped(to: common),
                                                      options: options, diff: diffImage)
        let difference = ImageDifference(expectedSize: expectedSize, actualSize: actualSize,
                                         mismatchedPixels: result.mismatched + canvas.pixels - common.pixels,
                                         antialiasedPixels: result.antialiased,
                                         maxColorDelta: thresholdScale(result.maxDelta),
                                         identical: false, comparedPixels: canvas.pixels)
        guard diffImage, let commonDiff else { return (difference, nil, nil) }
        let c = options.diffColor
        var diff = Raster(width: canvas.width, height: canvas.height,
                          fill: RGBA(r8: c.r, g8: c.g, b8: c.b, a8: 255))
        diff.draw(commonDiff, atX: 0, y: 0)
        return (difference, diff, nil)
    }

    /// The key of a change from `expected` to `actual`, for folding identical diffs
    /// (`SnapshotResult.changeDigest`): both sizes and the `RowDifferences` key of the two (`rows`
    /// when the comparison found them), or of each image on its own when the sizes differ.
    static func changeKey(expected: Raster, actual: Raster, rows: RowDifferences?) -> String {
        func hex(_ key: (UInt64, UInt64)) -> String {
            [key.0, key.1].map { v in
                let s = String(v, radix: 16)
                return String(repeating: "0", count: 16 - s.count) + s
            }.joined()
        }
        let sizes = "\(expected.width)x\(expected.height) \(actual.width)x\(actual.height) "
        if PixelSize(expected) == PixelSize(actual) {
            return sizes + hex((rows ?? RowDifferences(expected, actual)).key)
        }
        return sizes + hex(RowDifferences(expected, expected).key) + hex(RowDifferences(actual, actual).key)
    }

    /// pixelmatch's normalised delta (|YIQ delta| / 35215, compared with threshold²) on the
    /// threshold's own scale.
    static func thresholdScale(_ normalisedDelta: Double) -> Double { normalisedDelta.squareRoot() }

    /// Whether two rasters of the same size have the same bytes.
    public static func samePixels(_ a: Raster, _ b: Raster) -> Bool {
        guard a.width == b.width, a.height == b.height else { return false }
        return a.pixels.withUnsafeBytes { pa in
            b.pixels.withUnsafeBytes { pb in
                pa.count == pb.count && (pa.count == 0 || memcmp(pa.baseAddress!, pb.baseAddress!, pa.count) == 0)
            }
        }
    }

    /// The colour of the gap and of the empty space in `sideBySide`.
    public static let gapColor = RGBA(r8: 128, g8: 128, b8: 128, a8: 255)

    /// Pictures one under another, left-aligned, `gap` pixels apart, on `gapColor` (a JUnit case's
    /// failed snapshots in one attachment).
    public static func stacked(_ parts: [Raster], gap: Int = 8) -> Raster {
        let width = parts.map(\.width).max() ?? 0
        let height = parts.reduce(0) { $0 + $1.height } + max(0, parts.count - 1) * gap
        var canvas = Raster(width: width, height: height, fill: gapColor)
        var y = 0
        for part in parts {
            canvas.draw(part, atX: 0, y: y)
            y += part.height + gap
        }
        return canvas
    }

    /// expected | actual | diff in one picture (left to right, the order of swift-snapshot-testing's
    /// attachments and of the issue's CI pictures), top-aligned, `gap` pixels apart, on `gapColor`.
    public static func sideBySide(expected: Raster, actual: Raster, diff: Raster, gap: Int = 4) -> Raster {
        let parts = [expected, actual, diff]
        let width = parts.reduce(0) { $0 + $1.width } + 2 * gap
        let height = parts.map(\.height).max() ?? 0
        var canvas = Raster(width: width, height: height, fill: gapColor)
        var x = 0
        for part in parts {
            canvas.draw(part, atX: x, y: 0)
            x += part.width + gap
        }
        return canvas
    }
}

extension Raster {
    /// The top-left `size` of this raster (which must be at least that large).
    func cropped(to size: PixelSize) -> Raster {
        precondition(size.width <= width && size.height <= height)
        if size.width == width && size.height == height { return self }
        var out = [UInt8](repeating: 0, count: size.pixels * 4)
        let rowBytes = size.width * 4
        if rowBytes > 0 {
            pixels.withUnsafeBytes { src in
                out.withUnsafeMutableBytes { dst in
                    for y in 0..<size.height {
                        memcpy(dst.baseAddress! + y * rowBytes, src.baseAddress! + y * width * 4, rowBytes)
                    }
                }
            }
        }
        return Raster(width: size.width, height: size.height, pixels: out)
    }

    /// Copies `other` over this raster with its top-left corner at (x, y) (pixels replaced, not blended).
    mutating func draw(_ other: Raster, atX x: Int, y: Int) {
        precondition(x >= 0 && y >= 0 && x + other.width <= width && y + other.height <= height)
        let rowBytes = other.width * 4
        guard rowBytes > 0 else { return }
        let stride = width * 4
        other.pixels.withUnsafeBytes { src in
            pixels.withUnsafeMutableBytes { dst in
                for row in 0..<other.height {
                    memcpy(dst.baseAddress! + (y + row) * stride + x * 4, src.baseAddress! + row * rowBytes, rowBytes)
                }
            }
        }
    }
}
