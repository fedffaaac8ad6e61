import Foundation
import Testing
import GlyphColor
import GlyphCore
import GlyphRaster
import GlyphRender
import GlyphTestSupport
import GlyphRenderTestSupport

/// Switches as designed: a knob per state, a knob border, marks on the track and in the knob, iOS's
/// On/Off Labels — read back from the pixels against their geometry, computed by hand.
@Suite("Switch parts: knobs per state, knob borders, track and knob marks, On/Off Labels")
struct SwitchPartsTests {
    /// Material 3's switch geometry (material-web `_md-comp-switch.scss`: 52 × 32 px track, 2 px
    /// outline unselected, handle 16 px unselected and 24 px selected), in colours that make coverage
    /// readable: a white knob on a black track, so a pixel's red channel is the knob's coverage.
    static func m3(_ extra: String = "", knobBorder: String = "0", scales: String = "[2]", theme: String = "") -> String {
        """
        {"name": "m3", "control": "switch",
         "sizes": {"md": {"trackWidth": 52, "trackHeight": 32, "knobDiameter": {"off": 16, "on": 24}, "knobInset": {"off": 8, "on": 4},
                          "borderWidth": {"off": 2, "on": 0}, "knobBorderWidth": \(knobBorder)}},
         "states": ["off", "on"], "scales": \(scales), "dynamicTypeSizes": ["L"]\(extra),
         "themes": {"default": {"surface": "#FFFFFF", "trackOff": "#000000", "trackOn": "#000000", "knob": "#FFFFFF", "border": "#000000",
                                "knobBorder": "#FF0000", "mark": "#FF0000"\(theme)}}}
        """
    }

    func raster(_ json: String, _ id: String) throws -> (Layout, Raster) {
        let spec = try loadSpec(json).get()
        let v = try #require(spec.variants().first { $0.id == id }, "no variant \(id)")
        let layout = try Layout(spec: spec, variant: v)
        return (layout, Renderer.raster(layout, spec: spec))
    }

    /// Sums `weight(colour)` over the pixels within `radius` pt of (`cx`, `cy`) pt (relative to the
    /// track's top left); returns the sum in square points and its centroid in points.
    func coverage(_ layout: Layout, _ r: Raster, scale s: Double, cx: Double, cy: Double, radius: Double,
                  _ weight: (RGBA) -> Double) -> (area: Double, x: Double, y: Double) {
        let g = layout.glyph
        var area = 0.0, mx = 0.0, my = 0.0
        for y in Int((g.minY + cy - radius) * s)..<Int((g.minY + cy + radius) * s) {
            for x in Int((g.minX + cx - radius) * s)..<Int((g.minX + cx + radius) * s) {
                let px = (Double(x) + 0.5) / s - g.minX, py = (Double(y) + 0.5) / s - g.minY
                guard (px - cx) * (px - cx) + (py - cy) * (py - cy) < radius * radius else { continue }
                let c = weight(r.color(x, y))
                area += c
                mx += c * px
                my += c * py
            }
        }
        return (area / (s * s), mx / max(area, 1e-9), my / max(area, 1e-9))
    }

    @Test("Material 3 @2x: the off handle covers π·(8 pt)² centred 16 pt from the leading end; the on handle π·(12 pt)² centred 36 pt")
    func m3Handle() throws {
        let (off, ro) = try raster(Self.m3(), "m3/switch-md/L/default/off@2x")
        // Off: inset 8 + radius 8 = 16 pt from the track's leading end, on its middle line.
        let a = coverage(off, ro, scale: 2, cx: 16, cy: 16, radius: 11) { $0.r }
        #expect(abs(a.area - .pi * 64) <= 0.02 * .pi * 64, "off handle \(a.area) pt², expected \(Double.pi * 64)")
        #expect(abs(a.x - 16) < 0.05 && abs(a.y - 16) < 0.05, "off centroid (\(a.x), \(a.y))")
        let (on, rn) = try raster(Self.m3(), "m3/switch-md/L/default/on@2x")
        // On: 52 − inset 4 − radius 12 = 36 pt.
        let b = coverage(on, rn, scale: 2, cx: 36, cy: 16, radius: 14) { $0.r }
        #expect(abs(b.area - .pi * 144) <= 0.02 * .pi * 144, "on handle \(b.area) pt², expected \(Double.pi * 144)")
        #expect(abs(b.x - 36) < 0.05 && abs(b.y - 16) < 0.05, "on centroid (\(b.x), \(b.y))")
        // The track's outline is drawn off (2 pt: the pixel at the top middle of the track is the
        // border), and not on; both black here, so read the layout: 2 pt off, none on.
        #expect(off.borderWidth == 2 && on.borderWidth == 0)
        #expect(on.knob == Rect(x: on.glyph.minX + 24, y: on.glyph.minY + 4, width: 24, height: 24))
    }

