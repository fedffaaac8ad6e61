import Foundation
import GlyphColor

/// Where a colour came from: the spec key that set it, its file and line, and for a token alias
/// the token file, the chain of tokens the alias passed through and the line of the one that made
/// the value. The loader records it as it reads the colour; nothing after it rebuilds it.
public struct ColorSource: Sendable, Equatable {
    /// The spec file (or the spec's name, for an in-memory spec).
    public var file: String
    /// `themes.default.surface`, or a state's override `themes.default.states.checked.fill`.
    public var keyPath: String?
    /// The spec line where the colour was written (else of the closest parent key).
    public var line: Int?
    /// The alias as written, e.g. `{color.brand.red}`; nil for a literal colour.
    public var token: String?
    /// The tokens the alias passed through, first to last.
    public var aliasChain: [String]
    /// The token-file line of each token of `aliasChain`: the first is the token the spec names.
    public var aliasLines: [Int] = []
    /// The colour the alias resolved to, as drawn (`#RRGGBB`, `#RRGGBBAA`); nil for a literal colour.
    public var value: String?
    public var tokenFile: String?
    /// The token-file line of the token whose value (or Tokens Studio modifier) made the colour.
    public var tokenLine: Int?

    public init(file: String, keyPath: String? = nil, line: Int? = nil, token: String? = nil, aliasChain: [String] = [],
                tokenFile: String? = nil, tokenLine: Int? = nil) {
        self.file = file
        self.keyPath = keyPath
        self.line = line
        self.token = token
        self.aliasChain = aliasChain
        self.tokenFile = tokenFile
        self.tokenLine = tokenLine
    }

    /// The source of a colour of `spec`, from what the loader recorded with it.
    init(_ color: AuthoredColor, in spec: Spec) {
        self.init(file: spec.sourceFile ?? spec.name, keyPath: color.keyPath,
                  line: color.line ?? color.keyPath.flatMap { spec.line(of: $0) })
        if let token = color.token {
            self.token = token
            aliasChain = color.aliasChain
            aliasLines = color.aliasLines
            value = color.rgba.hex
            tokenFile = color.tokenFile ?? spec.tokenFile
            tokenLine = color.tokenLine
        }
    }
}

/// A part's colour: as authored, and as seen over what lies beneath it (the surface over white,
/// a ring over the fill it is drawn on, a knob over its track). The composite is computed here, once.
public struct SceneColor: Sendable, Equatable {
    /// The colour drawn, 8 bits per channel, alpha included.
    public var authored: RGBA
    /// `authored` composited over the seen colour of the part beneath it (opaque when that is).
    public var seen: RGBA
    /// How the colour was obtained when it is not the value as written (a wide-gamut colour mapped into sRGB).
    public var note: String?
    public var source: ColorSource

    public init(authored: RGBA, seen: RGBA, note: String? = nil, source: ColorSource) {
        self.authored = authored
        self.seen = seen
        self.note = note
        self.source = source
    }
}

/// An image a part draws: the image of the variant's state, and how it is drawn.
public struct SceneImage: Sendable {
    /// The image (an `ImageAsset` picks its file by scale and appearance when drawn).
    public var asset: any VectorImage
    /// Its spec key: `on`, `off` or `clear`; an image mark's `image`.
    public var key: String
    /// A template image: only its coverage counts, painted in the part's colour (the tint).
    public var template: Bool
    /// Opacity of an original-colour image (the disabled dimming); 1 = none.
    public var opacity: Double
    /// `scaleToFill`: stretched to the part's rect on each axis.
    public var stretch: Bool
    /// The theme is dark: an image set's dark image is drawn.
    public var dark: Bool
    /// Where the image was named: `images.on`, `images.off` or `images.clear` (an image mark's
    /// `appearance.checked.mark[0].image`), with its line.
    public var source: ColorSource
    /// The theme is high contrast: an image set's high-contrast image is drawn.
    public var highContrast: Bool = false

    /// The image as drawn at a display scale, in the theme's appearance.
    public func drawn(scale: Int) -> any VectorImage {
        if let asset = asset as? ImageAsset { return asset.drawn(scale: scale, dark: dark, highContrast: highContrast) }
        return asset.drawn(scale: scale, dark: dark)
    }
}

