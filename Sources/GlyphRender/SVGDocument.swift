import CCairo
import CRsvg
import Foundation
import GlyphCore

/// An SVG image parsed once by librsvg and drawn many times.
///
/// librsvg loads it with its own file as base, so it may reference files in its own folder and
/// below; before that, `SVGReferenceCheck` finds every reference in the file (and in the SVGs and
/// style sheets it references), and one to a file outside the folder (also through a symbolic link)
/// or to any URL, any `xml:base`, and what it cannot check as librsvg reads it, is refused as bad
/// input (nothing is read).
public final class SVGDocument: VectorImage, @unchecked Sendable {
    public let path: String
    /// Intrinsic size in CSS pixels (= points), as rsvg-convert sizes the document (see
    /// `intrinsicSize`); 0 × 0 for an empty image (a zero width or height, or a viewBox of no area).
    public let width: Double
    public let height: Double
    private let handle: UnsafeMutablePointer<RsvgHandle>
    /// A librsvg handle is not safe to draw from two threads at once.
    private let lock = NSLock()
    /// The file's bytes and base, for the form drawn on vector surfaces (`vectorForm`).
    let sourceData: Data
    /// The SHA-256 of the file's bytes.
    public let contentDigest: String
    private let base: URL?
    /// The viewBox's extent (or the size), in user units: how far the drawing may reach.
    private let extent: Double
    private let formLock = NSLock()
    private var form: VectorForm?

    /// The document behind a spec's image: every `VectorImage` a spec holds was read by `ImageFileReader`.
    public static func of(_ image: any VectorImage) -> SVGDocument {
        guard let doc = image as? SVGDocument else { preconditionFailure("\(image.path): not read by ImageFileReader") }
        return doc
    }

    /// Reads an SVG file; it may reference files in its own folder (and below) only.
    public convenience init(url: URL) throws(InputError) {
        let data: Data
        do throws(InputFile.Failure) {
            data = try InputFile.read(url.path, limit: Limits.svgFileBytes, what: "SVG image")
        } catch {
            throw InputError(file: url.path, message: error.missing ? "no such SVG file" : error.message)
        }
        try self.init(data: data, name: url.path, base: url)
    }

