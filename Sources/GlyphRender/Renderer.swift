import CCairo
import CGlyphSupport
import Foundation
import GlyphColor
import GlyphCore
import GlyphRaster

public enum VectorFormat: String, Sendable, CaseIterable {
    case svg, pdf
}

/// Draws a laid-out variant with cairo (geometry), librsvg (images) and pango (labels).
/// The same drawing code feeds the pixel, SVG and PDF surfaces, so all three agree.
public enum Renderer {
    /// Renders to pixels at the variant's display scale, on the theme's surface colour
    /// (or on transparency without `.background`).
    public static func raster(_ scene: Scene, parts: RenderParts = .all) -> Raster {
        let w = scene.pixelWidth
        let h = scene.pixelHeight
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(w), Int32(h))!
        defer { cairo_surface_destroy(surface) }
        let cr = cairo_create(surface)!
        let s = Double(scene.variant.scale)
        cairo_scale(cr, s, s)
        draw(cr, scene: scene, parts: parts, imageScale: scene.variant.scale)
        cairo_destroy(cr)
        cairo_surface_flush(surface)
        return rasterFromSurface(surface, width: w, height: h)
    }

    /// Renders a laid-out variant of `spec` (its scene resolved first) to pixels.
    public static func raster(_ layout: Layout, spec: Spec, parts: RenderParts = .all) -> Raster {
        raster(Scene(spec: spec, layout: layout), parts: parts)
    }

    /// Renders an SVG document alone onto a transparent `width` × `height` px canvas, fitted to it
    /// as librsvg fits a document into a viewport.
    public static func raster(svg: SVGDocument, width: Int, height: Int) -> Raster {
        raster(image: svg, width: width, height: height)
    }

    /// Renders a spec's image alone (its most detailed file, of the light appearance) onto a
    /// transparent canvas, fitted to it keeping its aspect: what the audit measures an image's own ink on.
    public static func raster(imageAlone image: any VectorImage, width: Int, height: Int) -> Raster {
        raster(image: CairoImages.of(image.drawn(scale: Int.max, dark: false)), width: width, height: height)
    }

    /// Renders an image file (SVG, PDF or PNG) alone onto a transparent canvas, fitted to it keeping its aspect.
    static func raster(image: any CairoImage, width: Int, height: Int) -> Raster {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))!
        defer { cairo_surface_destroy(surface) }
        let cr = cairo_create(surface)!
        image.draw(cr, x: 0, y: 0, width: Double(width), height: Double(height))
        cairo_destroy(cr)
        cairo_surface_flush(surface)
        return rasterFromSurface(surface, width: width, height: height)
    }

    /// Renders a laid-out variant of `spec` (its scene resolved first) to SVG or PDF.
    public static func vector(_ layout: Layout, spec: Spec, format: VectorFormat, parts: RenderParts = .all) -> Data {
        vector(Scene(spec: spec, layout: layout), format: format, parts: parts)
    }

    /// Renders to SVG or PDF (1 user unit = 1 pt; display scale does not apply).
    public static func vector(_ scene: Scene, format: VectorFormat, parts: RenderParts = .all) -> Data {
        let canvas = scene.canvas
        let sink = DataSink()
        let closure = Unmanaged.passUnretained(sink).toOpaque()
        let write: cairo_write_func_t = { closure, data, length in
            let sink = Unmanaged<DataSink>.fromOpaque(closure!).takeUnretainedValue()
            if let data { sink.data.append(data, count: Int(length)) }
            return CAIRO_STATUS_SUCCESS
        }
        let surface: OpaquePointer
        switch format {
        case .svg:
            surface = cairo_svg_surface_create_for_stream(write, closure, canvas.width, canvas.height)
            cairo_svg_surface_restrict_to_version(surface, CAIRO_SVG_VERSION_1_1)
        case .pdf:
            surface = cairo_pdf_surface_create_for_stream(write, closure, canvas.width, canvas.height)
            // No creation date: the same input gives the same bytes.
            cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATE_DATE, "")
            cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, "glyphaudit")
            cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, scene.variant.id)
        }
        // What cairo itself must rasterise (a blend mode on an SVG surface) is made at 4 × the largest display scale.
        let ppi = 72 * VectorBitmaps.pixelsPerPoint
        cairo_surface_set_fallback_resolution(surface, ppi, ppi)
        let cr = cairo_create(surface)!
        // An image with a file per scale draws its most detailed one.
        draw(cr, scene: scene, parts: parts, imageScale: Int.max)
        cairo_destroy(cr)
        cairo_surface_finish(surface)
        cairo_surface_destroy(surface)
        return format == .svg ? clipRulesInside(stableSVGIDs(sink.data)) : sink.data
    }

    /// cairo numbers SVG surfaces and images with process-wide counters, so the same drawing gets
    /// other ids depending on what was drawn before. Renumber them in order of first appearance.
    static func stableSVGIDs(_ data: Data) -> Data {
        let text = String(decoding: data, as: UTF8.self)
        let pattern = /(id="|#)(surface|image|pattern)([0-9]+)/
        var numbers: [String: Int] = [:]
        var next: [String: Int] = [:]
        let result = text.replacing(pattern) { match in
            let kind = String(match.output.2)
            let key = kind + match.output.3
            let n: Int
            if let known = numbers[key] {
                n = known
            } else {
                n = (next[kind] ?? 0) + 1
                next[kind] = n
                numbers[key] = n
            }
            return "\(match.output.1)\(kind)\(n)"
        }
        return Data(result.utf8)
    }

    private final class DataSink {
        var data = Data()
    }

    static func setColor(_ cr: OpaquePointer, _ c: RGBA) {
        cairo_set_source_rgba(cr, c.r, c.g, c.b, c.a)
    }

    /// Draws the scene in points onto any cairo context; an image with a file per display scale
    /// draws the one for `imageScale` (and, in a dark theme, its dark one).
    static func draw(_ cr: OpaquePointer, scene: Scene, parts: RenderParts, imageScale: Int) {
        var skipRing = false
        for (i, part) in scene.parts.enumerated() {
            if skipRing { skipRing = false; continue }
            if parts.contains(.glyph), i + 1 < scene.parts.count,
               drawFilledRing(cr, fill: part, ring: scene.parts[i + 1]) {
                skipRing = true
                continue
            }
            switch part.kind {
            case .surface:
                guard parts.contains(.background), let c = part.color else { continue }
                setColor(cr, c.authored)
                cairo_rectangle(cr, 0, 0, part.rect.width, part.rect.height)
                cairo_fill(cr)
            case .label:
                guard parts.contains(.label), let label = part.label, let c = part.color else { continue }
                if let clip = label.clip {
                    // A label with a maximum width is cut at its frame, as a fixed-width label is on iOS.
                    cairo_save(cr)
                    cairo_rectangle(cr, clip.x, clip.y, clip.width, clip.height)
                    cairo_clip(cr)
                }
                PangoText.draw(cr, text: label.text, points: label.points, bold: label.bold, x: label.box.x, y: label.box.y,
                               color: c.authored)
                if label.clip != nil { cairo_restore(cr) }
            case .focus:
                guard parts.contains(.focus) else { continue }
                drawGlyphPart(cr, part, imageScale: imageScale)
            default:
                if parts.contains(.glyph) { drawGlyphPart(cr, part, imageScale: imageScale) }
            }
        }
    }

    /// A box filled and ringed in one state (a checked box with its border, a switch's track or knob
    /// with its border), drawn as one layer so its outer edge is anti-aliased once, as a browser draws a
    /// background under a border: the whole box in the ring's colour (over the fill's), then the
    /// inside of the ring in the fill's colour. Drawn one over the other, the fill's and the ring's
    /// edge pixels would add up (an edge pixel of coverage c would show 1 − (1 − c)²). Only for an
    /// opaque fill (what lies inside the ring then does not show through it); false when the two
    /// parts are not such a pair, and nothing is drawn.
    static func drawFilledRing(_ cr: OpaquePointer, fill: ScenePart, ring: ScenePart) -> Bool {
        guard (fill.kind == .fill && ring.kind == .ring) || (fill.kind == .track && ring.kind == .border)
                || (fill.kind == .knob && ring.kind == .knobBorder),
              let f = fill.color?.authored, let c = ring.color?.authored, f.a >= 1,
              fill.rect == ring.rect, fill.cornerRadius == ring.cornerRadius, fill.shape == ring.shape,
              ring.lineWidth > 0
        else { return false }
        let r = fill.rect, w = ring.lineWidth
        // The ring over the opaque fill, in floating point (cairo rounds once, when it paints).
        let a = c.a
        cairo_set_source_rgb(cr, c.r * a + f.r * (1 - a), c.g * a + f.g * (1 - a), c.b * a + f.b * (1 - a))
        boxPath(cr, r, radius: fill.cornerRadius, shape: fill.shape)
        cairo_fill(cr)
        if r.width > 2 * w, r.height > 2 * w {
            setColor(cr, f)
            boxPath(cr, r.insetBy(w), radius: max(0, fill.cornerRadius - w), shape: fill.shape)
            cairo_fill(cr)
        }
        return true
    }

    /// One part of the glyph: the box, ring or mark of a checkbox, the track, border, knob, knob
    /// border or mark of a switch, or an image.
    static func drawGlyphPart(_ cr: OpaquePointer, _ part: ScenePart, imageScale: Int) {
        let r = part.rect
        switch part.kind {
        case .fill, .track:
            guard let c = part.color else { return }
            boxPath(cr, r, radius: part.cornerRadius, shape: part.shape)
            setColor(cr, c.authored)
            cairo_fill(cr)
        case .ring, .border, .knobBorder, .focus:
            // The ring lies inside the box (the knob), like SwiftUI's strokeBorder; a focus ring inside its outer edge.
            guard let c = part.color else { return }
            let w = part.lineWidth
            boxPath(cr, r.insetBy(w / 2), radius: max(0, part.cornerRadius - w / 2), shape: part.shape)
            setColor(cr, c.authored)
            cairo_set_line_width(cr, w)
            cairo_stroke(cr)
        case .mark:
            if part.mirrored {
                // Right-to-left with `mirrorsInRightToLeft`: the mark flipped about its rect's centre.
                cairo_save(cr)
                cairo_translate(cr, 2 * r.midX, 0)
                cairo_scale(cr, -1, 1)
                drawMarkPart(cr, part, imageScale: imageScale)
                cairo_restore(cr)
            } else {
                drawMarkPart(cr, part, imageScale: imageScale)
            }
        case .knob:
            guard let c = part.color else { return }
            boxPath(cr, r, radius: 0, shape: .circle)
            setColor(cr, c.authored)
            cairo_fill(cr)
        case .image:
            guard let image = part.image else { return }
            drawImage(cr, CairoImages.of(image.drawn(scale: imageScale)), rect: r,
                      tint: image.template ? part.color?.authored : nil, opacity: image.opacity, stretch: image.stretch)
        case .surface, .label:
            return
        }
    }

    /// A mark part, wherever it sits (a checkbox's box, a switch's track or knob): a tick, dash or
    /// cross stroked in its square, a dot, a path, or an image fitted into the square (a template
    /// painted in the part's colour, else in its own colours).
    static func drawMarkPart(_ cr: OpaquePointer, _ part: ScenePart, imageScale: Int) {
        let r = part.rect
        if part.mark == .image {
            guard let image = part.image else { return }
            drawImage(cr, CairoImages.of(image.asset.drawn(scale: imageScale, dark: image.dark)), rect: r,
                      tint: image.template ? part.color?.authored : nil, opacity: image.opacity)
            return
        }
        guard let c = part.color else { return }
        switch part.mark {
        case .dot:
            boxPath(cr, r, radius: 0, shape: .circle)
            setColor(cr, c.authored)
            cairo_fill(cr)
        case .path:
            if let path = part.path { drawPath(cr, path, in: r, color: c.authored) }
        default:
            guard part.lineWidth > 0 else { return }
            drawMark(cr, part.mark, in: r, weight: part.lineWidth, color: c.authored)
        }
    }

    static func boxPath(_ cr: OpaquePointer, _ r: Rect, radius: Double, shape: GlyphShape) {
        cairo_new_path(cr)
        if shape == .circle {
            cairo_arc(cr, r.midX, r.midY, min(r.width, r.height) / 2, 0, 2 * .pi)
            cairo_close_path(cr)
            return
        }
        let rad = max(0, min(radius, min(r.width, r.height) / 2))
        if rad == 0 {
            cairo_rectangle(cr, r.x, r.y, r.width, r.height)
            return
        }
        cairo_arc(cr, r.maxX - rad, r.minY + rad, rad, -.pi / 2, 0)
        cairo_arc(cr, r.maxX - rad, r.maxY - rad, rad, 0, .pi / 2)
        cairo_arc(cr, r.minX + rad, r.maxY - rad, rad, .pi / 2, .pi)
        cairo_arc(cr, r.minX + rad, r.minY + rad, rad, .pi, 1.5 * .pi)
        cairo_close_path(cr)
    }

    /// A tick or dash stroked in the mark square `m`.
    static func drawMark(_ cr: OpaquePointer, _ kind: MarkKind, in m: Rect, weight wt: Double, color: RGBA) {
        cairo_new_path(cr)
        switch kind {
        case .check:
            // The tick's ink spans the mark square's full width and sits centred in it.
            let s = m.width
            cairo_move_to(cr, m.minX + wt / 2, m.minY + 0.5 * s)
            cairo_line_to(cr, m.minX + 0.38 * s, m.maxY - wt / 2 - 0.12 * s)
            cairo_line_to(cr, m.maxX - wt / 2, m.minY + wt / 2 + 0.12 * s)
        case .dash:
            cairo_move_to(cr, m.minX + wt / 2, m.midY)
            cairo_line_to(cr, m.maxX - wt / 2, m.midY)
        case .cross:
            cairo_move_to(cr, m.minX + wt / 2, m.minY + wt / 2)
            cairo_line_to(cr, m.maxX - wt / 2, m.maxY - wt / 2)
            cairo_move_to(cr, m.maxX - wt / 2, m.minY + wt / 2)
            cairo_line_to(cr, m.minX + wt / 2, m.maxY - wt / 2)
        case .none, .dot, .path, .image:
            return
        }
        cairo_set_line_width(cr, wt)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        setColor(cr, color)
        cairo_stroke(cr)
    }

    /// A path mark: its viewBox fitted into the square `m` (centred, aspect kept, as an SVG's
    /// `xMidYMid meet`), the path stroked when it has a stroke width, else filled (non-zero).
    static func drawPath(_ cr: OpaquePointer, _ path: MarkPath, in m: Rect, color: RGBA) {
        let vb = path.viewBox
        let k = min(m.width / vb.width, m.height / vb.height)
        let ox = m.midX - vb.midX * k, oy = m.midY - vb.midY * k
        cairo_save(cr)
        defer { cairo_restore(cr) }
        func x(_ v: Double) -> Double { ox + v * k }
        func y(_ v: Double) -> Double { oy + v * k }
        cairo_new_path(cr)
        for seg in path.data.segments {
            switch seg {
            case let .move(a, b): cairo_move_to(cr, x(a), y(b))
            case let .line(a, b): cairo_line_to(cr, x(a), y(b))
            case let .cubic(a, b, c, d, e, f): cairo_curve_to(cr, x(a), y(b), x(c), y(d), x(e), y(f))
            case .close: cairo_close_path(cr)
            }
        }
        setColor(cr, color)
        guard let stroke = path.stroke else {
            cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
            cairo_fill(cr)
            return
        }
        cairo_set_line_width(cr, stroke * k)
        switch path.lineCap {
        case .butt: cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT)
        case .round: cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        case .square: cairo_set_line_cap(cr, CAIRO_LINE_CAP_SQUARE)
        }
        switch path.lineJoin {
        case .miter: cairo_set_line_join(cr, CAIRO_LINE_JOIN_MITER)
        case .round: cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        case .bevel: cairo_set_line_join(cr, CAIRO_LINE_JOIN_BEVEL)
        }
        cairo_set_miter_limit(cr, 4)
        cairo_stroke(cr)
    }

    /// Draws an image into `rect`: fitted as librsvg fits a document into a viewport, or with
    /// `stretch` scaled to fill the rect on each axis independently (`scaleToFill`).
    static func drawImage(_ cr: OpaquePointer, _ doc: any CairoImage, rect: Rect, tint: RGBA?, opacity: Double, stretch: Bool = false) {
        if doc.isEmpty { return }
        func draw() {
            if stretch {
                doc.drawStretched(cr, x: rect.x, y: rect.y, width: rect.width, height: rect.height)
            } else {
                doc.draw(cr, x: rect.x, y: rect.y, width: rect.width, height: rect.height)
            }
        }
        if let tint {
            // A template image: only its coverage counts; it is painted in the tint colour.
            cairo_push_group(cr)
            draw()
            let mask = cairo_pop_group(cr)
            setColor(cr, tint)
            cairo_mask(cr, mask)
            cairo_pattern_destroy(mask)
        } else if opacity < 1 {
            cairo_push_group(cr)
            draw()
            cairo_pop_group_to_source(cr)
            cairo_paint_with_alpha(cr, opacity)
        } else {
            draw()
        }
    }

    /// Copies cairo's premultiplied native-endian ARGB32 into straight RGBA8.
    static func rasterFromSurface(_ surface: OpaquePointer, width: Int, height: Int) -> Raster {
        let stride = Int(cairo_image_surface_get_stride(surface))
        let src = cairo_image_surface_get_data(surface)!
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { dst, initialized in
            glyph_argb32_to_rgba(src, stride, width, height, dst.baseAddress)
            initialized = width * height * 4
        }
        return Raster(width: width, height: height, pixels: pixels)
    }
}
