import Foundation
import Testing
import GlyphRaster
import GlyphTestSupport
import GlyphSnapshotTestSupport

// The reports a CI reads, as `glyphaudit run` writes them: on the built-in presets (reduced matrix)
// with one baseline changed and one missing, and on a spec of one's own written out with
// `presets show --out`. junit.xml and results.sarif are checked against their schemas with real
// validators (SchemaValidation).

/// A run of the built-in presets' reduced matrix in a workspace whose baselines have one change and
/// one gap, under GITHUB_ACTIONS=true.
struct BuiltinCIRun {
    let w = RunWorkspace()
    let result: CLI.Result
    static let changed = "swiftui-switch/switch-md/L/default/on@2x"
    static let missing = "rvs-checkbox/square-md/AX5/default/checked@2x"

    init() throws {
        try w.copyBaselines()
        try w.changeOnePixel("\(Self.changed).png")
        try FileManager.default.removeItem(at: w.url.appendingPathComponent("snap/\(Self.missing).png"))
        result = try w.run(["run"] + RunWorkspace.reduced + ["--snapshots", "snap", "--report", "out"], environment: ["GITHUB_ACTIONS": "true"])
    }

    var annotations: [String] { result.stdout.split(separator: "\n").map(String.init).filter { $0.hasPrefix("::") } }
}

