import CCairo
import Foundation
import GlyphColor
import GlyphCore

/// Labels through pango: Inter (from fonts-inter), falling back to DejaVu Sans. Unhinted, with
/// unrounded glyph positions, so a label has the same geometry at every display scale.
public enum PangoText {
    public static let fontFamilies = "Inter, DejaVu Sans"
    private static let pangoScale = 1024.0

    private struct Key: Hashable {
        let text: String
        let points: Double
        let bold: Bool
    }

    private static let cache = Mutex<[Key: TextMetrics]>([:])

    /// The metrics of one line of `text` at `points` (cached: many variants share a label).
    public static func measure(_ text: String, points: Double, bold: Bool) -> TextMetrics {
        let key = Key(text: text, points: points, bold: bold)
        if let hit = cache.withLock({ $0[key] }) { return hit }
        let metrics = withLayout(text: text, points: points, bold: bold, cairo: nil) { layout in
            var ink = PangoRectangle()
            var logical = PangoRectangle()
            pango_layout_get_extents(layout, &ink, &logical)
            let baseline = Double(pango_layout_get_baseline(layout)) / pangoScale
            return TextMetrics(
                width: Double(logical.width) / pangoScale, height: Double(logical.height) / pangoScale, baseline: baseline,
                ink: Rect(x: Double(ink.x) / pangoScale, y: Double(ink.y) / pangoScale,
                          width: Double(ink.width) / pangoScale, height: Double(ink.height) / pangoScale))
        }
        cache.withLock { $0[key] = metrics }
        return metrics
    }

    /// Draws the text with its layout's top-left corner at (x, y) in the user space of `cr`.
    static func draw(_ cr: OpaquePointer, text: String, points: Double, bold: Bool, x: Double, y: Double, color: RGBA) {
        withLayout(text: text, points: points, bold: bold, cairo: cr) { layout in
            cairo_set_source_rgba(cr, color.r, color.g, color.b, color.a)
            cairo_move_to(cr, x, y)
            pango_cairo_show_layout(cr, layout)
        }
    }

    private static func withLayout<T>(text: String, points: Double, bold: Bool, cairo cr: OpaquePointer?,
                                      _ body: (OpaquePointer) -> T) -> T {
        let fontMap = pango_cairo_font_map_get_default()
        let context = pango_font_map_create_context(fontMap)!
        defer { g_object_unref(UnsafeMutableRawPointer(context)) }
        let options = cairo_font_options_create()
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        pango_cairo_context_set_font_options(context, options)
        cairo_font_options_destroy(options)
        pango_cairo_context_set_resolution(context, 72)
        pango_context_set_round_glyph_positions(context, 0)
        if let cr { pango_cairo_update_context(cr, context) }

        let layout = pango_layout_new(context)!
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        let description = pango_font_description_from_string(fontFamilies)!
        defer { pango_font_description_free(description) }
        pango_font_description_set_absolute_size(description, points * pangoScale)
        pango_font_description_set_weight(description, bold ? PANGO_WEIGHT_SEMIBOLD : PANGO_WEIGHT_NORMAL)
        pango_layout_set_font_description(layout, description)
        pango_layout_set_text(layout, text, -1)
        return body(layout)
    }
}
