import Foundation
import GlyphAudit
import GlyphCore

/// Decodes a `report.json` without holding a parsed tree of the whole file. Foundation's
/// `JSONDecoder` maps the whole input before it decodes: a 250 MB report (padded with an unknown key
/// of 70 M small values) took 3.7 GB. Here one strict pass over the bytes (no allocation per value)
/// checks that the file is JSON and finds the top-level keys and the elements of the long arrays
/// (`variants`, `findings`, `snapshots.results`); a skeleton of the other known keys is decoded
/// first, then each element on its own, so at most one element's tree is alive at a time. Values
/// of keys a report does not have are checked to be JSON and skipped (as `JSONDecoder` ignores them).
enum ReportDecoding {
    /// The bytes are not JSON (strict RFC 8259, which is all the tool writes), or not a JSON object.
    struct NotJSON: Error {
        var offset = 0
        var notObject = false
        var message: String { notObject ? "the file is JSON but not an object" : "not valid JSON (at byte offset \(offset))" }
    }

    /// A piece decoded at once (the report's other keys together, or one element) is past
    /// `Limits.jsonFileBytes`: its tree would cost about 15 times that.
    struct TooLarge: Error {
        var keyPath: String
        var bytes: Int
    }

    /// The keys of `RunReport` (and of `SnapshotSection`) kept in the skeleton.
    static let reportKeys: Set<String> = ["schema", "tool", "shard", "failOn", "selected", "filter", "presets", "rules", "inputs",
                                          "snapshotGroups", "timings"]
    static let snapshotKeys: Set<String> = ["folder", "candidates", "manifest"]

