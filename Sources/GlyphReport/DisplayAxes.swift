import Foundation
import GlyphAudit
import GlyphCore

// The display settings (`settings`) and focus (`focus`) of a run as the reports show them: only a
// run that has a variant under a setting or a focused one shows either, so the reports of other
// runs are as they were.

extension VariantID {
    /// What the reports say of a variant's setting and focus: `under Bold Text`, `focused`,
    /// `under Bold Text, focused`; nil for the default rendering unfocused (and for `*` parts).
    var axesLabel: String? {
        let parts = [setting.map { "under \($0.title)" }, focused ? "focused" : nil].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    /// The setting part as the HTML filter reads it: the setting's name, `none` for the default
    /// rendering, `*` for every theme.
    var settingFilterValue: String {
        theme == VariantID.any || theme.isEmpty ? VariantID.any : setting?.rawValue ?? DisplaySetting.noneFilterValue
    }

    /// The focus part as the HTML filter reads it: `focused`, `unfocused`, or `*`.
    var focusFilterValue: String {
        state == VariantID.any || state.isEmpty ? VariantID.any : focused ? "focused" : "unfocused"
    }
}

extension RunReport {
    /// The display settings the run's variants are drawn under, in the order they first come
    /// (the spec's `settings` order); empty without any.
    var settingsInRun: [DisplaySetting] {
        var seen = Set<DisplaySetting>()
        return variants.compactMap(\.setting).filter { seen.insert($0).inserted }
    }

    /// Whether the run has a focused variant.
    var hasFocused: Bool { variants.contains { $0.isFocused } }

    /// Whether the reports show settings and focus at all.
    var hasDisplayAxes: Bool { hasFocused || variants.contains { $0.setting != nil } }

    /// The settings a preset's variants are drawn under, in order.
    func settings(of preset: String) -> [DisplaySetting] {
        var seen = Set<DisplaySetting>()
        return variants.filter { $0.preset == preset }.compactMap(\.setting).filter { seen.insert($0).inserted }
    }
}
