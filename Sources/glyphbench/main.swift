import Dispatch
import Foundation
import GlyphAudit
import GlyphCore
import GlyphPipeline
import GlyphRaster
import GlyphRender
import GlyphSnapshot

// Per-stage timings of the render pipeline on the built-in presets (release build: `make bench`).
// Each stage is run `reps` times and the best time is reported; the stages whose ratios have targets
// (rasterize on all cores, the audit) nine times, as this machine's timings vary by a third between runs.

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
// BENCH_ONLY=incremental: only the incremental runs (Sources/glyphbench/README.md).
if ProcessInfo.processInfo.environment["BENCH_ONLY"] == "incremental" {
    benchIncremental(jobs: jobs)
    exit(0)
}
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
let rasterN = time(9) { _ = parallelMap(n, jobs: jobs) { i in Renderer.raster(items[i].layout, spec: items[i].spec).width } }
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
    // As the tool writes: one batch, flushed to disk together at its end.
    _ = try? AtomicFile.batch {
        parallelMap(n, jobs: jobs) { i in
            let item = items[i]
            try? AtomicFile.write(try Renderer.raster(item.layout, spec: item.spec).pngData(),
                                  to: folder.appendingPathComponent(item.variant.fileName("png")))
        }
    }
}
line("render + encode + write, \(jobs) threads", full, n, "variant")
let total = parse / Double(10) + layout + full
print(String(format: "whole built-in matrix rendered and written: %.3f s (target < 2 s)", total))

// Snapshot stages (issue 4). The PNGs just written are the baselines: same layout as `snapshots/`.
let store = SnapshotStore(root: folder)
let baselineFiles = items.map { store.url(of: $0.variant) }
let decode = time {
    _ = parallelMap(n, jobs: jobs) { i in (try? Raster(pngData: Data(contentsOf: baselineFiles[i])))?.width ?? 0 }
}
line("baseline read + decode (libpng), \(jobs) threads", decode, n, "variant")
var snapshotReport: SnapshotReport?
let check = time { snapshotReport = SnapshotChecker(store: store, output: nil).run(plan, jobs: jobs) }
line("check, nothing changed, \(jobs) threads", check, n, "variant")
if let c = snapshotReport?.counts {
    print("    \(c.match) match, \(c.mismatch) mismatch, \(c.new) new, \(c.stale) stale")
}
print(String(format: "check / rasterize: %.2f×   check / (render + encode + write): %.2f× (target < 1.5×)",
             check / rasterN, check / full))

// `glyphaudit diff` on the bench harness pairs (../shared/bench): BENCH_PAIRS, default /tmp/wl/pairs, made by
// `python3 ../shared/bench/make_workload.py /tmp/wl` and `limit render /tmp/wl/pair_jobs.tsv /tmp/wl/pairs`.
let pairsFolder = URL(fileURLWithPath: ProcessInfo.processInfo.environment["BENCH_PAIRS"] ?? "/tmp/wl/pairs")
let pairsA = pairsFolder.appendingPathComponent("base")
let pairsB = pairsFolder.appendingPathComponent("changed")
if FileManager.default.fileExists(atPath: pairsA.path) && FileManager.default.fileExists(atPath: pairsB.path) {
    var diffReport: ImageDiff.Report?
    let diffTime = time(5) { diffReport = ImageDiff.compareFolders(pairsA, pairsB, jobs: jobs) }
    let count = diffReport?.pairs.count ?? 0
    line("diff bench pairs (read, decode, pixelmatch), \(jobs) threads", diffTime, max(count, 1), "pair")
    if let r = diffReport {
        let pixels = r.pairs.reduce(0) { $0 + ($1.difference?.mismatchedPixels ?? 0) }
        print(String(format: "    flagged %d/%d pairs, %d px; ImageMagick compare per pair 3.796 s (%.0f× slower), "
                     + "pybind11-pixelmatch 0.370 s (%.1f× slower)", r.differing, count, pixels,
                     3.796 / diffTime, 0.370 / diffTime))
    }
} else {
    print("diff bench pairs: skipped, no \(pairsA.path) and \(pairsB.path) (see ../shared/bench/run.sh; BENCH_PAIRS=DIR)")
}

