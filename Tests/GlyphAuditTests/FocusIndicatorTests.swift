import Foundation
import Testing
@testable import GlyphAudit
@testable import GlyphColor
@testable import GlyphCore
import GlyphTestSupport
import GlyphRenderTestSupport
import GlyphRaster
import GlyphRender

/// The focus indicator: focused variants, the ring's geometry, and the `focus-indicator` rule
/// against values computed by hand.
@Suite("Focus indicator")
struct FocusIndicatorTests {
    /// WCAG 2's relative luminance of `#RRGGBB`, written out: each channel linearised (c ≤ 0.04045:
    /// c / 12.92, else ((c + 0.055) / 1.055)^2.4), weighted 0.2126, 0.7152, 0.0722.
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

    /// A 20 pt box, radius 4, 2 pt black border, with `focus` (JSON text), at @`scale`.
    static func spec(_ focus: String, scale: Int = 2, border: String = "#000000", theme: String = "") -> String {
        """
        {"name": "f", "control": "checkbox",
         "sizes": {"md": {"size": 20, "cornerRadius": 4, "borderWidth": 2, "markSize": 12, "markWeight": 2}},
         "states": ["unchecked", "checked"], "scales": [\(scale)], "dynamicTypeSizes": ["L"], "focus": \(focus),
         "themes": {"default": {"surface": "#FFFFFF", "border": "\(border)", "fill": "#0055CC", "mark": "#FFFFFF"\(theme)}}}
        """
    }

    @Test("a ring 2 pt wide, 2 pt outside a 20 pt square of radius r, has 208 − (4 − π)(4r + 12) pt²; 2.4.13 asks 2 × (80 − (8 − 2π)r)")
    func ringArea() {
        // By hand: the outer edge is 28 × 28 with radius r + 4, the inner 24 × 24 with radius r + 2; a
        // rounded square of side a and radius q has a² − (4 − π)q². 784 − 576 = 208, and
        // (r + 4)² − (r + 2)² = 4r + 12.
        for r in [0.0, 4, 10] {
            let focus = FocusSpec(width: 2, offset: 2)
            let ring = FocusRing(around: Rect(x: 10, y: 10, width: 20, height: 20), radius: r, circle: false, focus: focus)
            #expect(ring.outer == Rect(x: 6, y: 6, width: 28, height: 28))
            #expect(abs(ring.outerRadius - (r + 4)) < 1e-9)
            #expect(abs(ring.area - (208 - (4 - Double.pi) * (4 * r + 12))) < 1e-9, "r = \(r): \(ring.area)")
            let perimeter = FocusIndicatorRule.perimeterArea(Rect(x: 0, y: 0, width: 20, height: 20), radius: r, circle: false, width: 2)
            #expect(abs(perimeter - 2 * (80 - (8 - 2 * Double.pi) * r)) < 1e-9)
        }
        // Around a 20 pt circle: an annulus from radius 12 to 14, π(14² − 12²) = 52π; the perimeter 2 × 20π.
        let c = FocusRing(around: Rect(x: 0, y: 0, width: 20, height: 20), radius: 0, circle: true, focus: FocusSpec(width: 2, offset: 2))
        #expect(abs(c.area - 52 * Double.pi) < 1e-9)
        #expect(abs(FocusIndicatorRule.perimeterArea(Rect(x: 0, y: 0, width: 20, height: 20), radius: 0, circle: true, width: 2) - 40 * .pi) < 1e-9)
    }

