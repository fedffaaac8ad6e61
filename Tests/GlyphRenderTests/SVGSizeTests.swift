import Foundation
import Testing
import GlyphColor
import GlyphCore
import GlyphRaster
import GlyphRender
import GlyphTestSupport
import GlyphRenderTestSupport

// An SVG is sized as rsvg-convert sizes it: width and height, else the viewBox (with one absolute length,
// the viewBox's aspect); one with neither has no size and is refused, never drawn as nothing.
// The files are in Tests/Fixtures/svg-size (its README gives what rsvg-convert 2.54 makes of each).

@Suite("SVG size: width and height, else the viewBox, else refused")
struct SVGSizeTests {
    static let folder = TestPaths.packageRoot.appendingPathComponent("Tests/Fixtures/svg-size")

    static func document(_ name: String) throws -> SVGDocument {
        try SVGDocument(url: folder.appendingPathComponent(name))
    }

    static func text(_ name: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
    }

    /// The pixel box of the ink (alpha over half) in `raster`: (x0, y0, x1, y1), ends exclusive.
    static func ink(_ raster: Raster) -> (x0: Int, y0: Int, x1: Int, y1: Int)? {
        raster.bounds { $0.a > 0.5 }
    }

    @Test("each sized form takes rsvg-convert's size and draws the rectangle where rsvg-convert does",
          arguments: [("width-height-only.svg", 24, 24, [4, 6, 20, 18]), ("viewbox-only.svg", 24, 24, [4, 6, 20, 18]),
                      ("percent-with-viewbox.svg", 24, 24, [4, 6, 20, 18]), ("width-with-viewbox.svg", 48, 24, [8, 12, 40, 24])])
    func sized(_ name: String, width: Int, height: Int, box expected: [Int]) throws {
        let doc = try Self.document(name)
        #expect(doc.width == Double(width) && doc.height == Double(height) && !doc.isEmpty, "\(name): \(doc.width) × \(doc.height)")
        // At its own size the rectangle covers whole pixels: 16 × 12 at (4, 6) of the 24 grid.
        let box = try #require(Self.ink(Renderer.raster(svg: doc, width: width, height: height)), "\(name) draws nothing")
        #expect([box.x0, box.y0, box.x1, box.y1] == expected, "\(name): \(box)")
    }

