import CCairo
import Foundation
import GlyphAudit
import GlyphColor
import GlyphCore
import GlyphRaster

/// Draws the pictures that prove findings (`--evidence DIR`), with cairo and pango:
/// two states side by side in each failing view, the clipped ink highlighted over the frame,
/// colour swatches with their ratio, hit areas and image rects outlined, Dynamic Type sizes side by side.
public enum EvidencePainter {
    /// The file a finding's picture is written to, relative to the evidence folder:
    /// `<rule>/<variant id, * as "all">--<subject>.png`, e.g. `nontext-contrast/swiftui-switch/switch-md/all/default/off@all--off-track.png`.
    public static func path(for f: Finding) -> String {
        let id = f.variant.description.replacingOccurrences(of: "@*x", with: "@all").replacingOccurrences(of: "*", with: "all")
        let subject = f.subject.lowercased().split { !($0.isLetter || $0.isNumber) }.joined(separator: "-")
        return "\(f.rule)/\(id)--\(subject).png"
    }

    /// Writes a picture for every finding that has one and records its path in the finding.
    public static func write(_ result: inout AuditResult, input: AuditInput, to folder: URL) throws {
        try write(&result.findings, input: input, to: folder)
    }

    /// The same for some findings (those of one component, as the pipeline streams them).
    public static func write(_ findings: inout [Finding], input: AuditInput, to folder: URL) throws {
        let found = findings
        let paths = try input.parallelMap(found.count) { i -> Result<String?, Error> in
            let f = found[i]
            guard let png = picture(f, input: input) else { return .success(nil) }
            let rel = path(for: f)
            do {
                try AtomicFile.write(try png.pngData(), to: folder.appendingPathComponent(rel))
                return .success(rel)
            } catch {
                return .failure(error)
            }
        }.map { try $0.get() }
        for i in findings.indices { findings[i].picturePath = paths[i] }
    }

