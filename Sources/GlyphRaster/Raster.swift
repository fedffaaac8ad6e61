import CGlyphSupport
import Foundation
import GlyphColor
import GlyphCore

/// Owned pixels: 8-bit RGBA, straight alpha, rows top to bottom, no padding.
public struct Raster: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public var pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height * 4, "pixel buffer size does not match \(width)×\(height)")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    public init(width: Int, height: Int, fill: RGBA = .clear) {
        self.width = width
        self.height = height
        let r = RGBA.byte(fill.r), g = RGBA.byte(fill.g), b = RGBA.byte(fill.b), a = RGBA.byte(fill.a)
        var buffer = [UInt8](repeating: 0, count: width * height * 4)
        if r | g | b | a != 0 {
            buffer.withUnsafeMutableBufferPointer { glyph_rgba_fill($0.baseAddress, width * height, r, g, b, a) }
        }
        self.pixels = buffer
    }

    /// The pixel at (x, y).
    @inlinable
    public func pixel(_ x: Int, _ y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        let i = (y * width + x) * 4
        return (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
    }

    @inlinable
    public func color(_ x: Int, _ y: Int) -> RGBA {
        let p = pixel(x, y)
        return RGBA(r8: p.r, g8: p.g, b8: p.b, a8: p.a)
    }

    @inlinable
    public var isOpaque: Bool {
        pixels.withUnsafeBufferPointer { glyph_rgba_opaque($0.baseAddress, $0.count / 4) == 1 }
    }
}

/// A PNG that could not be read or written.
public struct PNGError: Error, CustomStringConvertible, Sendable {
    public let message: String
    public var description: String { message }
}

extension Raster {
    /// How a PNG is compressed. Every setting gives the same pixels; they differ in size and speed.
    public struct PNGEncoding: Sendable, Equatable {
        public var level: Int
        public var filters: Int
        public var strategy: Int

        public init(level: Int, filters: Int, strategy: Int) {
            self.level = level
            self.filters = filters
            self.strategy = strategy
        }

        /// Fast: no row filter and zlib level 1. Glyph renders are mostly flat colour, so this is
        /// both the fastest and (measured with `make bench`) about as small as libpng's defaults.
        public static let fast = PNGEncoding(level: 1, filters: 0x08, strategy: 0)
        /// libpng's defaults (adaptive filters, zlib 6): smaller, slower.
        public static let small = PNGEncoding(level: 6, filters: 0xF8, strategy: 0)
    }

    /// Encodes as PNG with libpng. Opaque rasters are written as RGB, others as RGBA.
    public func pngData(_ encoding: PNGEncoding = .fast) throws -> Data {
        var buffer = glyph_buffer(data: nil, length: 0, capacity: 0)
        var error = [CChar](repeating: 0, count: 256)
        let alpha: Int32 = isOpaque ? 0 : 1
        let status = pixels.withUnsafeBufferPointer { px in
            glyph_png_encode(px.baseAddress, UInt32(width), UInt32(height), alpha, Int32(encoding.level),
                             Int32(encoding.filters), Int32(encoding.strategy), &buffer, &error, error.count)
        }
        defer { glyph_buffer_free(&buffer) }
        guard status == 0, let data = buffer.data else {
            throw PNGError(message: "cannot encode PNG: \(cStringMessage(error))")
        }
        return Data(bytes: data, count: buffer.length)
    }

    /// Decodes a PNG of any colour type into straight RGBA8 (gamma chunks ignored). Its size is read
    /// from the header first: past `Limits.pngSide` on a side or `Limits.pngPixels` in all, no pixel
    /// is decoded.
    public init(pngData data: Data) throws {
        // Decoded straight into the raster's own buffer, of the size the header declares (bytes that
        // do not start like a PNG: none, and the decoder says what is wrong).
        let (width, height) = try Self.checkPNGSize(data) ?? (0, 0)
        var error = [CChar](repeating: 0, count: 256)
        var status: Int32 = 0
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { buffer, initialized in
            status = data.withUnsafeBytes { raw in
                glyph_png_decode(raw.bindMemory(to: UInt8.self).baseAddress, raw.count, buffer.baseAddress,
                                 UInt32(width), UInt32(height), &error, error.count)
            }
            initialized = status == 0 ? width * height * 4 : 0
        }
        guard status == 0 else { throw PNGError(message: cStringMessage(error)) }
        self.init(width: width, height: height, pixels: pixels)
    }

