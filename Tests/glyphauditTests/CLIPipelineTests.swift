import Foundation
import Testing
import GlyphAudit
import GlyphCore
import GlyphPipeline
import GlyphRender
import GlyphReport
import GlyphSnapshot
import GlyphTestSupport

/// `run` is argument parsing, one library call and printing: the binary's report.json is the report
/// model `Pipeline.run` returns for the same selection, and the pictures are the same files.
@Suite("glyphaudit run is the library's Pipeline")
struct CLIPipelineTests {
    @Test("the binary's report.json equals the library's report for the same run, and its pictures are the same")
    func binaryEqualsLibrary() throws {
        let folder = TempFolder()
        // Baselines for one of the two presets, one of them changed, so the report has every kind of snapshot.
        let record = try CLI.run(["check", "--preset", "rvs-checkbox", "--only", "dynamic-type=L", "--snapshots", "snaps",
                                  "--record", "--quiet"], in: folder.url)
        #expect(record.status == 0, "\(record.stderr)")
        let changed = folder.url.appendingPathComponent("snaps/rvs-checkbox/square-md/L/default/checked@2x.png")
        let other = folder.url.appendingPathComponent("snaps/rvs-checkbox/square-md/L/default/unchecked@2x.png")
        try FileManager.default.removeItem(at: changed)
        try FileManager.default.copyItem(at: other, to: changed)

        let args = ["--preset", "rvs-checkbox", "--preset", "swiftui-switch", "--only", "dynamic-type=L,AX5"]
        let cli = try CLI.run(["run"] + args + ["--snapshots", "snaps", "--report", "cli", "--quiet"], in: folder.url)
        #expect(cli.status == 1, "findings and a changed snapshot: exit 1; \(cli.stderr)")
        let written = try RunReport.read(folder.url.appendingPathComponent("cli/report.json"))

        var filter = VariantFilter()
        try filter.add("dynamic-type=L,AX5")
        let plan = try Plan(specs: [try Presets.load("rvs-checkbox"), try Presets.load("swiftui-switch")], filter: filter)
        let library = try Pipeline.run(plan, RunJob(jobs: 2, report: folder.url.appendingPathComponent("lib"), filter: filter,
                                                    snapshots: folder.url.appendingPathComponent("snaps"), cwd: folder.url,
                                                    tool: written.tool))
        // Compared as the JSON each writes (what report.json holds), a difference named by its first line.
        let a = String(decoding: try library.report.jsonData(), as: UTF8.self).split(separator: "\n")
        let b = String(decoding: try written.jsonData(), as: UTF8.self).split(separator: "\n")
        let first = (0..<min(a.count, b.count)).first { a[$0] != b[$0] }
        #expect(first == nil && a.count == b.count,
                "first difference at line \(first ?? min(a.count, b.count)): \(first.map { "\(a[$0]) vs \(b[$0])" } ?? "lengths")")
        #expect(written.snapshots?.results.contains { $0.status == .mismatch } == true)
        #expect(written.findings.contains { $0.picturePath != nil } && written.variants.contains { $0.image != nil })

        // The same pictures, byte for byte, in both report folders (the reports name them relative to their folder).
        let pictures = written.variants.compactMap(\.image) + written.findings.compactMap(\.picturePath)
            + (written.snapshots?.results.flatMap { [$0.expected, $0.actual, $0.diff, $0.sideBySide].compactMap { $0 } } ?? [])
        for p in pictures {
            let a = try Data(contentsOf: folder.url.appendingPathComponent("cli").appendingPathComponent(p))
            let b = try Data(contentsOf: folder.url.appendingPathComponent("lib").appendingPathComponent(p))
            #expect(a == b, "\(p)")
        }
    }
}
