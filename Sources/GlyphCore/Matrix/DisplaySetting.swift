import Foundation

/// An iOS display setting that changes how a glyph draws (issue 21): an axis of the matrix a spec
/// opts into with `settings` (docs/spec-format.md, "Display settings"). A variant without one
/// (`Variant.setting == nil`) draws the default rendering.
public enum DisplaySetting: String, Sendable, Hashable, CaseIterable, Codable {
    /// SwiftUI `colorSchemeContrast == .increased`; asset catalogs' `"contrast": "high"` appearances.
    case increaseContrast
    /// SwiftUI `legibilityWeight == .bold`: labels in the bold face of their style.
    case boldText
    /// iOS draws `|` and `○` on a switch's track.
    case onOffLabels
    /// SwiftUI `accessibilityDifferentiateWithoutColor`.
    case differentiateWithoutColor
    /// A right-to-left layout (`layoutDirection == .rightToLeft`): leading and trailing swap.
    case rightToLeft

    /// The setting as iOS's Settings app names it, for messages (`under Increase Contrast, …`).
    public var title: String {
        switch self {
        case .increaseContrast: "Increase Contrast"
        case .boldText: "Bold Text"
        case .onOffLabels: "On/Off Labels"
        case .differentiateWithoutColor: "Differentiate Without Color"
        case .rightToLeft: "right-to-left"
        }
    }

    /// Whether a control of `control` (drawn, or image-based when `imageBased`) can have the setting:
    /// On/Off Labels are drawn on a drawn switch's track only.
    public static func allowed(control: ControlKind, imageBased: Bool) -> [DisplaySetting] {
        allCases.filter { $0 != .onOffLabels || (control == .switch && !imageBased) }
    }

    /// The text `--only setting=` takes for the default rendering.
    public static let noneFilterValue = "none"
}

/// A spec made for one display setting: its own JSON with the setting's patch merged in (RFC 7386),
/// and the spec it was derived from (the regression check compares the two).
public final class SpecBase: Sendable {
    public let spec: Spec
    public init(_ spec: Spec) { self.spec = spec }
}

extension Spec {
    /// The spec a variant with `setting` is planned from: the setting's derived spec, else this one.
    public func spec(for setting: DisplaySetting?) -> Spec {
        guard let setting, let derived = settingSpecs[setting] else { return self }
        return derived
    }

    /// For a derived spec, the spec without the setting.
    public var base: Spec? { settingBase?.spec }
}

extension JSONNode {
    /// `patch` merged into this node as RFC 7386 (JSON Merge Patch) says: an object patch merges
    /// key by key (`null` removes a key), anything else replaces the target. Members keep their
    /// order; new ones go last. Each node keeps the line it was written on (a patched value, the
    /// patch's line), so errors in the derived spec point at the patch.
    public func merged(with patch: JSONNode) -> JSONNode {
        guard case let .object(patchMembers) = patch.value else { return patch }
        var members: [(key: String, value: JSONNode)]
        if case let .object(m) = value { members = m } else { members = [] }
        for (key, p) in patchMembers {
            let i = members.firstIndex { $0.key == key }
            if case .null = p.value {
                if let i { members.remove(at: i) }
                continue
            }
            if let i {
                members[i].value = members[i].value.merged(with: p)
            } else {
                members.append((key: key, value: JSONNode(value: .null, line: p.line, column: p.column).merged(with: p)))
            }
        }
        var out = self
        if case .object = value {} else { out = JSONNode(value: .null, line: patch.line, column: patch.column) }
        out.value = .object(members)
        return out
    }
}
