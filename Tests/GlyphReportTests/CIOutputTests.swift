import Foundation
import Testing
@testable import GlyphAudit
@testable import GlyphCore
@testable import GlyphReport
#if canImport(FoundationXML)
import FoundationXML
@testable import GlyphSnapshot
import GlyphTestSupport
#endif

// The reports a CI reads — junit.xml, results.sarif, summary.md and the workflow annotations —
// made from the hand-built SampleReport (ReportWriterTests.swift), whose findings and snapshots are
// known one by one, and from reports built in memory to be huge. Expected values are worked out by
// hand from those inputs.
//
// The sample, at --fail-on error: alpha (one component, square-md, four variants: L and AX5 ×
// unchecked and checked) has a nontext-contrast error covering its two unchecked variants and a
// state-shape warning; beta (switch-md, two variants) has a state-shape error, an accepted
// nontext-contrast error and a target-size info. Snapshots: alpha one match, one mismatch and one
// stale baseline; beta one new.

/// The sample with alpha renamed to the built-in preset swiftui-checkbox (its spec and token file
/// now the built-in's), beta still a spec of the repository.
func builtinSample(failOn: String = "error") -> RunReport {
    var r = SampleReport.make(failOn: failOn)
    func rename(_ s: String) -> String { s.hasPrefix("alpha/") ? "swiftui-checkbox/" + s.dropFirst("alpha/".count) : s }
    r.presets[0].name = "swiftui-checkbox"
    r.presets[0].source = Presets.path("swiftui-checkbox")
    r.presets[0].tokens = "Assets/tokens/swiftui.tokens.json"
    for i in r.variants.indices where r.variants[i].preset == "alpha" {
        r.variants[i].preset = "swiftui-checkbox"
        r.variants[i].id = VariantID(parsing: rename(r.variants[i].id.description))
    }
    for i in r.findings.indices {
        r.findings[i].variant = VariantID(parsing: rename(r.findings[i].variant.description))
        if var l = r.findings[i].location, l.file == "specs/alpha.json" {
            l.file = Presets.path("swiftui-checkbox")
            if l.tokenFile != nil { l.tokenFile = "Assets/tokens/swiftui.tokens.json" }
            r.findings[i].location = l
        }
    }
    for i in r.snapshots!.results.indices { r.snapshots!.results[i].id = VariantID(parsing: rename(r.snapshots!.results[i].id.description)) }
    r.canonicalize()
    return r
}

/// A report with one preset of `variants` variants (`p/c-md/L/default/sK@2x`) and findings as given:
/// for each rule id, the severity and the variants (by K) it fails in, one finding each.
func gridReport(variants: Int, components: [String] = ["c-md"], failOn: String = "error",
                rules ruleFindings: [(id: String, severity: Severity, variants: [Int])]) -> RunReport {
    var vs: [VariantRecord] = []
    for component in components {
        for k in 0..<variants {
            let id: VariantID = "p/\(component)/L/default/s\(k)@2x"
            vs.append(VariantRecord(index: vs.count, id: id, preset: "p", component: component, dynamicType: "L", theme: "default",
                                    state: "s\(k)", scale: 2, width: 40, height: 28))
        }
    }
    let preset = PresetRecord(name: "p", control: "checkbox", description: "", source: "specs/p.json", tokens: nil, shapes: ["square"],
                              sizes: components, themes: ["default"], states: (0..<variants).map { "s\($0)" }, dynamicTypeSizes: ["L"],
                              scales: [2], variantCount: vs.count)
    let rules = ruleFindings.map { RuleRecord(id: $0.id, title: $0.id, criterion: nil, severity: .error, summary: "", fix: "") }
    var findings: [Finding] = []
    for r in ruleFindings {
        for k in r.variants {
            findings.append(Finding(rule: r.id, severity: r.severity, criterion: nil, variant: "p/\(components[0])/L/default/s\(k)@2x",
                                    subject: "part", message: "\(r.id) fails in s\(k)",
                                    location: FindingLocation(file: "specs/p.json", line: 10 + k)))
        }
    }
    var report = RunReport(tool: "glyphaudit 0.1.0", failOn: failOn, selected: vs.count, presets: [preset], variants: vs,
                           findings: findings, snapshots: nil, rules: rules)
    report.canonicalize()
    return report
}

/// Whether Markdown text has a backtick escaped with a backslash outside code spans (CommonMark:
/// a backslash escapes the ASCII punctuation after it; inside a code span it is literal).
func hasEscapedBacktick(_ md: String) -> Bool {
    let chars = Array(md)
    var i = 0
    while i < chars.count {
        let ch = chars[i]
        if ch == "\\", i + 1 < chars.count {
            if chars[i + 1] == "`" { return true }
            i += chars[i + 1].isASCII && chars[i + 1].isPunctuation || chars[i + 1] == "\\" ? 2 : 1
            continue
        }
        if ch == "`" {
            var n = 0
            while i + n < chars.count && chars[i + n] == "`" { n += 1 }
            var j = i + n
            var closed = false
            while j < chars.count {
                guard chars[j] == "`" else { j += 1; continue }
                var m = 0
                while j + m < chars.count && chars[j + m] == "`" { m += 1 }
                if m == n { closed = true; j += m; break }
                j += m
            }
            i = closed ? j : i + n
            continue
        }
        i += 1
    }
    return false
}

