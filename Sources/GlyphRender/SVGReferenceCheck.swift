import Foundation
import GlyphAudit
import GlyphColor
import GlyphCore
import GlyphRaster

/// Checks an SVG before librsvg reads it: every way the SVG could make librsvg read another file
/// is found, and one that leaves the SVG's folder (as written, or through a symbolic link), names a
/// URL, or cannot be checked the way librsvg reads it, is refused as bad input. Nothing outside the
/// folder is opened or looked at (a symbolic link in it is resolved to see where it leads, no further).
///
/// The SVG is read by its own small XML scanner (linear, no recursion on nesting, any bytes) that
/// sees what libxml2 shows librsvg:
/// - the document must be UTF-8 (or ASCII declared as a Latin encoding); a DOCTYPE with an internal
///   subset (entity declarations), an undefined entity, `<?xml-stylesheet?>`, XInclude, `xml:base`,
///   an element inside `<style>` are refused;
/// - references are `href` (any prefix), `url(…)` in `<style>`, `style` and other attributes, and
///   `@import`; character references in them are decoded, CSS escapes are refused;
/// - a reference is read as a URL parser reads it (tab, LF and CR dropped, `\` as `/`, percent-decoded,
///   `file:` as a path); any other scheme but `data:` is refused, and so is an absolute path or one
///   that climbs out with `..`;
/// - a referenced file inside the folder that is an SVG (by extension or content) or a style sheet
///   (`@import`) is read (regular files only, up to `Limits.svgFileBytes`) and checked the same way,
///   to a depth of `maxDepth`; an SVG inside a `data:` URL too, and it may not reference files.
/// Refusals name the reference as written (at most 80 characters) and, when a URL parser reads it
/// otherwise, how it reads it: `references "..\x.png" (read as "../x.png"), outside its own folder`.
public enum SVGReferenceCheck {
    /// SVGs and style sheets reached through references are checked to this depth.
    static let maxDepth = 8

    /// Refuses (throws) `data`, the SVG at `file` (only its folder is used; it need not exist), when
    /// it could make librsvg read anything outside that folder. `name` is the file named in errors.
    public static func check(data: Data, file: URL, name: String) throws(InputError) {
        try check(data: data, base: file, name: name)
    }

    /// As `check(data:file:name:)`; with no `base` (a built-in image) every reference to a file is refused.
    static func check(data: Data, base: URL?, name: String) throws(InputError) {
        var scope: [Scope] = []
        var session = Session()
        if let base {
            let path = Path.lexical(Array(base.absoluteURL.path.utf8))
            let folder = Path.parent(path)
            scope = [Scope(base: folder, confine: folder)]
            session.top = scope
            // The file itself (a reference to it, e.g. `self.svg#a`, adds nothing).
            session.visited.insert([SVGReferenceCheck.Kind.resource.rawValue, 1] + session.real(path))
        }
        do throws(Refusal) {
            try session.checkSVG(Array(data), scope: scope, depth: 0)
        } catch {
            throw InputError(file: name, line: error.line, message: error.message)
        }
    }

    /// The message for an SVG over the size limit (InputFile's wording).
    static func tooLarge(_ count: Int) -> String {
        "the SVG image is \(count) bytes; the limit is \(Limits.bytes(Limits.svgFileBytes)) (docs/limits.md)"
    }

    // MARK: - Pieces

    /// Why an SVG is refused; `line` is a line of the document itself.
    struct Refusal: Error {
        var message: String
        var line: Int? = nil
    }

    enum Kind: UInt8 {
        /// `href`, `url(…)`: an image, or an element of another SVG.
        case resource = 0
        /// `@import`: a style sheet.
        case styleSheet = 1
    }

    /// A reference as the document gives it (character references decoded).
    struct Reference {
        var value: [UInt8]
        var kind: Kind
    }

    /// References resolve against `base` and must stay inside `confine` (both absolute, lexical).
    struct Scope: Hashable {
        var base: [UInt8]
        var confine: [UInt8]
    }

    /// One check: what was looked at already, so cycles and repeats cost nothing.
    struct Session {
        /// The top document's scope: librsvg 2.54 resolves the references of an SVG it loads for
        /// `<use>` or `<image>` against the top document, later versions against the SVG's own file.
        var top: [Scope] = []
        var visited = Set<[UInt8]>()
        var resolved = Set<[UInt8]>()
        var realCache: [[UInt8]: [UInt8]] = [:]

        mutating func real(_ path: [UInt8]) -> [UInt8] {
            if let known = realCache[path] { return known }
            let r = Path.real(path)
            realCache[path] = r
            return r
        }

