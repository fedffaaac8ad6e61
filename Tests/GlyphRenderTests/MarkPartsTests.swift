import Foundation
import Testing
import GlyphAudit
import GlyphColor
import GlyphCore
import GlyphRaster
import GlyphRender
import GlyphTestSupport
import GlyphRenderTestSupport

/// Radios and a design system's own tick, read back from the pixels against their geometry.
@Suite("Mark parts: dots, path marks, mark colour roles")
struct MarkPartsTests {
    /// Bootstrap 5.3's radio (`.form-check-input[type=radio]`, 1em = 16 px, border-radius 50%):
    /// checked is the `#0d6efd` fill and border with a white `circle r=2` in a `-4 -4 8 8` viewBox
    /// drawn `background-size: contain`: a dot 8 px across.
    static let radio = """
    {"name": "bs-radio", "control": "checkbox", "shapes": ["circle"],
     "sizes": {"md": {"size": 16, "borderWidth": 1, "dotSize": 8}},
     "states": ["unchecked", "checked"], "scales": [1, 2, 3], "dynamicTypeSizes": ["L"],
     "appearance": {"unchecked": {"ring": true, "fill": false, "mark": "none"},
                    "checked": {"ring": true, "fill": true, "mark": "dot"}},
     "themes": {"default": {"surface": "#FFFFFF", "border": "#DEE2E6", "fill": "#0D6EFD", "mark": "#FFFFFF",
                            "states": {"checked": {"border": "#0D6EFD"}}}}}
    """

    func raster(_ spec: Spec, _ id: String) throws -> (Layout, Raster) {
        let v = try #require(spec.variants().first { $0.id == id }, "no variant \(id)")
        let layout = try Layout(spec: spec, variant: v)
        return (layout, Renderer.raster(layout, spec: spec))
    }

    @Test("Bootstrap radio checked: the white dot covers π·(4 pt)² at every scale, centred in the disc", arguments: [1, 2, 3])
    func radioDot(scale: Int) throws {
        let spec = try loadSpec(Self.radio).get()
        let (layout, r) = try raster(spec, "bs-radio/circle-md/L/default/checked@\(scale)x")
        let s = Double(scale)
        // White over #0D6EFD: the red channel runs from 13/255 (fill) to 1 (dot), linear in coverage.
        let fillR = 13.0 / 255
        var area = 0.0, mx = 0.0, my = 0.0
        let g = layout.glyph
        for y in Int(g.minY * s)..<Int(g.maxY * s) {
            for x in Int(g.minX * s)..<Int(g.maxX * s) {
                let px = (Double(x) + 0.5) / s - g.midX, py = (Double(y) + 0.5) / s - g.midY
                guard px * px + py * py < 6 * 6 else { continue } // inside the disc, away from its edge
                let c = max(0, (r.color(x, y).r - fillR) / (1 - fillR))
                area += c
                mx += c * px
                my += c * py
            }
        }
        let expected = Double.pi * 4 * 4 * s * s
        #expect(abs(area - expected) <= 0.02 * expected, "dot area \(area) px², expected \(expected)")
        #expect(abs(mx / area) < 0.05 && abs(my / area) < 0.05, "centroid (\(mx / area), \(my / area)) pt")
        #expect(r.color(Int(g.midX * s), Int(g.midY * s)) == .white)
    }

    @Test("Bootstrap's tick `m6 10 3 3 6-6` (viewBox 0 0 20 20, stroke 3, round) fitted into a 16 pt box at @2x")
    func bootstrapTick() throws {
        let spec = try loadSpec("""
        {"name": "bs-check", "control": "checkbox", "sizes": {"md": {"size": 16, "cornerRadius": 0, "borderWidth": 1}},
         "states": ["checked"], "scales": [2], "dynamicTypeSizes": ["L"],
         "appearance": {"checked": {"ring": true, "fill": true,
            "mark": {"kind": "path", "d": "m6 10 3 3 6-6", "viewBox": "0 0 20 20", "stroke": 3, "lineCap": "round", "lineJoin": "round"}}},
         "themes": {"default": {"surface": "#FFFFFF", "border": "#0D6EFD", "fill": "#0D6EFD", "mark": "#FFFFFF"}}}
        """).get()
        let (layout, r) = try raster(spec, "bs-check/square-md/L/default/checked@2x")
        // The viewBox maps 20 → 16 pt (0.8): the polyline (4.8, 8) (7.2, 10.4) (12, 5.6) pt with a
        // 2.4 pt round stroke; its ink spans x 3.6…13.2 pt and y 4.4…11.6 pt of the box (× 2 in px).
        let ox = Int(layout.glyph.minX * 2), oy = Int(layout.glyph.minY * 2)
        var b = (x0: Int.max, y0: Int.max, x1: -1, y1: -1)
        for y in oy..<(oy + 32) {
            for x in ox..<(ox + 32) where r.color(x, y).r > 0.5 {
                b = (min(b.x0, x - ox), min(b.y0, y - oy), max(b.x1, x - ox + 1), max(b.y1, y - oy + 1))
            }
        }
        #expect(abs(b.x0 - 7) <= 1 && abs(b.x1 - 26) <= 1, "x \(b.x0)…\(b.x1) px")
        #expect(abs(b.y0 - 9) <= 1 && abs(b.y1 - 23) <= 1, "y \(b.y0)…\(b.y1) px")
        // The corner of the tick (7.2, 10.4) pt is white; the middle of the box's top-left quarter is fill.
        #expect(r.color(ox + 14, oy + 20).r > 0.95)
        #expect(r.color(ox + 6, oy + 6).r < 0.1)
    }

