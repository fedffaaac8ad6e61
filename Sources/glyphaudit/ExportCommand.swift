import Foundation
import GlyphCore
import GlyphExport
import GlyphPipeline
import GlyphRender

enum ExportCommand {
    static let command = Command(
        name: "export",
        summary: "Export the glyphs as an Xcode asset catalog (.xcassets).",
        usage: "glyphaudit export --xcassets DIR [--vector [pdf|svg]] [--preset NAME]… [--spec FILE]… [--only KEY=VALUE]… [--jobs N] [--quiet]",
        discussion: """
        Writes one image set per preset, shape, size and state, e.g.
        DIR/design-system-checkbox/square-md-checked.imageset, in a namespace folder per preset
        (Image("design-system-checkbox/square-md-checked")). Each holds the glyph alone (no label, transparent
        background) at Dynamic Type L, a theme per appearance as its "appearance" says: the light theme
        (default) as any, the dark one (inverse) as dark, light-high-contrast and dark-high-contrast as high
        contrast; as @1x/@2x/@3x PNGs, or with --vector one PDF (--vector svg: SVG) per appearance.
        Template images are drawn in black and marked as templates. Contents.json is written as Xcode writes it.
        A file is written (atomically) only when its bytes change; a re-export of an unchanged catalog touches
        nothing. --only takes preset, control, shape, size and state. See docs/export.md.
        A vector image holds no bitmap for an SVG's shapes, clip paths, gradients, patterns or stencil masks;
        what librsvg can only draw as a bitmap (filters, other masks) is made at 16 px per point, with a
        warning naming the image and element.
        """,
        options: [
            SelectionOptions.preset,
            SelectionOptions.spec,
            SelectionOptions.only.withHelp("Keep image sets where KEY (preset, control, shape, size, state) is VALUE."),
            JobsOptions.jobs,
            xcassets,
            vector,
            OutputOptions.quiet,
        ],
        run: run)

    static let xcassets = Option(name: "xcassets", value: "DIR", help: "The catalog to write (required; the folder name ends in .xcassets).")
    static let vector = Option(name: "vector", value: "pdf|svg", help: "One vector image per appearance instead of PNGs: pdf (the default), or svg.",
                               choices: AssetCatalog.Format.allCases.filter(\.isVector).map(\.rawValue), optionalValue: true)

    static func run(_ args: Arguments) throws -> ExitStatus {
        guard let dir = args.value(xcassets) else {
            throw UsageError(message: "--xcassets DIR is required")
        }
        // `--vector` alone means PDF; `--vector svg` and `--vector=svg` name the format (the parser
        // takes the next word only when it is pdf or svg).
        var format = AssetCatalog.Format.png
        if args.flag(vector) {
            format = args.value(vector).flatMap(AssetCatalog.Format.init(rawValue:)) ?? .pdf
        }
        if let extra = args.positionals.first {
            let hint = args.flag(vector) && args.value(vector) == nil ? " (--vector takes pdf or svg)" : ""
            throw UsageError(message: "unexpected argument \"\(extra)\"\(hint)")
        }
        let jobs = try Selection.jobs(args)
        let start = DispatchTime.now()
        let root = URL(fileURLWithPath: dir)
        try AssetCatalog.checkDestination(root)

        // Load, lay out and render everything in memory first: bad input writes nothing.
        let catalog = try AssetCatalog(specs: try Selection.specs(args), filter: try Selection.filter(args), format: format)
        let files = try catalog.files(jobs: jobs)
        for warning in VectorBitmaps.drain() { Console.warning(warning) }
        let summary = try AssetCatalog.write(files, to: root)

        Console.info(String(format: "exported %d of %d image sets (%@) into %@: %d files written, %d unchanged%@ in %.2f s",
                            catalog.imageSets.count, catalog.total, format.rawValue.uppercased(), root.path,
                            summary.written.count, summary.unchanged.count,
                            summary.removed.isEmpty ? "" : ", \(summary.removed.count) stale removed",
                            seconds(since: start)))
        return .clean
    }
}
