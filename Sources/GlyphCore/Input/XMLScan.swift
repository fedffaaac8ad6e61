import Foundation

extension SVGReferenceCheck {
    /// The XML scanner: one pass over the bytes, with a stack of open element names (no recursion).
    /// Where what follows is not XML as libxml2 would read it, the SVG is refused; a document that just
    /// ends too early is left for librsvg to report (libxml2 shows librsvg nothing it has not finished).
    ///
    /// Each step reads one piece at `i` (a tag, a comment, a reference, text) and moves `i` past it;
    /// a step that returns false found the input ending inside its piece, and the scan stops there.
    struct XMLScan {
        static func references(in b: [UInt8]) throws(Refusal) -> [Reference] {
            var scan = XMLScan(b)
            let asciiOnly = try scan.encoding()
            try scan.characters(asciiOnly: asciiOnly)
            while scan.i < scan.n {
                guard try scan.step() else { break }
            }
            try scan.end()
            return scan.references
        }

        let b: [UInt8]
        let n: Int
        /// Where the scan is.
        var i = 0
        var references: [Reference] = []
        /// The names of the open elements, outermost first.
        var stack: [Range<Int>] = []
        var rootSeen = false, rootClosed = false, doctypeSeen = false
        /// The text of the `<style>` element open now, and where it started.
        var style: [UInt8]?
        var styleAt = 0

        init(_ b: [UInt8]) {
            self.b = b
            n = b.count
        }

        // MARK: The document

        /// The byte order mark and the XML declaration: the encoding must be UTF-8, or a Latin encoding
        /// (returned) when every byte is ASCII. Moves past them.
        mutating func encoding() throws(Refusal) -> String? {
            if n >= 2, (b[0] == 0xFE && b[1] == 0xFF) || (b[0] == 0xFF && b[1] == 0xFE) {
                throw Refusal(message: "is UTF-16; only UTF-8 SVGs are supported")
            }
            var bom = false
            if n >= 3, b[0] == 0xEF, b[1] == 0xBB, b[2] == 0xBF { i = 3; bom = true }
            var asciiOnly: String?
            if Byte.starts(b, at: i, with: "<?xml"), i + 5 < n, Self.isSpace(b[i + 5]) {
                let end = Byte.find(b, "?>", from: i + 5) ?? n
                if let encoding = Self.pseudoAttribute("encoding", in: b[(i + 5)..<end]) {
                    let e = Byte.lowered(encoding)
                    let latin = ["iso-8859-", "iso8859-", "iso_8859-", "latin", "l1", "windows-125", "cp125"]
                    if ["utf-8", "utf8", "us-ascii", "ascii"].contains(e) {
                    } else if !bom, latin.contains(where: { e.hasPrefix($0) }) {
                        asciiOnly = e
                    } else {
                        throw Refusal(message: "declares encoding=\"\(Text.show(encoding))\"; only UTF-8 SVGs are supported (save it as UTF-8)",
                                      line: 1)
                    }
                }
                i = end == n ? n : end + 2
            }
            return asciiOnly
        }

        /// Every byte: no NUL and no control character XML does not allow; well-formed UTF-8, or only
        /// ASCII under a declared Latin encoding.
        func characters(asciiOnly: String?) throws(Refusal) {
            for k in 0..<n {
                let c = b[k]
                if c == 0 {
                    throw Refusal(message: "has a NUL byte (at line \(line(k))): it is not UTF-8 text (UTF-16 and other encodings are not supported)",
                                  line: line(k))
                }
                if c < 0x20, c != Byte.tab, c != Byte.lf, c != Byte.cr {
                    throw Refusal(message: "has the control character \(Text.hex(c)) (at line \(line(k))), which XML does not allow", line: line(k))
                }
                if c >= 0x80, let e = asciiOnly {
                    throw Refusal(message: "declares encoding=\"\(e)\" and has the non-ASCII byte \(Text.hex(c)); "
                                  + "only UTF-8 SVGs are supported (save it as UTF-8)", line: line(k))
                }
            }
            if asciiOnly == nil, let bad = UTF8Check.firstError(in: b, from: 0) {
                throw Refusal(message: "is not valid UTF-8 (byte \(Text.hex(b[bad])) at line \(line(bad))); "
                              + "an SVG must be UTF-8", line: line(bad))
            }
        }

