import Foundation
import GlyphColor

public enum ControlKind: String, Sendable, CaseIterable, Codable {
    case checkbox
    case `switch`
}

public enum GlyphShape: String, Sendable, CaseIterable, Codable {
    case square, circle
}

public enum ControlState: String, Sendable, CaseIterable, Codable {
    case unchecked, checked, mixed, off, on

    public static func allowed(for control: ControlKind) -> [ControlState] {
        control == .checkbox ? [.unchecked, .checked, .mixed] : [.off, .on]
    }
}

/// What a mark draws: glyphaudit's tick or dash, a dot, a cross, the design's own path, or an image
/// (an icon set's tick: SVG, PDF, PNG or an asset catalog image set).
public enum MarkKind: String, Sendable, CaseIterable, Codable {
    case none, check, dash, dot, cross, path, image
}

/// How large a mark is: in points (growing with the glyph), or a fraction of the box's side.
public enum MarkExtent: Sendable, Equatable {
    case points(Double)
    case fraction(Double)

    /// The side in points of a mark in a box of side `box`, the glyph grown by `k`.
    public func side(box: Double, k: Double) -> Double {
        switch self {
        case let .points(p): p * k
        case let .fraction(f): f * box
        }
    }
}

/// A mark drawn from SVG path data (a design system's own tick, e.g. Bootstrap's `m6 10 3 3 6-6`).
public struct MarkPath: Sendable, Equatable {
    public enum LineCap: String, Sendable, CaseIterable { case butt, round, square }
    public enum LineJoin: String, Sendable, CaseIterable { case miter, round, bevel }
    /// The path data as written.
    public var d: String
    public var data: PathData
    /// The viewBox the path is drawn in; fitted (centred, aspect kept) into the mark's square.
    public var viewBox: Rect
    /// The stroke width in viewBox units; nil: the path is filled (non-zero winding).
    public var stroke: Double?
    public var lineCap: LineCap
    public var lineJoin: LineJoin
}

/// One mark of a state's stack: what it draws, the colour role that paints it, and its size.
public struct MarkSpec: Sendable, Equatable {
    public var kind: MarkKind
    public var role: ColorRole
    /// Nil: the size's own `tickSize`, `dashSize`, `dotSize` (for a path, the whole box).
    public var size: MarkExtent?
    public var path: MarkPath?
    /// An image mark's image, fitted (aspect kept, centred) into the mark's square.
    public var image: (any VectorImage)?
    /// An image mark: true paints the image's coverage in `role`'s colour (a template); false draws
    /// it in its own colours.
    public var template: Bool = true
    /// Where the mark was written (`appearance.checked.mark[0]`); nil for a default mark.
    public var keyPath: String?

    public init(kind: MarkKind, role: ColorRole = .mark, size: MarkExtent? = nil, path: MarkPath? = nil) {
        self.kind = kind
        self.role = role
        self.size = size
        self.path = path
    }

    /// Whether the mark is painted in its colour role (every mark but an image in its own colours).
    public var usesRole: Bool { kind != .image || template }

    public static func == (a: MarkSpec, b: MarkSpec) -> Bool {
        a.kind == b.kind && a.role == b.role && a.size == b.size && a.path == b.path && a.template == b.template
            && a.image === b.image
    }
}

extension MarkSpec {
    /// iOS's On/Off Label of a state (`onOffLabels`), drawn as a track mark: the `|` (a filled 1 × 10
    /// bar) in the `onLabel` colour when on, the `○` (a ring of radius 5 stroked 1 wide) in the
    /// `offLabel` colour when off; placed by `Scene.onOffLabelRect`.
    public static func onOffLabel(on: Bool) -> MarkSpec {
        if on {
            return MarkSpec(kind: .path, role: .onLabel,
                            path: MarkPath(d: "M0 0h1v10h-1z", data: PathData(segments: [.move(0, 0), .line(1, 0), .line(1, 10), .line(0, 10), .close]),
                                           viewBox: Rect(x: 0, y: 0, width: 1, height: 10), stroke: nil, lineCap: .butt, lineJoin: .miter))
        }
        let d = "M0 -5a5 5 0 1 1 0 10a5 5 0 1 1 0 -10z"
        return MarkSpec(kind: .path, role: .offLabel,
                        path: MarkPath(d: d, data: (try? PathData(parsing: d)) ?? PathData(segments: []),
                                       viewBox: Rect(x: -5.5, y: -5.5, width: 11, height: 11), stroke: 1, lineCap: .butt, lineJoin: .miter))
    }
}

/// What a drawn checkbox shows in one state: a stack of parts — the fill, the ring, and marks
/// drawn over them in order.
public struct StateAppearance: Sendable, Equatable {
    /// The outlined box (a ring of `borderWidth`, drawn inside the box).
    public var ring: Bool
    /// The box filled with the `fill` colour.
    public var fill: Bool
    /// The marks, in drawing order; empty for none.
    public var marks: [MarkSpec]

