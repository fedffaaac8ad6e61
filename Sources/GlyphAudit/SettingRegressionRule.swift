import Foundation
import GlyphColor
import GlyphCore

/// `setting-regression`: a display setting that makes a variant worse than the same variant without
/// it (issue 21). Increase Contrast that lowers a part's contrast is an error; a design whose states
/// differ by more than colour only under Differentiate Without Color is a warning. (Bold Text that
/// clips is reported by `clipping`, On/Off Labels that fail 3:1 by `nontext-contrast`; their
/// messages name the setting through the variant id, `default+boldText`.)
public struct SettingRegressionRule: AuditRule {
    public init() {}

    public static let ruleID = "setting-regression"
    public let id = SettingRegressionRule.ruleID
    public let title = "A display setting makes nothing worse than the default rendering"
    public let criterion: String? = "1.4.11"
    public let reference = "WCAG 2.2 SC 1.4.11 Non-text Contrast (AA), SC 1.4.3 Contrast (Minimum) (AA) and SC 1.4.1 Use of Color (A), "
        + "under iOS's Increase Contrast and Differentiate Without Color"
    public let defaultSeverity = Severity.error
    public let checks = """
    For each variant drawn under a display setting (the spec's `settings`), the same variant without \
    the setting, from the spec as written. Increase Contrast: each part that identifies the control or \
    its state (the parts `nontext-contrast` measures: fill or ring, marks, track, knob, image tint) and \
    the label, as seen against the part it stands on; a ratio lower than without the setting by more \
    than `tolerance` is an error, whatever the ratio (a user who asks for more contrast must not get \
    less). Differentiate Without Color: when the states of a component differ only in colour without \
    the setting (the same parts, marks and geometry) but by more than colour under it, a warning says \
    that only users with the setting on can tell the states apart without colour (`state-shape` \
    reports the default rendering).
    """
    public let fix = """
    Give the Increase Contrast patch colours at least as far from their background as the default \
    ones (darker on a light surface, lighter on a dark one). Draw the state difference the \
    Differentiate Without Color patch adds (a mark, a ring, an On/Off Label) in the default \
    appearance too, or at least know that only users with the setting get it.
    """
    public let parameters = [
        RuleParameter("tolerance", 0.01, range: 0...1, "How much lower (ratio units) a contrast may be before it counts as lowered."),
    ]

    public func threshold(_ o: RuleOptions) -> String {
        "error when Increase Contrast lowers a ratio by more than \(Format.number(o["tolerance"])); "
            + "warning when only Differentiate Without Color tells the states apart by more than colour"
    }

    public func check(_ input: AuditInput, _ options: RuleOptions) -> [Finding] { [] }

    public func checkAcrossComponents(_ input: AuditInput, _ options: RuleOptions) -> [Finding] {
        contrastRegressions(input, tolerance: options["tolerance"]) + colourOnlyUnlessSetting(input)
    }

    /// The scene of the same variant without its setting: the base spec (its colours and state
    /// appearances) on the setting's geometry.
    static func baseScene(_ item: PlannedVariant) -> Scene? {
        guard let base = item.spec.base else { return nil }
        var layout = item.layout
        layout.variant.setting = nil
        layout.appearance = base.appearance(layout.variant.state)
        return Scene(spec: base, layout: layout)
    }

    /// A part and what it stands on, with its ratio: `nontext-contrast`'s parts and the label.
    static func pairs(_ scene: Scene) -> [(subject: String, fg: SceneColor, bg: SceneColor, ratio: Double)] {
        var out = NonTextContrastRule.measured(scene).compactMap { m -> (String, SceneColor, SceneColor, Double)? in
            guard let fg = m.part.color, let bg = m.background.color else { return nil }
            return (m.subject, fg, bg, ContrastCheck.ratio(fg, on: bg))
        }
        if let label = scene.part(.label), let fg = label.color, let bg = scene.surface?.color {
            out.append(("label", fg, bg, ContrastCheck.ratio(fg, on: bg)))
        }
        return out
    }

