import Foundation
import Testing
@testable import GlyphAudit
@testable import GlyphCore
@testable import GlyphPipeline
@testable import GlyphReport
@testable import GlyphRender
import GlyphTestSupport

/// Display settings in the reports (issue 21 item 5), from a real run: a switch whose Increase
/// Contrast theme lightens the off track from #767676 (4.54:1 on white) to #8E8E93 (3.26:1), so the
/// setting-regression rule finds two errors under Increase Contrast (the off track on the surface
/// and the knob on the off track), and a Bold Text setting that changes no colour.
@Suite("Reports: display settings")
struct SettingsReportTests {
    static func spec(_ settings: String) -> String {
        """
        {"name": "sw", "control": "switch",
         "sizes": {"md": {"trackWidth": 51, "trackHeight": 31, "knobDiameter": 27, "knobInset": 2}},
         "hitArea": {"width": 51, "height": 44},
         "label": {"text": "Wi-Fi", "textStyle": "body", "spacing": 8, "position": "leading"},
         "states": ["off", "on"],
         "themes": {"default": {"surface": "#FFFFFF", "trackOff": "#767676", "trackOn": "#248A3D", "knob": "#FFFFFF", "label": "#000000"}}\(settings)}
        """
    }

    static let withSettings = spec(##", "settings": {"increaseContrast": {"themes": {"default": {"trackOff": "#8E8E93"}}}, "boldText": {}}"##)

    /// The report of a run of `json` at L and @2x (all formats are made from it).
    static func report(_ json: String) throws -> RunReport {
        let folder = TempFolder()
        let spec = try Spec.load(contentsOf: folder.write("spec.json", json))
        var filter = VariantFilter()
        try filter.add("scale=2")
        try filter.add("dynamic-type=L")
        let plan = try Plan(specs: [spec], filter: filter)
        let auditor = Auditor()
        let done = try Pipeline.run(plan, PipelineOptions(jobs: 1, auditor: auditor))
        var variants = done.variants
        for i in variants.indices { variants[i].image = "images/\(i).png" }
        var r = RunReport(tool: "glyphaudit test", failOn: "error", selected: plan.selected,
                          presets: RunReport.presetRecords(plan, base: folder.url), variants: variants,
                          findings: done.audit!.findings, snapshots: nil, rules: auditor.rules.map { RuleRecord($0) })
        r.canonicalize()
        return r
    }

    static func json(_ r: RunReport) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: r.jsonData()) as? [String: Any])
    }

    @Test("report.json: each setting variant's record and each finding under a setting carry `setting`; the default rendering's do not")
    func reportJSON() throws {
        let r = try Self.report(Self.withSettings)
        let json = try Self.json(r)
        let variants = try #require(json["variants"] as? [[String: Any]])
        // off and on, each by default, under Increase Contrast and under Bold Text.
        #expect(variants.map { $0["id"] as? String } == [
            "sw/switch-md/L/default/off@2x", "sw/switch-md/L/default/on@2x",
            "sw/switch-md/L/default+increaseContrast/off@2x", "sw/switch-md/L/default+increaseContrast/on@2x",
            "sw/switch-md/L/default+boldText/off@2x", "sw/switch-md/L/default+boldText/on@2x",
        ])
        #expect(variants.map { $0["setting"] as? String } == [nil, nil, "increaseContrast", "increaseContrast", "boldText", "boldText"])
        #expect(variants.allSatisfy { $0["focused"] == nil && $0["theme"] as? String == "default" })
        let findings = try #require(json["findings"] as? [[String: Any]])
        let regressions = findings.filter { $0["rule"] as? String == "setting-regression" }
        #expect(regressions.compactMap { $0["subject"] as? String }.sorted() == ["knob on off track", "off track"])
        #expect(regressions.allSatisfy { $0["setting"] as? String == "increaseContrast" && $0["focused"] == nil })
        // Read back (merge-reports), the records are what was written and are written again the same.
        let back = try RunReport.decode(r.jsonData(), file: "report.json")
        #expect(back.variants == r.variants)
        #expect(back.variants.map(\.setting) == [nil, nil, .increaseContrast, .increaseContrast, .boldText, .boldText])
        #expect(try back.jsonData() == r.jsonData())
    }

    @Test("SARIF properties.setting, JUnit cases per setting, summary.md's table by setting, annotations")
    func ciFormats() throws {
        let r = try Self.report(Self.withSettings)
        let sarif = try #require(try JSONSerialization.jsonObject(with: r.sarifData()) as? [String: Any])
        let results = try #require(((sarif["runs"] as? [[String: Any]])?.first?["results"]) as? [[String: Any]])
        let props = results.filter { $0["ruleId"] as? String == "setting-regression" }.compactMap { $0["properties"] as? [String: Any] }
        #expect(props.count == 2)
        #expect(props.allSatisfy { $0["setting"] as? String == "increaseContrast" && $0["focused"] == nil })

        let junit = r.junitXML()
        #expect(junit.contains(#"<testcase classname="sw.setting-regression" name="switch-md under Increase Contrast" "#))
        #expect(junit.contains(#"<testcase classname="sw.setting-regression" name="switch-md under Bold Text" "#))
        #expect(junit.contains(#"<testcase classname="sw.setting-regression" name="switch-md" "#))
        #expect(junit.contains("[error] sw/switch-md/L/default+increaseContrast/off@2x [under Increase Contrast] (off track): under Increase Contrast, off track #8E8E93"))

        let md = r.markdown()
        #expect(md.contains("### Findings by display setting\n\n| setting | errors | warnings | info |\n|---|---:|---:|---:|\n| none (default) | 0 | "))
        #expect(md.contains("| Increase Contrast (`increaseContrast`) | 2 | "))
        #expect(md.contains("  - `sw/switch-md/L/default+increaseContrast/off@2x` (under Increase Contrast): "))
        let annotations = r.githubAnnotations(exists: { _ in false })
        #expect(annotations.contains { $0.hasPrefix("::error title=glyphaudit setting-regression%3A 2 errors in sw::sw/switch-md/L/default+increaseContrast/off@2x (under Increase Contrast): ") })
    }

    @Test("HTML: the settings column, the Display setting filter, one sheet group per setting under its name")
    func html() throws {
        let html = try Self.report(Self.withSettings).html()
        #expect(html.contains(#"<th scope="col">Preset</th><th scope="col">Display settings</th>"#))
        #expect(html.contains(##"<a href="#sheets-sw-increaseContrast">Increase Contrast</a> <span class="muted">2 / 0 / "##))
        #expect(html.contains(#"<select data-filter="setting"><option value="">All</option><option value="none">none (default)</option>"#
                              + #"<option value="increaseContrast">Increase Contrast</option><option value="boldText">Bold Text</option></select>"#))
        #expect(!html.contains(#"data-filter="focus""#))
        #expect(html.contains(#"<div class="setting-group" data-setting="boldText"><h4 id="sheets-sw-boldText">Bold Text "#))
        #expect(html.contains(#"<div class="setting-group" data-setting="none"><h4 id="sheets-sw-none">Default "#))
        #expect(html.contains(#"aria-label="sw switch-md contact sheet under Bold Text""#))
        // The setting findings' cards say it, and the filter reads it.
        #expect(html.contains(#"data-setting="increaseContrast">\#n<p class="head"><span class="badge error">Error</span>"#))
        #expect(html.contains(#"<span class="muted subject">off track</span> <span class="badge axes">under Increase Contrast</span></p>"#))
        #expect(html.contains("setting:val('setting')"))
    }

    @Test("without settings: no setting key in report.json or SARIF, no settings column, filter or group in the HTML")
    func withoutSettings() throws {
        let r = try Self.report(Self.spec(""))
        let text = String(decoding: try r.jsonData(), as: UTF8.self)
        #expect(!text.contains("\"setting\"") && !text.contains("\"focused\""))
        #expect(!String(decoding: try r.sarifData(), as: UTF8.self).contains("\"setting\""))
        let html = r.html()
        for absent in ["Display settings", "data-setting", "data-focus", "setting-group", "val('setting')", "axes"] {
            #expect(!html.contains(absent), "\(absent)")
        }
        #expect(!r.markdown().contains("display setting"))
        #expect(r.junitXML().contains(#"name="switch-md" "#) && !r.junitXML().contains(" under "))
    }
}
