import CZlib
import Foundation

/// A pre-scan of a PDF image before poppler opens or draws it: it bounds the work drawing the PDF can
/// cost, which the file's size does not (a 4 KB PDF whose Form XObjects fan out 2^40 never finishes; a
/// 7.8 MiB one whose content inflates to 8 GB takes a minute per drawing; a 3 MB one holding a 32000²
/// image takes 4 GB). docs/limits.md lists the limits, `Limits` holds them.
///
/// poppler-glib does not expose a document's objects, so the scan reads them itself, conservatively:
/// every `N G obj` in the file (not only those an xref table names, so that what poppler finds when it
/// repairs a damaged file is seen too; where an object is defined more than once every definition
/// counts), every object the xref tables and xref streams point at (an `N G obj` with a comment inside
/// is found only so), the objects inside object streams (`/Type /ObjStm`), and each stream's data up
/// to its `/Length` or its `endstream`, whichever is later. Then:
/// - every stream but an image's is decoded once (Flate, ASCIIHex, ASCII85, RunLength), inflating
///   with a budget that stops as soon as all of them together pass `Limits.pdfDecodedBytes`;
/// - every image XObject's `/Width` × `/Height` (and each inline image's) is held to the PNG limits;
/// - every page's drawing is followed as poppler follows it (its content streams, then each `Do` of a
///   Form XObject, each soft mask a `gs` sets, each tiling pattern `scn` paints, each Type 3 glyph
///   procedure a `Tf` selects, and the page's annotation appearances, with resource names looked up
///   as poppler does, innermost first), counting repeats: Form XObjects nested deeper than
///   `Limits.pdfFormDepth`, more than `Limits.pdfDraws` XObjects drawn, more than
///   `Limits.pdfDrawnContentBytes` of content read or more than `Limits.pdfDrawnPixels` image pixels
///   drawn are refused. The count stops at the limit, so 2^40 is refused as fast as 2^14.
/// A PDF the scan cannot bound (a stream in LZW or an unknown filter, an object stream it cannot read,
/// values nested past 256 levels) is refused too. An encrypted PDF's streams cannot be read: the scan
/// says so (`encrypted`) and reads nothing more; the caller refuses it.
public enum PDFScan {
    /// Why a PDF is refused; the message says what is too large and the limit.
    public struct Refusal: Error, Sendable, Equatable {
        public var message: String
        public init(_ message: String) { self.message = message }
    }

    /// The limits a scan holds a PDF to (the defaults are `Limits`'; tests use smaller ones).
    public struct Budget: Sendable {
        public var decodedBytes = Limits.pdfDecodedBytes
        public var formDepth = Limits.pdfFormDepth
        public var draws = Limits.pdfDraws
        public var drawnContentBytes = Limits.pdfDrawnContentBytes
        public var drawnPixels = Limits.pdfDrawnPixels
        public var imageSide = Limits.pngSide
        public var imagePixels = Limits.pngPixels
        public init() {}
    }

    /// What a scan measured (the drawing figures are all pages' together: only the first is drawn, but
    /// which is first is poppler's to find, so every page is held to the limits).
    public struct Measures: Sendable, Equatable {
        /// An `/Encrypt` dictionary was found; nothing else was measured.
        public var encrypted = false
        /// Objects found (definitions, in the file and in object streams).
        public var objects = 0
        /// The decoded size of every stream read (all but images' data).
        public var decodedBytes = 0
        /// Pages (dictionaries with `/Contents` or of `/Type /Page`).
        public var pages = 0
        /// The deepest nesting of forms drawn (1: the page draws a form that draws nothing more).
        public var formDepth = 0
        /// XObjects and other content streams the pages draw, counting repeats.
        public var draws = 0
        /// Content bytes the pages' drawing reads, counting repeats.
        public var drawnContentBytes = 0
        /// Image pixels the pages draw, counting repeats.
        public var drawnPixels = 0
        /// The largest image XObject or inline image, in pixels.
        public var largestImage = 0
    }

    /// Scans `data`; throws a `Refusal` for a PDF whose drawing would pass a limit, or that cannot be bounded.
    public static func check(_ data: Data, budget: Budget = Budget()) throws(Refusal) -> Measures {
        let bytes = [UInt8](data)
        var scanner = Scanner(bytes, budget)
        try scanner.run()
        return scanner.measures
    }
}

// MARK: - Values

/// A PDF object, as far as the scan needs it (strings keep no content).
indirect enum PDFValue {
    case null, bool(Bool), int(Int), real(Double), name(String), string, array([PDFValue]), dict([String: PDFValue])
    case ref(Int)
    case keyword(String)

    var dict: [String: PDFValue]? { if case .dict(let d) = self { d } else { nil } }
    var name: String? { if case .name(let n) = self { n } else { nil } }
}

/// A lexer and parser of PDF tokens over bytes, as lenient as poppler's: what it does not know is a
/// keyword, an unterminated string or array ends at the end of the data.
struct PDFLexer {
    let b: [UInt8]
    var i: Int
    let end: Int

