import Foundation

/// A JSON value written byte for byte the way Xcode writes an asset catalog's `Contents.json`, so a
/// catalog that Xcode opens and saves again does not change, and a re-export changes no byte.
///
/// Xcode's layout (Xcode 12 and later), which `formatted()` reproduces:
/// - two spaces per level; `"key" : value` with a space before and after the colon;
/// - the keys of every object sorted (by Unicode scalar, which for Xcode's ASCII keys is byte order);
/// - every member of an object and every element of an array on its own line, an array of objects as
///   `[` on the key's line, then `{`…`},` one per element at the next level, then `]`;
/// - an empty array or object as its brackets around one empty line (`[\n\n  ]`);
/// - a newline after the closing brace of the document.
///
/// Foundation's `JSONSerialization` (`.prettyPrinted, .sortedKeys`) comes close but differs: it escapes
/// `/` as `\/`, ends without a newline, and its layout is Foundation's to change between versions and
/// platforms. The catalog's bytes must not move, so this writer is our own.
public indirect enum XcodeJSON: Sendable, Equatable {
    case string(String)
    case int(Int)
    case bool(Bool)
    case array([XcodeJSON])
    case object([String: XcodeJSON])

    /// The document as Xcode writes it, ending in a newline.
    public func formatted() -> String {
        var out = ""
        write(to: &out, indent: 0)
        out += "\n"
        return out
    }

    /// The document's bytes (UTF-8).
    public var data: Data { Data(formatted().utf8) }

    private func write(to out: inout String, indent: Int) {
        switch self {
        case let .string(s): out += Self.quoted(s)
        case let .int(n): out += String(n)
        case let .bool(b): out += b ? "true" : "false"
        case let .array(items):
            Self.container(open: "[", close: "]", count: items.count, indent: indent, into: &out) { i, out in
                items[i].write(to: &out, indent: indent + 1)
            }
        case let .object(members):
            let keys = members.keys.sorted { $0.unicodeScalars.lexicographicallyPrecedes($1.unicodeScalars) }
            Self.container(open: "{", close: "}", count: keys.count, indent: indent, into: &out) { i, out in
                out += Self.quoted(keys[i]) + " : "
                members[keys[i]]!.write(to: &out, indent: indent + 1)
            }
        }
    }

    private static func container(open: String, close: String, count: Int, indent: Int, into out: inout String,
                                  element: (Int, inout String) -> Void) {
        let inner = String(repeating: "  ", count: indent + 1)
        let outer = String(repeating: "  ", count: indent)
        out += open + "\n"
        if count == 0 { out += "\n" }
        for i in 0..<count {
            out += inner
            element(i, &out)
            out += i == count - 1 ? "\n" : ",\n"
        }
        out += outer + close
    }

    /// A JSON string literal: quote, backslash and control characters escaped; everything else,
    /// `/` and non-ASCII included, as is (UTF-8).
    static func quoted(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

extension XcodeJSON: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: XcodeJSON...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, XcodeJSON)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
