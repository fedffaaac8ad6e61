import Foundation
import Testing
@testable import GlyphCore
@testable import GlyphExport
@testable import GlyphPipeline
@testable import GlyphRaster
@testable import GlyphRender
import GlyphTestSupport

/// PDF images (poppler): a PDF named in `images`, an image set's vector PDF, and what
/// `export --xcassets --vector` writes read back.
@Suite("PDF images")
struct PDFImageTests {
    /// A PDF of `pages` pages of `width` × `height` pt, each drawing `content` (a content stream),
    /// with a correct cross-reference table (poppler need not repair it).
    static func pdf(width: Int, height: Int, content: String, pages: Int = 1) -> Data {
        var objects = ["<< /Type /Catalog /Pages 2 0 R >>",
                       "<< /Type /Pages /Kids [\((0..<pages).map { "\(3 + 2 * $0) 0 R" }.joined(separator: " "))] /Count \(pages) >>"]
        for p in 0..<pages {
            objects.append("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 \(width) \(height)] /Contents \(4 + 2 * p) 0 R /Resources << >> >>")
            objects.append("<< /Length \(content.utf8.count) >>\nstream\n\(content)\nendstream")
        }
        var out = "%PDF-1.4\n"
        var offsets: [Int] = []
        for (i, o) in objects.enumerated() {
            offsets.append(out.utf8.count)
            out += "\(i + 1) 0 obj\n\(o)\nendobj\n"
        }
        let xref = out.utf8.count
        out += "xref\n0 \(objects.count + 1)\n0000000000 65535 f \n"
        for o in offsets { out += String(format: "%010d 00000 n \n", o) }
        out += "trailer\n<< /Size \(objects.count + 1) /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n"
        return Data(out.utf8)
    }

    /// 24 × 12 pt, its left half blue (PDF's y axis points up: the rect is x 0…12, the whole height).
    static let halfBlue = pdf(width: 24, height: 12, content: "0 0 1 rg 0 0 12 12 re f")

    static func spec(on: String, off: String, template: Bool? = false, extra: String = "",
                     themes: String = ##"{ "default": { "surface": "#FFFFFF" } }"##) -> String {
        ImageAssetTests.spec(on: on, off: off, template: template, themes: themes, extra: extra)
    }

    func load(_ json: String, _ folder: TempFolder, at name: String = "spec.json") throws -> Spec {
        try Spec.load(contentsOf: folder.write(name, json))
    }

    func failure(_ json: String, _ folder: TempFolder) -> InputError? {
        do { _ = try Spec.load(contentsOf: folder.write("spec.json", json)); return nil } catch { return error }
    }

    @Test("a PDF's size is its first page's size in points; it draws where its content is, as a vector at every scale")
    func sizeAndPixels() throws {
        let image = try PDFImage(data: Self.halfBlue, name: "half.pdf")
        #expect(image.width == 24 && image.height == 12 && image.pages == 1)
        for scale in [1, 2, 3] {
            let r = Renderer.raster(image: image, width: 24 * scale, height: 12 * scale)
            // The rect's edges lie on the pixel grid at every scale: fully covered, or not at all.
            for (x, y) in [(0, 0), (11, 11), (5, 6)] {
                let p = r.pixel(x * scale, y * scale)
                #expect([p.r, p.g, p.b, p.a] == [0, 0, 255, 255], "@\(scale)x (\(x), \(y))")
            }
            for (x, y) in [(12, 0), (23, 11), (18, 6)] {
                #expect(r.pixel(x * scale + scale - 1, y * scale).a == 0, "@\(scale)x (\(x), \(y))")
            }
        }
        // Drawn onto a PDF surface it stays a vector: cairo's output holds the path, not an image.
        let f = TempFolder()
        f.write("half.pdf", Self.halfBlue)
        ImageAssetTests.imageSet(f, "off", ImageAssetTests.grey)
        let spec = try load(Self.spec(on: "half.pdf", off: "A.xcassets/off.imageset"), f)
        #expect(spec.warnings.isEmpty, "\(spec.warnings)")
        #expect(spec.images?.on is PDFImage)
        let plan = try Plan(specs: [spec])
        let item = try #require(plan.items.first { $0.variant.state == .checked })
        let vector = String(decoding: Renderer.vector(item.layout, spec: item.spec, format: .pdf, parts: [.glyph]), as: UTF8.self)
        #expect(!vector.contains("/Subtype /Image"), "the PDF image was rasterised into the PDF output")
        // Fitted into the 20 pt box keeping its aspect: 20 × 10 pt, centred; its left half blue.
        let rect = try #require(item.layout.image)
        for scale in [1, 2, 3] {
            let at = try #require(plan.items.first { $0.variant.state == .checked && $0.variant.scale == scale })
            let r = Renderer.raster(at.layout, spec: at.spec, parts: [.glyph])
            let s = Double(scale)
            let left = r.pixel(Int((rect.minX + 5) * s), Int(rect.midY * s)), right = r.pixel(Int((rect.maxX - 5) * s), Int(rect.midY * s))
            #expect([left.r, left.g, left.b, left.a] == [0, 0, 255, 255] && right.a == 0, "@\(scale)x")
        }
    }