    init(_ b: [UInt8], from i: Int = 0, to end: Int? = nil) {
        self.b = b
        self.i = i
        self.end = end ?? b.count
    }

    enum Token: Equatable {
        case int(Int), real(Double), name(String), string, open, close, dictOpen, dictClose, keyword(String), eof
    }

    static func isSpace(_ c: UInt8) -> Bool { c == 0 || c == 9 || c == 10 || c == 12 || c == 13 || c == 32 }
    static func isDelimiter(_ c: UInt8) -> Bool {
        c == 0x28 || c == 0x29 || c == 0x3C || c == 0x3E || c == 0x5B || c == 0x5D || c == 0x7B || c == 0x7D || c == 0x2F || c == 0x25
    }
    static func isRegular(_ c: UInt8) -> Bool { !isSpace(c) && !isDelimiter(c) }

    mutating func skipSpace() {
        while i < end {
            let c = b[i]
            if Self.isSpace(c) { i += 1 } else if c == 0x25 {
                while i < end && b[i] != 10 && b[i] != 13 { i += 1 }
            } else { return }
        }
    }

    mutating func next() -> Token {
        skipSpace()
        guard i < end else { return .eof }
        let c = b[i]
        switch c {
        case 0x5B: i += 1; return .open
        case 0x5D: i += 1; return .close
        case 0x7B: i += 1; return .keyword("{")
        case 0x7D: i += 1; return .keyword("}")
        case 0x28:
            i += 1
            var depth = 1
            while i < end {
                let d = b[i]
                i += 1
                if d == 0x5C { i += 1 } else if d == 0x28 { depth += 1 } else if d == 0x29 {
                    depth -= 1
                    if depth == 0 { break }
                }
            }
            i = min(i, end)
            return .string
        case 0x3C:
            if i + 1 < end && b[i + 1] == 0x3C { i += 2; return .dictOpen }
            i += 1
            while i < end && b[i] != 0x3E { i += 1 }
            i = min(i + 1, end)
            return .string
        case 0x3E:
            if i + 1 < end && b[i + 1] == 0x3E { i += 2; return .dictClose }
            i += 1
            return .keyword(">")
        case 0x29:
            i += 1
            return .keyword(")")
        case 0x2F:
            i += 1
            var name: [UInt8] = []
            while i < end && Self.isRegular(b[i]) {
                if b[i] == 0x23, i + 2 < end, let h = Self.hex(b[i + 1]), let l = Self.hex(b[i + 2]) {
                    name.append(h << 4 | l)
                    i += 3
                } else {
                    name.append(b[i])
                    i += 1
                }
            }
            return .name(String(decoding: name, as: UTF8.self))
        default:
            let start = i
            while i < end && Self.isRegular(b[i]) { i += 1 }
            if i == start { i += 1; return .keyword(String(UnicodeScalar(c))) }
            return Self.number(b[start..<i]) ?? .keyword(String(decoding: b[start..<i], as: UTF8.self))
        }
    }

    static func hex(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: c - 0x30
        case 0x41...0x46: c - 0x41 + 10
        case 0x61...0x66: c - 0x61 + 10
        default: nil
        }
    }

    /// An integer or a real, as poppler reads them (a sign, digits, at most one point); nil for a keyword.
    static func number(_ s: ArraySlice<UInt8>) -> Token? {
        var digits = 0, points = 0, value = 0, overflow = false
        for (k, c) in s.enumerated() {
            if (c == 0x2B || c == 0x2D) && k == 0 { continue }
            if c == 0x2E { points += 1; continue }
            guard c >= 0x30 && c <= 0x39 else { return nil }
            digits += 1
            if points == 0 {
                let (m, o1) = value.multipliedReportingOverflow(by: 10)
                let (a, o2) = m.addingReportingOverflow(Int(c - 0x30))
                overflow = overflow || o1 || o2
                value = a
            }
        }
        guard digits > 0, points <= 1 else { return nil }
        let negative = s.first == 0x2D
        if points == 0 && !overflow { return .int(negative ? -value : value) }
        return .real(Double(String(decoding: s, as: UTF8.self)) ?? (negative ? -1e300 : 1e300))
    }

    /// The value that begins with `token` (an `int int R` is a reference).
    mutating func value(_ token: Token, depth: Int = 0) throws(PDFScan.Refusal) -> PDFValue {
        if depth > 256 { throw PDFScan.Refusal("its values nest more than 256 levels deep; glyphaudit cannot bound the work of drawing it") }
        switch token {
        case .int(let n):
            let save = i
            if case .int = next(), case .keyword("R") = next() { return .ref(n) }
            i = save
            return .int(n)
        case .real(let r): return .real(r)
        case .name(let n): return .name(n)
        case .string: return .string
        case .open:
            var items: [PDFValue] = []
            while true {
                let t = next()
                if t == .close || t == .eof { break }
                items.append(try value(t, depth: depth + 1))
            }
            return .array(items)
        case .dictOpen:
            var d: [String: PDFValue] = [:]
            while true {
                let t = next()
                if t == .dictClose || t == .eof { break }
                guard case .name(let key) = t else { continue }
                let v = next()
                if v == .dictClose || v == .eof { break }
                d[key] = try value(v, depth: depth + 1)
            }
            return .dict(d)
        case .keyword("true"): return .bool(true)
        case .keyword("false"): return .bool(false)
        case .keyword("null"): return .null
        case .keyword(let k): return .keyword(k)
        case .close, .dictClose, .eof: return .null
        }
    }
}

