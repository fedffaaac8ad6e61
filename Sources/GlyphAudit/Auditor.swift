import Foundation
import GlyphCore
import GlyphRaster

/// The audit engine: runs every registered rule over the input, applies the configuration
/// (severities, thresholds, accepted findings) and orders the result. It knows nothing about
/// individual rules; adding a rule is adding it to `registry`.
public struct Auditor: Sendable {
    /// Every rule, in the order reports list them.
    public static let registry: [any AuditRule] = [
        StateShapeRule(),
        NonTextContrastRule(),
        TextContrastRule(),
        ClippingRule(),
        DynamicTypeScalingRule(),
        TargetSizeRule(),
        ImageAspectRule(),
        FocusIndicatorRule(),
        SettingRegressionRule(),
    ]

    /// What `.glyphaudit.json` configures and `rules` lists: every rule, and `margin` (`MarginRule`),
    /// which measures nothing itself and so never runs with the others.
    public static let configurable: [any AuditRule] = registry + [MarginRule()]

    public static func rule(_ id: String) -> (any AuditRule)? { configurable.first { $0.id == id } }

    /// The rules a run of `specs` audits with: every rule, but `setting-regression` only when a spec
    /// has display settings and `focus-indicator` only when a spec (or a setting's spec) has `focus`
    /// (so a run without them reports exactly the rules it did before).
    public static func rules(for specs: [Spec]) -> [any AuditRule] {
        let settings = specs.contains { !$0.settings.isEmpty }
        let focus = specs.contains { $0.focus != nil || $0.settingSpecs.values.contains { $0.focus != nil } }
        return registry.filter {
            (settings || $0.id != SettingRegressionRule.ruleID) && (focus || $0.id != FocusIndicatorRule.ruleID)
        }
    }

    public var rules: [any AuditRule]
    public var config: AuditConfig

    public init(config: AuditConfig = AuditConfig(), rules: [any AuditRule] = Auditor.registry) {
        self.config = config
        self.rules = rules
    }

    /// The options of a rule under this configuration.
    public func options(for rule: any AuditRule) -> RuleOptions {
        RuleOptions(parameters: rule.parameters, values: config.rules[rule.id]?.values ?? [:])
    }

    /// Audits rendered variants: `rasters` are the full renders of `plan.items`, index-aligned.
    public func run(plan: Plan, rasters: [Raster], jobs: Int = defaultJobs, drawing: any AuditDrawing) -> AuditResult {
        run(AuditInput(plan: plan, rasters: rasters, jobs: jobs, drawing: drawing))
    }

    /// Renders and audits; only the glyphs are kept in memory.
    public func run(plan: Plan, jobs: Int = defaultJobs, drawing: any AuditDrawing) -> AuditResult {
        run(AuditInput(plan: plan, jobs: jobs, drawing: drawing))
    }

    /// Audits the whole input at once (both passes; the pipeline streams them instead).
    public func run(_ input: AuditInput) -> AuditResult {
        // Rules compare variants of one display setting only: an input with several is audited a
        // setting at a time, as the pipeline slices it.
        let found = input.settingSlices().flatMap { findings($0, pass: .acrossComponents) + findings($0, pass: .components) }
        return conclude(found, presets: input.specs.map(\.name), variants: input.items.count)
    }

    /// The rules that run under this configuration (not `off`), in registry order.
    public var ranRules: [String] { rules.filter { config.rules[$0.id]?.severity != .off }.map(\.id) }

    /// One pass of every rule that runs over `input`, with the configured severities; unordered
    /// and not yet matched with accepted findings (`conclude` does that once, for the whole run).
    /// `times`, when given, gets each rule's wall time. With `only`, just the rules of those ids (the
    /// pipeline splits the component pass by `groupRuleIDs` under `--incremental` and `--shard`).
    public func findings(_ input: AuditInput, pass: AuditPass, only: Set<String>? = nil, times: RuleTimes? = nil) -> [Finding] {
        var findings: [Finding] = []
        // Focused variants draw the unfocused glyph plus a ring: only `focus-indicator` looks at them.
        let unfocused = input.withoutFocused()
        // An input of one display setting's variants (the pipeline slices by setting): every
        // message names it (`under Bold Text: …`), unless the rule's own message does.
        let display = input.items.first?.variant.setting
        let named = display != nil && input.items.allSatisfy { $0.variant.setting == display }
        for rule in rules {
            let setting = config.rules[rule.id]
            if setting?.severity == .off { continue }
            if let only, !only.contains(rule.id) { continue }
            let start = times == nil ? 0 : DispatchTime.now().uptimeNanoseconds
            let found = switch pass {
            case .acrossComponents: rule.checkAcrossComponents(rule is FocusIndicatorRule ? input : unfocused, options(for: rule))
            case .components: rule.check(rule is FocusIndicatorRule ? input : unfocused, options(for: rule))
            }
            times?.add(rule.id, DispatchTime.now().uptimeNanoseconds - start)
            for var f in found {
                if let s = setting?.severity?.severity {
                    // The configured severity replaces the rule's failure level; lower levels are never raised.
                    f.severity = f.severity == rule.defaultSeverity ? s : min(f.severity, s)
                }
                if named, let display, !f.message.hasPrefix("under ") { f.message = "under \(display.title): " + f.message }
                findings.append(f)
            }
        }
        return findings
    }

