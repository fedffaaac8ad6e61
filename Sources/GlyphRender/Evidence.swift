import CCairo
import CGlyphSupport
import Foundation
import GlyphColor
import GlyphCore
import GlyphRaster

/// Paints the pictures that prove findings (`--evidence DIR`), with cairo and pango, from their
/// sketches (`EvidenceSketch`, which the audit describes): two states side by side in each failing
/// view, the clipped ink highlighted over the frame, colour swatches with their ratio, hit areas and
/// image rects outlined, Dynamic Type sizes side by side.
public enum EvidencePainter {
    /// The picture a sketch describes.
    public static func paint(_ sketch: EvidenceSketch) -> Raster {
        let title = sketch.title
        switch sketch.content {
        case let .rows(rows, cellWidth, cellHeight):
            return self.rows(rows, cellWidth: cellWidth, cellHeight: cellHeight, title: title)
        case let .annotated(render, scale, marks):
            return annotated(render, scale: scale, title: title) { cr, s in
                for mark in marks { draw(cr, mark, s) }
            }
        case let .sideBySide(renders):
            return sideBySide(renders, title: title)
        case let .swatch(fg, bg, ratio, required):
            return swatch(fg, bg, ratio: ratio, required: required, title: title)
        }
    }

    static func draw(_ cr: OpaquePointer, _ mark: EvidenceSketch.Mark, _ s: Double) {
        switch mark {
        case let .fill(r, except, color):
            cairo_save(cr)
            cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD)
            rect(cr, r, s)
            if let except { rect(cr, except, s) }
            cairo_set_source_rgba(cr, color.r, color.g, color.b, color.a)
            cairo_fill(cr)
            cairo_restore(cr)
        case let .outline(r, color, width, dash):
            if let dash { cairo_set_dash(cr, dash, Int32(dash.count), 0) }
            cairo_new_path(cr)
            rect(cr, r, s)
            cairo_set_source_rgba(cr, color.r, color.g, color.b, color.a)
            cairo_set_line_width(cr, width)
            cairo_stroke(cr)
            if dash != nil { cairo_set_dash(cr, nil, 0, 0) }
        }
    }

    // MARK: Pictures

    static let ink = RGBA(r: 0.1, g: 0.1, b: 0.1)
    static let paper = RGBA(r: 0.96, g: 0.96, b: 0.96)

    /// A zoom that makes a picture of `pixels` about `target` pixels tall (whole numbers only, so pixels stay crisp).
    static func zoom(_ pixels: Int, target: Int) -> Int { max(1, min(16, target / max(1, pixels))) }

    static func rows(_ rows: [EvidenceSketch.Row], cellWidth: Int, cellHeight: Int, title: String) -> Raster {
        let z = zoom(max(cellHeight, cellWidth), target: 140)
        let cell = (w: cellWidth * z, h: cellHeight * z)
        let pad = 16, labelW = 110
        let width = max(560, labelW + 2 * cell.w + 3 * pad)
        let header = headerHeight(title, width: width)
        let height = header + rows.count * (cell.h + pad + 18) + pad
        return canvas(width: width, height: height) { cr in
            text(cr, title, x: 8, y: 6, points: 11, width: Double(width - 16))
            for (row, r) in rows.enumerated() {
                let y = header + row * (cell.h + pad + 18)
                text(cr, r.label, x: 8, y: Double(y + cell.h / 2 - 8), points: 12, bold: true)
                for (col, c) in r.cells.enumerated() {
                    let x = labelW + pad + col * (cell.w + pad)
                    paint(cr, c.raster, x: x, y: y, zoom: z)
                    text(cr, c.caption, x: Double(x), y: Double(y + cell.h + 2), points: 10)
                }
            }
        }
    }

    /// A render, zoomed, with something drawn over it in its own points.
    static func annotated(_ render: EvidenceSketch.Captioned, scale: Int, title: String,
                          _ draw: (OpaquePointer, Double) -> Void) -> Raster {
        let r = render.raster
        let z = zoom(r.height, target: 160)
        let pad = 12
        let width = max(560, r.width * z + 2 * pad)
        let header = headerHeight(title, width: width)
        let height = header + r.height * z + 2 * pad + 16
        return canvas(width: width, height: height) { cr in
            text(cr, title, x: 8, y: 6, points: 11, width: Double(width - 16))
            paint(cr, r, x: pad, y: header + pad, zoom: z)
            cairo_save(cr)
            cairo_translate(cr, Double(pad), Double(header + pad))
            draw(cr, Double(scale * z))
            cairo_restore(cr)
            text(cr, render.caption, x: Double(pad), y: Double(header + pad + r.height * z + 2), points: 9)
        }
    }

    static func sideBySide(_ renders: [EvidenceSketch.Captioned], title: String) -> Raster {
        let maxH = renders.map(\.raster.height).max() ?? 0
        let z = zoom(maxH, target: 200)
        let pad = 12
        let width = max(560, renders.map { $0.raster.width * z + pad }.reduce(pad, +))
        let header = headerHeight(title, width: width)
        let height = header + maxH * z + 2 * pad + 16
        return canvas(width: width, height: height) { cr in
            text(cr, title, x: 8, y: 6, points: 11, width: Double(width - 16))
            var x = pad
            for c in renders {
                let r = c.raster
                paint(cr, r, x: x, y: header + pad, zoom: z)
                text(cr, c.caption, x: Double(x), y: Double(header + pad + r.height * z + 2), points: 10)
                x += r.width * z + pad
            }
        }
    }

    static func swatch(_ fg: RGBA, _ bg: RGBA, ratio: Double, required: Double, title: String) -> Raster {
        let width = 560
        let top = Double(headerHeight(title, width: width) - 76)
        let height = 220 + Int(top)
        return canvas(width: width, height: height) { cr in
            text(cr, title, x: 8, y: 6, points: 11, width: Double(width - 16))
            Renderer.setColor(cr, bg)
            cairo_rectangle(cr, 16, 72 + top, 200, 132)
            cairo_fill(cr)
            Renderer.setColor(cr, fg)
            cairo_rectangle(cr, 56, 102 + top, 120, 72)
            cairo_fill(cr)
            let verdict = ratio >= required ? "meets" : "fails"
            text(cr, "\(Format.ratio(ratio))", x: 240, y: 76 + top, points: 28, bold: true)
            text(cr, "\(verdict) \(Format.number(required)):1", x: 240, y: 120 + top, points: 14)
            text(cr, "foreground \(fg.hex)\nbackground \(bg.hex)", x: 240, y: 150 + top, points: 11)
        }
    }

    // MARK: Drawing helpers

    static func canvas(width: Int, height: Int, _ body: (OpaquePointer) -> Void) -> Raster {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))!
        defer { cairo_surface_destroy(surface) }
        let cr = cairo_create(surface)!
        Renderer.setColor(cr, paper)
        cairo_paint(cr)
        body(cr)
        cairo_destroy(cr)
        cairo_surface_flush(surface)
        return Renderer.rasterFromSurface(surface, width: width, height: height)
    }

    /// Paints a raster at (x, y), each pixel `zoom` × `zoom`, without smoothing.
    static func paint(_ cr: OpaquePointer, _ r: Raster, x: Int, y: Int, zoom: Int) {
        guard r.width > 0, r.height > 0 else { return }
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(r.width), Int32(r.height))!
        defer { cairo_surface_destroy(surface) }
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        let data = cairo_image_surface_get_data(surface)!
        // Premultiplied truncating (c × a / 255), as this picture has always been painted.
        r.pixels.withUnsafeBufferPointer { glyph_rgba_to_argb32($0.baseAddress, r.width, r.height, data, stride, 0) }
        cairo_surface_mark_dirty(surface)
        cairo_save(cr)
        cairo_translate(cr, Double(x), Double(y))
        cairo_scale(cr, Double(zoom), Double(zoom))
        cairo_set_source_surface(cr, surface, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_NEAREST)
        cairo_paint(cr)
        cairo_restore(cr)
    }

    /// A long title cut into lines by words to fit `width` (an estimate: 0.55 em per character).
    static func wrap(_ s: String, points: Double, width: Double) -> [String] {
        let perLine = max(20, Int(width / (points * 0.55)))
        var lines: [String] = []
        for paragraph in s.components(separatedBy: "\n") {
            var line = ""
            for word in paragraph.split(separator: " ") {
                if line.count + word.count + 1 > perLine, !line.isEmpty {
                    lines.append(line)
                    line = ""
                }
                line += (line.isEmpty ? "" : " ") + word
            }
            lines.append(line)
        }
        return lines
    }

    /// The height of a picture's header: the whole title, however many lines it takes (76 px at least).
    static func headerHeight(_ title: String, width: Int) -> Int {
        let lines = wrap(title, points: 11, width: Double(width - 16)).count
        return max(76, 6 + Int((Double(lines) * 11 * 1.25).rounded(.up)) + 14)
    }

    static func text(_ cr: OpaquePointer, _ s: String, x: Double, y: Double, points: Double, bold: Bool = false, width: Double? = nil) {
        let lines = width.map { wrap(s, points: points, width: $0) } ?? s.components(separatedBy: "\n")
        for (i, line) in lines.enumerated() {
            PangoText.draw(cr, text: line, points: points, bold: bold, x: x, y: y + Double(i) * points * 1.25, color: ink)
        }
    }

    static func rect(_ cr: OpaquePointer, _ r: Rect, _ s: Double) {
        cairo_rectangle(cr, r.x * s, r.y * s, r.width * s, r.height * s)
    }
}
