import Foundation
import GlyphAudit
import GlyphCore
import GlyphRaster
import GlyphRender

/// What the audit has drawn, by cairo, librsvg and pango: the render target's drawing handed to
/// the audit, which declares what it needs (`AuditDrawing`) and never reaches the renderer.
public struct CairoDrawing: AuditDrawing {
    public init() {}

    public func raster(_ item: PlannedVariant, parts: RenderParts) -> Raster {
        Renderer.raster(item.scene, parts: parts)
    }

    /// The image alone (its most detailed file, of the light appearance), fitted to the canvas.
    public func raster(image: any VectorImage, width: Int, height: Int) -> Raster {
        Renderer.raster(imageAlone: image, width: width, height: height)
    }

    public var text: any TextMeasuring { PangoMeasurer() }
}

extension AuditInput {
    public convenience init(plan: Plan, rasters: [Raster], jobs: Int) {
        self.init(plan: plan, rasters: rasters, jobs: jobs, drawing: CairoDrawing())
    }

    /// Renders every item and keeps only its glyph.
    public convenience init(plan: Plan, jobs: Int) {
        self.init(plan: plan, jobs: jobs, drawing: CairoDrawing())
    }
}

extension Auditor {
    /// Audits rendered variants: `rasters` are the full renders of `plan.items`, index-aligned.
    public func run(plan: Plan, rasters: [Raster], jobs: Int = defaultJobs) -> AuditResult {
        run(plan: plan, rasters: rasters, jobs: jobs, drawing: CairoDrawing())
    }

    /// Renders and audits; only the glyphs are kept in memory.
    public func run(plan: Plan, jobs: Int = defaultJobs) -> AuditResult {
        run(plan: plan, jobs: jobs, drawing: CairoDrawing())
    }
}

/// The pictures that prove findings (`--evidence DIR`): the audit describes each
/// (`EvidencePictures.sketch`), the render target paints it (`EvidencePainter.paint`), and this
/// writes it and records its path in the finding.
public enum EvidenceWriter {
    /// Writes a picture for every finding that has one (the findings of one component, as the
    /// pipeline streams them) and records its path in the finding.
    public static func write(_ findings: inout [Finding], input: AuditInput, to folder: URL) throws {
        let found = findings
        let paths = try input.parallelMap(found.count) { i -> Result<String?, Error> in
            let f = found[i]
            guard let sketch = EvidencePictures.sketch(f, input: input) else { return .success(nil) }
            let rel = EvidencePictures.path(for: f)
            do {
                try AtomicFile.write(try EvidencePainter.paint(sketch).pngData(), to: folder.appendingPathComponent(rel))
                return .success(rel)
            } catch {
                return .failure(error)
            }
        }.map { try $0.get() }
        for i in findings.indices { findings[i].picturePath = paths[i] }
    }
}