        /// Where `parts` below the folder `base` lead on disk (`ConfinedPath.walk`, the walk the spec
        /// loader confines images with); nil after 40 links.
        mutating func walk(_ base: [UInt8], _ parts: [ArraySlice<UInt8>], realConfine: [UInt8]) -> (path: [UInt8], exists: Bool)? {
            ConfinedPath.walk(realBase: real(base), parts, realConfine: realConfine)
        }

        mutating func checkSVG(_ bytes: [UInt8], scope: [Scope], depth: Int) throws(Refusal) {
            if bytes.count > Limits.svgFileBytes { throw Refusal(message: SVGReferenceCheck.tooLarge(bytes.count)) }
            let references = try XMLScan.references(in: bytes)
            for r in references { try resolve(r, scope: scope, depth: depth) }
        }

        mutating func checkCSS(_ bytes: [UInt8], scope: [Scope], depth: Int, what: String) throws(Refusal) {
            var references: [Reference] = []
            try CSSScan.scan(bytes[...], what: what, into: &references)
            for r in references { try resolve(r, scope: scope, depth: depth) }
        }

        mutating func resolve(_ r: Reference, scope: [Scope], depth: Int) throws(Refusal) {
            let s = URLText.normalized(r.value)
            if s.isEmpty || s[0] == Byte.hash { return } // the document itself, or an element in it
            var key: [UInt8] = [r.kind.rawValue]
            for s in scope { key += s.base + [0] + s.confine + [0] }
            key += [1] + r.value
            guard resolved.insert(key).inserted else { return }

            let shown = Text.show(r.value)
            let shownPath = Text.show(r.value.prefix { $0 != Byte.question && $0 != Byte.hash })
            var scheme = URLText.scheme(s)
            if scheme == "data" { return try dataURL(s, r, shown: shown, scope: scope, depth: depth) }
            if let scheme, scheme != "file" {
                throw Refusal(message: "references the URL \"\(shown)\"; an SVG may only reference files in its own folder")
            }
            // A file URL: `\` is `/` (also in a path relative to one), and file: only says it is a path.
            var p = s.map { $0 == Byte.backslash ? Byte.slash : $0 }
            if scheme == "file" {
                p.removeFirst(5)
                scheme = URLText.scheme(p)
                if scheme != nil {
                    throw Refusal(message: "references the URL \"\(shown)\"; an SVG may only reference files in its own folder")
                }
            }
            if let end = p.firstIndex(where: { $0 == Byte.question || $0 == Byte.hash }) { p.removeSubrange(end...) }
            if p.isEmpty { return } // the document itself (with a query)
            func outside(_ readAs: [UInt8]) -> Refusal {
                let read = Text.show(readAs)
                let note = read == shownPath ? "" : " (read as \"\(read)\")"
                return Refusal(message: "references \"\(shown)\"\(note), outside its own folder; it is not read")
            }
            if p[0] == Byte.slash || URLText.startsWithDriveLetter(p) || Path.climbs(p) { throw outside(p) }
            guard let decoded = URLText.percentDecoded(p), !decoded.contains(0), UTF8Check.firstError(in: decoded, from: 0) == nil else {
                throw Refusal(message: "references \"\(shown)\", which percent-decodes to no valid file name (a NUL byte, or not UTF-8)")
            }
            let d = decoded.map { $0 == Byte.backslash ? Byte.slash : $0 }
            if d.first == Byte.slash || Path.climbs(d) { throw outside(d) }
            guard !scope.isEmpty else {
                throw Refusal(message: "references \"\(shown)\", but this SVG has no folder (it is built in, or inside a data: URL), "
                              + "so it may not reference files")
            }
            let parts = d.split(separator: Byte.slash).filter { !($0.count == 1 && $0[$0.startIndex] == Byte.dot) }
            for pair in scope {
                var target = pair.base
                for part in parts { target += [Byte.slash] + part }
                guard Path.inside(target, pair.confine) else {
                    throw Refusal(message: "references \"\(shown)\", a folder, not a file; it is not read")
                }
                // No file has a longer name (PATH_MAX): librsvg could not read it, and it is not looked at.
                guard target.count < 4096 else {
                    throw Refusal(message: "references \"\(shown)\", a path of 4096 bytes or more; it is not read")
                }
                let realConfine = real(pair.confine)
                guard let (realTarget, exists) = walk(pair.base, parts, realConfine: realConfine) else {
                    throw Refusal(message: "references \"\(shown)\", a path through more than 40 symbolic links; it is not read")
                }
                guard Path.inside(realTarget, realConfine) else {
                    throw Refusal(message: "references \"\(shown)\", which a symbolic link leads outside its own folder; it is not read")
                }
                // Missing (or behind a link to nothing): librsvg reads nothing either.
                guard exists else { continue }
                try examine(target: target, real: realTarget, name: parts.last.map(Array.init) ?? [], r, shown: shown,
                            scope: scope, depth: depth)
            }
        }

