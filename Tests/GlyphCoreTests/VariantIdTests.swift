import Testing
@testable import GlyphCore

// A variant's id (docs/spec-format.md): preset/component/Dynamic Type/theme[+setting]/state[+focused]@Nx,
// the component `shape-size` for a checkbox or radio and `switch-size` for a switch.
@Suite("Variant ids")
struct VariantIdTests {
    @Test("ids as the format spells them, with a display setting and focus")
    func ids() {
        var v = Variant(preset: "design-system-checkbox", control: .checkbox, shape: .square, size: "md", dynamicType: .accessibility5,
                        theme: "inverse", state: .checked, scale: 3)
        #expect(v.id == "design-system-checkbox/square-md/AX5/inverse/checked@3x")
        v.setting = .boldText
        v.focused = true
        #expect(v.id == "design-system-checkbox/square-md/AX5/inverse+boldText/checked+focused@3x")
        let s = Variant(preset: "swiftui-switch", control: .switch, shape: .square, size: "sm", dynamicType: .xSmall,
                        theme: "default", state: .unchecked, scale: 1)
        #expect(s.id == "swiftui-switch/switch-sm/xS/default/unchecked@1x")
        #expect(s.fileName("png") == "swiftui-switch/switch-sm/xS/default/unchecked@1x.png")
    }

    @Test("Dynamic Type sizes in order, with their short names")
    func sizes() {
        #expect(DynamicTypeSize.allCases.map(\.short) == ["xS", "S", "M", "L", "xL", "xxL", "xxxL", "AX1", "AX2", "AX3", "AX4", "AX5"])
        #expect(DynamicTypeSize.allCases.enumerated().allSatisfy { $0.offset == $0.element.index })
        #expect(DynamicTypeSize.allCases.filter(\.isAccessibilitySize).map(\.short) == ["AX1", "AX2", "AX3", "AX4", "AX5"])
    }
}
