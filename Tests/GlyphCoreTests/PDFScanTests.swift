import Foundation
import Testing
@testable import GlyphCore
import GlyphTestSupport

/// The PDF pre-scan (`PDFScan`) on small PDFs written by hand (`MiniPDF`): each limit of
/// docs/limits.md just under and just over, with the figures worked out from the PDF's structure.
/// The reproducers 12–15 run through the CLI in glyphauditTests/CLIPDFBoundsTests.swift.
@Suite("PDF pre-scan: the work a PDF image may cost, bounded before poppler draws it")
struct PDFScanTests {
    static func scan(_ data: Data, _ budget: PDFScan.Budget = PDFScan.Budget()) -> Result<PDFScan.Measures, PDFScan.Refusal> {
        do { return .success(try PDFScan.check(data, budget: budget)) } catch { return .failure(error) }
    }

    static func refusal(_ data: Data, _ budget: PDFScan.Budget = PDFScan.Budget()) -> String? {
        if case .failure(let e) = scan(data, budget) { return e.message }
        return nil
    }

    /// CPU seconds of this thread (a test's body runs on one thread): unlike the clock, not slowed by
    /// other work on the machine.
    static func cpu() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    static func measures(_ data: Data, _ budget: PDFScan.Budget = PDFScan.Budget()) throws -> PDFScan.Measures {
        try PDFScan.check(data, budget: budget)
    }

    @Test("the limits are docs/limits.md's")
    func values() {
        #expect(Limits.pdfDecodedBytes == 16 * 1024 * 1024)
        #expect(Limits.pdfFormDepth == 32)
        #expect(Limits.pdfDraws == 10_000)
        #expect(Limits.pdfDrawnContentBytes == 32 * 1024 * 1024)
        #expect(Limits.pdfDrawnPixels == 67_108_864)
    }

    @Test("a plain page: one content stream, nothing drawn but paths")
    func plain() throws {
        let content = "0 0 1 rg 4 4 16 16 re f"
        let m = try Self.measures(MiniPDF.page(content: content))
        #expect(m.pages == 1 && m.draws == 0 && m.formDepth == 0 && !m.encrypted)
        // The stream's data runs to `endstream` (the newline before it included).
        #expect(m.decodedBytes == content.utf8.count + 1)
    }

