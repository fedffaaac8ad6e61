import Foundation
import GlyphAudit
import GlyphAuditTesting
import GlyphCore
import GlyphPipeline
import GlyphRender
import Testing

/// The brand checkbox (Specs/brand-checkbox.json): 24 pt, a 44 × 44 pt hit area, light and dark.
@Suite struct BrandCheckboxTests {
    /// No finding at warning or above: #767676 on white is 4.54:1 and #8E8E93 on black 6.4:1
    /// (WCAG 1.4.11 asks 3:1), the fills 6.5:1 and 5.8:1, the hit area 44 × 44 pt (2.5.5).
    @Test func isAccessible() throws {
        try expectAccessible(.file("../../Specs/brand-checkbox.json"), failOn: .warning)
    }

    /// Every variant matches its baseline committed in Examples/Consumer/snapshots.
    @Test func matchesSnapshots() throws {
        let report = try expectSnapshots(.file("../../Specs/brand-checkbox.json"), in: "../../snapshots")
        #expect(report.counts.match == 4)
    }

    /// The library itself (GlyphAuditKit): 1 size × 1 Dynamic Type size × 2 themes × 2 states × 1
    /// scale = 4 variants, audited through `Pipeline.run`.
    @Test func pipelineRunsTheMatrix() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Specs/brand-checkbox.json")
        let plan = try Plan(specs: [try Spec.load(contentsOf: url)])
        let done = try Pipeline.run(plan, PipelineOptions(auditor: Auditor()))
        #expect(Set(done.variants.map(\.id)) == [
            "brand-checkbox/square-md/L/light/unchecked@2x", "brand-checkbox/square-md/L/light/checked@2x",
            "brand-checkbox/square-md/L/dark/unchecked@2x", "brand-checkbox/square-md/L/dark/checked@2x",
        ])
        #expect(done.audit?.open.filter { $0.severity >= .warning } == [])
    }
}