    /// The result of a run from the findings of its passes (in the order they were found): ordered,
    /// matched with the accepted findings of the configuration.
    public func conclude(_ found: [Finding], presets: [String], variants: Int) -> AuditResult {
        var findings = found
        let ran = ranRules
        // Group by preset (plan order), then rule (registry order); each rule's own order within.
        let presetOrder = Dictionary(uniqueKeysWithValues: presets.enumerated().map { ($1, $0) })
        let ruleOrder = Dictionary(uniqueKeysWithValues: rules.enumerated().map { ($1.id, $0) })
        findings = findings.enumerated().sorted { x, y in
            let a = (presetOrder[x.element.preset] ?? Int.max, ruleOrder[x.element.rule] ?? Int.max, x.offset)
            let b = (presetOrder[y.element.preset] ?? Int.max, ruleOrder[y.element.rule] ?? Int.max, y.offset)
            return a < b
        }.map(\.element)

        var used = Set<Int>()
        let accepted = config.accepted
        for i in findings.indices {
            if let k = accepted.firstIndex(where: { $0.matches(findings[i]) }) {
                findings[i].accepted = accepted[k].reason
                used.insert(k)
            }
        }
        let unused = accepted.indices.filter { !used.contains($0) }.map { accepted[$0] }
        // Entries that recorded a finding which is still there but changed (or got worse).
        var changed: [(entry: AcceptedFinding, now: Finding)] = []
        for entry in unused where entry.message != nil || entry.severity != nil {
            if let now = findings.first(where: { $0.accepted == nil && entry.matchesPlace($0) }) { changed.append((entry, now)) }
        }
        var usedPlaceholders: [String: Int] = [:]
        for k in used.sorted() where accepted[k].hasPlaceholderReason {
            usedPlaceholders[accepted[k].file ?? "the configuration", default: 0] += 1
        }
        var result = AuditResult(findings: findings, unusedAccepted: unused, rules: ran, presets: presets, variants: variants)
        result.changedAccepted = changed
        result.placeholderReasons = usedPlaceholders.sorted { $0.key < $1.key }.map { (file: $0.key, entries: $0.value) }
        return result
    }
}

/// The two passes of an audit: once per preset across its components (colours, no pixels), then
/// once per component with its pixels.
public enum AuditPass: Sendable {
    case acrossComponents
    case components
}

/// What an audit found.
public struct AuditResult: Sendable {
    public var findings: [Finding]
    /// Baseline entries that matched no finding (the problem was fixed, or the entry is stale).
    public var unusedAccepted: [AcceptedFinding]
    /// Unused entries whose finding is still there with another message or a higher severity: the
    /// finding changed since it was accepted (it is open again).
    public var changedAccepted: [(entry: AcceptedFinding, now: Finding)] = []
    /// Per baseline file, how many entries that accept a finding still have the placeholder reason.
    public var placeholderReasons: [(file: String, entries: Int)] = []
    public var rules: [String]
    public var presets: [String]
    public var variants: Int

    /// The warning to print while accepted findings keep the placeholder reason `--write-baseline`
    /// wrote, one line per file; empty when there are none.
    public var placeholderWarnings: [String] {
        placeholderReasons.map { p in
            let n = p.entries == 1 ? "1 accepted finding keeps" : "\(p.entries) accepted findings keep"
            return "warning: \(n) the placeholder reason \"\(AcceptedFinding.placeholderPrefix): …\" in \(p.file); "
                + "replace it with the real reason each is accepted"
        }
    }

    /// Findings not accepted by a baseline.
    public var open: [Finding] { findings.filter { $0.accepted == nil } }

    public func count(_ severity: Severity) -> Int { open.filter { $0.severity == severity }.count }

    /// Whether an open finding is at or above `level` (nil: never fail).
    public func fails(at level: Severity?) -> Bool {
        guard let level else { return false }
        return open.contains { $0.severity >= level }
    }

    /// The result as `audit --json` prints it (`AuditJSON`), with a final newline.
    public func jsonData() throws -> Data {
        try JSONOutput.data(AuditJSON(self), keyOrder: .natural)
    }
}

extension Auditor {
    /// The rules whose component pass compares variants within one variant group only (a
    /// component in one theme and display setting: `Variant.groupKey`), reading its renders. The
    /// other rules' component pass folds a component's themes together on layouts (and the ink of
    /// image glyphs, `ClippingRule.glyphInks`), so `--incremental` and `--shard` run these per
    /// group and the rest over the whole component without its renders.
    public static let groupRuleIDs: Set<String> = ["state-shape", "nontext-contrast", FocusIndicatorRule.ruleID]

    /// The other rules' ids (their component pass folds a component's themes; see `groupRuleIDs`).
    public var foldRuleIDs: Set<String> { Set(rules.map(\.id)).subtracting(Self.groupRuleIDs) }
}
