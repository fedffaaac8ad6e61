import Foundation
import Testing
@testable import GlyphAudit
@testable import GlyphCore
@testable import GlyphPipeline
import GlyphRender
@testable import GlyphReport
@testable import GlyphSnapshot
import GlyphTestSupport

// `--incremental` (docs/snapshots.md, "Incremental runs"): a run that reuses unchanged components
// gives the report a full run gives.

@Suite("Incremental runs equal full runs")
struct IncrementalTests {
    static func plan(_ specs: [Spec], dynamicType: String = "L") throws -> Plan {
        var filter = VariantFilter()
        try filter.add("dynamic-type=\(dynamicType)")
        return try Plan(specs: specs, filter: filter)
    }

    static func job(_ folder: TempFolder, _ name: String, writes: SnapshotWrites = [], incremental: Bool = false,
                    html: Bool = false) -> RunJob {
        var job = RunJob(jobs: 2, report: folder.url.appendingPathComponent(name), formats: html ? [.json, .html] : [.json],
                         snapshots: folder.url.appendingPathComponent("snapshots"), snapshotWrites: writes,
                         cwd: folder.url, tool: "glyphaudit test")
        job.incremental = incremental
        return job
    }

    /// A preset written out as files in `folder`, its baselines recorded and its audits cached
    /// (Dynamic Type L); the spec file's URL.
    static func recordAndPrime(_ preset: String, in folder: TempFolder) throws -> URL {
        for file in try Presets.standalone(preset) { folder.write("spec/" + file.path, file.text) }
        let url = folder.url.appendingPathComponent("spec/\(preset).json")
        _ = try Pipeline.run(try plan([try Spec.load(contentsOf: url)]), job(folder, "record", writes: .record))
        _ = try Pipeline.run(try plan([try Spec.load(contentsOf: url)]), job(folder, "prime", incremental: true))
        return url
    }

    /// design-system-checkbox recorded and primed (`recordAndPrime`), then sm's mark 1.5 → 2.25 pt:
    /// the plan, and a full run of it.
    static func markWeightChanged(in folder: TempFolder) throws -> (Plan, RunOutcome) {
        let url = try recordAndPrime("design-system-checkbox", in: folder)
        let text = try String(contentsOf: url, encoding: .utf8)
        try Data(text.replacingOccurrences(of: "\"markWeight\": 1.5", with: "\"markWeight\": 2.25").utf8).write(to: url)
        let plan = try Self.plan([try Spec.load(contentsOf: url)])
        return (plan, try Pipeline.run(plan, job(folder, "full")))
    }

