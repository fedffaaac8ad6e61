import Foundation
import GlyphRender

enum RunCommand {
    static let command = Command(
        name: "run",
        summary: "Render every variant and print a summary (the CI entry point).",
        usage: "glyphaudit run [--preset NAME]… [--spec FILE]… [--only KEY=VALUE]… [--jobs N]",
        discussion: "With no --preset and no --spec, runs on the four built-in presets.",
        options: Selection.options + [Option.flag("quiet", "Print nothing but errors.")],
        run: run)

    static func run(_ args: Arguments) throws -> Int32 {
        let jobs = try Selection.jobs(args)
        let start = DispatchTime.now()
        let plan = try Selection.plan(args)
        let items = plan.items
        let pixels = parallelMap(items.count, jobs: jobs) { i in
            let r = Renderer.raster(items[i].layout, spec: items[i].spec)
            return r.width * r.height
        }
        var counts: [String: Int] = [:]
        for item in items { counts[item.variant.preset, default: 0] += 1 }
        for spec in plan.specs {
            Console.out("\(spec.name.padding(toLength: 24, withPad: " ", startingAt: 0)) \(counts[spec.name] ?? 0) variants rendered")
        }
        Console.out(String(format: "%d variants, %.1f megapixels, %.2f s", items.count,
                           Double(pixels.reduce(0, +)) / 1e6, seconds(since: start)))
        return 0
    }
}
