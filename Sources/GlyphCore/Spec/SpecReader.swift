import Foundation

/// Typed access to a spec's JSON with key paths in every error, and token aliases resolved.
package struct SpecReader {
    package let file: String
    var tokens: TokenSet?
    var lines: [String: Int] = [:]
    /// Warnings found while reading (see `Spec.warnings`).
    package var warnings: [InputError] = []

    package init(file: String, tokens: TokenSet? = nil) {
        self.file = file
        self.tokens = tokens
    }

    package func error(_ path: String, _ node: JSONNode?, _ message: String) -> InputError {
        InputError(file: file, keyPath: path, line: node?.line, column: node?.column, message: message)
    }

    /// Records a warning at a key (printed by the tool; the spec still loads).
    package mutating func warn(_ path: String, _ node: JSONNode?, _ message: String) {
        let w = error(path, node, message)
        if !warnings.contains(w) { warnings.append(w) }
    }

    /// The message for a word that is not one of `valid`: `unknown key "markImage"; did you mean
    /// "mark"? valid keys here: …` (the suggestion only when one is close, `Suggest.nearest`). Every
    /// unknown key and enumerated value of a spec, token file or config is worded by it.
    package static func unknown(_ what: String, _ word: String, valid: [String], listed: String = "expected one of:") -> String {
        let list = "\(listed) \(valid.joined(separator: ", "))"
        if let near = Suggest.nearest(word, in: valid) { return "unknown \(what) \"\(word)\"; did you mean \"\(near)\"? \(list)" }
        return "unknown \(what) \"\(word)\"; \(list)"
    }

    static func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// A user-chosen name that becomes part of file and folder names (the spec's name, a size, a
    /// theme): letters, digits, '_' (and '-' with `dash`), at most `Limits.nameLength` bytes in UTF-8,
    /// so every file the tool writes for it can be created. Checked at the spec key, before anything
    /// is rendered or written.
    func fileName(_ name: String, _ path: String, _ node: JSONNode?, what: String, dash: Bool = true) throws(InputError) {
        let shown = Self.shortened(path)
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || (dash && $0 == "-") }) else {
            throw error(shown, node, "\(what) is letters, digits\(dash ? ", '-'" : "") and '_' (it is used in file names)")
        }
        guard name.utf8.count <= Limits.nameLength else {
            throw error(shown, node, "\(what) is \(name.utf8.count) bytes long; the limit is \(Limits.nameLength) "
                        + "(it is used in file names; docs/limits.md)")
        }
    }

    /// A key path as shown in a message: each key at most 40 characters.
    static func shortened(_ path: String) -> String {
        path.split(separator: ".", omittingEmptySubsequences: false)
            .map { $0.count > 40 ? String($0.prefix(37)) + "…" : String($0) }.joined(separator: ".")
    }

    /// The members of an object, refusing keys not in `allowed` (and listing the valid ones).
    package mutating func object(_ node: JSONNode, _ path: String, allowed: [String], required: [String] = []) throws(InputError) -> [String: JSONNode] {
        guard case let .object(members) = node.value else {
            throw error(path, node, "expected an object, found \(node.typeName)")
        }
        var out: [String: JSONNode] = [:]
        for (key, value) in members {
            guard allowed.contains(key) else {
                throw error(Self.join(path, key), value, Self.unknown("key", key, valid: allowed.filter { !$0.hasPrefix("$") || $0 == "$schema" },
                                                                      listed: "valid keys here:"))
            }
            lines[Self.join(path, key)] = value.line
            out[key] = value
        }
        for key in required where out[key] == nil {
            throw error(path, node, "missing required key \"\(key)\"")
        }
        return out
    }

    /// A map of user-chosen names to values (e.g. sizes, themes), in file order.
    package mutating func map(_ node: JSONNode, _ path: String) throws(InputError) -> [(String, JSONNode)] {
        guard case let .object(members) = node.value else {
            throw error(path, node, "expected an object, found \(node.typeName)")
        }
        for (key, value) in members { lines[Self.join(path, key)] = value.line }
        return members.map { ($0.key, $0.value) }
    }

    package func array(_ node: JSONNode, _ path: String) throws(InputError) -> [JSONNode] {
        guard case let .array(items) = node.value else {
            throw error(path, node, "expected an array, found \(node.typeName)")
        }
        return items
    }

    package func string(_ node: JSONNode, _ path: String) throws(InputError) -> String {
        guard case let .string(s) = node.value else {
            throw error(path, node, "expected a string, found \(node.typeName)")
        }
        return s
    }

    func bool(_ node: JSONNode, _ path: String) throws(InputError) -> Bool {
        guard case let .bool(b) = node.value else {
            throw error(path, node, "expected true or false, found \(node.typeName)")
        }
        return b
    }

    package func choice<E: RawRepresentable & CaseIterable>(_ node: JSONNode, _ path: String, _: E.Type) throws(InputError) -> E where E.RawValue == String {
        let s = try string(node, path)
        guard let v = E(rawValue: s) else {
            throw error(path, node, Self.unknown("value", s, valid: E.allCases.map(\.rawValue)))
        }
        return v
    }

    /// The token file, or an error at the key that used a token alias without one.
    func tokenSet(_ alias: String, _ path: String, _ node: JSONNode) throws(InputError) -> TokenSet {
        guard let tokens else {
            throw error(path, node, "token alias \(alias) used, but the spec loads no token file (add \"tokens\")")
        }
        return tokens
    }

    /// A length in points: a number, `"20px"`/`"20pt"`/`"1.25rem"`, a DTCG dimension `{value, unit}`, or
    /// an alias to a token of `$type` dimension or number (or untyped; Tokens Studio: sizing,
    /// spacing, borderRadius, borderWidth).
    mutating func length(_ node: JSONNode, _ path: String, min: Double = 0, max: Double = 10_000) throws(InputError) -> Double {
        var from = ""
        let value: Double
        if case let .string(s) = node.value, let alias = TokenSet.aliasPath(s) {
            let r = try tokenSet(s, path, node).length(alias, origin: error(path, node, ""))
            for w in r.warnings { warn(path, node, w) }
            value = r.value
            from = " (from \(s))"
        } else {
            switch node.value {
            case let .number(v): value = v
            case let .string(s):
                guard let v = ValueReader.dimensionString(s) else {
                    throw error(path, node, "expected a length (a number, \"20px\" or {\"value\", \"unit\"}), found \"\(s)\"")
                }
                value = v
            case .object:
                do { value = try ValueReader.dimension(node, tokensStudio: false, allowPoints: true) } catch { throw self.error(path, node, error.message) }
            default:
                throw error(path, node, "expected a length, found \(node.typeName)")
            }
        }
        guard value.isFinite, value >= min, value <= max else {
            throw error(path, node, "length \(value) is out of range (\(min)…\(max) pt)\(from)")
        }
        return value
    }

    /// A colour: `"#RRGGBB"`, `"#RRGGBBAA"`, `"#RGB"`, `"#RGBA"`, a CSS `rgb()`/`hsl()` string, a DTCG
    /// 2025.10 colour object (any colour space of the colour module), or an alias to a token of
    /// `$type` color (or untyped). The colour is what is drawn: 8 bits per channel, gamut-mapped into
    /// sRGB when it lies outside (with a note saying so).
    mutating func color(_ node: JSONNode, _ path: String) throws(InputError) -> AuthoredColor {
        if case let .string(s) = node.value, let alias = TokenSet.aliasPath(s) {
            let set = try tokenSet(s, path, node)
            let r = try set.color(alias, origin: error(path, node, ""))
            for w in r.warnings { warn(path, node, w) }
            var c = AuthoredColor(rgba: ValueReader.eightBit(r.value), token: s, line: node.line, tokenLine: r.line, note: r.note,
                                  keyPath: path, aliasChain: r.chain, aliasLines: r.chainLines)
            // A resolver's tokens come from several files: the one that holds the token the spec names.
            if !set.sourceFiles.isEmpty, let first = r.chain.first { c.tokenFile = set.file(of: first) }
            return c
        }
        do {
            let v = try ValueReader.color(node, what: "the colour")
            for w in v.warnings { warn(path, node, w) }
            return AuthoredColor(rgba: v.rgba, token: nil, line: node.line, note: v.note, keyPath: path)
        } catch {
            throw self.error(path, node, error.message)
        }
    }

    func text(_ node: JSONNode, _ path: String) throws(InputError) -> String {
        guard case let .string(s) = node.value, let alias = TokenSet.aliasPath(s) else { return try string(node, path) }
        let resolved = try tokenSet(s, path, node).resolve(alias, origin: error(path, node, ""))
        return try string(resolved.node, path)
    }
}
