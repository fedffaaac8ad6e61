import Foundation

/// Which parts of a variant to draw (audits draw the glyph or the label alone to measure its ink).
public struct RenderParts: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The theme's surface colour under everything.
    public static let background = RenderParts(rawValue: 1)
    /// The box, track and knob, or image.
    public static let glyph = RenderParts(rawValue: 2)
    public static let label = RenderParts(rawValue: 4)
    /// A focused variant's focus indicator.
    public static let focus = RenderParts(rawValue: 8)
    public static let all: RenderParts = [.background, .glyph, .label, .focus]
}
