import CCairo
import CRsvg
import Foundation
import GlyphRaster

/// How an SVG image is drawn onto an SVG or PDF surface (`render --format svg,pdf`, `export --vector`).
///
/// librsvg 2.54 draws masks and filters as images at the target's device resolution (one pixel per
/// point on these surfaces). A document that would hold one is drawn as follows:
/// - its stencil masks (opaque white shapes, then opaque black paths) are rewritten as clip paths
///   (`SVGVectorForm`), kept only when librsvg draws the rewrite as it draws the original (the outer
///   path of a cut wound one way, else the other);
/// - what still draws as a bitmap is drawn through a recording surface at `VectorBitmaps.pixelsPerPoint`
///   (4 × the largest display scale a spec may have), and `VectorBitmaps` keeps a warning naming
///   the image and its elements for the command to print.
/// A document with no bitmap draws as before, byte for byte.
struct VectorForm: @unchecked Sendable {
    /// What is drawn: the document itself, or its rewrite.
    let document: SVGDocument
    /// The masks drawn as clip paths instead.
    let masksRewritten: [String]
    /// The elements still drawn as a bitmap (empty: none).
    let bitmap: [String]

    static func make(_ doc: SVGDocument, data: Data, base: URL?, extent: Double) -> VectorForm {
        guard hasBitmap(doc) else { return VectorForm(document: doc, masksRewritten: [], bitmap: []) }
        var chosen = doc
        var masks: [String] = []
        for clockwise in [true, false] {
            guard let rewrite = SVGVectorForm.rewriteStencilMasks(data, extent: 8 * max(extent, 1), clockwise: clockwise) else { break }
            if let drawn = try? SVGDocument(data: rewrite.data, name: doc.path, base: base),
               drawn.width == doc.width, drawn.height == doc.height, drawsAlike(doc, drawn) {
                chosen = drawn
                masks = rewrite.masks
                break
            }
        }
        guard chosen === doc || hasBitmap(chosen) else { return VectorForm(document: chosen, masksRewritten: masks, bitmap: []) }
        // An image left with no filter, mask or blend mode holds bitmaps only through its `<image>`
        // elements: bitmaps of their own, drawn as they are, nothing to warn of.
        let elements = SVGVectorForm.bitmapElements(chosen.sourceData)
        return VectorForm(document: chosen, masksRewritten: masks, bitmap: elements)
    }

    /// Whether librsvg, drawing the document onto cairo's SVG surface, leaves an image in it (cairo's
    /// SVG surface also rasterises blend modes, which PDF has).
    static func hasBitmap(_ doc: SVGDocument) -> Bool {
        final class Sink { var data = Data() }
        let sink = Sink()
        let write: cairo_write_func_t = { closure, data, length in
            let sink = Unmanaged<Sink>.fromOpaque(closure!).takeUnretainedValue()
            if let data { sink.data.append(data, count: Int(length)) }
            return CAIRO_STATUS_SUCCESS
        }
        let surface = cairo_svg_surface_create_for_stream(write, Unmanaged.passUnretained(sink).toOpaque(), doc.width, doc.height)!
        cairo_svg_surface_restrict_to_version(surface, CAIRO_SVG_VERSION_1_1)
        let cr = cairo_create(surface)!
        doc.render(cr, x: 0, y: 0, width: doc.width, height: doc.height)
        cairo_destroy(cr)
        cairo_surface_finish(surface)
        cairo_surface_destroy(surface)
        return sink.data.range(of: Data("<image".utf8)) != nil
    }

    /// Whether librsvg draws the two documents alike: rendered to pixels with the longer side at
    /// 256 px (at most 16 px per user unit), no pixel's premultiplied channels differ by more than
    /// 1/8 (edge anti-aliasing of a clip against a rasterised mask) and at most 0.5 % differ at all
    /// beyond rounding (2/255).
    static func drawsAlike(_ a: SVGDocument, _ b: SVGDocument) -> Bool {
        let k = min(16, 256 / max(a.width, a.height))
        let w = max(1, Int((a.width * k).rounded(.up))), h = max(1, Int((a.height * k).rounded(.up)))
        let ra = Renderer.raster(svg: a, width: w, height: h), rb = Renderer.raster(svg: b, width: w, height: h)
        var differing = 0
        for i in 0..<(w * h) {
            let o = i * 4
            let aa = Int(ra.pixels[o + 3]), ab = Int(rb.pixels[o + 3])
            var worst = abs(aa - ab)
            for c in 0..<3 {
                worst = max(worst, abs(Int(ra.pixels[o + c]) * aa / 255 - Int(rb.pixels[o + c]) * ab / 255))
            }
            if worst > 32 { return false }
            if worst > 2 { differing += 1 }
        }
        return differing * 200 <= w * h
    }
}

/// The SVG images drawn (partly) as a bitmap into SVG or PDF output since the last `drain()`.
public enum VectorBitmaps {
    /// The resolution of what must be a bitmap in vector output: 4 × the largest display scale a
    /// spec may have (@4x), in pixels per point. cairo's own fallback images (blend modes on an SVG
    /// surface) are made at it too.
    public static let pixelsPerPoint = 16.0

    nonisolated(unsafe) private static var noted: Set<String> = []
    private static let lock = NSLock()

    static func note(_ image: String, _ elements: [String]) {
        let one = elements.count == 1
        let message = "\(image): \(elements.joined(separator: "; ")) \(one ? "is" : "are") drawn as a bitmap in SVG and PDF output "
            + "(librsvg has no vector form for \(one ? "it" : "them")), at \(Int(pixelsPerPoint)) px per point (4× the largest display scale)"
        lock.lock()
        noted.insert(message)
        lock.unlock()
    }

    /// One warning per image drawn with a bitmap since the last call, in order of image; forgets them.
    public static func drain() -> [String] {
        lock.lock()
        defer { lock.unlock() }
        let all = noted.sorted()
        noted = []
        return all
    }
}

extension SVGDocument {
    static func isVectorTarget(_ cr: OpaquePointer) -> Bool {
        let type = cairo_surface_get_type(cairo_get_target(cr))
        return type == CAIRO_SURFACE_TYPE_PDF || type == CAIRO_SURFACE_TYPE_SVG || type == CAIRO_SURFACE_TYPE_PS
    }

    /// Draws the vector form; what must stay a bitmap is made at `VectorBitmaps.pixelsPerPoint`: the
    /// document is recorded with the current transform scaled by that many, and the recording is
    /// replayed scaled back, so librsvg's images hold that many pixels per point and the rest stays vector.
    func drawVector(_ cr: OpaquePointer, x: Double, y: Double, width w: Double, height h: Double) {
        let form = vectorForm
        guard !form.bitmap.isEmpty else {
            form.document.render(cr, x: x, y: y, width: w, height: h)
            return
        }
        VectorBitmaps.note(path, form.bitmap)
        let k = VectorBitmaps.pixelsPerPoint
        let recording = cairo_recording_surface_create(CAIRO_CONTENT_COLOR_ALPHA, nil)!
        defer { cairo_surface_destroy(recording) }
        let rcr = cairo_create(recording)!
        var m = cairo_matrix_t()
        cairo_get_matrix(cr, &m)
        cairo_scale(rcr, k, k)
        cairo_transform(rcr, &m)
        form.document.render(rcr, x: x, y: y, width: w, height: h)
        cairo_destroy(rcr)
        cairo_save(cr)
        cairo_identity_matrix(cr)
        cairo_scale(cr, 1 / k, 1 / k)
        cairo_set_source_surface(cr, recording, 0, 0)
        cairo_paint(cr)
        cairo_restore(cr)
    }
}