    func contrastRegressions(_ input: AuditInput, tolerance: Double) -> [Finding] {
        struct Key: Hashable { var theme: String, state: String, subject: String, fg: String, bg: String, baseFg: String, baseBg: String }
        var order: [Key] = []
        var groups: [Key: (variants: [Variant], finding: Finding)] = [:]
        for item in input.items where item.variant.setting == .increaseContrast {
            guard let base = Self.baseScene(item) else { continue }
            let before = Dictionary(Self.pairs(base).map { ($0.subject, $0) }, uniquingKeysWith: { a, _ in a })
            for now in Self.pairs(item.scene) {
                guard let was = before[now.subject], now.ratio < was.ratio - tolerance else { continue }
                let v = item.variant
                let key = Key(theme: v.theme, state: v.state.rawValue, subject: now.subject, fg: now.fg.seen.hex, bg: now.bg.seen.hex,
                              baseFg: was.fg.seen.hex, baseBg: was.bg.seen.hex)
                if groups[key] != nil { groups[key]!.variants.append(v); continue }
                let setting = DisplaySetting.increaseContrast
                let message = "under \(setting.title), \(now.subject) \(ContrastCheck.describe(now.fg)) on \(now.bg.seen.hex) is "
                    + "\(Format.ratio(now.ratio)) — lower than \(Format.ratio(was.ratio)) without it "
                    + "(\(was.subject) \(ContrastCheck.describe(was.fg)) on \(was.bg.seen.hex))"
                let finding = Finding(rule: id, severity: defaultSeverity, criterion: criterion, variant: v.variantID, subject: now.subject,
                                      message: message, numbers: ["ratio": now.ratio, "ratio.without": was.ratio],
                                      values: ["foreground": now.fg.seen.hex, "background": now.bg.seen.hex,
                                               "foreground.without": was.fg.seen.hex, "background.without": was.bg.seen.hex,
                                               "theme": v.theme, "setting": setting.rawValue],
                                      location: FindingLocation(now.fg.source),
                                      picture: .swatch(foreground: now.fg.seen, background: now.bg.seen, ratio: now.ratio, required: was.ratio))
                order.append(key)
                groups[key] = ([v], finding)
            }
        }
        return order.map { key in
            var (variants, finding) = groups[key]!
            finding.variant = VariantGroupID.id(variants)
            return finding
        }
    }

    /// What tells a state apart besides colour: each drawn part's kind, mark, geometry and path.
    static func shape(_ scene: Scene) -> [String] {
        scene.parts.filter { $0.kind != .surface && $0.kind != .label }.map { p in
            let r = p.rect
            return [p.kind.rawValue, p.mark.rawValue, String(format: "%.2f %.2f %.2f %.2f %.2f", r.x, r.y, r.width, r.height, p.lineWidth),
                    p.path?.d ?? "", p.image?.key ?? ""].joined(separator: "|")
        }
    }

    func colourOnlyUnlessSetting(_ input: AuditInput) -> [Finding] {
        let items = input.items.filter { $0.variant.setting == .differentiateWithoutColor }
        guard !items.isEmpty else { return [] }
        var out: [Finding] = []
        // One component at one size, theme and scale: its states side by side.
        let groups = Dictionary(grouping: items.indices) { i -> [String] in
            let v = items[i].variant
            return [v.component, v.dynamicType.short, v.theme, String(v.scale)]
        }
        var flagged: [[String]: [Variant]] = [:]
        var flaggedOrder: [[String]] = []
        for key in groups.keys.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            let group = groups[key]!.map { items[$0] }
            guard group.count > 1 else { continue }
            let under = Set(group.map { Self.shape($0.scene) })
            let without = Set(group.compactMap { Self.baseScene($0).map(Self.shape) })
            guard under.count > 1, without.count == 1 else { continue }
            let k = [key[0], key[2]]
            if flagged[k] == nil { flaggedOrder.append(k) }
            flagged[k, default: []] += group.map(\.variant)
        }
        for k in flaggedOrder {
            let variants = flagged[k]!
            let states = Array(Set(variants.map(\.state.rawValue))).sorted().joined(separator: ", ")
            let setting = DisplaySetting.differentiateWithoutColor
            out.append(Finding(rule: id, severity: .warning, criterion: "1.4.1", variant: VariantGroupID.id(variants), subject: "states",
                               message: "the states (\(states)) differ by more than colour only under \(setting.title); without it they "
                                   + "differ in colour alone, so users who have not turned the setting on cannot tell them apart without colour",
                               values: ["theme": k[1], "setting": setting.rawValue, "states": states]))
        }
        return out
    }
}

extension AuditInput {
    /// The input split by display setting (the default first, then each setting in the order the
    /// items have them), each with the specs its items were planned from; itself when it has one.
    public func settingSlices() -> [AuditInput] {
        var order: [DisplaySetting?] = []
        for item in items where !order.contains(item.variant.setting) { order.append(item.variant.setting) }
        guard order.count > 1 else { return [self] }
        return order.map { setting in
            let indices = items.indices.filter { items[$0].variant.setting == setting }
            let slice = indices.map { items[$0] }
            var specs: [Spec] = []
            for item in slice where !specs.contains(where: { $0.name == item.spec.name }) { specs.append(item.spec) }
            return AuditInput(specs: specs, items: slice, glyphs: glyphs.isEmpty ? [] : indices.map { glyphs.entries[$0] },
                              jobs: jobs, drawing: drawing)
        }
    }
}
