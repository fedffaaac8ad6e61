import Foundation
import Testing
import GlyphAudit
import GlyphColor
import GlyphCore
import GlyphRaster
import GlyphRender
import GlyphTestSupport
import GlyphRenderTestSupport

@Suite("Rendering: geometry read back from pixels")
struct RenderTests {
    func render(_ spec: Spec, _ id: String) throws -> (Layout, Raster) {
        let v = try #require(spec.variants().first { $0.id == id }, "no variant \(id)")
        let layout = try Layout(spec: spec, variant: v)
        return (layout, Renderer.raster(layout, spec: spec))
    }

    @Test("design-system md checked @1x: a 20 × 20 px red box with a 12 px tick centred in it")
    func checkedBox() throws {
        let spec = try Presets.load("design-system-checkbox")
        let (layout, r) = try render(spec, "design-system-checkbox/square-md/L/default/checked@1x")
        let red = try #require(r.bounds { $0.r > 0.7 && $0.g < 0.25 && $0.b < 0.25 })
        #expect(red.x1 - red.x0 == 20)
        #expect(red.y1 - red.y0 == 20)
        #expect(Double(red.x0) == layout.glyph.x && Double(red.y0) == layout.glyph.y)
        // The tick: white at 50 % coverage or more over the red fill, inside the box (the four
        // 4 × 4 px corners are left out: there the rounded fill's anti-aliased edge meets the white surface).
        var tick = (x0: Int.max, y0: Int.max, x1: -1, y1: -1)
        for y in red.y0..<red.y1 {
            for x in red.x0..<red.x1 where r.color(x, y).g > 0.5 {
                let corner = (x - red.x0 < 4 || red.x1 - x <= 4) && (y - red.y0 < 4 || red.y1 - y <= 4)
                if corner { continue }
                tick = (min(tick.x0, x), min(tick.y0, y), max(tick.x1, x + 1), max(tick.y1, y + 1))
            }
        }
        #expect(tick.x1 - tick.x0 == 12)
        #expect(tick.x0 - red.x0 == 4, "centred: 4 px either side")
        #expect(red.x1 - tick.x1 == 4)
        let top = tick.y0 - red.y0
        let bottom = red.y1 - tick.y1
        #expect(abs(top - bottom) <= 1, "vertically centred (\(top) vs \(bottom))")
    }

    @Test("design-system md unchecked @2x: the 1.5 pt ring is 3 px of border colour")
    func ring() throws {
        let spec = try Presets.load("design-system-checkbox")
        let (layout, r) = try render(spec, "design-system-checkbox/square-md/L/default/unchecked@2x")
        let x0 = Int(layout.glyph.x * 2)
        let y = Int(layout.glyph.midY * 2)
        let border = try #require(RGBA(hex: "#767676"))
        for dx in 0..<3 {
            #expect(r.color(x0 + dx, y) == border, "ring pixel \(dx)")
            #expect(r.color(x0 + 39 - dx, y) == border, "right ring pixel \(dx)")
        }
        #expect(r.color(x0 + 3, y) == .white)
        #expect(r.color(x0 - 1, y) == .white)
        #expect(r.color(x0 + 36, y) == .white)
        #expect(r.color(x0 + 40, y) == .white)
    }

    @Test("Dynamic Type point sizes equal the reference table, and scaling glyphs grow by pt(size)/pt(large)")
    func dynamicType() throws {
        let data = try Data(contentsOf: TestPaths.reference.appendingPathComponent("dynamic-type.json"))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let pt = try #require(json["pt"] as? [String: [String: Double]])
        #expect(pt.count == TextStyle.allCases.count)
        for style in TextStyle.allCases {
            let row = try #require(pt[style.rawValue], "\(style) missing from the reference")
            for size in DynamicTypeSize.allCases {
                let key = size.isAccessibilitySize ? "AX\(size.index - 6)" : size.rawValue
                #expect(style.points(size) == row[key], "\(style) \(key)")
            }
        }
        // The SwiftUI checkbox follows body: 22 pt at large.
        let spec = try Presets.load("swiftui-checkbox")
        for v in spec.variants() where v.theme == "default" && v.state == .unchecked && v.scale == 1 {
            let body = try #require(pt["body"])
            let key = v.dynamicType.isAccessibilitySize ? "AX\(v.dynamicType.index - 6)" : v.dynamicType.rawValue
            let expected = 22 * body[key]! / body["large"]!
            let layout = try Layout(spec: spec, variant: v)
            #expect(abs(layout.glyph.width - expected) < 1e-9, "\(v.id)")
            #expect(abs(layout.label!.points - body[key]!) < 1e-9)
        }
        // The design system's fixed frame: the glyph stays 20 pt while the label grows.
        let ds = try Presets.load("design-system-checkbox")
        let ax5 = try Layout(spec: ds, variant: ds.variants().first { $0.id == "design-system-checkbox/square-md/AX5/default/checked@1x" }!)
        #expect(ax5.glyph.width == 20)
        #expect(abs(ax5.label!.points - 16 * 53.0 / 17) < 1e-9)
    }

    let wide = ##"<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20" fill="#000"/></svg>"##