    static func cacheFiles(_ folder: TempFolder) -> Int {
        let root = folder.url.appendingPathComponent("snapshots/\(AuditCache.folderName)")
        return (FileManager.default.enumerator(atPath: root.path)?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".entry") }.count
    }

    /// Every report format written from both runs, and every file of both report folders (contact
    /// sheets, evidence pictures), byte for byte. (The findings' picture descriptions, which no
    /// report writes, are not kept in the cache.)
    static func expectSameReports(_ a: RunOutcome, _ b: RunOutcome, _ folder: TempFolder, _ nameA: String, _ nameB: String) throws {
        let ua = folder.url.appendingPathComponent(nameA), ub = folder.url.appendingPathComponent(nameB)
        try a.report.write(to: ua, formats: ReportFormat.allCases)
        try b.report.write(to: ub, formats: ReportFormat.allCases)
        func files(_ u: URL) -> [String] {
            ((FileManager.default.enumerator(atPath: u.path)?.allObjects as? [String]) ?? []).filter {
                var d: ObjCBool = false
                return FileManager.default.fileExists(atPath: u.appendingPathComponent($0).path, isDirectory: &d) && !d.boolValue
            }.sorted()
        }
        #expect(files(ua) == files(ub))
        for f in files(ub) {
            let da = try? Data(contentsOf: ua.appendingPathComponent(f)), db = try Data(contentsOf: ub.appendingPathComponent(f))
            // The reports name their folder nowhere, so equal runs write equal bytes.
            #expect(da == db, "\(f) differs")
        }
    }

    @Test("the built-in presets (Dynamic Type L): a second incremental run draws nothing and reports what a full run reports")
    func builtInPresets() throws {
        let folder = TempFolder()
        let plan = try Self.plan(try Presets.names.map { try Presets.load($0) })
        _ = try Pipeline.run(plan, Self.job(folder, "record", writes: .record))
        let full = try Pipeline.run(plan, Self.job(folder, "full", html: true))
        let first = try Pipeline.run(plan, Self.job(folder, "first", incremental: true, html: true))
        // The first draws everything (no audits cached yet) and caches each variant group's audit:
        // a preset's component in one theme and display setting.
        #expect(first.snapshots?.results.contains { $0.reused == true } == false)
        let groups = Set(plan.items.map { "\($0.variant.preset)/\($0.variant.component)/\($0.variant.theme)/\($0.variant.setting?.rawValue ?? "")" })
        #expect(Self.cacheFiles(folder) == groups.count)
        let second = try Pipeline.run(plan, Self.job(folder, "second", incremental: true, html: true))
        #expect(second.snapshots?.results.filter { $0.reused == true }.count == plan.items.count)
        try Self.expectSameReports(first, full, folder, "first", "full")
        try Self.expectSameReports(second, full, folder, "second", "full")
        #expect(full.report.findings.contains { $0.picturePath != nil }, "the presets have pictured findings, so the cache carries some")
    }

    @Test("a mutated spec: the changed size is drawn again, the rest reused, and the report is a full run's")
    func mutatedSpec() throws {
        let folder = TempFolder()
        let (plan, full) = try Self.markWeightChanged(in: folder)
        let incremental = try Pipeline.run(plan, Self.job(folder, "incremental", incremental: true))
        try Self.expectSameReports(incremental, full, folder, "incremental", "full")
        let reused = incremental.snapshots?.results.filter { $0.reused == true }.map(\.id.description) ?? []
        // The md components (square, circle): 2 × 4 themes × 2 states × 3 scales.
        #expect(reused.count == 48)
        #expect(reused.allSatisfy { $0.contains("-md/") })
        #expect(full.snapshots?.counts.mismatch == 24)
    }

    @Test("a group drawn again (its baselines not re-recorded) takes its audit from the cache the run before wrote, and the report is still a full run's")
    func drawnGroupTakesCachedAudit() throws {
        let folder = TempFolder()
        let (plan, full) = try Self.markWeightChanged(in: folder)
        let cache = folder.url.appendingPathComponent("snapshots/\(AuditCache.folderName)")
        func entries() -> Set<String> {
            Set(((FileManager.default.enumerator(atPath: cache.path)?.allObjects as? [String]) ?? []).filter { $0.hasSuffix(".entry") })
        }
        let primed = entries()
        // The first run after the change audits the sm groups (square and circle, 4 themes) and caches them.
        let first = try Pipeline.run(plan, Self.job(folder, "first", incremental: true))
        try Self.expectSameReports(first, full, folder, "first", "full")
        let written = entries().subtracting(primed)
        #expect(written.count == 8)
        // A finding put into those entries by hand shows in the next run's report: its audit of the
        // groups it draws again came from them.
        var kept: [String: Data] = [:]
        for name in written {
            let file = cache.appendingPathComponent(name)
            kept[name] = try Data(contentsOf: file)
            var entry = try #require(AuditCache.Entry.parse(kept[name]!))
            var marker = try #require(full.report.findings.first)
            marker.message = "put into the cache by the test"
            marker.picturePath = nil
            entry.findings.append(marker)
            try entry.fileData().write(to: file)
        }
        let again = try Pipeline.run(plan, Self.job(folder, "again", incremental: true))
        #expect(again.snapshots?.results.filter { $0.reused != true }.count == 48, "the sm groups are drawn again (2 shapes × 4 themes × 2 states × 3 scales)")
        #expect(again.report.findings.filter { $0.message == "put into the cache by the test" }.count == 8)
        // With the entries as written, the same report as a full run's.
        for (name, data) in kept { try data.write(to: cache.appendingPathComponent(name)) }
        let restored = try Pipeline.run(plan, Self.job(folder, "restored", incremental: true))
        try Self.expectSameReports(restored, full, folder, "restored", "full")
    }

    @Test("a theme's colour changed: only that theme's groups are drawn again, in every component, and the report is a full run's")
    func themeColour() throws {
        let folder = TempFolder()
        for file in try Presets.standalone("design-system-checkbox") { folder.write("ds/" + file.path, file.text) }
        let url = folder.url.appendingPathComponent("ds/design-system-checkbox.json")
        _ = try Pipeline.run(try Self.plan([try Spec.load(contentsOf: url)], dynamicType: "L,AX5"), Self.job(folder, "record", writes: .record))
        _ = try Pipeline.run(try Self.plan([try Spec.load(contentsOf: url)], dynamicType: "L,AX5"), Self.job(folder, "prime", incremental: true, html: true))
        // (Primed with evidence pictures, as the runs below draw them.)
        // themes.inverse-brand.surface: brand red → midnight (the inverse theme's surface).
        let text = try String(contentsOf: url, encoding: .utf8)
        let changed = text.replacingOccurrences(of: "\"surface\": \"{color.brand.red}\"", with: "\"surface\": \"{color.midnight}\"")
        #expect(changed != text)
        try Data(changed.utf8).write(to: url)
        let plan = try Self.plan([try Spec.load(contentsOf: url)], dynamicType: "L,AX5")
        let full = try Pipeline.run(plan, Self.job(folder, "full", html: true))
        let incremental = try Pipeline.run(plan, Self.job(folder, "incremental", incremental: true, html: true))
        try Self.expectSameReports(incremental, full, folder, "incremental", "full")
        // Again: the theme's groups drawn only to be compared, their audits from the cache.
        let again = try Pipeline.run(plan, Self.job(folder, "again", incremental: true, html: true))
        try Self.expectSameReports(again, full, folder, "again", "full")
        let drawn = incremental.snapshots?.results.filter { $0.reused != true }.map(\.id.description) ?? []
        // 4 components (square and circle, md and sm) × 2 Dynamic Type sizes × 2 states × 3 scales
        // in inverse-brand (two sizes: a theme's variants are not contiguous in a component).
        #expect(drawn.count == 48)
        #expect(drawn.allSatisfy { $0.contains("/inverse-brand/") })
        #expect(full.snapshots?.counts.mismatch == 48)
    }

    @Test("a state's key changed: every group is drawn, its other states' variants are not compared, and the report is a full run's")
    func stateKey() throws {
        let folder = TempFolder()
        let url = try Self.recordAndPrime("swiftui-checkbox", in: folder)
        // appearance.checked.ring: true → false feeds the checked variants only (scope appearance.checked).
        let text = try String(contentsOf: url, encoding: .utf8)
        let checked = try #require(text.range(of: "\"checked\": {"))
        let ring = try #require(text.range(of: "\"ring\": true", range: checked.upperBound..<text.endIndex))
        try Data(text.replacingCharacters(in: ring, with: "\"ring\": false").utf8).write(to: url)
        let plan = try Self.plan([try Spec.load(contentsOf: url)])
        let full = try Pipeline.run(plan, Self.job(folder, "full"))
        // A baseline the incremental run must not read: an unchecked one made unreadable. (The full
        // run above compared it whole.)
        let unchecked = try #require(plan.items.first { $0.variant.state == .unchecked })
        let store = SnapshotStore(root: folder.url.appendingPathComponent("snapshots"))
        let baseline = store.url(of: unchecked.variant)
        let kept = try Data(contentsOf: baseline)
        try Data("not a PNG".utf8).write(to: baseline)
        defer { try? kept.write(to: baseline) }
        #expect(full.snapshots?.counts.mismatch == plan.items.filter { $0.variant.state == .checked }.count)
        // The cached audits are of the old checked renders: every group is drawn again.
        let incremental = try Pipeline.run(plan, Self.job(folder, "incremental", incremental: true))
        #expect(incremental.snapshots?.results.contains { $0.reused == true } == false)
        // The unreadable baseline was not read: the incremental run gives a full run's report. (A
        // full run now reports it unreadable.)
        try Self.expectSameReports(incremental, full, folder, "incremental", "full")
        let again = try Pipeline.run(plan, Self.job(folder, "again"))
        #expect(again.snapshots?.counts.unreadable == 1)
    }

}
