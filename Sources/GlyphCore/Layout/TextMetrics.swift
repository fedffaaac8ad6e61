import Foundation

/// Where a line of text sits: its logical box (advance width and line height) and its ink box,
/// both relative to the layout's top-left corner, in points.
public struct TextMetrics: Sendable, Equatable {
    public var width: Double
    public var height: Double
    public var baseline: Double
    public var ink: Rect

    public init(width: Double, height: Double, baseline: Double, ink: Rect) {
        self.width = width
        self.height = height
        self.baseline = baseline
        self.ink = ink
    }
}

/// What lays out text for `Layout`: the render target measures with pango (`PangoText`); the layout
/// itself never reaches a text engine.
public protocol TextMeasuring: Sendable {
    /// The metrics of one line of `text` at `points`.
    func measure(_ text: String, points: Double, bold: Bool) -> TextMetrics
}