#if canImport(FoundationXML) || os(macOS)
@Suite("JUnit for CI: a test case per rule and component")
struct CIJUnitTests {
    @Test("one case per rule × component and one for the snapshots of each preset, whatever was found")
    func grid() throws {
        let junit = try JUnitDocument(SampleReport.make().junitXML())
        let cases = junit.cases.map { "\($0.suite) \($0.classname) \($0.name)" }
        #expect(cases == [
            "alpha alpha.state-shape square-md", "alpha alpha.nontext-contrast square-md", "alpha alpha.target-size square-md",
            "alpha alpha.snapshot square-md",
            "beta beta.state-shape switch-md", "beta beta.nontext-contrast switch-md", "beta beta.target-size switch-md",
            "beta beta.snapshot switch-md",
        ])
        // Without a single finding or snapshot failure: the same cases, all passing.
        var clean = SampleReport.make()
        clean.findings = []
        for i in clean.snapshots!.results.indices { clean.snapshots!.results[i].failed = false }
        let cleanCases = try JUnitDocument(clean.junitXML()).cases
        #expect(cleanCases.map { "\($0.suite) \($0.classname) \($0.name)" } == cases)
        // Not checked: no snapshot case.
        var unchecked = SampleReport.make()
        unchecked.snapshots = nil
        #expect(try JUnitDocument(unchecked.junitXML()).cases.count == 6)
        // Two components: every rule has a case for each.
        let two = gridReport(variants: 2, components: ["a-md", "a-sm"], rules: [("x", .error, []), ("y", .error, [])])
        #expect(try JUnitDocument(two.junitXML()).cases.map { "\($0.classname) \($0.name)" } == ["p.x a-md", "p.x a-sm", "p.y a-md", "p.y a-sm"])
    }

    @Test("failures at the fail level: counted and quoted in the message, listed in the body; the rest in system-out",
          arguments: ["error", "warning", "never"])
    func failures(failOn: String) throws {
        let junit = try JUnitDocument(SampleReport.make(failOn: failOn).junitXML())
        func c(_ classname: String) throws -> JUnitDocument.Case { try #require(junit.cases.first { $0.classname == classname }) }

        let ring = try c("alpha.nontext-contrast")
        let shape = try c("alpha.state-shape")
        let beta = try c("beta.state-shape")
        if failOn == "never" {
            #expect(ring.failures.isEmpty && beta.failures.isEmpty && shape.failures.isEmpty)
            #expect(ring.systemOut == "[error] alpha/square-md/*/default/unchecked@2x (ring): ring #C4C4C4 on #FFFFFF is 1.74:1, needs 3:1")
        } else {
            // The ring finding covers alpha's two unchecked variants of four.
            #expect(ring.failures.first?.attr("message") == "1 error in 2 of 4 variants: ring #C4C4C4 on #FFFFFF is 1.74:1, needs 3:1")
            #expect(ring.failures.first?.attr("type") == "nontext-contrast")
            #expect(ring.failures.first?.stringValue == "[error] alpha/square-md/*/default/unchecked@2x (ring): ring #C4C4C4 on #FFFFFF is 1.74:1, needs 3:1")
            #expect(beta.failures.first?.attr("message") == "1 error in 1 of 2 variants: on and off differ only in colour")
        }
        if failOn == "warning" {
            #expect(shape.failures.first?.attr("message") == "1 warning in 1 of 4 variants: the tick changes 2.0% of the boundary")
            #expect(shape.systemOut == nil)
        } else {
            #expect(shape.failures.isEmpty)
            #expect(shape.systemOut == "[warning] alpha/square-md/AX5/default/checked@2x (glyph): the tick changes 2.0% of the boundary")
        }
        // Accepted: never a failure, listed with its reason.
        let accepted = try c("beta.nontext-contrast")
        #expect(accepted.failures.isEmpty)
        #expect(accepted.systemOut == "[error, accepted: the platform's own colour] beta/switch-md/L/default/off@2x (off track): "
                + "off track #E9E9EA on #FFFFFF is 1.21:1, needs 3:1")
        // The info finding: XML-hostile text comes back whole, less the BEL that XML 1.0 cannot hold.
        let info = try c("beta.target-size")
        #expect(info.failures.isEmpty)
        #expect(info.systemOut == "[info] beta/switch-md/L/default/*@2x (hit area): hit area <44> & \"wide\" 'enough': 100% "
                + "![x](https://example.invalid/x.png) <img src=y> | a, b: c\nsecond line")
        #expect(try c("alpha.target-size").failures.isEmpty && c("alpha.target-size").systemOut == nil)

        // Snapshots fail whatever the fail level.
        let alphaSnap = try c("alpha.snapshot"), betaSnap = try c("beta.snapshot")
        #expect(alphaSnap.failures.first?.attr("message") == "1 of 2 snapshots failed: 1 changed")
        #expect(alphaSnap.failures.first?.stringValue == "changed: alpha/square-md/AX5/default/checked@2x: 3 px differ")
        #expect(betaSnap.failures.first?.attr("message") == "1 of 1 snapshot failed: 1 new")
        #expect(betaSnap.failures.first?.attr("type") == "snapshot")

        // Counts: per suite and in total, equal to the elements; errors 0; skipped only on suites.
        let expected = ["error": 4, "warning": 5, "never": 2][failOn]!
        var failures = 0
        for suite in junit.suites {
            let cases = suite.elements(forName: "testcase")
            let failed = cases.reduce(0) { $0 + $1.elements(forName: "failure").count }
            #expect(cases.allSatisfy { $0.elements(forName: "failure").count <= 1 }, "Jenkins keeps one failure per case")
            #expect(suite.attr("tests") == String(cases.count) && suite.attr("failures") == String(failed))
            #expect(suite.attr("errors") == "0" && suite.attr("skipped") == "0")
            failures += failed
        }
        #expect(failures == expected)
        #expect(junit.root.attr("tests") == "8" && junit.root.attr("failures") == String(expected))
        #expect(junit.root.attr("skipped") == nil, "the Jenkins schema has no skipped on testsuites")
        // GitLab reads `file` on each test case: the spec, from the repository root (here the working folder).
        #expect(junit.cases.allSatisfy { $0.file == "specs/\($0.suite).json" && $0.time == "0" }, "\(junit.cases.map { $0.file ?? "-" })")
    }

    @Test("a finding for every component (`*`) fails each component's case")
    func acrossComponents() throws {
        var r = gridReport(variants: 2, components: ["a-md", "a-sm"], rules: [("text-contrast", .error, [])])
        r.findings = [Finding(rule: "text-contrast", severity: .error, criterion: "1.4.3", variant: "p/*/L/default/*@2x", subject: "label",
                              message: "label #C9CCD9 on #E00800 is 3.12:1, needs 4.5:1")]
        let junit = try JUnitDocument(r.junitXML())
        #expect(junit.cases.map { "\($0.name): \($0.failures.first?.attr("message") ?? "passes")" } == [
            "a-md: 1 error in 2 of 2 variants: label #C9CCD9 on #E00800 is 3.12:1, needs 4.5:1",
            "a-sm: 1 error in 2 of 2 variants: label #C9CCD9 on #E00800 is 3.12:1, needs 4.5:1",
        ])
    }

    @Test("a long list is cut at junitListLimit lines with a count of the rest; the message counts them all")
    func cappedBody() throws {
        let r = gridReport(variants: 120, rules: [("state-shape", .error, Array(0..<120))])
        let c = try #require(try JUnitDocument(r.junitXML()).cases.first)
        #expect(c.failures.first?.attr("message") == "120 errors in 120 of 120 variants: state-shape fails in s0 (and 119 more)")
        let lines = try #require(c.failures.first?.stringValue).split(separator: "\n").map(String.init)
        #expect(lines.count == 51)
        #expect(lines.first == "[error] p/c-md/L/default/s0@2x (part): state-shape fails in s0")
        #expect(lines.last == "… and 70 more (report.json and index.html list them all)")
    }

    @Test("a rule that is off is a skipped case, counted on its suite")
    func ruleOff() throws {
        var r = SampleReport.make()
        r.rules[2].severity = .off
        r.findings.removeAll { $0.rule == "target-size" }
        let junit = try JUnitDocument(r.junitXML())
        let off = junit.cases.filter { $0.classname.hasSuffix(".target-size") }
        #expect(off.count == 2)
        for c in off {
            let suite = try #require(junit.suites.first { $0.attr("name") == c.suite })
            let element = try #require(suite.elements(forName: "testcase").first { $0.attr("classname") == c.classname })
            #expect(element.elements(forName: "skipped").first?.attr("message") == "target-size is off in the configuration")
            #expect(suite.attr("skipped") == "1")
        }
        #expect(junit.root.attr("tests") == "8")
    }

    @Test("a failed snapshot case attaches one picture, its case picture, from the repository root; a stale one is noted")
    func attachments() throws {
        let junit = try JUnitDocument(SampleReport.make().junitXML(attachmentBase: "ci/glyphaudit-out"))
        let alpha = try #require(junit.cases.first { $0.classname == "alpha.snapshot" })
        #expect(alpha.systemOut?.split(separator: "\n").map(String.init) == [
            "[[ATTACHMENT|ci/glyphaudit-out/snapshots/alpha/square-md.failed.png]]",
            "stale: alpha/square-md/xS/default/checked@2x: no variant makes this baseline any more; delete it with `glyphaudit check --prune`",
        ])
        // A new baseline with a render in the report (the contact sheet's picture): attached the same way.
        let beta = try #require(junit.cases.first { $0.classname == "beta.snapshot" })
        #expect(beta.systemOut == "[[ATTACHMENT|ci/glyphaudit-out/snapshots/beta/switch-md.failed.png]]", "\(beta.systemOut ?? "-")")
        // The pictures written say which cases have one: none written, no attachment.
        let none = try JUnitDocument(SampleReport.make().junitXML(casePictures: [:]))
        #expect(!none.cases.contains { $0.systemOut?.contains("[[ATTACHMENT|") == true })
        // Without a base the paths stay relative to the report folder.
        #expect(try JUnitDocument(SampleReport.make().junitXML()).cases.contains { $0.systemOut?.contains("[[ATTACHMENT|snapshots/alpha/square-md.failed.png]]") == true })
    }

    @Test("a suite names its spec only when it is a file of the repository, not for a built-in preset")
    func suiteFile() throws {
        let junit = try JUnitDocument(builtinSample().junitXML())
        #expect(junit.suites.map { $0.attr("name") } == ["swiftui-checkbox", "beta"])
        #expect(junit.suites.map { $0.attr("file") } == [nil, "specs/beta.json"])
        #expect(junit.cases.map { $0.file } == junit.cases.map { $0.suite == "beta" ? "specs/beta.json" : nil }, "each case too, as GitLab reads it")
    }
}
#endif

