import Foundation
import GlyphAuditTesting
import GlyphCore
import GlyphSnapshot
import GlyphTestSupport
import Testing

@Suite struct SnapshotAssertionTests {
    /// The PNGs under a folder, relative paths sorted.
    func pngs(_ folder: URL) -> [String] {
        let items = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
        return items.filter { $0.hasSuffix(".png") }.sorted()
    }

    let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// `missing` records the 8 variants of SmallSpec (2 Dynamic Type sizes × 2 states × 2 scales), one
    /// issue each, so the test that records does not pass; the next check finds 8 matches and no issue.
    @Test func missingRecordsThenMatches() throws {
        let dir = TempFolder()
        let spec = dir.write("t.json", SmallSpec.json)
        let snapshots = dir.url.appendingPathComponent("snapshots").path
        let first = try GlyphSnapshotCheck.check(.file(spec.path), snapshots: snapshots, record: .missing, environment: [:])
        #expect(first.issues.count == 8)
        #expect(first.issues.allSatisfy { $0.message.contains("recorded (record mode missing)") })
        #expect(first.issues.allSatisfy { i in i.attachments.map(\.name) == ["\(i.snapshot!.id.description.replacingOccurrences(of: "/", with: "_")).actual.png"] })
        #expect(first.issues[0].attachments[0].name == "t_square-md_L_default_unchecked@1x.actual.png")
        #expect(pngs(dir.url.appendingPathComponent("snapshots")).count == 8)

        let second = try GlyphSnapshotCheck.check(.file(spec.path), snapshots: snapshots, record: .missing, environment: [:])
        #expect(second.issues.isEmpty)
        #expect(second.report.counts.match == 8)
    }

    /// Under CI the mode is `never`, whatever the test asks: nothing is written, and each missing
    /// baseline is an issue that says so, with the render attached.
    @Test func ciForcesNever() throws {
        #expect(try SnapshotRecordMode.resolve(.all, environment: ["CI": "true"]) == .never)
        #expect(try SnapshotRecordMode.resolve(.all, environment: ["CI": "0"]) == .all)
        #expect(try SnapshotRecordMode.resolve(nil, environment: [:]) == .missing)
        #expect(try SnapshotRecordMode.resolve(nil, environment: ["GLYPHAUDIT_RECORD": "failed"]) == .failed)
        #expect(throws: InputError.self) { try SnapshotRecordMode.resolve(nil, environment: ["GLYPHAUDIT_RECORD": "yes"]) }

        let dir = TempFolder()
        let snapshots = dir.url.appendingPathComponent("snapshots")
        let done = try GlyphSnapshotCheck.check(.spec(try specValue(SmallSpec.json)), snapshots: snapshots.path, record: .all,
                                                environment: ["CI": "true"])
        #expect(done.issues.count == 8)
        #expect(done.issues.allSatisfy { $0.message.contains("has no baseline") && $0.message.contains("record mode never: CI is set") })
        #expect(done.issues.allSatisfy { $0.attachments.count == 1 && $0.attachments[0].name.hasSuffix(".actual.png") && Array($0.attachments[0].bytes.prefix(8)) == pngSignature })
        #expect(pngs(snapshots).isEmpty)
    }

    /// A new fill colour changes the 4 checked variants only (the fill is drawn in the checked state):
    /// 4 issues, each with expected / actual / diff / side-by-side; `never` leaves the baselines,
    /// `failed` rewrites those 4, and then the check is clean.
    @Test func mismatchAttachesPicturesAndFailedRewrites() throws {
        let dir = TempFolder()
        let snapshots = dir.url.appendingPathComponent("snapshots").path
        _ = try GlyphSnapshotCheck.check(.spec(try specValue(SmallSpec.json)), snapshots: snapshots, record: .missing, environment: [:])
        let blue = try specValue(SmallSpec.json.replacingOccurrences(of: "#E00800", with: "#0050E0"))

        let never = try GlyphSnapshotCheck.check(.spec(blue), snapshots: snapshots, record: .never, environment: [:])
        #expect(never.issues.count == 4)
        for issue in never.issues {
            #expect(issue.snapshot?.id.state == "checked")
            #expect(issue.message.contains("does not match"))
            let stem = issue.snapshot!.id.description.replacingOccurrences(of: "/", with: "_")
            #expect(issue.attachments.map(\.name) == ["expected", "actual", "diff", "sidebyside"].map { "\(stem).\($0).png" })
            #expect(issue.attachments.allSatisfy { Array($0.bytes.prefix(8)) == pngSignature })
        }

        let failed = try GlyphSnapshotCheck.check(.spec(blue), snapshots: snapshots, record: .failed, environment: [:])
        #expect(failed.issues.count == 4)
        #expect(failed.issues.allSatisfy { $0.message.contains("rewritten (record mode failed)") })
        let after = try GlyphSnapshotCheck.check(.spec(blue), snapshots: snapshots, record: .never, environment: [:])
        #expect(after.issues.isEmpty)
        #expect(after.report.counts.match == 8)
    }

    /// `expectSnapshots` records the issues as Swift Testing issues (here: 8 missing baselines, under CI).
    @Test func expectSnapshotsRecordsIssues() throws {
        let dir = TempFolder()
        let spec = dir.write("t.json", SmallSpec.json)
        let count = Mutex(0)
        try withKnownIssue {
            // Under the test's own environment the mode may be forced to never (CI): either way 8 issues.
            try expectSnapshots(.file(spec.path), in: dir.url.appendingPathComponent("snapshots").path, record: .never)
        } matching: { issue in
            count.withLock { $0 += 1 }
            return issue.comments.first?.rawValue.contains("has no baseline") == true
        }
        #expect(count.withLock { $0 } == 8)
    }
}
