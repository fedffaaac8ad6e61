import CXML2
import Foundation

/// What librsvg 2.54 draws as a bitmap when it draws onto a vector (SVG or PDF) surface, and the
/// rewrite of an SVG that draws a stencil mask as clip paths instead.
///
/// librsvg draws shapes, strokes, clip paths, gradients, patterns and group opacity as vectors, but
/// it renders every `<mask>` and every `filter` into an image surface at the target's device
/// resolution (one pixel per point on a PDF or SVG surface: Primer's 16 pt tick became a 16 × 16 px
/// image), and cairo's SVG surface rasterises `mix-blend-mode` (PDF has blend modes). The XML is read
/// and written with libxml2, the parser librsvg itself uses; nothing here interprets geometry.
public enum SVGVectorForm {
    /// Rewrites every element drawn through a *stencil mask* into clip paths: a luminance mask whose
    /// content is opaque white shapes followed by opaque black paths, rects (square corners), circles
    /// or ellipses (fill only, no stroke, style, class or opacity), in user space; or an alpha mask
    /// (`mask-type="alpha"`) of shapes filled with solid colours. Such a mask keeps what the white shapes cover less what the
    /// black paths cover, which is the masked element clipped to the white shapes and then, for each
    /// black path, clipped to the complement of that path: a path around the whole drawing, wound
    /// against the black one, then the black one, clip-rule nonzero (the black path's inside winds to
    /// 0). Not evenodd: cairo's SVG surface writes a clip's rule on the element it clips, where SVG
    /// (and librsvg, and browsers) ignore it. `clockwise` is the outer path's direction (y down); the
    /// caller tries both, as the black paths wind, and keeps the one librsvg draws as it draws the
    /// original. Returns the new SVG and the masks rewritten, or nil when no mask qualifies.
    /// `extent`: a length, in the document's user units, larger than the drawing (the outer path).
    static func rewriteStencilMasks(_ data: Data, extent: Double, clockwise: Bool = true) -> (data: Data, masks: [String])? {
        guard let doc = parse(data) else { return nil }
        defer { xmlFreeDoc(doc) }
        guard let root = xmlDocGetRootElement(doc) else { return nil }
        var ids: [String: UnsafeMutablePointer<xmlNode>] = [:]
        var masked: [(node: UnsafeMutablePointer<xmlNode>, mask: String)] = []
        walk(root) { node in
            if let id = attribute(node, "id") { ids[id] = ids[id] ?? node }
            if let m = attribute(node, "mask"), let id = urlReference(m) { masked.append((node, id)) }
        }
        var clips: [String: [String]] = [:]  // mask id → clip-path ids (keep, then cuts)
        var rewritten: [String] = []
        var serial = 0
        func freshID(_ base: String) -> String {
            var id = base
            while ids[id] != nil { serial += 1; id = "\(base)-\(serial)" }
            ids[id] = root
            return id
        }
        for (node, maskID) in masked {
            guard let parent = node.pointee.parent, parent.pointee.type == XML_ELEMENT_NODE,
                  let mask = ids[maskID], name(mask) == "mask" else { continue }
            if clips[maskID] == nil {
                guard let stencil = stencil(mask) else { continue }
                let n = String(format: "%.0f", extent.rounded(.up))
                let keep = newElement(doc, like: mask, "clipPath")
                let keepID = freshID("glyphaudit-vector-\(maskID)-keep")
                setAttribute(keep, "id", keepID)
                for white in stencil.white {
                    guard let copy = xmlCopyNode(white, 1) else { continue }
                    unset(copy, "fill"); unset(copy, "fill-rule"); unset(copy, "stroke"); unset(copy, "id")
                    setAttribute(copy, "clip-rule", "nonzero")
                    xmlAddChild(keep, copy)
                }
                var ordered = [keepID]
                var last = mask
                xmlAddNextSibling(last, keep)
                last = keep
                for black in stencil.black {
                    // A path keeps its own direction (the caller tries both outer ones); a rect, circle or
                    // ellipse is written as a path wound against the outer one.
                    guard let d = attribute(black, "d") ?? outline(black, clockwise: !clockwise) else { continue }
                    let copy = newElement(doc, like: black, "path")
                    if let t = attribute(black, "transform") { setAttribute(copy, "transform", t) }
                    let around = clockwise ? "M-\(n) -\(n)H\(n)V\(n)H-\(n)Z " : "M-\(n) -\(n)V\(n)H\(n)V-\(n)Z "
                    setAttribute(copy, "d", around + d)
                    setAttribute(copy, "clip-rule", "nonzero")
                    let cut = newElement(doc, like: mask, "clipPath")
                    let cutID = freshID("glyphaudit-vector-\(maskID)-cut\(ordered.count)")
                    setAttribute(cut, "id", cutID)
                    xmlAddChild(cut, copy)
                    xmlAddNextSibling(last, cut)
                    last = cut
                    ordered.append(cutID)
                }
                clips[maskID] = ordered
                rewritten.append(maskID)
            }
            guard let chain = clips[maskID] else { continue }
            // The mask's user space is the element's (after its own transform): the clips go on groups
            // that take the element's transform, around the element without it.
            let outer = newElement(doc, like: node, "g")
            if let t = attribute(node, "transform") {
                setAttribute(outer, "transform", t)
                unset(node, "transform")
            }
            setAttribute(outer, "clip-path", "url(#\(chain[0]))")
            xmlReplaceNode(node, outer)
            var inner = outer
            for id in chain.dropFirst() {
                let g = newElement(doc, like: node, "g")
                setAttribute(g, "clip-path", "url(#\(id))")
                xmlAddChild(inner, g)
                inner = g
            }
            unset(node, "mask")
            xmlAddChild(inner, node)
        }
        guard !rewritten.isEmpty else { return nil }
        var mem: UnsafeMutablePointer<xmlChar>?
        var size: Int32 = 0
        xmlDocDumpMemory(doc, &mem, &size)
        guard let mem, size > 0 else { return nil }
        defer { cxml_free(mem) }
        return (Data(bytes: mem, count: Int(size)), rewritten)
    }

