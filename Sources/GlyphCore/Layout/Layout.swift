import Foundation

/// A label placed in the row.
public struct LabelLayout: Sendable, Equatable {
    public var text: String
    public var points: Double
    public var bold: Bool
    /// The layout's logical box (where pango puts the text), in canvas points.
    public var box: Rect
    /// Where pango puts the text's ink, in canvas points: the whole text, also the part that a
    /// `maxWidth` cuts off (the clipping audit measures it against `frame`).
    public var ink: Rect
    /// The box the label may occupy: its logical box, cut to `maxWidth`.
    public var frame: Rect
    /// With a `maxWidth`, the label is drawn clipped to its frame (the text is cut there, as a
    /// fixed-width label on iOS cuts it); nil when the label is drawn whole.
    public var clip: Rect?

    /// The ink that is drawn: `ink`, cut to `clip`.
    public var visibleInk: Rect? {
        guard let clip else { return ink }
        return ink.intersection(clip)
    }
}

/// Vector geometry of one variant in points: everything the renderer draws and the audits measure.
public struct Layout: Sendable {
    public static let margin = 4.0
    public static let maxCanvasPixels = 4096

    public var variant: Variant
    /// The whole canvas, origin (0, 0).
    public var canvas: Rect
    /// The control's frame (fixed, or hugging the glyph).
    public var frame: Rect
    /// The glyph's box: the checkbox box, the switch track, or the image box (image checkbox or switch).
    public var glyph: Rect
    /// The rect an image is drawn into (image checkboxes and switches): aspect-fit and centred in the glyph box,
    /// or the whole glyph box with `contentMode` `scaleToFill` (the image is stretched to it).
    public var image: Rect?
    /// The square the tick or dash is drawn in.
    public var mark: Rect?
    /// The switch knob (a drawn switch; an image switch has none).
    public var knob: Rect?
    public var label: LabelLayout?
    public var hitArea: Rect
    /// How much the glyph grew with Dynamic Type (1 when it stays fixed).
    public var glyphScale: Double
    public var cornerRadius: Double
    public var borderWidth: Double
    /// A drawn switch's knob ring in this state (0: none).
    public var knobBorderWidth: Double
    public var markWeight: Double
    public var appearance: StateAppearance
    /// How many points a focused variant's canvas grew on each side for its ring (0 unfocused).
    public var focusPadding: Double = 0

    /// The whole points a focused canvas grows on each side: what the ring reaches past the margin.
    public static func focusPadding(_ focus: FocusSpec?) -> Double {
        guard let focus else { return 0 }
        return max(0, (focus.outset - margin).rounded(.up))
    }

    /// Pixel size of the canvas at the variant's display scale.
    public var pixelWidth: Int { Int((canvas.width * Double(variant.scale)).rounded(.up)) }
    public var pixelHeight: Int { Int((canvas.height * Double(variant.scale)).rounded(.up)) }