// Audit stages (issue 3): cutting the glyphs out of the renders, then each rule, on the rasters above.
var auditInput: AuditInput!
let cut = time { auditInput = AuditInput(plan: plan, rasters: rasters, jobs: jobs) }
line("audit: cut glyphs, \(jobs) threads", cut, n, "variant")
let auditor = Auditor()
for rule in auditor.rules {
    var count = 0
    let t = time { count = rule.checkWhole(auditInput, auditor.options(for: rule)).count }
    line("audit: \(rule.id) (\(count) findings)", t, n, "variant")
}
var auditResult: AuditResult?
let audit = time(9) { auditResult = auditor.run(plan: plan, rasters: rasters, jobs: jobs) }
line("audit: whole (cut + every rule), \(jobs) threads", audit, n, "variant")
print(String(format: "audit / rasterize: %.2f× (target ≤ 0.5×); %d errors, %d warnings, %d info",
             audit / rasterN, auditResult?.count(.error) ?? 0, auditResult?.count(.warning) ?? 0, auditResult?.count(.info) ?? 0))
// `glyphaudit audit` renders and cuts in one pass, keeping only the glyphs (no 330 MB of renders).
let renderAndAudit = time(9) { auditResult = auditor.run(plan: plan, jobs: jobs) }
line("render + audit, glyphs only kept, \(jobs) threads", renderAndAudit, n, "variant")
print(String(format: "(render + audit) / rasterize: %.2f×", renderAndAudit / rasterN))

// Display settings (issue 21): the same spec without and with its `settings` (docs/examples/rules/
// setting-regression-fail: a switch with Increase Contrast, Bold Text, right-to-left, On/Off Labels),
// rendered and audited per variant: a setting variant should cost no more than a default one.
let settingsSpec = URL(fileURLWithPath: "docs/examples/rules/setting-regression-fail/spec.json")
if let spec = try? Spec.load(contentsOf: settingsSpec) {
    var none = VariantFilter()
    try none.add("setting=none")
    let plainPlan = try Plan(specs: [spec], filter: none)
    let settingsPlan = try Plan(specs: [spec])
    let plain = time(5) { _ = auditor.run(plan: plainPlan, jobs: jobs) }
    line("settings: render + audit, default only", plain, plainPlan.items.count, "variant")
    let with = time(5) { _ = auditor.run(plan: settingsPlan, jobs: jobs) }
    line("settings: render + audit, with \(spec.settings.count) settings", with, settingsPlan.items.count, "variant")
    print(String(format: "    per variant with settings / without: %.2f×",
                 (with / Double(settingsPlan.items.count)) / (plain / Double(plainPlan.items.count))))
} else {
    print("settings: skipped, no \(settingsSpec.path) (run from the checkout: make bench)")
}

// The shared peer workload (../shared/bench: 360 SVG renders, 13–187 px), rasterized in process with
// each SVG parsed once, without encoding: the figure to hold against `limit render --no-write --cache`.
let jobsFile = URL(fileURLWithPath: ProcessInfo.processInfo.environment["BENCH_JOBS"] ?? "/tmp/wl/jobs.tsv")
if let text = try? String(contentsOf: jobsFile, encoding: .utf8) {
    var docs: [String: SVGDocument] = [:]
    var work: [(SVGDocument, Int, Int)] = []
    for line in text.split(separator: "\n") {
        let f = line.split(separator: "\t").map(String.init)
        guard f.count >= 4, let w = Int(f[1]), let h = Int(f[2]) else { continue }
        if docs[f[0]] == nil { docs[f[0]] = try? SVGDocument(url: URL(fileURLWithPath: f[0])) }
        if let d = docs[f[0]] { work.append((d, w, h)) }
    }
    let all = work
    let svg1 = time(5) { for (d, w, h) in all { _ = Renderer.raster(svg: d, width: w, height: h) } }
    line("peer workload: rasterize only, 1 thread", svg1, all.count, "render")
    print("    compare: `limit render jobs.tsv out --no-write --cache` (raster_s) from ../shared/bench")
} else {
    print("peer workload: skipped, no \(jobsFile.path) (python3 ../shared/bench/make_workload.py /tmp/wl)")
}

benchIncremental(jobs: jobs)
