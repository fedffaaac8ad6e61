import Foundation
import Testing
@testable import GlyphAudit
@testable import GlyphCore
@testable import GlyphReport
import GlyphRenderTestSupport

/// A finding that holds at some Dynamic Type sizes only covers those variants, although its id has
/// `*` for the size: the contact sheet outlines, JUnit failures and the report's filters depend on it.
@Suite("Findings cover the Dynamic Type sizes they hold at")
struct FindingCoverageTests {
    @Test("a record with sizes covers exactly those sizes; without, the id alone decides")
    func coversBySize() {
        var r = Finding(rule: "target-size", severity: .error, criterion: "2.5.8", variant: "p/square-md/*/*/unchecked@*x",
                        subject: "hit area", message: "m")
        #expect(r.covers("p/square-md/AX5/default/unchecked@2x"))
        r.dynamicTypeSizes = [.xSmall, .small, .medium]
        #expect(r.covers("p/square-md/xS/default/unchecked@2x"))
        #expect(r.covers("p/square-md/M/inverse/unchecked@1x"))
        #expect(!r.covers("p/square-md/L/default/unchecked@2x"))
        #expect(!r.covers("p/square-md/xS/default/checked@2x"))
        let m = FindingMatcher([r])
        #expect(m.matches("p/square-md/S/default/unchecked@3x") == [0])
        #expect(m.matches("p/square-md/AX1/default/unchecked@3x").isEmpty)
    }

    /// Against the geometry: the error covers a variant exactly when its laid-out hit area is
    /// under 24 pt on its short side (the swiftui-checkbox row is 18–22 pt tall at xS–L).
    @Test("swiftui-checkbox target-size error covers the variants whose hit area is under 24 pt, and no others")
    func targetSizeCoverage() throws {
        let scene = try AuditScene(preset: "swiftui-checkbox", filter: ["scale=1"])
        let errors = scene.run(TargetSizeRule()).filter { $0.severity == .error }
        #expect(!errors.isEmpty)
        var small = 0
        for item in scene.plan.items {
            let short = min(item.layout.hitArea.width, item.layout.hitArea.height)
            let covered = errors.contains { $0.covers(item.variant.variantID) }
            #expect(covered == (short < 24), "\(item.variant.id): hit area short side \(short) pt")
            if short < 24 { small += 1 }
        }
        #expect(small > 0 && small < scene.plan.items.count)
    }
}
