import Foundation
import GlyphColor
import GlyphCore

/// `state-shape` (WCAG 1.4.1 Use of Color): two states of a control must differ in shape, not only
/// in colour, in greyscale and for the three colour-vision deficiencies.
public struct StateShapeRule: AuditRule {
    public init() {}

    public let id = "state-shape"
    public let title = "States differ in shape, not only colour"
    public let criterion: String? = "1.4.1"
    public let reference = "WCAG 2.2 SC 1.4.1 Use of Color (A); the checkbox seed's \"the box glyph itself changes, not only a color fill\""
    public let defaultSeverity = Severity.error
    public let checks = """
    For every pair of states of the same variant (unchecked/checked, unchecked/mixed, checked/mixed; \
    off/on), the glyph alone (without its label) is compared in four views: greyscale (luminance only) \
    and Machado 2009 protanopia, deuteranopia and tritanopia (simulated in linear RGB). A change of \
    colour alone is explained away first: each colour of one state is paired with the colour it meets \
    most often at the same pixels in the other state (a recolouring maps every colour to one partner). \
    A pixel has changed in a view when its colour in one state differs perceivably from the partner of \
    its colour in the other (greyscale: contrast ratio at least `greyscaleRatio`; colour views: OKLab \
    distance at least `colorDistance`): a region that appears, disappears, moves or changes outline. \
    The changed area, in square points (changed pixels / scale²), must reach `minimumArea` in every \
    view. A pure recolouring changes nothing (0 pt²); a picture without colour (only greys) gets the \
    greyscale verdict in every view.
    """
    public let fix = """
    Change the glyph's shape between states: add or remove a mark (tick, dash), fill the box with a \
    colour that stands out from the surface, move the knob. A new fill colour, or a mark in a colour \
    that matches the fill's lightness, is not enough; a mark too small to tell from another at the \
    smallest size needs a larger box or a bolder, more different mark.
    """
    public let parameters = [
        RuleParameter("minimumArea", 1, range: 0...10_000,
                      "The area, in square points, that must change between two states in every view."),
        RuleParameter("greyscaleRatio", 1.35, range: 1...21,
                      "The contrast ratio at which two greyscale colours count as different."),
        RuleParameter("colorDistance", 0.12, range: 0.001...2,
                      "The OKLab distance at which two simulated colours count as different."),
    ]

    public func threshold(_ o: RuleOptions) -> String {
        "at least \(Format.number(o["minimumArea"])) pt² of the glyph changes in every view, colour changes explained away "
            + "(different: greyscale ratio ≥ \(Format.number(o["greyscaleRatio"])), OKLab distance ≥ \(Format.number(o["colorDistance"])))"
    }

    static func thresholds(_ o: RuleOptions) -> StateChange.Thresholds {
        StateChange.Thresholds(greyRatio: o["greyscaleRatio"], colorDistance: o["colorDistance"])
    }

    public func check(_ input: AuditInput, _ o: RuleOptions) -> [Finding] {
        let thresholds = Self.thresholds(o)
        let minimum = o["minimumArea"]
        let all = input.stateGroups().filter { $0.count > 1 }
        var out: [Finding] = []
        // A batch of state groups at a time, in order: only its glyphs are decoded and indexed at once.
        for start in stride(from: 0, to: all.count, by: Self.batch) {
            out += check(input, Array(all[start..<min(all.count, start + Self.batch)]), thresholds: thresholds, minimum: minimum)
        }
        return out
    }

    /// State groups measured together (enough to keep every core busy, few enough to bound memory).
    static let batch = 256

