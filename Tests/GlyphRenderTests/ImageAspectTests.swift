import CCairo
import Foundation
import Testing
@testable import GlyphRender

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
                let ink = try #require(ImageAspectRule.drawnInk(item))
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
            #expect(f.message == "the \(name) image is drawn (contentMode scaleToFill) with its ink 44.0 × 44.0 pt (aspect 1.000); "
                    + "the SVG's own ink is 40.0 × 20.0 (aspect 2.000): 50% off; allowed 1%; at xS L AX5")
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

    @Test("the limit is 1 %: stretched 0.5 % passes, 2 % fails; original-colour images are measured too")
    func tolerance() throws {
        func svg(_ w: Double) -> String {
            ##"<svg xmlns="http://www.w3.org/2000/svg" width="\##(w)" height="40"><rect width="\##(w)" height="40" fill="#D32F2F"/></svg>"##
        }
        for template in [true, false] {
            // 40.2 × 40 squeezed into a square: 1/1.005 of its aspect, 0.5 % off.
            let near = try AuditScene(Self.spec("scaleToFill", template: template, scales: [1]), files: ["wide.svg": svg(40.2)])
            #expect(near.run(ImageAspectRule()).isEmpty, "template \(template)")
            let far = try AuditScene(Self.spec("scaleToFill", template: template, scales: [1]), files: ["wide.svg": svg(40.8)])
            let f = try #require(far.run(ImageAspectRule()).first, "template \(template)")
            #expect(abs(f.numbers["off"]! - (1 - 1 / 1.02)) < 1e-3)
            #expect(f.message.contains("2.0% off; allowed 1%"))
            // Configured looser, it passes.
            #expect(far.run(ImageAspectRule(), ["tolerance": 0.03]).isEmpty)
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
