import CCairo
import CRsvg
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// An SVG image parsed once by librsvg and drawn many times.
///
/// librsvg loads it with its own file as base, so it may reference files in its own folder and
/// below; before that, every reference in the file is checked, and one to a file outside the
/// folder (also through a symbolic link) or to any URL, and any `xml:base`, is refused as bad input
/// (nothing is read).
public final class SVGDocument: @unchecked Sendable {
    public let path: String
    /// Intrinsic size in CSS pixels (= points), as rsvg-convert sizes the document (see
    /// `intrinsicSize`); 0 × 0 for an empty image (a zero width or height, or a viewBox of no area).
    public let width: Double
    public let height: Double
    private let handle: UnsafeMutablePointer<RsvgHandle>
    /// A librsvg handle is not safe to draw from two threads at once.
    private let lock = NSLock()

    public var isEmpty: Bool { !(width > 0 && height > 0) }
    public var aspectRatio: Double { isEmpty ? 1 : width / height }

    /// Reads an SVG file; it may reference files in its own folder (and below) only.
    public convenience init(url: URL) throws(InputError) {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw InputError(file: url.path, message: FileManager.default.fileExists(atPath: url.path)
                             ? "cannot read the SVG file" : "no such SVG file")
        }
        try self.init(data: data, name: url.path, base: url)
    }

    /// Parses SVG bytes. With a `base` file URL, references resolve (and are confined) to its folder;
    /// without one (built-in images), every external reference is refused.
    public init(data: Data, name: String, base: URL?) throws(InputError) {
        path = name
        if data.isEmpty { throw InputError(file: name, message: "the SVG file is empty") }
        try SVGReferenceCheck.check(data: data, file: base ?? URL(fileURLWithPath: "/nonexistent-base/" + name), name: name)

        guard let h = rsvg_handle_new_with_flags(RSVG_HANDLE_FLAGS_NONE) else {
            throw InputError(file: name, message: "librsvg cannot create a handle")
        }
        if let base { rsvg_handle_set_base_uri(h, base.absoluteString) }
        var error: UnsafeMutablePointer<GError>?
        let ok = data.withUnsafeBytes { raw -> gboolean in
            let stream = g_memory_input_stream_new_from_data(raw.baseAddress, raw.count, nil)
            defer { g_object_unref(UnsafeMutableRawPointer(stream)) }
            return rsvg_handle_read_stream_sync(h, stream, nil, &error)
        }
        if ok == 0 {
            // librsvg ends its messages with a newline (and may break them in lines): one line, no blank one after.
            let message = (error.map { String(cString: $0.pointee.message) } ?? "unknown error")
                .split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }.joined(separator: "; ")
            if let error { g_error_free(error) }
            g_object_unref(UnsafeMutableRawPointer(h))
            throw InputError(file: name, message: "librsvg cannot read this SVG: \(message)")
        }
        rsvg_handle_set_dpi(h, 96)
        let size: (width: Double, height: Double)
        do throws(InputError) {
            size = try Self.intrinsicSize(h, name: name)
        } catch {
            g_object_unref(UnsafeMutableRawPointer(h))
            throw error
        }
        handle = h
        width = size.width
        height = size.height
    }

    /// The document's size in CSS pixels, as rsvg-convert sizes it: its `width` and `height` when both
    /// are absolute lengths; else, with a `viewBox`, the viewBox's size when both are percentages (or
    /// missing, which is 100 %), or the one absolute length and the viewBox's aspect. A document with
    /// neither a size nor a viewBox has none: librsvg would draw it into nothing (rsvg-convert 2.54
    /// sizes it to its drawing's bounding box but leaves the drawing where it was, cut off), so it is
    /// refused as bad input, with the extent of its drawing to help write a viewBox.
    private static func intrinsicSize(_ h: UnsafeMutablePointer<RsvgHandle>, name: String) throws(InputError) -> (width: Double, height: Double) {
        func clean(_ v: Double) -> Double { v.isFinite ? max(0, v) : 0 }
        var w: Double = 0
        var hh: Double = 0
        if rsvg_handle_get_intrinsic_size_in_pixels(h, &w, &hh) != 0 { return (clean(w), clean(hh)) }
        var hasWidth: gboolean = 0, hasHeight: gboolean = 0, hasViewBox: gboolean = 0
        var lw = RsvgLength(), lh = RsvgLength()
        var viewBox = RsvgRectangle()
        rsvg_handle_get_intrinsic_dimensions(h, &hasWidth, &lw, &hasHeight, &lh, &hasViewBox, &viewBox)
        // A missing width or height is 100 %.
        let pw = hasWidth == 0 || lw.unit == RSVG_UNIT_PERCENT, ph = hasHeight == 0 || lh.unit == RSVG_UNIT_PERCENT
        if hasViewBox != 0 {
            let vw = clean(viewBox.width), vh = clean(viewBox.height)
            // A viewBox of no area disables drawing (SVG 1.1 §7.7): an empty image, as width="0" is.
            guard vw > 0, vh > 0 else { return (0, 0) }
            if !pw, let px = pixels(lw) { return (px, px * vh / vw) }
            if !ph, let px = pixels(lh) { return (px * vw / vh, px) }
            return (vw, vh)
        }
        // librsvg 2.54 reports a missing width or height as present, 100 % (SVG 2's default).
        func said(_ has: gboolean, _ l: RsvgLength, _ key: String) -> String {
            if has == 0 { return "no \(key)" }
            return "\(key) \(Format.number(l.unit == RSVG_UNIT_PERCENT ? l.length * 100 : l.length))\(unitName(l.unit))"
        }
        var extent = ""
        var viewport = RsvgRectangle(x: 0, y: 0, width: 1, height: 1)
        var ink = RsvgRectangle(), logical = RsvgRectangle()
        var error: UnsafeMutablePointer<GError>?
        if rsvg_handle_get_geometry_for_layer(h, nil, &viewport, &ink, &logical, &error) != 0, ink.width > 0, ink.height > 0 {
            let n = Format.number
            extent = ", here x \(n(ink.x))…\(n(ink.x + ink.width)), y \(n(ink.y))…\(n(ink.y + ink.height))"
        }
        if let error { g_error_free(error) }
        throw InputError(file: name, message: "the SVG has no size of its own: its <svg> element has no viewBox, and its width "
                         + "and height are not both absolute lengths (\(said(hasWidth, lw, "width")), \(said(hasHeight, lh, "height")); "
                         + "a missing one is 100%), so librsvg would draw it into nothing (rsvg-convert cuts it to its drawing's "
                         + "bounding box\(extent)); give it the viewBox of the grid it is drawn on, e.g. viewBox=\"0 0 24 24\"")
    }

    /// An absolute length in CSS pixels at 96 dpi; nil for percentages and font-relative units.
    private static func pixels(_ l: RsvgLength) -> Double? {
        let perUnit: Double
        switch l.unit {
        case RSVG_UNIT_PX: perUnit = 1
        case RSVG_UNIT_IN: perUnit = 96
        case RSVG_UNIT_CM: perUnit = 96 / 2.54
        case RSVG_UNIT_MM: perUnit = 96 / 25.4
        case RSVG_UNIT_PT: perUnit = 96 / 72
        case RSVG_UNIT_PC: perUnit = 96 / 6
        default: return nil
        }
        let v = l.length * perUnit
        return v.isFinite && v > 0 ? v : nil
    }

    private static func unitName(_ u: RsvgUnit) -> String {
        switch u {
        case RSVG_UNIT_PERCENT: "%"
        case RSVG_UNIT_EM: "em"
        case RSVG_UNIT_EX: "ex"
        case RSVG_UNIT_IN: "in"
        case RSVG_UNIT_CM: "cm"
        case RSVG_UNIT_MM: "mm"
        case RSVG_UNIT_PT: "pt"
        case RSVG_UNIT_PC: "pc"
        default: ""
        }
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(handle)) }

    /// Draws the document stretched to fill `rect`: its intrinsic box scaled on each axis on its own
    /// (UIImageView's `scaleToFill`), so a wide image in a square is squeezed.
    func drawStretched(_ cr: OpaquePointer, x: Double, y: Double, width w: Double, height h: Double) {
        guard !isEmpty, w > 0, h > 0 else { return }
        cairo_save(cr)
        cairo_translate(cr, x, y)
        cairo_scale(cr, w / width, h / height)
        draw(cr, x: 0, y: 0, width: width, height: height)
        cairo_restore(cr)
    }

    /// Draws the document into `rect` (user space of `cr`). The caller picks a rect of the image's aspect.
    func draw(_ cr: OpaquePointer, x: Double, y: Double, width w: Double, height h: Double) {
        guard !isEmpty, w > 0, h > 0 else { return }
        var viewport = RsvgRectangle(x: x, y: y, width: w, height: h)
        var error: UnsafeMutablePointer<GError>?
        lock.lock()
        _ = rsvg_handle_render_document(handle, cr, &viewport, &error)
        lock.unlock()
        if let error { g_error_free(error) }
    }
}