@Suite("JUnit and SARIF against their schemas, with real validators")
struct CISchemaTests {
    static func reports() -> [(String, RunReport)] {
        var off = SampleReport.make()
        off.rules[2].severity = .off
        off.findings.removeAll { $0.rule == "target-size" }
        var hostile = SampleReport.make(failOn: "warning")
        hostile.findings[hostile.findings.firstIndex { $0.rule == "target-size" }!].severity = .error
        return [("sample, fail on error", SampleReport.make()), ("sample, fail on warning", SampleReport.make(failOn: "warning")),
                ("sample, fail on never", SampleReport.make(failOn: "never")), ("a rule off", off), ("hostile text failing", hostile),
                ("a built-in preset", builtinSample()), ("120 findings in one case", gridReport(variants: 120, rules: [("x", .error, Array(0..<120))]))]
    }

    @Test("junit.xml validates against the Jenkins JUnit XSD (xmllint --schema)",
          .enabled(if: SchemaValidation.junitUnavailable == nil, "\(SchemaValidation.junitUnavailable ?? "")"))
    func junitValid() throws {
        for (what, report) in Self.reports() {
            let outcome = try SchemaValidation.validateJUnit(report.junitXML(attachmentBase: "out"))
            #expect(outcome.valid, "\(what): \(outcome.output)")
        }
        // The schema is Jenkins' with `file` on testcase added, that line alone.
        let jenkins = try String(contentsOf: SchemaValidation.junitXSD, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let gitlab = try String(contentsOf: SchemaValidation.junitGitLabXSD, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let added = gitlab.indices.first { $0 >= jenkins.count || gitlab[$0] != jenkins[$0] }
        #expect(added.map { gitlab[$0].trimmingCharacters(in: .whitespaces) } == "<xs:attribute name=\"file\" type=\"xs:string\"/>")
        #expect(added.map { Array(gitlab[..<$0] + gitlab[($0 + 1)...]) } == jenkins)
        // The validator does reject what the schema forbids (testsuites@skipped), and Jenkins' own testcase@file.
        let old = """
        <?xml version="1.0" encoding="UTF-8"?>
        <testsuites name="glyphaudit" tests="1" failures="0" errors="0" skipped="0" time="0">
          <testsuite name="a" tests="1" failures="0" errors="0" skipped="0" time="0">
            <testcase classname="a.r" name="v" file="specs/a.json" time="0"/>
          </testsuite>
        </testsuites>
        """
        let refused = try SchemaValidation.validateJUnit(old)
        #expect(!refused.valid)
        #expect(!refused.output.contains("'file'") && refused.output.contains("'skipped'"), "\(refused.output)")
        let jenkinsRefused = try SchemaValidation.validateJUnit(old, schema: SchemaValidation.junitXSD)
        #expect(jenkinsRefused.output.contains("'file'"), "\(jenkinsRefused.output)")
    }

    @Test("results.sarif validates against the OASIS SARIF 2.1.0 schema (jsonschema, draft 4)",
          .enabled(if: SchemaValidation.sarifUnavailable == nil, "\(SchemaValidation.sarifUnavailable ?? "")"))
    func sarifValid() throws {
        for (what, report) in Self.reports() {
            let outcome = try SchemaValidation.validateSARIF(report.sarifData())
            #expect(outcome.valid, "\(what): \(outcome.output)")
        }
        let broken = Data(#"{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{"ruleId": "r"}]}]}"#.utf8)
        let refused = try SchemaValidation.validateSARIF(broken)
        #expect(!refused.valid && refused.output.contains("'message' is a required property"), "\(refused.output)")
    }
}

@Suite("SARIF: only files of the repository are locations")
struct CISARIFTests {
    @Test("a built-in preset's findings are left out of the results and counted in a note; a spec's keep their file")
    func builtinLeftOut() throws {
        let report = builtinSample()
        #expect(report.isBuiltin("swiftui-checkbox") && !report.isBuiltin("beta"))
        let log = try #require(try JSONSerialization.jsonObject(with: report.sarifData()) as? [String: Any])
        let run = try #require((log["runs"] as? [[String: Any]])?.first)
        let results = try #require(run["results"] as? [[String: Any]])
        // beta's three findings (state-shape, nontext-contrast accepted, target-size info), none of swiftui-checkbox's two.
        #expect(results.compactMap { ($0["properties"] as? [String: Any])?["variant"] as? String } == [
            "beta/switch-md/L/default/on@2x", "beta/switch-md/L/default/off@2x", "beta/switch-md/L/default/*@2x",
        ])
        let uris = results.compactMap { (($0["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])
            .flatMap { ($0["artifactLocation"] as? [String: Any])?["uri"] as? String } }
        #expect(uris == ["specs/beta.json", "specs/beta.json", "specs/beta.json"], "every result keeps a file location (GitHub needs one)")
        #expect(!String(decoding: try report.sarifData(), as: UTF8.self).contains("Assets/"))
        let invocation = try #require((run["invocations"] as? [[String: Any]])?.first)
        #expect(invocation["executionSuccessful"] as? Bool == true)
        let note = try #require((invocation["toolExecutionNotifications"] as? [[String: Any]])?.first)
        #expect(note["level"] as? String == "note")
        let text = try #require((note["message"] as? [String: Any])?["text"] as? String)
        #expect(text.hasPrefix("2 findings of the built-in preset swiftui-checkbox are not among the results"), "\(text)")
        // No built-in preset: no note.
        let plain = try #require((try JSONSerialization.jsonObject(with: SampleReport.make().sarifData()) as? [String: Any])?["runs"] as? [[String: Any]])
        #expect(plain.first?["invocations"] == nil)
    }

    @Test("which presets are built in: the built-in's path or `preset:`, not a spec of the same name elsewhere")
    func builtinDetection() {
        var r = builtinSample()
        #expect(r.isBuiltin("swiftui-checkbox"))
        r.presets[0].source = "preset:swiftui-checkbox"
        #expect(r.isBuiltin("swiftui-checkbox"))
        r.presets[0].source = "specs/swiftui-checkbox.json"
        #expect(!r.isBuiltin("swiftui-checkbox"))
        r.presets[1].source = Presets.path("beta")
        #expect(!r.isBuiltin("beta"), "beta is no built-in name")
    }
}

@Suite("GitHub annotations: at most 10 errors and 10 warnings, folded")
struct CIAnnotationTests {
    @Test("the sample: the snapshots in one line first, then a line per group; file= for files of the repository that exist")
    func sample() {
        let report = SampleReport.make()
        let lines = report.githubAnnotations(exists: { _ in true })
        #expect(lines == [
            "::error file=snapshots/alpha/square-md/AX5/default/checked@2x.png,title=glyphaudit snapshots%3A 2 of 3 failed::"
                + "1 changed, 1 new%0Aalpha/square-md/AX5/default/checked@2x: 3 px differ%0A… and 1 more in summary.md",
            "::error file=tokens/alpha.tokens.json,line=7,title=glyphaudit nontext-contrast%3A 1 error in alpha::"
                + "alpha/square-md/*/default/unchecked@2x: ring #C4C4C4 on #FFFFFF is 1.74:1, needs 3:1",
            "::error file=specs/beta.json,title=glyphaudit state-shape%3A 1 error in beta::beta/switch-md/L/default/on@2x: on and off differ only in colour",
            // The open warning, after the errors, as a ::warning (it fails nothing at --fail-on error).
            "::warning file=specs/alpha.json,line=20,title=glyphaudit state-shape%3A 1 warning in alpha::"
                + "alpha/square-md/AX5/default/checked@2x: the tick changes 2.0%25 of the boundary",
        ])
        // Files that are not there: no file= at all.
        let missing = report.githubAnnotations(exists: { _ in false })
        #expect(missing.count == 4 && missing.allSatisfy { $0.hasPrefix("::error title=") || $0.hasPrefix("::warning title=") }, "\(missing)")
        // The same lines whatever --fail-on says: annotations show every open error and warning.
        #expect(SampleReport.make(failOn: "warning").githubAnnotations(exists: { _ in true }) == lines)
        #expect(SampleReport.make(failOn: "never").githubAnnotations(exists: { _ in true }) == lines)
    }

    @Test("a built-in preset's findings never get file=, even where a file of that name exists")
    func builtin() {
        let lines = builtinSample().githubAnnotations(exists: { _ in true })
        let mine = lines.filter { $0.contains("in swiftui-checkbox::") && $0.hasPrefix("::error") }
        #expect(mine.count == 1)
        #expect(mine.allSatisfy { $0.hasPrefix("::error title=glyphaudit nontext-contrast%3A 1 error in swiftui-checkbox::") }, "\(mine)")
        #expect(lines.filter { $0.contains("in swiftui-checkbox::") }.allSatisfy { $0.hasPrefix("::error title=") || $0.hasPrefix("::warning title=") })
        #expect(!lines.joined().contains("Assets/"))
        #expect(lines.contains { $0.hasPrefix("::error file=specs/beta.json,title=glyphaudit state-shape") })
    }

    @Test("25 error and 15 warning groups: 10 lines each, the groups covering most variants first, the last line counting the rest")
    func limits() {
        var rules: [(id: String, severity: Severity, variants: [Int])] = []
        for i in 0..<25 { rules.append((String(format: "r%02d", i), .error, Array(0...i))) }
        for j in 0..<15 { rules.append((String(format: "w%02d", j), .warning, Array(0...j))) }
        var report = gridReport(variants: 30, failOn: "warning", rules: rules)
        report.snapshots = SnapshotSection(folder: "snapshots", results: [
            SnapshotRecord(id: "p/c-md/L/default/s0@2x", status: .mismatch, failed: true, baseline: "snapshots/p/c-md/L/default/s0@2x.png", message: "4 px differ"),
            SnapshotRecord(id: "p/c-md/L/default/s1@2x", status: .new, failed: true, baseline: "snapshots/p/c-md/L/default/s1@2x.png"),
            SnapshotRecord(id: "p/c-md/L/default/s2@2x", status: .match, failed: false, baseline: "snapshots/p/c-md/L/default/s2@2x.png"),
        ])
        let lines = report.githubAnnotations(exists: { _ in false })
        let errors = lines.filter { $0.hasPrefix("::error ") }, warnings = lines.filter { $0.hasPrefix("::warning ") }
        #expect(errors.count == 10 && warnings.count == 10 && lines.count == 20)
        #expect(lines.prefix(10).allSatisfy { $0.hasPrefix("::error ") }, "errors before warnings")
        #expect(errors[0].hasPrefix("::error title=glyphaudit snapshots%3A 2 of 3 failed::1 changed, 1 new%0A"))
        // r24 covers 25 variants, r23 24 …: eight groups, then the other 17 folded.
        for (k, line) in errors[1...8].enumerated() {
            let i = 24 - k
            #expect(line == "::error title=glyphaudit r\(i)%3A \(i + 1) errors in p::p/c-md/L/default/s0@2x: r\(i) fails in s0"
                    + "%0A… and \(i) more in summary.md (\(i + 1) variants in all)")
        }
        #expect(errors[9] == "::error title=glyphaudit%3A 17 more groups of errors::… and 17 more groups (153 findings) in summary.md: "
                + "r16 in p, r15 in p, r14 in p, r13 in p, r12 in p, …")
        #expect(warnings[0].hasPrefix("::warning title=glyphaudit w14%3A 15 warnings in p::"))
        #expect(warnings[9] == "::warning title=glyphaudit%3A 6 more groups of warnings::… and 6 more groups (21 findings) in summary.md: "
                + "w05 in p, w04 in p, w03 in p, w02 in p, w01 in p, …")
        #expect(lines.allSatisfy { !$0.contains("\n") && !$0.contains("\r") })
    }
}

