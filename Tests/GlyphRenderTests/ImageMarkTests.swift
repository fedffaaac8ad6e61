import Foundation
import Testing
@testable import GlyphAudit
import GlyphColor
import GlyphCore
import GlyphPipeline
import GlyphRaster
import GlyphRender
import GlyphTestSupport
import GlyphRenderTestSupport

/// Image marks on a drawn box: Primer's own checkmark and dash (its mask images, mask-size 75%)
/// painted in fgColor.onEmphasis, read back from the pixels against the path's geometry.
@Suite("Image marks on a drawn box")
struct ImageMarkTests {
    static let primer = TestPaths.fixture("designsystems/primer-checkbox/spec.json")

    func raster(_ spec: Spec, _ id: String) throws -> (Layout, Raster) {
        let v = try #require(spec.variants().first { $0.id == id }, "no variant \(id)")
        let layout = try Layout(spec: spec, variant: v)
        return (layout, Renderer.raster(layout, spec: spec))
    }

    /// The pixel box (relative to the glyph's box) of the pixels that pass `test`, 1 pt inside the
    /// box (clear of its rounded corners, where the surface shows).
    func inkBox(_ r: Raster, _ layout: Layout, scale: Int, where test: (RGBA) -> Bool) -> (x0: Int, y0: Int, x1: Int, y1: Int) {
        let s = Double(scale)
        let ox = Int(layout.glyph.minX * s), oy = Int(layout.glyph.minY * s), side = Int(layout.glyph.width * s)
        var b = (x0: Int.max, y0: Int.max, x1: -1, y1: -1)
        for y in (oy + scale)..<(oy + side - scale) {
            for x in (ox + scale)..<(ox + side - scale) where test(r.color(x, y)) {
                b = (min(b.x0, x - ox), min(b.y0, y - oy), max(b.x1, x - ox + 1), max(b.y1, y - oy + 1))
            }
        }
        return b
    }

    @Test("Primer's checkmark lands where mask-size 75% puts it: x 2…14 pt, y 3.5…12.26 pt of the 16 pt box at @2x, within 1 px",
          arguments: ["light", "dark"])
    func primerTickGeometry(theme: String) throws {
        let spec = try Spec.load(contentsOf: Self.primer)
        let (layout, r) = try raster(spec, "primer-checkbox/square-md/L/\(theme)/checked@2x")
        #expect(layout.glyph.width == 16)
        // The path's analytic bounds in its 12 × 9 viewBox: x -0.0033…12, y 0…8.76. Fitted into the
        // 12 pt square centred in the box (75% of 16) it is 12 × 9 pt at (2, 3.5): ink x 2…14 pt,
        // y 3.5…12.26 pt, × 2 in pixels. Pixels more than half white against the fill are the tick.
        let b = inkBox(r, layout, scale: 2) { $0.r > 0.6 && $0.b > 0.9 && $0.g > 0.6 }
        #expect(abs(b.x0 - 4) <= 1 && abs(b.x1 - 28) <= 1, "x \(b.x0)…\(b.x1) px")
        #expect(abs(b.y0 - 7) <= 1 && abs(Double(b.y1) - 24.52) <= 1, "y \(b.y0)…\(b.y1) px")
    }

    @Test("Primer's dark checked tick is white (#FFFFFF, fgColor.onEmphasis), not the #0D1117 surface")
    func primerDarkTickIsWhite() throws {
        let spec = try Spec.load(contentsOf: Self.primer)
        let (layout, r) = try raster(spec, "primer-checkbox/square-md/L/dark/checked@2x")
        let ox = Int(layout.glyph.minX * 2), oy = Int(layout.glyph.minY * 2)
        // The middle of the tick's long arm: between its edges (3.99, 6.95)–(10.72, 0.22) and
        // (4.52, 8.54)–(11.78, 1.28) of the viewBox, 1.5 pt apart: (7.75, 4.25) → (9.75, 7.75) pt in
        // the box → pixel (19, 15) at @2x, 1.5 px from either edge: fully covered.
        #expect(r.color(ox + 19, oy + 15).hex == "#FFFFFF")
        // The fill around it is dark.control.checked.bgColor.rest, and no pixel in the box is the surface.
        #expect(r.color(ox + 6, oy + 26).hex == "#1F6FEB")
        var surface = 0
        for y in (oy + 2)..<(oy + 30) { for x in (ox + 2)..<(ox + 30) where r.color(x, y).hex == "#0D1117" { surface += 1 } }
        #expect(surface == 0)
    }

    @Test("Primer's dash: 12 × 2.4 pt at (2, 6.8) of the box (10 × 2 viewBox fitted into 75%), at @2x within 1 px")
    func primerDash() throws {
        let spec = try Spec.load(contentsOf: Self.primer)
        let (layout, r) = try raster(spec, "primer-checkbox/square-md/L/light/mixed@2x")
        let b = inkBox(r, layout, scale: 2) { $0.r > 0.5 && $0.g > 0.7 }
        #expect(abs(b.x0 - 4) <= 1 && abs(b.x1 - 28) <= 1, "x \(b.x0)…\(b.x1) px")
        #expect(abs(Double(b.y0) - 13.6) <= 1 && abs(Double(b.y1) - 18.4) <= 1, "y \(b.y0)…\(b.y1) px")
    }

