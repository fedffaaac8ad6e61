import Foundation
import GlyphCore
import GlyphPipeline
import GlyphSnapshot

/// Incremental runs (issue 22, item 6): load-10x18.json (10 sizes × 2 shapes × 18 themes × 3 states ×
/// 4 scales; Tests/Fixtures/bench), recorded once with its manifest and audit cache, then one input
/// changed: `run` (render, audit, check; report model, no files) in full and with --incremental —
/// the first incremental run after the change (best of three changes, each to a new value), and the
/// same run again (best of three), when the changed groups' audits are cached but they are still
/// drawn (their baselines were not re-recorded).
/// Each run is one transaction, as `glyphaudit run` runs (`asCommand`).
/// Dynamic Type L and AX5 by default (8,640 variants); BENCH_LOAD_DT=all for all 12 (51,840).
func benchIncremental(jobs: Int) {
    do {
        try runIncrementalBench(jobs: jobs)
    } catch {
        print("incremental runs: failed: \(error)")
    }
}

private func runIncrementalBench(jobs: Int) throws {
    let loadFile = URL(fileURLWithPath: "Tests/Fixtures/bench/load-10x18.json")
    guard let loadText = try? String(contentsOf: loadFile, encoding: .utf8) else {
        print("incremental runs: skipped, no \(loadFile.path) (run from the repository's root)")
        return
    }
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("glyphbench-incremental-\(getpid())")
    defer { try? FileManager.default.removeItem(at: dir) }
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let specURL = dir.appendingPathComponent("load.json")
    var filter = VariantFilter()
    let dts = ProcessInfo.processInfo.environment["BENCH_LOAD_DT"] ?? "L,AX5"
    if dts != "all" { try filter.add("dynamic-type=\(dts)") }
    func job(incremental: Bool, writes: SnapshotWrites = []) -> RunJob {
        var j = RunJob(jobs: jobs, report: dir.appendingPathComponent("report"), formats: [.json],
                       filter: filter, snapshots: dir.appendingPathComponent("snapshots"), snapshotWrites: writes,
                       cwd: dir, tool: "glyphbench")
        j.incremental = incremental
        return j
    }
    func loadPlan(_ text: String) throws -> Plan {
        try Data(text.utf8).write(to: specURL)
        return try Plan(specs: [try Spec.load(contentsOf: specURL)], filter: filter)
    }
    let basePlan = try loadPlan(loadText)
    // Record the baselines and manifest, then fill the audit cache.
    _ = try asCommand { try Pipeline.run(basePlan, job(incremental: false, writes: .record)) }
    _ = try asCommand { try Pipeline.run(basePlan, job(incremental: true)) }
    print("incremental runs: \(basePlan.items.count) variants of load-10x18.json (Dynamic Type \(dts)), \(jobs) jobs")
    // Each change made three ways (a new value each time), so that each first run after a change
    // finds no audit cached for the changed groups' new inputs.
    let changes: [(String, String, [String])] = [
        ("nothing changed", "", [""]),
        ("sizes.s0.markWeight 2 → 2.5 (2 of 20 components)", "\"markWeight\": 2\n  },\n  \"s1\"",
         ["2.5", "2.75", "3"].map { "\"markWeight\": \($0)\n  },\n  \"s1\"" }),
        ("themes.t0.fill → #D00700 (every component)", "\"fill\": \"#E00800\"", ["#D00700", "#D00701", "#D00702"].map { "\"fill\": \"\($0)\"" }),
    ]
    let only = ProcessInfo.processInfo.environment["BENCH_CASE"]
    for (name, from, values) in changes where only.map({ name.hasPrefix($0) }) ?? true {
        func changed(_ to: String) -> String {
            from.isEmpty ? loadText : loadText.replacingOccurrences(of: from, with: to, options: [], range: loadText.range(of: from))
        }
        if !from.isEmpty && changed(values[0]) == loadText { print("    \(name): the fixture does not hold \(from.debugDescription)"); continue }
        var full = Double.infinity, first = Double.infinity
        for to in values {
            let plan = try loadPlan(changed(to))
            if full == .infinity { full = try time(1) { _ = try asCommand { try Pipeline.run(plan, job(incremental: false)) } } }
            if !from.isEmpty { first = min(first, try time(1) { _ = try asCommand { try Pipeline.run(plan, job(incremental: true)) } }) }
        }
        // Again, the last change's audits cached (its groups are still drawn: their baselines were not re-recorded).
        let plan = try loadPlan(changed(values[values.count - 1]))
        let again = try time(3) { _ = try asCommand { try Pipeline.run(plan, job(incremental: true)) } }
        if from.isEmpty {
            print(String(format: "    %@: full %.2f s, incremental %.2f s (%.1f %% of full; target < 10 %%)",
                         name, full, again, again / full * 100))
        } else {
            print(String(format: "    %@: full %.2f s; incremental, the first run after the change %.2f s (%.1f %% of full; target < 10 %%), "
                         + "run again %.2f s (%.1f %%)", name, full, first, first / full * 100, again, again / full * 100))
        }
    }
}

/// Runs `body` as the command line runs a command (Sources/glyphaudit/main.swift): in one batch
/// and transaction, every file it writes flushed at its end.
private func asCommand<T>(_ body: () throws -> T) throws -> T {
    let (result, failure) = try AtomicFile.batch { try AtomicFile.transaction { try body() } }
    if let failure { throw InputError(file: failure.file, message: "cannot write: \(failure.reason)") }
    return result
}