        /// One piece at `i`: markup, a reference, or text.
        mutating func step() throws(Refusal) -> Bool {
            let c = b[i]
            if c == Byte.lt {
                guard i + 1 < n else { return false }
                switch b[i + 1] {
                case Byte.slash: return try endTag()
                case Byte.question: return try processingInstruction()
                case Byte.bang: return try declaration()
                default: return try startTag()
                }
            } else if c == Byte.amp {
                guard !stack.isEmpty else { throw malformed("text outside the root element", i) }
                guard let ref = try reference(i) else { return false }
                if style != nil { style! += ref.text }
                i = ref.end
            } else if stack.isEmpty {
                guard Self.isSpace(c) else { throw malformed("text outside the root element", i) }
                i += 1
            } else {
                text()
            }
            return true
        }

        /// Where the input ends: a style sheet it ends in (librsvg never reads it, but check it all the
        /// same), and a root element there must have been.
        mutating func end() throws(Refusal) {
            if let css = style { try styleSheet(css) }
            guard rootSeen else { throw Refusal(message: "not an SVG document (it has no root element)") }
        }

        // MARK: Markup

        /// `</name>`.
        mutating func endTag() throws(Refusal) -> Bool {
            let r = name(from: i + 2)
            var j = r.upperBound
            while j < n, Self.isSpace(b[j]) { j += 1 }
            guard j < n else { return false }
            guard b[j] == Byte.gt, !r.isEmpty else { throw malformed("a broken end tag", i) }
            guard let open = stack.last else { throw malformed("an end tag </\(Text.show(b[r]))> with no element open", i) }
            guard same(open, r) else {
                throw malformed("</\(Text.show(b[r]))> ends <\(Text.show(b[open]))>", i)
            }
            stack.removeLast()
            if let css = style {
                style = nil
                try styleSheet(css)
            }
            if stack.isEmpty { rootClosed = true }
            i = j + 1
            return true
        }

        /// `<?target …?>`: `xml-stylesheet` and a late XML declaration are refused, others skipped.
        mutating func processingInstruction() throws(Refusal) -> Bool {
            let r = name(from: i + 2)
            guard !r.isEmpty else { throw malformed("a processing instruction with no name", i) }
            let target = Byte.lowered(b[r])
            if target == "xml-stylesheet" {
                let end = Byte.find(b, "?>", from: r.upperBound).map { $0 + 2 } ?? n
                throw Refusal(message: "uses \(Text.show(b[i..<end])); a style sheet in another file is not supported "
                              + "(put the CSS in a <style> element)", line: line(i))
            }
            if target == "xml" {
                throw malformed("an XML declaration that is not at the very start", i)
            }
            guard let end = Byte.find(b, "?>", from: r.upperBound) else { return false }
            i = end + 2
            return true
        }

        /// `<!`: a comment, a CDATA section or a DOCTYPE.
        mutating func declaration() throws(Refusal) -> Bool {
            if Byte.starts(b, at: i + 2, with: "--") {
                guard let end = Byte.find(b, "-->", from: i + 4) else { return false }
                i = end + 3
                return true
            } else if Byte.starts(b, at: i + 2, with: "[CDATA[") {
                return try cdata()
            } else if Byte.starts(b, at: i + 2, with: "DOCTYPE") {
                return try doctype()
            } else {
                throw malformed("a '<!' that starts no comment, CDATA section or DOCTYPE", i)
            }
        }