@Suite("glyphaudit run: the CI outputs")
struct CLICIOutputTests {
    @Test("built-in presets: a JUnit case per rule and component, and one for each component's snapshots")
    func builtinJUnit() throws {
        let run = try BuiltinCIRun()
        #expect(run.result.status == 1, "\(run.result.stderr)")
        let junit = try run.w.text("out/junit.xml")
        let report = try run.w.json("out/report.json")
        let variants = try #require(report["variants"] as? [[String: Any]])
        let rules = try #require(report["rules"] as? [[String: Any]])
        var components: [String: Set<String>] = [:]
        for v in variants { components[v["preset"] as! String, default: []].insert(v["component"] as! String) }
        let cases = components.values.reduce(0) { $0 + $1.count } * (rules.count + 1)
        #expect(components.values.reduce(0) { $0 + $1.count } == 7, "swiftui-checkbox, swiftui-switch and rvs-checkbox have one component, design-system-checkbox four")
        #expect(junit.components(separatedBy: "<testcase ").count - 1 == cases)
        #expect(junit.contains("<testsuites name=\"glyphaudit\" tests=\"\(cases)\" "))
        // The two snapshot failures, each in its preset's case, with the changed one's pictures attached.
        #expect(junit.contains("<testcase classname=\"swiftui-switch.snapshot\" name=\"switch-md\" time=\"0\">\n      <failure type=\"snapshot\" "
                               + "message=\"1 of 24 snapshots failed: 1 changed\">changed: \(BuiltinCIRun.changed): "))
        #expect(junit.contains("<testcase classname=\"rvs-checkbox.snapshot\" name=\"square-md\" time=\"0\">\n      <failure type=\"snapshot\" "
                               + "message=\"1 of 18 snapshots failed: 1 new\">new: \(BuiltinCIRun.missing): "))
        // One attachment per failed case, its picture (GitLab shows the first attachment alone).
        let attachments = junit.matches(of: try Regex(#"\[\[ATTACHMENT\|([^\]]+)\]\]"#)).compactMap { $0.output[1].substring.map(String.init) }
        #expect(attachments == ["out/snapshots/swiftui-switch/switch-md.failed.png", "out/snapshots/rvs-checkbox/square-md.failed.png"], "\(attachments)")
        // The changed one's picture is its side-by-side (expected | actual | diff); the new one's its render.
        let side = try Raster(contentsOfPNG: run.w.url.appendingPathComponent("out/snapshots/\(BuiltinCIRun.changed).sidebyside.png"))
        #expect(try Raster(contentsOfPNG: run.w.url.appendingPathComponent(attachments[0])) == side)
        // Its panels left to right, 4 px apart: the changed baseline, the render, pixelmatch's diff.
        let picture = { (kind: String) in try Raster(contentsOfPNG: run.w.url.appendingPathComponent("out/snapshots/\(BuiltinCIRun.changed).\(kind).png")) }
        let expected = try Raster(contentsOfPNG: run.w.url.appendingPathComponent("snap/\(BuiltinCIRun.changed).png"))
        let (w, h) = (expected.width, expected.height)
        #expect(side.width == 3 * w + 8 && side.height == h)
        #expect(try picture("expected") == expected)
        #expect(side.region(x: 0, y: 0, width: w, height: h) == expected)
        #expect(try side.region(x: w + 4, y: 0, width: w, height: h) == picture("actual"))
        #expect(try side.region(x: 2 * (w + 4), y: 0, width: w, height: h) == picture("diff"))
        let render = try Raster(contentsOfPNG: run.w.url.appendingPathComponent("out/images/\(BuiltinCIRun.missing).png"))
        #expect(try Raster(contentsOfPNG: run.w.url.appendingPathComponent(attachments[1])) == render)
        #expect(!junit.contains("Assets/"), "no path into the tool's own files")
        #expect(junit.utf8.count < 64 << 10, "\(junit.utf8.count) bytes")
    }

    @Test("built-in presets: junit.xml with findings and snapshot failures validates against the Jenkins XSD",
          .enabled(if: SchemaValidation.junitUnavailable == nil, "\(SchemaValidation.junitUnavailable ?? "")"))
    func builtinJUnitValid() throws {
        let run = try BuiltinCIRun()
        let junit = try run.w.text("out/junit.xml")
        #expect(junit.contains("<failure type=\"state-shape\"") && junit.contains("<failure type=\"snapshot\""))
        let outcome = try SchemaValidation.validateJUnit(junit)
        #expect(outcome.valid, "\(outcome.output)")
    }

    @Test("built-in presets: results.sarif validates, with their findings left out and counted in a note",
          .enabled(if: SchemaValidation.sarifUnavailable == nil, "\(SchemaValidation.sarifUnavailable ?? "")"))
    func builtinSARIF() throws {
        let run = try BuiltinCIRun()
        let data = try Data(contentsOf: run.w.url.appendingPathComponent("out/results.sarif"))
        let outcome = try SchemaValidation.validateSARIF(data)
        #expect(outcome.valid, "\(outcome.output)")
        let log = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let sarifRun = try #require((log["runs"] as? [[String: Any]])?.first)
        #expect((sarifRun["results"] as? [Any])?.isEmpty == true)
        let findings = try #require(try run.w.json("out/report.json")["findings"] as? [[String: Any]])
        let note = try #require(((sarifRun["invocations"] as? [[String: Any]])?.first?["toolExecutionNotifications"] as? [[String: Any]])?.first)
        #expect(((note["message"] as? [String: Any])?["text"] as? String)?.hasPrefix("\(findings.count) findings of the built-in presets "
                + "swiftui-checkbox, swiftui-switch, design-system-checkbox, rvs-checkbox are not among the results") == true)
    }

    @Test("built-in presets: at most 10 error (and 10 warning) annotations, snapshots first, one per rule and preset, never file= into the tool")
    func builtinAnnotations() throws {
        let run = try BuiltinCIRun()
        let lines = run.annotations
        let findings = try #require(try run.w.json("out/report.json")["findings"] as? [[String: Any]])
        let groups = Set(findings.filter { $0["severity"] as? String == "error" && $0["accepted"] == nil }
            .map { "\(($0["variant"] as! String).split(separator: "/")[0]) \($0["rule"] as! String)" })
        let errors = lines.filter { $0.hasPrefix("::error ") }
        #expect(lines.allSatisfy { $0.hasPrefix("::error ") || $0.hasPrefix("::warning ") })
        #expect(errors.count == min(10, 1 + groups.count), "\(errors.count) lines for \(groups.count) groups and the snapshots")
        #expect(errors.count <= 10 && lines.count - errors.count <= 10)
        // The snapshots: one line, pointing at the first failed one's baseline (in the workspace) — the changed one comes first.
        #expect(lines[0].hasPrefix("::error file=snap/\(BuiltinCIRun.changed).png,title=glyphaudit snapshots%3A 2 of 130 failed::1 changed, 1 new%0A"),
                "\(lines[0])")
        // (With more than nine groups the last line would count the rest: `title=glyphaudit%3A N more groups`.)
        for line in errors.dropFirst() where !line.hasPrefix("::error title=glyphaudit%3A ") {
            #expect(line.hasPrefix("::error title=glyphaudit "), "a built-in preset has no file of the repository: \(line)")
            let group = groups.first { g in
                let parts = g.split(separator: " ")
                return line.hasPrefix("::error title=glyphaudit \(parts[1])%3A ") && line.contains(" in \(parts[0])::")
            }
            #expect(group != nil, "\(line)")
        }
        #expect(!lines.joined().contains("Assets/"))
        let summary = try run.w.text("out/summary.md")
        #expect(summary.utf8.count < 65_536 && !summary.contains("\\`"))
        #expect(summary.contains("- `\(BuiltinCIRun.changed)`: mismatch — "))
    }

    @Test("a spec of one's own: annotations, SARIF and JUnit point at its file and lines; both logs validate")
    func ownSpec() throws {
        let w = RunWorkspace()
        #expect(try w.run(["presets", "show", "swiftui-switch", "--out", "myspec"]).status == 0)
        let r = try w.run(["run", "--spec", "myspec/swiftui-switch.json"] + RunWorkspace.reduced + ["--report", "out"],
                          environment: ["GITHUB_ACTIONS": "true"])
        #expect(r.status == 1, "\(r.stderr)")
        let spec = try w.text("myspec/swiftui-switch.json").split(separator: "\n", omittingEmptySubsequences: false)
        let findings = try #require(try w.json("out/report.json")["findings"] as? [[String: Any]])
        let failing = findings.filter { $0["severity"] as? String == "error" }
        #expect(!failing.isEmpty)

        let all = r.stdout.split(separator: "\n").map(String.init).filter { $0.hasPrefix("::") }
        let lines = all.filter { $0.hasPrefix("::error") }
        #expect(!lines.isEmpty && lines.count <= 10)
        // The open warnings (target size) point at the spec too.
        #expect(all.filter { $0.hasPrefix("::warning") }.allSatisfy { $0.hasPrefix("::warning file=myspec/swiftui-switch.json") }, "\(all)")
        for line in lines {
            // file=myspec/swiftui-switch.json,line=N: the line holds the key the finding is about.
            let m = try #require(line.firstMatch(of: try Regex(#"^::error file=myspec/swiftui-switch\.json,line=(\d+),title=glyphaudit ([a-z-]+)%3A"#)), "\(line)")
            let n = try #require(Int(String(m.output[1].substring ?? "")))
            let rule = String(m.output[2].substring ?? "")
            let keys = failing.filter { $0["rule"] as? String == rule }.compactMap { (($0["location"] as? [String: Any])?["keyPath"] as? String)?.split(separator: ".").last }
            #expect(keys.contains { spec[n - 1].contains("\"\($0)\"") }, "line \(n): \(spec[n - 1])")
        }

        let sarif = try Data(contentsOf: w.url.appendingPathComponent("out/results.sarif"))
        let run = try #require((try JSONSerialization.jsonObject(with: sarif) as? [String: Any]).flatMap { ($0["runs"] as? [[String: Any]])?.first })
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(results.count == findings.count, "every finding of a spec in the repository is a result")
        #expect(results.allSatisfy { r in
            let artifact = ((r["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])?["artifactLocation"] as? [String: Any]
            return artifact?["uri"] as? String == "myspec/swiftui-switch.json" && artifact?["uriBaseId"] as? String == "%SRCROOT%"
        })
        #expect(run["invocations"] == nil)

        let junit = try w.text("out/junit.xml")
        #expect(junit.contains("<testsuite name=\"swiftui-switch\" tests=\"8\" failures=\"1\" errors=\"0\" skipped=\"0\" time=\"0\" file=\"myspec/swiftui-switch.json\">"),
                "\(junit.prefix(400))")
        // GitLab reads the file on each case.
        #expect(junit.components(separatedBy: "<testcase ").dropFirst().allSatisfy { $0.contains(" file=\"myspec/swiftui-switch.json\" ") })
        if SchemaValidation.junitUnavailable == nil {
            let outcome = try SchemaValidation.validateJUnit(junit)
            #expect(outcome.valid, "\(outcome.output)")
        }
        if SchemaValidation.sarifUnavailable == nil {
            let outcome = try SchemaValidation.validateSARIF(sarif)
            #expect(outcome.valid, "\(outcome.output)")
        }
    }
}