        /// A referenced file inside the folder: only a regular file may be; an SVG or a style sheet is
        /// read and checked in turn.
        mutating func examine(target: [UInt8], real: [UInt8], name: [UInt8], _ r: Reference, shown: String,
                              scope: [Scope], depth: Int) throws(Refusal) {
            var key: [UInt8] = [r.kind.rawValue]
            if r.kind == .styleSheet { for s in scope { key += s.base + [0] + s.confine + [0] } }
            key += [1] + real
            guard visited.insert(key).inserted else { return }
            var info = stat()
            let found = (real + [0]).withUnsafeBufferPointer { p in
                p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: p.count) { stat($0, &info) }
            }
            guard found == 0 else { return } // missing (or unreadable): librsvg reads nothing either
            if let kind = InputFile.irregularKind(info.st_mode) {
                throw Refusal(message: kind == InputFile.folder ? "references \"\(shown)\", a folder, not a file; it is not read"
                              : "references \"\(shown)\", which is not a regular file (\(kind)); it is not read")
            }
            func via(_ inner: Refusal) -> Refusal {
                Refusal(message: "through \"\(shown)\"" + (inner.line.map { " (its line \($0))" } ?? "") + ": " + inner.message)
            }
            let folder = Path.parent(target)
            switch r.kind {
            case .styleSheet:
                guard depth < SVGReferenceCheck.maxDepth else { throw tooDeep(shown) }
                let bytes = try read(real, shown: shown, what: "style sheet")
                // librsvg resolves @import in an imported style sheet against the sheet and url() against the document.
                var next = scope
                for confine in scope.map(\.confine) where !next.contains(Scope(base: folder, confine: confine)) {
                    next.append(Scope(base: folder, confine: confine))
                }
                do throws(Refusal) {
                    try checkCSS(bytes, scope: next, depth: depth + 1, what: "the style sheet")
                } catch { throw via(error) }
            case .resource:
                let head = Sniff.head(real)
                if Sniff.isGzip(head) { throw compressed(shown) }
                let ext = String(decoding: name, as: UTF8.self).lowercased()
                guard Sniff.isXML(head) || ext.hasSuffix(".svg") || ext.hasSuffix(".svgz") else { return }
                guard depth < SVGReferenceCheck.maxDepth else { throw tooDeep(shown) }
                let bytes = try read(real, shown: shown, what: "SVG image")
                if Sniff.isGzip(bytes[...]) { throw compressed(shown) }
                var next = top
                if !next.contains(Scope(base: folder, confine: folder)) { next.append(Scope(base: folder, confine: folder)) }
                do throws(Refusal) {
                    try checkSVG(bytes, scope: next, depth: depth + 1)
                } catch { throw via(error) }
            }
        }

        /// A `data:` URL: an SVG or style sheet inside it is checked too (an SVG in one may not
        /// reference files; a style sheet's references resolve against the document).
        mutating func dataURL(_ s: [UInt8], _ r: Reference, shown: String, scope: [Scope], depth: Int) throws(Refusal) {
            var body = s.dropFirst(5)
            if let fragment = body.firstIndex(of: Byte.hash) { body = body[..<fragment] }
            guard let comma = body.firstIndex(of: Byte.comma) else { return }
            let meta = String(decoding: body[..<comma], as: UTF8.self).lowercased()
                .trimmingCharacters(in: .whitespaces)
            let payload = URLText.percentDecoded(body[(comma + 1)...]) ?? []
            let bytes: [UInt8]
            if meta.hasSuffix(";base64") {
                guard let decoded = Base64.decode(payload) else { return } // librsvg cannot decode it either
                bytes = decoded
            } else {
                bytes = payload
            }
            func via(_ inner: Refusal) -> Refusal {
                Refusal(message: "in the data: URL \"\(shown)\"" + (inner.line.map { " (its line \($0))" } ?? "") + ": "
                        + inner.message)
            }
            guard depth < SVGReferenceCheck.maxDepth else { throw tooDeep(shown) }
            switch r.kind {
            case .styleSheet:
                do throws(Refusal) {
                    try checkCSS(bytes, scope: scope, depth: depth + 1, what: "the style sheet")
                } catch { throw via(error) }
            case .resource:
                if Sniff.isGzip(bytes[...]) { throw compressed(shown) }
                guard Sniff.isXML(bytes.prefix(512)) || meta.contains("svg") else { return }
                do throws(Refusal) {
                    try checkSVG(bytes, scope: [], depth: depth + 1)
                } catch { throw via(error) }
            }
        }