    /// The elements librsvg (or cairo's SVG surface) draws as a bitmap on a vector surface, each
    /// named as `<rect id="a"> (line 4, filter="url(#f)")`; `<style>` rules that can make one too.
    static func bitmapElements(_ data: Data) -> [String] {
        guard let doc = parse(data) else { return [] }
        defer { xmlFreeDoc(doc) }
        guard let root = xmlDocGetRootElement(doc) else { return [] }
        var found: [String] = []
        walk(root) { node in
            let element = name(node)
            let line = xmlGetLineNo(node)
            var said: [String] = []
            for key in ["filter", "mask", "mix-blend-mode"] {
                if let v = attribute(node, key), v.trimmingCharacters(in: .whitespaces) != "none", !v.isEmpty {
                    said.append("\(key)=\"\(v)\"")
                }
            }
            if let style = attribute(node, "style"), ["filter", "mask", "mix-blend-mode"].contains(where: { style.contains($0) }) {
                said.append("style=\"\(style)\"")
            }
            if element == "style", let css = text(node), ["filter", "mask", "mix-blend-mode"].contains(where: { css.contains($0) }) {
                said.append("rules that set filter, mask or mix-blend-mode")
            }
            guard !said.isEmpty else { return }
            let id = attribute(node, "id").map { " id=\"\($0)\"" } ?? ""
            found.append("<\(element)\(id)> (line \(line), \(said.joined(separator: ", ")))")
        }
        return found
    }

    /// The fuzzer's entry (glyphfuzz's `svg` target): both readings of untrusted bytes, results dropped.
    public static func fuzz(_ data: Data) {
        _ = rewriteStencilMasks(data, extent: 128)
        _ = rewriteStencilMasks(data, extent: 128, clockwise: false)
        _ = bitmapElements(data)
    }

    // MARK: - A stencil mask

    private static let shapes: Set<String> = ["path", "rect", "circle", "ellipse", "polygon"]
    private static let shapeAttributes: Set<String> = ["id", "d", "x", "y", "width", "height", "rx", "ry", "cx", "cy", "r",
                                                       "points", "transform", "fill", "fill-rule", "stroke"]
    private static let maskAttributes: Set<String> = ["id", "x", "y", "width", "height", "maskUnits", "maskContentUnits", "mask-type"]