@Suite("CLI: suggested colours in the CI outputs")
struct CLISuggestionTests {
    @Test("each SARIF fix, applied to the spec on its own, clears its finding; summary.md and the report name the colour")
    func sarifFixesApplied() throws {
        let w = RunWorkspace()
        #expect(try w.run(["presets", "show", "swiftui-switch", "--out", "myspec"]).status == 0)
        let specPath = "myspec/swiftui-switch.json"
        let r = try w.run(["run", "--spec", specPath] + RunWorkspace.reduced + ["--report", "out"])
        #expect(r.status == 1, "\(r.stderr)")
        let original = try w.text(specPath)
        let sarif = try Data(contentsOf: w.url.appendingPathComponent("out/results.sarif"))
        let run = try #require((try JSONSerialization.jsonObject(with: sarif) as? [String: Any]).flatMap { ($0["runs"] as? [[String: Any]])?.first })
        let results = try #require(run["results"] as? [[String: Any]])
        let report = try #require(try w.json("out/report.json")["findings"] as? [[String: Any]])
        let suggested = report.filter { $0["suggestion"] != nil }
        #expect(suggested.count >= 4)  // the default theme's off track, on track and knob on each, at least
        let fixed = results.filter { $0["fixes"] != nil }
        #expect(fixed.count == suggested.count, "every suggestion in a spec of one's own is a SARIF fix")
        let summary = try w.text("out/summary.md")
        for f in suggested where f["severity"] as? String == "error" {
            let s = try #require(f["suggestion"] as? [String: Any])
            #expect(summary.contains("fix: use `\(s["to"] as! String)`"), "\(s)")
        }
        for result in fixed {
            let fix = try #require((result["fixes"] as? [[String: Any]])?.first)
            let change = try #require((fix["artifactChanges"] as? [[String: Any]])?.first)
            #expect((change["artifactLocation"] as? [String: Any])?["uri"] as? String == specPath)
            let rep = try #require((change["replacements"] as? [[String: Any]])?.first)
            let region = try #require(rep["deletedRegion"] as? [String: Int])
            let inserted = try #require((rep["insertedContent"] as? [String: Any])?["text"] as? String)
            // Apply the replacement: columns are 1-based UTF-16 offsets on the line, end exclusive.
            var lines = original.components(separatedBy: "\n")
            let line = Array(lines[region["startLine"]! - 1].utf16)
            let start = region["startColumn"]! - 1, end = region["endColumn"]! - 1
            let deleted = String(decoding: line[start..<end], as: UTF16.self)
            let props = try #require(result["properties"] as? [String: Any])
            let finding = try #require(report.first { $0["variant"] as? String == props["variant"] as? String
                && $0["subject"] as? String == props["subject"] as? String && $0["suggestion"] != nil })
            let suggestion = try #require(finding["suggestion"] as? [String: Any])
            #expect(deleted.uppercased() == (suggestion["from"] as? String)?.uppercased(), "replaced \(deleted)")
            #expect(inserted == suggestion["to"] as? String)
            lines[region["startLine"]! - 1] = String(decoding: line[..<start], as: UTF16.self) + inserted
                + String(decoding: line[end...], as: UTF16.self)
            try Data(lines.joined(separator: "\n").utf8).write(to: w.url.appendingPathComponent(specPath))
            let again = try w.run(["audit", "--spec", specPath, "--json"] + RunWorkspace.reduced)
            let after = try #require((try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any])?["findings"] as? [[String: Any]])
            #expect(!after.contains { $0["variant"] as? String == finding["variant"] as? String
                && $0["subject"] as? String == finding["subject"] as? String && $0["severity"] as? String == finding["severity"] as? String
                && ($0["numbers"] as? [String: Double])?["ratio"] ?? 99 < ($0["numbers"] as? [String: Double])?["required"] ?? 0 },
                    "\(props["subject"] ?? ""): \(deleted) → \(inserted) still fails")
        }
        try Data(original.utf8).write(to: w.url.appendingPathComponent(specPath))
    }
}