    @Test("Primer audits as drawn: state-shape passes, nontext-contrast has no error (WCAG ratios ≥ 3.45:1)")
    func primerVerdicts() throws {
        let spec = try Spec.load(contentsOf: Self.primer)
        let plan = try Plan(specs: [spec], filter: VariantFilter())
        let input = AuditInput(plan: plan, rasters: plan.renderAll(jobs: 2), jobs: 2)
        func run<R: AuditRule>(_ rule: R) -> [Finding] { rule.checkWhole(input, RuleOptions(parameters: rule.parameters, values: [:])) }
        #expect(run(StateShapeRule()).filter { $0.severity == .error }.isEmpty)
        let contrast = run(NonTextContrastRule())
        #expect(contrast.filter { $0.severity == .error }.isEmpty, "\(contrast.map(\.message))")
        #expect(run(ClippingRule()).filter { $0.severity == .error }.isEmpty)
        // The tick is measured as a mark on the fill: white on #1F6FEB is 4.634:1 in dark mode.
        let scene = try #require(plan.items.first { $0.variant.id == "primer-checkbox/square-md/L/dark/checked@2x" }?.scene)
        let tick = try #require(scene.parts.first { $0.kind == .mark })
        #expect(tick.name == "image mark" && tick.color?.authored.hex == "#FFFFFF" && scene.beneath(tick)?.kind == .fill)
        let ratio = ContrastCheck.ratio(tick.color!, on: scene.beneath(tick)!.color!)
        #expect(abs(ratio - 4.634) < 0.001)
    }

    static let square = ##"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="#00A000"/></svg>"##

    static func boxSpec(_ mark: String, fill: String = "#1565C0", markColor: String = "#FFFFFF") -> String {
        """
        {"name": "im", "control": "checkbox", "sizes": {"md": {"size": 20, "cornerRadius": 0, "borderWidth": 1}},
         "states": ["unchecked", "checked"], "scales": [2], "dynamicTypeSizes": ["L"],
         "appearance": {"unchecked": {"ring": true, "fill": false},
                        "checked": {"ring": false, "fill": true, "mark": \(mark)}},
         "themes": {"default": {"surface": "#FFFFFF", "border": "#333333", "fill": "\(fill)", "mark": "\(markColor)"}}}
        """
    }