    func check(_ input: AuditInput, _ groups: [[Int]], thresholds: StateChange.Thresholds, minimum: Double) -> [Finding] {
        // The distinct glyphs only (a glyph that does not scale is the same at every Dynamic Type
        // size), indexed in parallel; each colour's views computed once; each distinct pair measured once.
        var distinct = Interner<Int>()
        for group in groups { for i in group { _ = distinct.intern(input.sameGlyph[i]) } }
        let keys = distinct.keys
        let indexed = input.parallelMap(keys.count) { k in StateChange.indexed(input.glyphs[keys[k]]) }
        var colours = Interner<UInt32>()
        for x in indexed { for c in x.colors { _ = colours.intern(c) } }
        let palette = colours.keys
        let computed = input.parallelMap(palette.count) { k in StateChange.ViewColour(palette[k]) }
        let features = Dictionary(uniqueKeysWithValues: zip(palette, computed))
        let glyphFeatures = indexed.map { x in x.colors.map { features[$0]! } }
        struct Pair: Hashable { let a: Int, b: Int }
        var pairs = Interner<Pair>()
        func pair(_ i: Int, _ j: Int) -> Pair {
            Pair(a: distinct.intern(input.sameGlyph[i]), b: distinct.intern(input.sameGlyph[j]))
        }
        for group in groups {
            for a in 0..<group.count { for b in (a + 1)..<group.count { _ = pairs.intern(pair(group[a], group[b])) } }
        }
        let todo = pairs.keys
        let measured = input.parallelMap(todo.count) { k in
            let p = todo[k]
            return StateChange.measure(indexed[p.a], indexed[p.b], glyphFeatures[p.a], glyphFeatures[p.b], thresholds, known: features)
        }
        var out: [Finding] = []
        for group in groups {
            for a in 0..<group.count {
                for b in (a + 1)..<group.count {
                    let change = measured[pairs.intern(pair(group[a], group[b]))]
                    let areas = change.areas(scale: input.items[group[b]].variant.scale)
                    if let margins = AuditMargins.current {
                        let va = input.items[group[a]].variant, vb = input.items[group[b]].variant
                        for (k, view) in StateChange.views.enumerated() {
                            margins.record(vb.id, "state-change.\(va.state.rawValue).\(view.rawValue)", areas[k])
                            margins.record(va.id, "state-change.\(vb.state.rawValue).\(view.rawValue)", areas[k])
                        }
                    }
                    let failing = StateChange.views.indices.filter { areas[$0] < minimum }
                    if failing.isEmpty { continue }
                    out.append(finding(input, group[a], group[b], change, failing: failing, minimum: minimum))
                }
            }
        }
        return out
    }

    /// The changed area of two items' glyphs in each view, in square points, without thresholds
    /// applied (for tests and tuning).
    public static func areas(_ input: AuditInput, _ a: Int, _ b: Int,
                             greyscaleRatio: Double = 1.35, colorDistance: Double = 0.12) -> [ColorView: Double] {
        let t = StateChange.Thresholds(greyRatio: greyscaleRatio, colorDistance: colorDistance)
        let c = StateChange.measure(input.glyphs[a], input.glyphs[b], t)
        return Dictionary(uniqueKeysWithValues: zip(StateChange.views, c.areas(scale: input.items[b].variant.scale)))
    }

    // MARK: The finding

    /// What the two states draw, in words: `off image → clear image`, `ring → filled box with a tick`, `knob left → knob right`.
    static func drawn(_ spec: Spec, _ a: ControlState, _ b: ControlState) -> String {
        if let images = spec.images {
            return "\(images.key(for: a)) image → \(images.key(for: b)) image"
        }
        if spec.control == .switch {
            func knob(_ s: ControlState) -> String { s == .on ? "knob right" : "knob left" }
            return "\(knob(a)) → \(knob(b))"
        }
        func words(_ s: ControlState) -> String {
            let look = spec.appearance(s)
            var box = look.fill ? "filled box" : (look.ring ? "ring" : "empty box")
            if look.fill && look.ring { box = "filled box with a ring" }
            let marks = look.marks.map { $0.kind == .path ? "its drawn mark" : $0.kind == .image ? "an image mark" : "a \($0.kind.partName)" }
            return marks.isEmpty ? box : box + " with " + marks.joined(separator: " and ")
        }
        return "\(words(a)) → \(words(b))"
    }

    /// Where in the glyph's area a box of pixels lies: `at the centre`, `at the top left`, ….
    static func place(_ box: StateChange.PixelBox, width: Int, height: Int) -> String {
        let cx = Double(box.x0 + box.x1) / 2 / Double(max(1, width))
        let cy = Double(box.y0 + box.y1) / 2 / Double(max(1, height))
        let col = cx < 1.0 / 3 ? "left" : (cx > 2.0 / 3 ? "right" : "")
        let row = cy < 1.0 / 3 ? "top" : (cy > 2.0 / 3 ? "bottom" : "")
        switch (row, col) {
        case ("", ""): return "at the centre"
        case ("", _): return "at the \(col)"
        case (_, ""): return "at the \(row)"
        default: return "at the \(row) \(col)"
        }
    }

    static func area(_ v: Double) -> String { String(format: "%.1f pt²", (v * 10).rounded(.down) / 10) }

