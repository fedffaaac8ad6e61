import Foundation
import Testing
@testable import GlyphAudit
@testable import GlyphColor
@testable import GlyphCore
import GlyphTestSupport
import GlyphRenderTestSupport

/// The rules on switches as designed: a knob seen through its fill or its border, marks on the
/// track and in the knob, a knob that grows, a mark that appears, a knob taller than its track.
@Suite("Audit: switch parts")
struct SwitchAuditTests {
    /// WCAG 2's relative luminance of `#RRGGBB`, written out (not GlyphColor's): each channel
    /// linearised (c ≤ 0.04045: c / 12.92, else ((c + 0.055) / 1.055)^2.4), weighted 0.2126, 0.7152, 0.0722.
    static func luminance(_ hex: String) -> Double {
        let v = Int(hex.dropFirst(), radix: 16)!
        func lin(_ c: Int) -> Double {
            let s = Double(c) / 255
            return s <= 0.04045 ? s / 12.92 : pow((s + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * lin(v >> 16 & 0xFF) + 0.7152 * lin(v >> 8 & 0xFF) + 0.0722 * lin(v & 0xFF)
    }

    static func ratio(_ a: String, _ b: String) -> Double {
        let (x, y) = (luminance(a), luminance(b))
        return (max(x, y) + 0.05) / (min(x, y) + 0.05)
    }

    /// iOS's switch geometry with a white knob ringed in `knobBorder`, on the `#E9E9EA` off track.
    static func ringedKnob(_ knobBorder: String, tokens: Bool = false) -> String {
        """
        {"name": "ringed", "control": "switch", \(tokens ? ##""tokens": "tokens.json","## : "")
         "sizes": {"md": {"trackWidth": 51, "trackHeight": 31, "knobDiameter": 27, "knobInset": 2, "knobBorderWidth": 1}},
         "states": ["off"], "scales": [2], "dynamicTypeSizes": ["L"],
         "themes": {"default": {"surface": "#FFFFFF", "trackOff": "#E9E9EA", "trackOn": "#34C759", "knob": "#FFFFFF", "knobBorder": "\(knobBorder)"}}}
        """
    }

    @Test("A white knob with a #767676 border on the #E9E9EA track is measured through its border, the stronger: 3.74:1")
    func knobThroughItsBorder() throws {
        // By hand: L(#767676) = ((118/255 + 0.055) / 1.055)^2.4 = 0.18116; L(#E9E9EA) = 0.81531;
        // (0.81531 + 0.05) / (0.18116 + 0.05) = 3.743. The fill: white on #E9E9EA, 1.05 / 0.86531 = 1.213.
        let border = Self.ratio("#767676", "#E9E9EA"), fill = Self.ratio("#FFFFFF", "#E9E9EA")
        #expect(abs(border - 3.743) < 0.002 && abs(fill - 1.213) < 0.002)
        let s = try AuditScene(Self.ringedKnob("#767676"))
        // It passes 3:1 …
        #expect(s.run(NonTextContrastRule()).filter { $0.subject == "knob on off track" }.isEmpty)
        // … and a stricter ratio shows what was measured.
        let f = try #require(s.run(NonTextContrastRule(), ["minimumRatio": 4.5]).first { $0.subject == "knob on off track" })
        #expect(abs((f.numbers["ratio"] ?? 0) - border) < 0.001, "\(f.numbers)")
        #expect(abs((f.numbers["ratio.knob border"] ?? 0) - border) < 0.001)
        #expect(abs((f.numbers["ratio.knob on off track"] ?? 0) - fill) < 0.001)
        #expect(f.message.contains("its knob border #767676 on off track #E9E9EA: the knob border is 3.74:1"), "\(f.message)")
        #expect(f.location?.keyPath == "themes.default.knobBorder")
        // Without the border, the knob's fill is all there is: 1.21:1, an error naming the knob.
        let bare = try AuditScene(Self.ringedKnob("#767676").replacingOccurrences(of: ##", "knobBorderWidth": 1"##, with: ""))
        let knob = try #require(bare.run(NonTextContrastRule()).first { $0.subject == "knob on off track" })
        #expect(knob.severity == .error && abs((knob.numbers["ratio"] ?? 0) - fill) < 0.001)
        #expect(knob.location?.keyPath == "themes.default.knob")
    }

    @Test("A knob border that falls short: the suggestion names its colour key and its token")
    func knobBorderSuggestion() throws {
        let tokens = ##"{"color": {"$type": "color", "knob-ring": {"$value": "#BBBBBB"}}}"##
        let s = try AuditScene(Self.ringedKnob("{color.knob-ring}", tokens: true), files: ["tokens.json": tokens])
        let f = try #require(s.run(NonTextContrastRule()).first { $0.subject == "knob on off track" })
        // #BBBBBB on #E9E9EA is stronger than white on it, but under 3:1.
        #expect(abs((f.numbers["ratio"] ?? 0) - Self.ratio("#BBBBBB", "#E9E9EA")) < 0.001)
        let fix = try #require(f.suggestion)
        #expect(fix.part == "knob border" && fix.keyPath == "themes.default.knobBorder" && fix.token == "{color.knob-ring}")
        #expect(fix.ratio >= 3.05)
    }

    @Test("Each switch mark is measured against the part it sits on: a knob tick on the knob, an On/Off Label on the track")
    func marksOnTheirParts() throws {
        let s = try AuditScene("""
        {"name": "marks", "control": "switch", "onOffLabels": true,
         "sizes": {"md": {"trackWidth": 51, "trackHeight": 31, "knobDiameter": 27, "knobInset": 2}},
         "states": ["off", "on"], "scales": [2], "dynamicTypeSizes": ["L"],
         "appearance": {"on": {"knobMark": "check"}},
         "themes": {"default": {"surface": "#FFFFFF", "trackOff": "#767676", "trackOn": "#1A7F37", "knob": "#FFFFFF", "mark": "#E0E0E0"}}}
        """)
        let findings = s.run(NonTextContrastRule())
        let tick = try #require(findings.first { $0.subject == "knob tick" })
        #expect(abs((tick.numbers["ratio"] ?? 0) - Self.ratio("#E0E0E0", "#FFFFFF")) < 0.001)
        #expect(tick.values["background"] == "#FFFFFF" && tick.location?.keyPath == "themes.default.mark")
        #expect(tick.suggestion?.keyPath == "themes.default.mark")
        // iOS's off label #B3B3B3 on the #767676 track: 2.29:1 by hand, located at onOffLabels.
        let off = try #require(findings.first { $0.subject == "off label" })
        #expect(abs((off.numbers["ratio"] ?? 0) - Self.ratio("#B3B3B3", "#767676")) < 0.001)
        #expect(off.location?.keyPath == "onOffLabels" && off.message.contains("themes.default.offLabel sets it"))
        // The on label, white on #1A7F37 (5.08:1), passes.
        #expect(Self.ratio("#FFFFFF", "#1A7F37") > 3)
        #expect(!findings.contains { $0.subject == "on label" })
    }

    @Test("state-shape sees Material 3's growing handle: the change is both discs, π·(8² + 12²) pt², at every scale")
    func growingKnob() throws {
        let s = try AuditScene("""
        {"name": "m3", "control": "switch",
         "sizes": {"md": {"trackWidth": 52, "trackHeight": 32, "knobDiameter": {"off": 16, "on": 24}, "knobInset": {"off": 8, "on": 4}}},
         "states": ["off", "on"], "scales": [1, 2, 3], "dynamicTypeSizes": ["L"],
         "themes": {"default": {"surface": "#FFFFFF", "trackOff": "#767676", "trackOn": "#767676", "knob": "#FFFFFF"}}}
        """)
        #expect(s.run(StateShapeRule()).isEmpty)
        // Off: a disc of radius 8 centred 16 pt in; on: radius 12 centred 36 pt in. They touch at
        // 24 pt and do not overlap; the anti-aliased rims (half a pixel, each circle) are the tolerance.
        let expected = Double.pi * (64 + 144)
        for g in s.input.stateGroups() {
            let a = g[0], b = g[1]
            let rim = 2 * Double.pi * (8 + 12) / Double(s.plan.items[a].variant.scale)
            for (view, area) in StateShapeRule.areas(s.input, a, b) {
                #expect(abs(area - expected) <= rim, "\(view) @\(s.plan.items[a].variant.scale)x: \(area) pt², expected \(expected) ± \(rim)")
            }
        }
    }

    /// A round switch whose knob stays put (24 pt knob at 4 pt in a 32 × 32 track): only its colours
    /// and marks can show the state.
    static func roundSwitch(_ appearance: String) -> String {
        """
        {"name": "round", "control": "switch", "sizes": {"md": {"trackWidth": 32, "trackHeight": 32, "knobDiameter": 24, "knobInset": 4}},
         "states": ["off", "on"], "scales": [1, 2, 3], "dynamicTypeSizes": ["L"]\(appearance),
         "themes": {"default": {"surface": "#FFFFFF", "trackOff": "#767676", "trackOn": "#0A66C2", "knob": "#FFFFFF", "mark": "#0A66C2"}}}
        """
    }

    @Test("state-shape sees a mark that appears: a round switch that only changes colour fails; with a tick in the knob when on, it passes")
    func markAppears() throws {
        let colourOnly = try AuditScene(Self.roundSwitch(""))
        #expect(!colourOnly.run(StateShapeRule()).filter { $0.severity == .error }.isEmpty)
        let ticked = try AuditScene(Self.roundSwitch(##", "appearance": {"on": {"knobMark": "check"}}"##))
        #expect(ticked.run(StateShapeRule()).filter { $0.severity == .error }.isEmpty)
    }

    @Test("Material 3's switch as its tokens draw it, light and dark, reaches the verdicts a correct audit reaches")
    func m3Verdicts() throws {
        // material-web tokens (_md-comp-switch.scss, _md-sys-color*.scss at 70e259d): 52 × 32 track,
        // 2 px outline unselected and none selected, handle 16 px unselected (outline colour) and
        // 24 px selected (on-primary); expected: state-shape pass, nontext-contrast pass, clipping pass.
        let s = try AuditScene("""
        {"name": "m3-switch", "control": "switch",
         "sizes": {"md": {"trackWidth": 52, "trackHeight": 32, "knobDiameter": {"off": 16, "on": 24}, "knobInset": {"off": 8, "on": 4},
                          "borderWidth": {"off": 2, "on": 0}}},
         "states": ["off", "on"], "scales": [1, 2, 3], "dynamicTypeSizes": ["L"],
         "themes": {"light": {"surface": "#FEF7FF", "trackOff": "#E6E0E9", "trackOn": "#6750A4", "knob": "#79747E", "border": "#79747E",
                              "states": {"on": {"knob": "#FFFFFF"}}},
                    "dark": {"surface": "#141218", "trackOff": "#36343B", "trackOn": "#D0BCFF", "knob": "#938F99", "border": "#938F99",
                             "states": {"on": {"knob": "#381E72"}}}}}
        """)
        #expect(s.run(StateShapeRule()).filter { $0.severity == .error }.isEmpty)
        #expect(s.run(NonTextContrastRule()).filter { $0.severity == .error }.isEmpty)
        #expect(s.run(ClippingRule()).isEmpty)
    }

    @Test("clipping and target-size see a knob taller than its track: a frame fixed at the track cuts it; a hugging frame holds it")
    func tallKnob() throws {
        let spec = """
        {"name": "m2", "control": "switch", "frame": FRAME,
         "sizes": {"md": {"trackWidth": 36, "trackHeight": 14, "knobDiameter": 20, "knobInset": 0}},
         "states": ["off", "on"], "scales": [2], "dynamicTypeSizes": ["L"],
         "themes": {"default": {"surface": "#FFFFFF", "trackOff": "#9E9E9E", "trackOn": "#9E9E9E", "knob": "#000000"}}}
        """
        let fixed = try AuditScene(spec.replacingOccurrences(of: "FRAME", with: ##"{"width": 36, "height": 14}"##))
        let clip = try #require(fixed.run(ClippingRule()).first)
        // The knob reaches (20 − 14) / 2 = 3 pt above and below the 14 pt frame.
        #expect(clip.message.contains("top 3") && clip.message.contains("bottom 3"), "\(clip.message)")
        let hug = try AuditScene(spec.replacingOccurrences(of: "FRAME", with: ##""hug""##))
        #expect(hug.run(ClippingRule()).isEmpty)
        #expect(hug.plan.items.allSatisfy { $0.layout.hitArea.height == 20 && $0.layout.hitArea.width == 36 })
    }
}
