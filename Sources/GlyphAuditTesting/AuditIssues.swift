import Foundation
import GlyphAudit
import GlyphCore
import GlyphPipeline

/// The audit behind `expectAccessible` and `XCTAssertAccessible`, without a test framework: the
/// issues a test records, one per open finding at or above a severity.
public enum GlyphAuditCheck {
    /// Audits `spec` (every rule, as `glyphaudit audit`, through `Pipeline.run`) and returns the audit
    /// and one issue per open finding (not accepted by `config`) at or above `failOn`, in the
    /// audit's order, each with the finding's evidence picture attached when it has one (named after
    /// its path in `--evidence`'s folder, `_` for `/`).
    public static func audit(_ spec: GlyphSpec, failOn: Severity = .error, config: AuditConfig = AuditConfig(),
                             only: [String] = [], filePath: String = #filePath) throws -> (result: AuditResult, issues: [GlyphAuditIssue]) {
        let plan = try plan(try spec.load(relativeTo: filePath), only: only)
        return try withScratchFolder { folder in
            let done = try Pipeline.run(plan, PipelineOptions(auditor: Auditor(config: config), evidence: folder))
            let result = done.audit!
            let issues = result.open.filter { $0.severity >= failOn }.map { f in
                GlyphAuditIssue(message: message(f), finding: f,
                                attachments: f.picturePath.flatMap { p in
                                    GlyphAuditAttachment.file(folder.appendingPathComponent(p).path,
                                                              name: p.replacingOccurrences(of: "/", with: "_"))
                                }.map { [$0] } ?? [])
            }
            return (result, issues)
        }
    }

    /// A finding as an issue's text: what `glyphaudit audit` prints for it, on one line and the lines after.
    ///
    ///     error swiftui-checkbox/checkbox-md/large/light/unchecked@2x non-text-contrast (1.4.11): <message>
    ///       fix: <suggestion>
    ///       at spec.json:12 themes.light.border
    public static func message(_ f: Finding) -> String {
        var text = "\(f.severity.rawValue) \(f.variant) \(f.rule)"
        if let c = f.criterion { text += " (\(c))" }
        text += ": \(f.message)"
        if let s = f.suggestion { text += "\n  fix: \(s.text)" }
        if let l = f.location { text += "\n  at \(l.description)" }
        return text
    }
}