    /// A box filled and ringed in one colour is drawn as one layer: its outer edge is anti-aliased
    /// once, so every pixel equals that of the same box filled alone, within one level (drawn one over the other, an
    /// edge pixel of coverage c would show 1 − (1 − c)², darker than the browser's, which draws the
    /// background under its border once: Bootstrap's checked radio differed from Chromium's by 2.99 %
    /// of its pixels at @2x). With a ring of another colour, the outer edge is the ring's colour at
    /// the fill-alone coverage, and inside the ring the fill shows unchanged.
    @Test("A filled ring's outer edge is anti-aliased once", arguments: [1, 2, 3])
    func filledRingEdgeOnce(scale: Int) throws {
        func render(ring: Bool, border: String) throws -> (Layout, Raster) {
            let spec = try loadSpec("""
            {"name": "r", "control": "checkbox", "shapes": ["circle"], "sizes": {"md": {"size": 15.3, "borderWidth": 1.3}},
             "states": ["checked"], "scales": [\(scale)], "dynamicTypeSizes": ["L"],
             "appearance": {"checked": {"ring": \(ring), "fill": true, "mark": "none"}},
             "themes": {"default": {"surface": "#FFFFFF", "border": "\(border)", "fill": "#0D6EFD"}}}
            """).get()
            return try raster(spec, "r/circle-md/L/default/checked@\(scale)x")
        }
        let (_, alone) = try render(ring: false, border: "#0D6EFD")
        let (_, same) = try render(ring: true, border: "#0D6EFD")
        // Equal but for pixman's 8-bit rounding where the inside is painted over the same colour.
        let worst = zip(same.pixels, alone.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(same.pixels.count == alone.pixels.count && worst <= 1, "a ring in the fill's colour changed the filled disc by \(worst) levels")
        let (layout, dark) = try render(ring: true, border: "#000000")
        var edges = 0
        for y in 0..<alone.height {
            for x in 0..<alone.width {
                let a = alone.color(x, y), d = dark.color(x, y)
                // The fill-alone coverage of this pixel, from its red channel (#0D6EFD over white).
                let c = (1 - a.r) / (1 - 13.0 / 255)
                guard c > 0.05, c < 0.95 else { continue }
                let px = (Double(x) + 0.5) / Double(scale) - layout.glyph.midX, py = (Double(y) + 0.5) / Double(scale) - layout.glyph.midY
                guard (px * px + py * py).squareRoot() > 7 else { continue } // the outer edge, not the ring's inner one
                edges += 1
                // Black at coverage c over white: 1 − c, within one 8-bit level.
                #expect(abs(d.g - (1 - c)) <= 1.5 / 255, "(\(x), \(y)): \(d.hex), coverage \(c)")
            }
        }
        #expect(edges >= 8 * scale)
        let mid = (x: Int(layout.glyph.midX * Double(scale)), y: Int(layout.glyph.midY * Double(scale)))
        #expect(dark.color(mid.x, mid.y).hex == "#0D6EFD")
    }

    @Test("A dot in its own colour role: GOV.UK's radio dot is painted in the border colour")
    func dotRole() throws {
        let spec = try loadSpec("""
        {"name": "govuk-radio", "control": "checkbox", "shapes": ["circle"],
         "sizes": {"md": {"size": 40, "borderWidth": 2, "dotSize": 20}},
         "states": ["checked"], "scales": [1], "dynamicTypeSizes": ["L"],
         "appearance": {"checked": {"ring": true, "fill": false, "mark": {"kind": "dot", "color": "border"}}},
         "themes": {"default": {"surface": "#FFFFFF", "border": "#0B0C0C"}}}
        """).get()
        let (layout, r) = try raster(spec, "govuk-radio/circle-md/L/default/checked@1x")
        let c = r.color(Int(layout.glyph.midX), Int(layout.glyph.midY))
        #expect(c.hex == "#0B0C0C")
        // Between the 20 pt dot and the 2 pt ring: surface.
        #expect(r.color(Int(layout.glyph.midX) + 14, Int(layout.glyph.midY)) == .white)
    }

    @Test("nontext-contrast measures a dot against the fill it sits on, and names its colour key")
    func dotContrast() throws {
        let s = try AuditScene(Self.radio.replacingOccurrences(of: "\"mark\": \"#FFFFFF\"", with: "\"mark\": \"#3D8BFD\""))
        let dots = s.run(NonTextContrastRule()).filter { $0.subject == "dot on fill" }
        let f = try #require(dots.first, "no finding on the dot")
        // #3D8BFD on #0D6EFD: (0.2627 + 0.05) / (0.1715 + 0.05) by WCAG 2's relative luminance.
        let expected = (RGBA(hex: "#3D8BFD")!.relativeLuminance + 0.05) / (RGBA(hex: "#0D6EFD")!.relativeLuminance + 0.05)
        #expect(abs((f.numbers["ratio"] ?? 0) - expected) < 0.005)
        #expect(f.severity == .error)
        #expect(f.location?.keyPath == "themes.default.mark")
    }

    @Test("state-shape sees a dot that appears, and fails a dot that only changes colour")
    func stateShapeSeesTheDot() throws {
        let pass = try AuditScene(Self.radio)
        #expect(pass.run(StateShapeRule()).filter { $0.severity == .error }.isEmpty)
        let colourOnly = Self.radio
            .replacingOccurrences(of: "\"mark\": \"none\"", with: "\"mark\": \"dot\"")
            .replacingOccurrences(of: "\"ring\": true, \"fill\": false", with: "\"ring\": true, \"fill\": true")
            .replacingOccurrences(of: "\"states\": {\"checked\": {\"border\": \"#0D6EFD\"}}",
                                  with: "\"states\": {\"unchecked\": {\"fill\": \"#6C757D\", \"border\": \"#6C757D\"}, \"checked\": {\"border\": \"#0D6EFD\"}}")
        let fail = try AuditScene(colourOnly)
        #expect(!fail.run(StateShapeRule()).filter { $0.severity == .error }.isEmpty)
    }

    @Test("Bad marks are refused at their key", arguments: [
        (#"{"kind": "dot", "color": "shadow"}"#, "appearance.checked.mark.color", "unknown value \"shadow\""),
        (#"{"kind": "path", "d": "m6 10 #", "viewBox": "0 0 20 20"}"#, "appearance.checked.mark.d", "does not parse at character 7"),
        (#"{"kind": "path", "d": "m6 10 3 3 6-6"}"#, "appearance.checked.mark", "needs \"viewBox\""),
        (#"{"kind": "path", "d": "m6 10 3 3 6-6", "viewBox": "0 0 0 20"}"#, "appearance.checked.mark.viewBox", "positive width"),
        (#"{"kind": "dot", "stroke": 2}"#, "appearance.checked.mark.stroke", "is for a path mark"),
        (#"{"kind": "dot", "size": "150%"}"#, "appearance.checked.mark.size", "at most 100%"),
        (#""path""#, "appearance.checked.mark", "a path mark is an object"),
        (#"[{"kind": "dot"}, {"kind": "star"}]"#, "appearance.checked.mark[1].kind", "unknown value \"star\""),
    ])
    func badMarks(_ mark: String, _ key: String, _ message: String) {
        let json = """
        {"name": "bad", "control": "checkbox", "sizes": {"md": {"size": 16}}, "states": ["checked"],
         "appearance": {"checked": {"ring": true, "fill": true, "mark": \(mark)}},
         "themes": {"default": {"surface": "#FFFFFF", "border": "#000000", "fill": "#000000", "mark": "#FFFFFF"}}}
        """
        guard case .failure(let e) = loadSpec(json) else { Issue.record("\(mark) was accepted"); return }
        #expect(e.keyPath == key, "\(e)")
        #expect(e.message.contains(message), "\(e.message)")
        #expect(e.line == 2, "\(e)")
    }
}