        func read(_ real: [UInt8], shown: String, what: String) throws(Refusal) -> [UInt8] {
            do throws(InputFile.Failure) {
                return Array(try InputFile.read(String(decoding: real, as: UTF8.self), limit: Limits.svgFileBytes, what: what))
            } catch {
                throw Refusal(message: "references \"\(shown)\": \(error.message)")
            }
        }

        func tooDeep(_ shown: String) -> Refusal {
            Refusal(message: "references \"\(shown)\", more than \(SVGReferenceCheck.maxDepth) SVGs or style sheets deep; "
                    + "that is not supported")
        }

        func compressed(_ shown: String) -> Refusal {
            Refusal(message: "references \"\(shown)\", a compressed (gzip) file; compressed SVGs (.svgz) are not supported")
        }
    }
}

// The pieces, inside SVGReferenceCheck so their short names stay out of the module.
extension SVGReferenceCheck {
    // MARK: - Bytes

    enum Byte {
        static let tab: UInt8 = 0x09, lf: UInt8 = 0x0A, cr: UInt8 = 0x0D, space: UInt8 = 0x20
        static let quote: UInt8 = 0x22, hash: UInt8 = 0x23, percent: UInt8 = 0x25, amp: UInt8 = 0x26
        static let apos: UInt8 = 0x27, lparen: UInt8 = 0x28, rparen: UInt8 = 0x29, star: UInt8 = 0x2A
        static let comma: UInt8 = 0x2C, dash: UInt8 = 0x2D, dot: UInt8 = 0x2E, slash: UInt8 = 0x2F
        static let colon: UInt8 = 0x3A, semicolon: UInt8 = 0x3B, lt: UInt8 = 0x3C, eq: UInt8 = 0x3D
        static let gt: UInt8 = 0x3E, question: UInt8 = 0x3F, at: UInt8 = 0x40, lbracket: UInt8 = 0x5B
        static let backslash: UInt8 = 0x5C, rbracket: UInt8 = 0x5D, underscore: UInt8 = 0x5F
        static let lbrace: UInt8 = 0x7B, pipe: UInt8 = 0x7C, rbrace: UInt8 = 0x7D, bang: UInt8 = 0x21

        static func isAlpha(_ c: UInt8) -> Bool { (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A }
        static func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
        static func hexValue(_ c: UInt8) -> UInt8? {
            if isDigit(c) { return c - 0x30 }
            let l = c | 0x20
            return l >= 0x61 && l <= 0x66 ? l - 0x61 + 10 : nil
        }
        static func lower(_ c: UInt8) -> UInt8 { c >= 0x41 && c <= 0x5A ? c | 0x20 : c }
        /// ASCII-lowercased text of `bytes`.
        static func lowered<C: Collection<UInt8>>(_ bytes: C) -> String { String(decoding: bytes.map(lower), as: UTF8.self) }
        static func starts(_ b: [UInt8], at i: Int, with s: StaticString) -> Bool {
            let n = s.utf8CodeUnitCount
            guard i >= 0, i <= b.count - n else { return false }
            let p = s.utf8Start
            for k in 0..<n where b[i + k] != p[k] { return false }
            return true
        }
        /// The index of `s` in `b` at or after `from`.
        static func find(_ b: [UInt8], _ s: StaticString, from: Int) -> Int? {
            let n = s.utf8CodeUnitCount
            let first = s.utf8Start[0]
            var i = max(0, from)
            while i <= b.count - n {
                if b[i] == first, starts(b, at: i, with: s) { return i }
                i += 1
            }
            return nil
        }
    }

    enum Text {
        /// A reference or snippet as written, for a one-line message: control characters as character
        /// references, at most 80 characters.
        static func show<C: Collection<UInt8>>(_ bytes: C) -> String {
            var pieces: [String] = []
            for ch in String(decoding: bytes.prefix(400), as: UTF8.self).unicodeScalars {
                if pieces.count == 80 { return pieces.dropLast().joined() + "…" }
                let v = ch.value
                pieces.append(v < 0x20 || v == 0x7F || (0x80..<0xA0).contains(v) || v == 0x2028 || v == 0x2029 ? "&#\(v);" : String(ch))
            }
            return pieces.joined()
        }

        /// `0x7F`, `0x0A`: a byte for people.
        static func hex(_ c: UInt8) -> String { "0x" + (c < 16 ? "0" : "") + String(c, radix: 16, uppercase: true) }
    }