    /// Throws `NotJSON` when the walk finds the bytes are not a JSON object; a `DecodingError` (its
    /// coding path from the report's root) when a value is not what the report needs.
    static func decode(_ data: Data) throws -> RunReport {
        var skeleton = Data("{".utf8)
        var variants: [Range<Int>]?, findings: [Range<Int>]?, results: [Range<Int>]?
        try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) throws in
            var w = Walker(bytes: raw)
            var first = true
            w.skipSpace()
            if w.peek != UInt8(ascii: "{") {
                _ = try w.value()
                w.skipSpace()
                throw w.i == raw.count ? NotJSON(notObject: true) : NotJSON(offset: w.i)
            }
            func keep(_ key: Range<Int>, _ value: Data) {
                if !first { skeleton.append(UInt8(ascii: ",")) }
                first = false
                skeleton.append(contentsOf: raw[key])
                skeleton.append(UInt8(ascii: ":"))
                skeleton.append(value)
            }
            try w.object { w, key, name in
                switch name {
                case "variants", "findings":
                    var elements: [Range<Int>] = []
                    let whole = try w.value(elements: &elements)
                    guard raw[whole.lowerBound] == UInt8(ascii: "[") else { keep(key, Data(raw[whole])); return }
                    if name == "variants" { variants = elements } else { findings = elements }
                    keep(key, Data("[]".utf8))
                case "snapshots":
                    w.skipSpace()
                    guard w.peek == UInt8(ascii: "{") else { keep(key, Data(raw[try w.value()])); return }
                    var inner = Data("{".utf8)
                    var innerFirst = true
                    try w.object { w, k, n in
                        var elements: [Range<Int>] = []
                        let value = n == "results" ? try w.value(elements: &elements) : try w.value()
                        guard n == "results" || snapshotKeys.contains(n) else { return }
                        if !innerFirst { inner.append(UInt8(ascii: ",")) }
                        innerFirst = false
                        inner.append(contentsOf: raw[k])
                        inner.append(UInt8(ascii: ":"))
                        if n == "results", raw[value.lowerBound] == UInt8(ascii: "[") {
                            results = elements
                            inner.append(contentsOf: Data("[]".utf8))
                        } else {
                            inner.append(contentsOf: raw[value])
                        }
                    }
                    inner.append(UInt8(ascii: "}"))
                    keep(key, inner)
                default:
                    let value = try w.value()
                    if reportKeys.contains(name) { keep(key, Data(raw[value])) }
                }
            }
            w.skipSpace()
            guard w.i == raw.count else { throw NotJSON(offset: w.i) }
        }
        skeleton.append(UInt8(ascii: "}"))
        if skeleton.count > Limits.jsonFileBytes { throw TooLarge(keyPath: "", bytes: skeleton.count) }
        var report = try JSONDecoder().decode(RunReport.self, from: skeleton)
        if let variants { report.variants = try elements(VariantRecord.self, variants, of: data, at: "variants") }
        if let findings { report.findings = try elements(Finding.self, findings, of: data, at: "findings") }
        if let results, report.snapshots != nil {
            report.snapshots!.results = try elements(SnapshotRecord.self, results, of: data, at: "snapshots.results")
        }
        return report
    }

    /// Each element decoded on its own; an error's coding path starts at the report's root.
    static func elements<T: Decodable>(_ type: T.Type, _ ranges: [Range<Int>], of data: Data, at key: String) throws -> [T] {
        var out: [T] = []
        out.reserveCapacity(ranges.count)
        let decoder = JSONDecoder()
        let base = data.startIndex
        for (i, r) in ranges.enumerated() {
            if r.count > Limits.jsonFileBytes { throw TooLarge(keyPath: "\(key)[\(i)]", bytes: r.count) }
            do { out.append(try decoder.decode(T.self, from: data[(base + r.lowerBound)..<(base + r.upperBound)])) } catch let error as DecodingError {
                throw rooted(error, [Key(key), Key(index: i)])
            }
        }
        return out
    }

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int?
        init(_ s: String) { stringValue = s }
        init(index: Int) { stringValue = "\(index)"; intValue = index }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { self.init(index: intValue) }
    }

    static func rooted(_ error: DecodingError, _ prefix: [any CodingKey]) -> DecodingError {
        func c(_ x: DecodingError.Context) -> DecodingError.Context {
            DecodingError.Context(codingPath: prefix + x.codingPath, debugDescription: x.debugDescription, underlyingError: x.underlyingError)
        }
        switch error {
        case .typeMismatch(let t, let x): return .typeMismatch(t, c(x))
        case .valueNotFound(let t, let x): return .valueNotFound(t, c(x))
        case .keyNotFound(let k, let x): return .keyNotFound(k, c(x))
        case .dataCorrupted(let x): return .dataCorrupted(c(x))
        @unknown default: return error
        }
    }

    /// A strict JSON walk (RFC 8259) over bytes, allocating nothing per value. Nesting is bounded by
    /// the caller (`nestingPast` runs first).
    struct Walker {
        let bytes: UnsafeRawBufferPointer
        var i = 0

        var peek: UInt8? { i < bytes.count ? bytes[i] : nil }

        mutating func skipSpace() {
            while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
        }

        mutating func expect(_ c: UInt8) throws(NotJSON) {
            skipSpace()
            guard peek == c else { throw NotJSON(offset: i) }
            i += 1
        }

        /// An object; `body` is called for each member with the key's range (quotes included) and
        /// its text, and must consume the value.
        mutating func object(_ body: (inout Walker, Range<Int>, String) throws -> Void) throws {
            try expect(UInt8(ascii: "{"))
            skipSpace()
            if peek == UInt8(ascii: "}") { i += 1; return }
            while true {
                skipSpace()
                let key = try string()
                let inside = bytes[(key.lowerBound + 1)..<(key.upperBound - 1)]
                let name = inside.contains(UInt8(ascii: "\\"))
                    ? ((try? JSONDecoder().decode(String.self, from: Data(bytes[key]))) ?? "")
                    : String(decoding: inside, as: UTF8.self)
                try expect(UInt8(ascii: ":"))
                try body(&self, key, name)
                skipSpace()
                guard let c = peek else { throw NotJSON(offset: i) }
                i += 1
                if c == UInt8(ascii: "}") { return }
                guard c == UInt8(ascii: ",") else { throw NotJSON(offset: i - 1) }
            }
        }

        mutating func value() throws(NotJSON) -> Range<Int> {
            var none: [Range<Int>]? = nil
            return try value(collect: &none)
        }

        /// A value; when it is an array, the ranges of its elements are collected in `elements`.
        mutating func value(elements: inout [Range<Int>]) throws(NotJSON) -> Range<Int> {
            var some: [Range<Int>]? = []
            let r = try value(collect: &some)
            elements = some ?? []
            return r
        }

        private mutating func value(collect: inout [Range<Int>]?) throws(NotJSON) -> Range<Int> {
            skipSpace()
            let start = i
            guard let c = peek else { throw NotJSON(offset: i) }
            switch c {
            case UInt8(ascii: "\""): return try string()
            case UInt8(ascii: "{"):
                i += 1
                skipSpace()
                if peek == UInt8(ascii: "}") { i += 1; return start..<i }
                while true {
                    skipSpace()
                    _ = try string()
                    try expect(UInt8(ascii: ":"))
                    _ = try value()
                    skipSpace()
                    guard let d = peek else { throw NotJSON(offset: i) }
                    i += 1
                    if d == UInt8(ascii: "}") { return start..<i }
                    guard d == UInt8(ascii: ",") else { throw NotJSON(offset: i - 1) }
                }
            case UInt8(ascii: "["):
                i += 1
                skipSpace()
                if peek == UInt8(ascii: "]") { i += 1; return start..<i }
                while true {
                    let element = try value()
                    collect?.append(element)
                    skipSpace()
                    guard let d = peek else { throw NotJSON(offset: i) }
                    i += 1
                    if d == UInt8(ascii: "]") { return start..<i }
                    guard d == UInt8(ascii: ",") else { throw NotJSON(offset: i - 1) }
                }
            case UInt8(ascii: "t"): try literal("true")
            case UInt8(ascii: "f"): try literal("false")
            case UInt8(ascii: "n"): try literal("null")
            default: try number()
            }
            return start..<i
        }

        private mutating func literal(_ word: StaticString) throws(NotJSON) {
            let n = word.utf8CodeUnitCount
            guard i + n <= bytes.count else { throw NotJSON(offset: i) }
            for k in 0..<n where bytes[i + k] != word.utf8Start[k] { throw NotJSON(offset: i) }
            i += n
        }

        private func digit(_ at: Int) -> Bool { at < bytes.count && bytes[at] >= 0x30 && bytes[at] <= 0x39 }

        private mutating func number() throws(NotJSON) {
            if peek == UInt8(ascii: "-") { i += 1 }
            guard digit(i) else { throw NotJSON(offset: i) }
            if bytes[i] == 0x30 { i += 1 } else { while digit(i) { i += 1 } }
            if peek == UInt8(ascii: ".") {
                i += 1
                guard digit(i) else { throw NotJSON(offset: i) }
                while digit(i) { i += 1 }
            }
            if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
                i += 1
                if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { i += 1 }
                guard digit(i) else { throw NotJSON(offset: i) }
                while digit(i) { i += 1 }
            }
        }

        /// A string, its range with the quotes; control characters and bad escapes are not JSON
        /// (UTF-8 inside is checked by `JSONDecoder` for the strings decoded; skipped ones are bytes).
        mutating func string() throws(NotJSON) -> Range<Int> {
            let start = i
            guard peek == UInt8(ascii: "\"") else { throw NotJSON(offset: i) }
            i += 1
            while i < bytes.count {
                let c = bytes[i]
                if c == UInt8(ascii: "\"") { i += 1; return start..<i }
                if c < 0x20 { throw NotJSON(offset: i) }
                if c == UInt8(ascii: "\\") {
                    i += 1
                    guard let e = peek else { throw NotJSON(offset: i) }
                    switch e {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                         UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"): i += 1
                    case UInt8(ascii: "u"):
                        guard i + 4 < bytes.count else { throw NotJSON(offset: i) }
                        for k in 1...4 where !(bytes[i + k].isHexDigit) { throw NotJSON(offset: i) }
                        i += 5
                    default: throw NotJSON(offset: i)
                    }
                } else {
                    i += 1
                }
            }
            throw NotJSON(offset: i)
        }
    }
}

private extension UInt8 {
    var isHexDigit: Bool { (0x30...0x39).contains(self) || (0x41...0x46).contains(self) || (0x61...0x66).contains(self) }
}