// MARK: - The scan

/// One definition of an object: its value and, for a stream, where its data lies.
private struct PDFObject {
    var num: Int
    var value: PDFValue
    var data: Range<Int>?
    var dict: [String: PDFValue]? { value.dict }
}

/// What a content stream does that costs work, in order.
private enum Effect {
    case xobject(String), extGState(String), pattern(String), font(String)
    case inlineImage(width: Int, height: Int)
}

/// A level of the resource stack: the resource dictionaries of one content stream.
private typealias Level = [[String: PDFValue]]

private struct Scanner {
    let b: [UInt8]
    let budget: PDFScan.Budget
    var measures = PDFScan.Measures()
    var objects: [PDFObject] = []
    var byNumber: [Int: [Int]] = [:]
    var decoded: [Int: [UInt8]] = [:]
    var effects: [Int: [Effect]] = [:]
    /// What the pages' drawing costs, all pages together.
    var page = PDFScan.Measures()

    init(_ b: [UInt8], _ budget: PDFScan.Budget) {
        self.b = b
        self.budget = budget
    }

    static func positions(of word: String, in b: [UInt8]) -> [Int] {
        let w = Array(word.utf8)
        var out: [Int] = []
        b.withUnsafeBytes { raw in
            guard let base = raw.baseAddress, raw.count >= w.count else { return }
            let bytes = raw.bindMemory(to: UInt8.self)
            var at = 0
            while at <= raw.count - w.count, let p = memchr(base + at, Int32(w[0]), raw.count - w.count + 1 - at) {
                let k = base.distance(to: UnsafeRawPointer(p))
                var same = true
                for j in 1..<w.count where bytes[k + j] != w[j] { same = false; break }
                if same { out.append(k) }
                at = k + 1
            }
        }
        return out
    }

    mutating func run() throws(PDFScan.Refusal) {
        // Trailers (classic and repaired) with an /Encrypt dictionary: the streams are not readable.
        for t in Self.positions(of: "trailer", in: b) {
            var lex = PDFLexer(b, from: t + 7)
            let value = try lex.value(lex.next())
            try charge(lex.i - t)
            if case .dict(let d) = value, d["Encrypt"] != nil {
                measures.encrypted = true
                return
            }
        }
        try findObjects()
        if objects.contains(where: { $0.dict?["Encrypt"] != nil }) {
            measures.encrypted = true
            return
        }
        try followXrefs()
        if objects.contains(where: { $0.dict?["Encrypt"] != nil }) {
            measures.encrypted = true
            return
        }
        try readObjectStreams()
        measures.objects = objects.count
        // Every stream but an image's data is decoded (poppler reads fonts, object streams, xref
        // streams and content); every image is held to the pixel limits.
        for k in objects.indices where objects[k].data != nil {
            if isImage(objects[k]) {
                let (w, h) = imageSize(objects[k].dict ?? [:], short: false)
                try checkImage(w, h, "image XObject \(objects[k].num)")
            } else {
                _ = try decode(k)
            }
        }
        // Every page, followed as poppler draws it.
        for k in objects.indices {
            guard let d = objects[k].dict, objects[k].data == nil,
                  d["Type"]?.name == "Page" || (d["Kids"] == nil && !streams(d["Contents"]).isEmpty) else { continue }
            measures.pages += 1
            try followPage(d)
        }
    }

    // MARK: Objects

    /// Bytes parsed so far, at most 4 times the file and twice what was decoded (object streams):
    /// objects inside objects (`1 0 obj ( 1 0 obj ( …`), or an object stream's offsets all pointing at
    /// one long array, would be read again and again.
    var parsed = 0

    mutating func charge(_ n: Int) throws(PDFScan.Refusal) {
        parsed += n
        if parsed > 4 * b.count + 2 * measures.decodedBytes + (1 << 16) {
            throw PDFScan.Refusal("its objects overlap one another; glyphaudit cannot bound the work of drawing it")
        }
    }

    mutating func add(_ o: PDFObject) {
        byNumber[o.num, default: []].append(objects.count)
        objects.append(o)
    }

