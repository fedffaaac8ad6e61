import CCairo
import CPoppler
import Foundation
import GlyphCore

/// A PDF image of a spec (an asset catalog's vector PDF, or a PDF named in `images`), read once by
/// poppler and drawn many times as a vector, onto whatever surface the renderer draws on. Its size
/// in points is its first page's size (PDF points; 1 pt = 1 pt), as Xcode sizes a vector PDF; a
/// document of more pages draws its first page (the loader warns).
public final class PDFImage: CairoImage, @unchecked Sendable {
    public let path: String
    public let width: Double
    public let height: Double
    /// The document's page count (only the first page is drawn).
    public let pages: Int
    /// The SHA-256 of the file's bytes.
    public let contentDigest: String
    private let document: OpaquePointer
    private let page: OpaquePointer
    /// A poppler document is not safe to draw from two threads at once.
    private let lock = NSLock()

    /// Reads PDF bytes (at most `Limits.pdfFileBytes`). A document poppler cannot read (empty, not a
    /// PDF, damaged past repair), one that needs a password, or one with no pages, is bad input
    /// naming the file; so is one whose drawing would pass the PDF work limits (`PDFScan`, checked
    /// before poppler reads it) or that is encrypted (the scan cannot read its streams).
    public init(data: Data, name: String) throws(InputError) {
        path = name
        contentDigest = SHA256.hex(data)
        if data.count > Limits.pdfFileBytes {
            throw InputError(file: name, message: "the PDF image is \(data.count) bytes; the limit is \(Limits.bytes(Limits.pdfFileBytes)) (docs/limits.md)")
        }
        if data.isEmpty { throw InputError(file: name, message: "the PDF file is empty") }
        // Poppler repairs much that is broken, but reads anything as a PDF that says so somewhere:
        // a file must begin with the PDF header (after at most 1 KiB, as the PDF standard allows).
        guard data.prefix(1024 + 5).range(of: Data("%PDF-".utf8)) != nil else {
            throw InputError(file: name, message: "cannot read this PDF: it does not begin with the PDF header %PDF-")
        }
        // Before poppler reads it: the work drawing it can cost (docs/limits.md), which the file's
        // size does not bound.
        let scan: PDFScan.Measures
        do { scan = try PDFScan.check(data) } catch {
            throw InputError(file: name, message: "the PDF is not drawn: \(error.message)")
        }
        var error: UnsafeMutablePointer<GError>?
        let bytes = data.withUnsafeBytes { raw in g_bytes_new(raw.baseAddress, gsize(raw.count)) }
        defer { g_bytes_unref(bytes) }
        let (opened, logged) = PopplerQuiet.opening { poppler_document_new_from_bytes(bytes, nil, &error) }
        guard let doc = opened else {
            let encrypted = error.map { $0.pointee.domain == poppler_error_quark() && $0.pointee.code == Int32(POPPLER_ERROR_ENCRYPTED.rawValue) } ?? false
            let message = (error.map { String(cString: $0.pointee.message) } ?? "unknown error")
                .split(whereSeparator: \.isNewline).joined(separator: "; ")
            if let error { g_error_free(error) }
            // Poppler says "encrypted" also when it has no security handler of the /Encrypt's
            // /Filter; its log names the handler ("Couldn't find the 'Bogus' security handler").
            if encrypted, let handler = Self.unknownSecurityHandler(logged) {
                throw InputError(file: name, message: "the PDF is encrypted with the security handler \(handler), which poppler "
                                                      + "does not know; glyphaudit does not open it (save it without encryption)")
            }
            throw InputError(file: name, message: encrypted
                ? "the PDF is encrypted with a password; glyphaudit does not open it (save it without a password)"
                : "cannot read this PDF: \(message)")
        }
        if scan.encrypted {
            // Opened with the empty password: its streams are encrypted, so the scan could not bound them.
            g_object_unref(UnsafeMutableRawPointer(doc))
            throw InputError(file: name, message: "the PDF is encrypted; glyphaudit cannot bound the work of drawing an "
                                                  + "encrypted PDF (save it without encryption)")
        }
        let n = PopplerQuiet.quietly { Int(poppler_document_get_n_pages(doc)) }
        guard n > 0, let first = PopplerQuiet.quietly({ poppler_document_get_page(doc, 0) }) else {
            g_object_unref(UnsafeMutableRawPointer(doc))
            throw InputError(file: name, message: "the PDF has no pages")
        }
        var w = 0.0, h = 0.0
        poppler_page_get_size(first, &w, &h)
        document = doc
        page = first
        pages = n
        width = w.isFinite ? max(0, w) : 0
        height = h.isFinite ? max(0, h) : 0
    }

    /// The name of the security handler poppler's log says it has not got, cut to 40 characters.
    static func unknownSecurityHandler(_ logged: [String]) -> String? {
        for line in logged {
            guard let start = line.range(of: "Couldn't find the '"),
                  let end = line[start.upperBound...].range(of: "' security handler") else { continue }
            let handler = line[start.upperBound..<end.lowerBound]
            return "/" + (handler.count > 40 ? handler.prefix(40) + "…" : handler)
        }
        return nil
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(page))
        g_object_unref(UnsafeMutableRawPointer(document))
    }

    /// Draws the first page stretched to fill the rect, clipped to it (a page's content may reach past
    /// its crop box).
    func drawStretched(_ cr: OpaquePointer, x: Double, y: Double, width w: Double, height h: Double) {
        guard !isEmpty, w > 0, h > 0 else { return }
        cairo_save(cr)
        cairo_new_path(cr)
        cairo_rectangle(cr, x, y, w, h)
        cairo_clip(cr)
        cairo_translate(cr, x, y)
        cairo_scale(cr, w / width, h / height)
        lock.lock()
        PopplerQuiet.quietly { poppler_page_render(page, cr) }
        lock.unlock()
        cairo_restore(cr)
    }

    /// The first page rasterised for display scale `scale`, as Xcode rasterises a PDF of an image set
    /// that does not preserve its vector data: its size in points times the scale, rounded up to whole
    /// pixels, drawn stretched to fill them; a bitmap made for that scale from then on.
    /// The loader checks the size first (`Limits.rasterPixels`): past the PNG limits it is bad input.
    public func rasterized(scale: Int) -> PNGImage {
        guard let (pw, ph) = Limits.rasterPixels(width: width, height: height, scale: scale) else {
            preconditionFailure("\(path): rasterised at \(scale)x past the PNG limits; the loader refuses it first")
        }
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(pw), Int32(ph))!
        defer { cairo_surface_destroy(surface) }
        let cr = cairo_create(surface)!
        drawStretched(cr, x: 0, y: 0, width: Double(pw), height: Double(ph))
        cairo_destroy(cr)
        cairo_surface_flush(surface)
        return PNGImage(raster: Renderer.rasterFromSurface(surface, width: pw, height: ph), name: path, scale: scale)
    }
}
