import CCairo
import Foundation
import Testing
@testable import GlyphAudit
@testable import GlyphColor
@testable import GlyphCore
@testable import GlyphPipeline
@testable import GlyphRaster
@testable import GlyphRender
import GlyphTestSupport
import GlyphRenderTestSupport

// image-aspect measures what is drawn: the ink of the image in the render against the ink of the SVG
// rendered alone. `"contentMode": "scaleToFill"` draws the real-world mistake (a stretched image).

@Suite("Audit: image aspect, measured in the pixels")
struct ImageAspectTests {
    /// A 40 × 20 document filled edge to edge: its ink is 40 × 20 (aspect 2).
    static let wide = ##"<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20" fill="#000"/></svg>"##
    /// A 40 × 20 document with a 20 × 20 square of ink in its middle (aspect 1).
    static let wideDocSquareInk = ##"<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect x="10" width="20" height="20" fill="#000"/></svg>"##

    static func spec(_ mode: String?, image: String = "wide.svg", template: Bool = true, scales: [Int] = [1, 2, 3],
                     sizes: [String] = ["xS", "L", "AX5"]) -> String {
        """
        { "name": "img", "control": "checkbox", "sizes": { "md": { "size": 44 } }, "frame": { "width": 44, "height": 44 },
          "images": { "on": "\(image)", "off": "\(image)", "template": \(template)\(mode.map { #", "contentMode": "\#($0)""# } ?? "") },
          "states": ["unchecked", "checked"], "scales": \(scales), "dynamicTypeSizes": [\(sizes.map { "\"\($0)\"" }.joined(separator: ", "))],
          "themes": { "default": { "surface": "#FFFFFF", "tint": "#007AFF" }, "inverse": { "surface": "#000000", "tint": "#0A84FF" } } }
        """
    }

    @Test("a wide image drawn aspect-fit passes, at every size, scale and theme; so do the built-in images")
    func aspectFitPasses() throws {
        for mode in [nil, "aspectFit"] {
            let s = try AuditScene(Self.spec(mode), files: ["wide.svg": Self.wide])
            #expect(s.spec.images?.contentMode == .aspectFit)
            #expect(s.run(ImageAspectRule()).isEmpty)
            // What it measured: the ink drawn 44 × 22 pt, to a hundredth of a point, at every scale.
            for item in s.plan.items where item.variant.theme == "default" {
                let ink = try #require(ImageAspectRule.drawnInk(item, drawing: CairoDrawing()))
                #expect(abs(ink.width - 44) < 0.01 && abs(ink.height - 22) < 0.01, "\(item.variant.id): \(ink)")
            }
        }
        // Even a strict tolerance passes the preset's images, drawn aspect-fit.
        let rvs = try AuditScene(preset: "rvs-checkbox", filter: ["dynamic-type=L,AX5", "theme=default,disabled"])
        #expect(rvs.run(ImageAspectRule(), ["tolerance": 0.002]).isEmpty)
    }