    /// The first mark's kind (`none` when there is none).
    public var mark: MarkKind { marks.first?.kind ?? .none }

    public init(ring: Bool, fill: Bool, mark: MarkKind) {
        self.init(ring: ring, fill: fill, marks: mark == .none ? [] : [MarkSpec(kind: mark)])
    }

    public init(ring: Bool, fill: Bool, marks: [MarkSpec]) {
        self.ring = ring
        self.fill = fill
        self.marks = marks
    }

    public static func `default`(_ state: ControlState) -> StateAppearance {
        switch state {
        case .unchecked, .off: StateAppearance(ring: true, fill: false, mark: .none)
        case .checked, .on: StateAppearance(ring: false, fill: true, mark: .check)
        case .mixed: StateAppearance(ring: false, fill: true, mark: .dash)
        }
    }
}

/// One named base size with its geometry, in points at Dynamic Type `large`.
public struct SizeSpec: Sendable, Equatable {
    public var name: String
    /// Side of the box (checkbox) or of the image box (image checkbox).
    public var size: Double
    public var cornerRadius: Double
    public var borderWidth: Double
    /// Side of the square the tick or dash is drawn in.
    public var markSize: Double
    /// Stroke width of the tick or dash.
    public var markWeight: Double
    /// A switch's track; for an image switch, its image box (`size` × `size`, or `width` × `height`).
    public var trackWidth: Double
    public var trackHeight: Double
    public var knobDiameter: Double
    public var knobInset: Double
    /// The tick's and the dash's squares, when not `markSize`; a dot's diameter (default half the box).
    public var tickSize: Double? = nil
    public var dashSize: Double? = nil
    public var dotSize: Double? = nil
    /// A drawn switch's on-state geometry where it differs from off (a key written
    /// `{"off": …, "on": …}`); nil: as off (`knobDiameter`, `knobInset`, `borderWidth`).
    public var knobDiameterOn: Double? = nil
    public var knobInsetOn: Double? = nil
    public var borderWidthOn: Double? = nil
    /// A ring inside the knob's edge in the `knobBorder` colour (off, and on when `knobBorderWidthOn`
    /// is nil); 0: none.
    public var knobBorderWidth: Double = 0
    public var knobBorderWidthOn: Double? = nil

    /// A drawn switch's knob diameter in a state, at Dynamic Type `large`.
    public func knobDiameter(_ state: ControlState) -> Double { state == .on ? knobDiameterOn ?? knobDiameter : knobDiameter }
    /// A drawn switch's knob inset (from the track's end) in a state.
    public func knobInset(_ state: ControlState) -> Double { state == .on ? knobInsetOn ?? knobInset : knobInset }
    /// The track's ring (a switch) in a state; a checkbox's ring.
    public func borderWidth(_ state: ControlState) -> Double { state == .on ? borderWidthOn ?? borderWidth : borderWidth }
    /// The knob's ring in a state.
    public func knobBorderWidth(_ state: ControlState) -> Double { state == .on ? knobBorderWidthOn ?? knobBorderWidth : knobBorderWidth }

    /// The side of the square a mark of `kind` is drawn in, at Dynamic Type `large`.
    public func markSide(_ kind: MarkKind) -> Double {
        switch kind {
        case .check, .cross: tickSize ?? markSize
        case .dash: dashSize ?? markSize
        case .dot: dotSize ?? size * 0.5
        case .path, .image, .none: size
        }
    }
}

public enum FrameSpec: Sendable, Equatable {
    /// The frame hugs the glyph.
    case hug
    /// A fixed frame (points) the glyph is centred in; a larger glyph overflows it.
    case fixed(width: Double, height: Double)
    /// Fixed at the size's own box (SwiftUI `.frame(width: size, height: size)`): it does not follow Dynamic Type.
    case size
}

public enum HitAreaSpec: Sendable, Equatable {
    /// The control's frame.
    case frame
    /// The whole row: frame and label (a tap gesture on the stack).
    case row
    /// A fixed area centred on the frame.
    case fixed(width: Double, height: Double)
}

public enum LabelPosition: String, Sendable, Codable, CaseIterable {
    case leading, trailing
}

public struct LabelSpec: Sendable, Equatable {
    public var text: String
    public var textStyle: TextStyle
    /// A custom size at `large` that scales with `textStyle` (UIFontMetrics); nil = the style's own size.
    public var size: Double?
    public var spacing: Double
    public var maxWidth: Double?
    /// Where the label stands relative to the glyph (`trailing` = after it, like a checkbox; `leading` like a switch).
    public var position: LabelPosition

    public func points(_ dt: DynamicTypeSize) -> Double {
        if let size { return size * textStyle.scale(dt) }
        return textStyle.points(dt)
    }
}

