import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import GlyphCore
@testable import GlyphPipeline
@testable import GlyphRaster
@testable import GlyphRender
import GlyphTestSupport

/// SVG and PDF output of SVG images (issue #20 item 5): librsvg 2.54 draws masks and filters as
/// images at the target's device resolution, one pixel per point on a PDF or SVG surface.
@Suite("Vector output stays vector")
struct VectorOutputTests {
    static let primer = TestPaths.fixture("designsystems/primer-checkbox/images")

    /// Primer's checkbox as an image checkbox: its three SVGs (the checked and mixed ones cut their
    /// tick and dash out of the filled box with a `<mask>`), 16 pt, template, in Primer's accent.
    static func primerSpec(_ f: TempFolder) throws -> Spec {
        for name in ["on.svg", "off.svg", "mixed.svg"] {
            f.write(name, try Data(contentsOf: primer.appendingPathComponent(name)))
        }
        let json = """
        {
          "name": "primer",
          "control": "checkbox",
          "sizes": { "md": { "size": 16 } },
          "images": { "on": "on.svg", "off": "off.svg", "clear": "mixed.svg", "template": true, "threeState": true },
          "states": ["unchecked", "checked", "mixed"],
          "scales": [1, 2, 3],
          "dynamicTypeSizes": ["large"],
          "themes": { "default": { "surface": "#FFFFFF", "tint": "#0969DA" } }
        }
        """
        return try Spec.load(contentsOf: f.write("spec.json", json))
    }

