import Foundation
import Testing
@testable import GlyphAudit
@testable import GlyphCore
@testable import GlyphReport

/// A theme's declared appearance in the reports: the contact sheet's column, report.json's preset,
/// SARIF's result properties, JUnit's finding lines; nothing of it when no theme declares one.
@Suite("Reports: a theme's appearance")
struct AppearanceReportTests {
    func report(appearances: [String: String]?) -> RunReport {
        var r = gridReport(variants: 2, rules: [(id: "nontext-contrast", severity: .error, variants: [0])])
        r.presets[0].appearances = appearances
        // The contact sheet shows variants that have a render.
        for i in r.variants.indices { r.variants[i].image = "renders/\(i).png" }
        return r
    }

    @Test("declared: HTML column, report.json, SARIF properties.appearance and JUnit lines say it")
    func declared() throws {
        let r = report(appearances: ["default": "dark-high-contrast"])
        let html = r.html()
        #expect(html.contains(#"data-theme="default">default<br><span class="muted">dark-high-contrast</span><br>"#))
        let json = String(decoding: try JSONEncoder().encode(r.presets[0]), as: UTF8.self)
        #expect(json.contains(#""appearances":{"default":"dark-high-contrast"}"#), "\(json)")
        let sarif = String(decoding: try r.sarifData(), as: UTF8.self)
        #expect(sarif.contains(#""appearance" : "dark-high-contrast""#), "\(sarif)")
        #expect(r.junitXML().contains("p/c-md/L/default/s0@2x [dark-high-contrast appearance] (part)"))
    }

    @Test("undeclared: none of it")
    func undeclared() throws {
        let r = report(appearances: nil)
        #expect(!r.html().contains("high-contrast"))
        let json = String(decoding: try JSONEncoder().encode(r.presets[0]), as: UTF8.self)
        #expect(!json.contains("appearances"))
        #expect(!String(decoding: try r.sarifData(), as: UTF8.self).contains("\"appearance\""))
        #expect(r.junitXML().contains("p/c-md/L/default/s0@2x (part)"))
    }
}

/// Focus and display settings as the reports read them from a variant id (issue 21 item 5).
@Suite("Reports: a variant's setting and focus")
struct FocusReportTests {
    @Test("the id's parts: `+setting` after the theme, `+focused` after the state")
    func idParts() {
        let id: VariantID = "p/c-md/AX5/dark+increaseContrast/on+focused@3x"
        #expect(id.setting == .increaseContrast && id.baseTheme == "dark" && id.focused)
        #expect(id.axesLabel == "under Increase Contrast, focused")
        let plain: VariantID = "p/c-md/AX5/dark/on@3x"
        #expect(plain.setting == nil && plain.baseTheme == "dark" && !plain.focused && plain.axesLabel == nil)
        // A theme with `+` that is not a setting stays whole.
        let odd: VariantID = "p/c-md/AX5/a+b/on@3x"
        #expect(odd.setting == nil && odd.baseTheme == "a+b")
        let any: VariantID = "p/*/*/*/*@*x"
        #expect(any.settingFilterValue == "*" && any.focusFilterValue == "*")
    }

    /// One unfocused and one focused variant, a focus-indicator error on the focused one.
    func report() -> RunReport {
        var r = gridReport(variants: 1, rules: [])
        r.variants.append(VariantRecord(index: 1, id: "p/c-md/L/default/s0+focused@2x", preset: "p", component: "c-md", dynamicType: "L",
                                        theme: "default", state: "s0", scale: 2, width: 40, height: 28))
        for i in r.variants.indices { r.variants[i].image = "renders/\(i).png" }
        r.rules.append(RuleRecord(id: "focus-indicator", title: "Focus", criterion: "1.4.11", severity: .error, summary: "s", fix: "f"))
        r.findings = [Finding(rule: "focus-indicator", severity: .error, criterion: "1.4.11", variant: "p/c-md/L/default/s0+focused@2x",
                              subject: "focus ring contrast", message: "focus ring #CCCCCC is 1.60:1")]
        return r
    }

    @Test("a focused variant: focused in report.json and SARIF, a focused column and the Focus filter in the HTML, JUnit says it")
    func focused() throws {
        let r = report()
        let json = try #require(try JSONSerialization.jsonObject(with: r.jsonData()) as? [String: Any])
        let variants = try #require(json["variants"] as? [[String: Any]])
        #expect(variants.map { $0["focused"] as? Bool } == [nil, true])
        #expect(variants.allSatisfy { $0["setting"] == nil })
        let finding = try #require((json["findings"] as? [[String: Any]])?.first)
        #expect(finding["focused"] as? Bool == true && finding["setting"] == nil)
        let sarif = String(decoding: try r.sarifData(), as: UTF8.self)
        #expect(sarif.contains(#""focused" : true"#) && !sarif.contains(#""setting""#))
        let html = r.html()
        #expect(html.contains(#"<th scope="col" data-theme="default" data-focus="focused">default<br><span class="muted">s0 · focused</span></th>"#))
        #expect(html.contains(#"<select data-filter="focus"><option value="">All</option><option value="focused">focused</option><option value="unfocused">unfocused</option></select>"#))
        #expect(!html.contains(#"data-filter="setting""#) && !html.contains(#"<div class="setting-group""#))
        #expect(html.contains(#"<span class="badge axes">focused</span>"#))
        #expect(html.contains(#"<th scope="col">Preset</th><th scope="col">Focus</th>"#))
        #expect(html.contains(#"<td>focused variants</td>"#))
        #expect(r.junitXML().contains("[error] p/c-md/L/default/s0+focused@2x [focused] (focus ring contrast): focus ring #CCCCCC is 1.60:1"))
    }
}
