#if canImport(XCTest)
import Foundation
import GlyphAudit
import GlyphCore
import GlyphSnapshot
import XCTest

// XCTest versions of the helpers. swift-corelibs-xctest (Linux) has no attachments (XCTAttachment is
// Apple's XCTest only), so here each failure names its pictures instead: they are kept in
// `artifacts` (by default `<temporary folder>/glyphaudit-testing`), one folder per failure.

/// `expectAccessible` for XCTest: one `XCTFail` per open finding at or above `failOn`.
@discardableResult
public func XCTAssertAccessible(_ spec: GlyphSpec, failOn: Severity = .error, config: AuditConfig = AuditConfig(),
                                only: [String] = [], artifacts: URL? = nil, filePath: String = #filePath,
                                file: StaticString = #filePath, line: UInt = #line) throws -> AuditResult {
    let (result, issues) = try GlyphAuditCheck.audit(spec, failOn: failOn, config: config, only: only, filePath: filePath)
    fail(issues, artifacts: artifacts, file: file, line: line)
    return result
}

/// `expectSnapshots` for XCTest: one `XCTFail` per mismatch, missing or unreadable baseline, and per
/// baseline written.
@discardableResult
public func XCTAssertSnapshots(_ spec: GlyphSpec, in snapshots: String, record mode: SnapshotRecordMode? = nil,
                               options: SnapshotOptions = SnapshotOptions(), only: [String] = [], artifacts: URL? = nil,
                               filePath: String = #filePath, file: StaticString = #filePath, line: UInt = #line) throws -> SnapshotReport {
    let (report, issues) = try GlyphSnapshotCheck.check(spec, snapshots: snapshots, record: mode, options: options, only: only,
                                                        filePath: filePath)
    fail(issues, artifacts: artifacts, file: file, line: line)
    return report
}

func fail(_ issues: [GlyphAuditIssue], artifacts: URL?, file: StaticString, line: UInt) {
    let root = artifacts ?? FileManager.default.temporaryDirectory.appendingPathComponent("glyphaudit-testing")
    for issue in issues {
        var message = issue.message
        if !issue.attachments.isEmpty {
            let folder = root.appendingPathComponent(UUID().uuidString)
            let written = issue.attachments.compactMap { a -> String? in
                let url = folder.appendingPathComponent(a.name)
                do { try AtomicFile.write(Data(a.bytes), to: url) } catch { return nil }
                return url.path
            }
            if !written.isEmpty { message += "\n  pictures: " + written.joined(separator: ", ") }
        }
        XCTFail(message, file: file, line: line)
    }
}
#endif