/// One drawn piece of a variant: its geometry in points, its colour and where that came from.
public struct ScenePart: Sendable {
    public enum Kind: String, Sendable, CaseIterable {
        /// The theme's surface, under everything (the canvas).
        case surface
        /// A checkbox's filled box.
        case fill
        /// A checkbox's outlined box (a ring of `lineWidth`, inside `rect`).
        case ring
        /// A mark: the tick, dash or cross (a stroke of `lineWidth` in the square `rect`), a dot (a
        /// disc filling `rect`), a path (`path`, fitted into `rect`) or an image (`image`, fitted
        /// into `rect`; `color` nil when it is drawn in its own colours).
        case mark
        /// A switch's track (a capsule).
        case track
        /// A switch track's border (a stroke of `lineWidth`, inside the track).
        case border
        /// A switch's knob (a circle in `rect`).
        case knob
        /// A switch knob's border (a stroke of `lineWidth`, inside the knob's edge).
        case knobBorder
        /// An image checkbox's or image switch's image (`image`).
        case image
        /// The label (`label`).
        case label
        /// A focused variant's focus indicator (a ring of `lineWidth`, inside `rect`, around the
        /// glyph or the frame; `FocusRing`).
        case focus
    }

    public var kind: Kind
    /// What messages call it: `surface`, `fill`, `ring`, `tick`, `dash`, `off track`, `on track`,
    /// `border`, `knob`, `image tint`, `image`, `label`.
    public var name: String
    /// The spec's colour role that paints it.
    public var role: ColorRole
    /// Its box in canvas points: the canvas, the checkbox box, the mark's square, the track, the
    /// knob, the rect an image is drawn into, the label's logical box.
    public var rect: Rect
    public var cornerRadius: Double
    /// The stroke width of a ring, border or mark; 0 for a filled part.
    public var lineWidth: Double
    public var shape: GlyphShape
    /// What a mark part draws.
    public var mark: MarkKind
    /// Nil for an image drawn in its own colours.
    public var color: SceneColor?
    /// The part it is drawn on (nil for the surface).
    public var beneath: Kind?
    public var image: SceneImage?
    public var label: LabelLayout?
    /// A path mark's path data, drawn fitted into `rect`.
    public var path: MarkPath?
    /// A mark drawn mirrored left to right in its rect (right-to-left with `mirrorsInRightToLeft`).
    public var mirrored: Bool = false

    init(_ kind: Kind, name: String, role: ColorRole, rect: Rect, cornerRadius: Double = 0, lineWidth: Double = 0,
         shape: GlyphShape = .square, mark: MarkKind = .none, color: SceneColor?, beneath: Kind?,
         image: SceneImage? = nil, label: LabelLayout? = nil, path: MarkPath? = nil) {
        self.kind = kind
        self.name = name
        self.role = role
        self.rect = rect
        self.cornerRadius = cornerRadius
        self.lineWidth = lineWidth
        self.shape = shape
        self.mark = mark
        self.color = color
        self.beneath = beneath
        self.image = image
        self.label = label
        self.path = path
    }
}

extension MarkKind {
    /// What messages call a mark of this kind.
    public var partName: String {
        switch self {
        case .check: "tick"
        case .dash: "dash"
        case .dot: "dot"
        case .cross: "cross"
        case .path: "mark"
        case .image: "image mark"
        case .none: "mark"
        }
    }
}

/// Everything one variant draws, resolved once from the spec, the variant and its layout: each part
/// with its geometry, its colour as authored and as seen, and where that colour came from. The
/// renderer draws from it and the rules measure it; nothing after it looks a theme up by name.
/// (Shaped like usvg's `Tree`: parse and resolve, then render from the tree only.)
public struct Scene: Sendable {
    public var variant: Variant
    public var control: ControlKind
    /// The whole canvas, origin (0, 0).
    public var canvas: Rect
    /// The parts in drawing order: surface; fill, ring, mark (checkbox) or track, border, knob
    /// (switch) or image; label.
    public var parts: [ScenePart]
    /// Where the variant's theme was written (`themes.default`, with its line).
    public var themeSource: ColorSource

