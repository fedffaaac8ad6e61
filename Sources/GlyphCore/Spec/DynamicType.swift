/// SwiftUI's `DynamicTypeSize`: the 12 content size categories, smallest first.
public enum DynamicTypeSize: String, CaseIterable, Sendable, Codable, Comparable {
    case xSmall, small, medium, large, xLarge, xxLarge, xxxLarge
    case accessibility1, accessibility2, accessibility3, accessibility4, accessibility5

    /// The short form used in variant ids and file names: `xS S M L xL xxL xxxL AX1 … AX5`.
    public var short: String {
        switch self {
        case .xSmall: "xS"
        case .small: "S"
        case .medium: "M"
        case .large: "L"
        case .xLarge: "xL"
        case .xxLarge: "xxL"
        case .xxxLarge: "xxxL"
        case .accessibility1: "AX1"
        case .accessibility2: "AX2"
        case .accessibility3: "AX3"
        case .accessibility4: "AX4"
        case .accessibility5: "AX5"
        }
    }

    /// The size's place in `allCases` (xS is 0, AX5 is 11).
    public var index: Int {
        switch self {
        case .xSmall: 0
        case .small: 1
        case .medium: 2
        case .large: 3
        case .xLarge: 4
        case .xxLarge: 5
        case .xxxLarge: 6
        case .accessibility1: 7
        case .accessibility2: 8
        case .accessibility3: 9
        case .accessibility4: 10
        case .accessibility5: 11
        }
    }

    public var isAccessibilitySize: Bool { index >= 7 }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.index < rhs.index }

    /// Accepts the SwiftUI name, the short form, or the reference table's key (`AX1`), any case.
    public init?(name: String) {
        let n = name.lowercased()
        for size in Self.allCases where size.rawValue.lowercased() == n || size.short.lowercased() == n {
            self = size
            return
        }
        if n.hasPrefix("ax"), let i = Int(n.dropFirst(2)), (1...5).contains(i) {
            self = Self.allCases[6 + i]
            return
        }
        if n == "extrasmall" { self = .xSmall; return }
        return nil
    }
}

/// iOS text styles with their point size at each Dynamic Type size.
/// Numbers from Apple's HIG typography tables (as in shared/reference/dynamic-type.json).
public enum TextStyle: String, CaseIterable, Sendable, Codable {
    case largeTitle, title1, title2, title3, headline, body, callout, subheadline, footnote, caption1, caption2

    /// Point sizes from xSmall to AX5.
    public var pointSizes: [Double] {
        switch self {
        case .largeTitle: [31, 32, 33, 34, 36, 38, 40, 44, 48, 52, 56, 60]
        case .title1: [25, 26, 27, 28, 30, 32, 34, 38, 43, 48, 53, 58]
        case .title2: [19, 20, 21, 22, 24, 26, 28, 34, 39, 44, 50, 56]
        case .title3: [17, 18, 19, 20, 22, 24, 26, 31, 37, 43, 49, 55]
        case .headline: [14, 15, 16, 17, 19, 21, 23, 28, 33, 40, 47, 53]
        case .body: [14, 15, 16, 17, 19, 21, 23, 28, 33, 40, 47, 53]
        case .callout: [13, 14, 15, 16, 18, 20, 22, 26, 32, 38, 44, 51]
        case .subheadline: [12, 13, 14, 15, 17, 19, 21, 25, 30, 36, 42, 49]
        case .footnote: [12, 12, 12, 13, 15, 17, 19, 23, 27, 33, 38, 44]
        case .caption1: [11, 11, 11, 12, 14, 16, 18, 22, 26, 32, 37, 43]
        case .caption2: [11, 11, 11, 11, 13, 15, 17, 20, 24, 29, 34, 40]
        }
    }

    public var isBold: Bool { self == .headline }

    public func points(_ size: DynamicTypeSize) -> Double { pointSizes[size.index] }

    /// How much a value given at `large` grows at `size`: `pt(style, size) / pt(style, large)`.
    public func scale(_ size: DynamicTypeSize) -> Double { points(size) / points(.large) }
}