    @Test("a viewBox-only icon in an image checkbox covers the expected pixels at @1x, @2x and @3x")
    func inACheckbox() throws {
        // A 24 pt box centred in the 44 × 44 frame, the image drawn into all of it: the rectangle at (4, 6)
        // to (20, 18) of it, whole pixels at every scale.
        let json = """
        { "name": "vb", "control": "checkbox", "sizes": { "md": { "size": 24 } }, "frame": { "width": 44, "height": 44 },
          "images": { "on": "on.svg", "off": "on.svg" }, "states": ["checked"], "scales": [1, 2, 3], "dynamicTypeSizes": ["L"],
          "themes": { "default": { "surface": "#FFFFFF", "tint": "#000000" } } }
        """
        for name in ["viewbox-only.svg", "percent-with-viewbox.svg", "width-height-only.svg"] {
            let spec = try loadSpec(json, files: ["on.svg": try Self.text(name)]).get()
            for v in spec.variants() {
                let layout = try Layout(spec: spec, variant: v)
                let image = try #require(layout.image)
                #expect(image.width == 24 && image.height == 24 && image.midX == layout.frame.midX && image.midY == layout.frame.midY,
                        "\(name): \(image)")
                let r = Renderer.raster(layout, spec: spec)
                let s = v.scale
                let box = try #require(r.bounds { $0.r < 0.5 }, "\(name) @\(s)x draws nothing")
                let expected = [image.x + 4, image.y + 6, image.x + 20, image.y + 18].map { Int($0) * s }
                #expect([box.x0, box.y0, box.x1, box.y1] == expected, "\(name) @\(s)x: \(box)")
            }
        }
    }

    @Test("no width, height or viewBox: refused at the spec key, naming the file and saying why")
    func noSizeRefused() throws {
        for name in ["no-size.svg", "percent-no-viewbox.svg"] {
            let json = """
            { "name": "img", "control": "checkbox", "sizes": { "md": { "size": 44 } }, "frame": { "width": 44, "height": 44 },
              "images": { "on": "icons/on.svg", "off": "icons/off.svg" }, "states": ["unchecked", "checked"],
              "themes": { "default": { "surface": "#FFFFFF", "tint": "#007AFF" } } }
            """
            let square = ##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><rect width="24" height="24"/></svg>"##
            guard case let .failure(e) = loadSpec(json, files: ["icons/on.svg": try Self.text(name), "icons/off.svg": square]) else {
                Issue.record("\(name) was accepted")
                continue
            }
            #expect(e.file.hasSuffix("spec.json") && e.keyPath == "images.on" && e.line == 2, "\(e)")
            // librsvg 2.54 reports a missing width or height as 100 %, its default.
            let said = name == "no-size.svg" ? "width 100%, height 100%" : "width 50%, height 100%"
            #expect(e.message.hasSuffix("/icons/on.svg: the SVG has no size of its own: its <svg> element has no viewBox, and "
                    + "its width and height are not both absolute lengths (\(said); a missing one is 100%), so librsvg would "
                    + "draw it into nothing (rsvg-convert cuts it to its drawing's bounding box, here x 4…20, y 6…18); give it "
                    + "the viewBox of the grid it is drawn on, e.g. viewBox=\"0 0 24 24\""), "\(e.message)")
        }
        // Read on its own (glyphaudit render's job list), the file is named and refused too.
        #expect(throws: InputError.self) { try Self.document("no-size.svg") }
        // With the viewBox the message asks for, the same drawing loads, 24 × 24.
        let fixed = try Self.text("no-size.svg").replacingOccurrences(of: "<svg ", with: #"<svg viewBox="0 0 24 24" "#)
        let doc = try SVGDocument(data: Data(fixed.utf8), name: "fixed.svg", base: nil)
        #expect(doc.width == 24 && doc.height == 24)
    }

    @Test("an explicitly empty SVG (zero width, or a viewBox of no area) is still an empty image, not an error")
    func explicitlyEmpty() throws {
        for svg in [##"<svg xmlns="http://www.w3.org/2000/svg" width="0" height="0"></svg>"##,
                    ##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 0 24"><rect width="24" height="24"/></svg>"##] {
            let doc = try SVGDocument(data: Data(svg.utf8), name: "empty.svg", base: nil)
            #expect(doc.isEmpty, "\(svg)")
        }
    }

    /// rsvg-convert, when it is installed (scripts/setup does not install it; these tests never need it).
    static let rsvgConvert: String? = ["/usr/bin/rsvg-convert", "/usr/local/bin/rsvg-convert"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    @Test("the same pixels as rsvg-convert, where rsvg-convert is installed", .enabled(if: rsvgConvert != nil),
          arguments: ["width-height-only.svg", "viewbox-only.svg", "percent-with-viewbox.svg", "width-with-viewbox.svg"])
    func sameAsRsvgConvert(_ name: String) throws {
        let out = TempFolder()
        let png = out.url.appendingPathComponent("out.png")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try #require(Self.rsvgConvert))
        p.arguments = [Self.folder.appendingPathComponent(name).path, "-o", png.path]
        try p.run()
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)
        let theirs = try Raster(pngData: Data(contentsOf: png))
        let doc = try Self.document(name)
        #expect(Double(theirs.width) == doc.width && Double(theirs.height) == doc.height, "\(name)")
        let ours = Renderer.raster(svg: doc, width: theirs.width, height: theirs.height)
        var worst = 0
        for y in 0..<ours.height {
            for x in 0..<ours.width {
                let a = ours.pixel(x, y), b = theirs.pixel(x, y)
                worst = max(worst, abs(Int(a.a) - Int(b.a)), a.a == 0 ? 0 : abs(Int(a.r) - Int(b.r)))
            }
        }
        #expect(worst <= 1, "\(name): channels differ by up to \(worst)")
    }
}
