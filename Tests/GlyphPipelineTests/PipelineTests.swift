import Foundation
import Testing
@testable import GlyphAudit
@testable import GlyphCore
@testable import GlyphPipeline
@testable import GlyphRaster
@testable import GlyphRender
@testable import GlyphReport
@testable import GlyphSnapshot
import GlyphTestSupport
import GlyphSnapshotTestSupport

/// The library pipeline against the whole-matrix path it replaced: streaming one component at a
/// time must find what auditing every render at once finds, compare as the checker does alone, and
/// write the renders it says it wrote.
@Suite("Pipeline: streaming by component")
struct PipelineTests {
    /// design-system-checkbox has four components (square and circle, md and sm), so the pipeline
    /// really works in slices; @2x and three Dynamic Type sizes keep it quick.
    static func plan() throws -> Plan {
        var filter = VariantFilter()
        try filter.add("scale=2")
        try filter.add("dynamic-type=xS,L,AX5")
        return try Plan(specs: [try Presets.load("design-system-checkbox"), try Presets.load("rvs-checkbox")], filter: filter)
    }

    @Test("the audit, streamed by component, equals the audit of every render at once (same findings, same order)")
    func auditEqualsWholeMatrix() throws {
        let plan = try Self.plan()
        let whole = Auditor().run(AuditInput(plan: plan, rasters: plan.renderAll(jobs: 2), jobs: 2))
        let streamed = try #require(try Pipeline.run(plan, PipelineOptions(jobs: 2, auditor: Auditor())).audit)
        #expect(!whole.findings.isEmpty)
        #expect(streamed.findings == whole.findings)
        #expect(streamed.rules == whole.rules && streamed.presets == whole.presets && streamed.variants == whole.variants)
    }

    @Test("snapshot results equal the checker's own run; records and pictures match the renders")
    func snapshotsAndPictures() throws {
        let plan = try Self.plan()
        let folder = TempFolder()
        let store = SnapshotStore(root: folder.url.appendingPathComponent("snapshots"))
        // Record every baseline, then change one render's baseline so the check finds a mismatch.
        _ = SnapshotChecker(store: store, output: nil, writes: .record).run(plan, jobs: 2)
        let changed = plan.items[5]
        var edited = Renderer.raster(changed.layout, spec: changed.spec)
        edited.setContrasting(0, 0)
        try store.write(edited, relativePath: store.relativePath(of: changed.variant))
        let checker = SnapshotChecker(store: store, output: nil)
        let alone = checker.run(plan, jobs: 2)
        let report = folder.url.appendingPathComponent("report")
        let done = try Pipeline.run(plan, PipelineOptions(jobs: 2, snapshots: checker, pictures: report))
        #expect(done.snapshots == alone)
        #expect(alone.results.filter { $0.status == .mismatch }.map(\.id) == [changed.variant.variantID])
        #expect(done.audit == nil)

        #expect(done.variants.map(\.id) == plan.items.map(\.variant.variantID))
        for (record, item) in zip(done.variants, plan.items) {
            let render = Renderer.raster(item.layout, spec: item.spec)
            #expect(record.index == item.index && record.width == render.width && record.height == render.height)
            let image = try #require(record.image, "@2x variants get a contact-sheet picture")
            let written = try Raster(pngData: Data(contentsOf: report.appendingPathComponent(image)))
            #expect(written == render, "\(image) holds the render's pixels")
        }
    }

    @Test("glyphs held as runs decode to exactly the pixels cut, and identical glyphs are found identical")
    func glyphStoreRoundTrip() throws {
        let plan = try Self.plan()
        let drawing = CairoDrawing()
        let glyphs = plan.items.map { GlyphPixels.cut($0, from: Renderer.raster($0.layout, spec: $0.spec), drawing: drawing) }
        let store = GlyphStore(glyphs)
        for (k, g) in glyphs.enumerated() {
            let back = store[k]
            #expect(back.pixels == g.pixels && back.width == g.width && back.height == g.height && back.x0 == g.x0
                    && back.y0 == g.y0 && back.scale == g.scale && back.digest == g.digest && back.redrawn == g.redrawn)
            #expect(store.frame(k) == GlyphFrame(x0: g.x0, y0: g.y0, width: g.width, height: g.height, scale: g.scale))
        }
        // samePixels agrees with comparing the pixels themselves, for every pair of one component.
        let n = min(glyphs.count, 40)
        for a in 0..<n {
            for b in 0..<n {
                let same = glyphs[a].width == glyphs[b].width && glyphs[a].height == glyphs[b].height && glyphs[a].pixels == glyphs[b].pixels
                #expect(store.entries[a].samePixels(as: store.entries[b]) == same)
            }
        }
    }
}