    func finding(_ input: AuditInput, _ a: Int, _ b: Int, _ change: StateChange, failing: [Int], minimum: Double) -> Finding {
        let va = input.items[a].variant, vb = input.items[b].variant
        let spec = input.items[b].spec
        let views = StateChange.views
        let scale = vb.scale
        let areas = change.areas(scale: scale), raw = change.rawAreas(scale: scale)
        let subject = "\(va.state.rawValue) vs \(vb.state.rawValue)"
        let what = Self.drawn(spec, va.state, vb.state)
        let failNames = failing.map { views[$0].rawValue }
        let passing = views.indices.filter { !failing.contains($0) }
        let identical = input.sameGlyph[a] == input.sameGlyph[b]
        let needs = "needs \(Format.number(minimum)) pt²"
        // An area just under the threshold is cut, never rounded up to it.
        func shown(_ v: Double) -> String {
            let s = Self.area(v)
            return v < minimum && s == Self.area(minimum) ? String(format: "%.3f pt²", (v * 1000).rounded(.down) / 1000) : s
        }
        var message = "\(subject) (\(what)): "
        if identical {
            message += "both states draw the same pixels, so nothing tells them apart in any view (0 pt² changes, \(needs))"
            if spec.control == .switch, spec.images != nil { message += "; the on and off images of this switch look the same" }
        } else if failing.allSatisfy({ raw[$0] == 0 }) {
            if passing.isEmpty && change.sameColours {
                message += "both states draw the same shape in the same colours (their pictures differ in anti-aliasing only), "
                    + "so nothing tells them apart in any view (0 pt² changes, \(needs))"
            } else if passing.isEmpty {
                message += "only the colours change: each colour of one state is drawn in one colour of the other, so no "
                    + "region appears, disappears or moves in any view (0 pt² changes, \(needs))"
                if spec.control == .switch, spec.images != nil {
                    message += "; the on and off images of a switch must differ in shape (e.g. the knob at the other end), "
                        + "not in colour only"
                }
            } else {
                let best = passing.max { areas[$0] < areas[$1] }!
                message += "what changes (\(shown(areas[best])) in \(passing.map { views[$0].rawValue }.joined(separator: ", "))) "
                    + "differs from what is around it in colour only: in \(failNames.joined(separator: ", ")) it cannot be told "
                    + "from its surroundings (0 pt² changes, \(needs))"
            }
        } else {
            let list = views.indices.map { "\(views[$0].rawValue) \(shown(areas[$0]))" }.joined(separator: ", ")
            let weakest = failing.min { areas[$0] < areas[$1] }!
            var where_ = ""
            if let box = change.boxes[weakest] ?? change.boxes.compactMap({ $0 }).first {
                let g = input.glyphs.frame(b)
                let s = Double(scale)
                where_ = " within \(Format.points(Double(box.x1 - box.x0) / s)) × \(Format.points(Double(box.y1 - box.y0) / s)) pt "
                    + Self.place(box, width: g.width, height: g.height)
            }
            message += "the picture changes shape over \(list)\(where_), \(needs) in every view; fails in \(failNames.joined(separator: ", "))"
            // The honest limit: at this size the two pictures differ by too little (or by lone pixels
            // only) to be told apart. A change's area grows with the square of the glyph's size.
            let side = input.items[b].layout.glyph.height
            if areas[weakest] > 0 {
                let from = side * (minimum / areas[weakest]).squareRoot()
                message += "; at a \(Format.points(side)) pt glyph @\(scale)x these states are too close to tell apart, "
                    + "they would differ by \(Format.number(minimum)) pt² from about \(Format.points(from)) pt"
            } else {
                let pixels = change.raw[weakest]
                message += "; at a \(Format.points(side)) pt glyph @\(scale)x the two pictures differ in lone pixels only "
                    + "(\(pixels) pixel\(pixels == 1 ? "" : "s"), none next to another), too little to tell the states apart"
            }
        }
        var numbers: [String: Double] = ["minimumArea": minimum]
        for (i, v) in views.enumerated() { numbers["area.\(v.rawValue)"] = areas[i] }
        // The spec key that draws the states: images, appearance, or the theme's colours.
        var key: String?
        if let images = spec.images {
            key = "images"
            let drawn = [va.state, vb.state].map { images.image(for: $0) }
            if drawn[0] === drawn[1], [va.state, vb.state].contains(.mixed) {
                // RVS_Checkbox's fallbacks: the mixed state drew the off image.
                if !images.threeState {
                    key = "images.threeState"
                    message += " (both draw the off image: two-state mode uses it for mixed)"
                } else if images.useOffImageForClear {
                    key = "images.useOffImageForClear"
                    message += " (both draw the off image: useOffImageForClear is true)"
                } else {
                    key = "images.clear"
                    message += " (both draw the off image: there is no clear image)"
                }
            }
        } else if spec.control == .checkbox, spec.lines["appearance"] != nil {
            key = "appearance"
        } else {
            key = nil
        }
        return Finding(rule: id, severity: defaultSeverity, criterion: criterion, variant: vb.variantID, subject: subject,
                       message: message, numbers: numbers,
                       values: ["failingViews": failNames.joined(separator: ","), "other": va.id],
                       location: key.map { input.location(spec, $0) } ?? FindingLocation(input.items[a].scene.themeSource),
                       picture: .states(va, vb, views: failing.map { views[$0] }))
    }
}