    /// The white shapes and black paths of a stencil mask; nil for any other mask.
    private static func stencil(_ mask: UnsafeMutablePointer<xmlNode>) -> (white: [UnsafeMutablePointer<xmlNode>], black: [UnsafeMutablePointer<xmlNode>])? {
        guard attributeNames(mask).allSatisfy(maskAttributes.contains) else { return nil }
        if let units = attribute(mask, "maskContentUnits"), units != "userSpaceOnUse" { return nil }
        let type = attribute(mask, "mask-type") ?? "luminance"
        guard type == "luminance" || type == "alpha" else { return nil }
        var white: [UnsafeMutablePointer<xmlNode>] = [], black: [UnsafeMutablePointer<xmlNode>] = []
        var child = mask.pointee.children
        while let c = child {
            defer { child = c.pointee.next }
            switch c.pointee.type {
            case XML_ELEMENT_NODE: break
            case XML_COMMENT_NODE: continue
            case XML_TEXT_NODE where (text(c) ?? "").allSatisfy(\.isWhitespace): continue
            default: return nil
            }
            let element = name(c)
            guard shapes.contains(element), c.pointee.children == nil, c.pointee.ns == mask.pointee.ns,
                  attributeNames(c).allSatisfy(shapeAttributes.contains) else { return nil }
            if let stroke = attribute(c, "stroke"), stroke != "none" { return nil }
            // An alpha mask keeps what any opaque paint covers: every shape is "white".
            switch type == "alpha" ? (opaque(attribute(c, "fill") ?? "black") ? .white : nil) : colour(attribute(c, "fill") ?? "black") {
            case .white?:
                // A white shape's own rule becomes its clip rule: evenodd is left alone (see above).
                guard black.isEmpty, (attribute(c, "fill-rule") ?? "nonzero") == "nonzero" else { return nil }
                white.append(c)
            case .black?:
                guard element == "path" ? attribute(c, "d") != nil : outline(c, clockwise: true) != nil else { return nil }
                black.append(c)
            case nil:
                return nil
            }
        }
        return white.isEmpty ? nil : (white, black)
    }

    private enum Stencil { case white, black }

    /// A solid colour with no alpha of its own (`#rgb`, `#rrggbb`, a name, `rgb()`, `hsl()`).
    private static func opaque(_ value: String) -> Bool {
        let v = value.lowercased().filter { !$0.isWhitespace }
        if v.hasPrefix("#") { return v.count == 4 || v.count == 7 }
        if v.hasPrefix("rgb(") || v.hasPrefix("hsl(") { return !v.contains("/") }
        return !v.isEmpty && v.allSatisfy(\.isLetter) && !["none", "transparent", "inherit", "context-fill", "context-stroke"].contains(v)
    }

    /// A `rect` (square corners), `circle` or `ellipse` whose geometry attributes are plain numbers
    /// in user units, as path data going `clockwise` (on screen, y down) or against it; nil otherwise.
    private static func outline(_ node: UnsafeMutablePointer<xmlNode>, clockwise: Bool) -> String? {
        func number(_ key: String, _ absent: Double?) -> Double? {
            guard let v = attribute(node, key) else { return absent }
            guard let d = Double(v.trimmingCharacters(in: .whitespaces)), d.isFinite else { return nil }
            return d
        }
        func n(_ v: Double) -> String { String(v) }  // shortest round-trip form; SVG reads "16.0" and "1e-05"
        switch name(node) {
        case "rect":
            guard attribute(node, "rx") == nil, attribute(node, "ry") == nil, let x = number("x", 0), let y = number("y", 0),
                  let w = number("width", nil), let h = number("height", nil), w > 0, h > 0 else { return nil }
            return clockwise ? "M\(n(x)) \(n(y))H\(n(x + w))V\(n(y + h))H\(n(x))Z" : "M\(n(x)) \(n(y))V\(n(y + h))H\(n(x + w))V\(n(y))Z"
        case "circle", "ellipse":
            let circle = name(node) == "circle"
            guard let cx = number("cx", 0), let cy = number("cy", 0),
                  let rx = circle ? number("r", nil) : number("rx", nil), let ry = circle ? rx : number("ry", nil),
                  rx > 0, ry > 0 else { return nil }
            let sweep = clockwise ? 1 : 0
            return "M\(n(cx + rx)) \(n(cy))A\(n(rx)) \(n(ry)) 0 1 \(sweep) \(n(cx - rx)) \(n(cy))A\(n(rx)) \(n(ry)) 0 1 \(sweep) \(n(cx + rx)) \(n(cy))Z"
        default:
            return nil
        }
    }