public enum ColorRole: String, Sendable, CaseIterable, Codable {
    case surface, border, fill, mark, label, tint, trackOff, trackOn, knob
    /// A drawn switch's knob ring (`knobBorderWidth`).
    case knobBorder
    /// iOS's On/Off Labels (`onOffLabels`): the `|` on the on track and the `○` on the off track.
    case onLabel, offLabel
    /// The keyboard focus indicator (`focus`): a theme may set it; default iOS's systemBlue.
    case focus
}

/// The marks a drawn switch shows in one state: on the track, in the part the knob leaves free
/// (the leading side when on, the trailing side when off), and in the knob.
public struct SwitchMarks: Sendable, Equatable {
    public var track: [MarkSpec]
    public var knob: [MarkSpec]

    public init(track: [MarkSpec] = [], knob: [MarkSpec] = []) {
        self.track = track
        self.knob = knob
    }
}

/// An authored colour and where it came from (a literal or a token alias).
public struct AuthoredColor: Sendable, Equatable {
    /// The colour drawn: 8 bits per channel (a wide-gamut colour already mapped into sRGB).
    public var rgba: RGBA
    /// The token alias it was resolved from, e.g. `{color.brand.red}`.
    public var token: String?
    /// The spec line where it was written.
    public var line: Int?
    /// The token-file line of the token whose value (or Tokens Studio modifier) made the colour.
    public var tokenLine: Int?
    /// How the colour was obtained when it is not the value as written: e.g. `display-p3 (1, 0, 1)
    /// is outside sRGB; gamut-mapped (CSS Color 4) to #FF2BFB (clipping each channel would give
    /// #FF00FF)`. Contrast findings on the colour repeat it.
    public var note: String?
    /// The spec key that set it, as the loader read it: `themes.default.surface`, or a state's
    /// override `themes.default.states.checked.fill`; nil for a colour no spec key wrote.
    public var keyPath: String?
    /// The tokens the alias passed through, first to last (the last holds the value); empty for a literal.
    public var aliasChain: [String]
    /// The token file that holds the token the spec names, when it is not the spec's `tokens` file (a resolver's source).
    public var tokenFile: String? = nil
    /// The token-file line of each token of `aliasChain` (where its value is written).
    public var aliasLines: [Int]

    package init(rgba: RGBA, token: String? = nil, line: Int? = nil, tokenLine: Int? = nil, note: String? = nil,
                 keyPath: String? = nil, aliasChain: [String] = [], aliasLines: [Int] = []) {
        self.rgba = rgba
        self.token = token
        self.line = line
        self.tokenLine = tokenLine
        self.note = note
        self.keyPath = keyPath
        self.aliasChain = aliasChain
        self.aliasLines = aliasLines
    }
}

public struct ThemeSpec: Sendable, Equatable {
    public var name: String
    public var colors: [ColorRole: AuthoredColor]
    public var stateColors: [ControlState: [ColorRole: AuthoredColor]]
    /// Opacity applied to original-colour images (the disabled dimming); 1 = none.
    public var imageOpacity: Double
    /// The system appearance the theme shows (`"appearance"`), nil when the spec does not say.
    public var appearance: ThemeAppearance? = nil

    /// The colour of a role in a state: the state's override, else the theme's colour.
    public func color(_ role: ColorRole, state: ControlState) -> AuthoredColor? {
        stateColors[state]?[role] ?? colors[role]
    }

    /// Whether the theme is a dark appearance (an image set's dark image is drawn in it): as its
    /// `appearance` says; without one, when its surface is dark: its contrast against black is lower
    /// than against white (relative luminance below about 0.18, `#767676`'s neighbourhood).
    public var isDark: Bool {
        if let appearance { return appearance.isDark }
        guard let s = colors[.surface]?.rgba else { return false }
        let opaque = RGBA(r: s.r, g: s.g, b: s.b)
        return contrastRatio(opaque, .black) < contrastRatio(opaque, .white)
    }

    /// Whether the theme is a high-contrast appearance (Increase Contrast): only when its
    /// `appearance` says so, never by default.
    public var isHighContrast: Bool { appearance?.isHighContrast ?? false }
}

/// A theme's system appearance: which of an asset catalog image set's images it draws, and which
/// appearance of an exported image set it fills (luminosity, and contrast for the high-contrast ones).
public enum ThemeAppearance: String, Sendable, CaseIterable, Codable {
    case light, dark
    case lightHighContrast = "light-high-contrast"
    case darkHighContrast = "dark-high-contrast"

    /// Luminosity dark (`dark`, `dark-high-contrast`).
    public var isDark: Bool { self == .dark || self == .darkHighContrast }
    /// Contrast high (Increase Contrast).
    public var isHighContrast: Bool { self == .lightHighContrast || self == .darkHighContrast }
}