    enum UTF8Check {
        /// The index of the first byte that is not well-formed UTF-8, from `from`.
        static func firstError(in b: [UInt8], from: Int) -> Int? {
            var i = from
            let n = b.count
            while i < n {
                let c = b[i]
                if c < 0x80 { i += 1; continue }
                var need = 0
                var lo: UInt8 = 0x80, hi: UInt8 = 0xBF
                switch c {
                case 0xC2...0xDF: need = 1
                case 0xE0: need = 2; lo = 0xA0
                case 0xE1...0xEC, 0xEE...0xEF: need = 2
                case 0xED: need = 2; hi = 0x9F
                case 0xF0: need = 3; lo = 0x90
                case 0xF1...0xF3: need = 3
                case 0xF4: need = 3; hi = 0x8F
                default: return i
                }
                guard i + need < n else { return i }
                if b[i + 1] < lo || b[i + 1] > hi { return i }
                for k in 1..<need + 1 where k > 1 && (b[i + k] < 0x80 || b[i + k] > 0xBF) { return i }
                i += need + 1
            }
            return nil
        }
    }

    /// Paths as bytes: shared with the spec loader's confinement of images (GlyphCore).
    typealias Path = ConfinedPath

    /// A reference read as a URL parser (WHATWG, as librsvg's `url` crate) reads it.
    enum URLText {
        /// Without ASCII tab, LF and CR anywhere, and without C0 controls and spaces at either end.
        static func normalized(_ value: [UInt8]) -> [UInt8] {
            var s = value.filter { $0 != Byte.tab && $0 != Byte.lf && $0 != Byte.cr }
            while let last = s.last, last <= Byte.space { s.removeLast() }
            let lead = s.prefix { $0 <= Byte.space }.count
            s.removeFirst(lead)
            return s
        }

        /// The lowercased scheme (`http` of `http://…`), nil for a relative reference.
        static func scheme(_ s: [UInt8]) -> String? {
            guard let first = s.first, Byte.isAlpha(first) else { return nil }
            for (k, c) in s.enumerated().dropFirst() {
                if c == Byte.colon { return Byte.lowered(s[..<k]) }
                guard Byte.isAlpha(c) || Byte.isDigit(c) || c == 0x2B || c == Byte.dash || c == Byte.dot else { return nil }
            }
            return nil
        }

        /// `c:`, `c|` (a Windows drive letter, which a file URL takes for an absolute path).
        static func startsWithDriveLetter(_ p: [UInt8]) -> Bool {
            guard p.count >= 2, Byte.isAlpha(p[0]), p[1] == Byte.colon || p[1] == Byte.pipe else { return false }
            return p.count == 2 || [Byte.slash, Byte.backslash, Byte.question, Byte.hash].contains(p[2])
        }

        /// `%XX` decoded (a `%` not followed by two hex digits stays).
        static func percentDecoded<C: Collection<UInt8>>(_ s: C) -> [UInt8]? where C.Index == Int {
            var out: [UInt8] = []
            out.reserveCapacity(s.count)
            var i = s.startIndex
            while i < s.endIndex {
                let c = s[i]
                if c == Byte.percent, i + 2 < s.endIndex, let h = Byte.hexValue(s[i + 1]), let l = Byte.hexValue(s[i + 2]) {
                    out.append(h << 4 | l)
                    i += 3
                } else {
                    out.append(c)
                    i += 1
                }
            }
            return out
        }
    }

    enum Base64 {
        /// Forgiving base64 (ASCII whitespace skipped, padding optional), nil when it is not base64.
        static func decode(_ s: [UInt8]) -> [UInt8]? {
            var out: [UInt8] = []
            out.reserveCapacity(s.count / 4 * 3)
            var acc: UInt32 = 0
            var bits = 0
            var padding = false
            for c in s {
                let v: UInt32
                switch c {
                case 0x41...0x5A: v = UInt32(c - 0x41)
                case 0x61...0x7A: v = UInt32(c - 0x61 + 26)
                case 0x30...0x39: v = UInt32(c - 0x30 + 52)
                case 0x2B: v = 62
                case 0x2F: v = 63
                case Byte.space, Byte.tab, Byte.lf, Byte.cr, 0x0C: continue
                case Byte.eq: padding = true; continue
                default: return nil
                }
                if padding { return nil }
                acc = (acc << 6 | v) & 0xFFFFFF
                bits += 6
                if bits >= 8 {
                    bits -= 8
                    out.append(UInt8(truncatingIfNeeded: acc >> UInt32(bits)))
                }
            }
            return out
        }
    }

