import Dispatch
import Foundation
import GlyphRender

// Per-stage timings of the render pipeline on the built-in presets (release build: `make bench`).
// Each stage is run `reps` times and the best time is reported.

func time(_ reps: Int = 3, _ body: () throws -> Void) rethrows -> Double {
    var best = Double.infinity
    for _ in 0..<reps {
        let t0 = DispatchTime.now().uptimeNanoseconds
        try body()
        best = min(best, Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9)
    }
    return best
}

func line(_ stage: String, _ seconds: Double, _ count: Int, _ unit: String) {
    let perItem = seconds / Double(count) * 1e3
    let name = stage.padding(toLength: 40, withPad: " ", startingAt: 0)
    print(name + String(format: "%8.3f s %9.4f ms/", seconds, perItem) + unit
          + String(format: " %10.0f ", Double(count) / seconds) + unit + "/s")
}

let jobs = defaultJobs
var specs: [Spec] = []
let parse = try time(10) { specs = try Presets.names.map { try Presets.load($0) } }
var plan: Plan!
let layout = try time { plan = try Plan(specs: specs) }
let items = plan.items
let n = items.count
print("glyphaudit bench: \(n) variants of \(specs.count) built-in presets, \(jobs) jobs")
line("parse (4 presets, tokens, SVGs)", parse, specs.count, "spec")
line("layout (plan)", layout, n, "variant")

let raster1 = time { _ = parallelMap(n, jobs: 1) { i in Renderer.raster(items[i].layout, spec: items[i].spec).width } }
line("rasterize, 1 thread", raster1, n, "variant")
let rasterN = time { _ = parallelMap(n, jobs: jobs) { i in Renderer.raster(items[i].layout, spec: items[i].spec).width } }
line("rasterize, \(jobs) threads", rasterN, n, "variant")

let rasters = parallelMap(n, jobs: jobs) { i in Renderer.raster(items[i].layout, spec: items[i].spec) }
let encodings: [(String, Raster.PNGEncoding)] = [
    ("PNG encode (ours: no filter, zlib 1)", .fast),
    ("PNG encode (sub filter + RLE, zlib 6)", .init(level: 6, filters: 0x10, strategy: 3)),
    ("PNG encode (libpng defaults)", .small),
]
for (name, encoding) in encodings {
    var bytes = 0
    let encode = time { bytes = parallelMap(n, jobs: jobs) { i in (try? rasters[i].pngData(encoding))?.count ?? 0 }.reduce(0, +) }
    line("\(name), \(jobs) threads", encode, n, "variant")
    print("    \(bytes / 1024) KiB in all")
}

let folder = FileManager.default.temporaryDirectory.appendingPathComponent("glyphbench-\(getpid())")
defer { try? FileManager.default.removeItem(at: folder) }
let full = time {
    _ = parallelMap(n, jobs: jobs) { i in
        let item = items[i]
        try? AtomicFile.write(try Renderer.raster(item.layout, spec: item.spec).pngData(),
                              to: folder.appendingPathComponent(item.variant.fileName("png")))
    }
}
line("render + encode + write, \(jobs) threads", full, n, "variant")
let total = parse / Double(10) + layout + full
print(String(format: "whole built-in matrix rendered and written: %.3f s (target < 2 s)", total))
