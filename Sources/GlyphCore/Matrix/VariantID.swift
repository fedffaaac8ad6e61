import Foundation

/// A variant id as files and reports spell it: `preset/component/dynamic type/theme/state@Nx`, e.g.
/// `design-system-checkbox/square-md/AX5/inverse/checked@3x`. A finding about several variants puts
/// `*` in each part that varies (`swiftui-switch/switch-md/*/default/off@*x`).
///
/// This is the one place an id is taken apart; everything else reads its named parts.
public struct VariantID: Sendable, Hashable, CustomStringConvertible {
    /// The part that stands for every value.
    public static let any = "*"

    public var preset: String
    public var component: String
    /// The short name (`AX5`), or `*`.
    public var dynamicType: String
    /// The theme, with `+setting` for a display setting's variant (`default+boldText`).
    public var theme: String
    public var state: String
    /// The display scale without its `x` (`3`), or `*`.
    public var scale: String
    /// Whether the text had all six parts (ids read back from files may not).
    public private(set) var isComplete: Bool
    /// The text of an id read from text that its parts would not spell again (an incomplete id, or a
    /// scale without its `x`), as read: it is written back as it was.
    private var text: String?

    public init(preset: String, component: String, dynamicType: String, theme: String, state: String, scale: String) {
        self.preset = preset
        self.component = component
        self.dynamicType = dynamicType
        self.theme = theme
        self.state = state
        self.scale = scale
        isComplete = true
    }

    public init(_ v: Variant) {
        self.init(preset: v.preset, component: v.component, dynamicType: v.dynamicType.short, theme: v.themeSegment,
                  state: v.stateName, scale: String(v.scale))
    }

    /// Reads an id. Parts are taken in order (`/` between the first five, `@` before the scale); a
    /// text with fewer leaves the missing ones empty and `isComplete` false.
    public init(parsing text: String) {
        var parts = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let last = parts.popLast() ?? ""
        let tail = last.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        parts += tail
        func part(_ i: Int) -> String { i < parts.count ? parts[i] : "" }
        var scale = part(5)
        if scale.hasSuffix("x") { scale.removeLast() }
        self.init(preset: part(0), component: part(1), dynamicType: part(2), theme: part(3), state: part(4), scale: scale)
        isComplete = parts.count == 6 && tail.count == 2
        if !isComplete || description != text { self.text = text }
    }

    /// The id as files and reports spell it (an id read from text, as it was read).
    public var description: String { text ?? "\(preset)/\(component)/\(dynamicType)/\(theme)/\(state)@\(scale)x" }

    /// The id without the display scale: the same picture at every scale.
    public var pictureID: String { "\(preset)/\(component)/\(dynamicType)/\(theme)/\(state)" }

    /// The same id with every Dynamic Type size and scale: findings that differ only there fold together.
    public var anySizeAndScale: VariantID {
        var id = self
        id.dynamicType = Self.any
        id.scale = Self.any
        id.text = nil
        return id
    }

    /// The display setting the theme part names (`default+boldText`: `.boldText`); nil for the
    /// default rendering, and for `*` (every theme, with or without a setting).
    public var setting: DisplaySetting? {
        guard let plus = theme.lastIndex(of: "+") else { return nil }
        return DisplaySetting(rawValue: String(theme[theme.index(after: plus)...]))
    }

    /// The theme part without its `+setting` (`default+boldText`: `default`).
    public var baseTheme: String {
        guard setting != nil, let plus = theme.lastIndex(of: "+") else { return theme }
        return String(theme[..<plus])
    }

    /// Whether the state part names a focused variant (`checked+focused`).
    public var focused: Bool { state.hasSuffix("+focused") }

    /// Whether some part stands for every value (`*`).
    public var hasWildcard: Bool {
        description.contains(Self.any)
    }

    /// Whether this id (its `*` parts matching anything) covers `other`; `anyScale` leaves the scale out.
    public func covers(_ other: VariantID, anyScale: Bool = false) -> Bool {
        guard isComplete && other.isComplete else { return false }
        func match(_ a: String, _ b: String) -> Bool { a == Self.any || a == b }
        return match(preset, other.preset) && match(component, other.component) && match(dynamicType, other.dynamicType)
            && match(theme, other.theme) && match(state, other.state) && (anyScale || match(scale, other.scale))
    }

    /// The id of a group: each part the same in all of them is kept, each part that differs is `*`.
    public static func group(_ ids: [VariantID]) -> VariantID? {
        guard let first = ids.first else { return nil }
        func part(_ f: (VariantID) -> String) -> String {
            let v = f(first)
            return ids.allSatisfy { f($0) == v } ? v : any
        }
        return VariantID(preset: part(\.preset), component: part(\.component), dynamicType: part(\.dynamicType),
                         theme: part(\.theme), state: part(\.state), scale: part(\.scale))
    }
}

/// An id written as text (a test's expectation, an accepted finding's pattern) is read as `init(parsing:)` reads it.
extension VariantID: ExpressibleByStringInterpolation {
    public init(stringLiteral value: String) { self.init(parsing: value) }
}

/// An id in a file is its text (`description`), read back as `init(parsing:)` reads it: an
/// incomplete id (a stale baseline's path) is written back as it was read.
extension VariantID: Codable {
    public init(from decoder: any Decoder) throws {
        self.init(parsing: try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}

extension Variant {
    public var variantID: VariantID { VariantID(self) }
}
