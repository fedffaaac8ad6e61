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