    /// Every `N G obj` in the file: digits, white space, digits, (white space,) `obj`.
    mutating func findObjects() throws(PDFScan.Refusal) {
        ends = Self.positions(of: "endstream", in: b)
        for at in Self.positions(of: "obj", in: b) {
            if at + 3 < b.count && PDFLexer.isRegular(b[at + 3]) { continue }
            var k = at - 1
            func digit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
            guard k >= 0, PDFLexer.isSpace(b[k]) || digit(b[k]) else { continue }
            while k >= 0 && PDFLexer.isSpace(b[k]) { k -= 1 }
            let genEnd = k
            while k >= 0 && digit(b[k]) { k -= 1 }
            guard k < genEnd, k >= 0, PDFLexer.isSpace(b[k]) else { continue }
            while k >= 0 && PDFLexer.isSpace(b[k]) { k -= 1 }
            let numEnd = k
            while k >= 0 && digit(b[k]) { k -= 1 }
            guard k < numEnd, k < 0 || !PDFLexer.isRegular(b[k]), numEnd - k <= 10 else { continue }
            let num = Int(String(decoding: b[(k + 1)...numEnd], as: UTF8.self)) ?? -1
            try object(num, after: at + 3, from: k + 1)
        }
    }

    /// Where each object read begins (after `obj`), so that one found twice is read once.
    var ends: [Int] = []
    var objectsRead = Set<Int>()

    /// The object whose `obj` keyword ends at `at` (its number began at `start`).
    mutating func object(_ num: Int, after at: Int, from start: Int) throws(PDFScan.Refusal) {
        guard objectsRead.insert(at).inserted else { return }
        var lex = PDFLexer(b, from: at)
        let value = try lex.value(lex.next())
        try charge(lex.i - start)
        var data: Range<Int>?
        if case .dict = value {
            let save = lex.i
            if case .keyword("stream") = lex.next() {
                var s = lex.i
                if s < b.count && b[s] == 13 { s += 1 }
                if s < b.count && b[s] == 10 { s += 1 }
                // The data ends at the first `endstream`, or at /Length when that is later.
                var lo = 0, hi = ends.count
                while lo < hi { let m = (lo + hi) / 2; if ends[m] < s { lo = m + 1 } else { hi = m } }
                var e = lo < ends.count ? ends[lo] : b.count
                if case .int(let n) = value.dict?["Length"], n > 0 { e = max(e, s + min(n, b.count - s)) }
                data = s..<max(s, e)
            } else {
                lex.i = save
            }
        }
        add(PDFObject(num: num, value: value, data: data))
    }

    /// The objects the xref tables and xref streams point at, read from there as poppler reads them
    /// (an object whose `N G obj` has a comment inside is found only so). Repeated while they find
    /// more (an xref stream found through an xref stream).
    mutating func followXrefs() throws(PDFScan.Refusal) {
        var offsets: [Int] = []
        for x in Self.positions(of: "xref", in: b) where x + 4 < b.count && !PDFLexer.isRegular(b[x + 4])
            && (x == 0 || !PDFLexer.isRegular(b[x - 1])) {
            var lex = PDFLexer(b, from: x + 4)
            sections: while case .int(let first) = lex.next(), case .int(let count) = lex.next(), first >= 0, count >= 0 {
                for _ in 0..<min(count, b.count / 18 + 1) {
                    guard case .int(let offset) = lex.next(), case .int = lex.next(), case .keyword(let kind) = lex.next() else { break sections }
                    if kind == "n" { offsets.append(offset) }
                }
            }
            try charge(lex.i - x)
        }
        var done = Set<Int>()
        while true {
            for k in objects.indices where objects[k].data != nil && !done.contains(k) && objects[k].dict?["Type"]?.name == "XRef" {
                done.insert(k)
                offsets += try xrefStreamOffsets(k)
            }
            let before = objects.count
            for offset in offsets where offset >= 0 && offset < b.count {
                var lex = PDFLexer(b, from: offset)
                guard case .int(let num) = lex.next(), case .int = lex.next(), case .keyword("obj") = lex.next() else { continue }
                try object(num, after: lex.i, from: offset)
            }
            offsets = []
            if objects.count == before { break }
        }
    }

