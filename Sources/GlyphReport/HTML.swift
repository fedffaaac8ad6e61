import Foundation
import GlyphCore

/// A piece of HTML. The one way text reaches the report's page:
///
/// - the literal parts of `"<p class=\"x\">\(value)</p>"` are markup, written by us;
/// - every `String` (and number, and enum's raw value) interpolated into it is escaped;
/// - only another `HTML` value is inserted as it is.
///
/// So a value from a spec, a finding or a file name cannot reach the page unescaped: it would have
/// to be an `HTML` value, and the only ways to make one are a literal in this module's code and
/// `HTML(trusted:)`, used for the report's own style sheet and script.
struct HTML: ExpressibleByStringInterpolation, Sendable, Equatable {
    private(set) var text: String

    init(stringLiteral value: String) { text = value }

    init(stringInterpolation: Interpolation) { text = stringInterpolation.text }

    /// Markup the report writes itself (its style sheet and script): inserted unescaped.
    init(trusted markup: String) { text = markup }

    static let empty = HTML(trusted: "")

    static func + (a: HTML, b: HTML) -> HTML { HTML(trusted: a.text + b.text) }

    /// Joins pieces with a separator (markup itself).
    static func joined(_ parts: [HTML], separator: HTML = .empty) -> HTML {
        HTML(trusted: parts.map(\.text).joined(separator: separator.text))
    }

    struct Interpolation: StringInterpolationProtocol {
        var text = ""

        init(literalCapacity: Int, interpolationCount: Int) { text.reserveCapacity(literalCapacity * 2) }

        mutating func appendLiteral(_ literal: String) { text += literal }

        /// Text: escaped.
        mutating func appendInterpolation(_ value: String) { text += HTML.escape(value) }

        mutating func appendInterpolation<T: BinaryInteger>(_ value: T) { text += String(value) }

        mutating func appendInterpolation<T: RawRepresentable>(_ value: T) where T.RawValue == String {
            text += HTML.escape(value.rawValue)
        }

        /// A variant id: its text, escaped.
        mutating func appendInterpolation(_ id: VariantID) { text += HTML.escape(id.description) }

        /// Markup: as it is.
        mutating func appendInterpolation(_ html: HTML) { text += html.text }
    }

    /// `&`, `<`, `>` and `"` as entities: safe in text and in double-quoted attribute values.
    static func escape(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for ch in s {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(ch)
            }
        }
        return out
    }
}

/// Builds the page piece by piece.
struct HTMLBuilder {
    private(set) var text = ""

    mutating func add(_ html: HTML) { text += html.text }

    mutating func card(_ title: String, _ value: String, _ note: String, tone: String = "") {
        add("<li class=\"card \(tone)\"><span class=\"value\">\(value)</span> <span class=\"title\">\(title)</span><span class=\"note\">\(note)</span></li>\n")
    }

    mutating func select(_ key: String, _ label: String, _ options: [String]) {
        add("<label>\(label) <select data-filter=\"\(key)\"><option value=\"\">All</option>")
        for o in options { add("<option>\(o)</option>") }
        add("</select></label>\n")
    }

    /// A filter whose options show a label other than their value (`boldText`: "Bold Text").
    mutating func select(_ key: String, _ label: String, _ options: [(value: String, label: String)]) {
        add("<label>\(label) <select data-filter=\"\(key)\"><option value=\"\">All</option>")
        for o in options { add("<option value=\"\(o.value)\">\(o.label)</option>") }
        add("</select></label>\n")
    }
}