/// Finds every reference in an SVG (`href`, `xlink:href`, `url(…)` in attributes and style sheets)
/// and refuses those that leave the image's folder (as written, or through a symbolic link) or name
/// a URL, and any `xml:base`.
public enum SVGReferenceCheck {
    public static func check(data: Data, file: URL, name: String) throws(InputError) {
        let collector = ReferenceCollector()
        let parser = XMLParser(data: data)
        parser.delegate = collector
        parser.shouldResolveExternalEntities = false
        if !parser.parse() {
            let where_ = parser.lineNumber > 0 ? parser.lineNumber : nil
            throw InputError(file: name, line: where_, message: "not a well-formed SVG (XML) document")
        }
        guard collector.sawSVGRoot else {
            throw InputError(file: name, message: "not an SVG document (the root element is not <svg>)")
        }
        // xml:base would move the base of the references below it. librsvg 2.54 ignores it for images
        // while other versions may not, so a reference cannot be checked against the base librsvg
        // will use: refuse it (whatever it says), so every reference is relative to the file itself.
        if let base = collector.xmlBases.first {
            throw InputError(file: name, message: "sets xml:base=\"\(base)\"; xml:base is not supported "
                             + "(write references relative to the SVG file, inside its own folder)")
        }
        let folder = file.deletingLastPathComponent().standardizedFileURL.path
        let realFolder = realPath(folder)
        for reference in collector.references {
            let r = reference.trimmingCharacters(in: .whitespaces)
            if r.isEmpty || r.hasPrefix("#") || r.lowercased().hasPrefix("data:") { continue }
            if let colon = r.firstIndex(of: ":"), r[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || "+.-".contains($0) }),
               !r[..<colon].isEmpty {
                throw InputError(file: name, message: "references the URL \"\(r)\"; an SVG may only reference files in its own folder")
            }
            let withoutFragment = String(r.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
            let target = URL(fileURLWithPath: withoutFragment, relativeTo: file.deletingLastPathComponent())
                .standardizedFileURL.path
            if r.hasPrefix("/") || !(target.hasPrefix(folder + "/")) {
                throw InputError(file: name, message: "references \"\(r)\", outside its own folder; it is not read")
            }
            // A symbolic link inside the folder (a subfolder or the file itself) may lead out of it.
            if !realPath(target).hasPrefix(realFolder + "/") {
                throw InputError(file: name, message: "references \"\(r)\", which a symbolic link leads outside its own folder; it is not read")
            }
        }
    }