    /// Resolves what `variant` (laid out as `layout`) draws. A variant whose theme the spec does not
    /// have draws nothing.
    public init(spec: Spec, layout: Layout) {
        let v = layout.variant
        variant = v
        control = spec.control
        canvas = layout.canvas
        parts = []
        let file = spec.sourceFile ?? spec.name
        func source(_ keyPath: String) -> ColorSource { ColorSource(file: file, keyPath: keyPath, line: spec.line(of: keyPath)) }
        themeSource = source("themes.\(v.theme)")
        guard let theme = spec.theme(named: v.theme) else { return }

        /// A part's colour seen over the part beneath it (the surface over white).
        func color(_ role: ColorRole, over beneath: ScenePart?) -> SceneColor? {
            theme.color(role, state: v.state).map { Scene.color($0, over: beneath?.color?.seen ?? .white, in: spec) }
        }

        let surface = color(.surface, over: nil).map {
            ScenePart(.surface, name: "surface", role: .surface, rect: layout.canvas, color: $0, beneath: nil)
        }
        if let surface { parts.append(surface) }

        if let images = spec.images {
            if let rect = layout.image {
                let doc = images.image(for: v.state)
                let tint = images.template ? color(.tint, over: surface) : nil
                let key = images.key(of: doc)
                let image = SceneImage(asset: doc, key: key, template: images.template, opacity: theme.imageOpacity,
                                       stretch: images.contentMode == .scaleToFill, dark: theme.isDark, source: source("images.\(key)"),
                                       highContrast: theme.isHighContrast)
                parts.append(ScenePart(.image, name: tint != nil ? "image tint" : "image", role: .tint, rect: rect,
                                       color: tint, beneath: .surface, image: image))
            }
        } else if spec.control == .switch {
            let on = v.state == .on
            let track = color(on ? .trackOn : .trackOff, over: surface).map {
                ScenePart(.track, name: on ? "on track" : "off track", role: on ? .trackOn : .trackOff, rect: layout.glyph,
                          cornerRadius: layout.glyph.height / 2, color: $0, beneath: .surface)
            }
            if let track { parts.append(track) }
            let under = track ?? surface
            if layout.borderWidth > 0, let c = color(.border, over: under) {
                parts.append(ScenePart(.border, name: "border", role: .border, rect: layout.glyph, cornerRadius: layout.glyph.height / 2,
                                       lineWidth: layout.borderWidth, color: c, beneath: under?.kind))
            }
            let marks = spec.switchMarks[v.state] ?? SwitchMarks()
            // Track marks, then iOS's On/Off Label of the state (unless the state has its own track mark).
            if let track, let knob = layout.knob {
                for mark in marks.track {
                    guard let c = color(mark.role, over: track) else { continue }
                    parts.append(Scene.switchMark(mark, rect: Scene.trackMarkRect(mark, track: track.rect, knob: knob, on: on, k: layout.glyphScale),
                                                  name: "track \(mark.kind.partName)", weight: layout.markWeight, color: c, beneath: .track))
                }
                if spec.onOffLabels, marks.track.isEmpty {
                    let label = MarkSpec.onOffLabel(on: on)
                    if let c = color(label.role, over: track) {
                        parts.append(Scene.switchMark(label, rect: Scene.onOffLabelRect(track: track.rect, on: on, rightToLeft: v.setting == .rightToLeft),
                                                      name: on ? "on label" : "off label", weight: 0, color: c, beneath: .track))
                    }
                }
            }
            if let knob = layout.knob, let c = color(.knob, over: under) {
                let knobPart = ScenePart(.knob, name: "knob", role: .knob, rect: knob, shape: .circle, color: c, beneath: under?.kind)
                parts.append(knobPart)
                if layout.knobBorderWidth > 0, let b = color(.knobBorder, over: knobPart) {
                    parts.append(ScenePart(.knobBorder, name: "knob border", role: .knobBorder, rect: knob, lineWidth: layout.knobBorderWidth,
                                           shape: .circle, color: b, beneath: .knob))
                }
                for mark in marks.knob {
                    guard let mc = color(mark.role, over: knobPart) else { continue }
                    let side = mark.size?.side(box: knob.width, k: layout.glyphScale) ?? knob.width * Scene.knobMarkShare
                    parts.append(Scene.switchMark(mark, rect: knob.centred(width: side, height: side), name: "knob \(mark.kind.partName)",
                                                  weight: layout.markWeight, color: mc, beneath: .knob))
                }
            }
        } else {
            let a = layout.appearance
            let fill = a.fill ? color(.fill, over: surface).map {
                ScenePart(.fill, name: "fill", role: .fill, rect: layout.glyph, cornerRadius: layout.cornerRadius, shape: v.shape,
                          color: $0, beneath: .surface)
            } : nil
            if let fill { parts.append(fill) }
            let under = fill ?? surface
            if a.ring, layout.borderWidth > 0, let c = color(.border, over: under) {
                parts.append(ScenePart(.ring, name: "ring", role: .border, rect: layout.glyph, cornerRadius: layout.cornerRadius,
                                       lineWidth: layout.borderWidth, shape: v.shape, color: c, beneath: under?.kind))
            }
            if let size = spec.size(named: v.size) {
                for mark in a.marks {
                    let c = color(mark.role, over: under)
                    guard c != nil || !mark.usesRole else { continue }
                    let side = mark.size?.side(box: layout.glyph.width, k: layout.glyphScale) ?? size.markSide(mark.kind) * layout.glyphScale
                    // The tick and dash keep the layout's square (markSize) unless they have their own.
                    let useLayout = mark.size == nil && size.markSide(mark.kind) == size.markSize && ![.dot, .path, .image].contains(mark.kind)
                    let rect = useLayout ? (layout.mark ?? layout.glyph.centred(width: side, height: side))
                        : layout.glyph.centred(width: side, height: side)
                    let width = [.path, .dot, .image].contains(mark.kind) ? 0 : layout.markWeight
                    let image = mark.image.map { doc in
                        let key = (mark.keyPath ?? "appearance.\(v.state.rawValue).mark") + ".image"
                        return SceneImage(asset: doc, key: "image", template: mark.template,
                                          opacity: mark.template ? 1 : theme.imageOpacity, stretch: false, dark: theme.isDark,
                                          source: source(key))
                    }
                    parts.append(ScenePart(.mark, name: mark.kind.partName, role: mark.role, rect: rect, lineWidth: width,
                                           shape: mark.kind == .dot ? .circle : .square, mark: mark.kind,
                                           color: mark.usesRole ? c : nil, beneath: under?.kind, image: image, path: mark.path))
                }
            }
        }

        if v.setting == .rightToLeft, spec.mirrorsInRightToLeft {
            for i in parts.indices where parts[i].kind == .mark { parts[i].mirrored = true }
        }
        if let label = layout.label, let c = color(.label, over: surface) { parts.append(Scene.labelPart(label, c)) }

        if v.focused, let focus = spec.focus, let ring = Scene.focusRing(spec: spec, layout: layout) {
            let c: SceneColor?
            switch focus.paint {
            case let .role(role): c = color(role, over: surface)
            case let .color(a):
                let under = surface?.color?.seen ?? .white
                c = SceneColor(authored: a.rgba, seen: a.rgba.composited(over: under), note: a.note, source: ColorSource(a, in: spec))
            }
            if let c {
                let role: ColorRole = if case let .role(r) = focus.paint { r } else { .focus }
                parts.append(ScenePart(.focus, name: "focus indicator", role: role, rect: ring.outer, cornerRadius: ring.outerRadius,
                                       lineWidth: ring.width, shape: ring.circle ? .circle : .square, color: c, beneath: .surface))
            }
        }
    }

