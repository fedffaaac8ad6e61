import Foundation
import GlyphColor
import GlyphCore

/// `nontext-contrast` (WCAG 1.4.11 Non-text Contrast): the parts that identify the control and its
/// state reach 3:1 against the colours next to them, from the authored colours; and a warning when
/// a thin stroke that reaches 3:1 as authored never does in any rendered pixel at some scale.
public struct NonTextContrastRule: AuditRule {
    public init() {}

    public let id = "nontext-contrast"
    public let title = "Control parts reach 3:1 against adjacent colours"
    public let criterion: String? = "1.4.11"
    public let reference = "WCAG 2.2 SC 1.4.11 Non-text Contrast (AA); the switch seed's \"off-state fill maintains at least 3:1\""
    public let defaultSeverity = Severity.error
    public let checks = """
    From the authored colours of each theme and state (translucent colours composited over what lies \
    under them, ratios never rounded): the box's boundary against the surface (the ring when it is \
    hollow; the ring or the fill, whichever is stronger, when it is filled), the mark (tick, dash) \
    against the fill or surface around it, a template image's tint against the surface (image \
    checkboxes and image switches alike), the switch's off and on track (or its border, the stronger) against the surface, the knob \
    against the track through its fill or its knob border (the stronger), and each switch mark against the part it sits on (track \
    or knob; On/Off Labels on the track). A theme named `disabled` \
    (or `disabled-…`) is exempt (1.4.11 exempts inactive components): its ratios are reported as info. \
    Also from the rendered pixels: when a ring, mark or image reaches the ratio as authored but no \
    pixel of it does at some display scale (a stroke thinner than a pixel is blended with the surface), \
    a warning names the scale and sizes — that is what people see on such a screen. An image drawn in \
    its own colours (not template) is measured on its pixels: its ink is every pixel more than 8 levels \
    away from the surface in some channel, its outline the ink pixels next to a non-ink pixel, and at \
    least `imageOutlineShare` (half) of the outline must lie within one pixel of ink that reaches the \
    ratio against the surface. At the highest scale audited (the image closest to its SVG) a shortfall \
    is an error; at a lower scale where only that scale falls short, a warning. For every pair of \
    states drawn with different original-colour images, what changes (the tick, the dot, the fill) \
    must reach the ratio against the colours next to it: at the highest scale audited, at least \
    `imageOutlineShare` of the indicator's boundary (edges between a changed and an unchanged pixel, \
    more than 8 levels apart in either state) reach it across the edge, one pixel further out on each \
    side counted too; edges between two changed pixels (a dot inside a ring that appears with it) are \
    inside the indicator and do not count. A template image mark on a drawn box is measured in its \
    colour against what it sits on, like the other marks; an image mark in its own colours on its \
    pixels against that colour, as an original-colour image is against the surface.
    """
    public let fix = """
    Darken (on light surfaces) or lighten (on dark surfaces) the failing colour until it reaches the \
    ratio (each finding names the nearest colour that does, same hue and chroma); for a switch, give the off track a colour or a border that reaches 3:1 against the surface; \
    for an original-colour image, outline it (or most of it) in a colour that reaches 3:1 in the SVG, \
    and draw what shows the state (tick, dot, fill) in a colour that reaches 3:1 against what it sits on. \
    For the pixel warning, draw the stroke at least one pixel wide at @1x (e.g. 1 pt instead of 0.5 pt),     or use the darker colour the finding names.
    """
    public let parameters = [
        RuleParameter("minimumRatio", 3, range: 1...21, "The contrast ratio the parts must reach (1.4.11: 3)."),
        RuleParameter("imageOutlineShare", 0.5, range: 0...1,
                      "Original-colour images: the share of the image's outline that must lie within one pixel of "
                          + "ink reaching minimumRatio against the surface."),
    ]

    public func threshold(_ o: RuleOptions) -> String {
        "\(Format.number(o["minimumRatio"])):1 against the adjacent colour; an original-colour image: "
            + "\(Format.thresholdPercent(o["imageOutlineShare"])) of its outline next to ink reaching it"
    }

    public func check(_ input: AuditInput, _ o: RuleOptions) -> [Finding] {
        let required = o["minimumRatio"]
        var out: [Finding] = []
        out.append(contentsOf: pixelFindings(input, required))
        out.append(contentsOf: imageFindings(input, required, outlineShare: o["imageOutlineShare"]))
        out.append(contentsOf: indicatorFindings(input, required, share: o["imageOutlineShare"]))
        out.append(contentsOf: imageMarkFindings(input, required, outlineShare: o["imageOutlineShare"]))
        return out
    }

    public func checkAcrossComponents(_ input: AuditInput, _ o: RuleOptions) -> [Finding] {
        let required = o["minimumRatio"]
        var out: [Finding] = []
        // Authored colours: the same at every Dynamic Type size and scale. Which parts there are
        // depends on the size (a size without a border has no ring), so each size is measured, and
        // the sizes that measure the same are reported together.
        let groups = input.groups { v in [v.preset, v.theme, v.state.rawValue] }
        // The same colours on the same background (other sizes, states, themes) suggest the same colour.
        var suggestions: [String: ColorFix?] = [:]
        for group in groups {
            var merged: [(finding: Finding, variants: [Variant])] = []
            for bySize in input.groups(of: group, by: { $0.size }) {
                let variants = bySize.map { input.items[$0].variant }
                // The colours of a size are the same at every Dynamic Type size, shape and scale.
                let scene = input.items[bySize[0]].scene
                for part in Self.measured(scene) {
                    for f in authoredFinding(scene, part, variants, required, &suggestions) {
                        if let k = merged.firstIndex(where: { Self.sameMeasurement($0.finding, f) }) {
                            merged[k].variants += variants
                            merged[k].finding.variant = VariantGroupID.id(merged[k].variants)
                        } else {
                            merged.append((f, variants))
                        }
                    }
                }
            }
            out.append(contentsOf: merged.map(\.finding))
        }
        return out
    }

    /// Two findings of different sizes that say the same thing about the same colours.
    static func sameMeasurement(_ a: Finding, _ b: Finding) -> Bool {
        a.subject == b.subject && a.message == b.message && a.severity == b.severity && a.numbers == b.numbers
            && a.values == b.values && a.location == b.location && a.suggestion == b.suggestion
    }
}
