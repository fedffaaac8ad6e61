import CCairo
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
    public static func raster(_ layout: Layout, spec: Spec, parts: RenderParts = .all) -> Raster {
        let w = layout.pixelWidth
        let h = layout.pixelHeight
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(w), Int32(h))!
        defer { cairo_surface_destroy(surface) }
        let cr = cairo_create(surface)!
        let s = Double(layout.variant.scale)
        cairo_scale(cr, s, s)
        draw(cr, layout: layout, spec: spec, parts: parts, imageScale: layout.variant.scale)
        cairo_destroy(cr)
        cairo_surface_flush(surface)
        return rasterFromSurface(surface, width: w, height: h)
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

    /// Renders to SVG or PDF (1 user unit = 1 pt; display scale does not apply).
    public static func vector(_ layout: Layout, spec: Spec, format: VectorFormat, parts: RenderParts = .all) -> Data {
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
            surface = cairo_svg_surface_create_for_stream(write, closure, layout.canvas.width, layout.canvas.height)
            cairo_svg_surface_restrict_to_version(surface, CAIRO_SVG_VERSION_1_1)
        case .pdf:
            surface = cairo_pdf_surface_create_for_stream(write, closure, layout.canvas.width, layout.canvas.height)
            // No creation date: the same input gives the same bytes.
            cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATE_DATE, "")
            cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, "glyphaudit")
            cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, layout.variant.id)
        }
        let cr = cairo_create(surface)!
        // An image with a file per scale draws its most detailed one.
        draw(cr, layout: layout, spec: spec, parts: parts, imageScale: Int.max)
        cairo_destroy(cr)
        cairo_surface_finish(surface)
        cairo_surface_destroy(surface)
        return format == .svg ? stableSVGIDs(sink.data) : sink.data
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

    /// Draws the variant in points onto any cairo context; an image with a file per display scale
    /// draws the one for `imageScale` (and, in a dark theme, its dark one).
    static func draw(_ cr: OpaquePointer, layout: Layout, spec: Spec, parts: RenderParts, imageScale: Int) {
        let v = layout.variant
        guard let theme = spec.theme(named: v.theme) else { return }
        func color(_ role: ColorRole) -> RGBA? { theme.color(role, state: v.state)?.rgba }

        if parts.contains(.background), let surface = color(.surface) {
            setColor(cr, surface)
            cairo_rectangle(cr, 0, 0, layout.canvas.width, layout.canvas.height)
            cairo_fill(cr)
        }

        if parts.contains(.glyph) {
            if let images = spec.images, let rect = layout.image {
                let image = images.image(for: v.state).drawn(scale: imageScale, dark: theme.isDark)
                drawImage(cr, CairoImages.of(image), rect: rect, tint: images.template ? color(.tint) : nil,
                          opacity: theme.imageOpacity, stretch: images.contentMode == .scaleToFill)
            } else if spec.control == .switch {
                drawSwitch(cr, layout: layout, track: color(v.state == .on ? .trackOn : .trackOff),
                           border: layout.borderWidth > 0 ? color(.border) : nil, knob: color(.knob))
            } else {
                drawCheckbox(cr, layout: layout, shape: v.shape, fill: color(.fill), border: color(.border), mark: color(.mark))
            }
        }

        if parts.contains(.label), let label = layout.label, let c = color(.label) {
            if let clip = label.clip {
                // A label with a maximum width is cut at its frame, as a fixed-width label is on iOS.
                cairo_save(cr)
                cairo_rectangle(cr, clip.x, clip.y, clip.width, clip.height)
                cairo_clip(cr)
            }
            PangoText.draw(cr, text: label.text, points: label.points, bold: label.bold, x: label.box.x, y: label.box.y, color: c)
            if label.clip != nil { cairo_restore(cr) }
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

    static func drawCheckbox(_ cr: OpaquePointer, layout: Layout, shape: GlyphShape, fill: RGBA?, border: RGBA?, mark: RGBA?) {
        let a = layout.appearance
        let box = layout.glyph
        if a.fill, let fill {
            boxPath(cr, box, radius: layout.cornerRadius, shape: shape)
            setColor(cr, fill)
            cairo_fill(cr)
        }
        if a.ring, let border, layout.borderWidth > 0 {
            // The ring lies inside the box, like SwiftUI's strokeBorder.
            let w = layout.borderWidth
            boxPath(cr, box.insetBy(w / 2), radius: max(0, layout.cornerRadius - w / 2), shape: shape)
            setColor(cr, border)
            cairo_set_line_width(cr, w)
            cairo_stroke(cr)
        }
        guard let m = layout.mark, let mark, a.mark != .none, layout.markWeight > 0 else { return }
        let wt = layout.markWeight
        cairo_new_path(cr)
        switch a.mark {
        case .check:
            // The tick's ink spans the mark square's full width and sits centred in it.
            let s = m.width
            cairo_move_to(cr, m.minX + wt / 2, m.minY + 0.5 * s)
            cairo_line_to(cr, m.minX + 0.38 * s, m.maxY - wt / 2 - 0.12 * s)
            cairo_line_to(cr, m.maxX - wt / 2, m.minY + wt / 2 + 0.12 * s)
        case .dash:
            cairo_move_to(cr, m.minX + wt / 2, m.midY)
            cairo_line_to(cr, m.maxX - wt / 2, m.midY)
        case .none:
            return
        }
        cairo_set_line_width(cr, wt)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        setColor(cr, mark)
        cairo_stroke(cr)
    }

    static func drawSwitch(_ cr: OpaquePointer, layout: Layout, track: RGBA?, border: RGBA?, knob: RGBA?) {
        let t = layout.glyph
        if let track {
            boxPath(cr, t, radius: t.height / 2, shape: .square)
            setColor(cr, track)
            cairo_fill(cr)
        }
        if let border {
            let w = layout.borderWidth
            boxPath(cr, t.insetBy(w / 2), radius: t.height / 2 - w / 2, shape: .square)
            setColor(cr, border)
            cairo_set_line_width(cr, w)
            cairo_stroke(cr)
        }
        if let k = layout.knob, let knob {
            boxPath(cr, k, radius: 0, shape: .circle)
            setColor(cr, knob)
            cairo_fill(cr)
        }
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
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        pixels.withUnsafeMutableBufferPointer { dst in
            for y in 0..<height {
                let row = UnsafeRawPointer(src + y * stride).assumingMemoryBound(to: UInt32.self)
                var o = y * width * 4
                for x in 0..<width {
                    let p = row[x]
                    let a = UInt32(p >> 24)
                    var r = (p >> 16) & 0xFF, g = (p >> 8) & 0xFF, b = p & 0xFF
                    if a != 255 && a != 0 {
                        r = (r * 255 + a / 2) / a
                        g = (g * 255 + a / 2) / a
                        b = (b * 255 + a / 2) / a
                    }
                    dst[o] = UInt8(truncatingIfNeeded: r)
                    dst[o + 1] = UInt8(truncatingIfNeeded: g)
                    dst[o + 2] = UInt8(truncatingIfNeeded: b)
                    dst[o + 3] = UInt8(truncatingIfNeeded: a)
                    o += 4
                }
            }
        }
        return Raster(width: width, height: height, pixels: pixels)
    }
}
