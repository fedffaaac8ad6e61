import Foundation
import GlyphColor
import GlyphCore

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
/// token file and line of the token the spec names. When that token is itself an alias, the chain
/// it passed through, each token with its line, and the colour it came to.
public struct FindingLocation: Sendable, Equatable, Codable {
    /// One token of an alias chain: `{base.color.light.neutral.8}` and the line of its value.
    public struct AliasStep: Sendable, Equatable, Codable {
        public var token: String
        public var line: Int?

        public init(token: String, line: Int?) {
            self.token = token
            self.line = line
        }
    }

    public var file: String
    public var line: Int?
    public var keyPath: String?
    /// The token alias used in the spec, e.g. `{mark.default.border.default}`.
    public var token: String?
    public var tokenFile: String?
    /// The line of the token the spec names (the first of `aliasChain`); for a token that holds
    /// its value itself, the token whose value (or Tokens Studio modifier) made the colour.
    public var tokenLine: Int?
    /// When the token the spec names is an alias: every token the colour came through, first (the
    /// one the spec names) to last (the one holding the value); nil otherwise.
    public var aliasChain: [AliasStep]?
    /// The colour the chain came to, as drawn (`#818B98`); with `aliasChain` only.
    public var aliasValue: String?

    public init(file: String, line: Int? = nil, keyPath: String? = nil, token: String? = nil,
                tokenFile: String? = nil, tokenLine: Int? = nil, aliasChain: [AliasStep]? = nil, aliasValue: String? = nil) {
        self.file = file
        self.line = line
        self.keyPath = keyPath
        self.token = token
        self.tokenFile = tokenFile
        self.tokenLine = tokenLine
        self.aliasChain = aliasChain
        self.aliasValue = aliasValue
    }

    /// `file:line` for messages; with an alias chain, the tokens after the first and the value:
    /// `… via {light.fgColor.disabled} in tokens/primer.tokens.json:216 → {base.color.light.neutral.8}
    /// (primer.tokens.json:31) → #818B98`.
    public var description: String {
        var s = file
        if let line { s += ":\(line)" }
        if let keyPath { s += " (\(keyPath))" }
        if let token {
            s += " via \(token)"
            if let tokenFile { s += " in \(tokenFile)" + (tokenLine.map { ":\($0)" } ?? "") }
            s += chainText
        }
        return s
    }

    /// The rest of an alias chain as text: ` → {base.color.light.neutral.8} (primer.tokens.json:31)
    /// → #818B98` (the token file by its name), or "" without a chain.
    public var chainText: String {
        guard let aliasChain, aliasChain.count > 1 else { return "" }
        let name = tokenFile.map { URL(fileURLWithPath: $0).lastPathComponent }
        var s = ""
        for step in aliasChain.dropFirst() {
            s += " → \(step.token)"
            if let name, let line = step.line { s += " (\(name):\(line))" }
        }
        if let aliasValue { s += " → \(aliasValue)" }
        return s
    }
}

/// What a picture proving a finding shows; on request (`--evidence DIR`) described by `EvidencePictures.sketch` and
/// painted by the render target.
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
    /// A focus indicator: the ring's region unfocused, focused, and the pixels that changed by at least `ratio`.
    case focus(unfocused: Variant, focused: Variant, ratio: Double = 3)
}

/// One problem (or, at `info`, one observation) a rule found in one variant or group of variants.
///
/// `variant` is a variant id (`preset/component/dynamic type/theme/state@scale`, written as that
/// text in every report). A finding that
/// holds for several values of one part puts `*` there (`swiftui-switch/switch-md/*/default/off@*x`
/// holds at every Dynamic Type size and scale audited); its message says which.
/// `subject` names what was measured ("off track", "unchecked vs checked", "glyph"), so that a
/// baseline can accept one finding and not its neighbours.
public struct Finding: Sendable, Equatable {
    public var rule: String
    public var severity: Severity
    /// The WCAG 2.2 success criterion the rule serves (`1.4.11`), nil for platform rules.
    public var criterion: String?
    public var variant: VariantID
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
    /// For a contrast finding: the nearest colour that reaches the ratio (`ColorFix`).
    public var suggestion: ColorFix?

