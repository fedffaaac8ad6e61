import Foundation
import GlyphCore

/// `margin`: an audit number kept with a baseline (`AuditMargins`, the snapshot manifest's
/// `margins`) that fell by more than a tolerance since the baseline was recorded. It is not in
/// `Auditor.registry` (it measures nothing itself: `check` and `run` compare the numbers the other
/// rules measured with the manifest's), but `.glyphaudit.json` configures it as a rule —
/// `"rules": { "margin": { "severity": "error", "tolerance": 0.1 } }` — and `rules explain margin`
/// explains it (`Auditor.configurable`).
public struct MarginRule: AuditRule {
    public static let ruleID = "margin"
    public init() {}

    public let id = MarginRule.ruleID
    public let title = "Audit numbers keep their margin across accepted snapshot changes"
    public let criterion: String? = nil
    public let reference = "glyphaudit: audit margins kept with the baselines (docs/snapshots.md, \"Audit margins\")"
    public let defaultSeverity = Severity.warning
    public let checks = """
    With baselines that have a manifest (snapshots/manifest.json), each variant's audit numbers are \
    kept beside its baseline: the area that changes to each other state in each colour view \
    (state-change.<state>.<view>, pt²), the contrast ratio of each part against what it sits on \
    (contrast.<part>), the label's (text-contrast.label), the focus ring's (focus-indicator.ring), \
    the room the glyph's and the label's ink leave inside their frames (clipping.glyph.room, \
    clipping.label.room, pt) and the hit area's shorter side (target-size, pt). check and run compare \
    this run's numbers with the recorded ones: a number that fell by more than `tolerance` (a share of \
    the recorded number) is a finding with both numbers, even when the pixels match or a changed \
    baseline was accepted. Every number is better when larger; a recorded number of 0 or less has no \
    margin to lose.
    """
    public let fix = """
    If the change was meant and the smaller margin is acceptable, record the numbers with the pixels \
    (check --update, run --update, or accept from a CI report); otherwise bring the number back (a \
    darker colour, a larger mark, a larger frame).
    """
    public static let defaultTolerance = 0.25
    public let parameters = [
        RuleParameter("tolerance", MarginRule.defaultTolerance, range: 0...1,
                      "The share of a recorded number that may be lost before it is reported (--margin-tolerance overrides it)."),
    ]

    public func threshold(_ o: RuleOptions) -> String {
        "no audit number falls by more than \(Format.thresholdPercent(o["tolerance"])) of its value at the baseline"
    }

    /// It measures nothing: `check` and `run` compare the manifest's numbers (`AuditMargins.losses`).
    public func check(_ input: AuditInput, _ o: RuleOptions) -> [Finding] { [] }
}

/// How margin losses are reported in a run: the tolerance (`--margin-tolerance`, else the
/// configuration's `rules.margin.tolerance`, else 0.25) and the severity (the configuration's
/// `rules.margin`, warning by default; nil when it is `off`).
public struct MarginPolicy: Sendable, Equatable {
    public var tolerance: Double
    public var severity: Severity?

    public init(tolerance: Double = MarginRule.defaultTolerance, severity: Severity? = .warning) {
        self.tolerance = tolerance
        self.severity = severity
    }

    public init(config: AuditConfig, tolerance override: Double? = nil) {
        let setting = config.rules[MarginRule.ruleID]
        tolerance = override ?? setting?.values["tolerance"] ?? MarginRule.defaultTolerance
        severity = setting?.severity.map { $0.severity } ?? .warning
    }

    /// The findings of the variants whose numbers (`after`, by variant) fell from their manifest's
    /// (`before`): one per component and number, like the other rules' (folded across Dynamic Type
    /// sizes, themes, states and scales; its variant id has `*` where they differ), with the largest
    /// loss's `before` and `after`, the `tolerance` and the number of variants; none when `off`.
    public func findings(before: [String: AuditNumbers], after: [String: AuditNumbers], variants: [Variant],
                         jobs: Int = 1) -> [Finding] {
        if before.isEmpty { return findings(recorded: nil, after: after, variants: variants, jobs: jobs) }
        let recorded: @Sendable (String) -> AuditNumbers? = { id in before[id] }
        return findings(recorded: recorded, after: after, variants: variants, jobs: jobs)
    }

    /// The same with the recorded numbers looked up by variant id (a manifest's entries, read in
    /// place: no table of them is built); nil when none are recorded.
    public func findings(recorded before: (@Sendable (String) -> AuditNumbers?)?, after: [String: AuditNumbers],
                         variants: [Variant], jobs: Int = 1) -> [Finding] {
        guard let severity, let before else { return [] }
        struct Key: Hashable { let preset: String, component: String, name: String }
        var order: [Key] = []
        var lost: [Key: [(variant: Variant, before: Double, after: Double)]] = [:]
        // Each variant's losses (most have none), in parallel; then folded in plan order.
        let tolerance = tolerance
        let losses = parallelMap(variants.count, jobs: jobs) { i -> [(String, Double, Double)] in
            let id = variants[i].id
            guard let old = before(id), let new = after[id] else { return [] }
            return old.losses(to: new, tolerance: tolerance)
        }
        for (variant, found) in zip(variants, losses) where !found.isEmpty {
            for (name, b, a) in found {
                let key = Key(preset: variant.preset, component: variant.component, name: name)
                if lost[key] == nil { order.append(key) }
                lost[key, default: []].append((variant, b, a))
            }
        }
        return order.map { key in
            let items = lost[key]!
            // The largest share lost (the first in plan order on a tie).
            let worst = items.max { ($0.before - $0.after) / $0.before < ($1.before - $1.after) / $1.before }!
            let same = items.allSatisfy { $0.before == worst.before && $0.after == worst.after }
            let id = items.count == 1 ? worst.variant.variantID : VariantGroupID.id(items.map(\.variant))
            return Finding(rule: MarginRule.ruleID, severity: severity, criterion: nil, variant: id, subject: key.name,
                           message: Self.message(key.name, before: worst.before, after: worst.after, tolerance: tolerance,
                                                 variants: items.count, same: same),
                           numbers: ["before": worst.before, "after": worst.after, "tolerance": tolerance, "variants": Double(items.count)])
        }
    }

    /// `target-size fell from 48 to 30 (38 % of its margin gone; the tolerance is 25 %)`.
    /// In several variants: `target-size fell from 48 to 30 in 4 variants (…)` when the numbers are the
    /// same in all, else `contrast.fill fell in 6 variants, the most from 7.01 to 3.94 (…)`.
    public static func message(_ name: String, before: Double, after: Double, tolerance: Double,
                               variants: Int = 1, same: Bool = true) -> String {
        let lost = (before - after) / before * 100
        let fall = "from \(Format.number(before)) to \(Format.number(after))"
        let what = variants == 1 ? "fell \(fall)" : same ? "fell \(fall) in \(variants) variants" : "fell in \(variants) variants, the most \(fall)"
        return "\(name) \(what) "
            + "(\(String(format: "%.0f", lost)) % of its margin gone; the tolerance is \(String(format: "%.0f", tolerance * 100)) %)"
    }
}