    /// Lays out one variant. Throws when the canvas would exceed 4096 px on a side.
    public init(spec: Spec, variant v: Variant, text: any TextMeasuring) throws(InputError) {
        guard let size = spec.size(named: v.size) else {
            throw InputError(file: spec.sourceFile ?? spec.name, keyPath: "sizes", message: "no size named \(v.size)")
        }
        let s = Double(v.scale)
        func snap(_ value: Double) -> Double { (value * s).rounded() / s }

        variant = v
        appearance = spec.appearance(v.state)
        let k = spec.glyphScales ? (spec.glyphTextStyle ?? .body).scale(v.dynamicType) : 1
        glyphScale = k

        // Glyph box size: a switch's track, or an image switch's image box (`size` square, or
        // `width` × `height`), both kept as the size's track; a checkbox's box or image box.
        let glyphSize: (w: Double, h: Double)
        if spec.control == .switch {
            glyphSize = (size.trackWidth * k, size.trackHeight * k)
        } else {
            glyphSize = (size.size * k, size.size * k)
        }
        let drawnSwitch = spec.control == .switch && spec.images == nil
        cornerRadius = (drawnSwitch ? size.trackHeight / 2 : size.cornerRadius) * k
        borderWidth = (drawnSwitch ? size.borderWidth(v.state) : size.borderWidth) * k
        knobBorderWidth = drawnSwitch ? size.knobBorderWidth(v.state) * k : 0
        markWeight = size.markWeight * k
        // A drawn switch's knob may be taller than its track (then the frame that hugs it holds the knob too).
        let knobExtent = drawnSwitch ? spec.states.map { size.knobDiameter($0) }.max().map { $0 * k } ?? 0 : 0

        let frameSize: (w: Double, h: Double)
        switch spec.frame {
        case .hug: frameSize = (glyphSize.w, max(glyphSize.h, knobExtent))
        case let .fixed(w, h): frameSize = (w, h)
        case .size: frameSize = (glyphSize.w / k, glyphSize.h / k)
        }

        // The row, before it is moved onto the canvas: frame and label side by side, centred vertically.
        var labelMetrics: TextMetrics?
        var labelPoints = 0.0
        if let l = spec.label {
            labelPoints = l.points(v.dynamicType)
            labelMetrics = text.measure(l.text, points: labelPoints, bold: Layout.bold(l, v))
        }
        let rowHeight = max(frameSize.h, labelMetrics?.height ?? 0)
        var frameX = 0.0
        var labelX = 0.0
        if let l = spec.label, let m = labelMetrics {
            let labelWidth = min(m.width, l.maxWidth ?? .infinity)
            if Layout.position(l, v) == .trailing {
                labelX = frameSize.w + l.spacing
            } else {
                frameX = labelWidth + l.spacing
            }
        }
        var frame = Rect(x: frameX, y: (rowHeight - frameSize.h) / 2, width: frameSize.w, height: frameSize.h)
        var glyph = frame.centred(width: glyphSize.w, height: glyphSize.h)
        var labelBox: Rect?
        if let m = labelMetrics {
            labelBox = Rect(x: labelX, y: (rowHeight - m.height) / 2, width: m.width, height: m.height)
        }

        // Everything that is drawn, plus a margin, so overflow is on the canvas. A label with a
        // `maxWidth` is drawn cut to it, so only that part takes room.
        var glyphPart = frame.union(glyph)
        if knobExtent > glyphSize.h { glyphPart = glyphPart.union(glyph.centred(width: glyphSize.w, height: knobExtent)) }
        var labelPart: Rect?
        if let l = spec.label, let box = labelBox, let m = labelMetrics {
            let ink = m.ink.offsetBy(dx: box.x, dy: box.y)
            if let maxWidth = l.maxWidth {
                let allowed = Rect(x: box.x, y: box.y, width: min(box.width, maxWidth), height: box.height)
                labelPart = ink.intersection(allowed).map { allowed.union($0) } ?? allowed
            } else {
                labelPart = box.union(ink)
            }
        }
        let content = labelPart.map { glyphPart.union($0) } ?? glyphPart
        // A focused variant's canvas grows by whole points on every side when its ring reaches past
        // the margin: everything else lies where it lies unfocused, moved by whole pixels.
        focusPadding = v.focused ? Layout.focusPadding(spec.focus) : 0
        let margin = Layout.margin + focusPadding
        let dx = margin - content.minX
        let dy = margin - content.minY
        frame = frame.offsetBy(dx: dx, dy: dy)
        frame.x = snap(frame.x)
        frame.y = snap(frame.y)
        glyph = frame.centred(width: glyphSize.w, height: glyphSize.h)
        glyph.x = snap(glyph.x)
        glyph.y = snap(glyph.y)
        self.frame = frame
        self.glyph = glyph
        canvas = Rect(x: 0, y: 0, width: (content.width + 2 * Layout.margin).rounded(.up) + 2 * focusPadding,
                      height: (content.height + 2 * Layout.margin).rounded(.up) + 2 * focusPadding)

        if let l = spec.label, var box = labelBox, let m = labelMetrics {
            box = box.offsetBy(dx: dx, dy: dy)
            box.x = snap(box.x)
            box.y = snap(box.y)
            var allowed = box
            if let maxWidth = l.maxWidth { allowed.width = min(box.width, maxWidth) }
            label = LabelLayout(text: l.text, points: labelPoints, bold: Layout.bold(l, v), box: box,
                                ink: m.ink.offsetBy(dx: box.x, dy: box.y), frame: allowed,
                                clip: l.maxWidth == nil ? nil : allowed)
        } else {
            label = nil
        }

        if let images = spec.images {
            switch images.contentMode {
            case .aspectFit:
                // As wide as the box when the image is wider than the box (in aspect), else as tall;
                // the box is square except for an image switch's `width` × `height`.
                let a = images.image(for: v.state).aspectRatio
                let wider = a >= glyph.width / glyph.height
                let w = wider ? glyph.width : glyph.height * a
                let h = wider ? glyph.width / a : glyph.height
                image = glyph.centred(width: w, height: h)
            case .scaleToFill:
                image = glyph
            }
            mark = nil
        } else if spec.control == .checkbox {
            image = nil
            mark = glyph.centred(width: size.markSize * k, height: size.markSize * k)
        } else {
            image = nil
            mark = nil
        }

        if drawnSwitch {
            let d = size.knobDiameter(v.state) * k
            let inset = size.knobInset(v.state) * k
            // On: the knob at the trailing end — the right, or the left in a right-to-left layout
            // (UISwitch mirrors there).
            let atRight = (v.state == .on) != (v.setting == .rightToLeft)
            let cx = atRight ? glyph.maxX - inset - d / 2 : glyph.minX + inset + d / 2
            knob = Rect(x: cx - d / 2, y: glyph.midY - d / 2, width: d, height: d)
        } else {
            knob = nil
        }

        switch spec.hitArea {
        case .frame: hitArea = frame
        case .row: hitArea = label.map { frame.union($0.frame) } ?? frame
        case let .fixed(w, h): hitArea = frame.centred(width: w, height: h)
        }

        if pixelWidth > Layout.maxCanvasPixels || pixelHeight > Layout.maxCanvasPixels {
            let (keyPath, cause) = Layout.canvasCause(spec: spec, size: size, variant: v, glyphPart: glyphPart,
                                                      glyphSize: glyphSize, frameSize: frameSize, labelPart: labelPart,
                                                      labelPoints: labelPoints, wide: pixelWidth > Layout.maxCanvasPixels)
            // The line of the key, else of the closest parent key written in the spec.
            throw InputError(file: spec.sourceFile ?? spec.name, keyPath: keyPath, line: spec.line(of: keyPath),
                             message: "variant \(v.id) would need a \(pixelWidth) × \(pixelHeight) px canvas; "
                                 + "the limit is \(Layout.maxCanvasPixels) px on a side: \(cause)")
        }
    }

