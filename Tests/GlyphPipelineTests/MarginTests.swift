import Foundation
import Testing
@testable import GlyphAudit
@testable import GlyphCore
@testable import GlyphPipeline
@testable import GlyphReport
@testable import GlyphSnapshot
import GlyphRender
import GlyphTestSupport

// Audit margins kept with the pixels (docs/snapshots.md, "Audit margins").

@Suite("Audit margins in the manifest")
struct MarginTests {
    /// 1 size × 2 Dynamic Type sizes × 1 theme × 2 states × 1 scale = 4 variants, a fixed hit area.
    static func spec(hit: Int) -> String {
        SmallSpec.json.replacingOccurrences(of: #""scales": [1, 2],"#, with: #""scales": [1], "hitArea": { "width": \#(hit), "height": \#(hit) },"#)
    }

    static func run(_ folder: TempFolder, _ text: String, writes: SnapshotWrites = [], tolerance: Double = 0.25) throws -> RunOutcome {
        let url = folder.write("spec.json", text)
        var job = RunJob(jobs: 2, report: folder.url.appendingPathComponent("report"), formats: [.json],
                         snapshots: folder.url.appendingPathComponent("snapshots"), snapshotWrites: writes, cwd: folder.url, tool: "t")
        job.marginTolerance = tolerance
        return try Pipeline.run(try Plan(specs: [try Spec.load(contentsOf: url)]), job)
    }

    @Test("recorded with the baselines; a loss beyond the tolerance is a margin warning with both numbers; --update takes the new numbers")
    func marginLoss() throws {
        let folder = TempFolder()
        _ = try Self.run(folder, Self.spec(hit: 48), writes: .record)
        let manifest = try #require(try SnapshotManifest.read(in: folder.url.appendingPathComponent("snapshots")))
        let entry = try #require(manifest.variants["t/square-md/L/default/checked@1x"]?.margins)
        // The fixed hit area's shorter side, and the state change measured against unchecked in each view.
        #expect(entry["target-size"] == 48)
        #expect((entry["state-change.unchecked.greyscale"] ?? 0) > 0)
        #expect(Set(entry.keys) == Set(["target-size"] + ["greyscale", "protanopia", "deuteranopia", "tritanopia"].map { "state-change.unchecked.\($0)" }))

        // 48 → 40 pt: 17 % lost, within the tolerance (25 %); 48 → 30 pt: 37.5 % lost.
        #expect(try Self.run(folder, Self.spec(hit: 40)).report.findings.filter { $0.rule == "margin" }.isEmpty)
        let lost = try Self.run(folder, Self.spec(hit: 30)).report.findings.filter { $0.rule == "margin" }
        #expect(lost.count == 4, "each of the 4 variants")
        #expect(lost.allSatisfy { $0.severity == .warning && $0.subject == "target-size" })
        #expect(lost.first?.numbers == ["before": 48, "after": 30, "tolerance": 0.25])
        #expect(lost.first?.message == "target-size fell from 48 to 30 (38 % of its margin gone; the tolerance is 25 %)")
        // The pixels are the same (the hit area is not drawn): reported all the same.
        #expect(try Self.run(folder, Self.spec(hit: 30)).snapshots?.counts.mismatch == 0)
        // A stricter tolerance reports the smaller loss too.
        #expect(try Self.run(folder, Self.spec(hit: 40), tolerance: 0.1).report.findings.contains { $0.rule == "margin" })

        // --update re-records the manifest entries (the pixels match) with the new numbers.
        _ = try Self.run(folder, Self.spec(hit: 30), writes: .update)
        #expect(try Self.run(folder, Self.spec(hit: 30)).report.findings.filter { $0.rule == "margin" }.isEmpty)
    }
}
