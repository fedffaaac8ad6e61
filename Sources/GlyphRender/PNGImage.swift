import CCairo
import CGlyphSupport
import Foundation
import GlyphCore
import GlyphRaster

/// What the renderer draws an image with: an SVG document (librsvg), a PDF page (poppler) or a PNG
/// (a cairo image surface).
protocol CairoImage: VectorImage {
    /// Draws the image fitted into the rect, keeping its aspect ratio, centred (as librsvg fits a
    /// document into a viewport).
    func draw(_ cr: OpaquePointer, x: Double, y: Double, width w: Double, height h: Double)
    /// Draws the image stretched to fill the rect (UIImageView's `scaleToFill`).
    func drawStretched(_ cr: OpaquePointer, x: Double, y: Double, width w: Double, height h: Double)
}

extension CairoImage {
    /// Fitted as `drawStretched` into the largest rect of the image's aspect ratio centred in the
    /// rect (PNG and PDF images; librsvg fits an SVG itself).
    func draw(_ cr: OpaquePointer, x: Double, y: Double, width w: Double, height h: Double) {
        guard !isEmpty, w > 0, h > 0 else { return }
        let k = min(w / width, h / height)
        let dw = width * k, dh = height * k
        drawStretched(cr, x: x + (w - dw) / 2, y: y + (h - dh) / 2, width: dw, height: dh)
    }
}

extension SVGDocument: CairoImage {}

enum CairoImages {
    /// The drawable behind a spec's image file: every image file a spec holds was read by `ImageFileReader`.
    static func of(_ image: any VectorImage) -> any CairoImage {
        guard let drawable = image as? any CairoImage else { preconditionFailure("\(image.path): not read by ImageFileReader") }
        return drawable
    }
}

/// A PNG image of a spec, decoded once with libpng and drawn many times. Its size in points is its
/// size in pixels divided by the display scale it was made for (`on@2x.png`: scale 2), as UIImage
/// sizes it. Gamma and colour-profile chunks are ignored: the pixels are drawn as stored.
public final class PNGImage: CairoImage, @unchecked Sendable {
    public let path: String
    public let width: Double
    public let height: Double
    /// The display scale the file was made for.
    public let scale: Int
    /// The decoded pixels (straight RGBA8).
    public let raster: Raster
    /// The SHA-256 of the size, the scale and the decoded pixels (what is drawn).
    public let contentDigest: String
    /// The pixels as cairo wants them: premultiplied ARGB32 in native byte order, rows of `stride` bytes.
    /// Never written after init (so drawing from many threads reads it safely).
    private let premultiplied: UnsafeMutablePointer<UInt8>
    private let stride: Int

    /// Decodes PNG bytes (any colour type, bit depth and interlacing; 16-bit channels rounded to the
    /// nearest 8-bit value) made for display scale `scale`.
    public convenience init(data: Data, name: String, scale: Int) throws(InputError) {
        if data.isEmpty { throw InputError(file: name, message: "the PNG file is empty") }
        let decoded: Raster
        do { decoded = try Raster(pngData: data) } catch {
            throw InputError(file: name, message: "cannot read this PNG: \((error as? PNGError)?.message ?? "\(error)")")
        }
        self.init(raster: decoded, name: name, scale: scale)
    }

    /// A bitmap already decoded (or drawn: a PDF rasterised for a scale), made for display scale `scale`.
    public init(raster decoded: Raster, name: String, scale: Int) {
        path = name
        self.scale = max(1, scale)
        raster = decoded
        contentDigest = SHA256.hex(Data("png \(decoded.width)x\(decoded.height) @\(self.scale)x\n".utf8) + Data(decoded.pixels))
        width = Double(decoded.width) / Double(self.scale)
        height = Double(decoded.height) / Double(self.scale)
        stride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, Int32(decoded.width)))
        premultiplied = .allocate(capacity: max(1, stride * decoded.height))
        premultiplied.initialize(repeating: 0, count: max(1, stride * decoded.height))
        Self.premultiply(decoded, into: premultiplied, stride: stride)
    }

    deinit { premultiplied.deallocate() }

    /// Straight RGBA8 to cairo's premultiplied ARGB32, each channel `round(c × a / 255)`: the exact
    /// inverse of the renderer's un-premultiplying for every colour cairo can hold.
    static func premultiply(_ r: Raster, into out: UnsafeMutablePointer<UInt8>, stride: Int) {
        r.pixels.withUnsafeBufferPointer { glyph_rgba_to_argb32($0.baseAddress, r.width, r.height, out, stride, 1) }
    }

    /// Draws the pixels scaled into the rect: pixel for pixel when the rect is the image's size in
    /// device pixels on the pixel grid (nearest neighbour, an exact copy), else with cairo's GOOD
    /// filter (a box filter scaling down, bilinear scaling up) and the edge pixels extended, so the
    /// image's edges are not faded by sampling outside it.
    func drawStretched(_ cr: OpaquePointer, x: Double, y: Double, width w: Double, height h: Double) {
        guard !isEmpty, w > 0, h > 0 else { return }
        let pw = raster.width, ph = raster.height
        // A surface of its own per drawing (a copy: cairo's vector surfaces keep their sources until
        // they finish, and a surface shared between threads would be touched by cairo's snapshots).
        let surface: OpaquePointer = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(pw), Int32(ph))
        defer { cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let data = cairo_image_surface_get_data(surface) else { return }
        cairo_surface_flush(surface)
        let surfaceStride = Int(cairo_image_surface_get_stride(surface))
        for row in 0..<ph {
            (data + row * surfaceStride).update(from: premultiplied + row * stride, count: pw * 4)
        }
        cairo_surface_mark_dirty(surface)

        cairo_save(cr)
        cairo_new_path(cr)
        cairo_rectangle(cr, x, y, w, h)
        cairo_clip(cr)
        cairo_translate(cr, x, y)
        cairo_scale(cr, w / Double(pw), h / Double(ph))
        cairo_set_source_surface(cr, surface, 0, 0)
        let pattern = cairo_get_source(cr)
        cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
        cairo_pattern_set_filter(pattern, Self.pixelExact(cr, width: pw, height: ph) ? CAIRO_FILTER_NEAREST : CAIRO_FILTER_GOOD)
        cairo_paint(cr)
        cairo_restore(cr)
    }

    /// Whether user space (after the image's own scaling) maps one image pixel onto one device pixel,
    /// on the pixel grid: then nearest-neighbour sampling copies the pixels exactly.
    static func pixelExact(_ cr: OpaquePointer, width: Int, height: Int) -> Bool {
        var ox = 0.0, oy = 0.0
        cairo_user_to_device(cr, &ox, &oy)
        var dx = Double(width), dy = 0.0
        cairo_user_to_device_distance(cr, &dx, &dy)
        var ex = 0.0, ey = Double(height)
        cairo_user_to_device_distance(cr, &ex, &ey)
        func near(_ a: Double, _ b: Double) -> Bool { abs(a - b) < 1e-6 }
        return near(dx, Double(width)) && near(dy, 0) && near(ex, 0) && near(ey, Double(height))
            && near(ox, ox.rounded()) && near(oy, oy.rounded())
    }
}