    /// An authored colour as a part draws it, seen over `under`.
    static func color(_ c: AuthoredColor, over under: RGBA, in spec: Spec) -> SceneColor {
        SceneColor(authored: c.rgba, seen: c.rgba.composited(over: under), note: c.note, source: ColorSource(c, in: spec))
    }

    static func labelPart(_ label: LabelLayout, _ color: SceneColor) -> ScenePart {
        ScenePart(.label, name: "label", role: .label, rect: label.box, color: color, beneath: .surface, label: label)
    }

    /// The label part of the scene `spec` and `layout` make (`Scene(spec:layout:).label`), without
    /// resolving the rest: the pass across components reads every variant's label only.
    public static func label(spec: Spec, layout: Layout) -> ScenePart? {
        let v = layout.variant
        guard let label = layout.label, let theme = spec.theme(named: v.theme), let c = theme.color(.label, state: v.state) else { return nil }
        let surface = theme.color(.surface, state: v.state).map { $0.rgba.composited(over: .white) } ?? .white
        return labelPart(label, color(c, over: surface, in: spec))
    }

    /// A switch mark's default side: half the track's height on the track, two thirds of the knob in
    /// the knob (Material 3: a 16 px icon in the 24 px handle).
    public static let trackMarkShare = 0.5
    public static let knobMarkShare = 2.0 / 3