    /// The width and height a PNG's header declares, refused past the limits; nil when the bytes do
    /// not start like a PNG (the decoder then says what is wrong).
    @discardableResult
    public static func checkPNGSize(_ data: Data) throws -> (width: Int, height: Int)? {
        var w: UInt32 = 0
        var h: UInt32 = 0
        let status = data.withUnsafeBytes { raw in glyph_png_size(raw.bindMemory(to: UInt8.self).baseAddress, raw.count, &w, &h) }
        guard status == 0 else { return nil }
        let (width, height) = (Int(w), Int(h))
        if width > Limits.pngSide || height > Limits.pngSide || width * height > Limits.pngPixels {
            throw PNGError(message: "the PNG is \(width) × \(height) px; the limit is \(Limits.pngSide) px on a side and "
                           + "\(Limits.pngPixels) px in all (docs/limits.md)")
        }
        return (width, height)
    }

    /// Reads a PNG file (a regular file of at most `Limits.pngFileBytes`); errors name the file.
    public init(contentsOfPNG url: URL) throws {
        let data: Data
        do { data = try InputFile.read(url.path, limit: Limits.pngFileBytes, what: "PNG") } catch {
            throw PNGError(message: "\(url.path): \(error.missing ? "no such file" : error.message)")
        }
        do { try self.init(pngData: data) } catch let e as PNGError {
            throw PNGError(message: "\(url.path): \(e.message)")
        }
    }
}

/// The text of a NUL-terminated C buffer.
func cStringMessage(_ buffer: [CChar]) -> String {
    let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    return String(decoding: bytes, as: UTF8.self)
}

/// Where two images of the same size differ, row by row, and a key of both, from one pass over
/// their bytes (`glyph_rgba_row_spans`): what a pixel comparison needs to look only where pixels
/// differ, and what folds identical diffs (`SnapshotResult.changeDigest`).
public struct RowDifferences: Sendable {
    /// Per row, two numbers: the first differing pixel and one past the last (both 0 when the row
    /// is the same in both).
    public let spans: [Int32]
    /// How many rows differ.
    public let rows: Int
    /// A 128-bit hash of every byte of the first image and of the second's bytes where they differ
    /// (with their places): equal keys mean equal first images and equal second images, but for a
    /// chance collision (2⁻¹²⁸ per pair). Not a cryptographic digest: it never names a file or guards
    /// anything.
    public let key: (UInt64, UInt64)

    /// The rows of `a` and `b`, both `width` × `height` RGBA8 pixels.
    public init(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, width: Int, height: Int) {
        var key: (UInt64, UInt64) = (0, 0)
        var rows = 0
        spans = [Int32](unsafeUninitializedCapacity: height * 2) { buffer, initialized in
            withUnsafeMutablePointer(to: &key) { k in
                k.withMemoryRebound(to: UInt64.self, capacity: 2) { k in
                    rows = glyph_rgba_row_spans(a, b, width, height, buffer.baseAddress, k)
                }
            }
            initialized = height * 2
        }
        self.rows = rows
        self.key = key
    }

    /// The rows of two rasters of the same size.
    public init(_ a: Raster, _ b: Raster) {
        precondition(a.width == b.width && a.height == b.height, "Image sizes do not match.")
        self = a.pixels.withUnsafeBufferPointer { pa in
            b.pixels.withUnsafeBufferPointer { pb in
                guard let x = pa.baseAddress, let y = pb.baseAddress else {
                    return RowDifferences(empty: a.height)
                }
                return RowDifferences(x, y, width: a.width, height: a.height)
            }
        }
    }

    private init(empty height: Int) {
        spans = [Int32](repeating: 0, count: height * 2)
        rows = 0
        key = (0, 0)
    }
}