    enum Sniff {
        /// Up to 512 bytes from the start of a regular file (nothing when it cannot be read).
        static func head(_ path: [UInt8]) -> ArraySlice<UInt8> {
            let fd = (path + [0]).withUnsafeBufferPointer { p in
                p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: p.count) { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
            }
            guard fd >= 0 else { return [] }
            defer { close(fd) }
            var buffer = [UInt8](repeating: 0, count: 512)
            var total = 0
            while total < buffer.count {
                let n = buffer.withUnsafeMutableBytes { raw in Foundation.read(fd, raw.baseAddress! + total, raw.count - total) }
                if n < 0, errno == EINTR { continue }
                if n <= 0 { break }
                total += n
            }
            return buffer[..<total]
        }

        static func isGzip(_ b: ArraySlice<UInt8>) -> Bool {
            b.count >= 2 && b[b.startIndex] == 0x1F && b[b.startIndex + 1] == 0x8B
        }

        /// Whether libxml2 would read these bytes as XML: `<` after an optional UTF-8 BOM and
        /// whitespace, or the start of UTF-16, UTF-32 or EBCDIC XML.
        static func isXML(_ b: ArraySlice<UInt8>) -> Bool {
            let a = Array(b.prefix(4))
            let starts: [[UInt8]] = [[0xFE, 0xFF], [0xFF, 0xFE], [0x00, 0x00, 0x00, 0x3C], [0x3C, 0x00, 0x00, 0x00],
                                     [0x00, 0x3C, 0x00, 0x3F], [0x3C, 0x00, 0x3F, 0x00], [0x00, 0x00, 0xFE, 0xFF],
                                     [0x4C, 0x6F, 0xA7, 0x94]]
            if starts.contains(where: { a.starts(with: $0) }) { return true }
            var i = b.startIndex
            if b.count >= 3, b[i] == 0xEF, b[i + 1] == 0xBB, b[i + 2] == 0xBF { i += 3 }
            while i < b.endIndex, [Byte.space, Byte.tab, Byte.lf, Byte.cr].contains(b[i]) { i += 1 }
            return i < b.endIndex && b[i] == Byte.lt
        }
    }

    // MARK: - XML