    @Test("a spec with focus has a focused twin of every state, ids `checked+focused`; without focus the matrix is as before")
    func variants() throws {
        let s = try AuditScene(Self.spec(##"{"color": "#000000", "width": 2, "offset": 2}"##))
        #expect(s.plan.items.map(\.variant.id) == ["f/square-md/L/default/unchecked@2x", "f/square-md/L/default/unchecked+focused@2x",
                                                   "f/square-md/L/default/checked@2x", "f/square-md/L/default/checked+focused@2x"])
        let focused = s.plan.items[1].variant
        #expect(focused.pictureID == "f/square-md/L/default/unchecked+focused" && focused.fileName("png") == "f/square-md/L/default/unchecked+focused@2x.png")
        #expect(VariantID(focused).state == "unchecked+focused")
        #expect(s.plan.items[0].scene.focus == nil && s.plan.items[1].scene.focus?.color?.authored.hex == "#000000")
        var only = VariantFilter()
        try only.add("focus=focused")
        #expect(try Plan(specs: [s.spec], filter: only).items.map(\.variant.focused) == [true, true])
        var bad = VariantFilter()
        #expect(throws: FilterError.self) { try bad.add("focus=yes") }
        // No `focus`: two variants, no ring.
        let plain = try AuditScene(Self.spec("false"))
        #expect(plain.plan.items.map(\.variant.id) == ["f/square-md/L/default/unchecked@2x", "f/square-md/L/default/checked@2x"])
    }

    @Test("Variant's JSON has `focused` only when true, and reads JSON without it as unfocused")
    func variantCoding() throws {
        var v = Variant(preset: "p", control: .checkbox, shape: .square, size: "md", dynamicType: .large, theme: "default", state: .checked, scale: 2)
        let plain = String(decoding: try JSONEncoder().encode(v), as: UTF8.self)
        #expect(!plain.contains("focused"))
        v.focused = true
        let data = try JSONEncoder().encode(v)
        #expect(String(decoding: data, as: UTF8.self).contains(#""focused":true"#))
        #expect(try JSONDecoder().decode(Variant.self, from: data) == v)
        let old = ##"{"preset":"p","control":"checkbox","shape":"square","size":"md","dynamicType":"large","theme":"default","state":"checked","scale":2}"##
        #expect(try JSONDecoder().decode(Variant.self, from: Data(old.utf8)).focused == false)
    }

