import Foundation

/// How bad a finding is. `error` fails a run by default (`--fail-on error`).
public enum Severity: String, Sendable, Codable, CaseIterable, Comparable {
    case info, warning, error

    var rank: Int {
        switch self {
        case .info: 0
        case .warning: 1
        case .error: 2
        }
    }

    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}

/// Where a finding comes from in the input: the spec file and line of the key that set the value
/// (e.g. `themes.default.trackOff`), and for a colour written as a token alias, the alias and the
/// token file and line where its value was finally written.
public struct FindingLocation: Sendable, Equatable, Codable {
    public var file: String
    public var line: Int?
    public var keyPath: String?
    /// The token alias used in the spec, e.g. `{mark.default.border.default}`.
    public var token: String?
    public var tokenFile: String?
    /// The line of the token that holds the final value (after following aliases).
    public var tokenLine: Int?

    public init(file: String, line: Int? = nil, keyPath: String? = nil, token: String? = nil,
                tokenFile: String? = nil, tokenLine: Int? = nil) {
        self.file = file
        self.line = line
        self.keyPath = keyPath
        self.token = token
        self.tokenFile = tokenFile
        self.tokenLine = tokenLine
    }

    /// `file:line` for messages.
    public var description: String {
        var s = file
        if let line { s += ":\(line)" }
        if let keyPath { s += " (\(keyPath))" }
        if let token {
            s += " via \(token)"
            if let tokenFile { s += " in \(tokenFile)" + (tokenLine.map { ":\($0)" } ?? "") }
        }
        return s
    }
}

/// What a picture proving a finding shows; drawn on request (`--evidence DIR`) by `EvidencePainter`.
public enum EvidencePicture: Sendable, Equatable {
    /// Two states side by side in each listed view (greyscale or a CVD simulation), glyph only.
    case states(Variant, Variant, views: [ColorView])
    /// A variant with its frame outlined and the ink outside the frame highlighted (points).
    case overflow(Variant, frame: Rect, ink: Rect)
    /// Two colour swatches, one on the other, with their ratio and the ratio needed.
    case swatch(foreground: RGBA, background: RGBA, ratio: Double, required: Double)
    /// A variant with its hit area and the minimum square outlined.
    case hitArea(Variant, area: Rect, minimum: Double)
    /// Variants side by side at their own sizes (e.g. `large` and the size where scaling drifts).
    case sideBySide([Variant])
    /// A variant with a rectangle outlined (the rect an image is drawn in).
    case outline(Variant, Rect)
}

/// One problem (or, at `info`, one observation) a rule found in one variant or group of variants.
///
/// `variant` is a variant id (`preset/component/dynamic type/theme/state@scale`). A finding that
/// holds for several values of one part puts `*` there (`swiftui-switch/switch-md/*/default/off@*x`
/// holds at every Dynamic Type size and scale audited); its message says which.
/// `subject` names what was measured ("off track", "unchecked vs checked", "glyph"), so that a
/// baseline can accept one finding and not its neighbours.
public struct Finding: Sendable, Equatable {
    public var rule: String
    public var severity: Severity
    /// The WCAG 2.2 success criterion the rule serves (`1.4.11`), nil for platform rules.
    public var criterion: String?
    public var variant: String
    public var subject: String
    /// One line with the measured numbers.
    public var message: String
    /// The measured numbers (`ratio`, `required`, `share.greyscale` …), never rounded.
    public var numbers: [String: Double]
    /// Measured values that are not numbers (colours as `#RRGGBB`, lists of sizes …).
    public var values: [String: String]
    public var location: FindingLocation?
    public var picture: EvidencePicture?
    /// Set by the engine when a baseline accepts the finding: the reason given there.
    public var accepted: String?
    /// Set when `--evidence` wrote a picture: its path relative to the evidence folder.
    public var picturePath: String?
    /// The Dynamic Type sizes the finding holds at, when the rule measured it at some sizes and not
    /// others (`hit area … at xS–L`); nil when the variant id says it all. The id's size part is `*`
    /// whenever these are more than one, so without them a finding would seem to cover every size.
    public var dynamicTypeSizes: [DynamicTypeSize]?

    public init(rule: String, severity: Severity, criterion: String?, variant: String, subject: String,
                message: String, numbers: [String: Double] = [:], values: [String: String] = [:],
                sizes: [DynamicTypeSize]? = nil, location: FindingLocation? = nil, picture: EvidencePicture? = nil) {
        self.rule = rule
        self.severity = severity
        self.criterion = criterion
        self.variant = variant
        self.subject = subject
        self.message = message
        self.numbers = numbers
        self.values = values
        if let sizes {
            let sorted = Array(Set(sizes)).sorted()
            self.dynamicTypeSizes = sorted
            self.values["sizes"] = Format.sizes(sorted)
        }
        self.location = location
        self.picture = picture
    }

