import Foundation
import GlyphAudit
import GlyphCore
import GlyphSnapshot
import Testing

/// Records each issue as a Swift Testing issue at `sourceLocation`, its pictures attached first
/// (`swift test --attachments-path DIR` keeps them; Xcode shows them in the test report).
func record(_ issues: [GlyphAuditIssue], sourceLocation: SourceLocation) {
    for issue in issues {
        for a in issue.attachments {
            Attachment.record(a.bytes, named: a.name, sourceLocation: sourceLocation)
        }
        Issue.record(Comment(rawValue: issue.message), sourceLocation: sourceLocation)
    }
}

/// Audits `spec` and records one issue per open finding at or above `failOn` (default: errors, as
/// `glyphaudit audit`), with the finding's message and its evidence picture attached. Bad input (a
/// spec that does not load) is thrown. Returns the audit for further checks.
///
///     @Test func checkboxIsAccessible() throws {
///         try expectAccessible(.file("Specs/checkbox.json"), failOn: .warning)
///     }
@discardableResult
public func expectAccessible(_ spec: GlyphSpec, failOn: Severity = .error, config: AuditConfig = AuditConfig(),
                             only: [String] = [], filePath: String = #filePath,
                             sourceLocation: SourceLocation = #_sourceLocation) throws -> AuditResult {
    let (result, issues) = try GlyphAuditCheck.audit(spec, failOn: failOn, config: config, only: only, filePath: filePath)
    record(issues, sourceLocation: sourceLocation)
    return result
}

/// Renders `spec` and checks every variant against its baseline in `snapshots` (relative to this
/// test file's folder); records one issue per mismatch, missing or unreadable baseline, and per
/// baseline written, with expected / actual / diff / side-by-side pictures attached. `record`:
/// `SnapshotRecordMode` (default `GLYPHAUDIT_RECORD`, else `missing`; always `never` under CI).
///
///     @Test func checkboxSnapshots() throws {
///         try expectSnapshots(.file("Specs/checkbox.json"), in: "Snapshots")
///     }
@discardableResult
public func expectSnapshots(_ spec: GlyphSpec, in snapshots: String, record mode: SnapshotRecordMode? = nil,
                            options: SnapshotOptions = SnapshotOptions(), only: [String] = [], filePath: String = #filePath,
                            sourceLocation: SourceLocation = #_sourceLocation) throws -> SnapshotReport {
    let (report, issues) = try GlyphSnapshotCheck.check(spec, snapshots: snapshots, record: mode, options: options, only: only,
                                                        filePath: filePath)
    record(issues, sourceLocation: sourceLocation)
    return report
}
