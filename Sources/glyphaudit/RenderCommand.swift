import Foundation
import GlyphRender

enum RenderCommand {
    static let command = Command(
        name: "render",
        summary: "Render the variant matrix to PNG (and SVG, PDF).",
        usage: "glyphaudit render [--preset NAME]… [--spec FILE]… [--only KEY=VALUE]… [--out DIR] [--format png,svg,pdf] [--jobs N]",
        discussion: """
        Renders every selected variant (size × Dynamic Type size × theme × state × display scale) and writes
        DIR/<preset>/<shape>-<size>/<dynamic type>/<theme>/<state>@<scale>x.<format>. PNGs are at the display
        scale; SVG and PDF are in points (one file per scale, same geometry). Every file is written atomically.
        With no --preset and no --spec, the four built-in presets are rendered.
        """,
        options: Selection.options + [
            Option(name: "out", value: "DIR", help: "Where to write (default: glyphaudit-render)."),
            Option(name: "format", value: "LIST", help: "Comma-separated: png, svg, pdf (default: png)."),
            Option.flag("quiet", "Print nothing but errors."),
        ],
        run: run)

    static func run(_ args: Arguments) throws -> Int32 {
        let formats = args.list("format").isEmpty ? ["png"] : args.list("format")
        for f in formats where !["png", "svg", "pdf"].contains(f) {
            throw UsageError(message: "--format takes png, svg and pdf, got \"\(f)\"")
        }
        let jobs = try Selection.jobs(args)
        let out = URL(fileURLWithPath: args.value("out") ?? "glyphaudit-render")
        let start = DispatchTime.now()
        let plan = try Selection.plan(args)
        let items = plan.items
        let failures = parallelMap(items.count, jobs: jobs) { i -> String? in
            let item = items[i]
            do {
                for format in formats {
                    let data: Data
                    switch format {
                    case "png": data = try Renderer.raster(item.layout, spec: item.spec).pngData()
                    case "svg": data = Renderer.vector(item.layout, spec: item.spec, format: .svg)
                    default: data = Renderer.vector(item.layout, spec: item.spec, format: .pdf)
                    }
                    try AtomicFile.write(data, to: out.appendingPathComponent(item.variant.fileName(format)))
                }
                return nil
            } catch {
                return "\(item.variant.id): \(error)"
            }
        }.compactMap { $0 }
        if let first = failures.first {
            Console.error("cannot write \(out.path): \(first)")
            return 2
        }
        Console.info(String(format: "rendered %d of %d variants (%d files) into %@ in %.2f s",
                            items.count, plan.total, items.count * formats.count, out.path, seconds(since: start)))
        return 0
    }
}
