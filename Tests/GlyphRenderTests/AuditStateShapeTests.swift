import Foundation
import Testing
@testable import GlyphRender

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

    /// No pair of the scene is a recolouring: the colour mapping breaks on well over the 2 % tolerance.
    func expectNotRecoloured(_ s: AuditScene, above: Double = 0.05, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        for (a, b) in Self.pairs(s) {
            let share = StateShapeRule.inconsistentShare(s.input, a, b)
            #expect(share > above, "\(s.plan.items[a].variant.id) vs \(s.plan.items[b].variant.state): \(share)", sourceLocation: sourceLocation)
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
            for v in views { #expect(f.numbers["share.\(v)"]! < 0.025, sourceLocation: sourceLocation) }
        }
    }

    @Test("the same filled square, grey #8E8E93 vs blue #007AFF, fails in every view")
    func greyVersusBlueSquare() throws {
        let s = try AuditScene(SpecText.checkbox(appearance: Self.filled,
            theme: ##"{ "surface": "#FFFFFF", "fill": "#8E8E93", "states": { "checked": { "fill": "#007AFF" } } }"##))
        expectFails(s, in: ["greyscale", "protanopia", "deuteranopia", "tritanopia"], pairs: 9)
        // Colour alone moves no boundary: the share is exactly zero.
        let f = try #require(s.run(rule).first)
        #expect(f.numbers["share.greyscale"] == 0)
        #expect(f.message.contains("fails in greyscale, protanopia, deuteranopia, tritanopia"))
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
        for i in s.plan.items.indices where s.plan.items[i].variant.state == .unchecked {
            let shares = StateShapeRule.shares(s.input, i, i + 1)
            for (view, share) in shares { #expect(share > 0.05, "\(view) \(share) at \(s.plan.items[i].variant.id)") }
        }
        // The surface inside the ring becomes the fill while the surface outside stays: not a recolouring.
        expectNotRecoloured(s, above: 0.4)
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
            #expect(f.message.contains("protanopia") && f.message.contains("deuteranopia"))
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
        #expect(findings.allSatisfy { $0.numbers.filter { $0.key.hasPrefix("share.") }.allSatisfy { $0.value == 0 } })
        #expect(findings.allSatisfy { $0.location?.keyPath == "images.useOffImageForClear" })
        #expect(findings.allSatisfy { $0.message.hasSuffix("(both draw the off image: useOffImageForClear is true)") })
    }

    @Test("three-state images with useOffImageForClear false and a minus image: every pair passes")
    func minusImage() throws {
        let s = try AuditScene(Self.threeState(useOffImageForClear: false), files: Self.images)
        #expect(s.run(rule).isEmpty)
        expectNotRecoloured(s)
    }

    @Test("a switch whose knob moves from left to right, colours unchanged, passes")
    func knobMoves() throws {
        let s = try AuditScene("""
        { "name": "sw", "control": "switch", "sizes": { "md": { "trackWidth": 51, "trackHeight": 31, "knobDiameter": 27 } },
          "states": ["off", "on"], "scales": [1, 2, 3], "dynamicTypeSizes": ["L"],
          "themes": { "default": { "surface": "#FFFFFF", "trackOff": "#767676", "trackOn": "#767676", "knob": "#FFFFFF" } } }
        """)
        #expect(s.run(rule).isEmpty)
        let shares = StateShapeRule.shares(s.input, 0, 1)
        for (view, share) in shares { #expect(share > 0.2, "\(view)") }
        expectNotRecoloured(s, above: 0.5)
    }

    @Test("a filled box: checked (tick) vs mixed (dash) passes at @2x and @3x, and is never a recolouring")
    func tickVersusDash() throws {
        let s = try AuditScene(SpecText.checkbox(states: ["checked", "mixed"],
            appearance: ##"{ "checked": { "ring": false, "fill": true, "mark": "check" }, "mixed": { "ring": false, "fill": true, "mark": "dash" } }"##,
            theme: ##"{ "surface": "#FFFFFF", "fill": "#007AFF", "mark": "#FFFFFF" }"##,
            size: ##"{ "size": 20, "cornerRadius": 4, "borderWidth": 1.5, "markSize": 12, "markWeight": 2 }"##))
        #expect(s.run(rule).allSatisfy { $0.variant.hasSuffix("@1x") })
        // Lowest at xS @1x (a 10 px mark in a 17 px box): 0.047, over twice the 2 % tolerance.
        expectNotRecoloured(s, above: 0.04)
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
                // The faint #ECECEC edge falls below the boundary threshold, so the boundaries alone
                // seem to change (the old rule passed this); the colour mapping is what catches it.
                #expect(StructureMap.views.allSatisfy { f.numbers["share.\($0.rawValue)"]! >= 0.025 }, "\(f.message)")
                #expect(f.numbers["inconsistentShare"] == 0)
                #expect(f.message.hasPrefix("unchecked vs checked: only the colours change, so the shape is the same in every view; "
                                            + "fails in greyscale, protanopia, deuteranopia, tritanopia (each colour"), "\(f.message)")
                #expect(f.message.contains("0% of the edge pixels break that mapping, under the 2% that makes a change of shape"))
            }
            // recolourTolerance 0 turns the check off, and the boundaries alone pass the pair.
            #expect(s.run(rule, ["recolourTolerance": 0]).isEmpty)
        }
    }

    @Test("a hollow box that fills is not a recolouring at any size: the surface outside stays, the inside fills")
    func hollowToFilledLarge() throws {
        // 44 pt at AX5 and @3x: a 400 px box with its 2 px margin of surface. Measured on the edge
        // pixels, not the ink, the broken mapping does not shrink as the box grows.
        let s = try AuditScene(SpecText.checkbox(
            appearance: ##"{ "unchecked": { "ring": true, "fill": false, "mark": "none" }, "checked": { "ring": true, "fill": true, "mark": "none" } }"##,
            theme: ##"{ "surface": "#FFFFFF", "border": "#000000", "fill": "#007AFF" }"##,
            size: ##"{ "size": 44, "cornerRadius": 3, "borderWidth": 1 }"##))
        expectNotRecoloured(s, above: 0.2)
        #expect(s.run(rule).allSatisfy { !$0.message.contains("only the colours change") })
    }

    @Test("the threshold is configurable: at minimumShare 1 even a real shape change fails")
    func configurableThreshold() throws {
        let s = try AuditScene(SpecText.checkbox(
            appearance: ##"{ "unchecked": { "ring": true, "fill": false, "mark": "none" }, "checked": { "ring": false, "fill": true, "mark": "check" } }"##,
            theme: ##"{ "surface": "#FFFFFF", "border": "#767676", "fill": "#007AFF", "mark": "#FFFFFF" }"##, scales: [2], sizes: ["L"]))
        #expect(s.run(rule).isEmpty)
        let strict = s.run(rule, ["minimumShare": 1])
        #expect(strict.count == 1)
        #expect(strict.first?.numbers["minimumShare"] == 1)
    }

    @Test("a share just under a configured threshold is printed under it, never equal to it")
    func shareJustUnderThreshold() throws {
        let s = try AuditScene(SpecText.checkbox(
            appearance: ##"{ "unchecked": { "ring": true, "fill": false, "mark": "none" }, "checked": { "ring": true, "fill": false, "mark": "check" } }"##,
            theme: ##"{ "surface": "#FFFFFF", "border": "#000000", "mark": "#000000" }"##, scales: [2], sizes: ["L"]))
        let shares = StateShapeRule.shares(s.input, 0, 1)
        let (view, lowest) = try #require(shares.min { $0.value < $1.value })
        #expect(lowest > 0.02)
        // A threshold a hair above the lowest share: both would show as the same one-decimal percentage.
        let minimum = lowest + 1e-6
        let f = try #require(s.run(rule, ["minimumShare": minimum]).first)
        #expect(f.values["failingViews"]!.split(separator: ",").contains(Substring(view.rawValue)))
        let shownThreshold = Format.thresholdPercent(minimum)
        #expect(f.message.contains("needs \(shownThreshold) in every view"), "\(f.message)")
        let part = try #require(f.message.components(separatedBy: "\(view.rawValue) ").dropFirst().first)
        let shown = try #require(Double(part.prefix { $0 != "%" }))
        #expect(shown < Double(shownThreshold.dropLast())!, "\(f.message)")
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
