import Foundation
import GlyphColor
import GlyphCore

/// `text-contrast` (WCAG 1.4.3 Contrast (Minimum)): the label against the surface, 4.5:1, or 3:1
/// where the label is large text at that Dynamic Type size.
public struct TextContrastRule: AuditRule {
    public init() {}

    public let id = "text-contrast"
    public let title = "Label text reaches 4.5:1 (3:1 when large)"
    public let criterion: String? = "1.4.3"
    public let reference = "WCAG 2.2 SC 1.4.3 Contrast (Minimum) (AA)"
    public let defaultSeverity = Severity.error
    public let checks = """
    The label's authored colour (composited over the surface when translucent) against the surface, \
    at every Dynamic Type size: 4.5:1, or 3:1 where the label is large text at that size — at least \
    `largeTextPoints` (18) points, or `largeBoldTextPoints` (14) points in a bold weight (700 or more; no iOS text style is drawn that \
    bold: `headline` is Semibold, 600, so it is large only from 18 points). The defaults \
    read iOS points as WCAG points, as the project's issue does; WCAG defines its points as CSS points \
    (18 pt = 24 px), so the stricter reading is 24 and 18.67. A theme named `disabled` is exempt \
    (1.4.3 exempts text of inactive components): its ratio is reported as info. Ratios are never rounded.
    """
    public let fix = "Darken (on light surfaces) or lighten (on dark surfaces) the label colour until it reaches 4.5:1; each finding names the nearest colour that does (same hue and chroma)."
    public let parameters = [
        RuleParameter("minimumRatio", 4.5, range: 1...21, "The ratio normal text must reach (1.4.3: 4.5)."),
        RuleParameter("largeTextRatio", 3, range: 1...21, "The ratio large text must reach (1.4.3: 3)."),
        RuleParameter("largeTextPoints", 18, range: 1...200, "Text at least this size (pt) is large."),
        RuleParameter("largeBoldTextPoints", 14, range: 1...200, "Bold text (weight 700 or more) at least this size (pt) is large."),
    ]

    public func threshold(_ o: RuleOptions) -> String {
        "\(Format.number(o["minimumRatio"])):1; \(Format.number(o["largeTextRatio"])):1 for text of at least "
            + "\(Format.number(o["largeTextPoints"])) pt or \(Format.number(o["largeBoldTextPoints"])) pt bold"
    }

    /// The weight a label in `style` is drawn with: the renderer draws the styles iOS sets in
    /// Semibold (`headline`) with pango's semibold, 600, and the others regular, 400.
    static func weight(_ style: TextStyle) -> Int { style.isBold ? 600 : 400 }

    /// WCAG's bold: a weight of 700 or more (the large-text note of 1.4.3 counts bold, not semibold).
    static let boldWeight = 700

    static func isBold(_ style: TextStyle) -> Bool { weight(style) >= boldWeight }

    /// The ratio a label of `points` needs.
    static func required(points: Double, bold: Bool, _ o: RuleOptions) -> Double {
        let large = points >= o["largeTextPoints"] || (bold && points >= o["largeBoldTextPoints"])
        return large ? o["largeTextRatio"] : o["minimumRatio"]
    }

    /// Labels are compared per theme across every component: nothing per component.
    public func check(_ input: AuditInput, _ o: RuleOptions) -> [Finding] { [] }

    public func checkAcrossComponents(_ input: AuditInput, _ o: RuleOptions) -> [Finding] {
        var out: [Finding] = []
        let items = input.items
        struct LabelKey: Hashable { let setting: DisplaySetting?, state: ControlState }
        for group in input.groups(by: { [$0.preset, $0.theme] }) {
            let first = input.items[group[0]]
            guard let label = first.spec.label else { continue }
            let theme = first.variant.theme
            // A labelled variant's label colour follows from its spec (a display setting's own), theme
            // and state: the label part resolved once for each setting and state of the group.
            var parts: [LabelKey: ScenePart?] = [:]
            // States that share a label colour share a finding.
            var buckets: [(label: ScenePart, items: [Int])] = []
            for i in group {
                guard items[i].layout.label != nil else { continue }
                let key = LabelKey(setting: items[i].variant.setting, state: items[i].variant.state)
                let known: ScenePart?
                if let kept = parts[key] {
                    known = kept
                } else {
                    known = items[i].spec.label == nil ? nil : items[i].label
                    parts[key] = .some(known)
                }
                guard let part = known, let c = part.color else { continue }
                if let k = buckets.firstIndex(where: { $0.label.color?.authored == c.authored }) {
                    buckets[k].items.append(i)
                } else {
                    buckets.append((part, [i]))
                }
            }
            // The surface has no per-state colour.
            let surfacePart = first.scene.surface
            let surface = first.scene.surfaceSeen
            let exempt = ContrastCheck.isExempt(theme)
            for bucket in buckets {
                let color = bucket.label.color!
                let seen = color.seen
                let ratio = ContrastCheck.ratio(seen, on: surface)
                if !exempt, let margins = AuditMargins.current {
                    margins.record(bucket.items.map { input.items[$0].variant.id }, "text-contrast.label", ratio)
                }
                let sizes = Array(Set(bucket.items.map { input.items[$0].variant.dynamicType })).sorted()
                let failing = sizes.filter { ratio < Self.required(points: label.points($0), bold: Self.isBold(label.textStyle), o) }
                let passingLarge = sizes.filter { !failing.contains($0) }
                if failing.isEmpty && !exempt { continue }
                let shown = failing.isEmpty ? sizes : failing
                let variants = bucket.items.map { input.items[$0].variant }.filter { shown.contains($0.dynamicType) }
                let needs = Set(shown.map { Self.required(points: label.points($0), bold: Self.isBold(label.textStyle), o) }).sorted()
                let colour = ContrastCheck.describe(color)
                let pts = shown.map { label.points($0) }
                let range = pts.min()! == pts.max()! ? "\(Format.points(pts[0])) pt"
                    : "\(Format.points(pts.min()!))–\(Format.points(pts.max()!)) pt"
                var message = "label \(colour) on \(surface.hex) is \(Format.ratio(ratio))"
                if exempt {
                    message += " (\(theme): text of inactive components is exempt; it would need "
                        + "\(needs.map { Format.number($0) + ":1" }.joined(separator: " or ")))"
                } else {
                    message += ", needs \(Format.number(needs.max()!)):1 at \(Format.sizes(failing)) (\(range))"
                    if !passingLarge.isEmpty {
                        message += "; passes \(Format.number(o["largeTextRatio"])):1 as large text at \(Format.sizes(passingLarge))"
                    }
                }
                message += ContrastCheck.notes([bucket.label, surfacePart])
                let location = FindingLocation(color.source)
                var finding = Finding(rule: id, severity: exempt ? .info : defaultSeverity, criterion: criterion,
                                      variant: VariantGroupID.id(variants), subject: "label", message: message,
                                      numbers: ["ratio": ratio, "required": needs.max()!],
                                      values: ["foreground": seen.hex, "background": surface.hex], sizes: shown,
                                      location: location,
                                      picture: .swatch(foreground: seen, background: surface, ratio: ratio, required: needs.max()!))
                if ratio < needs.max()! {
                    finding.suggestion = ColorFix(part: "label", foreground: color.authored, background: surface, required: needs.max()!,
                                           location: location)
                }
                out.append(finding)
            }
        }
        return out
    }
}