    /// Whether the label is set in the bold face: its style's own, or Bold Text's.
    static func bold(_ l: LabelSpec, _ v: Variant) -> Bool { l.textStyle.isBold || v.setting == .boldText }

    /// Where the label stands: right-to-left swaps leading and trailing (the label moves to the other side).
    static func position(_ l: LabelSpec, _ v: Variant) -> LabelPosition {
        guard v.setting == .rightToLeft else { return l.position }
        return l.position == .trailing ? .leading : .trailing
    }

    /// Which key makes the canvas too wide (`wide`) or too tall, and why, in words.
    private static func canvasCause(spec: Spec, size: SizeSpec, variant v: Variant, glyphPart: Rect,
                                    glyphSize: (w: Double, h: Double), frameSize: (w: Double, h: Double), labelPart: Rect?,
                                    labelPoints: Double, wide: Bool) -> (String, String) {
        let s = Double(v.scale)
        let limit = Double(maxCanvasPixels)
        func pt(_ x: Double) -> String { String(format: "%.1f pt", x) }
        let at = "at \(v.dynamicType.short) @\(v.scale)x"
        // The glyph and its frame alone too large already, or the larger part of a canvas the label
        // shares (a 1000 pt glyph beside a 137 pt label is the glyph's fault).
        let glyphExtent = (wide ? glyphPart.width : glyphPart.height) + 2 * margin
        let labelShare = labelPart.map { wide ? $0.width : $0.height } ?? 0
        if glyphExtent * s > limit || labelPart == nil || glyphExtent >= labelShare {
            let p = "sizes.\(size.name)"
            let grows = spec.glyphScales ? ", growing with Dynamic Type" : ""
            let glyph = wide ? glyphSize.w : glyphSize.h
            let frame = wide ? frameSize.w : frameSize.h
            if frame > glyph, case .fixed = spec.frame {
                return ("frame.\(wide ? "width" : "height")", "the frame is \(pt(frame)) \(wide ? "wide" : "tall") (lower it or the scales)")
            }
            let key: String
            if spec.control == .switch, spec.images != nil {
                // An image switch's box: `size`, or the `width` / `height` it was given.
                key = spec.lines["\(p).size"] != nil ? "size" : (wide ? "width" : "height")
            } else {
                key = spec.control == .switch ? (wide ? "trackWidth" : "trackHeight") : "size"
            }
            return ("\(p).\(key)", "the glyph is \(pt(glyph)) \(wide ? "wide" : "tall") \(at)\(grows) (lower \(p).\(key) or the scales)")
        }
        let l = spec.label!
        let text = l.text.count > 24 ? String(l.text.prefix(24)) + "…" : l.text
        let labelExtent = wide ? labelPart!.width : labelPart!.height
        let sizeKey = l.size != nil ? "label.size" : "label.textStyle"
        if !wide {
            return (sizeKey, "the label is \(pt(labelExtent)) tall \(at) (\(pt(labelPoints)) text; lower \(sizeKey) or the scales)")
        }
        // Too wide because of the label: its size when the text would fit at its text style's own
        // size, else its text (which a maxWidth would cut).
        let styleOwn = l.textStyle.points(v.dynamicType)
        let rest = (glyphPart.width + l.spacing + 2 * margin) * s
        if l.size != nil, labelPoints > styleOwn, labelExtent * styleOwn / labelPoints * s + rest <= limit {
            return ("label.size", "the label is \(pt(labelExtent)) wide \(at) in \(pt(labelPoints)) text; at its text style's own "
                    + "\(pt(styleOwn)) it would fit (lower label.size or the scales)")
        }
        return ("label.text", "the label \"\(text)\" is \(pt(labelExtent)) wide \(at) in \(pt(labelPoints)) text "
                + "(shorten it, give it a label.maxWidth, or lower its size or the scales)")
    }
}
