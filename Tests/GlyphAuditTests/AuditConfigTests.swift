import Foundation
import Testing
@testable import GlyphAudit
@testable import GlyphCore
@testable import GlyphPipeline
@testable import GlyphRender
import GlyphTestSupport
import GlyphRenderTestSupport

// The engine with `.glyphaudit.json`: severities, thresholds, unknown keys, and accepted findings.

@Suite("Audit: engine and configuration")
struct AuditConfigTests {
    static func parse(_ text: String, file: String = "/x/.glyphaudit.json") throws(InputError) -> AuditConfig {
        let root: JSONNode
        do { root = try JSONReader.parse(Data(text.utf8)) } catch { throw InputError(file: file, message: error.message) }
        return try AuditConfig.parse(root, file: file)
    }

    @Test("a configuration sets severities and thresholds")
    func parses() throws {
        let c = try Self.parse("""
        { "version": 1,
          "rules": { "state-shape": { "severity": "warning", "minimumArea": 2 }, "image-aspect": "off", "target-size": { "minimum": 20 } },
          "accepted": [ { "rule": "clipping", "variant": "x/*", "reason": "known" } ] }
        """)
        #expect(c.rules["state-shape"] == RuleSetting(severity: .warning, values: ["minimumArea": 2]))
        #expect(c.rules["image-aspect"]?.severity == .off)
        let auditor = Auditor(config: c)
        #expect(auditor.options(for: StateShapeRule())["minimumArea"] == 2)
        #expect(auditor.options(for: StateShapeRule())["greyscaleRatio"] == 1.35)
        #expect(auditor.options(for: TargetSizeRule())["minimum"] == 20)
        #expect(c.accepted == [AcceptedFinding(rule: "clipping", variant: "x/*", reason: "known", file: "/x/.glyphaudit.json", line: 3)])
    }

