import Foundation
import Testing
import GlyphTestSupport

// The CI reports' paths start at the repository root whatever folder the run starts in (issue 23,
// item 5): the binary runs in packages/ui of a temporary tree whose top holds `.git`, as a monorepo's
// CI job does, and every path GitHub, GitLab or Jenkins reads must name the file from the top.

@Suite("glyphaudit run from a subfolder: SARIF, annotations and JUnit paths from the repository root")
struct CLIRootTests {
    /// repo/.git (a folder), repo/packages/ui/myspec/swiftui-switch.json (the built-in written out), and
    /// its reduced matrix's baselines in repo/packages/ui/snap with one pixel changed in `changed`.
    static let changed = "swiftui-switch/switch-md/L/default/on@2x"

    static func tree() throws -> (w: RunWorkspace, ui: URL) {
        let w = RunWorkspace()
        try FileManager.default.createDirectory(at: w.url.appendingPathComponent("repo/.git"), withIntermediateDirectories: true)
        let ui = w.url.appendingPathComponent("repo/packages/ui")
        try FileManager.default.createDirectory(at: ui, withIntermediateDirectories: true)
        #expect(try w.run(["presets", "show", "swiftui-switch", "--out", "repo/packages/ui/myspec"]).status == 0)
        try w.copyBaselines(preset: "swiftui-switch")
        try w.changeOnePixel("\(changed).png")
        try FileManager.default.moveItem(at: w.url.appendingPathComponent("snap"), to: ui.appendingPathComponent("snap"))
        return (w, ui)
    }

    static func run(_ args: [String], in dir: URL) throws -> CLI.Result {
        try CLI.run(["run", "--spec", "myspec/swiftui-switch.json"] + RunWorkspace.reduced + ["--snapshots", "snap"] + args,
                    in: dir, environment: ["GITHUB_ACTIONS": "true", "NO_COLOR": "1"])
    }

    @Test("from packages/ui: SARIF uri, ::error file= and JUnit file/attachments all start at the folder holding .git")
    func fromSubfolder() throws {
        let (w, ui) = try Self.tree()
        let r = try Self.run(["--report", "out"], in: ui)
        #expect(r.status == 1, "\(r.stderr)")
        let spec = "packages/ui/myspec/swiftui-switch.json"

        // SARIF: every result's file, from the root, against %SRCROOT%.
        let sarif = try Data(contentsOf: ui.appendingPathComponent("out/results.sarif"))
        let run = try #require((try JSONSerialization.jsonObject(with: sarif) as? [String: Any]).flatMap { ($0["runs"] as? [[String: Any]])?.first })
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(!results.isEmpty)
        let uris = Set(results.compactMap { r -> String? in
            let a = ((r["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])?["artifactLocation"] as? [String: Any]
            return a?["uriBaseId"] as? String == "%SRCROOT%" ? a?["uri"] as? String : nil
        })
        #expect(uris == [spec], "\(uris)")
        // A fix still finds its column: the file is read where it is.
        #expect(results.contains { $0["fixes"] != nil })

        // Annotations: the snapshot line names the baseline, the findings the spec, from the root.
        let lines = r.stdout.split(separator: "\n").map(String.init).filter { $0.hasPrefix("::") }
        #expect(lines.first?.hasPrefix("::error file=packages/ui/snap/\(Self.changed).png,title=glyphaudit snapshots") == true, "\(lines)")
        let located = lines.dropFirst().filter { $0.contains("file=") }
        #expect(!located.isEmpty && located.allSatisfy { $0.contains("file=\(spec),line=") || $0.contains("file=\(spec),title=") }, "\(lines)")

        // JUnit: the suite's file and the attachments (report folder from the root + picture).
        let junit = try String(contentsOf: ui.appendingPathComponent("out/junit.xml"), encoding: .utf8)
        #expect(junit.contains("<testsuite name=\"swiftui-switch\" ") && junit.contains(" file=\"\(spec)\""), "\(junit.prefix(600))")
        let attachments = junit.matches(of: try Regex(#"\[\[ATTACHMENT\|([^\]]+)\]\]"#)).compactMap { $0.output[1].substring.map(String.init) }
        #expect(!attachments.isEmpty)
        for a in attachments {
            #expect(a.hasPrefix("packages/ui/out/snapshots/"), "\(a)")
            #expect(w.exists("repo/" + a), "\(a) is not a file below the root")
        }
    }

    @Test("--report absolute, inside the root: the attachments still start at the root, never absolute")
    func absoluteReport() throws {
        let (w, ui) = try Self.tree()
        let report = w.url.appendingPathComponent("repo/build/glyph").path
        let r = try Self.run(["--report", report], in: ui)
        #expect(r.status == 1, "\(r.stderr)")
        let junit = try String(contentsOf: URL(fileURLWithPath: report).appendingPathComponent("junit.xml"), encoding: .utf8)
        let attachments = junit.matches(of: try Regex(#"\[\[ATTACHMENT\|([^\]]+)\]\]"#)).compactMap { $0.output[1].substring.map(String.init) }
        #expect(!attachments.isEmpty && attachments.allSatisfy { $0.hasPrefix("build/glyph/snapshots/") && w.exists("repo/" + $0) }, "\(attachments)")
        #expect(!junit.contains(w.url.path), "no absolute path in junit.xml")
    }

    @Test("--root names the root: the folder above, or the working folder itself")
    func explicitRoot() throws {
        let (w, ui) = try Self.tree()
        defer { withExtendedLifetime(w) {} }
        let r = try Self.run(["--report", "out", "--root", "..", "--formats", "sarif"], in: ui)
        #expect(r.status == 1, "\(r.stderr)")
        let sarif = try String(contentsOf: ui.appendingPathComponent("out/results.sarif"), encoding: .utf8)
        #expect(sarif.contains("\"uri\" : \"ui/myspec/swiftui-switch.json\"") || sarif.contains("\"uri\": \"ui/myspec/swiftui-switch.json\""), "\(sarif.prefix(2000))")
        let here = try Self.run(["--report", "out2", "--root", ".", "--formats", "sarif"], in: ui)
        #expect(here.status == 1, "\(here.stderr)")
        let plain = try String(contentsOf: ui.appendingPathComponent("out2/results.sarif"), encoding: .utf8)
        #expect(plain.contains("myspec/swiftui-switch.json") && !plain.contains("ui/myspec"))
    }

    @Test("a --root that is missing, a file, or not above the working folder: exit 2, one message, nothing written",
          arguments: [("missing", "--root: no such folder"), ("afile", "--root: not a folder"),
                      ("../../elsewhere", "--root: not the working folder")])
    func badRoot(root: String, message: String) throws {
        let (w, ui) = try Self.tree()
        try Data("x".utf8).write(to: ui.appendingPathComponent("afile"))
        try FileManager.default.createDirectory(at: w.url.appendingPathComponent("repo/elsewhere"), withIntermediateDirectories: true)
        let before = filesBelow(w.url)
        let r = try Self.run(["--report", "out", "--root", root], in: ui)
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("glyphaudit: \(root): \(message)") || r.stderr.contains("\(root): \(message)"), "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(filesBelow(w.url) == before, "nothing written")
        let m = try CLI.run(["merge-reports", "out", "--root", root], in: ui)
        #expect(m.status == 2 && m.stderr.contains(message), "\(m.stderr)")
    }
}
