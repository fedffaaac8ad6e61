import Foundation

/// Small PDFs written by hand for the tests of the PDF pre-scan (`PDFScan`): objects, a classic xref
/// table, streams plain or in zlib "stored" blocks (deflate without compression: no zlib needed).
public enum MiniPDF {
    /// A document of `objects` (object 1 is the catalog; object n is `objects[n - 1]`).
    public static func build(_ objects: [Data], trailer: String = "") -> Data {
        var out = Data("%PDF-1.5\n%\u{E2}\u{E3}\n".utf8)
        var offsets: [Int] = []
        for (i, body) in objects.enumerated() {
            offsets.append(out.count)
            out += Data("\(i + 1) 0 obj\n".utf8) + body + Data("\nendobj\n".utf8)
        }
        let xref = out.count
        out += Data("xref\n0 \(objects.count + 1)\n0000000000 65535 f \n".utf8)
        for o in offsets { out += Data(String(format: "%010d 00000 n \n", o).utf8) }
        out += Data("trailer\n<< /Size \(objects.count + 1) /Root 1 0 R \(trailer)>>\nstartxref\n\(xref)\n%%EOF\n".utf8)
        return out
    }

    public static func object(_ s: String) -> Data { Data(s.utf8) }

    /// A stream object with `dict` entries besides /Length.
    public static func stream(_ data: Data, _ dict: String = "") -> Data {
        Data("<< /Length \(data.count) \(dict) >>\nstream\n".utf8) + data + Data("\nendstream".utf8)
    }

    public static func stream(_ text: String, _ dict: String = "") -> Data { stream(Data(text.utf8), dict) }

    /// `data` as a zlib stream of stored (uncompressed) deflate blocks: FlateDecode gives `data` back.
    public static func stored(_ data: Data) -> Data {
        var out = Data([0x78, 0x01])
        let bytes = [UInt8](data)
        var at = 0
        repeat {
            let n = min(65535, bytes.count - at)
            let last: UInt8 = at + n == bytes.count ? 1 : 0
            out += [last, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
            out += bytes[at..<(at + n)]
            at += n
        } while at < bytes.count
        var a: UInt32 = 1, b: UInt32 = 0
        for c in bytes { a = (a + UInt32(c)) % 65521; b = (b + a) % 65521 }
        let adler = b << 16 | a
        out += [UInt8(adler >> 24), UInt8((adler >> 16) & 0xFF), UInt8((adler >> 8) & 0xFF), UInt8(adler & 0xFF)]
        return out
    }

    /// Catalog (1), pages (2), page (3) with `resources`, its content (4), then `more` (5, 6, …).
    public static func page(content: Data, resources: String = "<< >>", mediaBox: String = "[0 0 24 24]",
                            contentDict: String = "", more: [Data] = []) -> Data {
        build([object("<< /Type /Catalog /Pages 2 0 R >>"),
               object("<< /Type /Pages /Kids [3 0 R] /Count 1 >>"),
               object("<< /Type /Page /Parent 2 0 R /MediaBox \(mediaBox) /Resources \(resources) /Contents 4 0 R >>"),
               stream(content, contentDict)] + more)
    }

    public static func page(content: String, resources: String = "<< >>", mediaBox: String = "[0 0 24 24]",
                            more: [Data] = []) -> Data {
        page(content: Data(content.utf8), resources: resources, mediaBox: mediaBox, more: more)
    }

    /// The page draws Form XObject X0 (object 5), which draws X1 `fan` times, … X`depth` draws a
    /// rectangle: fan^depth rectangles, and 1 + fan + … + fan^depth forms drawn.
    public static func fanout(depth: Int, fan: Int = 2) -> Data {
        var forms: [Data] = []
        for i in 0...depth {
            let n = 5 + i
            if i < depth {
                forms.append(stream(Array(repeating: "/X Do", count: fan).joined(separator: " "),
                                    "/Type /XObject /Subtype /Form /BBox [0 0 24 24] /Resources << /XObject << /X \(n + 1) 0 R >> >>"))
            } else {
                forms.append(stream("0 0 1 rg 4 4 16 16 re f", "/Type /XObject /Subtype /Form /BBox [0 0 24 24]"))
            }
        }
        return page(content: "/X Do", resources: "<< /XObject << /X 5 0 R >> >>", more: forms)
    }

    /// An image XObject of `width` × `height` (its data one byte: only the size is read).
    public static func image(width: Int, height: Int) -> Data {
        stream("\0", "/Type /XObject /Subtype /Image /Width \(width) /Height \(height) /ColorSpace /DeviceGray /BitsPerComponent 8")
    }
}