    /// The XML scanner: one pass over the bytes, with a stack of open element names (no recursion).
    /// Where what follows is not XML as libxml2 would read it, the SVG is refused; a document that just
    /// ends too early is left for librsvg to report (libxml2 shows librsvg nothing it has not finished).
    enum XMLScan {
        static func references(in b: [UInt8]) throws(Refusal) -> [Reference] {
            let n = b.count
            func line(_ at: Int) -> Int {
                var l = 1
                for k in 0..<min(max(at, 0), n) where b[k] == Byte.lf { l += 1 }
                return l
            }
            func malformed(_ what: String, _ at: Int) -> Refusal {
                Refusal(message: "not a well-formed SVG (XML) document: \(what)", line: line(at))
            }

            // Encoding: UTF-8, or a Latin encoding when every byte is ASCII.
            if n >= 2, (b[0] == 0xFE && b[1] == 0xFF) || (b[0] == 0xFF && b[1] == 0xFE) {
                throw Refusal(message: "is UTF-16; only UTF-8 SVGs are supported")
            }
            var i = 0
            var bom = false
            if n >= 3, b[0] == 0xEF, b[1] == 0xBB, b[2] == 0xBF { i = 3; bom = true }
            var asciiOnly: String?
            if Byte.starts(b, at: i, with: "<?xml"), i + 5 < n, isSpace(b[i + 5]) {
                let end = Byte.find(b, "?>", from: i + 5) ?? n
                if let encoding = pseudoAttribute("encoding", in: b[(i + 5)..<end]) {
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

            var references: [Reference] = []
            var stack: [Range<Int>] = []
            var rootSeen = false, rootClosed = false, doctypeSeen = false
            /// The text of the `<style>` element open now, and where it started.
            var style: [UInt8]?
            var styleAt = 0

            func name(from start: Int) -> Range<Int> {
                var j = start
                while j < n, isNameChar(b[j]) { j += 1 }
                return start..<j
            }
            func same(_ a: Range<Int>, _ c: Range<Int>) -> Bool { a.count == c.count && b[a].elementsEqual(b[c]) }
            func localName(_ r: Range<Int>) -> String {
                let colon = b[r].lastIndex(of: Byte.colon)
                return Byte.lowered(b[(colon.map { $0 + 1 } ?? r.lowerBound)..<r.upperBound])
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
                    guard isXMLChar(v), let scalar = Unicode.Scalar(v) else {
                        throw malformed("a character reference to a character XML does not allow (\(Text.show(b[at...j])))", at)
                    }
                    return (Array(String(Character(scalar)).utf8), j + 1)
                }
                guard isNameStart(b[j]) else { throw malformed("an '&' that starts no reference (write &amp;)", at) }
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
            func attribute(_ nameRange: Range<Int>, _ value: [UInt8], at: Int) throws(Refusal) {
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

            while i < n {
                let c = b[i]
                if c == Byte.lt {
                    guard i + 1 < n else { break }
                    let d = b[i + 1]
                    if d == Byte.slash {
                        let r = name(from: i + 2)
                        var j = r.upperBound
                        while j < n, isSpace(b[j]) { j += 1 }
                        guard j < n else { break }
                        guard b[j] == Byte.gt, !r.isEmpty else { throw malformed("a broken end tag", i) }
                        guard let open = stack.last else { throw malformed("an end tag </\(Text.show(b[r]))> with no element open", i) }
                        guard same(open, r) else {
                            throw malformed("</\(Text.show(b[r]))> ends <\(Text.show(b[open]))>", i)
                        }
                        stack.removeLast()
                        if let css = style {
                            style = nil
                            do throws(Refusal) {
                                try CSSScan.scan(css[...], what: "a <style> element", into: &references)
                            } catch {
                                throw Refusal(message: error.message, line: line(styleAt))
                            }
                        }
                        if stack.isEmpty { rootClosed = true }
                        i = j + 1
                    } else if d == Byte.question {
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
                        guard let end = Byte.find(b, "?>", from: r.upperBound) else { break }
                        i = end + 2
                    } else if d == Byte.bang {
                        if Byte.starts(b, at: i + 2, with: "--") {
                            guard let end = Byte.find(b, "-->", from: i + 4) else { break }
                            i = end + 3
                        } else if Byte.starts(b, at: i + 2, with: "[CDATA[") {
                            guard !stack.isEmpty else { throw malformed("a CDATA section outside the root element", i) }
                            let start = i + 9
                            let end = Byte.find(b, "]]>", from: start)
                            if style != nil { style! += b[start..<(end ?? n)] }
                            guard let end else { break }
                            i = end + 3
                        } else if Byte.starts(b, at: i + 2, with: "DOCTYPE") {
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
                            guard j < n else { break }
                            i = j + 1
                        } else {
                            throw malformed("a '<!' that starts no comment, CDATA section or DOCTYPE", i)
                        }
                    } else {
                        guard isNameStart(d) else { throw malformed("a '<' that starts no tag (write &lt;)", i) }
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
                        var j = r.upperBound
                        var closed = false, empty = false
                        while j < n {
                            while j < n, isSpace(b[j]) { j += 1 }
                            guard j < n else { break }
                            if b[j] == Byte.gt { j += 1; closed = true; break }
                            if b[j] == Byte.slash {
                                guard j + 1 < n else { j = n; break }
                                guard b[j + 1] == Byte.gt else { throw malformed("a '/' inside a tag", j) }
                                j += 2
                                closed = true
                                empty = true
                                break
                            }
                            guard isNameStart(b[j]) else { throw malformed("a broken attribute", j) }
                            let a = name(from: j)
                            j = a.upperBound
                            while j < n, isSpace(b[j]) { j += 1 }
                            guard j < n else { break }
                            guard b[j] == Byte.eq else { throw malformed("an attribute with no value", j) }
                            j += 1
                            while j < n, isSpace(b[j]) { j += 1 }
                            guard j < n else { break }
                            let q = b[j]
                            guard q == Byte.quote || q == Byte.apos else { throw malformed("an attribute value with no quotes", j) }
                            j += 1
                            var value: [UInt8] = []
                            var ended = false
                            while j < n {
                                let e = b[j]
                                if e == q { ended = true; break }
                                if e == Byte.lt { throw malformed("a '<' in an attribute value (write &lt;)", j) }
                                if e == Byte.amp {
                                    guard let ref = try reference(j) else { break }
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
                            guard ended else { j = n; break }
                            try attribute(a, value, at: j)
                            j += 1
                        }
                        guard closed else { break }
                        if empty {
                            if stack.isEmpty { rootClosed = true }
                        } else {
                            stack.append(r)
                            if isStyle { style = []; styleAt = i }
                        }
                        i = j
                    }
                } else if c == Byte.amp {
                    guard !stack.isEmpty else { throw malformed("text outside the root element", i) }
                    guard let ref = try reference(i) else { break }
                    if style != nil { style! += ref.text }
                    i = ref.end
                } else if stack.isEmpty {
                    guard isSpace(c) else { throw malformed("text outside the root element", i) }
                    i += 1
                } else {
                    var j = i
                    while j < n, b[j] != Byte.lt, b[j] != Byte.amp { j += 1 }
                    if style != nil { style! += b[i..<j] }
                    i = j
                }
            }
            // A style sheet the input ends in: librsvg never reads it, but check it all the same.
            if let css = style {
                do throws(Refusal) {
                    try CSSScan.scan(css[...], what: "a <style> element", into: &references)
                } catch {
                    throw Refusal(message: error.message, line: line(styleAt))
                }
            }
            guard rootSeen else { throw Refusal(message: "not an SVG document (it has no root element)") }
            return references
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

    // MARK: - CSS

    /// Finds `url(…)` and `@import` in CSS (a style sheet, a style attribute or a presentation
    /// attribute) as a CSS tokenizer does: comments, strings and unquoted URLs are tokens of their own.
    /// Any escape (`\`) outside a comment is refused: `\75 rl(` is `url(`.
    enum CSSScan {
        /// With `refuseEscapes` false (text librsvg never parses as CSS), an escape is skipped instead.
        static func scan(_ c: ArraySlice<UInt8>, what: String, refuseEscapes: Bool = true,
                         into references: inout [Reference]) throws(Refusal) {
            let c = Array(c)
            let n = c.count
            var i = 0
            var importing = false
            func escape(_ at: Int) -> Refusal {
                Refusal(message: "has a CSS escape (\(Text.show(c[at..<min(n, at + 24)]))) in \(what); CSS escapes are not supported")
            }
            func isNewline(_ x: UInt8) -> Bool { x == Byte.lf || x == Byte.cr || x == 0x0C }
            func isWhite(_ x: UInt8) -> Bool { x == Byte.space || x == Byte.tab || isNewline(x) }
            func isNameStart(_ x: UInt8) -> Bool { Byte.isAlpha(x) || x == Byte.underscore || x >= 0x80 }
            func isName(_ x: UInt8) -> Bool { isNameStart(x) || Byte.isDigit(x) || x == Byte.dash }
            /// A string token from the quote at `at`: its text and where it ends.
            func string(_ at: Int) throws(Refusal) -> ([UInt8], Int) {
                let q = c[at]
                var j = at + 1
                while j < n, c[j] != q, !isNewline(c[j]) {
                    if c[j] == Byte.backslash {
                        if refuseEscapes { throw escape(j) }
                        j += 1
                    }
                    j += 1
                }
                j = min(j, n)
                let text = Array(c[(at + 1)..<j])
                return (text, j < n && c[j] == q ? j + 1 : j)
            }
            while i < n {
                let x = c[i]
                if x == Byte.slash, i + 1 < n, c[i + 1] == Byte.star {
                    i = Byte.find(c, "*/", from: i + 2).map { $0 + 2 } ?? n
                } else if x == Byte.backslash {
                    if refuseEscapes { throw escape(i) }
                    i += 2
                } else if x == Byte.quote || x == Byte.apos {
                    let (text, end) = try string(i)
                    if importing { references.append(Reference(value: text, kind: .styleSheet)) }
                    importing = false
                    i = end
                } else if x == Byte.at {
                    var j = i + 1
                    while j < n, isName(c[j]) { j += 1 }
                    if Byte.lowered(c[(i + 1)..<j]) == "import" { importing = true }
                    i = j
                } else if isNameStart(x) || x == Byte.dash {
                    var j = i + 1
                    while j < n, isName(c[j]) { j += 1 }
                    let isURL = j - i == 3 && Byte.lowered(c[i..<j]) == "url" && j < n && c[j] == Byte.lparen
                    i = j
                    guard isURL else { continue }
                    let kind: SVGReferenceCheck.Kind = importing ? .styleSheet : .resource
                    importing = false
                    j += 1
                    while j < n, isWhite(c[j]) { j += 1 }
                    if j < n, c[j] == Byte.quote || c[j] == Byte.apos {
                        let (text, end) = try string(j)
                        references.append(Reference(value: text, kind: kind))
                        i = end
                    } else {
                        // An unquoted URL runs to ")" (a bad one too).
                        let start = j
                        while j < n, c[j] != Byte.rparen {
                            if c[j] == Byte.backslash {
                                if refuseEscapes { throw escape(j) }
                                j += 1
                            }
                            j += 1
                        }
                        j = min(j, n)
                        var text = Array(c[start..<j])
                        while let last = text.last, isWhite(last) { text.removeLast() }
                        references.append(Reference(value: text, kind: kind))
                        i = min(n, j + 1)
                    }
                } else {
                    if x == Byte.semicolon || x == Byte.lbrace || x == Byte.rbrace { importing = false }
                    i += 1
                }
            }
        }
    }
}
