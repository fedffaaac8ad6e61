import Foundation

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
    and Machado 2009 protanopia, deuteranopia and tritanopia (simulated in linear RGB). In each view a \
    pixel is a boundary where its colour differs perceivably from the pixel two steps away horizontally \
    or vertically (greyscale: contrast ratio at least `greyscaleRatio`; colour views: OKLab distance at \
    least `colorDistance`). A boundary pixel of one state is changed when the other state has no \
    boundary within one pixel; the share is changed / all boundary pixels of both states. A change of \
    colour alone keeps the boundaries where they were (share near 0); a new mark, a moved knob or a \
    hollow box becoming filled with a colour that stands out moves or adds boundaries. A pure \
    recolouring fails in every view whatever its share (a faint colour can lose its boundaries): \
    comparing the pixels that are flat (3 × 3 of one colour) in either state, when each colour of one \
    state meets one colour of the other and back, except on less than `recolourTolerance` of the edge \
    pixels (those not flat in one state or the other), the states are the same regions in other colours.
    """
    public let fix = """
    Change the glyph's shape between states: add or remove a mark (tick, dash), fill the box with a \
    colour that stands out from the surface, move the knob. A new fill colour, or a mark in a colour \
    that matches the fill's lightness, is not enough.
    """
    public let parameters = [
        RuleParameter("minimumShare", 0.025, range: 0...1,
                      "The share of boundary pixels that must change between two states, in every view."),
        RuleParameter("greyscaleRatio", 1.35, range: 1...21,
                      "The contrast ratio at which two greyscale pixels count as different regions."),
        RuleParameter("colorDistance", 0.12, range: 0.001...2,
                      "The OKLab distance at which two simulated colours count as different regions."),
        RuleParameter("recolourTolerance", 0.02, range: 0...1,
                      "Two states whose colours map one to one, except on less than this share of the edge pixels (those not flat in one state or the other), "
                          + "are a recolouring and fail whatever their boundaries (0: off)."),
    ]

    public func threshold(_ o: RuleOptions) -> String {
        "at least \(Format.thresholdPercent(o["minimumShare"])) of the glyph's boundary pixels change in every view "
            + "(boundaries: greyscale ratio ≥ \(Format.number(o["greyscaleRatio"])), OKLab distance ≥ \(Format.number(o["colorDistance"])))"
    }

    public func check(_ input: AuditInput, _ o: RuleOptions) -> [Finding] {
        let thresholds = StructureMap.Thresholds(greyRatio: o["greyscaleRatio"], colorDistance: o["colorDistance"])
        let minimum = o["minimumShare"]
        let tolerance = o["recolourTolerance"]
        let groups = input.stateGroups().filter { $0.count > 1 }
        // Structure maps of the distinct glyphs only (a glyph that does not scale is the same at every
        // Dynamic Type size), computed in parallel; then the shares of each distinct pair once.
        var distinct: [Int] = []
        var slot: [Int: Int] = [:]
        for group in groups {
            for i in group where slot[input.sameGlyph[i]] == nil {
                slot[input.sameGlyph[i]] = distinct.count
                distinct.append(input.sameGlyph[i])
            }
        }
        let glyphs = distinct.map { input.glyphs[$0] }
        let indexed = input.parallelMap(glyphs.count) { k in StructureMap.indexed(glyphs[k]) }
        // Each colour is simulated once, however many glyphs it appears in.
        var colorSet = Set<UInt32>()
        for x in indexed { colorSet.formUnion(x.colors) }
        let colors = Array(colorSet)
        let computedFeatures = input.parallelMap(colors.count) { k in StructureMap.Features(colors[k]) }
        let features = Dictionary(uniqueKeysWithValues: zip(colors, computedFeatures))
        let maps = input.parallelMap(glyphs.count) { k in
            StructureMap(glyphs[k], indexed[k], features: indexed[k].colors.map { features[$0]! }, thresholds)
        }
        let regions = input.parallelMap(glyphs.count) { k in RegionMap(glyphs[k], indexed[k]) }
        struct Pair: Hashable { let a: Int, b: Int }
        var pairs: [Pair] = []
        var seen = Set<Pair>()
        for group in groups {
            for a in 0..<group.count {
                for b in (a + 1)..<group.count {
                    let p = Pair(a: slot[input.sameGlyph[group[a]]]!, b: slot[input.sameGlyph[group[b]]]!)
                    if seen.insert(p).inserted { pairs.append(p) }
                }
            }
        }
        let todo = pairs
        let computed = input.parallelMap(todo.count) { k in
            (StructureMap.changedShare(maps[todo[k].a], maps[todo[k].b]),
             RegionMap.inconsistentShare(regions[todo[k].a], regions[todo[k].b]))
        }
        let measured = Dictionary(uniqueKeysWithValues: zip(pairs, computed))
        var out: [Finding] = []
        for group in groups {
            for a in 0..<group.count {
                for b in (a + 1)..<group.count {
                    let (s, inconsistent) = measured[Pair(a: slot[input.sameGlyph[group[a]]]!, b: slot[input.sameGlyph[group[b]]]!)]!
                    let recoloured = inconsistent < tolerance
                    let failing = recoloured ? Array(StructureMap.views.indices) : StructureMap.views.indices.filter { s[$0] < minimum }
                    if failing.isEmpty { continue }
                    out.append(finding(input, group[a], group[b], shares: s, failing: failing, minimum: minimum,
                                       inconsistent: inconsistent, tolerance: tolerance))
                }
            }
        }
        return out
    }

    /// The share of edge pixels that break a one-to-one colour mapping between two states (for tests and tuning).
    public static func inconsistentShare(_ input: AuditInput, _ a: Int, _ b: Int) -> Double {
        let ga = input.glyphs[a], gb = input.glyphs[b]
        return RegionMap.inconsistentShare(RegionMap(ga, StructureMap.indexed(ga)), RegionMap(gb, StructureMap.indexed(gb)))
    }

    /// The shares of every pair of states, without thresholds applied (for tests and tuning).
    public static func shares(_ input: AuditInput, _ a: Int, _ b: Int,
                              greyscaleRatio: Double = 1.35, colorDistance: Double = 0.12) -> [ColorView: Double] {
        let t = StructureMap.Thresholds(greyRatio: greyscaleRatio, colorDistance: colorDistance)
        let s = StructureMap.changedShare(StructureMap(input.glyphs[a], t), StructureMap(input.glyphs[b], t))
        return Dictionary(uniqueKeysWithValues: zip(StructureMap.views, s))
    }

    func finding(_ input: AuditInput, _ a: Int, _ b: Int, shares: [Double], failing: [Int], minimum: Double,
                 inconsistent: Double, tolerance: Double) -> Finding {
        let va = input.items[a].variant, vb = input.items[b].variant
        let spec = input.items[b].spec
        let views = StructureMap.views
        let subject = "\(va.state.rawValue) vs \(vb.state.rawValue)"
        let list = views.indices.map {
            "\(views[$0].rawValue) \(Format.percent(shares[$0], threshold: minimum, failsBelow: true))"
        }.joined(separator: ", ")
        let failNames = failing.map { views[$0].rawValue }
        let identical = input.sameGlyph[a] == input.sameGlyph[b]
        var message: String
        if inconsistent < tolerance && !identical {
            // A recolouring: fails whatever the boundaries (a faint colour can drop below the boundary
            // threshold and seem to change the shape).
            message = "\(subject): only the colours change, so the shape is the same in every view; fails in "
                + "\(failNames.joined(separator: ", ")) (each colour of one state is drawn in one colour of the other: "
                + "\(Format.percent(inconsistent, threshold: tolerance, failsBelow: true)) of the edge pixels break that "
                + "mapping, under the \(Format.thresholdPercent(tolerance)) that makes a change of shape; the boundaries "
                + "change over \(list))"
        } else {
            message = "\(subject): the glyph's shape changes over \(list) of its boundaries, needs "
                + "\(Format.thresholdPercent(minimum)) in every view; fails in \(failNames.joined(separator: ", "))"
        }
        var numbers: [String: Double] = ["minimumShare": minimum, "inconsistentShare": inconsistent, "recolourTolerance": tolerance]
        for (i, v) in views.enumerated() { numbers["share.\(v.rawValue)"] = shares[i] }
        // The spec key that draws the states: images, appearance, or the theme's colours.
        var key: String
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
            key = "themes.\(va.theme)"
        }
        if identical && !message.hasSuffix(")") { message += " (both states draw the same pixels)" }
        return Finding(rule: id, severity: defaultSeverity, criterion: criterion, variant: vb.id, subject: subject,
                       message: message, numbers: numbers,
                       values: ["failingViews": failNames.joined(separator: ","), "other": va.id],
                       location: input.location(spec, key),
                       picture: .states(va, vb, views: failing.map { views[$0] }))
    }
}
