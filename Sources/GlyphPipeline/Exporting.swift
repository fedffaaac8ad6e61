import Foundation
import GlyphCore
import GlyphExport
import GlyphRaster
import GlyphRender

/// What draws an asset catalog's images: the render target's cairo (librsvg, poppler and pango
/// for what a glyph holds), handed to GlyphExport, which never reaches the renderer.
public struct CairoAssetRendering: AssetRendering {
    public init() {}

    public func png(_ layout: Layout, spec: Spec) throws -> Data {
        try Renderer.raster(layout, spec: spec, parts: [.glyph]).pngData(.small)
    }

    public func pdf(_ layout: Layout, spec: Spec) -> Data {
        Renderer.vector(layout, spec: spec, format: .pdf, parts: [.glyph])
    }

    public func svg(_ layout: Layout, spec: Spec) -> Data {
        Renderer.vector(layout, spec: spec, format: .svg, parts: [.glyph])
    }
}

// The catalog with what this library measures and draws with, for callers that export.
extension AssetCatalog {
    /// Plans the catalog; labels are measured with pango.
    public init(specs: [Spec], filter: VariantFilter = VariantFilter(), format: Format = .png) throws(InputError) {
        try self.init(specs: specs, filter: filter, format: format, text: PangoMeasurer())
    }

    /// Renders every file in memory with cairo, on `jobs` threads.
    public func files(jobs: Int = defaultJobs) throws -> [File] {
        try files(jobs: jobs, rendering: CairoAssetRendering())
    }

    /// One image's file, rendered with cairo.
    public static func render(_ image: Image, format: Format) throws -> Data {
        try render(image, format: format, with: CairoAssetRendering())
    }
}
