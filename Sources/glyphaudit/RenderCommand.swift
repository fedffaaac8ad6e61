import Foundation
import GlyphCore
import GlyphPipeline
import GlyphRaster
import GlyphRender

enum RenderCommand {
    static let command = Command(
        name: "render",
        summary: "Render the variant matrix to PNG (and SVG, PDF).",
        usage: "glyphaudit render [--preset NAME]… [--spec FILE]… [--only KEY=VALUE]… [--out DIR] [--format png,svg,pdf] "
            + "[--contact-sheet DIR] [--svg-jobs FILE] [--jobs N] [--quiet]",
        discussion: """
        Renders every selected variant (size × Dynamic Type size × theme × state × display scale) and writes
        DIR/<preset>/<shape>-<size>/<dynamic type>/<theme>/<state>@<scale>x.<format>. PNGs are at the display
        scale; SVG and PDF are in points (one file per scale, same geometry) and hold no bitmap for an SVG's
        shapes, clip paths, gradients, patterns or stencil masks; what librsvg can only draw as a bitmap
        (filters, other masks) is made at 16 px per point, with a warning naming the image and element.
        Every file is written atomically. With no --preset and no --spec, the four built-in presets are rendered.
        """,
        options: Selection.options + [out, format, svgJobs, contactSheet, OutputOptions.quiet],
        run: run)

    static let out = Option(name: "out", value: "DIR", help: "Where to write (default: glyphaudit-render).")
    static let format = Option(name: "format", value: "LIST", help: "Comma-separated: png, svg, pdf (default: png).")
    static let svgJobs = Option(name: "svg-jobs", value: "FILE",
                                help: "Instead of specs: render SVG files listed in a TSV (svg, width px, height px, png name) into --out; each SVG is parsed once.")
    static let contactSheet = Option(name: "contact-sheet", value: "DIR",
                                     help: "Also write one contact sheet per preset, shape and size (@2x): rows Dynamic Type sizes, columns theme × state.")

    static func run(_ args: Arguments) throws -> ExitStatus {
        var formats: [RenderFileFormat] = []
        let names = args.list(format).filter { !$0.isEmpty }
        if args.value(format) != nil && names.isEmpty {
            throw UsageError(message: "--format needs one or more of png, svg, pdf")
        }
        for name in names.isEmpty ? ["png"] : names {
            guard let f = RenderFileFormat(rawValue: name) else {
                throw UsageError(message: "--format takes png, svg and pdf, got \"\(name)\"")
            }
            formats.append(f)
        }
        let jobs = try Selection.jobs(args)
        let out = URL(fileURLWithPath: args.value(Self.out) ?? "glyphaudit-render")
        try OutputPaths.folder(args.value(Self.out) ?? "glyphaudit-render", option: "--out")
        if let sheets = args.value(contactSheet) { try OutputPaths.folder(sheets, option: "--contact-sheet") }
        if let list = args.value(svgJobs) { return try renderSVGJobs(URL(fileURLWithPath: list), out: out, jobs: jobs) }
        let start = DispatchTime.now()
        let plan = try Selection.plan(args)
        let items = plan.items
        let progress = Progress(enabled: !Console.quiet)
        progress.stage("rendering")
        progress.count("rendering", total: items.count)
        let failures = Pipeline.writeFiles(plan, formats: formats, into: out, jobs: jobs) { progress.advance($0) }
        progress.done()
        if let first = failures.first {
            Console.error("cannot write \(out.path): \(first)")
            return .badInput
        }
        for warning in VectorBitmaps.drain() { Console.warning(warning) }
        if let sheets = args.value(contactSheet) {
            try Pipeline.writeContactSheets(plan, into: URL(fileURLWithPath: sheets))
        }
        Console.info(String(format: "rendered %d of %d variants (%d files) into %@ in %.2f s",
                            items.count, plan.total, items.count * formats.count, out.path, seconds(since: start)))
        return .clean
    }

    /// `--svg-jobs`: plain SVG → PNG at given pixel sizes (the peer benchmark's workload).
    static func renderSVGJobs(_ list: URL, out: URL, jobs: Int) throws -> ExitStatus {
        let start = DispatchTime.now()
        let text: String
        do { text = String(decoding: try InputFile.read(list.path, limit: Limits.jsonFileBytes, what: "job list"), as: UTF8.self) } catch {
            throw InputError(file: list.path, message: error.message)
        }
        var documents: [String: SVGDocument] = [:]
        var work: [(svg: SVGDocument, width: Int, height: Int, name: String)] = []
        for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: true).enumerated() {
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard f.count >= 4, let w = Int(f[1]), let h = Int(f[2]), (1...4096).contains(w), (1...4096).contains(h),
                  !f[3].isEmpty, !f[3].contains("..") else {
                throw InputError(file: list.path, line: n + 1, message: "expected svg<TAB>width<TAB>height<TAB>png name, sizes 1…4096 px")
            }
            let path = URL(fileURLWithPath: f[0], relativeTo: list.deletingLastPathComponent()).standardizedFileURL
            let doc: SVGDocument
            if let known = documents[path.path] { doc = known } else {
                doc = try SVGDocument(url: path)
                documents[path.path] = doc
            }
            work.append((doc, w, h, f[3]))
        }
        let all = work
        let failures = parallelMap(all.count, jobs: jobs) { i -> String? in
            let job = all[i]
            do {
                try AtomicFile.write(try Renderer.raster(svg: job.svg, width: job.width, height: job.height).pngData(),
                                     to: out.appendingPathComponent(job.name))
                return nil
            } catch { return "\(job.name): \(error)" }
        }.compactMap { $0 }
        if let first = failures.first {
            Console.error(first)
            return .badInput
        }
        Console.info(String(format: "rendered %d SVG jobs (%d documents) into %@ in %.2f s", work.count, documents.count,
                            out.path, seconds(since: start)))
        return .clean
    }
}
