import Foundation

/// A number a rule reads from `.glyphaudit.json` (`rules.<id>.<name>`), with its default and range.
public struct RuleParameter: Sendable, Equatable {
    public var name: String
    public var defaultValue: Double
    public var range: ClosedRange<Double>
    public var help: String

    public init(_ name: String, _ defaultValue: Double, range: ClosedRange<Double>, _ help: String) {
        self.name = name
        self.defaultValue = defaultValue
        self.range = range
        self.help = help
    }
}

/// The values of a rule's parameters for one run: the configured value, else the default.
public struct RuleOptions: Sendable, Equatable {
    public var values: [String: Double]
    private var defaults: [String: Double]

    public init(parameters: [RuleParameter], values: [String: Double] = [:]) {
        self.values = values
        self.defaults = Dictionary(uniqueKeysWithValues: parameters.map { ($0.name, $0.defaultValue) })
    }

    public subscript(_ name: String) -> Double {
        if let v = values[name] { return v }
        guard let d = defaults[name] else { preconditionFailure("no parameter named \(name)") }
        return d
    }
}

/// One audit rule: a pure function of rendered pixels, layout and authored colours.
///
/// The engine (`Auditor`) knows nothing about individual rules; it hands each rule the whole
/// `AuditInput` and collects what it returns. A rule picks the variants it needs (one variant,
/// the states of one variant, a control across Dynamic Type sizes) with the input's grouping helpers.
public protocol AuditRule: Sendable {
    /// Stable id: `state-shape`, `nontext-contrast` …
    var id: String { get }
    /// A short title for listings.
    var title: String { get }
    /// The WCAG 2.2 success criterion (`1.4.11`), or nil for a platform rule.
    var criterion: String? { get }
    /// The full name of the standard the rule serves, e.g. "WCAG 2.2 SC 1.4.11 Non-text Contrast (AA)".
    var reference: String { get }
    /// The severity of a failure before configuration.
    var defaultSeverity: Severity { get }
    /// What the rule checks and how, in a paragraph (for `rules explain` and docs).
    var checks: String { get }
    /// How to fix a failure.
    var fix: String { get }
    /// The numbers the rule reads from configuration.
    var parameters: [RuleParameter] { get }
    /// The threshold in words for the given options.
    func threshold(_ options: RuleOptions) -> String
    /// Runs the rule on the variants of the input. The pipeline hands in one component at a time
    /// (a preset's shape and size: every Dynamic Type size, theme, state and scale of it, with
    /// its pixels), so what a rule compares must lie within one component.
    func check(_ input: AuditInput, _ options: RuleOptions) -> [Finding]
    /// What compares components with each other without pixels (the authored colours of a theme,
    /// which cover every shape and size at once): run once per preset on its layouts alone (the
    /// input has no glyphs). Empty by default.
    func checkAcrossComponents(_ input: AuditInput, _ options: RuleOptions) -> [Finding]
}

extension AuditRule {
    public var defaultOptions: RuleOptions { RuleOptions(parameters: parameters) }

    public func checkAcrossComponents(_ input: AuditInput, _ options: RuleOptions) -> [Finding] { [] }

    /// Both passes over one input holding every variant at once (as `Auditor.run(_:)` does).
    public func checkWhole(_ input: AuditInput, _ options: RuleOptions) -> [Finding] {
        checkAcrossComponents(input, options) + check(input, options)
    }
}
