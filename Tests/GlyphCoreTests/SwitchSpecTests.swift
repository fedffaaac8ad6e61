import Foundation
import Testing
@testable import GlyphColor
@testable import GlyphCore
import GlyphTestSupport
import GlyphRenderTestSupport

/// Loading a switch as designed: per-state knob, inset and track border, a knob border, track and
/// knob marks, On/Off Labels — and the bad input each of them may be.
@Suite("Switch spec: knobs per state, knob borders, marks, On/Off Labels")
struct SwitchSpecTests {
    /// A switch with `size` as its size's members and `extra` top-level keys.
    static func spec(size: String = ##""knobDiameter": {"off": 16, "on": 24}, "knobInset": {"off": 8, "on": 4}, "borderWidth": {"off": 2, "on": 0}"##,
                     extra: String = "", theme: String = ##""border": "#79747E""##) -> String {
        """
        {"name": "sw", "control": "switch",
         "sizes": {"md": {"trackWidth": 52, "trackHeight": 32, \(size)}},
         "states": ["off", "on"]\(extra),
         "themes": {"default": {"surface": "#FEF7FF", "trackOff": "#E6E0E9", "trackOn": "#6750A4", "knob": "#79747E", \(theme),
                                "states": {"on": {"knob": "#FFFFFF"}}}}}
        """
    }

    func failure(_ json: String) -> InputError? {
        if case let .failure(e) = loadSpec(json) { return e }
        return nil
    }