    @Test("scaleToFill of a wide image into a square frame fails with the measured aspects")
    func scaleToFillFails() throws {
        let s = try AuditScene(Self.spec("scaleToFill"), files: ["wide.svg": Self.wide])
        #expect(s.spec.images?.contentMode == .scaleToFill)
        let layout = s.plan.items[0].layout
        #expect(layout.image == layout.glyph, "the image fills the whole 44 × 44 pt box")
        let findings = s.run(ImageAspectRule())
        #expect(findings.count == 2, "one per state's image")
        for (f, (name, state)) in zip(findings, [("off", "unchecked"), ("on", "checked")]) {
            #expect(f.rule == "image-aspect" && f.severity == .error && f.subject == "\(name) image")
            #expect(f.variant == "img/square-md/*/*/\(state)@*x")
            #expect(abs(f.numbers["sourceAspect"]! - 2) < 1e-3)
            #expect(abs(f.numbers["drawnAspect"]! - 1) < 1e-3)
            #expect(abs(f.numbers["off"]! - 0.5) < 1e-3)
            #expect(abs(f.numbers["drawnWidth"]! - 44) < 0.01 && abs(f.numbers["drawnHeight"]! - 44) < 0.01)
            #expect(abs(f.numbers["sourceWidth"]! - 40) < 0.1 && abs(f.numbers["sourceHeight"]! - 20) < 0.1)
            #expect(f.values["contentMode"] == "scaleToFill")
            // The worst is at @3x, where a pixel allows least: 44 ± 1/3 pt on each side, 0.985–1.015.
            #expect(f.numbers["pixel"] == 1.0 / 3)
            #expect(abs(f.numbers["drawnAspectLow"]! - (44 - 1.0 / 3) / (44 + 1.0 / 3)) < 1e-3)
            #expect(abs(f.numbers["drawnAspectHigh"]! - (44 + 1.0 / 3) / (44 - 1.0 / 3)) < 1e-3)
            #expect(abs(f.numbers["offBeyondPixel"]! - (1 - (44 + 1.0 / 3) / (44 - 1.0 / 3) / 2)) < 1e-3)
            #expect(f.message == "the \(name) image is drawn (contentMode scaleToFill) with its ink 44.0 × 44.0 pt (aspect 1.000; "
                    + "0.985–1.015 with each side off by up to 1 px, 0.333 pt at @3x); "
                    + "the image file's own ink is 40.0 × 20.0 (aspect 2.000): 50% off, 49.2% beyond that pixel; allowed 1%; at xS L AX5")
            #expect(f.location?.keyPath == "images.contentMode")
            #expect(f.location?.line == s.spec.lines["images.contentMode"])
            if case let .outline(_, r) = f.picture {
                #expect(abs(r.width - 44) < 0.01 && abs(r.height - 44) < 0.01)
            } else {
                Issue.record("no outline picture")
            }
        }
        // The pixels agree: at @2x the tint covers the whole 88 × 88 px box.
        let item = try #require(s.plan.items.first { $0.variant.id == "img/square-md/L/default/checked@2x" })
        let r = Renderer.raster(item.layout, spec: item.spec)
        let blue = try #require(RGBA(hex: "#007AFF"))
        let ink = try #require(r.bounds { $0 == blue })
        #expect(ink.x1 - ink.x0 == 88 && ink.y1 - ink.y0 == 88)
    }

    @Test("it compares ink with ink: a wide document with square ink passes aspect-fit and fails stretched")
    func inkNotDocument() throws {
        let files = ["wide.svg": Self.wideDocSquareInk]
        #expect(try AuditScene(Self.spec(nil), files: files).run(ImageAspectRule()).isEmpty)
        let f = try #require(try AuditScene(Self.spec("scaleToFill"), files: files).run(ImageAspectRule()).first)
        // 20 × 20 of ink in a 40 × 20 document stretched to 44 × 44: 22 × 44 pt of ink.
        #expect(abs(f.numbers["sourceAspect"]! - 1) < 1e-3)
        #expect(abs(f.numbers["drawnWidth"]! - 22) < 0.01 && abs(f.numbers["drawnHeight"]! - 44) < 0.01)
        #expect(abs(f.numbers["off"]! - 0.5) < 1e-3)
    }

    @Test("the limit is 1 % beyond a pixel's rounding: at @3x 0.5 % passes, 2 % passes, 3 % fails; at @1x 4 % passes")
    func tolerance() throws {
        func svg(_ w: Double) -> String {
            ##"<svg xmlns="http://www.w3.org/2000/svg" width="\##(w)" height="40"><rect width="\##(w)" height="40" fill="#D32F2F"/></svg>"##
        }
        // Squeezed into the 44 × 44 pt square, the ink is 44 × 44 pt: at @3x, with a pixel (1/3 pt) on each
        // side, aspects 0.985–1.0153; at @1x 43/45–45/43, 0.956–1.047.
        let high3 = (44 + 1.0 / 3) / (44 - 1.0 / 3)
        for template in [true, false] {
            func scene(_ w: Double, scale: Int) throws -> AuditScene {
                try AuditScene(Self.spec("scaleToFill", template: template, scales: [scale]), files: ["wide.svg": svg(w)])
            }
            // 40.2 × 40 (aspect 1.005) lies within the pixel's range: it passes with no tolerance at all.
            #expect(try scene(40.2, scale: 3).run(ImageAspectRule(), ["tolerance": 0]).isEmpty, "template \(template)")
            // 40.8 × 40 (aspect 1.02, 2 % off) is 0.46 % beyond it: passes at 1 %, fails at 0.4 %.
            let mid = try scene(40.8, scale: 3)
            #expect(mid.run(ImageAspectRule()).isEmpty, "template \(template)")
            let strict = try #require(mid.run(ImageAspectRule(), ["tolerance": 0.004]).first, "template \(template)")
            #expect(abs(strict.numbers["offBeyondPixel"]! - (1 - high3 / 1.02)) < 1e-3)
            #expect(strict.message.contains("2.0% off, 0.5% beyond that pixel; allowed 0.4%"), "\(strict.message)")
            // 41.2 × 40 (aspect 1.03, 2.9 % off) is 1.4 % beyond: it fails, and passes configured looser.
            let far = try scene(41.2, scale: 3)
            let f = try #require(far.run(ImageAspectRule()).first, "template \(template)")
            #expect(abs(f.numbers["off"]! - (1 - 1 / 1.03)) < 1e-3)
            #expect(abs(f.numbers["offBeyondPixel"]! - (1 - high3 / 1.03)) < 1e-3)
            #expect(f.message.contains("2.9% off, 1.4% beyond that pixel; allowed 1%"), "\(f.message)")
            #expect(far.run(ImageAspectRule(), ["tolerance": 0.02]).isEmpty)
            // At @1x a pixel is a whole point: 41.6 × 40 (aspect 1.04) lies within 45/43 and passes.
            #expect(try scene(41.6, scale: 1).run(ImageAspectRule(), ["tolerance": 0]).isEmpty, "template \(template)")
        }
    }

    @Test("the aspect range a pixel of rounding allows, and how far beyond it, by hand")
    func aspectRange() {
        // 13.8 × 13.1 pt of ink at @1x: 12.8 / 14.1 = 0.907801… to 14.8 / 12.1 = 1.223140….
        let r = ImageAspectRule.aspectRange(width: 13.8, height: 13.1, pixel: 1)
        #expect(abs(r.lowerBound - 0.907801) < 1e-6 && abs(r.upperBound - 1.223140) < 1e-6)
        #expect(ImageAspectRule.offBeyond(source: 1.077, range: r) == 0)
        #expect(ImageAspectRule.offBeyond(source: 1.223, range: r) == 0)
        // Above: 1 − 1.223140 / 1.3 = 0.059123…; below: 0.907801 / 0.8 − 1 = 0.134752….
        #expect(abs(ImageAspectRule.offBeyond(source: 1.3, range: r) - 0.059123) < 1e-6)
        #expect(abs(ImageAspectRule.offBeyond(source: 0.8, range: r) - 0.134752) < 1e-6)
        // At @2x the same ink allows half as much: 13.3 / 13.6 = 0.977941… to 14.3 / 12.6 = 1.134921….
        let r2 = ImageAspectRule.aspectRange(width: 13.8, height: 13.1, pixel: 0.5)
        #expect(abs(r2.lowerBound - 0.977941) < 1e-6 && abs(r2.upperBound - 1.134921) < 1e-6)
        // No pixel: the range is the drawn aspect alone, and "beyond" is the plain |drawn / source − 1|.
        let exact = ImageAspectRule.aspectRange(width: 44, height: 44, pixel: 0)
        #expect(exact == 1...1)
        #expect(abs(ImageAspectRule.offBeyond(source: 2, range: exact) - 0.5) < 1e-12)
        #expect(abs(ImageAspectRule.offBeyond(source: 0.5, range: exact) - 1) < 1e-12)
        // Ink no more than a pixel high could be of any aspect above; none thinner than a pixel, below 0.
        let thin = ImageAspectRule.aspectRange(width: 0.5, height: 0.8, pixel: 1)
        #expect(thin.lowerBound == 0 && thin.upperBound == .infinity)
        // Within a tolerance t exactly when the source lies in lower / (1 + t) … upper / (1 − t).
        let t = 0.01
        #expect(ImageAspectRule.offBeyond(source: r.upperBound / (1 - t) * 0.999_999, range: r) <= t)
        #expect(ImageAspectRule.offBeyond(source: r.upperBound / (1 - t) * 1.000_001, range: r) > t)
        #expect(ImageAspectRule.offBeyond(source: r.lowerBound / (1 + t) * 1.000_001, range: r) <= t)
        #expect(ImageAspectRule.offBeyond(source: r.lowerBound / (1 + t) * 0.999_999, range: r) > t)
    }

    /// A spec of the icons corpus (`Tests/Fixtures/icons/<folder>`), its images beside it.
    static func corpus(_ folder: String, scales: [Int]) throws -> AuditScene {
        let dir = TestPaths.fixture("icons/\(folder)")
        var json = try String(contentsOf: dir.appendingPathComponent("spec.json"), encoding: .utf8)
        json = json.replacingOccurrences(of: #""dynamicTypeSizes""#,
                                         with: #""scales": [\#(scales.map(String.init).joined(separator: ", "))], "dynamicTypeSizes""#)
        var files: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: dir.path) where name.hasSuffix(".svg") {
            files[name] = try String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8)
        }
        return try AuditScene(json, files: files)
    }

    @Test("a real aspect-fit icon passes at @1x: bootstrap's check2-square (2.2 % off at 16 pt), fluent's toggle")
    func realIconAt1x() throws {
        // bootstrap check2-square: its ink 14.0 × 13.0 (aspect 1.077) drawn in a 16 pt box at @1x measures
        // 13.8 × 13.1 pt (aspect 1.053, 2.2 % off), but a pixel either way on each side allows 0.908–1.223.
        let s = try Self.corpus("bootstrap/checkbox2-check2", scales: [1])
        #expect(s.run(ImageAspectRule()).isEmpty)
        #expect(s.run(ImageAspectRule(), ["tolerance": 0]).isEmpty, "within a pixel's rounding, with no tolerance")
        let item = try #require(s.plan.items.first { $0.variant.id == "bootstrap-checkbox2-check2/square-s16/L/default/checked@1x" })
        let ink = try #require(ImageAspectRule.drawnInk(item, drawing: CairoDrawing()))
        let source = try #require(ImageAspectRule.sourceInk(s.spec.images!.on, drawing: CairoDrawing()))
        #expect(abs(ink.width - 13.8) < 0.05 && abs(ink.height - 13.1) < 0.05, "\(ink)")
        #expect(abs(source.width - 14) < 0.02 && abs(source.height - 13) < 0.02, "\(source)")
        let aspect = source.width / source.height
        #expect(abs(ink.width / ink.height / aspect - 1) > 0.01, "off by more than 1 % without the pixel")
        #expect(ImageAspectRule.offBeyond(source: aspect, range: ImageAspectRule.aspectRange(width: ink.width, height: ink.height, pixel: 1)) == 0)
        // fluent's toggle: 20 × 10 of ink drawn 13.1 × 6.7 pt at 16 pt @1x (1.5 % off).
        #expect(try Self.corpus("fluent/toggle", scales: [1, 2, 3]).run(ImageAspectRule()).isEmpty)
    }

    @Test("the stretched badge of docs/examples fails at every scale, with its measured numbers")
    func stretchedExampleFailsAtEveryScale() throws {
        let example = TestPaths.packageRoot.appendingPathComponent("docs/examples/rules/image-aspect-fail")
        let json = try String(contentsOf: example.appendingPathComponent("spec.json"), encoding: .utf8)
        let files = try ["on.svg", "off.svg"].reduce(into: [String: String]()) {
            $0[$1] = try String(contentsOf: example.appendingPathComponent($1), encoding: .utf8)
        }
        // The badge's ink, 35.0 × 23.0 (aspect 1.522), stretched to about 42.8 × 42.2 pt (aspect 1.014):
        // 33.4 % off, and 30–32 % beyond a pixel's rounding at every scale.
        for (scale, beyond, low, high) in [(1, 0.3006, 0.9687, 1.0644), (2, 0.3181, 0.9901, 1.0378), (3, 0.3231, 0.9985, 1.0303)] {
            let s = try AuditScene(json.replacingOccurrences(of: "\"scales\": [\n    2\n  ]", with: "\"scales\": [\(scale)]"), files: files)
            #expect(s.plan.items.allSatisfy { $0.variant.scale == scale })
            let findings = s.run(ImageAspectRule())
            let f = try #require(findings.first, "@\(scale)x")
            #expect(findings.count == 1 && f.severity == .error && f.subject == "on image")
            #expect(abs(f.numbers["sourceAspect"]! - 1.522) < 1e-3)
            #expect(abs(f.numbers["drawnAspect"]! - 1.014) < 2e-3)
            #expect(abs(f.numbers["off"]! - 0.334) < 2e-3)
            #expect(f.numbers["pixel"] == 1 / Double(scale))
            #expect(abs(f.numbers["offBeyondPixel"]! - beyond) < 1e-3, "@\(scale)x")
            #expect(abs(f.numbers["drawnAspectLow"]! - low) < 1e-3 && abs(f.numbers["drawnAspectHigh"]! - high) < 1e-3, "@\(scale)x")
            if scale == 2 {
                #expect(f.message == "the on image is drawn (contentMode scaleToFill) with its ink 42.8 × 42.2 pt (aspect 1.014; "
                        + "0.990–1.038 with each side off by up to 1 px, 0.5 pt at @2x); the image file's own ink is 35.0 × 23.0 "
                        + "(aspect 1.522): 33.4% off, 31.8% beyond that pixel; allowed 1%; at L")
            }
        }
    }

    @Test("ink boxes to a fraction of a pixel")
    func inkBox() throws {
        // A rect from (2.25, 1.5) to (7.5, 9) drawn with cairo: 5.25 × 7.5 px.
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 12, 12)!
        let cr = cairo_create(surface)!
        cairo_rectangle(cr, 2.25, 1.5, 5.25, 7.5)
        cairo_set_source_rgba(cr, 0, 0, 0, 0.5)
        cairo_fill(cr)
        cairo_destroy(cr)
        cairo_surface_flush(surface)
        let raster = Renderer.rasterFromSurface(surface, width: 12, height: 12)
        cairo_surface_destroy(surface)
        let box = try #require(ImageAspectRule.inkBox(raster))
        #expect(abs(box.x - 2.25) < 0.07 && abs(box.width - 5.25) < 0.07, "\(box)")
        #expect(abs(box.y - 1.5) < 0.07 && abs(box.height - 7.5) < 0.07, "\(box)")
        #expect(ImageAspectRule.inkBox(Raster(width: 4, height: 4, fill: RGBA(r: 0, g: 0, b: 0, a: 0))) == nil)
    }

    @Test("contentMode is checked like every key")
    func contentModeKey() throws {
        guard case let .failure(e) = loadSpec(Self.spec("stretch"), files: ["wide.svg": Self.wide]) else {
            Issue.record("accepted")
            return
        }
        #expect(e.keyPath == "images.contentMode")
        #expect(e.message.contains("expected one of: aspectFit, scaleToFill"))
    }
}
