import Foundation
import GlyphAudit
import GlyphCore
import GlyphSnapshot

// Conversions into the report model: rules as the report lists them, snapshot results as records
// (findings are written as they are: `Finding` is Codable).

extension RuleRecord {
    /// A rule as the report lists it, with the severity the configuration gives it.
    public init(_ rule: any AuditRule, config: AuditConfig = AuditConfig()) {
        self.init(id: rule.id, title: rule.title, criterion: rule.criterion,
                  severity: config.rules[rule.id]?.severity ?? ConfiguredSeverity(rawValue: rule.defaultSeverity.rawValue)!,
                  summary: rule.checks, fix: rule.fix)
    }
}

extension SnapshotSection {
    /// Snapshot results as report records, with their pictures inside the report folder (the
    /// baseline of each mismatch is copied there, so the report shows all three without the
    /// repository); paths relative to the report folder (pictures) and to `cwd` (baselines).
    public init(_ checked: SnapshotReport, folder: URL, report: URL, cwd: URL) throws {
        var records: [SnapshotRecord] = []
        records.reserveCapacity(checked.results.count)
        let belowCwd = RelativePaths(base: cwd)
        for r in checked.results {
            var rec = SnapshotRecord(id: r.id, status: r.status, failed: r.failed,
                                     baseline: belowCwd.relative(r.baseline), action: r.action,
                                     message: r.message ?? r.writeError, mismatchedPixels: r.difference?.mismatchedPixels,
                                     mismatchRatio: r.difference?.mismatchRatio, maxDelta: r.difference?.maxColorDelta,
                                     expectedSize: r.difference.map { [$0.expectedSize.width, $0.expectedSize.height] },
                                     actualSize: r.difference.map { [$0.actualSize.width, $0.actualSize.height] })
            // The one wording of a difference (the same as `check`'s list).
            if let summary = r.differenceSummary { rec.message = summary }
            if let o = r.outputs {
                rec.actual = relativePath(o.actual, base: report)
                rec.diff = relativePath(o.diff, base: report)
                rec.sideBySide = relativePath(o.sideBySide, base: report)
                // The baseline beside them, so the report shows all three without the repository.
                let expected = "snapshots/\(r.id).expected.png"
                if let data = try? InputFile.read(r.baseline, limit: Limits.pngFileBytes) {
                    try writeIfChanged(data, to: report.appendingPathComponent(expected))
                    rec.expected = expected
                }
            }
            if let c = r.candidate { rec.candidate = relativePath(c, base: report) }
            rec.manifest = r.manifestEntry
            records.append(rec)
        }
        self.init(folder: relativePath(folder.path, base: cwd), results: records)
        candidates = checked.candidates.map { relativePath($0, base: report) }
        if let keys = checked.manifestKeys, let renderer = checked.manifestRenderer {
            manifest = ManifestRecord(keys: keys, renderer: renderer)
        }
    }
}