    @Test("Material 3's handle: 16 pt at inset 8 off, 24 pt at inset 4 on; its outline 2 pt off and none on")
    func perState() throws {
        let spec = try loadSpec(Self.spec()).get()
        let md = try #require(spec.sizes.first)
        #expect(md.knobDiameter(.off) == 16 && md.knobDiameter(.on) == 24)
        #expect(md.knobInset(.off) == 8 && md.knobInset(.on) == 4)
        #expect(md.borderWidth(.off) == 2 && md.borderWidth(.on) == 0)
        #expect(md.knobBorderWidth(.off) == 0 && md.knobBorderWidth(.on) == 0)
        // Without a diameter, the knob fills the track's height less its inset, per state.
        let derived = try loadSpec(Self.spec(size: ##""knobInset": {"off": 8, "on": 4}"##, theme: ##""mark": "#000000""##)).get()
        #expect(derived.sizes[0].knobDiameter(.off) == 16 && derived.sizes[0].knobDiameter(.on) == 24)
        // One length is both states, as before; a DTCG dimension object is still a length.
        let one = try loadSpec(Self.spec(size: ##""knobDiameter": {"value": 24, "unit": "px"}, "knobInset": 4, "knobBorderWidth": 1"##,
                                         theme: ##""knobBorder": "#767676""##)).get()
        #expect(one.sizes[0].knobDiameter(.off) == 24 && one.sizes[0].knobDiameter(.on) == 24)
        #expect(one.sizes[0].knobBorderWidth(.on) == 1)
    }

    @Test("Switch marks: trackMark and knobMark per state in the mark grammar; On/Off Labels with iOS's default colours")
    func marks() throws {
        let spec = try loadSpec(Self.spec(extra: ##", "onOffLabels": true, "appearance": {"on": {"knobMark": "check", "trackMark": [{"kind": "dot", "size": "25%", "color": "knob"}]}, "off": {"knobMark": {"kind": "path", "d": "M0 0L10 10", "viewBox": "0 0 10 10", "stroke": 2}}}"##,
                                          theme: ##""border": "#79747E", "mark": "#21005D""##)).get()
        #expect(spec.onOffLabels)
        #expect(spec.switchMarks[.on]?.knob == [MarkSpec(kind: .check)])
        #expect(spec.switchMarks[.on]?.track == [MarkSpec(kind: .dot, role: .knob, size: .fraction(0.25))])
        #expect(spec.switchMarks[.off]?.knob.first?.kind == .path && spec.switchMarks[.off]?.track == [])
        // iOS's label colours where the theme gives none, located at the onOffLabels key.
        let theme = try #require(spec.themes.first)
        #expect(theme.colors[.onLabel]?.rgba.hex == "#FFFFFF" && theme.colors[.offLabel]?.rgba.hex == "#B3B3B3")
        #expect(theme.colors[.offLabel]?.keyPath == "onOffLabels" && theme.colors[.offLabel]?.line == 3)
        let own = try loadSpec(Self.spec(extra: ##", "onOffLabels": true"##, theme: ##""border": "#000000", "offLabel": "#6E6E73""##)).get()
        #expect(own.themes[0].colors[.offLabel]?.rgba.hex == "#6E6E73")
    }

    @Test("Bad switch input is refused at its key, with its line", arguments: [
        // An unknown colour role in a mark.
        (SwitchSpecTests.spec(extra: ##", "appearance": {"on": {"knobMark": {"kind": "check", "color": "handle"}}}"##),
         "appearance.on.knobMark.color", "unknown value \"handle\"", 3),
        // A per-state length without one of its states.
        (SwitchSpecTests.spec(size: ##""knobDiameter": {"off": 16}"##), "sizes.md.knobDiameter", "missing required key \"on\"", 2),
        (SwitchSpecTests.spec(size: ##""knobDiameter": {"off": 16, "on": 24, "pressed": 28}"##), "sizes.md.knobDiameter.pressed", "unknown key \"pressed\"", 2),
        // Negative.
        (SwitchSpecTests.spec(size: ##""knobInset": {"off": -2, "on": 4}"##), "sizes.md.knobInset.off", "", 2),
        (SwitchSpecTests.spec(size: ##""knobBorderWidth": -1"##), "sizes.md.knobBorderWidth", "", 2),
        // A knob longer than the track leaves room for (24 + 2 × 16 > 52).
        (SwitchSpecTests.spec(size: ##""knobDiameter": {"off": 16, "on": 24}, "knobInset": {"off": 8, "on": 16}"##), "sizes.md.knobDiameter.on",
         "the knob (24 pt with 16 pt inset, on) is longer than the 52 × 32 pt track leaves room for", 2),
        (SwitchSpecTests.spec(size: ##""borderWidth": {"off": 2, "on": 17}"##), "sizes.md.borderWidth.on", "fills the whole 32 pt track", 2),
        (SwitchSpecTests.spec(size: ##""knobBorderWidth": {"off": 0, "on": 15}"##, theme: ##""knobBorder": "#000000""##), "sizes.md.knobBorderWidth.on",
         "fills the whole 28 pt knob", 2),
        // A knob border needs its colour in every theme.
        (SwitchSpecTests.spec(size: ##""knobBorderWidth": {"off": 1, "on": 0}"##), "themes.default",
         "missing colour \"knobBorder\" (sizes.md.knobBorderWidth is 1 pt: the knob has a ring in that colour)", 4),
        // A mark's colour role must be in the theme.
        (SwitchSpecTests.spec(extra: ##", "appearance": {"on": {"trackMark": "check"}}"##), "themes.default", "missing colour \"mark\"", 4),
        // Unknown keys and states in a switch's appearance; a checkbox's appearance keys are not a switch's.
        (SwitchSpecTests.spec(extra: ##", "appearance": {"on": {"thumbMark": "check"}}"##), "appearance.on.thumbMark", "unknown key \"thumbMark\"", 3),
        (SwitchSpecTests.spec(extra: ##", "appearance": {"on": {"mark": "check"}}"##), "appearance.on.mark", "unknown key \"mark\"", 3),
        (SwitchSpecTests.spec(extra: ##", "appearance": {"checked": {"knobMark": "check"}}"##), "appearance.checked", "unknown state \"checked\"", 3),
        (SwitchSpecTests.spec(extra: ##", "appearance": {"on": {"knobMark": "star"}}"##), "appearance.on.knobMark", "unknown value \"star\"", 3),
        (SwitchSpecTests.spec(extra: ##", "onOffLabels": "yes""##), "onOffLabels", "", 3),
    ])
    func bad(_ json: String, _ key: String, _ message: String, _ line: Int) throws {
        let e = try #require(failure(json), "accepted: \(json)")
        #expect(e.keyPath == key, "\(e)")
        #expect(message.isEmpty || e.message.contains(message), "\(e.message)")
        #expect(e.line == line, "\(e)")
        #expect(e.file.hasSuffix("spec.json"))
    }

    @Test("onOffLabels is for a drawn switch only")
    func onOffLabelsOnCheckbox() throws {
        let e = try #require(failure("""
        {"name": "c", "control": "checkbox", "sizes": {"md": {"size": 20}}, "states": ["checked"], "onOffLabels": true,
         "themes": {"default": {"surface": "#FFFFFF", "fill": "#000000", "mark": "#FFFFFF"}}}
        """))
        #expect(e.keyPath == "onOffLabels" && e.message.contains("drawn switch") && e.line == 1)
    }
}