    @Test("fan-out: a form drawing the next twice, d deep, draws 2^(d+1) - 1 forms; past 10,000 refused")
    func fanout() throws {
        // Depth 12: X0 … X12, 1 + 2 + … + 4096 = 8191 forms drawn, 13 nested.
        let under = try Self.measures(MiniPDF.fanout(depth: 12))
        #expect(under.draws == 8191 && under.formDepth == 13)
        // Depth 13: 16383 > 10000.
        let over = try #require(Self.refusal(MiniPDF.fanout(depth: 13)))
        #expect(over == "its pages draw more than 10000 XObjects, counting every repeat (a form drawn twice draws "
                + "what it draws twice); the limit is 10000 (docs/limits.md)")
        // 2^40 stops at the limit, at once.
        let start = Self.cpu()
        #expect(Self.refusal(MiniPDF.fanout(depth: 40, fan: 2)) != nil)
        #expect(Self.refusal(MiniPDF.fanout(depth: 13, fan: 1000)) != nil)
        #expect(Self.cpu() - start < 1, "\(Self.cpu() - start) s of CPU")
    }

    @Test("nesting: 32 forms inside each other are drawn, 33 are refused")
    func nesting() throws {
        // fan 1, depth 31: X0 … X31 is 32 forms, each inside the last.
        let under = try Self.measures(MiniPDF.fanout(depth: 31, fan: 1))
        #expect(under.formDepth == 32 && under.draws == 32)
        #expect(Self.refusal(MiniPDF.fanout(depth: 32, fan: 1))
                == "its Form XObjects nest more than 32 deep (form 37); the limit is 32 (docs/limits.md)")
    }

    @Test("a form that draws itself is not drawn again inside itself (as poppler does), so it costs one more draw")
    func selfDrawing() throws {
        let form = MiniPDF.stream("/X Do", "/Type /XObject /Subtype /Form /BBox [0 0 1 1] /Resources << /XObject << /X 5 0 R >> >>")
        let m = try Self.measures(MiniPDF.page(content: "/X Do", resources: "<< /XObject << /X 5 0 R >> >>", more: [form]))
        #expect(m.draws == 2 && m.formDepth == 1)
    }

    @Test("decoded size: a Flate stream decoding to exactly the budget passes, one byte more is refused")
    func decodedBudget() throws {
        var budget = PDFScan.Budget()
        budget.decodedBytes = 100_000
        // The page's content, 100,000 bytes once inflated (stored deflate blocks, 2 of them).
        let body = Data(repeating: 0x20, count: 100_000 - 24) + Data("0 0 1 rg 0 0 1 1 re f\n\n\n".utf8)
        #expect(body.count == 100_000)
        let at = MiniPDF.page(content: MiniPDF.stored(body), contentDict: "/Filter /FlateDecode")
        #expect(try Self.measures(at, budget).decodedBytes == 100_000)
        let over = MiniPDF.page(content: MiniPDF.stored(body + Data(" ".utf8)), contentDict: "/Filter /FlateDecode")
        #expect(Self.refusal(over, budget) == "its streams decode to more than 100000 bytes (stream 4 passes it); the limit is "
                + "100000 bytes of decoded PDF streams (docs/limits.md)")
        // Filters in a chain: ASCIIHex of Flate.
        let hex = Data(MiniPDF.stored(body).map { String(format: "%02x", $0) }.joined().utf8) + Data(">".utf8)
        let chained = MiniPDF.page(content: hex, contentDict: "/Filter [/ASCIIHexDecode /FlateDecode]")
        #expect(try Self.measures(chained, budget).decodedBytes == 100_000)
    }

    @Test("reproducer 14 in small: 64 MiB of spaces in 64 KB of Flate is refused at 16 MiB, in well under a second")
    func contentBomb() throws {
        let data = try Data(contentsOf: TestPaths.fixture("bad-input/14-pdf-content-stream-bomb-slow/on-64MiB.pdf"))
        let start = Self.cpu()
        #expect(Self.refusal(data) == "its streams decode to more than 16 MiB (stream 4 passes it); the limit is 16 MiB of "
                + "decoded PDF streams (docs/limits.md)")
        #expect(Self.cpu() - start < 1, "\(Self.cpu() - start) s of CPU")
    }

    @Test("images: 8192 × 2048 (16,777,216 px) passes; 8193 on a side, 4097 × 4097, or an inline image past them is refused")
    func images() throws {
        func drawing(_ w: Int, _ h: Int) -> Data {
            MiniPDF.page(content: "q 24 0 0 24 0 0 cm /Im Do Q", resources: "<< /XObject << /Im 5 0 R >> >>",
                         more: [MiniPDF.image(width: w, height: h)])
        }
        let at = try Self.measures(drawing(8192, 2048))
        #expect(at.largestImage == 16_777_216 && at.drawnPixels == 16_777_216 && at.draws == 1)
        #expect(Self.refusal(drawing(8193, 1)) == "its image XObject 5 is 8193 × 1 px; the limit is 8192 px on a side and "
                + "16777216 px in all, as for a PNG (docs/limits.md)")
        #expect(Self.refusal(drawing(4097, 4097))?.hasPrefix("its image XObject 5 is 4097 × 4097 px") == true)
        // An image nothing draws is still checked (poppler might find a way to it the scan does not follow).
        #expect(Self.refusal(MiniPDF.page(content: "", more: [MiniPDF.image(width: 32000, height: 32000)])) != nil)
        // Inline images, by their abbreviated and full keys.
        #expect(try Self.measures(MiniPDF.page(content: "BI /W 4 /H 2 /CS /G /BPC 8 ID 12345678 EI")).drawnPixels == 8)
        #expect(Self.refusal(MiniPDF.page(content: "BI /Width 9000 /Height 1 /CS /G /BPC 8 ID x EI"))
                == "its inline image is 9000 × 1 px; the limit is 8192 px on a side and 16777216 px in all, as for a PNG (docs/limits.md)")
    }

    @Test("drawn pixels: an image of 4096² drawn 4 times passes (67,108,864 px), 5 times is refused")
    func drawnPixels() throws {
        func drawing(_ times: Int) -> Data {
            MiniPDF.page(content: Array(repeating: "/Im Do", count: times).joined(separator: " "),
                         resources: "<< /XObject << /Im 5 0 R >> >>", more: [MiniPDF.image(width: 4096, height: 4096)])
        }
        #expect(try Self.measures(drawing(4)).drawnPixels == 67_108_864)
        #expect(Self.refusal(drawing(5)) == "its pages draw more than 67108864 image pixels, counting every repeat; "
                + "the limit is 67108864 (docs/limits.md)")
    }

    @Test("content read per drawing: a form of 1 MiB drawn 31 times passes, 32 times (with the page's own content) is refused (32 MiB)")
    func drawnContent() throws {
        func drawing(_ times: Int) -> Data {
            let form = MiniPDF.stream(Data(repeating: 0x20, count: (1 << 20) - 1),
                                      "/Type /XObject /Subtype /Form /BBox [0 0 1 1]")
            let page = Array(repeating: "/F Do", count: times).joined(separator: " ")
            return MiniPDF.page(content: page, resources: "<< /XObject << /F 5 0 R >> >>", more: [form])
        }
        // The page's own content: "/F Do" times n with spaces, and the newline before endstream.
        let m = try Self.measures(drawing(31))
        #expect(m.drawnContentBytes == 31 * (1 << 20) + (31 * 6 - 1) + 1 + 1)
        #expect(Self.refusal(drawing(32))?.hasPrefix("drawing its pages reads more than 32 MiB of content streams") == true)
    }

    @Test("what hides the fan-out is followed: object streams, operands split across content streams, soft masks, patterns, Type 3 glyphs, annotations")
    func hidden() throws {
        // A 2^13 fan-out whose links are inside an object stream (Flate). Forms are streams, so they cannot be in an object stream; what is inside is their resources.
        // Here each form's /Resources is an object (10 + i) inside the object stream.
        var objs: [Data] = [MiniPDF.object("<< /Type /Catalog /Pages 2 0 R >>"), MiniPDF.object("<< /Type /Pages /Kids [3 0 R] /Count 1 >>"),
                            MiniPDF.object("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 1 1] /Resources << /XObject << /X 20 0 R >> >> /Contents 4 0 R >>"),
                            MiniPDF.stream("/X Do")]
        var header = "", body = ""
        for i in 0..<13 {
            header += "\(5 + i) \(body.utf8.count) "
            body += "<< /XObject << /X \(21 + i) 0 R >> >>\n"
        }
        let objstm = Data((header + body).utf8)
        objs.append(contentsOf: (5..<18).map { _ in MiniPDF.object("null") })  // replaced by the object stream's
        objs.append(MiniPDF.stream(MiniPDF.stored(objstm), "/Type /ObjStm /N 13 /First \(header.utf8.count) /Filter /FlateDecode"))  // 18
        objs.append(MiniPDF.object("null"))  // 19
        for i in 0...13 {  // 20 … 33
            objs.append(MiniPDF.stream(i < 13 ? "/X Do /X Do" : "0 0 1 1 re f",
                                       "/Type /XObject /Subtype /Form /BBox [0 0 1 1]" + (i < 13 ? " /Resources \(5 + i) 0 R" : "")))
        }
        #expect(Self.refusal(MiniPDF.build(objs))?.hasPrefix("its pages draw more than 10000 XObjects") == true)

        // "/X" at the end of one content stream, "Do" at the start of the next.
        let fan = MiniPDF.fanout(depth: 13)
        let split = String(decoding: fan, as: UTF8.self)
            .replacingOccurrences(of: "/Contents 4 0 R", with: "/Contents [4 0 R 40 0 R]")
            .replacingOccurrences(of: "<< /Length 5  >>\nstream\n/X Do\nendstream", with: "<< /Length 2  >>\nstream\n/X\nendstream")
        var splitObjs = Data(split.utf8)
        splitObjs.append(Data("40 0 obj\n<< /Length 2 >>\nstream\nDo\nendstream\nendobj\n".utf8))
        #expect(Self.refusal(splitObjs)?.hasPrefix("its pages draw more than 10000 XObjects") == true)

        // An `endstream` inside the page's content, its real end given by an indirect /Length: the
        // Do after it is read too.
        let early = "/X Do"
        let hiddenDo = String(decoding: fan, as: UTF8.self)
            .replacingOccurrences(of: "<< /Length 5  >>\nstream\n/X Do\nendstream",
                                  with: "<< /Length 41 0 R >>\nstream\n% endstream\n\(early)\nendstream")
        var withLength = Data(hiddenDo.utf8)
        withLength.append(Data("41 0 obj \("% endstream\n\(early)".utf8.count) endobj\n".utf8))
        #expect(Self.refusal(withLength)?.hasPrefix("its pages draw more than 10000 XObjects") == true)

        // An object whose `N G obj` holds a comment is found where the xref table says it is, and
        // where an xref stream (Flate, PNG Up predictor) says it is.
        let commented = String(decoding: fan, as: UTF8.self).replacingOccurrences(of: "\n6 0 obj\n", with: "\n6 %x\n0 obj\n")
        #expect(Self.refusal(Data(commented.utf8))?.hasPrefix("its pages draw more than 10000 XObjects") == true)
        let offset = try #require(Data(commented.utf8).firstRange(of: Data("\n6 %x".utf8))).lowerBound + 1
        var rows = Data()
        for _ in 0..<2 { rows += [2, 1, UInt8(offset >> 8), UInt8(offset & 0xFF), 0] }  // filter Up; the second row repeats the first
        var viaStream = Data(commented.replacingOccurrences(of: "xref\n0 ", with: "xrex\n0 ").utf8)
        viaStream += Data("50 0 obj\n".utf8) + MiniPDF.stream(MiniPDF.stored(rows), "/Type /XRef /W [1 2 1] /Size 51 /Filter /FlateDecode "
                                                                + "/DecodeParms << /Predictor 12 /Columns 4 >>") + Data("\nendobj\n".utf8)
        #expect(Self.refusal(viaStream)?.hasPrefix("its pages draw more than 10000 XObjects") == true)
        // Without either, object 6 is not found: X0 is drawn, and its two draws of a form not found count.
        #expect(try Self.measures(Data(commented.replacingOccurrences(of: "xref\n0 ", with: "xrex\n0 ").utf8)).draws == 3)

        // The same fan-out as a soft mask set by `gs`, a tiling pattern painted by `scn`, and a Type 3 glyph.
        let chain = (0...13).map { i in
            MiniPDF.stream(i < 13 ? "/X Do /X Do" : "0 0 1 1 re f",
                           "/Type /XObject /Subtype /Form /BBox [0 0 1 1]" + (i < 13 ? " /Resources << /XObject << /X \(8 + i) 0 R >> >>" : ""))
        }
        let viaMask = MiniPDF.page(content: "/G gs 0 0 1 1 re f", resources: "<< /ExtGState << /G 5 0 R >> >>",
                                   more: [MiniPDF.object("<< /Type /ExtGState /SMask << /S /Luminosity /G 7 0 R >> >>"), MiniPDF.object("null")] + chain)
        #expect(Self.refusal(viaMask)?.hasPrefix("its pages draw more than 10000 XObjects") == true)
        let viaPattern = MiniPDF.page(content: "/Pattern cs /P scn 0 0 1 1 re f", resources: "<< /Pattern << /P 5 0 R >> >>",
                                      more: [MiniPDF.stream("/X Do /X Do", "/PatternType 1 /PaintType 1 /TilingType 1 /BBox [0 0 1 1] /XStep 1 /YStep 1 /Resources << /XObject << /X 7 0 R >> >>"),
                                             MiniPDF.object("null")] + chain)
        #expect(Self.refusal(viaPattern)?.hasPrefix("its pages draw more than 10000 XObjects") == true)
        let viaType3 = MiniPDF.page(content: "BT /T 1 Tf (a) Tj ET", resources: "<< /Font << /T 5 0 R >> >>",
                                    more: [MiniPDF.object("<< /Type /Font /Subtype /Type3 /CharProcs << /a 6 0 R >> /Resources << /XObject << /X 7 0 R >> >> >>"),
                                           MiniPDF.stream("/X Do /X Do")] + chain)
        #expect(Self.refusal(viaType3)?.hasPrefix("its pages draw more than 10000 XObjects") == true)
        let viaAnnotation = MiniPDF.build([
            MiniPDF.object("<< /Type /Catalog /Pages 2 0 R >>"), MiniPDF.object("<< /Type /Pages /Kids [3 0 R] /Count 1 >>"),
            MiniPDF.object("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 1 1] /Annots [5 0 R] >>"), MiniPDF.object("null"),
            MiniPDF.object("<< /Type /Annot /Subtype /Square /Rect [0 0 1 1] /AP << /N 6 0 R >> >>"),
            MiniPDF.stream("/X Do /X Do", "/Type /XObject /Subtype /Form /BBox [0 0 1 1] /Resources << /XObject << /X 7 0 R >> >>"),
        ] + chain)
        #expect(Self.refusal(viaAnnotation)?.hasPrefix("its pages draw more than 10000 XObjects") == true)
    }

    @Test("what the scan cannot bound is refused: LZW content, an unknown filter, values nested past 256 levels; encryption is reported")
    func unbounded() throws {
        #expect(Self.refusal(MiniPDF.page(content: Data("\u{80}\u{0B}".utf8), contentDict: "/Filter /LZWDecode"))
                == "stream 4 is in the LZWDecode filter, which glyphaudit does not read; it cannot bound the work of drawing "
                + "the PDF (save it with Flate compression)")
        #expect(Self.refusal(MiniPDF.page(content: Data("x".utf8), contentDict: "/Filter /Nonsense"))?.hasPrefix("stream 4 is in the Nonsense filter") == true)
        let deep = String(repeating: "[", count: 300) + String(repeating: "]", count: 300)
        #expect(Self.refusal(MiniPDF.build([MiniPDF.object(deep)]))?.hasPrefix("its values nest more than 256 levels deep") == true)
        let encrypted = MiniPDF.page(content: "0 0 1 1 re f", more: [MiniPDF.object("<< /Filter /Standard /V 1 /R 2 /O <00> /U <00> /P -4 >>")])
        let e = String(decoding: encrypted, as: UTF8.self).replacingOccurrences(of: "/Root 1 0 R", with: "/Root 1 0 R /Encrypt 5 0 R")
        #expect(try Self.measures(Data(e.utf8)).encrypted)
    }

    @Test("the scan itself stays linear: overlapping objects, references to references defined many times, a page its own parent")
    func linear() throws {
        let start = Self.cpu()
        // Each `1 0 obj (` opens a string that runs to the end of the file: 200,000 objects of 1.8 MB
        // each would be 360 GB read.
        let overlapping = Data(("%PDF-1.4\n" + String(repeating: "1 0 obj (", count: 200_000)).utf8)
        #expect(Self.refusal(overlapping) == "its objects overlap one another; glyphaudit cannot bound the work of drawing it")
        // Objects 5 and 6 refer to each other, each defined 300 times: followed once each.
        let cycle = (0..<300).map { _ in "5 0 obj 6 0 R endobj 6 0 obj 5 0 R endobj\n" }.joined()
        var pdf = MiniPDF.page(content: "/X Do /Y Do", resources: "5 0 R")
        pdf += Data(cycle.utf8)
        #expect(try Self.measures(pdf).draws == 2)
        // A page without resources that is its own parent, defined 30 times: each ancestor looked at once
        // (fuzzing found 3^64 lists of ancestors; Fuzz/corpus/pdf/regress-timeout-parent-self-many-definitions.pdf).
        let own = (0..<30).map { _ in "3 0 obj << /Type /Page /Parent 3 0 R /Contents 4 0 R >> endobj\n" }.joined()
        var selfParent = MiniPDF.page(content: "/X Do")
        selfParent += Data(own.utf8)
        #expect(try Self.measures(selfParent).pages == 31)
        #expect(Self.cpu() - start < 1, "\(Self.cpu() - start) s of CPU")
    }

    @Test("an image set's PDF rasterised: its bitmap against the PNG limits before it is made")
    func rasterPixels() {
        // Page size × scale, rounded up to whole pixels.
        #expect(Limits.rasterPixels(width: 24, height: 12.5, scale: 2).map { [$0.width, $0.height] } == [48, 25])
        #expect(Limits.rasterPixels(width: 1365, height: 1365, scale: 3).map { [$0.width, $0.height] } == [4095, 4095])
        #expect(Limits.rasterPixels(width: 1366, height: 1366, scale: 3) == nil)  // 4098² = 16,793,604 px
        #expect(Limits.rasterPixels(width: 8192, height: 2048, scale: 1).map { [$0.width, $0.height] } == [8192, 2048])
        #expect(Limits.rasterPixels(width: 8193, height: 1, scale: 1) == nil)
        #expect(Limits.rasterPixels(width: 2731, height: 1, scale: 3) == nil)  // 8193 px
        #expect(Limits.rasterPixels(width: 1e300, height: 1e300, scale: 3) == nil)
        #expect(Limits.rasterPixels(width: .infinity, height: 1, scale: 1) == nil)
        #expect(Limits.rasterPixels(width: .nan, height: 1, scale: 1) == nil)
        #expect(Limits.rasterPixels(width: 0, height: 0, scale: 1).map { [$0.width, $0.height] } == [1, 1])
    }
}
