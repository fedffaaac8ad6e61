import Foundation
import Testing
@testable import GlyphAudit
@testable import GlyphCore
@testable import GlyphReport

@Suite("Report model and writers")
struct ReportTests {
    @Test("HTML: text interpolated into markup is escaped, markup values are not, numbers and raw values are written as they are")
    func htmlEscaping() {
        let hostile = "<script>alert(\"x\")</script> & 'q'"
        let inner: HTML = "<b>\(hostile)</b>"
        let page: HTML = "<p title=\"\(hostile)\">\(inner) \(42) \(Severity.warning)</p>"
        #expect(page.text == "<p title=\"&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; 'q'\">"
                + "<b>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; 'q'</b> 42 warning</p>")
        var h = HTMLBuilder()
        h.select("rule", "Rule \"x\"", ["<a>"])
        #expect(h.text == "<label>Rule &quot;x&quot; <select data-filter=\"rule\"><option value=\"\">All</option><option>&lt;a&gt;</option></select></label>\n")
    }

    @Test("variant ids: read into their parts and written back; * stands for any value of a part, @*x for any scale")
    func patterns() throws {
        let id = VariantID(parsing: "swiftui-switch/switch-md/AX5/default/off@2x")
        #expect(id == VariantID(preset: "swiftui-switch", component: "switch-md", dynamicType: "AX5", theme: "default",
                                state: "off", scale: "2"))
        #expect(id.isComplete && id.description == "swiftui-switch/switch-md/AX5/default/off@2x")
        func covers(_ pattern: String) -> Bool { VariantID(parsing: pattern).covers(id) }
        #expect(covers("swiftui-switch/switch-md/AX5/default/off@2x"))
        #expect(covers("swiftui-switch/switch-md/*/default/off@*x"))
        #expect(covers("swiftui-switch/*/*/*/*@*x"))
        #expect(!covers("swiftui-switch/switch-md/*/inverse/off@*x"))
        #expect(!covers("swiftui-switch/switch-md/*/default/off@3x"))
        #expect(!covers("other/switch-md/*/default/off@*x"))
        #expect(VariantID(parsing: "swiftui-switch/switch-md/*/default/off@3x").covers(id, anyScale: true))
        // Fewer parts than six: read as far as they go, and it covers nothing.
        let short = VariantID(parsing: "stale/file")
        #expect(!short.isComplete && short.preset == "stale" && short.component == "file" && short.theme.isEmpty)
        #expect(!VariantID(parsing: "swiftui-switch/*/*").covers(id))
        // Text the parts would not spell again (a stale baseline's path without `x`) is written back as read.
        let odd = VariantID(parsing: "stale/file/L/default/off@2")
        #expect(odd.isComplete && odd.scale == "2" && odd.description == "stale/file/L/default/off@2")
        // Encoded as its text and read back the same (report.json, check --json).
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        for text in ["swiftui-switch/switch-md/AX5/default/off@2x", "stale/file", "stale/file/L/default/off@2"] {
            let data = try encoder.encode([VariantID(parsing: text)])
            #expect(String(decoding: data, as: UTF8.self) == "[\"\(text)\"]")
            #expect(try JSONDecoder().decode([VariantID].self, from: data) == [VariantID(parsing: text)])
        }
        #expect(VariantID.group([id, VariantID(parsing: "swiftui-switch/switch-md/L/default/on@3x")])?.description
                == "swiftui-switch/switch-md/*/default/*@*x")
    }
}