    /// A mark on a switch: its kind's drawing (the same as a checkbox's marks) in `rect`; a tick,
    /// dash or cross stroked `weight` wide (the size's `markWeight`), else 16 % of its side.
    static func switchMark(_ mark: MarkSpec, rect: Rect, name: String, weight: Double, color: SceneColor,
                           beneath: ScenePart.Kind) -> ScenePart {
        let stroked = mark.kind == .check || mark.kind == .dash || mark.kind == .cross
        return ScenePart(.mark, name: name, role: mark.role, rect: rect, lineWidth: stroked ? (weight > 0 ? weight : 0.16 * rect.width) : 0,
                         shape: mark.kind == .dot ? .circle : .square, mark: mark.kind, color: color, beneath: beneath, path: mark.path)
    }

    /// A track mark's square: centred in the part of the track the knob leaves free (before the
    /// knob when on, after it when off), its side the mark's `size` (a percentage of the track's height) or half the track's height.
    public static func trackMarkRect(_ mark: MarkSpec, track: Rect, knob: Rect, on: Bool, k: Double) -> Rect {
        let side = mark.size?.side(box: track.height, k: k) ?? track.height * trackMarkShare
        // The part of the track the knob leaves free (the knob's side says it: a right-to-left layout mirrors it).
        let knobAtRight = knob.midX > track.midX
        let free = knobAtRight ? Rect(x: track.minX, y: track.minY, width: max(0, knob.minX - track.minX), height: track.height)
            : Rect(x: knob.maxX, y: track.minY, width: max(0, track.maxX - knob.maxX), height: track.height)
        return free.centred(width: side, height: side)
    }

    /// Where iOS draws its On/Off Labels, in a 51 × 31 pt track (Flutter's `CupertinoSwitch`, whose
    /// numbers were read off Xcode's view inspector; Apple publishes none): the `|` 1 × 10 pt, centred
    /// 11 pt from the track's leading end; the `○` a 1 pt ring of radius 5 pt (to the stroke's
    /// middle), centred 12 pt from its trailing end. Other tracks scale them by the track's height.
    public static func onOffLabelRect(track: Rect, on: Bool, rightToLeft: Bool = false) -> Rect {
        let u = track.height / 31
        let ltr = on ? track.minX + 11 * u : track.maxX - 12 * u
        // Right to left, mirrored about the track's middle (the knob is mirrored too).
        let cx = rightToLeft ? track.minX + track.maxX - ltr : ltr
        let side = (on ? 10 : 11) * u
        return Rect(x: cx - side / 2, y: track.midY - side / 2, width: side, height: side)
    }

    /// The focus ring of a focused variant of `spec` laid out as `layout` (nil: the spec has no `focus`):
    /// around the glyph (a circle around a circular box, a capsule around a switch's track) or the frame.
    public static func focusRing(spec: Spec, layout: Layout) -> FocusRing? {
        guard let focus = spec.focus else { return nil }
        let circle = spec.control == .checkbox && spec.images == nil && layout.variant.shape == .circle
        switch focus.around {
        case .glyph:
            return FocusRing(around: layout.glyph, radius: layout.cornerRadius, circle: circle, focus: focus)
        case .frame:
            let same = layout.frame == layout.glyph
            return FocusRing(around: layout.frame, radius: same ? layout.cornerRadius : 0, circle: same && circle, focus: focus)
        }
    }

    /// The part of a kind, if the variant draws one.
    public func part(_ kind: ScenePart.Kind) -> ScenePart? { parts.first { $0.kind == kind } }

    public var surface: ScenePart? { part(.surface) }
    /// The surface as seen (over white); white when the theme has none.
    public var surfaceSeen: RGBA { surface?.color?.seen ?? .white }
    public var label: ScenePart? { part(.label) }
    public var focus: ScenePart? { part(.focus) }
    public var image: ScenePart? { part(.image) }

    /// The part `part` is drawn on.
    public func beneath(_ part: ScenePart) -> ScenePart? { part.beneath.flatMap { self.part($0) } }

    /// Pixel size of the canvas at the variant's display scale.
    public var pixelWidth: Int { Int((canvas.width * Double(variant.scale)).rounded(.up)) }
    public var pixelHeight: Int { Int((canvas.height * Double(variant.scale)).rounded(.up)) }
}