    @Test("a PDF cairo wrote (render --format pdf) reads back at the layout's size in points")
    func cairoPDF() throws {
        for name in ["swiftui-switch", "design-system-checkbox"] {
            let plan = try Plan(specs: [try Presets.load(name)])
            let item = try #require(plan.items.first)
            let data = Renderer.vector(item.layout, spec: item.spec, format: .pdf)
            let image = try PDFImage(data: data, name: "\(name).pdf")
            #expect(image.width == item.layout.canvas.width && image.height == item.layout.canvas.height,
                    "\(name): \(image.width) × \(image.height), canvas \(item.layout.canvas.width) × \(item.layout.canvas.height)")
        }
    }

    @Test("several pages: the first is drawn, with a warning; no pages, a password, damage, or no PDF header: bad input naming the file")
    func badPDFs() throws {
        let f = TempFolder()
        ImageAssetTests.imageSet(f, "off", ImageAssetTests.grey)
        f.write("two.pdf", Self.pdf(width: 30, height: 10, content: "0 0 1 rg 0 0 30 10 re f", pages: 2))
        let two = try load(Self.spec(on: "two.pdf", off: "A.xcassets/off.imageset"), f)
        #expect(two.warnings.map(\.message) == ["\(f.url.path)/two.pdf has 2 pages; its first page is drawn (as Xcode draws it)"],
                "\(two.warnings)")
        #expect(two.warnings.first?.keyPath == "images.on")
        #expect(two.images?.on.width == 30 && two.images?.on.height == 10)

        let cases: [(String, Data, String)] = [
            ("none.pdf", Self.pdf(width: 10, height: 10, content: "", pages: 0), "the PDF has no pages"),
            ("garbage.pdf", Data("%PDF-1.4\nthis is not a PDF at all\n".utf8), "cannot read this PDF: "),
            ("truncated.pdf", Self.halfBlue.prefix(40), "cannot read this PDF: "),
            ("empty.pdf", Data(), "the PDF file is empty"),
            ("svg.pdf", Data(ImageAssetTests.svg24.utf8), "cannot read this PDF: it does not begin with the PDF header %PDF-"),
            ("large.pdf", Self.halfBlue + Data(count: Limits.pdfFileBytes + 1 - Self.halfBlue.count),
             "the PDF image is 8388609 bytes; the limit is 8 MiB (docs/limits.md)"),
            ("locked.pdf", Self.encrypted, "the PDF is encrypted with a password; glyphaudit does not open it"),
        ]
        for (name, data, words) in cases {
            f.write(name, data)
            let e = try #require(failure(Self.spec(on: name, off: "A.xcassets/off.imageset"), f), "\(name) accepted")
            #expect(e.file.hasSuffix("spec.json") && e.keyPath == "images.on", "\(e)")
            #expect(e.message.hasPrefix("\(f.url.path)/\(name): \(words)"), "\(name): \(e.message)")
        }
        // The same inside an image set: the spec key, then the file.
        f.write("A.xcassets/bad.imageset/bad.pdf", "%PDF-1.4\nnothing\n")
        f.write("A.xcassets/bad.imageset/Contents.json", ImageAssetTests.contents([ImageAssetTests.entry("bad.pdf")],
                                                                                   properties: #""preserves-vector-representation" : true"#))
        let inSet = try #require(failure(Self.spec(on: "A.xcassets/bad.imageset", off: "A.xcassets/off.imageset"), f))
        #expect(inSet.keyPath == "images.on" && inSet.message.hasPrefix("\(f.url.path)/A.xcassets/bad.imageset/bad.pdf: cannot read this PDF"),
                "\(inSet)")
    }

    /// A one-page PDF encrypted with RC4 (40-bit, revision 2) under the user password "secret":
    /// poppler cannot open it without that password.
    static let encrypted: Data = {
        // The standard security handler needs only an /Encrypt dictionary whose /U does not match the
        // empty password; the page's content is never decrypted because the document does not open.
        let o = String(repeating: "00", count: 32), u = String(repeating: "11", count: 32)
        var out = "%PDF-1.4\n"
        let objects = ["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                       "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 10 10] >>",
                       "<< /Filter /Standard /V 1 /R 2 /O <\(o)> /U <\(u)> /P -4 >>"]
        var offsets: [Int] = []
        for (i, obj) in objects.enumerated() {
            offsets.append(out.utf8.count)
            out += "\(i + 1) 0 obj\n\(obj)\nendobj\n"
        }
        let xref = out.utf8.count
        out += "xref\n0 5\n0000000000 65535 f \n" + offsets.map { String(format: "%010d 00000 n \n", $0) }.joined()
        out += "trailer\n<< /Size 5 /Root 1 0 R /Encrypt 4 0 R /ID [<0123456789abcdef0123456789abcdef> <0123456789abcdef0123456789abcdef>] >>\n"
        out += "startxref\n\(xref)\n%%EOF\n"
        return Data(out.utf8)
    }()

    @Test("an image set's PDF: preserves-vector-representation draws it at every scale; without, its PNGs per scale, else the PDF rasterised at 1x, 2x, 3x")
    func imageSets() throws {
        let f = TempFolder()
        ImageAssetTests.imageSet(f, "off", ImageAssetTests.grey)
        let vector = #""preserves-vector-representation" : true"#
        // 20 × 20 pt, blue.
        let blue = Self.pdf(width: 20, height: 20, content: "0 0 1 rg 0 0 20 20 re f")
        f.write("A.xcassets/v.imageset/v.pdf", blue)
        for s in 1...3 { f.write("A.xcassets/v.imageset/v\(s)x.png", ImageAssetTests.solid(20 * s, 20 * s, ImageAssetTests.red)) }
        let entries = [ImageAssetTests.entry("v.pdf")] + (1...3).map { ImageAssetTests.entry("v\($0)x.png", scale: "\($0)x") }
        func centre(_ spec: Spec, _ scale: Int) throws -> [UInt8] { try ImageAssetTests().centre(spec, state: .checked, scale: scale) }

        // PDF and PNGs, preserving vector data: the PDF at every scale.
        f.write("A.xcassets/v.imageset/Contents.json", ImageAssetTests.contents(entries, properties: vector))
        let preserved = try load(Self.spec(on: "A.xcassets/v.imageset", off: "A.xcassets/off.imageset"), f)
        #expect(preserved.warnings.isEmpty, "\(preserved.warnings)")
        let asset = try #require(preserved.images?.on as? ImageAsset)
        #expect(asset.renditions.count == 1 && asset.renditions[0].scale == nil && asset.renditions[0].image is PDFImage)
        for s in 1...3 { #expect(try centre(preserved, s) == [0, 0, 255, 255], "@\(s)x") }

        // Not preserving it: the PNGs per scale.
        f.write("A.xcassets/v.imageset/Contents.json", ImageAssetTests.contents(entries))
        let bitmaps = try load(Self.spec(on: "A.xcassets/v.imageset", off: "A.xcassets/off.imageset"), f)
        #expect(bitmaps.warnings.isEmpty, "\(bitmaps.warnings)")
        #expect(try #require(bitmaps.images?.on as? ImageAsset).renditions.map(\.scale) == [1, 2, 3])
        for s in 1...3 { #expect(try centre(bitmaps, s) == [255, 0, 0, 255], "@\(s)x") }

        // Only the PDF, not preserving it: rasterised at 1x, 2x and 3x (bitmaps of 20, 40, 60 px).
        f.write("A.xcassets/v.imageset/Contents.json", ImageAssetTests.contents([ImageAssetTests.entry("v.pdf")]))
        let rasterised = try load(Self.spec(on: "A.xcassets/v.imageset", off: "A.xcassets/off.imageset"), f)
        #expect(rasterised.warnings.isEmpty, "\(rasterised.warnings)")
        let r = try #require(rasterised.images?.on as? ImageAsset)
        #expect(r.renditions.map(\.scale) == [1, 2, 3])
        #expect(r.renditions.map { ($0.image as? PNGImage)?.raster.width } == [20, 40, 60])
        #expect(r.width == 20 && r.height == 20)
        for s in 1...3 { #expect(try centre(rasterised, s) == [0, 0, 255, 255], "@\(s)x") }

        // A template PDF: its coverage is painted with the tint.
        f.write("A.xcassets/v.imageset/Contents.json", ImageAssetTests.contents([ImageAssetTests.entry("v.pdf")],
                                                                                 properties: vector + #", "template-rendering-intent" : "template""#))
        f.write("A.xcassets/t.imageset/Contents.json", ImageAssetTests.contents([ImageAssetTests.entry("t.pdf")],
                                                                                 properties: vector + #", "template-rendering-intent" : "template""#))
        f.write("A.xcassets/t.imageset/t.pdf", Self.halfBlue)
        let tinted = try load(Self.spec(on: "A.xcassets/v.imageset", off: "A.xcassets/t.imageset", template: nil,
                                        themes: ##"{ "default": { "surface": "#FFFFFF", "tint": "#FF8000" } }"##), f)
        #expect(tinted.images?.template == true && tinted.warnings.isEmpty, "\(tinted.warnings)")
        for s in 1...3 { #expect(try centre(tinted, s) == [255, 128, 0, 255], "@\(s)x") }
    }

    /// Pixel differences between two rasters of one size: the largest channel difference (of
    /// straight RGBA), and how many pixels differ by more than `threshold` in some channel.
    static func difference(_ a: Raster, _ b: Raster, threshold: Int) -> (max: Int, count: Int) {
        precondition(a.width == b.width && a.height == b.height)
        var worst = 0, count = 0
        for i in stride(from: 0, to: a.pixels.count, by: 4) {
            var d = 0
            for c in 0..<4 { d = max(d, abs(Int(a.pixels[i + c]) - Int(b.pixels[i + c]))) }
            worst = max(worst, d)
            if d > threshold { count += 1 }
        }
        return (worst, count)
    }

    @Test("a PDF encrypted with an empty user password (poppler opens it) is refused: the pre-scan cannot read its streams")
    func encryptedOpenable() throws {
        let f = TempFolder()
        ImageAssetTests.imageSet(f, "off", ImageAssetTests.grey)
        f.write("on.pdf", try Data(contentsOf: TestPaths.fixture("pdf/encrypted-empty-user-password.pdf")))
        let e = try #require(failure(Self.spec(on: "on.pdf", off: "A.xcassets/off.imageset"), f))
        #expect(e.keyPath == "images.on" && e.message == "\(f.url.path)/on.pdf: the PDF is encrypted; glyphaudit cannot bound the "
                + "work of drawing an encrypted PDF (save it without encryption)", "\(e)")
        // The scan finds the /Encrypt dictionary in the trailer and reads no stream.
        #expect(try PDFScan.check(try Data(contentsOf: TestPaths.fixture("pdf/encrypted-empty-user-password.pdf"))).encrypted)
    }

    @Test("every built-in preset's PDF export passes the PDF pre-scan, far inside its limits")
    func exportsPassPreScan() throws {
        let specs = try ["swiftui-checkbox", "swiftui-switch", "design-system-checkbox", "rvs-checkbox"].map { try Presets.load($0) }
        let catalog = try AssetCatalog(specs: specs, format: .pdf)
        var worst = PDFScan.Measures(), count = 0
        for set in catalog.imageSets {
            for image in set.images {
                let m = try PDFScan.check(try AssetCatalog.render(image, format: .pdf))
                #expect(!m.encrypted && m.pages == 1, "\(image.filename)")
                worst.decodedBytes = max(worst.decodedBytes, m.decodedBytes)
                worst.formDepth = max(worst.formDepth, m.formDepth)
                worst.draws = max(worst.draws, m.draws)
                worst.drawnContentBytes = max(worst.drawnContentBytes, m.drawnContentBytes)
                worst.drawnPixels = max(worst.drawnPixels, m.drawnPixels)
                count += 1
            }
        }
        print("PDF exports: \(count) PDFs, worst \(worst)")
        // Measured (cairo 1.16): a few KB decoded, forms 2 deep, a few draws, no images. A hundredth
        // of each limit leaves room for cairo's versions.
        #expect(count > 20)
        #expect(worst.decodedBytes < Limits.pdfDecodedBytes / 100 && worst.formDepth <= 4 && worst.draws < Limits.pdfDraws / 100
                && worst.drawnContentBytes < Limits.pdfDrawnContentBytes / 100 && worst.drawnPixels == 0, "\(worst)")
    }

    @Test("export --xcassets --vector (PDF) read back as images renders close to the original, at every scale and appearance")
    func exportRoundTrip() throws {
        let f = TempFolder()
        let presets = ["design-system-checkbox", "rvs-checkbox", "swiftui-switch"]
        let specs = try presets.map { try Presets.load($0) }
        // Each exported PDF, read by poppler, against the same image drawn by cairo directly.
        let catalog = try AssetCatalog(specs: specs, format: .pdf)
        // Measured (poppler 22.12 drawing onto cairo 1.16, the 3 presets' 23 images at 1x, 2x, 3x): at 1x
        // identical; at 2x and 3x at most 3.2 % of an image's pixels differ at all (287 px of 17,424 at
        // most), the largest channel difference (straight RGBA, at a faint edge pixel) is 42, at most 0.30 % of an image's pixels differ by more
        // than 4 and 0.10 % (1 px of 1,024; 3 px at most) by more than 16. Tolerance, with a margin:
        // channel difference ≤ 64, ≤ 1 % of pixels off by more than 4, ≤ 0.5 % by more than 16.
        var worst = 0, compared = 0
        for set in catalog.imageSets {
            for image in set.images {
                let pdf = try PDFImage(data: try AssetCatalog.render(image, format: .pdf), name: image.filename)
                #expect(pdf.width == image.layout.canvas.width && pdf.height == image.layout.canvas.height, "\(image.filename)")
                for scale in [1, 2, 3] {
                    var layout = image.layout
                    layout.variant.scale = scale
                    let direct = Renderer.raster(layout, spec: image.spec, parts: [.glyph])
                    let fromPDF = Renderer.raster(image: pdf, width: direct.width, height: direct.height)
                    let pixels = Double(direct.width * direct.height)
                    let few = Self.difference(fromPDF, direct, threshold: 4), far = Self.difference(fromPDF, direct, threshold: 16)
                    worst = max(worst, far.max)
                    #expect(far.max <= 64 && Double(few.count) / pixels <= 0.01 && Double(far.count) / pixels <= 0.005,
                            "\(image.filename) @\(scale)x: max \(far.max), \(few.count) px > 4, \(far.count) px > 16")
                    compared += 1
                }
            }
        }
        #expect(compared == catalog.imageSets.map(\.images.count).reduce(0, +) * 3 && compared == 69) // 23 images × 3 scales
        // The measurement itself: most images differ somewhere (the comparison is not comparing a thing with itself).
        #expect(worst > 0)

        // Through a spec: the image sets read back draw every variant close to the preset's own render.
        try AssetCatalog.write(try catalog.files(jobs: 2), to: f.url.appendingPathComponent("G.xcassets"))
        let back = designSystemReadBack(catalog: "G.xcassets")
        let spec = try load(back, f, at: "spec/back.json")
        #expect(spec.warnings.isEmpty, "\(spec.warnings)")
        let on = try #require(spec.images?.on as? ImageAsset)
        #expect(on.hasDark && on.renditions.allSatisfy { $0.scale == nil && $0.image is PDFImage })
        // The same spec drawn from the PNG export: the reference the PDF one must come close to.
        try AssetCatalog.write(try AssetCatalog(specs: specs).files(jobs: 2), to: f.url.appendingPathComponent("P.xcassets"))
        let png = try load(designSystemReadBack(catalog: "P.xcassets"), f, at: "spec/png.json")
        let a = try Plan(specs: [png]), b = try Plan(specs: [spec])
        #expect(a.items.count == b.items.count && a.items.count > 0)
        let ra = a.renderAll(jobs: 2), rb = b.renderAll(jobs: 2)
        // Measured: largest channel difference 9, no pixel off by more than 16 (the glyphs drawn on their
        // surfaces). Same tolerance as above.
        var specWorst = 0
        for i in 0..<ra.count {
            let pixels = Double(ra[i].width * ra[i].height)
            let few = Self.difference(ra[i], rb[i], threshold: 4), far = Self.difference(ra[i], rb[i], threshold: 16)
            specWorst = max(specWorst, far.max)
            #expect(far.max <= 64 && Double(few.count) / pixels <= 0.01 && Double(far.count) / pixels <= 0.005,
                    "\(b.items[i].variant.id): max \(far.max), \(few.count) px > 4, \(far.count) px > 16")
        }
        #expect(specWorst > 0)
    }
}