        /// `<![CDATA[…]]>`: text (of a `<style>` element, kept).
        mutating func cdata() throws(Refusal) -> Bool {
            guard !stack.isEmpty else { throw malformed("a CDATA section outside the root element", i) }
            let start = i + 9
            let end = Byte.find(b, "]]>", from: start)
            if style != nil { style! += b[start..<(end ?? n)] }
            guard let end else { return false }
            i = end + 3
            return true
        }

        /// `<!DOCTYPE …>`, before the root element and without an internal subset.
        mutating func doctype() throws(Refusal) -> Bool {
            guard !rootSeen, !doctypeSeen else { throw malformed("a DOCTYPE that is not before the root element", i) }
            doctypeSeen = true
            var j = i + 9
            var quote: UInt8?
            while j < n {
                let e = b[j]
                if let q = quote {
                    if e == q { quote = nil }
                } else if e == Byte.quote || e == Byte.apos {
                    quote = e
                } else if e == Byte.lbracket {
                    throw Refusal(message: "has a DOCTYPE with an internal subset ([…]); entity and other declarations "
                                  + "are not supported (a plain <!DOCTYPE svg PUBLIC …> is fine)", line: line(j))
                } else if e == Byte.gt {
                    break
                }
                j += 1
            }
            guard j < n else { return false }
            i = j + 1
            return true
        }

        /// `<name attribute="value" …>` or `<name … />`; the first is the root, which must be `<svg>`.
        mutating func startTag() throws(Refusal) -> Bool {
            guard Self.isNameStart(b[i + 1]) else { throw malformed("a '<' that starts no tag (write &lt;)", i) }
            let r = name(from: i + 1)
            if style != nil {
                throw Refusal(message: "has an element <\(Text.show(b[r]))> inside <style>; a style sheet may only hold text",
                              line: line(i))
            }
            if rootClosed { throw malformed("content after the root element", i) }
            let isStyle = localName(r) == "style"
            if !rootSeen {
                rootSeen = true
                guard localName(r) == "svg" else {
                    throw Refusal(message: "not an SVG document (the root element is not <svg>)")
                }
            }
            guard let (end, empty) = try attributes(from: r.upperBound) else { return false }
            if empty {
                if stack.isEmpty { rootClosed = true }
            } else {
                stack.append(r)
                if isStyle { style = []; styleAt = i }
            }
            i = end
            return true
        }

        /// A start tag's attributes from `start` to its `>` or `/>`: where the tag ends and whether the
        /// element is empty; nil when the input ends first.
        mutating func attributes(from start: Int) throws(Refusal) -> (end: Int, empty: Bool)? {
            var j = start
            while j < n {
                while j < n, Self.isSpace(b[j]) { j += 1 }
                guard j < n else { return nil }
                if b[j] == Byte.gt { return (j + 1, false) }
                if b[j] == Byte.slash {
                    guard j + 1 < n else { return nil }
                    guard b[j + 1] == Byte.gt else { throw malformed("a '/' inside a tag", j) }
                    return (j + 2, true)
                }
                guard Self.isNameStart(b[j]) else { throw malformed("a broken attribute", j) }
                let a = name(from: j)
                j = a.upperBound
                while j < n, Self.isSpace(b[j]) { j += 1 }
                guard j < n else { return nil }
                guard b[j] == Byte.eq else { throw malformed("an attribute with no value", j) }
                j += 1
                while j < n, Self.isSpace(b[j]) { j += 1 }
                guard j < n else { return nil }
                let q = b[j]
                guard q == Byte.quote || q == Byte.apos else { throw malformed("an attribute value with no quotes", j) }
                guard let (value, close) = try attributeValue(from: j + 1, quote: q) else { return nil }
                try attribute(a, value, at: close)
                j = close + 1
            }
            return nil
        }