/// How an image fills its box, as UIImageView's `contentMode`.
public enum ImageContentMode: String, Sendable, CaseIterable, Codable {
    /// Scaled to fit, centred, keeping its aspect ratio (RVS_Checkbox's behaviour; the default).
    case aspectFit
    /// Stretched to fill the whole box, whatever its aspect ratio (UIKit's default for a UIImageView).
    case scaleToFill
}

/// The images of an image-based checkbox (RVS_Checkbox): `on`, `off`, and an optional `clear`.
public struct ImageSetSpec: Sendable {
    public var on: any VectorImage
    public var off: any VectorImage
    public var clear: (any VectorImage)?
    /// Template images are tinted with the theme's `tint`; others keep their colours.
    public var template: Bool
    public var threeState: Bool
    public var useOffImageForClear: Bool
    public var contentMode: ImageContentMode

    /// The image drawn for a state, with RVS_Checkbox's fallbacks: two-state mode always uses `off`
    /// for clear, `useOffImageForClear` uses `off`, and a missing clear image falls back to `off`.
    public func image(for state: ControlState) -> any VectorImage {
        switch state {
        case .checked, .on: return on
        case .unchecked, .off: return off
        case .mixed:
            if !threeState || useOffImageForClear { return off }
            return clear ?? off
        }
    }

    /// The spec key of one of these images: `on`, `off` or `clear`.
    public func key(of doc: any VectorImage) -> String {
        doc === on ? "on" : doc === off ? "off" : "clear"
    }

    /// The spec key of the image drawn for a state (`mixed` may draw `off`).
    public func key(for state: ControlState) -> String { key(of: image(for: state)) }
}

/// One control, fully resolved: every token replaced by its value, every image parsed.
public struct Spec: Sendable {
    public var name: String
    public var description: String
    public var control: ControlKind
    public var shapes: [GlyphShape]
    public var sizes: [SizeSpec]
    /// The text style the glyph follows, if any.
    public var glyphTextStyle: TextStyle?
    /// Whether the glyph grows with Dynamic Type (`pt(style, size) / pt(style, large)`).
    public var glyphScales: Bool
    public var frame: FrameSpec
    public var hitArea: HitAreaSpec
    /// Spacing to neighbouring targets that earns WCAG 2.5.8's spacing exception, if declared.
    public var targetSpacing: Double?
    public var label: LabelSpec?
    public var states: [ControlState]
    public var appearance: [ControlState: StateAppearance]
    public var images: ImageSetSpec?
    public var themes: [ThemeSpec]
    public var scales: [Int]
    public var dynamicTypeSizes: [DynamicTypeSize]
    /// The file the spec was read from (nil for an in-memory spec).
    public var sourceFile: String?
    /// The token file it loaded, if any.
    public var tokenFile: String?
    /// Line numbers of key paths in the spec file (`themes.default.border` → 42), for reports.
    public var lines: [String: Int]
    /// What loading it noticed but did not refuse (a `$deprecated` token, an image scale made from
    /// another), each located like an error; the tool prints them as warnings.
    public var warnings: [InputError] = []
    /// A drawn switch's marks per state (`appearance.on.trackMark`, `…knobMark`).
    public var switchMarks: [ControlState: SwitchMarks] = [:]
    /// A drawn switch draws iOS's On/Off Labels (`"onOffLabels": true`).
    public var onOffLabels: Bool = false
    /// The keyboard focus indicator (`"focus"`); nil: no focused variants.
    public var focus: FocusSpec? = nil
    /// The display settings the spec renders besides the default (`settings`), in the spec's order.
    public var settings: [DisplaySetting] = []
    /// Each setting's derived spec (its patch merged over this spec's JSON).
    public var settingSpecs: [DisplaySetting: Spec] = [:]
    /// A derived spec's base: the spec without the setting (nil for a spec as written).
    public var settingBase: SpecBase? = nil
    /// Draw marks mirrored in a right-to-left layout (`mirrorsInRightToLeft`); iOS does not mirror a checkmark.
    public var mirrorsInRightToLeft: Bool = false
    /// Every value the spec file wrote, by key path (`sizes.sm.markWeight` → `1.5`, arrays as
    /// `scales[0]`), as the loader read it: what fed the variants, for the snapshot manifest
    /// (`SpecInputs`). Empty for a spec built in memory.
    public var writtenKeys: [String: String] = [:]

    public func appearance(_ state: ControlState) -> StateAppearance {
        appearance[state] ?? .default(state)
    }

    /// The spec line of `keyPath`, else of the closest parent key written in the spec.
    public func line(of keyPath: String) -> Int? {
        var path = keyPath
        while lines[path] == nil, let dot = path.lastIndex(of: ".") { path = String(path[..<dot]) }
        return lines[path] ?? lines[keyPath]
    }
}