    /// The names of the elements of an SVG document, read with Foundation's XML parser.
    static func elementNames(_ data: Data) -> [String] {
        final class Names: NSObject, XMLParserDelegate {
            var names: [String] = []
            func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                        attributes: [String: String] = [:]) {
                names.append(name)
            }
        }
        let parser = XMLParser(data: data)
        let delegate = Names()
        parser.delegate = delegate
        #expect(parser.parse(), "the SVG output does not parse as XML")
        return delegate.names
    }

    /// The `/Width` of every image XObject in a PDF cairo wrote (its dictionaries are not compressed).
    static func pdfImageWidths(_ pdf: Data) -> [Int] {
        let text = String(decoding: pdf, as: UTF8.self)
        return text.matches(of: /\/Subtype \/Image[^>]*?\/Width (\d+)/).map { Int($0.output.1)! }
            + text.matches(of: /\/Width (\d+)[^>]*?\/Subtype \/Image/).map { Int($0.output.1)! }
    }

    @Test("Primer's mask SVGs: the SVG and PDF output hold no image, in every state, and no warning is kept")
    func primerHasNoBitmap() throws {
        let f = TempFolder()
        let spec = try Self.primerSpec(f)
        let plan = try Plan(specs: [spec])
        #expect(plan.items.count == 9)
        for item in plan.items {
            for parts in [RenderParts.all, [.glyph]] {
                let pdf = Renderer.vector(item.layout, spec: item.spec, format: .pdf, parts: parts)
                #expect(Self.pdfImageWidths(pdf).isEmpty, "\(item.variant.id): an image XObject in the PDF")
                #expect(String(decoding: pdf, as: UTF8.self).range(of: "/Subtype /Image") == nil, "\(item.variant.id)")
                let svg = Renderer.vector(item.layout, spec: item.spec, format: .svg, parts: parts)
                let names = Self.elementNames(svg)
                #expect(!names.isEmpty && !names.contains("image"), "\(item.variant.id): <image> in the SVG output")
            }
        }
        // The two masks are stencils (a white box, then a black tick or dash): drawn as clip paths.
        let images = try #require(spec.images)
        for (image, mask) in [(images.on, "tick"), (images.clear!, "dash")] {
            let form = SVGDocument.of(image).vectorForm
            #expect(form.bitmap.isEmpty, "\(form.bitmap)")
            #expect(form.masksRewritten == [mask])
            #expect(form.document !== SVGDocument.of(image))
        }
        // The unchecked box has no mask: drawn as it is.
        let off = SVGDocument.of(images.off)
        #expect(off.vectorForm.document === off && off.vectorForm.masksRewritten.isEmpty)
    }

    /// Pixels of `r` inside `box` (in pixels, inset by `inset`) whose alpha is neither nearly 0 nor nearly 255.
    static func intermediate(_ r: Raster, _ box: Rect, inset: Double) -> Int {
        var n = 0
        for y in Int((box.minY + inset).rounded())..<Int((box.maxY - inset).rounded()) {
            for x in Int((box.minX + inset).rounded())..<Int((box.maxX - inset).rounded()) {
                let a = r.pixel(x, y).a
                if a > 24 && a < 231 { n += 1 }
            }
        }
        return n
    }

    /// The transparency of `r` summed inside `box` (inset), in pixels: the area cut out (the tick).
    static func cutOut(_ r: Raster, _ box: Rect, inset: Double) -> Double {
        var n = 0
        for y in Int((box.minY + inset).rounded())..<Int((box.maxY - inset).rounded()) {
            for x in Int((box.minX + inset).rounded())..<Int((box.maxX - inset).rounded()) { n += 255 - Int(r.pixel(x, y).a) }
        }
        return Double(n) / 255
    }

    @Test("zoomed 8×, the tick of the PDF and SVG output has a vector's edge, and the area of the PNG @3x")
    func primerTickIsSharp() throws {
        let f = TempFolder()
        let spec = try Self.primerSpec(f)
        let plan = try Plan(specs: [spec])
        let item = try #require(plan.items.first { $0.variant.state == .checked && $0.variant.scale == 3 })
        let box = try #require(item.layout.image)
        #expect(box.width == 16 && box.height == 16)
        let canvas = item.layout.canvas
        let zoom = 8.0
        let pdf = try PDFImage(data: Renderer.vector(item.layout, spec: item.spec, format: .pdf, parts: [.glyph]), name: "checked.pdf")
        let svg = try SVGDocument(data: Renderer.vector(item.layout, spec: item.spec, format: .svg, parts: [.glyph]),
                                  name: "checked.svg", base: nil)
        let w = Int(canvas.width * zoom), h = Int(canvas.height * zoom)
        let zoomedBox = Rect(x: box.x * zoom, y: box.y * zoom, width: box.width * zoom, height: box.height * zoom)
        // The tick's outline, by hand from Primer's path (translate(2 3.5)): two strokes about 1.5 pt
        // wide, 4.6 pt (0.75, 4.75 → 3.99, 7.99) and 10.25 pt (3.99, 7.99 → 11.25, 0.75) long, with
        // round ends: about 2 × (4.6 + 10.25) + π × 1.5 ≈ 34 pt, 272 px at 8×. An anti-aliased
        // vector edge is one pixel wide (two where it runs diagonally); Primer's 16 px bitmap drawn 8×
        // as large blurs it over 8 px (2902 such pixels in the 0.3 release's PDF, measured with pdftoppm).
        let outline = 34.0 * zoom
        // The PNG @3x, drawn by librsvg from the SVG itself: the cut-out's area in pt².
        let png = Renderer.raster(item.layout, spec: item.spec, parts: [.glyph])
        let pngBox = Rect(x: box.x * 3, y: box.y * 3, width: box.width * 3, height: box.height * 3)
        let pngArea = Self.cutOut(png, pngBox, inset: 3) / 9
        #expect(pngArea > 15 && pngArea < 35, "the tick's area at @3x: \(pngArea) pt²")
        for (name, r) in [("PDF", Renderer.raster(image: pdf, width: w, height: h)), ("SVG", Renderer.raster(svg: svg, width: w, height: h))] {
            // Inset 6 px: the box's own rounded outer edge is not the tick's.
            let soft = Self.intermediate(r, zoomedBox, inset: 6)
            #expect(soft > 0 && Double(soft) <= 2 * outline, "\(name): \(soft) soft pixels along a \(outline) px outline")
            let area = Self.cutOut(r, zoomedBox, inset: 6) / (zoom * zoom)
            #expect(abs(area - pngArea) <= 0.02 * pngArea, "\(name): the tick covers \(area) pt², the PNG @3x \(pngArea) pt²")
        }
    }

    /// A 16 × 16 SVG with `defs` and `body`, drawn as a spec's `on` image (not a template), and the
    /// PDF and SVG output of its checked variant.
    static func drawn(_ defs: String, _ body: String) throws -> (doc: SVGDocument, pdf: Data, svg: Data) {
        let f = TempFolder()
        f.write("on.svg", """
        <svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16">
        <defs>\(defs)</defs>
        \(body)
        </svg>
        """)
        f.write("off.svg", ##"<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><rect width="16" height="16"/></svg>"##)
        let spec = try Spec.load(contentsOf: f.write("spec.json", ImageAssetTests.spec(on: "on.svg", off: "off.svg", template: false)))
        let plan = try Plan(specs: [spec])
        let item = try #require(plan.items.first { $0.variant.state == .checked })
        return (SVGDocument.of(try #require(spec.images).on), Renderer.vector(item.layout, spec: item.spec, format: .pdf, parts: [.glyph]),
                Renderer.vector(item.layout, spec: item.spec, format: .svg, parts: [.glyph]))
    }

    @Test("clip paths, gradients, patterns, group opacity and stencil masks stay vectors", arguments: [
        ("clipPath", ##"<clipPath id="c"><circle cx="8" cy="8" r="6"/></clipPath>"##, ##"<rect width="16" height="16" clip-path="url(#c)"/>"##),
        ("clipPath, bounding box units, nested", ##"<clipPath id="c" clipPathUnits="objectBoundingBox" clip-path="url(#d)"><circle cx=".5" cy=".5" r=".4"/></clipPath><clipPath id="d"><rect width="8" height="16"/></clipPath>"##,
         ##"<rect width="16" height="16" clip-path="url(#c)"/>"##),
        ("linearGradient", ##"<linearGradient id="g"><stop offset="0" stop-color="red"/><stop offset="1" stop-color="blue" stop-opacity=".5"/></linearGradient>"##,
         ##"<rect width="16" height="16" fill="url(#g)"/>"##),
        ("radialGradient", ##"<radialGradient id="g" fx=".3"><stop offset="0" stop-color="red"/><stop offset="1" stop-color="blue"/></radialGradient>"##,
         ##"<circle cx="8" cy="8" r="8" fill="url(#g)"/>"##),
        ("pattern", ##"<pattern id="p" width="4" height="4" patternUnits="userSpaceOnUse"><circle cx="2" cy="2" r="1"/></pattern>"##,
         ##"<rect width="16" height="16" fill="url(#p)"/>"##),
        ("group opacity", "", ##"<g opacity=".5"><rect width="10" height="10"/><rect x="6" y="6" width="10" height="10" fill="red"/></g>"##),
        ("stencil mask, black circle and rect", ##"<mask id="m"><rect x="-2" y="-2" width="20" height="20" fill="#fff"/><circle cx="5" cy="5" r="3" fill="black"/><rect x="9" y="9" width="4" height="5"/></mask>"##,
         ##"<rect width="16" height="16" mask="url(#m)"/>"##),
        ("alpha mask of solid shapes", ##"<mask id="m" mask-type="alpha"><circle cx="8" cy="8" r="7" fill="#3a6"/><rect width="4" height="4" fill="red"/></mask>"##,
         ##"<rect width="16" height="16" mask="url(#m)"/>"##),
        ("stencil mask in user space", ##"<mask id="m" maskUnits="userSpaceOnUse" x="0" y="0" width="16" height="16"><circle cx="8" cy="8" r="7" fill="white"/><path d="M5 5h6v6h-6z" fill="#000000"/></mask>"##,
         ##"<rect width="16" height="16" transform="translate(1 0)" mask="url(#m)"/>"##),
    ])
    func staysVector(_ name: String, _ defs: String, _ body: String) throws {
        let (doc, pdf, svg) = try Self.drawn(defs, body)
        #expect(doc.vectorForm.bitmap.isEmpty, "\(name): \(doc.vectorForm.bitmap)")
        #expect(Self.pdfImageWidths(pdf).isEmpty, "\(name): an image in the PDF")
        #expect(!Self.elementNames(svg).contains("image"), "\(name): an image in the SVG")
    }

    @Test("an even-odd clip with curves keeps its hole in SVG output (cairo writes the rule where SVG ignores it)")
    func evenOddClip() throws {
        // A 16 pt square with a round hole of radius 5 (centre 8, 8), cut by the clip's even-odd rule.
        let defs = ##"<clipPath id="c"><path clip-rule="evenodd" d="M0 0H16V16H0Z M8 3A5 5 0 1 1 8 13A5 5 0 1 1 8 3Z"/></clipPath>"##
        let f = TempFolder()
        f.write("on.svg", ##"<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16"><defs>\##(defs)</defs><rect width="16" height="16" clip-path="url(#c)"/></svg>"##)
        f.write("off.svg", ##"<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><rect width="16" height="16"/></svg>"##)
        let spec = try Spec.load(contentsOf: f.write("spec.json", ImageAssetTests.spec(on: "on.svg", off: "off.svg", template: false)))
        let plan = try Plan(specs: [spec])
        let item = try #require(plan.items.first { $0.variant.state == .checked && $0.variant.scale == 1 })
        let box = try #require(item.layout.image)  // 20 pt: the image fitted at 1.25 pt per unit
        let svg = Renderer.vector(item.layout, spec: item.spec, format: .svg, parts: [.glyph])
        let text = String(decoding: svg, as: UTF8.self)
        #expect(text.contains(##"<path clip-rule="evenodd" d="##), "the rule is not on the clip's path")
        let k = 4.0
        let back = Renderer.raster(svg: try SVGDocument(data: svg, name: "out.svg", base: nil),
                                   width: Int(item.layout.canvas.width * k), height: Int(item.layout.canvas.height * k))
        let centre = back.pixel(Int(box.midX * k), Int(box.midY * k))
        let corner = back.pixel(Int((box.minX + 1) * k), Int((box.minY + 1) * k))
        let ring = back.pixel(Int(box.midX * k), Int((box.minY + 2.5) * k))  // 1.25 pt × 2: between the edge and the hole
        #expect(centre.a == 0, "the hole is filled: alpha \(centre.a)")
        #expect(corner.a == 255 && ring.a == 255)
    }

    @Test("an <image> element is a bitmap of its own: drawn as it is, no warning, nothing re-recorded")
    func embeddedBitmap() throws {
        let png = TinyPNG.encode(width: 2, height: 2, colorType: .rgb, bitDepth: 8, samples: [[[255, 0, 0], [0, 0, 255]], [[0, 0, 255], [255, 0, 0]]])
        let (doc, pdf, svg) = try Self.drawn("", ##"<image width="16" height="16" href="data:image/png;base64,\##(png.base64EncodedString())"/>"##)
        #expect(doc.vectorForm.bitmap.isEmpty && doc.vectorForm.document === doc, "\(doc.vectorForm.bitmap)")
        #expect(Self.pdfImageWidths(pdf) == [2], "\(Self.pdfImageWidths(pdf))")  // the 2 × 2 PNG itself, not a 320 px recording
        #expect(Self.elementNames(svg).filter { $0 == "image" }.count == 1)
    }

    @Test("a filter and a mask that is not a stencil are bitmaps at 16 px per point, named with their line")
    func bitmapsAtFourTimesTheLargestScale() throws {
        // 16 pt image in a 20 pt box: fitted at 20 pt, so librsvg's filter region (the whole image) is
        // 20 pt × 16 px/pt = 320 px wide: 4 × the largest display scale (@4x), not 20 px.
        let blur = try Self.drawn(##"<filter id="f"><feGaussianBlur stdDeviation="1"/></filter>"##,
                                  ##"<rect id="blurred" x="4" y="4" width="8" height="8" filter="url(#f)"/>"##)
        #expect(blur.doc.vectorForm.bitmap == [##"<rect id="blurred"> (line 3, filter="url(#f)")"##])
        #expect(!Self.pdfImageWidths(blur.pdf).isEmpty && Self.pdfImageWidths(blur.pdf).allSatisfy { $0 == 320 },
                "\(Self.pdfImageWidths(blur.pdf))")
        let svgImages = String(decoding: blur.svg, as: UTF8.self).matches(of: /<image[^>]* width="(\d+)"/).map { Int($0.output.1)! }
        #expect(svgImages == [320], "\(svgImages)")
        // A luminance mask of a gradient has no clip-path form: it stays a bitmap, at the same resolution.
        let fade = try Self.drawn(##"<linearGradient id="g"><stop offset="0" stop-color="#fff"/><stop offset="1" stop-color="#000"/></linearGradient><mask id="m"><rect width="16" height="16" fill="url(#g)"/></mask>"##,
                                  ##"<rect width="16" height="16" mask="url(#m)"/>"##)
        #expect(fade.doc.vectorForm.bitmap == [##"<rect> (line 3, mask="url(#m)")"##])
        #expect(fade.doc.vectorForm.masksRewritten.isEmpty)
        #expect(Self.pdfImageWidths(fade.pdf).allSatisfy { $0 == 320 } && !Self.pdfImageWidths(fade.pdf).isEmpty)
    }

    @Test("a stencil mask becomes clip paths; a mask whose black comes first, or that strokes, is left alone")
    func stencilRewrite() throws {
        let on = try Data(contentsOf: Self.primer.appendingPathComponent("on.svg"))
        let rewrite = try #require(SVGVectorForm.rewriteStencilMasks(on, extent: 128))
        #expect(rewrite.masks == ["tick"])
        let names = Self.elementNames(rewrite.data)
        #expect(names.filter { $0 == "clipPath" }.count == 2)  // the white box kept, the tick cut
        let text = String(decoding: rewrite.data, as: UTF8.self)
        #expect(!text.contains(##"mask="url(#tick)""##))
        #expect(text.contains(##"clip-path="url(#glyphaudit-vector-tick-keep)""##))
        #expect(text.contains(##"clip-rule="nonzero""##) && !text.contains("evenodd") && text.contains("M-128 -128H128V128H-128Z M11.7803"))
        // The other way round: the outer path wound against a black path of the other direction.
        let other = try #require(SVGVectorForm.rewriteStencilMasks(on, extent: 128, clockwise: false))
        #expect(String(decoding: other.data, as: UTF8.self).contains("M-128 -128V128H128V-128Z M11.7803"))
        for mask in [##"<mask id="m"><path d="M0 0h4v4z" fill="#000"/><rect width="16" height="16" fill="#fff"/></mask>"##,
                     ##"<mask id="m"><rect width="16" height="16" fill="#fff" stroke="#000"/></mask>"##,
                     ##"<mask id="m"><rect width="16" height="16" fill="#fff" opacity=".5"/></mask>"##,
                     ##"<mask id="m" maskContentUnits="objectBoundingBox"><rect width="1" height="1" fill="#fff"/></mask>"##] {
            let svg = ##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16">\##(mask)<rect width="16" height="16" mask="url(#m)"/></svg>"##
            #expect(SVGVectorForm.rewriteStencilMasks(Data(svg.utf8), extent: 128) == nil, "\(mask)")
        }
    }
}