    private static func colour(_ value: String) -> Stencil? {
        let v = value.lowercased().filter { !$0.isWhitespace }
        switch v {
        case "#fff", "#ffffff", "#ffff", "#ffffffff", "white", "rgb(255,255,255)", "rgb(100%,100%,100%)": return .white
        case "#000", "#000000", "#000f", "#000000ff", "black", "rgb(0,0,0)", "rgb(0%,0%,0%)": return .black
        default: return nil
        }
    }

    /// `url(#id)` (quotes allowed) → `id`.
    static func urlReference(_ value: String) -> String? {
        let v = value.trimmingCharacters(in: .whitespaces)
        guard let m = v.wholeMatch(of: /url\(\s*['"]?#([^'")\s]+)['"]?\s*\)/) else { return nil }
        return String(m.output.1)
    }

    // MARK: - libxml2

    /// libxml2 asks to be initialised once before threads use it (librsvg does too; a second call is harmless).
    private static let initialised: Void = xmlInitParser()

    private static func parse(_ data: Data) -> xmlDocPtr? {
        _ = initialised
        let options = Int32(bitPattern: XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)
        return data.withUnsafeBytes { raw -> xmlDocPtr? in
            guard let base = raw.baseAddress, raw.count <= Int(Int32.max) else { return nil }
            return xmlReadMemory(base.assumingMemoryBound(to: CChar.self), Int32(raw.count), nil, nil, options)
        }
    }

    /// Every element at and below `node`, in document order.
    private static func walk(_ node: UnsafeMutablePointer<xmlNode>, _ visit: (UnsafeMutablePointer<xmlNode>) -> Void) {
        var stack = [node]
        while let n = stack.popLast() {
            guard n.pointee.type == XML_ELEMENT_NODE else { continue }
            visit(n)
            var children: [UnsafeMutablePointer<xmlNode>] = []
            var c = n.pointee.children
            while let child = c { children.append(child); c = child.pointee.next }
            stack.append(contentsOf: children.reversed())
        }
    }

    private static func name(_ node: UnsafeMutablePointer<xmlNode>) -> String {
        node.pointee.name.map { String(cString: $0) } ?? ""
    }

    /// An attribute in no namespace.
    private static func attribute(_ node: UnsafeMutablePointer<xmlNode>, _ key: String) -> String? {
        guard let v = xml(key, { xmlGetNoNsProp(node, $0) }) else { return nil }
        defer { cxml_free(v) }
        return String(cString: v)
    }

    /// The names of an element's attributes; one in a namespace is named `ns:name`, which no list here allows.
    private static func attributeNames(_ node: UnsafeMutablePointer<xmlNode>) -> [String] {
        var names: [String] = []
        var a = node.pointee.properties
        while let attr = a {
            let n = attr.pointee.name.map { String(cString: $0) } ?? ""
            names.append(attr.pointee.ns == nil ? n : "ns:" + n)
            a = attr.pointee.next
        }
        return names
    }

    private static func text(_ node: UnsafeMutablePointer<xmlNode>) -> String? {
        guard let v = xmlNodeGetContent(node) else { return nil }
        defer { cxml_free(v) }
        return String(cString: v)
    }

    private static func setAttribute(_ node: UnsafeMutablePointer<xmlNode>, _ key: String, _ value: String) {
        xml(key) { k in xml(value) { v in _ = xmlSetProp(node, k, v) } }
    }

    private static func unset(_ node: UnsafeMutablePointer<xmlNode>, _ key: String) {
        xml(key) { _ = xmlUnsetProp(node, $0) }
    }

    /// A Swift string as libxml2's `const xmlChar *` (UTF-8).
    private static func xml<T>(_ s: String, _ body: (UnsafePointer<xmlChar>) -> T) -> T {
        s.withCString { body(UnsafeRawPointer($0).assumingMemoryBound(to: xmlChar.self)) }
    }

    /// A new element in the namespace of `like`.
    private static func newElement(_ doc: xmlDocPtr, like: UnsafeMutablePointer<xmlNode>, _ element: String) -> UnsafeMutablePointer<xmlNode> {
        xml(element) { xmlNewDocNode(doc, like.pointee.ns, $0, nil) }
    }
}