    @Test("unknown keys, unknown rules, bad values and versions are errors naming the file and key path",
          arguments: [
              (#"{ "version": 1, "colour": true }"#, "colour", "unknown key \"colour\""),
              (#"{ "version": 1, "rules": { "state-shape": { "minShare": 0.1 } } }"#, "rules.state-shape.minShare", "unknown key \"minShare\""),
              (#"{ "version": 1, "rules": { "no-such-rule": "error" } }"#, "rules.no-such-rule", "unknown rule"),
              (#"{ "version": 1, "rules": { "state-shap": "error" } }"#, "rules.state-shap",
               "unknown rule \"state-shap\"; did you mean \"state-shape\"? rules: state-shape, "),
              (#"{ "version": 1, "rules": { "state-shape": { "minimumAera": 2 } } }"#, "rules.state-shape.minimumAera",
               "unknown key \"minimumAera\"; did you mean \"minimumArea\"? valid keys here: severity, minimumArea"),
              (#"{ "version": 1, "rules": { "state-shape": "warn" } }"#, "rules.state-shape", "unknown value \"warn\"; did you mean \"warning\"?"),
              (#"{ "version": 1, "rules": { "state-shape": "fatal" } }"#, "rules.state-shape", "unknown value \"fatal\""),
              (#"{ "version": 1, "rules": { "state-shape": { "minimumArea": 20000 } } }"#, "rules.state-shape.minimumArea", "out of range"),
              (#"{ "version": 2 }"#, "version", "version 1"),
              (#"{ "version": 1, "accepted": [ { "rule": "clipping", "variant": "a" } ] }"#, "accepted[0]", "missing required key \"reason\""),
              (#"{ "version": 1, "accepted": [ { "rule": "clipping", "variant": "a", "reason": " " } ] }"#, "accepted[0].reason", "give the reason"),
              (#"{ "version": 1, "accepted": [ { "rule": "clipping", "variant": "a", "reason": "r", "why": 1 } ] }"#, "accepted[0].why", "unknown key"),
              (#"{ "version": 1, "accepted": [ { "rule": "clipping", "variant": "a", "reason": "r", "severity": "fatal" } ] }"#,
               "accepted[0].severity", "unknown value \"fatal\""),
              (#"{ "version": 1, "accepted": [ { "rule": "clipping", "variant": "a", "reason": "r", "message": 3 } ] }"#,
               "accepted[0].message", "expected a string"),
          ])
    func errors(_ text: String, _ keyPath: String, _ message: String) {
        do {
            _ = try Self.parse(text)
            Issue.record("accepted: \(text)")
        } catch {
            #expect(error.file == "/x/.glyphaudit.json")
            #expect(error.keyPath == keyPath)
            #expect(error.message.contains(message), "\(error.message)")
            #expect(error.line != nil)
        }
    }

    static let undersized = """
    { "name": "ts", "control": "checkbox", "sizes": { "md": { "size": 16 } }, "hitArea": { "width": 20, "height": 20 },
      "states": ["unchecked", "checked"], "scales": [1], "dynamicTypeSizes": ["L"],
      "themes": { "default": { "surface": "#FFFFFF", "border": "#000000", "fill": "#000000", "mark": "#FFFFFF" } } }
    """

    @Test("a rule's configured severity replaces its failure level; off does not run it")
    func severities() throws {
        let s = try AuditScene(Self.undersized)
        let plain = Auditor().run(s.input)
        #expect(plain.findings.map(\.rule) == ["target-size"])
        #expect(plain.fails(at: .error))

        let warned = Auditor(config: try Self.parse(#"{ "version": 1, "rules": { "target-size": "warning" } }"#)).run(s.input)
        #expect(warned.findings.map(\.severity) == [.warning])
        #expect(!warned.fails(at: .error) && warned.fails(at: .warning) && !warned.fails(at: nil))

        let off = Auditor(config: try Self.parse(#"{ "version": 1, "rules": { "target-size": "off" } }"#)).run(s.input)
        #expect(off.findings.isEmpty)
        #expect(!off.rules.contains("target-size") && off.rules.count == Auditor.registry.count - 1)
    }

    @Test("an accepted finding is kept with its reason but does not fail the run; stale entries are listed")
    func baseline() throws {
        let s = try AuditScene(Self.undersized)
        let config = try Self.parse("""
        { "version": 1, "accepted": [
            { "rule": "target-size", "variant": "ts/*", "reason": "rows are 24 pt apart in the app" },
            { "rule": "clipping", "variant": "ts/*", "subject": "glyph", "reason": "was fixed" } ] }
        """)
        let result = Auditor(config: config).run(s.input)
        #expect(result.findings.count == 1)
        #expect(result.findings[0].accepted == "rows are 24 pt apart in the app")
        #expect(result.open.isEmpty && !result.fails(at: .warning))
        #expect(result.unusedAccepted.map(\.rule) == ["clipping"])
        let json = try #require(try JSONSerialization.jsonObject(with: result.jsonData()) as? [String: Any])
        let summary = try #require(json["summary"] as? [String: Any])
        #expect(summary["accepted"] as? Int == 1 && summary["error"] as? Int == 0)
    }

    @Test("a written baseline accepts exactly the open findings, keeps given reasons, and reads back")
    func writtenBaseline() throws {
        let s = try AuditScene(preset: "swiftui-switch", filter: ["scale=1"])
        let result = Auditor().run(s.input)
        let failing = result.findings.filter { $0.severity >= .warning }
        #expect(!failing.isEmpty)
        let kept = AcceptedFinding(rule: "nontext-contrast", variant: "swiftui-switch/*", subject: "off track", reason: "platform look")
        let data = AuditConfig.baselineData(for: result, previous: [kept])
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("baseline-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try data.write(to: file)
        let accepted = try AuditConfig.loadBaseline(contentsOf: file)
        #expect(accepted.count == failing.count)
        #expect(accepted.filter { $0.reason == "platform look" }.count == 2)  // default and inverse off track
        var config = AuditConfig()
        config.accepted = accepted
        let again = Auditor(config: config).run(s.input)
        #expect(again.open.allSatisfy { $0.severity == .info })
        #expect(again.unusedAccepted.isEmpty)
    }

    /// A ring of `colour` on white: one nontext-contrast error (the ring) when it is under 3:1.
    static func faintRing(_ colour: String) throws -> AuditScene {
        try AuditScene(SpecText.checkbox(states: ["unchecked"], appearance: ##"{ "unchecked": { "ring": true, "fill": false, "mark": "none" } }"##,
                                         theme: ##"{ "surface": "#FFFFFF", "border": "COLOUR" }"##.replacingOccurrences(of: "COLOUR", with: colour),
                                         scales: [2], sizes: ["L"]))
    }

    static func writeBaseline(_ result: AuditResult, previous: [AcceptedFinding] = []) throws -> (URL, [AcceptedFinding]) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("baseline-\(UUID().uuidString).json")
        try AuditConfig.baselineData(for: result, previous: previous).write(to: file)
        return (file, try AuditConfig.loadBaseline(contentsOf: file))
    }

    @Test("a written baseline records each finding's message and severity; a finding that got worse is no longer accepted")
    func worseFindingIsNew() throws {
        // #C7C7CC is 1.68:1 on white; #D1D1D6 is lighter, 1.52:1 — the same finding, worse.
        let before = try Self.faintRing("#C7C7CC"), after = try Self.faintRing("#D1D1D6")
        let first = Auditor().run(before.input)
        let ring = try #require(first.findings.first { $0.subject == "ring" })
        let (file, entries) = try Self.writeBaseline(first)
        defer { try? FileManager.default.removeItem(at: file) }
        let entry = try #require(entries.first { $0.subject == "ring" })
        #expect(entry.message == ring.message && entry.severity == .error)
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.contains("\"message\" : \"ring #C7C7CC on #FFFFFF is 1.68:1, needs 3:1\""))

        var config = AuditConfig()
        config.accepted = entries.map { var e = $0; e.reason = "known, DS-7"; return e }
        let same = Auditor(config: config).run(before.input)
        #expect(same.open.isEmpty && same.unusedAccepted.isEmpty && same.changedAccepted.isEmpty)

        let worse = Auditor(config: config).run(after.input)
        let open = try #require(worse.open.first { $0.subject == "ring" })
        #expect(open.message == "ring #D1D1D6 on #FFFFFF is 1.52:1, needs 3:1")
        #expect(worse.fails(at: .error))
        #expect(worse.changedAccepted.count == 1)
        #expect(worse.changedAccepted.first?.entry.message == ring.message)
        #expect(worse.changedAccepted.first?.now.message == open.message)
        // Without the recorded message the old entry would have accepted it.
        config.accepted = config.accepted.map { var e = $0; e.message = nil; e.severity = nil; return e }
        #expect(Auditor(config: config).run(after.input).open.isEmpty)
    }

    @Test("an entry that recorded a severity accepts nothing above it")
    func severityRecorded() throws {
        let s = try AuditScene(Self.undersized)
        let f = try #require(Auditor().run(s.input).findings.first)
        #expect(f.severity == .error)
        let asWarning = AcceptedFinding(rule: f.rule, variant: f.variant.description, subject: f.subject, reason: "r", message: f.message, severity: .warning)
        let asError = AcceptedFinding(rule: f.rule, variant: f.variant.description, subject: f.subject, reason: "r", message: f.message, severity: .error)
        #expect(!asWarning.matches(f) && asError.matches(f))
        let result = Auditor(config: AuditConfig(accepted: [asWarning])).run(s.input)
        #expect(result.open.count == 1 && result.changedAccepted.count == 1)
    }

    @Test("while accepted findings keep the written TODO reason, the audit says how many and where")
    func placeholderReasons() throws {
        let s = try Self.faintRing("#C7C7CC")
        let (file, entries) = try Self.writeBaseline(Auditor().run(s.input))
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(!entries.isEmpty && entries.allSatisfy(\.hasPlaceholderReason))
        #expect(entries.allSatisfy { $0.reason.hasPrefix("TODO: say why this error is accepted (") })
        let result = Auditor(config: AuditConfig(accepted: entries)).run(s.input)
        #expect(result.open.isEmpty)  // still accepted: a placeholder passes validation …
        #expect(result.placeholderReasons.count == 1)
        #expect(result.placeholderReasons.first?.file == file.path)
        #expect(result.placeholderReasons.first?.entries == entries.count)
        // … but is reported, once per file, with the count and the file.
        #expect(result.placeholderWarnings == [
            "warning: \(entries.count == 1 ? "1 accepted finding keeps" : "\(entries.count) accepted findings keep") the placeholder "
                + "reason \"TODO: …\" in \(file.path); replace it with the real reason each is accepted",
        ])
        let real = entries.map { var e = $0; e.reason = "known, DS-7"; return e }
        let fixed = Auditor(config: AuditConfig(accepted: real)).run(s.input)
        #expect(fixed.placeholderReasons.isEmpty && fixed.placeholderWarnings.isEmpty)
        // Rewriting keeps the real reasons; a placeholder that accepts nothing is not reported.
        let (again, rewritten) = try Self.writeBaseline(fixed, previous: real)
        defer { try? FileManager.default.removeItem(at: again) }
        #expect(rewritten.allSatisfy { $0.reason == "known, DS-7" })
        let stale = AcceptedFinding(rule: "clipping", variant: "t/*", reason: "TODO: say why", file: "x.json")
        #expect(Auditor(config: AuditConfig(accepted: real + [stale])).run(s.input).placeholderReasons.isEmpty)
    }

    @Test("rewriting a baseline after a finding changed asks for a new reason and names the old one")
    func rewriteChanged() throws {
        let before = Auditor().run(try Self.faintRing("#C7C7CC").input)
        let (file, entries) = try Self.writeBaseline(before)
        defer { try? FileManager.default.removeItem(at: file) }
        let real = entries.map { var e = $0; e.reason = "known, DS-7"; return e }
        let worse = Auditor(config: AuditConfig(accepted: real)).run(try Self.faintRing("#D1D1D6").input)
        let (again, rewritten) = try Self.writeBaseline(worse, previous: real)
        defer { try? FileManager.default.removeItem(at: again) }
        let ring = try #require(rewritten.first { $0.subject == "ring" })
        #expect(ring.hasPlaceholderReason)
        #expect(ring.reason.hasSuffix("; it changed since it was accepted as \"known, DS-7\""))
        #expect(ring.message == "ring #D1D1D6 on #FFFFFF is 1.52:1, needs 3:1")
    }

    @Test("variant patterns: * matches any run of characters")
    func glob() {
        #expect(AcceptedFinding.glob("a/*/c", "a/b/x/c"))
        #expect(AcceptedFinding.glob("rvs-checkbox/*/mixed@*x", "rvs-checkbox/square-md/AX5/default/mixed@3x"))
        #expect(!AcceptedFinding.glob("rvs-checkbox/*/mixed@*x", "rvs-checkbox/square-md/AX5/default/checked@3x"))
        #expect(AcceptedFinding.glob("*", "anything"))
        #expect(!AcceptedFinding.glob("a*b", "a-c"))
    }

    @Test("findings come grouped by preset, then rule; every rule is registered once")
    func order() throws {
        #expect(Auditor.registry.map(\.id) == ["state-shape", "nontext-contrast", "text-contrast", "clipping",
                                               "dynamic-type-scaling", "target-size", "image-aspect", "focus-indicator", "setting-regression"])
        let specs = try ["swiftui-switch", "design-system-checkbox"].map { try Presets.load($0) }
        var filter = VariantFilter()
        try filter.add("dynamic-type=L,AX5")
        try filter.add("scale=1")
        let plan = try Plan(specs: specs, filter: filter)
        let result = Auditor().run(plan: plan, rasters: plan.renderAll(jobs: 2), jobs: 2)
        let presets = ["swiftui-switch", "design-system-checkbox"]
        let ruleIDs = Auditor.registry.map(\.id)
        var keys: [Int] = []
        for f in result.findings {
            let p = try #require(presets.firstIndex(of: f.preset))
            let r = try #require(ruleIDs.firstIndex(of: f.rule))
            keys.append(p * 10 + r)
        }
        #expect(Set(keys.map { $0 / 10 }) == [0, 1])
        #expect(keys == keys.sorted())
        for rule in Auditor.registry {
            #expect(!rule.checks.isEmpty && !rule.fix.isEmpty && !rule.threshold(rule.defaultOptions).isEmpty)
        }
    }
}