    /// The offsets of an xref stream's type 1 entries (its data in /W fields, PNG predictors undone).
    mutating func xrefStreamOffsets(_ k: Int) throws(PDFScan.Refusal) -> [Int] {
        let d = objects[k].dict ?? [:]
        guard let raw = try decode(k), case .array(let ws)? = resolveOne(d["W"]), ws.count == 3 else { return [] }
        let w = ws.map { v -> Int in if case .int(let n) = v, n >= 0, n <= 8 { n } else { 0 } }
        let row = w.reduce(0, +)
        guard row > 0 else { return [] }
        var data = raw
        let params = dicts(d["DecodeParms"]).first ?? [:]
        if case .int(let predictor)? = resolveOne(params["Predictor"]), predictor >= 10 {
            // PNG rows: a filter byte, then the row; each byte predicted from the one above and/or left.
            var out: [UInt8] = [], previous = [UInt8](repeating: 0, count: row), at = 0
            while at + 1 + row <= raw.count {
                let filter = raw[at]
                var line = Array(raw[(at + 1)...(at + row)])
                for j in 0..<row {
                    let left = j > 0 ? Int(line[j - 1]) : 0, up = Int(previous[j]), upLeft = j > 0 ? Int(previous[j - 1]) : 0
                    let p: Int
                    switch filter {
                    case 1: p = left
                    case 2: p = up
                    case 3: p = (left + up) / 2
                    case 4:
                        let e = left + up - upLeft, pa = abs(e - left), pb = abs(e - up), pc = abs(e - upLeft)
                        p = pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft
                    default: p = 0
                    }
                    line[j] = line[j] &+ UInt8(p & 0xFF)
                }
                out += line
                previous = line
                at += 1 + row
            }
            data = out
        }
        var offsets: [Int] = []
        var at = 0
        while at + row <= data.count {
            func field(_ from: Int, _ width: Int) -> Int { (0..<width).reduce(0) { $0 << 8 | Int(data[from + $1]) } }
            let type = w[0] == 0 ? 1 : field(at, w[0])
            if type == 1 { offsets.append(field(at + w[0], w[1])) }
            at += row
        }
        return offsets
    }

    /// The objects inside each object stream, as more definitions.
    mutating func readObjectStreams() throws(PDFScan.Refusal) {
        for k in objects.indices where objects[k].data != nil && objects[k].dict?["Type"]?.name == "ObjStm" {
            let d = objects[k].dict ?? [:]
            if let p = d["DecodeParms"], p != .null {
                throw PDFScan.Refusal("object stream \(objects[k].num) has /DecodeParms; glyphaudit cannot read it to bound the work of drawing the PDF")
            }
            guard let content = try decode(k) else {
                throw PDFScan.Refusal("object stream \(objects[k].num) is not in a filter glyphaudit reads")
            }
            guard case .int(let n)? = resolveOne(d["N"]), case .int(let first)? = resolveOne(d["First"]), n >= 0, first >= 0 else {
                throw PDFScan.Refusal("object stream \(objects[k].num) has no /N or /First; glyphaudit cannot read it")
            }
            var header = PDFLexer(content, from: 0, to: min(first, content.count))
            for _ in 0..<min(n, content.count / 2 + 1) {
                guard case .int(let num) = header.next(), case .int(let offset) = header.next() else { break }
                guard offset >= 0, first + offset < content.count else { continue }
                var lex = PDFLexer(content, from: first + offset)
                let value = try lex.value(lex.next())
                try charge(lex.i - first - offset)
                add(PDFObject(num: num, value: value, data: nil))
            }
        }
    }

    /// The values a value stands for: itself, or every definition of the object it refers to (through
    /// references to references, each object followed once).
    func resolve(_ v: PDFValue?) -> [PDFValue] {
        guard let v else { return [] }
        guard case .ref = v else { return [v] }
        var out: [PDFValue] = [], todo = [v], seen = Set<Int>()
        while let next = todo.popLast() {
            guard case .ref(let n) = next else { out.append(next); continue }
            if seen.insert(n).inserted { todo += (byNumber[n] ?? []).map { objects[$0].value } }
        }
        return out
    }

    func resolveOne(_ v: PDFValue?) -> PDFValue? { resolve(v).first }

    func dicts(_ v: PDFValue?) -> [[String: PDFValue]] { resolve(v).compactMap(\.dict) }

    /// The stream objects a value refers to.
    func streams(_ v: PDFValue?) -> [Int] {
        switch v {
        case .ref(let n)?: (byNumber[n] ?? []).filter { objects[$0].data != nil }
        case .array(let items)?: items.flatMap { streams($0) }
        default: []
        }
    }

    func isImage(_ o: PDFObject) -> Bool { o.dict.flatMap { resolveOne($0["Subtype"])?.name } == "Image" }

    /// An image's width and height (0 when it has none: poppler does not draw it).
    func imageSize(_ d: [String: PDFValue], short: Bool) -> (Int, Int) {
        func int(_ keys: [String]) -> Int {
            for key in keys {
                switch resolveOne(d[key]) {
                case .int(let n)?: return n
                case .real(let r)? where r.isFinite: return Int(max(-1e15, min(1e15, r.rounded(.up))))
                case .real?: return Int(1e15)
                default: continue
                }
            }
            return 0
        }
        return (int(short ? ["W", "Width"] : ["Width", "W"]), int(short ? ["H", "Height"] : ["Height", "H"]))
    }

    mutating func checkImage(_ w: Int, _ h: Int, _ what: String) throws(PDFScan.Refusal) {
        let px = w > 0 && h > 0 ? w.multipliedReportingOverflow(by: h) : (partialValue: 0, overflow: false)
        if w > budget.imageSide || h > budget.imageSide || px.overflow || px.partialValue > budget.imagePixels {
            throw PDFScan.Refusal("its \(what) is \(w) × \(h) px; the limit is \(budget.imageSide) px on a side and "
                                  + "\(budget.imagePixels) px in all, as for a PNG (docs/limits.md)")
        }
        measures.largestImage = max(measures.largestImage, px.partialValue)
    }