        /// An attribute value from `start` to its closing `quote`: the value (references decoded, a
        /// line end, tab or LF as a space) and where the quote is; nil when the input ends first.
        func attributeValue(from start: Int, quote q: UInt8) throws(Refusal) -> (value: [UInt8], close: Int)? {
            var j = start
            var value: [UInt8] = []
            while j < n {
                let e = b[j]
                if e == q { return (value, j) }
                if e == Byte.lt { throw malformed("a '<' in an attribute value (write &lt;)", j) }
                if e == Byte.amp {
                    guard let ref = try reference(j) else { return nil }
                    value += ref.text
                    j = ref.end
                    continue
                }
                if e == Byte.cr {
                    // A line end (CR LF, or CR) is one space.
                    value.append(Byte.space)
                    j += j + 1 < n && b[j + 1] == Byte.lf ? 2 : 1
                    continue
                }
                value.append(e == Byte.tab || e == Byte.lf ? Byte.space : e)
                j += 1
            }
            return nil
        }

        /// One attribute: `href` is a reference, `style` and any value with a `(` go through the CSS
        /// scanner; `xml:base` and XInclude are refused.
        mutating func attribute(_ nameRange: Range<Int>, _ value: [UInt8], at: Int) throws(Refusal) {
            let q = Byte.lowered(b[nameRange])
            let local = localName(nameRange)
            if q == "xml:base" {
                // xml:base would move the base of the references below it. librsvg 2.54 ignores it for images
                // while other versions may not, so a reference cannot be checked against the base librsvg
                // will use: refuse it (whatever it says), so every reference is relative to the file itself.
                throw Refusal(message: "sets xml:base=\"\(Text.show(value))\"; xml:base is not supported "
                              + "(write references relative to the SVG file, inside its own folder)")
            }
            if q == "xmlns" || q.hasPrefix("xmlns:") {
                if Byte.lowered(value).contains("xinclude") {
                    throw Refusal(message: "uses XInclude (\(Text.show(b[nameRange]))=\"\(Text.show(value))\"); it is not supported",
                                  line: line(at))
                }
                return
            }
            if local == "href" {
                references.append(Reference(value: value, kind: .resource))
            } else if q == "style" || value.contains(Byte.lparen) {
                // A presentation attribute (fill="url(…)") goes through the CSS parser too; one with a
                // prefix (inkscape:export-filename) does not, so a backslash there is no CSS escape.
                do throws(Refusal) {
                    try CSSScan.scan(value[...], what: "its \(Text.show(b[nameRange])) attribute", refuseEscapes: !q.contains(":"),
                                     into: &references)
                } catch {
                    throw Refusal(message: error.message, line: line(at))
                }
            }
        }

        // MARK: Text

        /// Text up to the next `<` or `&` (of a `<style>` element, kept).
        mutating func text() {
            var j = i
            while j < n, b[j] != Byte.lt, b[j] != Byte.amp { j += 1 }
            if style != nil { style! += b[i..<j] }
            i = j
        }

        /// A `<style>` element's text, through the CSS scanner.
        mutating func styleSheet(_ css: [UInt8]) throws(Refusal) {
            do throws(Refusal) {
                try CSSScan.scan(css[...], what: "a <style> element", into: &references)
            } catch {
                throw Refusal(message: error.message, line: line(styleAt))
            }
        }

