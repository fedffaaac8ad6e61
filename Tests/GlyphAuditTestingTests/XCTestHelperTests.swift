import Foundation
import GlyphAudit
import GlyphAuditTesting
import GlyphCore
import GlyphRender
import GlyphSnapshot
import GlyphTestSupport
import XCTest

/// The XCTest helpers on a spec that passes (SmallSpec at 24 pt: no error, see
/// AuditAssertionTests.passingSpecRecordsNothing) and on baselines just recorded: no failure, and
/// what they return is the check's. (A failing XCTest assertion cannot be caught on Linux, which has
/// no XCTExpectFailure; the issues themselves are tested through GlyphAuditCheck and GlyphSnapshotCheck.)
final class XCTestHelperTests: XCTestCase {
    func testPassingSpecAndCurrentBaselines() throws {
        let json = SmallSpec.json.replacingOccurrences(of: "\"size\": 20", with: "\"size\": 24")
        let dir = TempFolder()
        let spec = try Spec.load(contentsOf: dir.write("spec.json", json))
        let result = try XCTAssertAccessible(.spec(spec), failOn: .error)
        XCTAssertEqual(result.variants, 8)

        let snapshots = dir.url.appendingPathComponent("snapshots").path
        let recorded = try GlyphSnapshotCheck.check(.spec(spec), snapshots: snapshots, record: .missing, environment: [:])
        XCTAssertEqual(recorded.report.counts.recorded, 8)
        let report = try XCTAssertSnapshots(.spec(spec), in: snapshots, record: .never)
        XCTAssertEqual(report.counts.match, 8)
    }
}