    /// `path` with every symbolic link resolved: the longest part that exists, through realpath(3),
    /// and the rest as written.
    static func realPath(_ path: String) -> String {
        var head = path.hasSuffix("/") && path.count > 1 ? String(path.dropLast()) : path
        var tail: [String] = []
        while !head.isEmpty {
            if let resolved = realpath(head, nil) {
                defer { free(resolved) }
                let real = String(cString: resolved)
                return tail.isEmpty ? real : (real == "/" ? "" : real) + "/" + tail.reversed().joined(separator: "/")
            }
            let ns = head as NSString
            tail.append(ns.lastPathComponent)
            let parent = ns.deletingLastPathComponent
            if parent == head { break }
            head = parent
        }
        return path
    }

    private final class ReferenceCollector: NSObject, XMLParserDelegate, @unchecked Sendable {
        var references: [String] = []
        /// The values of every `xml:base` attribute, in document order.
        var xmlBases: [String] = []
        var sawSVGRoot = false
        private var depth = 0
        private var inStyle = false

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                    qualifiedName qName: String?, attributes: [String: String] = [:]) {
            let local = elementName.split(separator: ":").last.map(String.init) ?? elementName
            if depth == 0, local == "svg" { sawSVGRoot = true }
            depth += 1
            inStyle = local == "style"
            for (name, value) in attributes.sorted(by: { $0.key < $1.key }) {
                // The `xml` prefix is reserved: no other prefix can name this attribute.
                if name == "xml:base" { xmlBases.append(value) }
                if name == "href" || name.hasSuffix(":href") { references.append(value) }
                references.append(contentsOf: Self.urls(in: value))
            }
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
            depth -= 1
            inStyle = false
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if inStyle { references.append(contentsOf: Self.urls(in: string) + Self.imports(in: string)) }
        }

        func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
            if inStyle {
                let s = String(decoding: CDATABlock, as: UTF8.self)
                references.append(contentsOf: Self.urls(in: s) + Self.imports(in: s))
            }
        }

        /// The targets of `url(…)` in a value or style sheet.
        static func urls(in s: String) -> [String] {
            var out: [String] = []
            var rest = Substring(s)
            while let open = rest.range(of: "url(", options: .caseInsensitive) {
                let after = rest[open.upperBound...]
                guard let close = after.firstIndex(of: ")") else { break }
                out.append(after[..<close].trimmingCharacters(in: CharacterSet(charactersIn: " \"'")))
                rest = after[close...]
            }
            return out
        }

        /// `@import "file.css"` targets.
        static func imports(in s: String) -> [String] {
            var out: [String] = []
            var rest = Substring(s)
            while let r = rest.range(of: "@import", options: .caseInsensitive) {
                let after = rest[r.upperBound...].drop { $0 == " " }
                if let q = after.first, q == "\"" || q == "'" {
                    let body = after.dropFirst()
                    if let end = body.firstIndex(of: q) { out.append(String(body[..<end])) }
                }
                rest = after
            }
            return out
        }
    }
}
