import Foundation
import GlyphColor

/// A spec's keyboard focus indicator (`"focus"`): a ring of `width` points drawn `offset` points
/// outside the glyph's (or the frame's) outline, its corners following the shape. A spec with
/// `focus` renders every state twice: unfocused, and focused (`checked+focused`).
public struct FocusSpec: Sendable, Equatable {
    /// What the ring is drawn around.
    public enum Around: String, Sendable, CaseIterable {
        /// The glyph's outline: the box, the track, the image box.
        case glyph
        /// The control's frame (a fixed frame, or the frame that hugs the glyph and its knob).
        case frame
    }

    /// What paints the ring: a theme colour role (by default `focus`, which each theme may set), or
    /// one colour for every theme.
    public enum Paint: Sendable, Equatable {
        case role(ColorRole)
        case color(AuthoredColor)
    }

    public var paint: Paint
    /// The ring's thickness in points.
    public var width: Double
    /// The gap between the outline and the ring's inner edge, in points.
    public var offset: Double
    /// The radius of the ring's inner edge; nil: the outline's radius plus `offset` (a circle around
    /// a circle, a capsule around a track).
    public var cornerRadius: Double?
    public var around: Around
    /// Written `"focus": true`: the platform's default indicator.
    public var isPlatformDefault: Bool

    public init(paint: Paint = .role(.focus), width: Double, offset: Double, cornerRadius: Double? = nil,
                around: Around = .glyph, isPlatformDefault: Bool = false) {
        self.paint = paint
        self.width = width
        self.offset = offset
        self.cornerRadius = cornerRadius
        self.around = around
        self.isPlatformDefault = isPlatformDefault
    }

    /// `"focus": true`: an approximation of iOS's Full Keyboard Access ring. Apple publishes no
    /// numbers for it (UIFocusHaloEffect documents only its shape and that it is drawn outside the
    /// item): 3 pt wide, 2 pt outside the glyph, in the `focus` role, whose default is systemBlue.
    /// Every number is overridable (docs/spec-format.md, "Focus").
    public static let platformDefault = FocusSpec(width: 3, offset: 2, isPlatformDefault: true)

    /// The `focus` role's colour when a theme gives none: iOS's systemBlue, #007AFF in a light
    /// theme, #0A84FF in a dark one (Apple's HIG colour table).
    public static func defaultColor(dark: Bool) -> RGBA { RGBA(hex: dark ? "#0A84FF" : "#007AFF")! }

    /// The default `focus` colour of a theme that gives none, noted as such (findings repeat the note).
    static func defaultRoleColor(dark: Bool, line: Int?, theme: String) -> AuthoredColor {
        let hex = dark ? "#0A84FF" : "#007AFF"
        return AuthoredColor(rgba: defaultColor(dark: dark), line: line,
                             note: "iOS's systemBlue \(hex) (\(dark ? "dark" : "light") theme), the default focus colour; "
                                 + "\(theme).focus sets it", keyPath: "focus")
    }

    /// How far the ring reaches outside the outline it is drawn around.
    public var outset: Double { offset + width }

    /// The keys of a focus object.
    static let keys = ["color", "width", "offset", "cornerRadius", "around"]

    /// Reads `focus`: `true`, or an object of `keys` (`false` is no focus).
    static func parse(_ node: JSONNode, reader r: inout SpecReader) throws(InputError) -> FocusSpec? {
        switch node.value {
        case let .bool(b):
            return b ? .platformDefault : nil
        case .object:
            let m = try r.object(node, "focus", allowed: keys)
            var f = FocusSpec.platformDefault
            f.isPlatformDefault = false
            if let c = m["color"] {
                if case let .string(s) = c.value, let role = ColorRole(rawValue: s) {
                    guard role != .surface else {
                        throw r.error("focus.color", c, "the ring cannot be painted in the surface colour; give another colour role "
                                      + "(\(ColorRole.allCases.filter { $0 != .surface }.map(\.rawValue).joined(separator: ", "))) or a colour")
                    }
                    f.paint = .role(role)
                } else {
                    f.paint = .color(try r.color(c, "focus.color"))
                }
            }
            if let w = m["width"] {
                f.width = try r.length(w, "focus.width", max: 100)
                guard f.width > 0 else { throw r.error("focus.width", w, "the ring's width must be more than 0 pt (valid: 0 < width ≤ 100)") }
            }
            if let o = m["offset"] { f.offset = try r.length(o, "focus.offset", max: 100) }
            if let c = m["cornerRadius"] { f.cornerRadius = try r.length(c, "focus.cornerRadius", max: 1000) }
            if let a = m["around"] { f.around = try r.choice(a, "focus.around", Around.self) }
            return f
        default:
            throw r.error("focus", node, "expected true, false or an object with keys \(keys.joined(separator: ", ")), found \(node.typeName)")
        }
    }
}

/// The ring of a focused variant, in canvas points.
public struct FocusRing: Sendable, Equatable {
    /// The ring's outer edge (it is stroked inside it, `width` wide).
    public var outer: Rect
    /// The radius of the outer edge.
    public var outerRadius: Double
    public var width: Double
    /// A circle (the outline is a circle: a radio-style checkbox's box).
    public var circle: Bool

    /// The ring around `rect` (whose corners have `radius`) for `focus`.
    public init(around rect: Rect, radius: Double, circle: Bool, focus: FocusSpec) {
        let out = focus.offset + focus.width
        outer = rect.insetBy(-out)
        let inner = focus.cornerRadius ?? (circle ? rect.width / 2 : radius) + focus.offset
        outerRadius = min(inner + focus.width, min(outer.width, outer.height) / 2)
        width = focus.width
        self.circle = circle && focus.cornerRadius == nil
    }

    /// The ring's area in square points (the outer rounded rectangle less the inner one).
    public var area: Double {
        let inner = outer.insetBy(width)
        return FocusRing.roundedRectArea(outer, radius: circle ? outer.width / 2 : outerRadius)
            - FocusRing.roundedRectArea(inner, radius: circle ? inner.width / 2 : max(0, outerRadius - width))
    }

    /// The area of a rectangle with four corners of radius `r` (clamped to half the shorter side).
    public static func roundedRectArea(_ rect: Rect, radius r: Double) -> Double {
        let r = max(0, min(r, min(rect.width, rect.height) / 2))
        return rect.width * rect.height - (4 - .pi) * r * r
    }
}
