import CCairo
import Foundation
import GlyphColor
import GlyphCore
import GlyphRaster

/// Draws rasters and text onto one larger picture (contact sheets, evidence, side-by-side diffs).
public final class Canvas {
    public let width: Int
    public let height: Int
    private let surface: OpaquePointer
    private let cr: OpaquePointer

    public init(width: Int, height: Int, background: RGBA = .white) {
        self.width = width
        self.height = height
        surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))
        cr = cairo_create(surface)
        fill(Rect(x: 0, y: 0, width: Double(width), height: Double(height)), background)
    }

    deinit {
        cairo_destroy(cr)
        cairo_surface_destroy(surface)
    }

    public func fill(_ r: Rect, _ color: RGBA) {
        Renderer.setColor(cr, color)
        cairo_rectangle(cr, r.x, r.y, r.width, r.height)
        cairo_fill(cr)
    }

    public func stroke(_ r: Rect, _ color: RGBA, width w: Double) {
        Renderer.setColor(cr, color)
        cairo_set_line_width(cr, w)
        cairo_rectangle(cr, r.x + w / 2, r.y + w / 2, r.width - w, r.height - w)
        cairo_stroke(cr)
    }

    /// Draws `raster` with its top-left corner at (x, y), pixel for pixel.
    public func draw(_ raster: Raster, x: Int, y: Int) {
        let image = Canvas.surface(from: raster)
        defer { cairo_surface_destroy(image) }
        cairo_set_source_surface(cr, image, Double(x), Double(y))
        cairo_paint(cr)
    }

    /// One line of text with its top-left corner at (x, y); returns its width.
    @discardableResult
    public func text(_ s: String, x: Double, y: Double, size: Double, color: RGBA = .black, bold: Bool = false) -> Double {
        PangoText.draw(cr, text: s, points: size, bold: bold, x: x, y: y, color: color)
        return PangoText.measure(s, points: size, bold: bold).width
    }

    public var raster: Raster {
        cairo_surface_flush(surface)
        return Renderer.rasterFromSurface(surface, width: width, height: height)
    }

    /// A cairo surface holding `raster` (premultiplied, native-endian ARGB32).
    static func surface(from raster: Raster) -> OpaquePointer {
        let s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(raster.width), Int32(raster.height))!
        let stride = Int(cairo_image_surface_get_stride(s))
        PNGImage.premultiply(raster, into: cairo_image_surface_get_data(s)!, stride: stride)
        cairo_surface_mark_dirty(s)
        return s
    }
}

/// A grid of one preset component at one scale: rows are Dynamic Type sizes, columns theme × state.
public enum ContactSheet {
    public static func make(spec: Spec, shape: GlyphShape, size: String, scale: Int = 2) throws(InputError) -> Raster {
        let variants = spec.variants().filter { $0.shape == shape && $0.size == size && $0.scale == scale }
        let columns = spec.themes.flatMap { t in spec.states.map { (t.name, $0) } }
        let rows = spec.dynamicTypeSizes
        var cells: [String: Raster] = [:]
        for v in variants {
            cells["\(v.dynamicType.short)/\(v.theme)/\(v.state.rawValue)"] = Renderer.raster(try Layout(spec: spec, variant: v), spec: spec)
        }
        let k = Double(scale)
        let pad = 8 * scale
        let header = 40 * scale
        let rowLabel = 40 * scale
        var colWidth = [Int](repeating: 0, count: columns.count)
        var rowHeight = [Int](repeating: 0, count: rows.count)
        for (ri, dt) in rows.enumerated() {
            for (ci, c) in columns.enumerated() {
                guard let r = cells["\(dt.short)/\(c.0)/\(c.1.rawValue)"] else { continue }
                colWidth[ci] = max(colWidth[ci], r.width)
                rowHeight[ri] = max(rowHeight[ri], r.height)
            }
        }
        let width = rowLabel + colWidth.reduce(0) { $0 + $1 + pad } + pad
        let height = header + rowHeight.reduce(0) { $0 + $1 + pad } + pad
        let canvas = Canvas(width: width, height: height, background: RGBA(hex: "#F2F2F7")!)
        canvas.text("\(spec.name) · \(spec.control == .switch ? "" : shape.rawValue + "-")\(size) · @\(scale)x",
                    x: Double(pad), y: 4 * k, size: 13 * k, bold: true)
        var x = rowLabel
        for (ci, c) in columns.enumerated() {
            canvas.text("\(c.0) · \(c.1.rawValue)", x: Double(x), y: 22 * k, size: 11 * k, color: RGBA(hex: "#3C3C43")!)
            x += colWidth[ci] + pad
        }
        var y = header
        for (ri, dt) in rows.enumerated() {
            canvas.text(dt.short, x: Double(pad), y: Double(y + rowHeight[ri] / 2) - 8 * k, size: 12 * k, bold: true)
            x = rowLabel
            for (ci, c) in columns.enumerated() {
                if let r = cells["\(dt.short)/\(c.0)/\(c.1.rawValue)"] { canvas.draw(r, x: x, y: y) }
                x += colWidth[ci] + pad
            }
            y += rowHeight[ri] + pad
        }
        return canvas.raster
    }
}