    // MARK: Decoding

    /// A stream's decoded data (cached), counted against the budget; nil for image data (DCT, JPX,
    /// CCITT fax, JBIG2), which poppler decodes only as an image.
    mutating func decode(_ k: Int) throws(PDFScan.Refusal) -> [UInt8]? {
        if let done = decoded[k] { return done }
        let o = objects[k]
        guard let range = o.data else { return nil }
        var filters: [String] = []
        for f in resolve(o.dict?["Filter"]) {
            switch f {
            case .name(let n): filters.append(n)
            case .array(let items): filters += items.compactMap { resolveOne($0)?.name }
            default: break
            }
        }
        // All of the data up to `endstream`, or up to /Length when that is later (an indirect /Length,
        // every definition of it): more than poppler may read.
        var end = range.upperBound
        for case .int(let n) in resolve(o.dict?["Length"]) where n > 0 { end = max(end, range.lowerBound + min(n, b.count - range.lowerBound)) }
        var data = Array(b[range.lowerBound..<end])
        let remaining = budget.decodedBytes - measures.decodedBytes
        for f in filters {
            switch f {
            case "FlateDecode", "Fl":
                guard let out = Self.inflate(data, cap: remaining) else { throw tooMuchDecoded(o.num) }
                data = out
            case "ASCIIHexDecode", "AHx": data = Self.asciiHex(data)
            case "ASCII85Decode", "A85":
                guard let out = Self.ascii85(data, cap: remaining) else { throw tooMuchDecoded(o.num) }
                data = out
            case "RunLengthDecode", "RL":
                guard let out = Self.runLength(data, cap: remaining) else { throw tooMuchDecoded(o.num) }
                data = out
            case "DCTDecode", "DCT", "JPXDecode", "CCITTFaxDecode", "CCF", "JBIG2Decode":
                return nil
            default:
                throw PDFScan.Refusal("stream \(o.num) is in the \(f) filter, which glyphaudit does not read; it cannot bound "
                                      + "the work of drawing the PDF (save it with Flate compression)")
            }
        }
        measures.decodedBytes += data.count
        if measures.decodedBytes > budget.decodedBytes { throw tooMuchDecoded(o.num) }
        decoded[k] = data
        return data
    }

    func tooMuchDecoded(_ num: Int) -> PDFScan.Refusal {
        PDFScan.Refusal("its streams decode to more than \(Limits.bytes(budget.decodedBytes)) (stream \(num) passes it); "
                        + "the limit is \(Limits.bytes(budget.decodedBytes)) of decoded PDF streams (docs/limits.md)")
    }

    /// Inflates zlib (or, when that fails at once, raw deflate) data; nil past `cap` bytes. Stops at
    /// the end of the data or at damage, as poppler does.
    static func inflate(_ input: [UInt8], cap: Int) -> [UInt8]? {
        guard let out = inflate(input, cap: cap, windowBits: 15 + 32) else { return nil }
        if !out.output.isEmpty || out.ok { return out.output }
        guard let raw = inflate(input, cap: cap, windowBits: -15) else { return nil }
        return raw.output
    }