@Suite("summary.md: a pull-request comment, whatever the size of the run")
struct CIMarkdownTests {
    @Test("the sample: counts, rules, groups with folded findings in code spans, snapshot changes")
    func sample() {
        let md = SampleReport.make().markdown()
        #expect(md.hasPrefix("## glyphaudit ❌ failed\n\n"))
        #expect(md.contains("| Variants | 6 |\n"))
        #expect(md.contains("| Findings | 2 errors, 1 warning, 1 info, 1 accepted |\n"))
        #expect(md.contains("| Snapshots | 1 match, 1 changed, 1 new, 1 stale |\n"))
        #expect(md.contains("| Fails on | `error` |\n"))
        #expect(md.contains("| `nontext-contrast` | 1.4.11 | 1 | 0 | 0 |\n"), "the accepted finding is not counted")
        #expect(md.contains("- ❌ **`nontext-contrast`** in `alpha`: 1 error in 2 variants\n"
                            + "  - `alpha/square-md/*/default/unchecked@2x`: ring `#C4C4C4` on `#FFFFFF` is 1.74:1, needs 3:1\n"))
        #expect(md.contains("- ❌ **`state-shape`** in `beta`: 1 error in 1 variant\n"
                            + "  - `beta/switch-md/L/default/on@2x`: on and off differ only in colour\n"))
        #expect(md.range(of: "in `alpha`: 1 error in 2 variants")!.lowerBound < md.range(of: "in `beta`: 1 error")!.lowerBound,
                "the group covering more variants first")
        #expect(!md.contains("off track"), "accepted: not failing")
        #expect(md.contains("### Snapshot changes\n\n- `alpha/square-md/AX5/default/checked@2x`: mismatch — 3 px differ\n"
                            + "- `beta/switch-md/L/default/off@2x`: new — no baseline\n"))
        #expect(!md.contains("\\`"))
        // At never nothing fails the run, snapshots neither; they are still listed.
        let never = SampleReport.make(failOn: "never").markdown()
        #expect(never.contains("✅ passed") && never.contains("### Snapshot changes\n\n- `alpha/square-md/AX5/default/checked@2x`: mismatch"))
    }

    @Test("a new snapshot's hint keeps its commands as code spans")
    func newSnapshotHint() throws {
        var report = SampleReport.make()
        let i = try #require(report.snapshots?.results.firstIndex { $0.status == .new })
        report.snapshots?.results[i].message = nil
        #expect(report.markdown().contains("- `beta/switch-md/L/default/off@2x`: new — no baseline yet (snapshots/beta/switch-md/L/default/off@2x.png); "
                                           + "if the render is right, record it with `glyphaudit check --record` (or `glyphaudit run --record`)\n"))
    }

    @Test("findings that differ only in Dynamic Type size and scale fold into one entry with `*`")
    func folding() {
        var r = gridReport(variants: 1, rules: [("state-shape", .error, [])])
        r.findings = ["L", "AX5"].flatMap { dt in [1, 2].map { scale in
            Finding(rule: "state-shape", severity: .error, criterion: nil, variant: "p/c-md/\(dt)/default/s0@\(scale)x", subject: "glyph",
                    message: "both states draw the same pixels")
        } }
        let md = r.markdown()
        #expect(md.contains("- ❌ **`state-shape`** in `p`: 4 errors in 1 variant\n"
                            + "  - `p/c-md/*/default/s0@*x`: both states draw the same pixels (4 findings at different Dynamic Type sizes or scales)\n"))
    }

    @Test("50,000 findings and 10,000 snapshot failures: under 65,536 characters, lists cut with counts, no escaped backtick")
    func huge() {
        var r = gridReport(variants: 8, components: ["a-md", "a-sm"], rules: (0..<8).map { (String(format: "rule-%d", $0), Severity.error, []) })
        r.presets += (1..<25).map { k in
            var p = r.presets[0]
            p.name = "p\(k)"
            return p
        }
        let hostile = "`code` and `` a`b `` and \\`x` and ![img](https://example.invalid/i.png) <img src=x> *bold* _it_ | "
            + "#E9E9EA on #FFFFFF and a lone ` \(String(repeating: "very ", count: 80))faint"
        r.findings = (0..<50_000).map { i in
            let preset = i % 25 == 0 ? "p" : "p\(i % 25)"
            return Finding(rule: "rule-\(i % 8)", severity: i % 7 == 0 ? .warning : .error, criterion: nil,
                           variant: "\(preset)/a-md/\(i % 2 == 0 ? "L" : "AX5")/default/s\(i % 8)@\(i % 3 + 1)x", subject: "part \(i)",
                           message: "part \(i): \(hostile)")
        }
        r.failOn = "warning"
        r.snapshots = SnapshotSection(folder: "snapshots", results: (0..<10_000).map { i in
            SnapshotRecord(id: "p/a-md/L/default/s\(i)@2x", status: i % 2 == 0 ? .mismatch : .new, failed: true, baseline: "b\(i).png",
                           message: i % 2 == 0 ? "\(i) px differ ![d](x.png) <b>" : nil, expected: "e\(i).png", actual: "a\(i).png", diff: "d\(i).png")
        })
        let md = r.markdown()
        #expect(md.utf8.count < RunReport.markdownLimit && md.utf16.count < RunReport.markdownLimit && md.count < 65_536,
                "\(md.utf8.count) bytes")
        #expect(md.utf8.count > 50_000, "the budget is used, not wasted: \(md.utf8.count)")
        #expect(!hasEscapedBacktick(md))
        #expect(!md.contains("!["), "no Markdown image")
        #expect(!md.contains("<img") && !md.contains("<b>"), "no HTML tag")
        #expect(md.contains("| Findings | 42857 errors, 7143 warnings, 0 info |"))
        #expect(md.contains("### Failing findings") && md.contains("### Snapshot changes"))
        #expect(md.contains(try! Regex(#"\n- … and \d+ more groups \(\d+ findings\): index.html and report.json list them all\n"#)))
        #expect(md.contains(try! Regex(#"\n- … and \d+ more: index.html shows them all\n"#)))
        let listedSnapshots = md.split(separator: "\n").filter { $0.hasPrefix("- `p/a-md/L/default/s") }.count
        #expect(listedSnapshots > 100, "the snapshots keep a share of the budget: \(listedSnapshots) listed")
        // The message's own code spans stay code spans, the lone backtick becomes one, colours are code.
        #expect(md.contains("`code` and ``a`b`` and \\\\`x` and !\\[img\\](https://example.invalid/i.png) &lt;img src=x> "
                            + "\\*bold\\* \\_it\\_ | `#E9E9EA` on `#FFFFFF` and a lone `` ` `` very"))
    }

    @Test("Markdown text: code spans fenced past the backticks inside, colours as code, only markup escaped")
    func text() {
        #expect(MarkdownText.code("beta/switch-md/L/default/off@2x") == "`beta/switch-md/L/default/off@2x`")
        #expect(MarkdownText.code("a`b") == "``a`b``")
        #expect(MarkdownText.code("`x") == "`` `x ``")
        #expect(MarkdownText.code("x\\") == "` x\\ `")
        #expect(MarkdownText.code("a\nb") == "`a b`")
        #expect(MarkdownText.cell("`a|b`") == "`a\\|b`")
        #expect(MarkdownText.prose("record it with `glyphaudit check --record`") == "record it with `glyphaudit check --record`")
        #expect(MarkdownText.prose("a ` b") == "a `` ` `` b")
        #expect(MarkdownText.prose("``x ` y``") == "``x ` y``")
        #expect(MarkdownText.prose("off #E9E9EA on #FFFFFF80") == "off `#E9E9EA` on `#FFFFFF80`")
        #expect(MarkdownText.prose("#12345 a#E9E9EA #E9E9EAZ") == "#12345 a#E9E9EA #E9E9EAZ")
        #expect(MarkdownText.prose("snake_case and _emph_ and *bold* ~x~") == "snake_case and \\_emph\\_ and \\*bold\\* \\~x\\~")
        #expect(MarkdownText.prose("C:\\dir") == "C:\\\\dir")
        #expect(MarkdownText.prose("&amp; & x &#65;") == "&amp;amp; & x &amp;#65;")
        #expect(MarkdownText.prose("hit area <44> & \"wide\" 'enough': 100% ![x](https://example.invalid/x.png) <img src=y> | a, b: c\nsecond line")
                == "hit area &lt;44> & \"wide\" 'enough': 100% !\\[x\\](https://example.invalid/x.png) &lt;img src=y> | a, b: c second line")
    }
}