    @Test("the focused canvas grows by whole points when the ring passes the 4 pt margin; the rest moves by whole pixels")
    func padding() throws {
        // width 3 + offset 2 = 5 pt past the glyph: 1 pt past the margin, so 1 pt more on each side.
        let s = try AuditScene(Self.spec(##"{"color": "#000000", "width": 3, "offset": 2}"##))
        let u = s.plan.items[0].layout, f = s.plan.items[1].layout
        #expect(f.focusPadding == 1 && u.focusPadding == 0)
        #expect(f.canvas.width == u.canvas.width + 2 && f.canvas.height == u.canvas.height + 2)
        #expect(f.glyph.x == u.glyph.x + 1 && f.glyph.y == u.glyph.y + 1)
        // The ring is drawn: the middle of its top side, 3.5 pt above the glyph (offset 2 + half of 3), is black.
        let raster = s.input.raster(1)
        let x = Int(f.glyph.midX * 2), y = Int((f.glyph.minY - 3.5) * 2)
        #expect(Array(raster.pixels[(y * raster.width + x) * 4..<(y * raster.width + x) * 4 + 3]) == [0, 0, 0])
        // And the unfocused render there is the white surface.
        let ur = s.input.raster(0)
        let uo = ((y - 2) * ur.width + x - 2) * 4
        #expect(Array(ur.pixels[uo..<uo + 3]) == [255, 255, 255])
    }

    @Test("fails: a 1 pt #CCCCCC ring is 1.606:1 on white (1.4.11 error) and changes nothing by 3:1 (2.4.13 warning, 146.3 pt² needed)")
    func failing() throws {
        // By hand: L(#CCCCCC) = ((0.8 + 0.055) / 1.055)^2.4 = 0.60383; 1.05 / 0.65383 = 1.606.
        let expected = Self.ratio("#CCCCCC", "#FFFFFF")
        #expect(abs(expected - 1.606) < 0.001)
        let s = try AuditScene(Self.spec(##"{"color": "#CCCCCC", "width": 1, "offset": 1}"##))
        let found = s.run(FocusIndicatorRule())
        let contrast = try #require(found.first { $0.subject == "focus ring contrast" && $0.variant.state == "checked+focused" })
        #expect(contrast.severity == .error && contrast.criterion == "1.4.11")
        #expect(abs((contrast.numbers["ratio"] ?? 0) - expected) < 0.01, "\(contrast.numbers)")
        #expect(contrast.message.contains("focus ring #CCCCCC is 1.60:1 on the surface #FFFFFF; 1.4.11 needs 3:1"), "\(contrast.message)")
        #expect(contrast.location?.keyPath == "focus")
        let area = try #require(found.first { $0.subject == "focus appearance" && $0.variant.state == "checked+focused" })
        #expect(area.severity == .warning && area.criterion == "2.4.13")
        // 2 × (80 − (8 − 2π) × 4) = 146.27 pt² needed; the 1 pt ring, 92 − 11(4 − π) = 82.56 pt², changes nothing by 3:1.
        #expect(abs((area.numbers["required"] ?? 0) - 2 * (80 - (8 - 2 * Double.pi) * 4)) < 1e-9)
        #expect(abs((area.numbers["ringArea"] ?? 0) - (92 - 11 * (4 - Double.pi))) < 1e-9)
        #expect((area.numbers["changedArea"] ?? 1) == 0)
        #expect(area.message.contains("2.4.13 needs 146.3 pt²"), "\(area.message)")
        // The configuration can make 2.4.13 an error.
        #expect(s.run(FocusIndicatorRule(), ["appearanceAsError": 1]).first { $0.subject == "focus appearance" }?.severity == .error)
    }

    @Test("passes: a 2 pt #005FCC ring 2 pt out is 5.99:1 and changes about the 184 pt² it covers (≥ 146.3 pt²)")
    func passing() throws {
        // By hand: L(#005FCC) = 0.7152 × ((95/255 + 0.055)/1.055)^2.4 + 0.0722 × ((204/255 + 0.055)/1.055)^2.4
        // = 0.7152 × 0.11444 + 0.0722 × 0.60383 = 0.12544; 1.05 / 0.17544 = 5.985.
        #expect(abs(Self.ratio("#005FCC", "#FFFFFF") - 5.985) < 0.002)
        let s = try AuditScene(Self.spec(##"{"color": "focus", "width": 2, "offset": 2}"##, scale: 3, theme: ##", "focus": "#005FCC""##))
        // No error or warning; one info per state with the numbers.
        let found = s.run(FocusIndicatorRule())
        #expect(found.allSatisfy { $0.severity == .info && $0.subject == "focus indicator" } && found.count == 2, "\(found.map(\.message))")
        #expect(found.first?.message.hasPrefix("focus ring #005FCC is 5.98:1 on the surface #FFFFFF (1.4.11 needs 3:1); it changes ") == true,
                "\(found.first?.message ?? "")")
        let m = try #require(FocusIndicatorRule.measure(s.input, focused: 3, unfocused: 2))
        #expect(m.ring.hex == "#005FCC" && abs(m.surfaceRatio - Self.ratio("#005FCC", "#FFFFFF")) < 0.001)
        #expect(m.touching == nil)
        // The ring's area by hand (r = 4): 208 − 28(4 − π) = 183.96 pt²; the pixels changed by 3:1 are those
        // the ring covers, to within its anti-aliased edges (a pixel row each side: 2 × 112 pt × 1/3 pt ≈ 75 pt² at most).
        #expect(abs(m.ringArea - (208 - 28 * (4 - Double.pi))) < 1e-9)
        #expect(abs(m.changedArea - m.ringArea) < 40, "changed \(m.changedArea) pt²")
        #expect(m.changedArea >= 2 * (80 - (8 - 2 * Double.pi) * 4))
    }

    @Test("the greyscale-only comparison counts what the four-view one counts in greyscale, on the SwiftUI presets' focused variants")
    func greyOnlyMatchesFull() throws {
        let grey = StateChange.views.firstIndex(of: .greyscale)!
        let t = StateChange.Thresholds(greyRatio: 3, colorDistance: 0.12)
        var changed = 0
        for preset in ["swiftui-checkbox", "swiftui-switch"] {
            let input = try AuditScene(preset: preset, filter: ["dynamic-type=L,AX5"]).input
            let pairs = FocusIndicatorRule.pairs(input)
            #expect(pairs.count == input.items.count / 2)
            for p in pairs {
                let (u, f) = try #require(FocusIndicatorRule.crops(input, focused: p.focused, unfocused: p.unfocused))
                let full = StateChange.measure(u, f, t), greyOnly = StateChange.measureGrey(u, f, t)
                #expect(greyOnly.changed[grey] == full.changed[grey] && greyOnly.raw[grey] == full.raw[grey],
                        "\(input.items[p.focused].variant.id)")
                changed += full.changed[grey]
            }
        }
        #expect(changed > 0, "the rings change pixels")
    }

    @Test("a ring that touches the control is measured against it too: #767676 on a #595959 border is 1.54:1")
    func touching() throws {
        // By hand: L(#767676) = 0.18116, L(#595959) = ((89/255 + 0.055)/1.055)^2.4 = 0.09989;
        // (0.18116 + 0.05) / (0.09989 + 0.05) = 1.542. On white, #767676 is 4.54:1.
        let expected = Self.ratio("#767676", "#595959")
        #expect(abs(expected - 1.542) < 0.002)
        let s = try AuditScene(Self.spec(##"{"color": "#767676", "width": 2, "offset": 0}"##, border: "#595959"))
        let f = try #require(s.run(FocusIndicatorRule()).first { $0.subject == "focus ring contrast" && $0.variant.state == "unchecked+focused" })
        #expect(abs((f.numbers["ratio"] ?? 0) - expected) < 0.01, "\(f.numbers)")
        #expect(abs((f.numbers["surfaceRatio"] ?? 0) - Self.ratio("#767676", "#FFFFFF")) < 0.01)
        #expect(f.message.contains("on the control's #595959 where it touches it"), "\(f.message)")
    }

    @Test("`focus: true` is the documented iOS approximation: 3 pt, 2 pt out, systemBlue #007AFF (#0A84FF dark) unless the theme sets `focus`")
    func platformDefault() throws {
        let s = try AuditScene(Self.spec("true"))
        let ring = try #require(s.plan.items[1].scene.focus)
        #expect(ring.lineWidth == 3 && ring.color?.authored.hex == "#007AFF")
        #expect(ring.rect == s.plan.items[1].layout.glyph.insetBy(-5))
        let dark = try AuditScene(Self.spec("true").replacingOccurrences(of: ##""surface": "#FFFFFF""##, with: ##""surface": "#000000""##))
        #expect(dark.plan.items[1].scene.focus?.color?.authored.hex == "#0A84FF")
        let own = try AuditScene(Self.spec("true", theme: ##", "focus": "#111111""##))
        #expect(own.plan.items[1].scene.focus?.color?.authored.hex == "#111111")
    }

    @Test("bad focus input names the key path, line and valid values", arguments: [
        (##"{"width": -1}"##, "focus.width", "out of range"),
        (##"{"offset": -2}"##, "focus.offset", "out of range"),
        (##"{"around": "box"}"##, "focus.around", "expected one of: glyph, frame"),
        (##"{"widht": 2}"##, "focus.widht", "did you mean \"width\""),
        (##"{"color": "surface"}"##, "focus.color", "surface"),
        (##""yes""##, "focus", "expected true, false or an object"),
    ])
    func badInput(_ focus: String, _ keyPath: String, _ words: String) throws {
        let dir = TempFolder()
        let url = dir.write("spec.json", Self.spec(focus))
        do {
            _ = try Spec.load(contentsOf: url)
            Issue.record("\(focus) loaded")
        } catch {
            #expect(error.keyPath == keyPath, "\(error.description)")
            #expect(error.line == 3, "\(error.description)")
            #expect(error.description.contains(words), "\(error.description)")
        }
    }
}
