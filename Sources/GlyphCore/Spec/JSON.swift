import Foundation

/// A parsed JSON value that remembers where it stood in its file (line and column),
/// so that errors and reports can point at the exact place.
public enum JSONValue: Sendable, Equatable {
    case object([(key: String, value: JSONNode)])
    case array([JSONNode])
    case string(String)
    case number(Double)
    case bool(Bool)
    case null

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case let (.object(a), .object(b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        case let (.array(a), .array(b)): return a == b
        case let (.string(a), .string(b)): return a == b
        case let (.number(a), .number(b)): return a == b
        case let (.bool(a), .bool(b)): return a == b
        case (.null, .null): return true
        default: return false
        }
    }
}

/// A JSON value with its position.
public struct JSONNode: Sendable, Equatable {
    public var value: JSONValue
    public var line: Int
    public var column: Int

    public static func == (lhs: JSONNode, rhs: JSONNode) -> Bool { lhs.value == rhs.value }

    public var typeName: String {
        switch value {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool: "true or false"
        case .null: "null"
        }
    }

    public subscript(key: String) -> JSONNode? {
        if case let .object(members) = value { return members.first { $0.key == key }?.value }
        return nil
    }

    public var string: String? { if case .string(let s) = value { s } else { nil } }
    public var number: Double? { if case .number(let n) = value { n } else { nil } }
    public var array: [JSONNode]? { if case .array(let a) = value { a } else { nil } }

    /// An object of numbers (`{"a": 1.5}`) as a dictionary; nil when it is not one.
    public var numberTable: [String: Double]? { table(\.number) }

    /// An object of numbers as audit numbers (a name given twice keeps its last number); nil when
    /// it is not one.
    public var auditNumbers: AuditNumbers? {
        guard case let .object(members) = value else { return nil }
        var pairs: [(String, Double)] = []
        pairs.reserveCapacity(members.count)
        for (k, v) in members {
            guard let n = v.number else { return nil }
            pairs.append((k, n))
        }
        return AuditNumbers(pairs: pairs)
    }

    /// An object of objects of strings (`{"a": {"b": "x"}}`); nil when it is not one.
    public var stringTables: [String: [String: String]]? { table { $0.table(\.string) } }

    /// An object whose every member `each` reads, as a dictionary; nil when it is not one.
    public func table<T>(_ each: (JSONNode) -> T?) -> [String: T]? {
        guard case let .object(members) = value else { return nil }
        var out: [String: T] = [:]
        out.reserveCapacity(members.count)
        for (k, v) in members {
            guard let t = each(v) else { return nil }
            out[k] = t
        }
        return out
    }
}

/// Malformed JSON, with the place it went wrong.
public struct JSONSyntaxError: Error, Sendable {
    public let message: String
    public let line: Int
    public let column: Int
}

/// A small strict JSON (RFC 8259) reader that keeps member order and source positions.
///
/// Linear in the input, and bounded: nesting stops at `Limits.jsonDepth` levels and a document at
/// `Limits.jsonValues` values (file sizes are checked by whoever reads the file).
public struct JSONReader {
    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var lineStart = 0
    private var values = 0