    /// Parses SVG bytes (at most `Limits.svgFileBytes`). With a `base` file URL, references resolve
    /// (and are confined) to its folder; without one (built-in images), every reference to a file is refused.
    public init(data: Data, name: String, base: URL?) throws(InputError) {
        path = name
        if data.count > Limits.svgFileBytes { throw InputError(file: name, message: SVGReferenceCheck.tooLarge(data.count)) }
        if data.isEmpty { throw InputError(file: name, message: "the SVG file is empty") }
        try SVGReferenceCheck.check(data: data, base: base, name: name)

        guard let h = rsvg_handle_new_with_flags(RSVG_HANDLE_FLAGS_NONE) else {
            throw InputError(file: name, message: "librsvg cannot create a handle")
        }
        if let base { rsvg_handle_set_base_uri(h, base.absoluteString) }
        var error: UnsafeMutablePointer<GError>?
        let ok = data.withUnsafeBytes { raw -> gboolean in
            let stream = g_memory_input_stream_new_from_data(raw.baseAddress, raw.count, nil)
            defer { g_object_unref(UnsafeMutableRawPointer(stream)) }
            return rsvg_handle_read_stream_sync(h, stream, nil, &error)
        }
        if ok == 0 {
            // librsvg ends its messages with a newline (and may break them in lines): one line, no blank one after.
            let message = (error.map { String(cString: $0.pointee.message) } ?? "unknown error")
                .split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }.joined(separator: "; ")
            if let error { g_error_free(error) }
            g_object_unref(UnsafeMutableRawPointer(h))
            throw InputError(file: name, message: "librsvg cannot read this SVG: \(message)")
        }
        rsvg_handle_set_dpi(h, 96)
        let size: (width: Double, height: Double)
        do throws(InputError) {
            size = try Self.intrinsicSize(h, name: name)
        } catch {
            g_object_unref(UnsafeMutableRawPointer(h))
            throw error
        }
        handle = h
        width = size.width
        height = size.height
        sourceData = data
        contentDigest = SHA256.hex(data)
        self.base = base
        var hasWidth: gboolean = 0, hasHeight: gboolean = 0, hasViewBox: gboolean = 0
        var lw = RsvgLength(), lh = RsvgLength()
        var viewBox = RsvgRectangle()
        rsvg_handle_get_intrinsic_dimensions(h, &hasWidth, &lw, &hasHeight, &lh, &hasViewBox, &viewBox)
        let box = hasViewBox != 0 ? [abs(viewBox.x) + abs(viewBox.width), abs(viewBox.y) + abs(viewBox.height)] : []
        extent = (box + [size.width, size.height]).filter(\.isFinite).max() ?? 0
    }

    /// The document's size in CSS pixels, as rsvg-convert sizes it: its `width` and `height` when both
    /// are absolute lengths; else, with a `viewBox`, the viewBox's size when both are percentages (or
    /// missing, which is 100 %), or the one absolute length and the viewBox's aspect. A document with
    /// neither a size nor a viewBox has none: librsvg would draw it into nothing (rsvg-convert 2.54
    /// sizes it to its drawing's bounding box but leaves the drawing where it was, cut off), so it is
    /// refused as bad input, with the extent of its drawing to help write a viewBox.
    private static func intrinsicSize(_ h: UnsafeMutablePointer<RsvgHandle>, name: String) throws(InputError) -> (width: Double, height: Double) {
        func clean(_ v: Double) -> Double { v.isFinite ? max(0, v) : 0 }
        var w: Double = 0
        var hh: Double = 0
        if rsvg_handle_get_intrinsic_size_in_pixels(h, &w, &hh) != 0 { return (clean(w), clean(hh)) }
        var hasWidth: gboolean = 0, hasHeight: gboolean = 0, hasViewBox: gboolean = 0
        var lw = RsvgLength(), lh = RsvgLength()
        var viewBox = RsvgRectangle()
        rsvg_handle_get_intrinsic_dimensions(h, &hasWidth, &lw, &hasHeight, &lh, &hasViewBox, &viewBox)
        // A missing width or height is 100 %.
        let pw = hasWidth == 0 || lw.unit == RSVG_UNIT_PERCENT, ph = hasHeight == 0 || lh.unit == RSVG_UNIT_PERCENT
        if hasViewBox != 0 {
            let vw = clean(viewBox.width), vh = clean(viewBox.height)
            // A viewBox of no area disables drawing (SVG 1.1 §7.7): an empty image, as width="0" is.
            guard vw > 0, vh > 0 else { return (0, 0) }
            if !pw, let px = pixels(lw) { return (px, px * vh / vw) }
            if !ph, let px = pixels(lh) { return (px * vw / vh, px) }
            return (vw, vh)
        }
        // librsvg 2.54 reports a missing width or height as present, 100 % (SVG 2's default).
        func said(_ has: gboolean, _ l: RsvgLength, _ key: String) -> String {
            if has == 0 { return "no \(key)" }
            return "\(key) \(Format.number(l.unit == RSVG_UNIT_PERCENT ? l.length * 100 : l.length))\(unitName(l.unit))"
        }
        var extent = ""
        var viewport = RsvgRectangle(x: 0, y: 0, width: 1, height: 1)
        var ink = RsvgRectangle(), logical = RsvgRectangle()
        var error: UnsafeMutablePointer<GError>?
        if rsvg_handle_get_geometry_for_layer(h, nil, &viewport, &ink, &logical, &error) != 0, ink.width > 0, ink.height > 0 {
            let n = Format.number
            extent = ", here x \(n(ink.x))…\(n(ink.x + ink.width)), y \(n(ink.y))…\(n(ink.y + ink.height))"
        }
        if let error { g_error_free(error) }
        throw InputError(file: name, message: "the SVG has no size of its own: its <svg> element has no viewBox, and its width "
                         + "and height are not both absolute lengths (\(said(hasWidth, lw, "width")), \(said(hasHeight, lh, "height")); "
                         + "a missing one is 100%), so librsvg would draw it into nothing (rsvg-convert cuts it to its drawing's "
                         + "bounding box\(extent)); give it the viewBox of the grid it is drawn on, e.g. viewBox=\"0 0 24 24\"")
    }

    /// An absolute length in CSS pixels at 96 dpi; nil for percentages and font-relative units.
    private static func pixels(_ l: RsvgLength) -> Double? {
        let perUnit: Double
        switch l.unit {
        case RSVG_UNIT_PX: perUnit = 1
        case RSVG_UNIT_IN: perUnit = 96
        case RSVG_UNIT_CM: perUnit = 96 / 2.54
        case RSVG_UNIT_MM: perUnit = 96 / 25.4
        case RSVG_UNIT_PT: perUnit = 96 / 72
        case RSVG_UNIT_PC: perUnit = 96 / 6
        default: return nil
        }
        let v = l.length * perUnit
        return v.isFinite && v > 0 ? v : nil
    }

    private static func unitName(_ u: RsvgUnit) -> String {
        switch u {
        case RSVG_UNIT_PERCENT: "%"
        case RSVG_UNIT_EM: "em"
        case RSVG_UNIT_EX: "ex"
        case RSVG_UNIT_IN: "in"
        case RSVG_UNIT_CM: "cm"
        case RSVG_UNIT_MM: "mm"
        case RSVG_UNIT_PT: "pt"
        case RSVG_UNIT_PC: "pc"
        default: ""
        }
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(handle)) }

    /// Draws the document stretched to fill `rect`: its intrinsic box scaled on each axis on its own
    /// (UIImageView's `scaleToFill`), so a wide image in a square is squeezed.
    func drawStretched(_ cr: OpaquePointer, x: Double, y: Double, width w: Double, height h: Double) {
        guard !isEmpty, w > 0, h > 0 else { return }
        cairo_save(cr)
        cairo_translate(cr, x, y)
        cairo_scale(cr, w / width, h / height)
        draw(cr, x: 0, y: 0, width: width, height: height)
        cairo_restore(cr)
    }

    /// Draws the document into `rect` (user space of `cr`). The caller picks a rect of the image's aspect.
    /// On an SVG or PDF surface it draws the document's vector form (`SVGDocument+Vector.swift`).
    func draw(_ cr: OpaquePointer, x: Double, y: Double, width w: Double, height h: Double) {
        guard !isEmpty, w > 0, h > 0 else { return }
        if Self.isVectorTarget(cr) {
            drawVector(cr, x: x, y: y, width: w, height: h)
        } else {
            render(cr, x: x, y: y, width: w, height: h)
        }
    }

    /// librsvg draws the document into `rect`, onto whatever `cr` targets.
    func render(_ cr: OpaquePointer, x: Double, y: Double, width w: Double, height h: Double) {
        var viewport = RsvgRectangle(x: x, y: y, width: w, height: h)
        var error: UnsafeMutablePointer<GError>?
        lock.lock()
        _ = rsvg_handle_render_document(handle, cr, &viewport, &error)
        lock.unlock()
        if let error { g_error_free(error) }
    }

    /// The form drawn on vector surfaces, made once (on first use: PNG-only runs never make it).
    var vectorForm: VectorForm {
        formLock.lock()
        defer { formLock.unlock() }
        if let form { return form }
        let made = VectorForm.make(self, data: sourceData, base: base, extent: extent)
        form = made
        return made
    }
}