    func imageSpec(template: Bool = true) -> String {
        """
        { "name": "img", "control": "checkbox", "sizes": { "md": { "size": 44 } }, "frame": { "width": 44, "height": 44 },
          "images": { "on": "wide.svg", "off": "wide.svg", "template": \(template) }, "states": ["unchecked", "checked"], "scales": [1, 2],
          "themes": { "default": { "surface": "#FFFFFF", "tint": "#007AFF" } } }
        """
    }

    @Test("a wide image is aspect-fit and centred, never stretched, and a template is tinted")
    func aspectFit() throws {
        let spec = try loadSpec(imageSpec(), files: ["wide.svg": wide]).get()
        let (layout, r) = try render(spec, "img/square-md/L/default/checked@1x")
        let image = try #require(layout.image)
        #expect(image.width == 44 && image.height == 22)
        #expect(image.midX == layout.frame.midX && image.midY == layout.frame.midY)
        let blue = try #require(RGBA(hex: "#007AFF"))
        let ink = try #require(r.bounds { $0 == blue })
        #expect(ink.x1 - ink.x0 == 44)
        #expect(ink.y1 - ink.y0 == 22)
        #expect(Double(ink.y0) == layout.frame.y + 11)
        let (_, r2) = try render(spec, "img/square-md/L/default/checked@2x")
        let ink2 = try #require(r2.bounds { $0 == blue })
        #expect(ink2.x1 - ink2.x0 == 88 && ink2.y1 - ink2.y0 == 44)
    }

    @Test("an original-colour image keeps its colours; an empty image draws nothing")
    func originalAndEmpty() throws {
        let red = ##"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="#D32F2F"/></svg>"##
        let spec = try loadSpec(imageSpec(template: false), files: ["wide.svg": red]).get()
        let (layout, r) = try render(spec, "img/square-md/L/default/checked@1x")
        #expect(r.color(Int(layout.frame.midX), Int(layout.frame.midY)) == RGBA(hex: "#D32F2F"))
        let empty = ##"<svg xmlns="http://www.w3.org/2000/svg" width="0" height="0"></svg>"##
        let none = try loadSpec(imageSpec(), files: ["wide.svg": empty]).get()
        let (_, blank) = try render(none, "img/square-md/L/default/checked@1x")
        #expect(blank.bounds { $0 != .white } == nil)
    }

    @Test("the switch knob sits at the leading end when off and the trailing end when on")
    func switchKnob() throws {
        let spec = try Presets.load("swiftui-switch")
        let (off, _) = try render(spec, "swiftui-switch/switch-md/L/default/off@1x")
        let (on, _) = try render(spec, "swiftui-switch/switch-md/L/default/on@1x")
        #expect(off.glyph.width == 51 && off.glyph.height == 31)
        #expect(off.knob!.minX - off.glyph.minX == 2)
        #expect(on.glyph.maxX - on.knob!.maxX == 2)
        #expect(off.knob!.width == 27)
    }