    /// The preset part of the variant id.
    public var preset: String { String(variant.split(separator: "/").first ?? "") }
}

// MARK: - Formatting helpers shared by the rules

enum Format {
    /// A contrast ratio for a message: truncated (never rounded up) to two decimals, so 2.999 shows
    /// as 2.99:1 and never as "3.00:1, needs 3:1".
    static func ratio(_ r: Double) -> String {
        let t = (r * 100).rounded(.down) / 100
        return String(format: "%.2f:1", t)
    }

    /// A threshold such as 3 or 4.5, without trailing zeros.
    static func number(_ v: Double) -> String {
        if v == v.rounded() { return String(Int(v)) }
        var s = String(format: "%.3f", v)
        while s.hasSuffix("0") { s.removeLast() }
        return s
    }

    /// Points with one decimal (lengths are measured; the message is for people).
    static func points(_ v: Double) -> String { String(format: "%.1f", v) }

    /// A share as a percentage: whole numbers without decimals, others with one (2.5%). For a value
    /// measured against a threshold use `percent(_:threshold:failsBelow:)`, which never shows a
    /// failing value equal to its threshold.
    static func percent(_ v: Double) -> String {
        let p = v * 100
        return abs(p - p.rounded()) < 1e-9 ? String(format: "%.0f%%", p) : String(format: "%.1f%%", p)
    }

    /// A threshold as a percentage, as configured: 2.5%, 2.49% (as many decimals as it has, up to eight).
    static func thresholdPercent(_ t: Double) -> String {
        let p = t * 100
        for digits in 0...8 {
            let f = pow(10, Double(digits))
            if abs((p * f).rounded() / f - p) < 1e-9 { return String(format: "%.\(digits)f%%", p) }
        }
        return String(format: "%.8f%%", p)
    }

    /// A share measured against `threshold` (printed with `thresholdPercent`): it fails below the
    /// threshold when `failsBelow`, above it otherwise. Printed like `percent`, with as many more
    /// decimals as it takes (up to eight) whenever the plain form would show a failing value equal to
    /// the threshold or any value on the wrong side of it: 0.0249 against 0.025 is "2.49%", never
    /// "2.5% … needs 2.5%". Past eight decimals it is cut towards its own side of the threshold.
    static func percent(_ v: Double, threshold: Double, failsBelow: Bool) -> String {
        let p = v * 100
        let shownThreshold = Double(thresholdPercent(threshold).dropLast()) ?? threshold * 100
        let fails = failsBelow ? v < threshold : v > threshold
        func honest(_ shown: Double) -> Bool {
            if fails { return failsBelow ? shown < shownThreshold : shown > shownThreshold }
            return failsBelow ? shown >= shownThreshold : shown <= shownThreshold
        }
        let plain = percent(v)
        if let shown = Double(plain.dropLast()), honest(shown) { return plain }
        for digits in 1...8 {
            let f = pow(10, Double(digits))
            let shown = (p * f).rounded() / f
            if honest(shown) { return String(format: "%.\(digits)f%%", shown) }
        }
        let below = v < threshold
        let cut = below ? (p * 1e8 + 1e-6).rounded(.down) / 1e8 : (p * 1e8 - 1e-6).rounded(.up) / 1e8
        return String(format: "%.8f%%", cut)
    }

    /// A list of Dynamic Type sizes, runs collapsed: `xS S M`, `xxL–AX5`.
    static func sizes(_ sizes: [DynamicTypeSize]) -> String {
        let sorted = Array(Set(sizes)).sorted()
        var parts: [String] = []
        var i = 0
        while i < sorted.count {
            var j = i
            while j + 1 < sorted.count, sorted[j + 1].index == sorted[j].index + 1 { j += 1 }
            if j - i >= 2 {
                parts.append("\(sorted[i].short)–\(sorted[j].short)")
            } else {
                for k in i...j { parts.append(sorted[k].short) }
            }
            i = j + 1
        }
        return parts.joined(separator: " ")
    }
}

/// Builds the id of a group of variants: each part that is the same in all of them is kept, each
/// part that differs becomes `*`.
enum VariantGroupID {
    static func id(_ variants: [Variant]) -> String {
        guard let first = variants.first else { return "" }
        func part(_ f: (Variant) -> String) -> String {
            let v = f(first)
            return variants.allSatisfy { f($0) == v } ? v : "*"
        }
        let preset = part(\.preset)
        let component = part(\.component)
        let dt = part { $0.dynamicType.short }
        let theme = part(\.theme)
        let state = part { $0.state.rawValue }
        let scale = part { String($0.scale) }
        return "\(preset)/\(component)/\(dt)/\(theme)/\(state)@\(scale)x"
    }
}
