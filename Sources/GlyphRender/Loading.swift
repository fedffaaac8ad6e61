import Foundation
import GlyphAudit
import GlyphRaster
import GlyphCore

/// Reads spec images: SVG with librsvg, PNG with libpng, PDF with poppler.
public struct SVGReader: VectorImageReader {
    public init() {}

    public func read(data: Data, name: String, base: URL?) throws(InputError) -> any VectorImage {
        try SVGDocument(data: data, name: name, base: base)
    }

    public func readPNG(data: Data, name: String, scale: Int) throws(InputError) -> any VectorImage {
        try PNGImage(data: data, name: name, scale: scale)
    }

    public func readPDF(data: Data, name: String) throws(InputError) -> (image: any VectorImage, pages: Int) {
        let pdf = try PDFImage(data: data, name: name)
        return (pdf, pdf.pages)
    }

    public func rasterize(_ image: any VectorImage, scale: Int) -> any VectorImage {
        guard let pdf = image as? PDFImage else { preconditionFailure("\(image.path): not a PDF read by SVGReader") }
        return pdf.rasterized(scale: scale)
    }
}

/// Measures labels with pango.
public struct PangoMeasurer: TextMeasuring {
    public init() {}

    public func measure(_ text: String, points: Double, bold: Bool) -> TextMetrics {
        PangoText.measure(text, points: points, bold: bold)
    }
}

// The loaders and the layout with what this target reads and measures with, for callers that render.

extension Spec {
    /// Loads a spec file from disk, its images read with librsvg.
    public static func load(contentsOf url: URL) throws(InputError) -> Spec {
        try load(contentsOf: url, images: SVGReader())
    }

    public static func load(path: String, source: AssetSource) throws(InputError) -> Spec {
        try load(path: path, source: source, images: SVGReader())
    }
}

extension Presets {
    public static func load(_ name: String) throws(InputError) -> Spec {
        try load(name, images: SVGReader())
    }
}

extension Layout {
    /// Lays out a variant, its label measured with pango.
    public init(spec: Spec, variant v: Variant) throws(InputError) {
        try self.init(spec: spec, variant: v, text: PangoMeasurer())
    }
}

extension Plan {
    /// Lays out the selected variants, labels measured with pango.
    public init(specs: [Spec], filter: VariantFilter = VariantFilter(), shard: Shard? = nil) throws(InputError) {
        try self.init(specs: specs, filter: filter, shard: shard, text: PangoMeasurer())
    }
}

/// What the audit has drawn, by cairo, librsvg and pango.
public struct CairoDrawing: AuditDrawing {
    public init() {}

    public func raster(_ item: PlannedVariant, parts: RenderParts) -> Raster {
        Renderer.raster(item.scene, parts: parts)
    }

    /// The image alone (its most detailed file, of the light appearance), fitted to the canvas.
    public func raster(image: any VectorImage, width: Int, height: Int) -> Raster {
        Renderer.raster(image: CairoImages.of(image.drawn(scale: Int.max, dark: false)), width: width, height: height)
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
