import Foundation
import GlyphAudit
import GlyphCore
import GlyphSnapshot

/// What `check` found: the snapshot comparison and the `margin` findings (docs/snapshots.md,
/// "Audit margins").
public struct CheckOutcome: Sendable {
    public var snapshots: SnapshotReport
    public var margins: [Finding]
}

extension Pipeline {
    /// Whether a check measures the audit numbers kept in the manifest: when the folder has a
    /// manifest (to compare them), or the check writes one (`--record`, `--update`) or stages
    /// candidates whose manifest entries `accept` writes.
    public static func checkMeasuresMargins(_ checker: SnapshotChecker) -> Bool {
        checker.manifestInputs != nil
            && (checker.manifest != nil || !checker.writes.intersection([.record, .update]).isEmpty || checker.candidates != nil)
    }

    /// `glyphaudit check`: renders and compares the plan. When the check measures margins
    /// (`checkMeasuresMargins`), the variants are audited as `run` audits them (the rules of
    /// `config`), streaming one component at a time, only for the numbers the manifest keeps: they
    /// go into the manifest entries the check writes, and a number that fell from the manifest's by
    /// more than the policy's tolerance is a `margin` finding. The results are in plan order, stale
    /// baselines last, as `SnapshotChecker.run` gives them.
    public static func check(_ plan: Plan, checker: SnapshotChecker, jobs: Int, incremental: Bool, config: AuditConfig,
                             policy: MarginPolicy, tool: String) throws -> CheckOutcome {
        guard checkMeasuresMargins(checker) else {
            let report = incremental ? checker.runIncremental(plan, jobs: jobs) : checker.run(plan, jobs: jobs)
            return CheckOutcome(snapshots: report, margins: [])
        }
        let auditor = Auditor(config: config, rules: Auditor.rules(for: plan.specs))
        var options = PipelineOptions(jobs: jobs, auditor: auditor, snapshots: checker)
        options.marginPolicy = policy
        if incremental {
            options.incremental = true
            options.auditCache = AuditCache(snapshots: checker.store.root, auditor: auditor, tool: tool)
        }
        let done = try run(plan, options)
        var report = done.snapshots!
        let order = Dictionary(plan.items.enumerated().map { ($1.variant.id, $0) }, uniquingKeysWith: { a, _ in a })
        // Each id's text built once.
        let keys = report.results.map { order[$0.id.description] ?? Int.max }
        report.results = keys.indices.sorted { (keys[$0], $0) < (keys[$1], $1) }.map { report.results[$0] }
        return CheckOutcome(snapshots: report, margins: done.marginFindings ?? [])
    }
}