@Suite("New snapshots: message and location")
struct CINewSnapshotTests {
    @Test("a new snapshot says what to do; its annotation points at the spec (its baseline does not exist), a mismatch at its baseline")
    func newSnapshot() throws {
        var report = SampleReport.make()
        let i = try #require(report.snapshots?.results.firstIndex { $0.status == .new })
        report.snapshots?.results[i].message = nil
        let hint = "if the render is right, record it with `glyphaudit check --record` (or `glyphaudit run --record`)"
        #expect(report.snapshotMessage(report.snapshots!.results[i]) == "no baseline yet (snapshots/beta/switch-md/L/default/off@2x.png); " + hint)
        #expect(report.snapshotFile(report.snapshots!.results[i]) == "specs/beta.json")
        // The new snapshot alone failing: its annotation names the spec.
        var onlyNew = report
        let m = try #require(onlyNew.snapshots?.results.firstIndex { $0.status == .mismatch })
        onlyNew.snapshots?.results[m].failed = false
        #expect(onlyNew.githubAnnotations(exists: { _ in true }).first == "::error file=specs/beta.json,title=glyphaudit snapshots%3A 1 of 3 failed::"
                + "1 new%0Abeta/switch-md/L/default/off@2x: no baseline yet (snapshots/beta/switch-md/L/default/off@2x.png); " + hint)
        // Of a built-in preset: no file (its spec is inside the tool); a changed baseline is the repository's, so it keeps its file.
        var builtin = builtinSample()
        let k = try #require(builtin.snapshots?.results.firstIndex { $0.status == .mismatch })
        builtin.snapshots?.results[k].status = .new
        builtin.snapshots?.results.removeAll { $0.id.preset == "beta" }
        #expect(builtin.githubAnnotations(exists: { _ in true }).first?.hasPrefix("::error title=glyphaudit snapshots") == true)
        #expect(builtinSample().githubAnnotations(exists: { _ in true }).first?
            .hasPrefix("::error file=snapshots/alpha/square-md/AX5/default/checked@2x.png,title=glyphaudit snapshots") == true)
        #if canImport(FoundationXML) || os(macOS)
        let c = try #require(try JUnitDocument(report.junitXML()).cases.first { $0.classname == "beta.snapshot" })
        #expect(c.failures.first?.stringValue == "new: beta/switch-md/L/default/off@2x: no baseline yet (snapshots/beta/switch-md/L/default/off@2x.png); " + hint)
        #endif
        // Recorded in this run: it passes and names the file it wrote.
        report.snapshots?.results[i].action = .recorded
        report.snapshots?.results[i].failed = false
        #expect(report.snapshotMessage(report.snapshots!.results[i]) == "no baseline; recorded as snapshots/beta/switch-md/L/default/off@2x.png")
        #expect(report.snapshotFile(report.snapshots!.results[i]) == "snapshots/beta/switch-md/L/default/off@2x.png")
    }
}