    @Test("a label wider than its maxWidth is cut at it; a leading label no longer runs under the glyph")
    func labelMaxWidth() throws {
        let json = """
        { "name": "lead", "control": "switch", "sizes": { "md": { "trackWidth": 51, "trackHeight": 31 } },
          "label": { "text": "Enable notifications for everything", "maxWidth": 60, "position": "leading" },
          "states": ["on"], "scales": [1, 2], "dynamicTypeSizes": ["L"],
          "themes": { "default": { "surface": "#FFFFFF", "trackOff": "#8E8E93", "trackOn": "#34C759", "knob": "#FFFFFF", "label": "#000000" } } }
        """
        let spec = try loadSpec(json).get()
        let whole = try loadSpec(json.replacingOccurrences(of: #", "maxWidth": 60"#, with: "")).get()
        for scale in [1, 2] {
            let (layout, r) = try render(spec, "lead/switch-md/L/default/on@\(scale)x")
            let label = try #require(layout.label)
            // Margin 4, the label cut to 60 pt, 8 pt spacing, the 51 pt track, margin 4.
            #expect(label.frame == Rect(x: 4, y: label.box.y, width: 60, height: label.box.height))
            #expect(label.clip == label.frame)
            #expect(layout.glyph.minX == 72)
            #expect(layout.canvas.width == 127)
            #expect(label.ink.maxX > 150, "the text's own ink is much wider than 60 pt")
            // Text (dark pixels) left of 64 pt, none from 64 pt on: the track and knob are green and white.
            let dark: (RGBA) -> Bool = { $0.r < 0.5 && $0.g < 0.5 && $0.b < 0.5 }
            let ink = try #require(r.bounds(where: dark))
            #expect(ink.x0 >= 4 * scale)
            #expect(ink.x1 <= 64 * scale, "text drawn beyond the maximum width at @\(scale)x: \(ink)")
            // The label alone, against the same label drawn whole (it stands at the same place): the same
            // pixels up to the cut at 64 pt, nothing after it.
            let cut = Renderer.raster(layout, spec: spec, parts: [.label])
            let wholeLayout = try Layout(spec: whole, variant: layout.variant)
            #expect(wholeLayout.label?.box == label.box)
            let full = Renderer.raster(wholeLayout, spec: whole, parts: [.label])
            var same = true, after = 0, before = 0
            for y in 0..<cut.height {
                for x in 0..<cut.width {
                    if x < 64 * scale {
                        if cut.color(x, y) != full.color(x, y) { same = false }
                        if cut.color(x, y).a > 0 { before += 1 }
                    } else if cut.color(x, y).a > 0 {
                        after += 1
                    }
                }
            }
            #expect(same && before > 0, "the label is drawn unchanged up to its maximum width")
            #expect(after == 0, "\(after) label pixels beyond the maximum width")
            #expect(full.bounds { $0.a > 0 }!.x1 > 150 * scale, "drawn whole, the text is much wider")
        }
        // The clipping audit measures the text's own width against the frame, so it still reports the cut.
        let scene = try AuditScene(json)
        let f = try #require(scene.run(ClippingRule()).first { $0.subject == "label" })
        let label = try #require(scene.plan.items[0].layout.label)
        #expect(abs(f.numbers["right"]! - (label.ink.maxX - 64)) < 1e-9)
        #expect(f.message.contains("its 60.0 pt maximum width"))
    }

    @Test("a switch's ring: borderWidth 2 draws 2 px of border colour inside the track at @1x")
    func switchRing() throws {
        let spec = try loadSpec("""
        { "name": "sw", "control": "switch", "sizes": { "md": { "trackWidth": 51, "trackHeight": 31, "borderWidth": 2 } },
          "states": ["off"], "scales": [1], "dynamicTypeSizes": ["L"],
          "themes": { "default": { "surface": "#FFFFFF", "trackOff": "#FFFFFF", "knob": "#34C759", "border": "#000000" } } }
        """).get()
        let (layout, r) = try render(spec, "sw/switch-md/L/default/off@1x")
        let x = Int(layout.glyph.midX), y0 = Int(layout.glyph.minY), y1 = Int(layout.glyph.maxY)
        #expect(r.color(x, y0) == .black && r.color(x, y0 + 1) == .black)
        #expect(r.color(x, y0 + 2) == .white && r.color(x, y0 - 1) == .white)
        #expect(r.color(x, y1 - 1) == .black && r.color(x, y1 - 2) == .black && r.color(x, y1 - 3) == .white)
    }

    @Test("PNG encode and decode round-trip exactly, with and without alpha")
    func pngRoundTrip() throws {
        var pixels: [UInt8] = []
        for i in 0..<(7 * 5) { pixels += [UInt8(i * 7 % 256), UInt8(i * 13 % 256), UInt8(i * 29 % 256), UInt8(i % 3 == 0 ? 255 : i * 5)] }
        let r = Raster(width: 7, height: 5, pixels: pixels)
        #expect(try Raster(pngData: r.pngData()) == r)
        #expect(try Raster(pngData: r.pngData(.small)) == r)
        let opaque = Raster(width: 3, height: 2, fill: RGBA(hex: "#123456")!)
        #expect(try Raster(pngData: opaque.pngData()) == opaque)
        #expect(throws: PNGError.self) { try Raster(pngData: Data()) }
        #expect(throws: PNGError.self) { try Raster(pngData: Data("not a png".utf8)) }
        let whole = try r.pngData()
        #expect(throws: PNGError.self) { try Raster(pngData: whole.prefix(whole.count / 2)) }
    }

    @Test("output is byte-identical between runs and for any number of jobs")
    func determinism() throws {
        let specs = try Presets.names.map { try Presets.load($0) }
        var filter = VariantFilter()
        try filter.add("dynamic-type=xS,L,AX5")
        let plan = try Plan(specs: specs, filter: filter)
        let one = plan.renderAll(jobs: 1).map { try! $0.pngData() }
        let two = plan.renderAll(jobs: 2).map { try! $0.pngData() }
        let eight = plan.renderAll(jobs: 8).map { try! $0.pngData() }
        #expect(one.count == plan.items.count && one.count > 400)
        #expect(one == two)
        #expect(one == eight)
        for item in plan.items.prefix(40) {
            for format in VectorFormat.allCases {
                let a = Renderer.vector(item.layout, spec: item.spec, format: format)
                let b = Renderer.vector(item.layout, spec: item.spec, format: format)
                #expect(a == b, "\(item.variant.id) \(format)")
            }
        }
    }

    @Test("SVG and PDF come out in points with the canvas size of the PNG at @1x")
    func vector() throws {
        let spec = try Presets.load("design-system-checkbox")
        let (layout, r) = try render(spec, "design-system-checkbox/circle-sm/L/inverse/checked@1x")
        let svg = String(decoding: Renderer.vector(layout, spec: spec, format: .svg), as: UTF8.self)
        #expect(svg.contains(#"width="\#(r.width)pt" height="\#(r.height)pt""#))
        let pdf = Renderer.vector(layout, spec: spec, format: .pdf)
        #expect(pdf.starts(with: Data("%PDF-".utf8)))
        #expect(String(decoding: pdf, as: UTF8.self).contains("/MediaBox [ 0 0 \(r.width) \(r.height) ]"))
    }
}