    public static func parse(_ data: Data) throws(JSONSyntaxError) -> JSONNode {
        var reader = JSONReader(bytes: [UInt8](data))
        if reader.bytes.starts(with: [0xEF, 0xBB, 0xBF]) { reader.index = 3 }
        reader.skipSpace()
        let node = try reader.parseValue(depth: 0)
        reader.skipSpace()
        if reader.index < reader.bytes.count { throw reader.fail("unexpected text after the JSON value") }
        return node
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private var column: Int { index - lineStart + 1 }

    private func fail(_ message: String) -> JSONSyntaxError {
        JSONSyntaxError(message: message, line: line, column: column)
    }

    private mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0D: index += 1
            case 0x0A: index += 1; line += 1; lineStart = index
            default: return
            }
        }
    }

    private mutating func parseValue(depth: Int) throws(JSONSyntaxError) -> JSONNode {
        guard depth < Limits.jsonDepth else {
            throw fail("nested more than \(Limits.jsonDepth) levels deep; the limit is \(Limits.jsonDepth) (docs/limits.md)")
        }
        guard index < bytes.count else { throw fail("the file ends where a value was expected") }
        values += 1
        guard values <= Limits.jsonValues else {
            throw fail("more than \(Limits.jsonValues) values; the limit is \(Limits.jsonValues) values in one file (docs/limits.md)")
        }
        let (l, c) = (line, column)
        let value: JSONValue
        switch bytes[index] {
        case UInt8(ascii: "{"): value = try parseObject(depth: depth)
        case UInt8(ascii: "["): value = try parseArray(depth: depth)
        case UInt8(ascii: "\""): value = .string(try parseString())
        case UInt8(ascii: "t"): try literal("true"); value = .bool(true)
        case UInt8(ascii: "f"): try literal("false"); value = .bool(false)
        case UInt8(ascii: "n"): try literal("null"); value = .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): value = .number(try parseNumber())
        default: throw fail("unexpected character '\(Character(Unicode.Scalar(bytes[index])))' where a value was expected")
        }
        return JSONNode(value: value, line: l, column: c)
    }

    private mutating func literal(_ word: String) throws(JSONSyntaxError) {
        let w = Array(word.utf8)
        guard index + w.count <= bytes.count, Array(bytes[index..<index + w.count]) == w else {
            throw fail("invalid literal (expected \(word))")
        }
        index += w.count
    }

    private mutating func parseObject(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        index += 1
        var members: [(key: String, value: JSONNode)] = []
        // Duplicate keys: a look along the members while there are few, then a set.
        var keys: Set<String>?
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
        while true {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw fail("expected a quoted key in the object")
            }
            let key = try parseString()
            guard !(keys?.contains(key) ?? members.contains { $0.key == key }) else {
                throw fail("duplicate key \"\(Self.shown(key))\"")
            }
            if keys != nil { keys!.insert(key) } else if members.count >= 16 { keys = Set(members.map(\.key) + [key]) }
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw fail("expected ':' after key \"\(Self.shown(key))\"") }
            index += 1
            skipSpace()
            members.append((key, try parseValue(depth: depth + 1)))
            skipSpace()
            guard index < bytes.count else { throw fail("the file ends inside an object") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
            throw fail("expected ',' or '}' in the object")
        }
    }

    private mutating func parseArray(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        index += 1
        var items: [JSONNode] = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
        while true {
            skipSpace()
            items.append(try parseValue(depth: depth + 1))
            skipSpace()
            guard index < bytes.count else { throw fail("the file ends inside an array") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
            throw fail("expected ',' or ']' in the array")
        }
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        index += 1
        // The usual string, without escapes: its bytes as they stand.
        let start = index
        while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\"), bytes[index] >= 0x20 {
            index += 1
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
            index += 1
            guard let s = String(validating: bytes[start..<index - 1], as: UTF8.self) else { throw fail("invalid UTF-8 in a string") }
            return s
        }
        var out = Array(bytes[start..<index])
        while true {
            guard index < bytes.count else { throw fail("the file ends inside a string") }
            let b = bytes[index]
            if b == UInt8(ascii: "\"") { index += 1; break }
            if b < 0x20 { throw fail("control character inside a string") }
            if b == UInt8(ascii: "\\") {
                index += 1
                guard index < bytes.count else { throw fail("the file ends inside a string") }
                let e = bytes[index]
                index += 1
                switch e {
                case UInt8(ascii: "\""): out.append(0x22)
                case UInt8(ascii: "\\"): out.append(0x5C)
                case UInt8(ascii: "/"): out.append(0x2F)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xDC00...0xDFFF).contains(scalar) { throw fail("invalid \\u escape: a low surrogate without a high one") }
                    if (0xD800...0xDBFF).contains(scalar) {
                        // A high surrogate must be followed by an escaped low surrogate (U+DC00–U+DFFF).
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                            throw fail("invalid \\u escape: a high surrogate without a low one")
                        }
                        index += 2
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw fail("invalid \\u escape: a high surrogate without a low one") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let u = Unicode.Scalar(scalar) else { throw fail("invalid \\u escape") }
                    out.append(contentsOf: Array(String(Character(u)).utf8))
                default: throw fail("invalid escape in a string")
                }
                continue
            }
            out.append(b)
            index += 1
        }
        guard let s = String(validating: out, as: UTF8.self) else { throw fail("invalid UTF-8 in a string") }
        return s
    }

    /// Exactly four hex digits (no sign: `\\u+041` is not an escape).
    private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw fail("invalid \\u escape (four hex digits expected)") }
        var v: UInt32 = 0
        for b in bytes[index..<index + 4] {
            let digit: UInt8
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = b - UInt8(ascii: "A") + 10
            default: throw fail("invalid \\u escape (four hex digits expected)")
            }
            v = v << 4 | UInt32(digit)
        }
        index += 4
        return v
    }

    /// A key as shown in a message: at most 60 characters.
    static func shown(_ key: String) -> String { key.count > 60 ? String(key.prefix(57)) + "…" : key }

    private mutating func parseNumber() throws(JSONSyntaxError) -> Double {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        func digits(_ r: inout JSONReader) -> Int {
            let s = r.index
            while r.index < r.bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(r.bytes[r.index]) { r.index += 1 }
            return r.index - s
        }
        let intStart = index
        let intDigits = digits(&self)
        guard intDigits > 0 else { throw fail("invalid number") }
        if intDigits > 1, bytes[intStart] == UInt8(ascii: "0") { throw fail("invalid number (a leading zero)") }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits(&self) > 0 else { throw fail("invalid number") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits(&self) > 0 else { throw fail("invalid number") }
        }
        if let v = bytes.withUnsafeBufferPointer({ Self.exactNumber(UnsafeBufferPointer(rebasing: $0[start..<index])) }) { return v }
        guard let v = Double(String(decoding: bytes[start..<index], as: UTF8.self)), v.isFinite else {
            throw fail("invalid number")
        }
        return v
    }

    /// Powers of ten a Double holds exactly.
    private static let exactPowers: [Double] = (0...22).map { k in (0..<k).reduce(1.0) { p, _ in p * 10 } }

    /// The value of a number of valid JSON syntax without building its text, when it can be
    /// computed exactly (Clinger's fast path): its digits, without the point, form an integer of at
    /// most 2^53 and its power of ten lies within ±22, so that one multiplication or division of
    /// two exact Doubles rounds it correctly (as `Double(String)` does). Nil otherwise.
    public static func exactNumber(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        var i = text.startIndex
        let negative = text[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        var mantissa: UInt64 = 0
        var digits = 0, exponent = 0
        var fraction = false
        while i < text.endIndex {
            let b = text[i]
            if b == UInt8(ascii: ".") { fraction = true; i += 1; continue }
            guard b >= UInt8(ascii: "0"), b <= UInt8(ascii: "9") else { break }
            // Leading zeros count for nothing; 19 digits still fit a UInt64.
            if mantissa != 0 || b != UInt8(ascii: "0") { digits += 1 }
            if digits > 19 { return nil }
            mantissa = mantissa * 10 + UInt64(b - UInt8(ascii: "0"))
            if fraction { exponent -= 1 }
            i += 1
        }
        if i < text.endIndex {
            // An exponent: e or E, an optional sign, digits.
            i += 1
            var sign = 1
            if text[i] == UInt8(ascii: "-") { sign = -1; i += 1 } else if text[i] == UInt8(ascii: "+") { i += 1 }
            var e = 0
            while i < text.endIndex {
                e = e * 10 + Int(text[i] - UInt8(ascii: "0"))
                if e > 1_000 { return nil }
                i += 1
            }
            exponent += sign * e
        }
        guard mantissa <= 1 << 53, abs(exponent) <= 22 else { return nil }
        let m = Double(mantissa)
        let v = exponent >= 0 ? m * exactPowers[exponent] : m / exactPowers[-exponent]
        return negative ? -v : v
    }
}