    /// The picture of one finding, or nil when it has none (or its variants are not in the input).
    public static func picture(_ f: Finding, input: AuditInput) -> Raster? {
        guard let picture = f.picture else { return nil }
        switch picture {
        case let .states(a, b, views):
            return states(a, b, views: views, input: input, title: f.message)
        case let .overflow(v, frame, ink):
            return annotated(v, input: input, title: f.message) { cr, s in
                // The ink outside the frame in magenta, the frame in blue.
                cairo_save(cr)
                cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD)
                rect(cr, ink, s)
                let inside = intersection(ink, frame)
                if let inside { rect(cr, inside, s) }
                cairo_set_source_rgba(cr, 1, 0, 0.8, 0.55)
                cairo_fill(cr)
                cairo_restore(cr)
                stroke(cr, frame, s, r: 0, g: 0.35, b: 1, width: 2)
            }
        case let .swatch(fg, bg, ratio, required):
            return swatch(fg, bg, ratio: ratio, required: required, title: f.message)
        case let .hitArea(v, area, minimum):
            return annotated(v, input: input, title: f.message) { cr, s in
                stroke(cr, area, s, r: 0.9, g: 0.1, b: 0.1, width: 2)
                let square = area.centred(width: minimum, height: minimum)
                cairo_set_dash(cr, [4, 3], 2, 0)
                stroke(cr, square, s, r: 0, g: 0.6, b: 0.2, width: 1.5)
                cairo_set_dash(cr, nil, 0, 0)
            }
        case let .sideBySide(vs):
            return sideBySide(vs, input: input, title: f.message)
        case let .outline(v, r):
            return annotated(v, input: input, title: f.message) { cr, s in
                stroke(cr, r, s, r: 1, g: 0, b: 0.8, width: 1.5)
            }
        }
    }

    // MARK: Pictures

    static let ink = RGBA(r: 0.1, g: 0.1, b: 0.1)
    static let paper = RGBA(r: 0.96, g: 0.96, b: 0.96)

    /// A zoom that makes a picture of `pixels` about `target` pixels tall (whole numbers only, so pixels stay crisp).
    static func zoom(_ pixels: Int, target: Int) -> Int { max(1, min(16, target / max(1, pixels))) }

    static func states(_ a: Variant, _ b: Variant, views: [ColorView], input: AuditInput, title: String) -> Raster? {
        guard !input.glyphs.isEmpty, let ia = input.index(of: a), let ib = input.index(of: b) else { return nil }
        let ga = input.glyphs[ia], gb = input.glyphs[ib]
        let z = zoom(max(ga.height, ga.width), target: 140)
        let cell = (w: ga.width * z, h: ga.height * z)
        let pad = 16, labelW = 110
        let width = max(560, labelW + 2 * cell.w + 3 * pad)
        let header = headerHeight(title, width: width)
        let height = header + views.count * (cell.h + pad + 18) + pad
        return canvas(width: width, height: height) { cr in
            text(cr, title, x: 8, y: 6, points: 11, width: Double(width - 16))
            for (row, view) in views.enumerated() {
                let y = header + row * (cell.h + pad + 18)
                text(cr, view.rawValue, x: 8, y: Double(y + cell.h / 2 - 8), points: 12, bold: true)
                for (col, (g, v)) in [(ga, a), (gb, b)].enumerated() {
                    let x = labelW + pad + col * (cell.w + pad)
                    paint(cr, viewed(g, view), x: x, y: y, zoom: z)
                    text(cr, v.state.rawValue, x: Double(x), y: Double(y + cell.h + 2), points: 10)
                }
            }
        }
    }

    /// The glyph's pixels as seen in a view.
    static func viewed(_ g: GlyphPixels, _ view: ColorView) -> Raster {
        var cache: [UInt32: (UInt8, UInt8, UInt8, UInt8)] = [:]
        var px = [UInt8](repeating: 0, count: g.width * g.height * 4)
        for i in 0..<(g.width * g.height) {
            let p = g.pixels[i]
            let c: (UInt8, UInt8, UInt8, UInt8)
            if let hit = cache[p] {
                c = hit
            } else {
                let v = GlyphPixels.unpack(p).viewed(as: view)
                c = (RGBA.byte(v.r), RGBA.byte(v.g), RGBA.byte(v.b), RGBA.byte(v.a))
                cache[p] = c
            }
            px[i * 4] = c.0; px[i * 4 + 1] = c.1; px[i * 4 + 2] = c.2; px[i * 4 + 3] = c.3
        }
        return Raster(width: g.width, height: g.height, pixels: px)
    }

    /// A variant's full render, zoomed, with something drawn over it in its own points.
    static func annotated(_ v: Variant, input: AuditInput, title: String,
                          _ draw: (OpaquePointer, Double) -> Void) -> Raster? {
        guard let i = input.index(of: v) else { return nil }
        let r = input.raster(i)
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
            draw(cr, Double(v.scale * z))
            cairo_restore(cr)
            text(cr, v.id, x: Double(pad), y: Double(header + pad + r.height * z + 2), points: 9)
        }
    }

    static func sideBySide(_ vs: [Variant], input: AuditInput, title: String) -> Raster? {
        let rs = vs.compactMap { v in input.index(of: v).map { (v, input.raster($0)) } }
        guard !rs.isEmpty else { return nil }
        let maxH = rs.map(\.1.height).max()!
        let z = zoom(maxH, target: 200)
        let pad = 12
        let width = max(560, rs.map { $0.1.width * z + pad }.reduce(pad, +))
        let header = headerHeight(title, width: width)
        let height = header + maxH * z + 2 * pad + 16
        return canvas(width: width, height: height) { cr in
            text(cr, title, x: 8, y: 6, points: 11, width: Double(width - 16))
            var x = pad
            for (v, r) in rs {
                paint(cr, r, x: x, y: header + pad, zoom: z)
                text(cr, "\(v.dynamicType.short) @\(v.scale)x", x: Double(x), y: Double(header + pad + r.height * z + 2), points: 10)
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
        for yy in 0..<r.height {
            let row = UnsafeMutableRawPointer(data + yy * stride).assumingMemoryBound(to: UInt32.self)
            for xx in 0..<r.width {
                let p = r.pixel(xx, yy)
                let a = UInt32(p.a)
                let pr = UInt32(p.r) * a / 255, pg = UInt32(p.g) * a / 255, pb = UInt32(p.b) * a / 255
                row[xx] = a << 24 | pr << 16 | pg << 8 | pb
            }
        }
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

    static func stroke(_ cr: OpaquePointer, _ r: Rect, _ s: Double, r red: Double, g: Double, b: Double, width: Double) {
        cairo_new_path(cr)
        rect(cr, r, s)
        cairo_set_source_rgba(cr, red, g, b, 0.9)
        cairo_set_line_width(cr, width)
        cairo_stroke(cr)
    }

    static func intersection(_ a: Rect, _ b: Rect) -> Rect? {
        let x0 = max(a.minX, b.minX), y0 = max(a.minY, b.minY), x1 = min(a.maxX, b.maxX), y1 = min(a.maxY, b.maxY)
        return x1 > x0 && y1 > y0 ? Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0) : nil
    }
}
