import GlyphColor
import GlyphCore

/// What a picture proving a finding shows, as pixels and marks: nothing is left to look up. The
/// audit describes it (`EvidencePictures.sketch` in GlyphAudit, from a finding and its renders),
/// the render target paints it (`EvidencePainter.paint` in GlyphRender, with cairo and pango), and
/// the pipeline joins the two and writes the file. It lives here, below both, because it holds pixels.
public struct EvidenceSketch: Sendable {
    /// The title across the top (the finding's message), wrapped to the picture's width.
    public var title: String
    public var content: Content

    public init(title: String, content: Content) {
        self.title = title
        self.content = content
    }

    /// A picture with a line of text under it.
    public struct Captioned: Sendable {
        public var raster: Raster
        public var caption: String

        public init(_ raster: Raster, caption: String) {
            self.raster = raster
            self.caption = caption
        }
    }

    /// Pictures in a row, with a label at the left.
    public struct Row: Sendable {
        public var label: String
        public var cells: [Captioned]

        public init(label: String, cells: [Captioned]) {
            self.label = label
            self.cells = cells
        }
    }

    public enum Content: Sendable {
        /// Rows of pictures of one size (two states of a glyph in each failing view), all zoomed by
        /// one whole number so that a picture of `cellWidth` × `cellHeight` px is about 140 px.
        case rows([Row], cellWidth: Int, cellHeight: Int)
        /// One render zoomed to about 160 px tall, with `marks` drawn over it in its points (`scale`
        /// pixels a point), and its caption.
        case annotated(Captioned, scale: Int, marks: [Mark])
        /// Renders side by side at their own sizes, zoomed together so the tallest is about 200 px.
        case sideBySide([Captioned])
        /// Two colour swatches, one on the other, with their ratio and the ratio needed.
        case swatch(foreground: RGBA, background: RGBA, ratio: Double, required: Double)
    }

    /// Something drawn over a render, in the render's points.
    public enum Mark: Sendable, Equatable {
        /// `rect` without `except` (even-odd), filled in `color`.
        case fill(Rect, except: Rect?, color: RGBA)
        /// `rect` outlined in `color`, `width` px wide; dashed (`dash`: on, off px) or solid (nil).
        case outline(Rect, color: RGBA, width: Double, dash: [Double]?)
    }
}