    public init(rule: String, severity: Severity, criterion: String?, variant: VariantID, subject: String,
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
    public var preset: String { id.preset }

    /// The variant id (the same as `variant`).
    public var id: VariantID { variant }

    /// Findings with equal keys say the same thing at other Dynamic Type sizes or scales: reports
    /// fold them into one entry (rule, severity, subject, acceptance and the id without size and scale).
    public var foldKey: String {
        let place = variant.isComplete ? variant.anySizeAndScale.description : variant.description
        return [rule, severity.rawValue, subject, accepted ?? "", place].joined(separator: "\u{0}")
    }
}

/// A finding as every report writes it (report.json, and what `merge-reports` reads back): the
/// description of its picture is not kept, the picture's path is (`evidence`), and Dynamic Type
/// sizes go by their short names.
extension Finding: Codable {
    private enum CodingKeys: String, CodingKey {
        case rule, severity, criterion, variant, subject, message, numbers, values, location, accepted
        case picturePath = "evidence"
        case dynamicTypeSizes
        case suggestion
        case setting, focused
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        rule = try c.decode(String.self, forKey: .rule)
        severity = try c.decode(Severity.self, forKey: .severity)
        criterion = try c.decodeIfPresent(String.self, forKey: .criterion)
        variant = try c.decode(VariantID.self, forKey: .variant)
        subject = try c.decode(String.self, forKey: .subject)
        message = try c.decode(String.self, forKey: .message)
        numbers = try c.decode([String: Double].self, forKey: .numbers)
        values = try c.decode([String: String].self, forKey: .values)
        location = try c.decodeIfPresent(FindingLocation.self, forKey: .location)
        accepted = try c.decodeIfPresent(String.self, forKey: .accepted)
        picturePath = try c.decodeIfPresent(String.self, forKey: .picturePath)
        dynamicTypeSizes = try c.decodeIfPresent([String].self, forKey: .dynamicTypeSizes)?.map { name in
            guard let size = DynamicTypeSize(name: name) else {
                throw DecodingError.dataCorruptedError(forKey: .dynamicTypeSizes, in: c,
                                                       debugDescription: "unknown Dynamic Type size \"\(name)\"")
            }
            return size
        }
        suggestion = try c.decodeIfPresent(ColorFix.self, forKey: .suggestion)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(rule, forKey: .rule)
        try c.encode(severity, forKey: .severity)
        try c.encodeIfPresent(criterion, forKey: .criterion)
        try c.encode(variant, forKey: .variant)
        try c.encode(subject, forKey: .subject)
        try c.encode(message, forKey: .message)
        try c.encode(numbers, forKey: .numbers)
        try c.encode(values, forKey: .values)
        try c.encodeIfPresent(location, forKey: .location)
        try c.encodeIfPresent(accepted, forKey: .accepted)
        try c.encodeIfPresent(picturePath, forKey: .picturePath)
        try c.encodeIfPresent(dynamicTypeSizes?.map(\.short), forKey: .dynamicTypeSizes)
        try c.encodeIfPresent(suggestion, forKey: .suggestion)
        // Written from the variant id (read back from it): only for a finding under a display
        // setting or about a focused variant, so other findings are written as before.
        try c.encodeIfPresent(variant.setting, forKey: .setting)
        if variant.focused { try c.encode(true, forKey: .focused) }
    }
}

/// What a contrast finding suggests instead: the colour nearest the failing one (same OKLCH hue,
/// chroma and alpha; lightness moved) that reaches the required ratio plus a margin of
/// `ColorFix.margin`, measured on its 8-bit value as drawn. When the spec took the colour from a
/// token, `token` names it: the token is what to change.
public struct ColorFix: Sendable, Equatable, Codable {
    /// The ratio the suggestion reaches beyond the one required: 3.05:1 for 3:1.
    public static let margin = 0.05

    /// What the colour paints ("off track", "label").
    public var part: String
    /// The colour as written (`#RRGGBB`, or `#RRGGBBAA`).
    public var from: String
    /// The suggested colour, in the same form.
    public var to: String
    /// The background the ratio is measured against.
    public var background: String
    /// The suggested colour's ratio against the background, never rounded.
    public var ratio: Double
    public var required: Double
    /// The token alias the spec used for the colour, e.g. `{color.track.off}`.
    public var token: String?
    /// The spec key that sets the colour (`themes.default.trackOff`).
    public var keyPath: String?
    /// For rendered pixels: the share of its best pixel a part covers; `ratio` is that pixel's.
    public var coverage: Double?

    public init(part: String, from: String, to: String, background: String, ratio: Double, required: Double,
                token: String? = nil, keyPath: String? = nil) {
        self.part = part
        self.from = from
        self.to = to
        self.background = background
        self.ratio = ratio
        self.required = required
        self.token = token
        self.keyPath = keyPath
    }

    /// The nearest passing colour for `foreground` (as authored, drawn over `background`), or nil
    /// when none reaches `required + margin` by lightness alone.
    ///
    /// `coverage` below 1 is for a rendered part whose best pixel covers only that share of the
    /// pixel (a thin stroke): the suggestion is the colour whose pixels at that coverage reach the
    /// ratio, and `ratio` is that pixel's.
    public init?(part: String, foreground: RGBA, background: RGBA, required: Double, coverage: Double = 1,
                 location: FindingLocation?) {
        guard let s = ContrastSuggestion.nearest(to: foreground, on: background, reaching: required + Self.margin,
                                                 coverage: coverage) else { return nil }
        self.init(part: part, from: foreground.hex, to: s.color.hex, background: background.hex, ratio: s.ratio,
                  required: required, token: location?.token, keyPath: location?.keyPath)
        if coverage < 1 { self.coverage = coverage }
    }

    /// "3.06:1", or "3.06:1 at its best pixel" for a rendered part.
    public var ratioText: String { Format.ratio(ratio) + (coverage != nil ? " at its best pixel" : "") }

    /// "use #949494 (3.05:1)", or with a token "set {color.track.off} to #949494 (3.05:1)".
    public var text: String {
        let what = token.map { "set \($0) to \(to)" } ?? "use \(to)"
        return "\(what) (\(ratioText))"
    }
}

// MARK: - Formatting helpers shared by the rules


/// Builds the id of a group of variants: each part that is the same in all of them is kept, each
/// part that differs becomes `*`.
enum VariantGroupID {
    static func id(_ variants: [Variant]) -> VariantID {
        VariantID.group(variants.map(\.variantID)) ?? VariantID(parsing: "")
    }
}