    private static func inflate(_ input: [UInt8], cap: Int, windowBits: Int32) -> (output: [UInt8], ok: Bool)? {
        var z = z_stream()
        guard inflateInit2_(&z, windowBits, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return ([], false) }
        defer { inflateEnd(&z) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var ok = false
        var input = input
        let count = input.count
        let result: Bool = input.withUnsafeMutableBufferPointer { inBuf in
            z.next_in = inBuf.baseAddress
            z.avail_in = uInt(count)
            while true {
                let status: Int32 = chunk.withUnsafeMutableBufferPointer { c in
                    z.next_out = c.baseAddress
                    z.avail_out = uInt(c.count)
                    return CZlib.inflate(&z, Z_NO_FLUSH)
                }
                let produced = chunk.count - Int(z.avail_out)
                if out.count + produced > cap { return false }
                out.append(contentsOf: chunk[0..<produced])
                if status == Z_STREAM_END { ok = true; return true }
                if status != Z_OK || (produced == 0 && z.avail_in == 0) { return true }
            }
        }
        return result ? (out, ok) : nil
    }

    static func asciiHex(_ input: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [], high: UInt8?
        for c in input {
            if c == 0x3E { break }
            guard let v = PDFLexer.hex(c) else { continue }
            if let h = high { out.append(h << 4 | v); high = nil } else { high = v }
        }
        if let h = high { out.append(h << 4) }
        return out
    }

    static func ascii85(_ input: [UInt8], cap: Int) -> [UInt8]? {
        var out: [UInt8] = [], group: [UInt32] = []
        func flush(_ n: Int) {
            var v: UInt32 = 0
            for k in 0..<5 { v = v &* 85 &+ (k < group.count ? group[k] : 84) }
            for k in 0..<(n - 1) { out.append(UInt8(truncatingIfNeeded: v >> (24 - 8 * UInt32(k)))) }
        }
        for c in input {
            if c == 0x7E { break }
            if c == 0x7A && group.isEmpty { out += [0, 0, 0, 0] } else if c >= 0x21 && c <= 0x75 {
                group.append(UInt32(c - 0x21))
                if group.count == 5 { flush(5); group = [] }
            }
            if out.count > cap { return nil }
        }
        if group.count > 1 { flush(group.count) }
        return out.count > cap ? nil : out
    }

    static func runLength(_ input: [UInt8], cap: Int) -> [UInt8]? {
        var out: [UInt8] = [], k = 0
        while k < input.count {
            let n = Int(input[k])
            if n == 128 { break }
            if n < 128 {
                out += input[(k + 1)..<min(input.count, k + 2 + n)]
                k += 2 + n
            } else {
                if k + 1 < input.count { out += [UInt8](repeating: input[k + 1], count: 257 - n) }
                k += 2
            }
            if out.count > cap { return nil }
        }
        return out
    }

    // MARK: Drawing

    mutating func followPage(_ d: [String: PDFValue]) throws(PDFScan.Refusal) {
        // The page's resources, or the nearest ancestor's.
        var level: Level = dicts(d["Resources"])
        // Each ancestor once: a page may name itself as its parent, and be defined many times.
        var node: [[String: PDFValue]] = [d], seen = Set<Int>()
        var up = 0
        while level.isEmpty && !node.isEmpty && up < 64 {
            node = node.flatMap { n -> [[String: PDFValue]] in
                switch n["Parent"] {
                case .ref(let p)?: seen.insert(p).inserted ? dicts(.ref(p)) : []
                case .dict(let p)?: [p]
                default: []
                }
            }
            level = node.flatMap { dicts($0["Resources"]) }
            up += 1
        }
        // Its content streams, as one (an operator's operands may lie in the stream before).
        var content: [UInt8] = []
        for k in streams(d["Contents"]) {
            guard let data = try decode(k) else { throw imageAsContent(objects[k].num) }
            try read(data.count + 1)
            content += data
            content.append(10)
        }
        try perform(try Self.effects(of: content), stack: [level], path: [])
        // Its annotations' appearances.
        for annot in resolve(d["Annots"]).flatMap({ v -> [PDFValue] in if case .array(let a) = v { a } else { [] } }) {
            for a in dicts(annot) {
                for ap in dicts(a["AP"]) {
                    for appearance in resolve(ap["N"]) {
                        if case .dict(let states) = appearance {
                            for s in states.values { for k in streams(s) { try form(k, stack: [], path: []) } }
                        }
                    }
                    for k in streams(ap["N"]) { try form(k, stack: [], path: []) }
                }
            }
        }
        measures.formDepth = page.formDepth
        measures.draws = page.draws
        measures.drawnContentBytes = page.drawnContentBytes
        measures.drawnPixels = page.drawnPixels
    }

    func imageAsContent(_ num: Int) -> PDFScan.Refusal {
        PDFScan.Refusal("stream \(num) is drawn as content but its data is in an image filter; glyphaudit cannot bound the work of drawing it")
    }

    mutating func read(_ n: Int) throws(PDFScan.Refusal) {
        page.drawnContentBytes += n
        if page.drawnContentBytes > budget.drawnContentBytes {
            throw PDFScan.Refusal("drawing its pages reads more than \(Limits.bytes(budget.drawnContentBytes)) of content streams, "
                                  + "counting every repeat; the limit is \(Limits.bytes(budget.drawnContentBytes)) (docs/limits.md)")
        }
    }

    mutating func draw() throws(PDFScan.Refusal) {
        page.draws += 1
        if page.draws > budget.draws {
            throw PDFScan.Refusal("its pages draw more than \(budget.draws) XObjects, counting every repeat (a form drawn twice "
                                  + "draws what it draws twice); the limit is \(budget.draws) (docs/limits.md)")
        }
    }

    mutating func drawPixels(_ w: Int, _ h: Int) throws(PDFScan.Refusal) {
        guard w > 0, h > 0 else { return }
        let (px, o) = w.multipliedReportingOverflow(by: h)
        let (sum, o2) = page.drawnPixels.addingReportingOverflow(px)
        page.drawnPixels = sum
        if o || o2 || sum > budget.drawnPixels {
            throw PDFScan.Refusal("its pages draw more than \(budget.drawnPixels) image pixels, counting every repeat; "
                                  + "the limit is \(budget.drawnPixels) (docs/limits.md)")
        }
    }

    /// A form (or pattern, soft mask, glyph procedure, appearance) drawn from a content stream whose
    /// resources are `stack`, by the chain of forms `path`.
    mutating func form(_ k: Int, stack: [Level], path: [Int], resources: Level? = nil) throws(PDFScan.Refusal) {
        try draw()
        let o = objects[k]
        // poppler does not draw a form inside itself.
        if path.contains(o.num) { return }
        if path.count + 1 > budget.formDepth {
            throw PDFScan.Refusal("its Form XObjects nest more than \(budget.formDepth) deep (form \(o.num)); "
                                  + "the limit is \(budget.formDepth) (docs/limits.md)")
        }
        page.formDepth = max(page.formDepth, path.count + 1)
        guard let data = try decode(k) else { throw imageAsContent(o.num) }
        try read(data.count)
        let list: [Effect]
        if let known = effects[k] { list = known } else {
            list = try Self.effects(of: data)
            effects[k] = list
        }
        let own = resources ?? dicts(o.dict?["Resources"])
        try perform(list, stack: own.isEmpty ? stack : stack + [own], path: path + [o.num])
    }

    /// The values `name` has in the category (`XObject`, `Font` …) of the innermost level that has it.
    func lookup(_ stack: [Level], _ category: String, _ name: String) -> [PDFValue] {
        for level in stack.reversed() {
            let found = level.flatMap { dicts($0[category]) }.compactMap { $0[name] }
            if !found.isEmpty { return found }
        }
        return []
    }

    mutating func perform(_ list: [Effect], stack: [Level], path: [Int]) throws(PDFScan.Refusal) {
        for effect in list {
            switch effect {
            case .xobject(let name):
                let targets = lookup(stack, "XObject", name).flatMap { streams($0) }
                if targets.isEmpty { try draw() }
                for k in targets {
                    if isImage(objects[k]) {
                        try draw()
                        let (w, h) = imageSize(objects[k].dict ?? [:], short: false)
                        try drawPixels(w, h)
                    } else {
                        try form(k, stack: stack, path: path)
                    }
                }
            case .extGState(let name):
                for gs in lookup(stack, "ExtGState", name).flatMap({ dicts($0) }) {
                    for mask in dicts(gs["SMask"]) { for k in streams(mask["G"]) { try form(k, stack: stack, path: path) } }
                }
            case .pattern(let name):
                for k in lookup(stack, "Pattern", name).flatMap({ streams($0) }) { try form(k, stack: stack, path: path) }
            case .font(let name):
                for font in lookup(stack, "Font", name).flatMap({ dicts($0) }) where resolveOne(font["Subtype"])?.name == "Type3" {
                    let own = dicts(font["Resources"])
                    for procs in dicts(font["CharProcs"]) {
                        for v in procs.values { for k in streams(v) { try form(k, stack: stack, path: path, resources: own) } }
                    }
                }
            case .inlineImage(let w, let h):
                try checkImage(w, h, "inline image")
                try draw()
                try drawPixels(w, h)
            }
        }
    }

    /// What a content stream does that costs work: `Do`, `gs`, `scn`/`SCN` with a pattern, `Tf`,
    /// and inline images (`BI … ID … EI`, held to the image limits here).
    static func effects(of content: [UInt8]) throws(PDFScan.Refusal) -> [Effect] {
        var lex = PDFLexer(content)
        var operands: [PDFValue] = []
        var out: [Effect] = []
        while true {
            let t = lex.next()
            if t == .eof { break }
            guard case .keyword(let op) = t else {
                operands.append(try lex.value(t))
                if operands.count > 64 { operands.removeFirst(32) }
                continue
            }
            switch op {
            case "Do", "gs", "scn", "SCN", "Tf":
                let name = (op == "Tf" ? operands.dropLast().last : operands.last)?.name
                if let name {
                    out.append(op == "Do" ? .xobject(name) : op == "gs" ? .extGState(name) : op == "Tf" ? .font(name) : .pattern(name))
                }
            case "BI":
                var d: [String: PDFValue] = [:]
                while true {
                    let k = lex.next()
                    if k == .eof || k == .keyword("ID") { break }
                    guard case .name(let key) = k else { continue }
                    let v = lex.next()
                    if v == .eof || v == .keyword("ID") { break }
                    d[key] = try lex.value(v)
                }
                // The data: up to white space, `EI`, and white space (or the end).
                var k = lex.i + 1
                while k + 1 < content.count {
                    if content[k] == 0x45 && content[k + 1] == 0x49 && PDFLexer.isSpace(content[k - 1])
                        && (k + 2 == content.count || !PDFLexer.isRegular(content[k + 2])) { break }
                    k += 1
                }
                lex.i = min(content.count, k + 2)
                func int(_ keys: [String]) -> Int {
                    for key in keys {
                        if case .int(let n)? = d[key] { return n }
                        if case .real(let r)? = d[key] { return r.isFinite ? Int(max(-1e15, min(1e15, r.rounded(.up)))) : Int(1e15) }
                    }
                    return 0
                }
                let w = int(["W", "Width"]), h = int(["H", "Height"])
                out.append(.inlineImage(width: w, height: h))
            default: break
            }
            operands.removeAll(keepingCapacity: true)
        }
        return out
    }
}

extension PDFValue: Equatable {}