    @Test("A knob border of 2 pt on the 24 pt on handle is a ring of π·(12² − 10²) pt², drawn inside the knob's edge; none off")
    func knobBorderRing() throws {
        let json = Self.m3(knobBorder: ##"{"off": 0, "on": 2}"##)
        let (on, rn) = try raster(json, "m3/switch-md/L/default/on@2x")
        // Red ring over a white knob on a black track: red − green is the ring's coverage.
        let ring = coverage(on, rn, scale: 2, cx: 36, cy: 16, radius: 14) { $0.r - $0.g }
        let expected = Double.pi * (144 - 100)
        #expect(abs(ring.area - expected) <= 0.02 * expected, "ring \(ring.area) pt², expected \(expected)")
        // The knob keeps its 24 pt outline: the ring does not grow it.
        let knob = coverage(on, rn, scale: 2, cx: 36, cy: 16, radius: 14) { $0.r }
        #expect(abs(knob.area - .pi * 144) <= 0.02 * .pi * 144)
        let (off, ro) = try raster(json, "m3/switch-md/L/default/off@2x")
        #expect(coverage(off, ro, scale: 2, cx: 16, cy: 16, radius: 11) { $0.r - $0.g }.area < 0.5)
    }

    /// The ink box of the pixels `hit` accepts, in pixels relative to the track's top left.
    func inkBox(_ layout: Layout, _ r: Raster, scale s: Int, xRange: ClosedRange<Double>, _ hit: (RGBA) -> Bool) -> (Int, Int, Int, Int) {
        let g = layout.glyph
        let ox = Int(g.minX * Double(s)), oy = Int(g.minY * Double(s))
        var b = (x0: Int.max, y0: Int.max, x1: -1, y1: -1)
        for y in oy..<(oy + Int(g.height) * s) {
            for x in (ox + Int(xRange.lowerBound * Double(s)))..<(ox + Int(xRange.upperBound * Double(s))) where hit(r.color(x, y)) {
                b = (min(b.x0, x - ox), min(b.y0, y - oy), max(b.x1, x - ox + 1), max(b.y1, y - oy + 1))
            }
        }
        return b
    }

    @Test("A track mark is centred in the part of the track the knob leaves free; a knob mark in the knob, sized in % of it")
    func trackAndKnobMarks() throws {
        let json = Self.m3(##", "appearance": {"on": {"trackMark": {"kind": "dot", "size": 8}, "knobMark": {"kind": "dot", "size": "50%"}}, "off": {"trackMark": {"kind": "dot", "size": "25%"}}}"##)
        let red: (RGBA) -> Bool = { $0.r > 0.5 && $0.g < 0.5 }
        // On: the knob spans 24…48 pt, so the free part is 0…24 pt: an 8 pt dot centred at (12, 16)
        // covers x 8…16, y 12…20 pt = 16…32, 24…40 px at @2x.
        let (on, rn) = try raster(json, "m3/switch-md/L/default/on@2x")
        let t = inkBox(on, rn, scale: 2, xRange: 0...24, red)
        #expect(abs(t.0 - 16) <= 1 && abs(t.2 - 32) <= 1 && abs(t.1 - 24) <= 1 && abs(t.3 - 40) <= 1, "track dot \(t)")
        // The knob's dot: 50 % of 24 pt = 12 pt, centred at (36, 16): x 30…42, y 10…22 pt.
        let k = inkBox(on, rn, scale: 2, xRange: 24...52, red)
        #expect(abs(k.0 - 60) <= 1 && abs(k.2 - 84) <= 1 && abs(k.1 - 20) <= 1 && abs(k.3 - 44) <= 1, "knob dot \(k)")
        // Off: the 16 pt knob spans 8…24 pt, the free part 24…52: a dot of 25 % of the 32 pt track
        // (8 pt) centred at (38, 16): x 34…42 pt.
        let (off, ro) = try raster(json, "m3/switch-md/L/default/off@2x")
        let o = inkBox(off, ro, scale: 2, xRange: 24...52, red)
        #expect(abs(o.0 - 68) <= 1 && abs(o.2 - 84) <= 1 && abs(o.1 - 24) <= 1 && abs(o.3 - 40) <= 1, "off track dot \(o)")
    }

    @Test("Stroked marks on a switch: a tick in the knob is drawn by the checkbox's tick, 16 % of its side wide by default")
    func knobTick() throws {
        let json = Self.m3(##", "appearance": {"on": {"knobMark": {"kind": "check", "size": 16}}}"##)
        let spec = try loadSpec(json).get()
        let v = try #require(spec.variants().first { $0.id == "m3/switch-md/L/default/on@2x" })
        let scene = Scene(spec: spec, layout: try Layout(spec: spec, variant: v))
        let tick = try #require(scene.parts.first { $0.kind == .mark })
        #expect(tick.name == "knob tick" && tick.beneath == .knob && tick.role == .mark)
        #expect(tick.rect == Rect(x: scene.part(.knob)!.rect.midX - 8, y: scene.part(.knob)!.rect.midY - 8, width: 16, height: 16))
        #expect(abs(tick.lineWidth - 2.56) < 1e-9)
        // The tick's ink spans the 16 pt square's full width (as a checkbox's does): 32 px at @2x.
        let (layout, r) = try raster(json, "m3/switch-md/L/default/on@2x")
        let b = inkBox(layout, r, scale: 2, xRange: 24...52) { $0.r > 0.5 && $0.g < 0.5 }
        #expect(abs((b.2 - b.0) - 32) <= 1, "tick ink \(b)")
    }

    /// iOS's switch (51 × 31 pt, 27 pt knob at 2 pt) with On/Off Labels, on a black track and surface.
    static func ios(_ extra: String = "", theme: String = "") -> String {
        """
        {"name": "ios", "control": "switch", "onOffLabels": true\(extra),
         "sizes": {"md": {"trackWidth": 51, "trackHeight": 31, "knobDiameter": 27, "knobInset": 2}},
         "states": ["off", "on"], "scales": [2], "dynamicTypeSizes": ["L"],
         "themes": {"default": {"surface": "#000000", "trackOff": "#000000", "trackOn": "#000000", "knob": "#FFFFFF"\(theme)}}}
        """
    }

    @Test("On/Off Labels: the | is 1 × 10 pt centred 11 pt from the leading end, white; the ○ a 1 pt ring of radius 5 centred 12 pt from the trailing end, #B3B3B3")
    func onOffLabels() throws {
        let (on, rn) = try raster(Self.ios(), "ios/switch-md/L/default/on@2x")
        // The bar: x 10.5…11.5 pt, y 15.5 ± 5 pt → 21…23, 21…41 px; left of the knob (22…49 pt).
        let bar = inkBox(on, rn, scale: 2, xRange: 0...21) { $0.r > 0.5 }
        #expect(bar == (21, 21, 23, 41), "bar \(bar)")
        #expect(rn.color(Int(on.glyph.minX * 2) + 21, Int(on.glyph.minY * 2) + 30).hex == "#FFFFFF")
        // The ring: centred at 51 − 12 = 39 pt, outer radius 5.5 pt: x 33.5…44.5, y 10…21 pt.
        let (off, ro) = try raster(Self.ios(), "ios/switch-md/L/default/off@2x")
        let ring = inkBox(off, ro, scale: 2, xRange: 30...51) { $0.r > 0.35 }
        #expect(abs(ring.0 - 67) <= 1 && abs(ring.2 - 89) <= 1 && abs(ring.1 - 20) <= 1 && abs(ring.3 - 42) <= 1, "ring \(ring)")
        // Its top, where the 2 px stroke lies across whole pixels: the label colour #B3B3B3 (179).
        let top = ro.color(Int(off.glyph.minX * 2) + 78, Int(off.glyph.minY * 2) + 21)
        #expect(abs(top.r * 255 - 179) <= 12, "ring top \(top.hex)")
        // Its middle is the track.
        #expect(ro.color(Int(off.glyph.minX * 2) + 78, Int(off.glyph.minY * 2) + 31).hex == "#000000")
    }

    @Test("A theme's onLabel / offLabel colours the labels; a state's own trackMark replaces its label")
    func onOffLabelOverrides() throws {
        let (on, rn) = try raster(Self.ios(theme: ##", "onLabel": "#00FF00""##), "ios/switch-md/L/default/on@2x")
        #expect(rn.color(Int(on.glyph.minX * 2) + 21, Int(on.glyph.minY * 2) + 30).hex == "#00FF00")
        let json = Self.ios(##", "appearance": {"on": {"trackMark": {"kind": "dash", "color": "onLabel", "size": 6}}}"##)
        let (on2, rn2) = try raster(json, "ios/switch-md/L/default/on@2x")
        // The free part is 0…22 pt: the dash is centred at 11 pt, 6 pt long, horizontal: no 10 pt bar.
        let b = inkBox(on2, rn2, scale: 2, xRange: 0...21) { $0.r > 0.5 }
        #expect(b.3 - b.1 < 4, "a dash, not the bar: \(b)")
        #expect(abs((b.2 - b.0) - 12) <= 1, "\(b)")
    }

    @Test("A knob taller than its track: the hugging frame holds the knob, the track is centred in it")
    func knobTallerThanTrack() throws {
        let json = """
        {"name": "m2", "control": "switch", "sizes": {"md": {"trackWidth": 36, "trackHeight": 14, "knobDiameter": 20, "knobInset": 0}},
         "states": ["off", "on"], "scales": [1], "dynamicTypeSizes": ["L"],
         "themes": {"default": {"surface": "#FFFFFF", "trackOff": "#9E9E9E", "trackOn": "#9E9E9E", "knob": "#000000"}}}
        """
        let (l, r) = try raster(json, "m2/switch-md/L/default/on@1x")
        #expect(l.frame.height == 20 && l.frame.width == 36)
        #expect(l.glyph.height == 14 && l.glyph.midY == l.frame.midY)
        #expect(l.knob == Rect(x: l.frame.minX + 16, y: l.frame.minY, width: 20, height: 20))
        // The knob's top, 3 pt above the track, is drawn on the canvas.
        #expect(r.color(Int(l.knob!.midX), Int(l.frame.minY) + 1).hex == "#000000")
        #expect(l.hitArea == l.frame)
    }
}