    @Test("A template image mark is painted in its colour role; template false keeps its own colours")
    func templateTint() throws {
        let tinted = try loadSpec(Self.boxSpec(#"{"kind": "image", "image": "sq.svg", "color": "border", "size": "50%"}"#),
                                               files: ["sq.svg": Self.square]).get()
        let (l1, r1) = try raster(tinted, "im/square-md/L/default/checked@2x")
        #expect(r1.color(Int(l1.glyph.midX * 2), Int(l1.glyph.midY * 2)).hex == "#333333")
        // 50% of 20 pt: a 10 pt square centred; 1 pt outside it is the fill.
        #expect(r1.color(Int((l1.glyph.minX + 4) * 2), Int(l1.glyph.midY * 2)).hex == "#1565C0")
        #expect(r1.color(Int((l1.glyph.minX + 6) * 2), Int(l1.glyph.midY * 2)).hex == "#333333")
        let own = try loadSpec(Self.boxSpec(#"{"kind": "image", "image": "sq.svg", "template": false, "size": "50%"}"#),
                                            files: ["sq.svg": Self.square]).get()
        let (l2, r2) = try raster(own, "im/square-md/L/default/checked@2x")
        #expect(r2.color(Int(l2.glyph.midX * 2), Int(l2.glyph.midY * 2)).hex == "#00A000")
    }

    @Test("An image mark draws as vectors in SVG and PDF output (no embedded bitmap)")
    func vectorOutput() throws {
        let spec = try Spec.load(contentsOf: Self.primer)
        let v = try #require(spec.variants().first { $0.id == "primer-checkbox/square-md/L/dark/checked@2x" })
        let layout = try Layout(spec: spec, variant: v)
        let svg = String(decoding: Renderer.vector(layout, spec: spec, format: .svg), as: UTF8.self)
        #expect(!svg.contains("<image"), "the SVG embeds a bitmap")
        #expect(svg.contains("<path"))
        let pdf = Renderer.vector(layout, spec: spec, format: .pdf)
        #expect(!String(decoding: pdf, as: UTF8.self).contains("/Subtype /Image"), "the PDF embeds a bitmap")
    }

    @Test("nontext-contrast: a template image mark is measured in its colour against the fill (WCAG ratio)")
    func templateContrast() throws {
        let s = try AuditScene(Self.boxSpec(#"{"kind": "image", "image": "sq.svg", "size": "50%"}"#, markColor: "#3D8BFD"),
                               files: ["sq.svg": Self.square])
        let f = try #require(s.run(NonTextContrastRule()).first { $0.subject == "image mark on fill" })
        let expected = (RGBA(hex: "#3D8BFD")!.relativeLuminance + 0.05) / (RGBA(hex: "#1565C0")!.relativeLuminance + 0.05)
        #expect(abs((f.numbers["ratio"] ?? 0) - expected) < 0.005)
        #expect(f.severity == .error && f.location?.keyPath == "themes.default.mark")
    }

    @Test("nontext-contrast: an image mark in its own colours is measured on its pixels against the fill")
    func ownColourContrast() throws {
        func svg(_ c: String) -> String { Self.square.replacingOccurrences(of: "#00A000", with: c) }
        let mark = #"{"kind": "image", "image": "sq.svg", "template": false, "size": "50%"}"#
        let faint = try AuditScene(Self.boxSpec(mark), files: ["sq.svg": svg("#1A6FD0")])
        let f = try #require(faint.run(NonTextContrastRule()).first { $0.subject == "image mark on fill" })
        // #1A6FD0 on #1565C0: 1.16:1; no pixel reaches 3:1.
        #expect(f.severity == .error && f.numbers["outlineShare"] == 0)
        #expect(abs(f.numbers["bestPixelRatio"]! - contrastRatio(RGBA(hex: "#1A6FD0")!, RGBA(hex: "#1565C0")!)) < 0.01)
        #expect(f.location?.keyPath == "appearance.checked.mark.image")
        let white = try AuditScene(Self.boxSpec(mark), files: ["sq.svg": svg("#FFFFFF")])
        #expect(white.run(NonTextContrastRule()).filter { $0.subject.hasPrefix("image mark") }.isEmpty)
    }

    @Test("An image a mark cannot use is bad input at the mark's key", arguments: [
        (#"[{"kind": "image", "image": "missing.svg"}]"#, "appearance.checked.mark[0].image", "not found"),
        (#"{"kind": "image", "image": "../outside.svg"}"#, "appearance.checked.mark.image", "lies outside"),
        (#"{"kind": "image", "image": "broken.svg"}"#, "appearance.checked.mark.image", "broken.svg"),
        (#"{"kind": "image", "image": "sub"}"#, "appearance.checked.mark.image", "is a folder"),
        (#"{"kind": "image"}"#, "appearance.checked.mark", "needs \"image\""),
        (#""image""#, "appearance.checked.mark", "an image mark is an object"),
        (#"{"kind": "dot", "image": "sq.svg"}"#, "appearance.checked.mark.image", "is for an image mark"),
        (#"{"kind": "path", "d": "m0 0 1 1", "viewBox": "0 0 2 2", "template": false}"#, "appearance.checked.mark.template", "is for an image mark"),
        (#"{"kind": "image", "image": "sq.svg", "template": false, "color": "mark"}"#, "appearance.checked.mark.color", "drawn in its own colours"),
        (#"{"kind": "image", "image": "sq.svg", "template": "yes"}"#, "appearance.checked.mark.template", "expected"),
    ])
    func badImageMarks(_ mark: String, _ key: String, _ message: String) {
        let folder = TempFolder()
        folder.write("sub/x.svg", Self.square)
        let json = Self.boxSpec(mark)
        guard case .failure(let e) = loadSpec(json, files: ["sq.svg": Self.square, "broken.svg": "<svg"], in: folder) else {
            Issue.record("\(mark) was accepted")
            return
        }
        #expect(e.keyPath == key, "\(e)")
        #expect(e.message.contains(message), "\(e.message)")
        #expect(e.line == 4, "\(e)")
    }

    @Test("`assets` is allowed with image marks: a mark's image may come from an asset root")
    func assetRoots() throws {
        let folder = TempFolder()
        folder.write("icons/sq.svg", Self.square)
        let json = Self.boxSpec(#"{"kind": "image", "image": "../icons/sq.svg", "template": false}"#)
            .replacingOccurrences(of: "\"control\": \"checkbox\",", with: "\"control\": \"checkbox\", \"assets\": \"../icons\",")
        folder.write("spec/spec.json", json)
        let spec = try Spec.load(contentsOf: folder.url.appendingPathComponent("spec/spec.json"))
        let mark = try #require(spec.appearance(.checked).marks.first)
        #expect(mark.kind == .image && mark.template == false && mark.image?.width == 10)
        // Without `assets` the same path is refused, at the mark's key.
        folder.write("spec/plain.json", Self.boxSpec(#"{"kind": "image", "image": "../icons/sq.svg"}"#))
        #expect(throws: InputError.self) { try Spec.load(contentsOf: folder.url.appendingPathComponent("spec/plain.json")) }
    }
}
