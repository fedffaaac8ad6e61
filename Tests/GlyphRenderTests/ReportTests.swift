import Foundation
import Testing
@testable import GlyphRender

@Suite("Report model and writers")
struct ReportTests {
    @Test("variant patterns: * stands for any value of a part, @*x for any scale")
    func patterns() {
        let id = "swiftui-switch/switch-md/AX5/default/off@2x"
        #expect(VariantPattern.matches(id, id))
        #expect(VariantPattern.matches("swiftui-switch/switch-md/*/default/off@*x", id))
        #expect(VariantPattern.matches("swiftui-switch/*/*/*/*@*x", id))
        #expect(!VariantPattern.matches("swiftui-switch/switch-md/*/inverse/off@*x", id))
        #expect(!VariantPattern.matches("swiftui-switch/switch-md/*/default/off@3x", id))
        #expect(!VariantPattern.matches("other/switch-md/*/default/off@*x", id))
    }
}
