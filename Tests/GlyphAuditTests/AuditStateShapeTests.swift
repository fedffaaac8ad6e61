import Foundation
import Testing
@testable import GlyphAudit
@testable import GlyphColor
@testable import GlyphCore
@testable import GlyphRaster
@testable import GlyphRender
import GlyphTestSupport
import GlyphRenderTestSupport

// `state-shape`: the cases the issue lists, each drawn as a small spec (or an SVG image set) at
// three Dynamic Type sizes and three display scales, so every pair is checked 9 times.

@Suite("Audit: state-shape")
struct AuditStateShapeTests {
    let rule = StateShapeRule()

    static let filled = ##"{ "unchecked": { "ring": false, "fill": true, "mark": "none" }, "checked": { "ring": false, "fill": true, "mark": "none" } }"##
    static let rings = ##"{ "unchecked": { "ring": true, "fill": false, "mark": "none" }, "checked": { "ring": true, "fill": false, "mark": "none" } }"##

    /// Every pair of states of the scene (indices into its plan).
    static func pairs(_ s: AuditScene) -> [(Int, Int)] {
        s.input.stateGroups().flatMap { g in (0..<g.count).flatMap { a in ((a + 1)..<g.count).map { (g[a], g[$0]) } } }
    }

    /// A filled box whose checked state draws a tick and whose mixed state draws a dash.
    static func tickAndDash(fill: String, size: String, scales: [Int] = [1, 2, 3], sizes: [String] = ["L"]) throws -> AuditScene {
        try AuditScene(SpecText.checkbox(states: ["checked", "mixed"],
            appearance: ##"{ "checked": { "ring": false, "fill": true, "mark": "check" }, "mixed": { "ring": false, "fill": true, "mark": "dash" } }"##,
            theme: ##"{ "surface": "#FFFFFF", "fill": "\##(fill)", "mark": "#FFFFFF" }"##, size: size, scales: scales, sizes: sizes))
    }

    /// Every pair of the scene changes at least `above` square points in every view.
    func expectChanged(_ s: AuditScene, above: Double, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        for (a, b) in Self.pairs(s) {
            for (view, area) in StateShapeRule.areas(s.input, a, b) {
                #expect(area > above, "\(s.plan.items[a].variant.id) vs \(s.plan.items[b].variant.state) in \(view): \(area) pt²",
                        sourceLocation: sourceLocation)
            }
        }
    }

    /// Every pair of the scene fails, in exactly `views`.
    func expectFails(_ scene: AuditScene, in views: Set<String>, pairs: Int, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let findings = scene.run(rule)
        #expect(findings.count == pairs, sourceLocation: sourceLocation)
        for f in findings {
            #expect(f.rule == "state-shape" && f.severity == .error && f.criterion == "1.4.1", sourceLocation: sourceLocation)
            #expect(Set(f.values["failingViews"]!.split(separator: ",").map(String.init)) == views, "\(f.message)",
                    sourceLocation: sourceLocation)
            for v in views { #expect(f.numbers["area.\(v)"]! < 1, sourceLocation: sourceLocation) }
        }
    }

    @Test("the same filled square, grey #8E8E93 vs blue #007AFF, fails in every view")
    func greyVersusBlueSquare() throws {
        let s = try AuditScene(SpecText.checkbox(appearance: Self.filled,
            theme: ##"{ "surface": "#FFFFFF", "fill": "#8E8E93", "states": { "checked": { "fill": "#007AFF" } } }"##))
        expectFails(s, in: ["greyscale", "protanopia", "deuteranopia", "tritanopia"], pairs: 9)
        // Colour alone changes no region: the area is exactly zero in every view.
        let f = try #require(s.run(rule).first)
        for v in ColorView.allCases { #expect(f.numbers["area.\(v.rawValue)"] == 0) }
        #expect(f.message.hasPrefix("unchecked vs checked (filled box → filled box): only the colours change"), "\(f.message)")
        #expect(f.subject == "unchecked vs checked")
        #expect(f.variant == "t/square-md/xS/default/checked@1x")
    }

    @Test("the same ring, grey vs blue, fails in every view")
    func greyVersusBlueRing() throws {
        let s = try AuditScene(SpecText.checkbox(appearance: Self.rings,
            theme: ##"{ "surface": "#FFFFFF", "border": "#8E8E93", "states": { "checked": { "border": "#007AFF" } } }"##))
        expectFails(s, in: ["greyscale", "protanopia", "deuteranopia", "tritanopia"], pairs: 9)
    }

    @Test("a ring vs a filled square with a white tick passes")
    func ringVersusFilledWithTick() throws {
        let s = try AuditScene(SpecText.checkbox(
            appearance: ##"{ "unchecked": { "ring": true, "fill": false, "mark": "none" }, "checked": { "ring": false, "fill": true, "mark": "check" } }"##,
            theme: ##"{ "surface": "#FFFFFF", "border": "#767676", "fill": "#007AFF", "mark": "#FFFFFF" }"##))
        #expect(s.run(rule).isEmpty)
        // The surface inside the ring becomes the fill (the white tick keeps the surface's colour):
        // at xS the box is 22 × 14/17 = 18.1 pt, its inside (less the 1.7 pt ring at L, scaled) over 150 pt².
        expectChanged(s, above: 150)
    }

    @Test("a green #2E7D32 fill with a red #D32F2F tick vs the same fill without it fails, naming protanopia and deuteranopia")
    func redTickOnGreen() throws {
        let s = try AuditScene(SpecText.checkbox(
            appearance: ##"{ "unchecked": { "ring": false, "fill": true, "mark": "none" }, "checked": { "ring": false, "fill": true, "mark": "check" } }"##,
            theme: ##"{ "surface": "#FFFFFF", "fill": "#2E7D32", "mark": "#D32F2F" }"##))
        let findings = s.run(rule)
        #expect(findings.count == 9)
        for f in findings {
            let views = f.values["failingViews"]!.split(separator: ",").map(String.init)
            #expect(views.contains("protanopia") && views.contains("deuteranopia"), "\(f.message)")
            // The two colours are nearly iso-luminant, so greyscale fails too; tritanopia still tells them apart.
            #expect(views.contains("greyscale"))
            #expect(!views.contains("tritanopia"))
            #expect(f.message.contains("in greyscale, protanopia, deuteranopia it cannot be told from its surroundings"), "\(f.message)")
            #expect(f.message.contains("in tritanopia) differs from what is around it in colour only"), "\(f.message)")
        }
    }

    @Test("a ring vs the same ring with an interior fill barely different from the surface fails")
    func faintFill() throws {
        let s = try AuditScene(SpecText.checkbox(
            appearance: ##"{ "unchecked": { "ring": true, "fill": false, "mark": "none" }, "checked": { "ring": true, "fill": true, "mark": "none" } }"##,
            theme: ##"{ "surface": "#FFFFFF", "border": "#000000", "fill": "#F4F4F4" }"##))
        expectFails(s, in: ["greyscale", "protanopia", "deuteranopia", "tritanopia"], pairs: 9)
    }

    // Three-state image sets (RVS_Checkbox): a ring for off, a filled box with the tick cut out for on,
    // and a ring with a dash (minus.square) for clear.
    static let images: [String: String] = [
        "off.svg": ##"<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24"><rect x="2.9" y="2.9" width="18.2" height="18.2" rx="3.7" fill="none" stroke="#000" stroke-width="1.8"/></svg>"##,
        "on.svg": ##"<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24"><defs><mask id="m"><rect width="24" height="24" fill="#fff"/><path d="M7 12.4l3.3 3.3L17.2 8.4" fill="none" stroke="#000" stroke-width="2.3" stroke-linecap="round" stroke-linejoin="round"/></mask></defs><rect x="2" y="2" width="20" height="20" rx="4.5" fill="#000" mask="url(#m)"/></svg>"##,
        "clear.svg": ##"<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24"><rect x="2.9" y="2.9" width="18.2" height="18.2" rx="3.7" fill="none" stroke="#000" stroke-width="1.8"/><path d="M7.5 12h9" fill="none" stroke="#000" stroke-width="2.2" stroke-linecap="round"/></svg>"##,
    ]

    static func threeState(useOffImageForClear: Bool) -> String {
        """
        { "name": "rvs", "control": "checkbox", "sizes": { "md": { "size": 44 } }, "frame": { "width": 44, "height": 44 },
          "images": { "on": "on.svg", "off": "off.svg", "clear": "clear.svg", "template": true, "threeState": true,
                      "useOffImageForClear": \(useOffImageForClear) },
          "states": ["unchecked", "checked", "mixed"], "scales": [1, 2, 3], "dynamicTypeSizes": ["L"],
          "themes": { "default": { "surface": "#FFFFFF", "tint": "#007AFF" }, "inverse": { "surface": "#000000", "tint": "#0A84FF" } } }
        """
    }

    @Test("three-state images with useOffImageForClear true: mixed vs unchecked fails")
    func offImageForClear() throws {
        let s = try AuditScene(Self.threeState(useOffImageForClear: true), files: Self.images)
        let findings = s.run(rule)
        #expect(findings.count == 6)  // two themes × three scales
        #expect(findings.allSatisfy { $0.subject == "unchecked vs mixed" })
        #expect(findings.allSatisfy { $0.numbers.filter { $0.key.hasPrefix("area.") }.allSatisfy { $0.value == 0 } })
        #expect(findings.allSatisfy { $0.location?.keyPath == "images.useOffImageForClear" })
        #expect(findings.allSatisfy { $0.message.hasSuffix("(both draw the off image: useOffImageForClear is true)") })
    }

    @Test("three-state images with useOffImageForClear false and a minus image: every pair passes")
    func minusImage() throws {
        let s = try AuditScene(Self.threeState(useOffImageForClear: false), files: Self.images)
        #expect(s.run(rule).isEmpty)
        expectChanged(s, above: 10)
    }

    @Test("a switch whose knob moves from left to right, colours unchanged, passes")
    func knobMoves() throws {
        let s = try AuditScene("""
        { "name": "sw", "control": "switch", "sizes": { "md": { "trackWidth": 51, "trackHeight": 31, "knobDiameter": 27 } },
          "states": ["off", "on"], "scales": [1, 2, 3], "dynamicTypeSizes": ["L"],
          "themes": { "default": { "surface": "#FFFFFF", "trackOff": "#767676", "trackOn": "#767676", "knob": "#FFFFFF" } } }
        """)
        #expect(s.run(rule).isEmpty)
        // The changed area is the symmetric difference of the knob's two discs, up to the
        // anti-aliased rim of both circles (half a pixel wide, twice over).
        for (a, b) in Self.pairs(s) {
            let ka = try #require(s.plan.items[a].layout.knob), kb = try #require(s.plan.items[b].layout.knob)
            let r = ka.width / 2, d = abs(kb.midX - ka.midX)
            let lens = d >= 2 * r ? 0 : 2 * r * r * acos(d / (2 * r)) - d / 2 * (4 * r * r - d * d).squareRoot()
            let expected = 2 * (Double.pi * r * r - lens)
            let rim = 2 * (2 * Double.pi * r) / Double(s.plan.items[a].variant.scale)
            for (view, area) in StateShapeRule.areas(s.input, a, b) {
                #expect(abs(area - expected) <= rim, "\(view) at @\(s.plan.items[a].variant.scale)x: \(area) pt², expected \(expected) ± \(rim)")
            }
        }
    }

    @Test("a filled box: checked (tick) vs mixed (dash) passes at every size and scale, by about the same area in points")
    func tickVersusDash() throws {
        let s = try Self.tickAndDash(fill: "#007AFF", size: ##"{ "size": 20, "cornerRadius": 4, "borderWidth": 1.5, "markSize": 12, "markWeight": 2 }"##,
                                     sizes: ["xS", "L", "AX5"])
        #expect(s.run(rule).isEmpty)
        // The change is the symmetric difference of the tick's and the dash's strokes: at most both
        // strokes' areas (length × weight plus the round caps), at least the difference of the two.
        for (a, b) in Self.pairs(s) {
            let layout = s.plan.items[a].layout
            let m = try #require(layout.mark), w = layout.markWeight, side = m.width
            let p0 = (m.minX + w / 2, m.minY + 0.5 * side), p1 = (m.minX + 0.38 * side, m.maxY - w / 2 - 0.12 * side)
            let p2 = (m.maxX - w / 2, m.minY + w / 2 + 0.12 * side)
            func length(_ u: (Double, Double), _ v: (Double, Double)) -> Double { ((u.0 - v.0) * (u.0 - v.0) + (u.1 - v.1) * (u.1 - v.1)).squareRoot() }
            let caps = Double.pi * w * w / 4
            let tick = (length(p0, p1) + length(p1, p2)) * w + caps, dash = (side - w) * w + caps
            let rim = 4 * (length(p0, p1) + length(p1, p2) + side) / Double(s.plan.items[a].variant.scale)
            for (view, area) in StateShapeRule.areas(s.input, a, b) {
                #expect(area <= tick + dash + rim && area >= abs(tick - dash), "\(view) at \(s.plan.items[a].variant.id): \(area) pt²")
                #expect(area >= 1, "\(view) at \(s.plan.items[a].variant.id): \(area) pt²")
            }
        }
    }

    @Test("a tick and a dash too small to tell apart fail with the glyph size from which they would not, never as a recolouring")
    func tinyTickVersusDash() throws {
        // A 5 pt box with a 1.5 pt mark of 0.75 pt strokes: the tick and the dash differ by a pixel or two.
        let s = try Self.tickAndDash(fill: "#000000", size: ##"{ "size": 5, "cornerRadius": 1, "borderWidth": 1, "markSize": 1.5, "markWeight": 0.75 }"##)
        let findings = s.run(rule)
        #expect(!findings.isEmpty)
        var estimated = 0
        for f in findings {
            #expect(!f.message.contains("only the colours change"), "\(f.message)")
            let areas = ColorView.allCases.map { f.numbers["area.\($0.rawValue)"]! }
            let weakest = try #require(areas.min())
            #expect(weakest < 1)
            let scale = try #require(s.plan.items.first { $0.variant.variantID == f.variant }).variant.scale
            let head = "checked vs mixed (filled box with a tick → filled box with a dash): "
            if f.message.hasPrefix(head + "both states draw the same shape in the same colours") {
                // At @1x the tick and the dash are both a blob of two pixels: anti-aliasing is all that differs.
                #expect(scale == 1 && areas.allSatisfy { $0 == 0 }, "\(f.message)")
                continue
            }
            #expect(f.message.hasPrefix(head + "the picture changes shape over"), "\(f.message)")
            if weakest > 0 {
                // A change's area grows with the square of the glyph's size: 5 pt × √(1 pt² / area).
                let from = 5 * (1 / weakest).squareRoot()
                #expect(from > 5)
                #expect(f.message.hasSuffix("at a 5.0 pt glyph @\(scale)x these states are too close to tell apart, "
                                            + "they would differ by 1 pt² from about \(Format.points(from)) pt"), "\(f.message)")
                estimated += 1
            } else {
                #expect(f.message.contains("at a 5.0 pt glyph @\(scale)x the two pictures differ in lone pixels only"), "\(f.message)")
            }
        }
        #expect(estimated > 0)
    }

    @Test("a tick that degenerates to a dash (a 2 pt mark of 1.5 pt strokes) is the same shape, not a recolouring")
    func degenerateTick() throws {
        let s = try Self.tickAndDash(fill: "#000000", size: ##"{ "size": 12, "cornerRadius": 1, "borderWidth": 1, "markSize": 2, "markWeight": 1.5 }"##)
        // The tick's three points lie within 0.02 pt of one horizontal line: it is drawn as a dash.
        let findings = s.run(rule)
        #expect(findings.count == 3)
        for f in findings {
            #expect(f.message.contains("both states draw the same shape in the same colours"), "\(f.message)")
        }
    }

    @Test("a picture without colour gets the greyscale verdict in every view")
    func neutralPicture() throws {
        // A #DCDCDC tick on white: 1.37:1 in greyscale (over the 1.35 that makes it visible) but only
        // 0.105 apart in OKLab lightness (under 0.12). Every view of a grey picture sees what greyscale sees.
        let s = try AuditScene(SpecText.checkbox(
            appearance: ##"{ "unchecked": { "ring": true, "fill": false, "mark": "none" }, "checked": { "ring": true, "fill": false, "mark": "check" } }"##,
            theme: ##"{ "surface": "#FFFFFF", "border": "#000000", "mark": "#DCDCDC" }"##, scales: [2], sizes: ["L"]))
        let white = StateChange.ViewColour(0xFFFF_FFFF), grey = StateChange.ViewColour(0xFFDC_DCDC)
        #expect(max(white.grey, grey.grey) / min(white.grey, grey.grey) >= 1.35)
        #expect(white.differs(grey, StateChange.Thresholds(greyRatio: 1.35, colorDistance: 0.12)) == 1)
        #expect(s.run(rule).isEmpty)
        let areas = StateShapeRule.areas(s.input, 0, 1)
        #expect(areas[.greyscale]! > 1)
        for v in ColorView.allCases { #expect(areas[v] == areas[.greyscale], "\(v)") }
    }

    @Test("a lightness-only change fails: the same ring #333333 → #ECECEC on white, and the same filled square")
    func lightnessOnly() throws {
        for (appearance, role) in [(Self.rings, "border"), (Self.filled, "fill")] {
            let s = try AuditScene(SpecText.checkbox(appearance: appearance,
                theme: ##"{ "surface": "#FFFFFF", "ROLE": "#333333", "states": { "checked": { "ROLE": "#ECECEC" } } }"##
                    .replacingOccurrences(of: "ROLE", with: role)))
            let findings = s.run(rule)
            #expect(findings.count == 9, "\(role)")
            for f in findings {
                #expect(Set(f.values["failingViews"]!.split(separator: ",")) == ["greyscale", "protanopia", "deuteranopia", "tritanopia"])
                // The faint #ECECEC edge barely shows, but its colour maps one to one onto #333333's.
                for v in ColorView.allCases { #expect(f.numbers["area.\(v.rawValue)"] == 0) }
                #expect(f.message.contains(": only the colours change: each colour of one state is drawn in one colour of the other"), "\(f.message)")
            }
        }
    }

    @Test("a hollow box that fills changes its inside: the area is the inside of the ring, at every scale")
    func hollowToFilledLarge() throws {
        // A square 44 pt box with a 1 pt ring at L: the inside is 42 × 42 = 1764 pt², up to its
        // anti-aliased rim (half a pixel along its 168 pt edge).
        let s = try AuditScene(SpecText.checkbox(
            appearance: ##"{ "unchecked": { "ring": true, "fill": false, "mark": "none" }, "checked": { "ring": true, "fill": true, "mark": "none" } }"##,
            theme: ##"{ "surface": "#FFFFFF", "border": "#000000", "fill": "#007AFF" }"##,
            size: ##"{ "size": 44, "cornerRadius": 0, "borderWidth": 1 }"##, sizes: ["L"]))
        #expect(s.run(rule).isEmpty)
        for (a, b) in Self.pairs(s) {
            let scale = Double(s.plan.items[a].variant.scale)
            for (view, area) in StateShapeRule.areas(s.input, a, b) {
                #expect(abs(area - 1764) <= 168 / scale, "\(view) @\(scale)x: \(area)")
            }
        }
    }

    @Test("the threshold is configurable, and an area just under it is printed under it")
    func configurableThreshold() throws {
        let s = try AuditScene(SpecText.checkbox(
            appearance: ##"{ "unchecked": { "ring": true, "fill": false, "mark": "none" }, "checked": { "ring": true, "fill": false, "mark": "check" } }"##,
            theme: ##"{ "surface": "#FFFFFF", "border": "#000000", "mark": "#000000" }"##, scales: [2], sizes: ["L"]))
        #expect(s.run(rule).isEmpty)
        let areas = StateShapeRule.areas(s.input, 0, 1)
        let lowest = try #require(areas.values.min())
        let f = try #require(s.run(rule, ["minimumArea": lowest + 1e-6]).first)
        #expect(f.numbers["minimumArea"] == lowest + 1e-6)
        // Shown cut, never rounded up to the threshold.
        let shown = try #require(f.message.components(separatedBy: "greyscale ").dropFirst().first?.prefix { $0 != " " })
        #expect(Double(shown)! < lowest + 1e-6 && Double(shown)! <= lowest, "\(f.message)")
        #expect(s.run(rule, ["minimumArea": lowest]).isEmpty)
    }

    @Test("the glyph is measured without its label, redrawn when the label's ink reaches into it")
    func glyphWithoutLabel() throws {
        // A glyph that grows out of a small fixed frame onto its label at AX5.
        let s = try AuditScene("""
        { "name": "over", "control": "checkbox", "sizes": { "md": { "size": 20 } }, "frame": { "width": 20, "height": 20 },
          "glyph": { "textStyle": "body", "scalesWithDynamicType": true },
          "label": { "text": "Label", "spacing": 2 }, "states": ["unchecked", "checked"], "scales": [1],
          "dynamicTypeSizes": ["L", "AX5"],
          "themes": { "default": { "surface": "#FFFFFF", "border": "#000000", "fill": "#000000", "mark": "#FFFFFF", "label": "#000000" } } }
        """)
        let large = try s.index("over/square-md/L/default/unchecked@1x")
        let ax5 = try s.index("over/square-md/AX5/default/unchecked@1x")
        #expect(!s.input.glyphs[large].redrawn)
        #expect(s.input.glyphs[ax5].redrawn)
        // The cut equals a render of the glyph alone; the full render differs there (the label).
        let layout = s.plan.items[ax5].layout
        let alone = Renderer.raster(layout, spec: s.spec, parts: [.background, .glyph])
        let full = s.input.raster(ax5)
        for k in [large, ax5] {
            let g = s.input.glyphs[k]
            let glyphOnly = Renderer.raster(s.plan.items[k].layout, spec: s.spec, parts: [.background, .glyph])
            for y in 0..<g.height {
                for x in 0..<g.width {
                    let p = glyphOnly.pixel(g.x0 + x, g.y0 + y)
                    let expected = UInt32(p.r) | UInt32(p.g) << 8 | UInt32(p.b) << 16 | UInt32(p.a) << 24
                    if g.pixel(x, y) != expected { Issue.record("pixel \(x),\(y) of \(s.plan.items[k].variant.id)"); return }
                }
            }
        }
        let g = s.input.glyphs[ax5]
        var differ = 0
        for y in 0..<g.height {
            for x in 0..<g.width where full.pixel(g.x0 + x, g.y0 + y) != alone.pixel(g.x0 + x, g.y0 + y) { differ += 1 }
        }
        #expect(differ > 0, "the label reaches into the glyph's area in the full render")
    }

    @Test("the built-in presets: SwiftUI square → checkmark.square passes; RVS mixed drawn with the off image fails")
    func presets() throws {
        let swiftui = try AuditScene(preset: "swiftui-checkbox")
        #expect(swiftui.run(rule).isEmpty)
        let rvs = try AuditScene(preset: "rvs-checkbox", filter: ["theme=default"])
        let findings = rvs.run(rule)
        #expect(findings.count == 12 * 3)
        #expect(findings.allSatisfy { $0.subject == "unchecked vs mixed" })
        let switches = try AuditScene(preset: "swiftui-switch")
        #expect(switches.run(rule).isEmpty)
    }
}
