import Foundation
import GlyphCore

/// `dynamic-type-scaling`: the glyph keeps its size relative to the text it stands beside as Dynamic
/// Type changes (the checkbox seed: "let the box glyph scale with the label under Dynamic Type").
public struct DynamicTypeScalingRule: AuditRule {
    public init() {}

    public let id = "dynamic-type-scaling"
    public let title = "Glyph scales with its text under Dynamic Type"
    public let criterion: String? = nil
    public let reference = "Apple HIG, Typography › Dynamic Type; the checkbox seed's \"let the box glyph scale with the label under Dynamic Type\" (no WCAG criterion)"
    public let defaultSeverity = Severity.error
    public let checks = """
    At every Dynamic Type size, the glyph's height (box, track or image box) divided by the point size \
    of the text it goes with — the label's, or the text style the glyph declares when it has no label — \
    is compared with the same ratio at `large`. It fails where the ratio is more than `tolerance` away \
    (in either direction: 0.2 allows 1/1.2 … 1.2 times the ratio at `large`): the glyph stays fixed \
    while the text grows or shrinks, or runs away from it. A checkbox with neither a label nor a text \
    style has nothing to follow and is not checked. Switches: UISwitch and SwiftUI's switch keep their \
    size at every Dynamic Type size, and neither WCAG nor the HIG asks them to grow, so a switch that \
    declares no `glyph.textStyle` gets an info finding with the numbers, not an error; a switch that \
    declares one is held to it like a checkbox. An image switch (toggle icons) is not the platform's \
    switch: it is held to its text like an image checkbox.
    """
    public let fix = """
    Size the glyph with the text: SF Symbols with `.imageScale` / `.font`, `@ScaledMetric` or \
    `UIFontMetrics(forTextStyle:).scaledValue(for:)` for a drawn box, and a frame that follows it.
    """
    public let parameters = [
        RuleParameter("tolerance", 0.2, range: 0...10,
                      "How far the glyph/text ratio may drift from its value at large, as a fraction (0.2 = 1/1.2 … 1.2×)."),
    ]

    public func threshold(_ o: RuleOptions) -> String {
        let t = o["tolerance"]
        return "glyph/text ratio within \(String(format: "%.2f", 1 / (1 + t)))× … \(String(format: "%.2f", 1 + t))× its value at large"
    }

    public func check(_ input: AuditInput, _ o: RuleOptions) -> [Finding] {
        let tolerance = o["tolerance"]
        var out: [Finding] = []
        for group in input.groups(by: { [$0.preset, $0.component] }) {
            let first = input.items[group[0]]
            let spec = first.spec
            let reference: (name: String, points: (DynamicTypeSize) -> Double)
            if let label = spec.label {
                reference = ("label", { label.points($0) })
            } else if let style = spec.glyphTextStyle {
                reference = ("\(style.rawValue) text", { style.points($0) })
            } else {
                continue
            }
            // A drawn switch stands for the platform's; an image switch (toggle icons) is an image the
            // app draws, held to its text like an image checkbox.
            let platformSwitch = spec.control == .switch && spec.images == nil && spec.glyphTextStyle == nil
            // The glyph's height at each size (the same in every theme, state and scale).
            var height: [DynamicTypeSize: Double] = [:]
            for i in group { height[input.items[i].variant.dynamicType] = input.items[i].layout.glyph.height }
            var large = first.variant
            large.dynamicType = .large
            guard let atLarge = height[.large] ?? (try? Layout(spec: spec, variant: large, text: input.drawing.text))?.glyph.height else { continue }
            let base = atLarge / reference.points(.large)
            var drift: [(DynamicTypeSize, Double)] = []
            for dt in height.keys.sorted() {
                let d = (height[dt]! / reference.points(dt)) / base
                if d > 1 + tolerance || d < 1 / (1 + tolerance) { drift.append((dt, d)) }
            }
            if drift.isEmpty { continue }
            let sizes = drift.map(\.0)
            let variants = group.map { input.items[$0].variant }.filter { sizes.contains($0.dynamicType) }
            let heights = sizes.map { height[$0]! }
            let worst = drift.max { abs(log($0.1)) < abs(log($1.1)) }!
            let glyphWord = spec.control == .switch && spec.images == nil ? "track" : "glyph"
            let glyphDesc = Set(heights + [atLarge]).count == 1
                ? "stays \(Format.points(atLarge)) pt"
                : "is \(Format.points(atLarge)) pt at L and \(Format.points(height[worst.0]!)) pt at \(worst.0.short)"
            var message = "the \(glyphWord) \(glyphDesc) while the \(reference.name) goes from \(Format.points(reference.points(.large))) pt at L "
                + "to \(Format.points(reference.points(worst.0))) pt at \(worst.0.short): the \(glyphWord)/text ratio drifts "
                + "\(String(format: "%+.0f%%", (worst.1 - 1) * 100)) (allowed \(String(format: "%.0f%%", tolerance * 100))); drifts at \(Format.sizes(sizes))"
            if platformSwitch {
                message += " (a platform switch keeps its size under Dynamic Type; reported for information)"
            }
            // Pictures at the highest scale audited.
            let sharpest = group.map { input.items[$0].variant }.max { $0.scale < $1.scale } ?? first.variant
            var worstVariant = sharpest
            worstVariant.dynamicType = worst.0
            var largeVariant = sharpest
            largeVariant.dynamicType = .large
            let pictures: [Variant] = input.index(of: largeVariant) != nil ? [largeVariant, worstVariant] : [worstVariant]
            out.append(Finding(rule: id, severity: platformSwitch ? .info : defaultSeverity, criterion: criterion,
                               variant: VariantGroupID.id(variants), subject: glyphWord, message: message,
                               numbers: ["drift": worst.1, "tolerance": tolerance, "ratioAtLarge": base,
                                         "glyphAtLarge": atLarge, "glyphAtWorst": height[worst.0]!,
                                         "textAtWorst": reference.points(worst.0)],
                               values: ["worstSize": worst.0.short], sizes: sizes,
                               location: input.location(spec, ["glyph.scalesWithDynamicType", "glyph", "frame"].first { spec.lines[$0] != nil } ?? "sizes"),
                               picture: .sideBySide(pictures)))
        }
        return out
    }
}