        /// A character or entity reference at `at` (an `&`): its text and where it ends; nil at the end of the input.
        func reference(_ at: Int) throws(Refusal) -> (text: [UInt8], end: Int)? {
            var j = at + 1
            guard j < n else { return nil }
            if b[j] == Byte.hash {
                j += 1
                let hex = j < n && b[j] == 0x78
                if hex { j += 1 }
                var v: UInt32 = 0
                var digits = 0
                while j < n, let d = hex ? Byte.hexValue(b[j]) : (Byte.isDigit(b[j]) ? b[j] - 0x30 : nil) {
                    v = min(v * (hex ? 16 : 10) + UInt32(d), 0x110000)
                    digits += 1
                    j += 1
                }
                guard j < n else { return nil }
                guard b[j] == Byte.semicolon, digits > 0 else { throw malformed("a broken character reference", at) }
                guard Self.isXMLChar(v), let scalar = Unicode.Scalar(v) else {
                    throw malformed("a character reference to a character XML does not allow (\(Text.show(b[at...j])))", at)
                }
                return (Array(String(Character(scalar)).utf8), j + 1)
            }
            guard Self.isNameStart(b[j]) else { throw malformed("an '&' that starts no reference (write &amp;)", at) }
            let r = name(from: j)
            guard r.upperBound < n else { return nil }
            guard b[r.upperBound] == Byte.semicolon else { throw malformed("an '&' that starts no reference (write &amp;)", at) }
            switch String(decoding: b[r], as: UTF8.self) {
            case "lt": return ([Byte.lt], r.upperBound + 1)
            case "gt": return ([Byte.gt], r.upperBound + 1)
            case "amp": return ([Byte.amp], r.upperBound + 1)
            case "quot": return ([Byte.quote], r.upperBound + 1)
            case "apos": return ([Byte.apos], r.upperBound + 1)
            default:
                throw Refusal(message: "uses the entity &\(Text.show(b[r]));, which is not defined here; only XML's own "
                              + "(&amp; &lt; &gt; &quot; &apos;) and numeric character references are supported", line: line(at))
            }
        }

        // MARK: Names, lines, characters

        /// The name that starts at `start` (empty when none does).
        func name(from start: Int) -> Range<Int> {
            var j = start
            while j < n, Self.isNameChar(b[j]) { j += 1 }
            return start..<j
        }

        func same(_ a: Range<Int>, _ c: Range<Int>) -> Bool { a.count == c.count && b[a].elementsEqual(b[c]) }

        /// The name without its prefix, lowercased.
        func localName(_ r: Range<Int>) -> String {
            let colon = b[r].lastIndex(of: Byte.colon)
            return Byte.lowered(b[(colon.map { $0 + 1 } ?? r.lowerBound)..<r.upperBound])
        }

        /// The line of the byte at `at`.
        func line(_ at: Int) -> Int {
            var l = 1
            for k in 0..<min(max(at, 0), n) where b[k] == Byte.lf { l += 1 }
            return l
        }

        func malformed(_ what: String, _ at: Int) -> Refusal {
            Refusal(message: "not a well-formed SVG (XML) document: \(what)", line: line(at))
        }

        static func isSpace(_ c: UInt8) -> Bool { c == Byte.space || c == Byte.tab || c == Byte.lf || c == Byte.cr }
        static func isNameStart(_ c: UInt8) -> Bool { Byte.isAlpha(c) || c == Byte.underscore || c == Byte.colon || c >= 0x80 }
        static func isNameChar(_ c: UInt8) -> Bool { isNameStart(c) || Byte.isDigit(c) || c == Byte.dash || c == Byte.dot }
        static func isXMLChar(_ v: UInt32) -> Bool {
            v == 0x9 || v == 0xA || v == 0xD || (0x20...0xD7FF).contains(v) || (0xE000...0xFFFD).contains(v) || (0x10000...0x10FFFF).contains(v)
        }

        /// The value of `name="…"` in an XML declaration's text.
        static func pseudoAttribute(_ name: StaticString, in s: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
            let b = Array(s)
            guard var j = Byte.find(b, name, from: 0) else { return nil }
            j += name.utf8CodeUnitCount
            while j < b.count, isSpace(b[j]) { j += 1 }
            guard j < b.count, b[j] == Byte.eq else { return nil }
            j += 1
            while j < b.count, isSpace(b[j]) { j += 1 }
            guard j < b.count, b[j] == Byte.quote || b[j] == Byte.apos else { return nil }
            let q = b[j]
            let start = j + 1
            guard let end = b[start...].firstIndex(of: q) else { return nil }
            return ArraySlice(b[start..<end])
        }
    }
}
