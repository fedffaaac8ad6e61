import Foundation
import GlyphColor

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
                throw error(Self.join(path, key), value,
                            "unknown key \"\(key)\"; valid keys here: \(allowed.filter { !$0.hasPrefix("$") || $0 == "$schema" }.joined(separator: ", "))")
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
            throw error(path, node, "unknown value \"\(s)\"; expected one of: \(E.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return v
    }

    /// Follows a `{token}` alias if the node is one; returns the final node and its `$type`.
    /// With `expecting`, a token whose `$type` is not one of those is an error naming the token file,
    /// the token's path and line, and this key (`what` says what the key takes).
    func dereference(_ node: JSONNode, _ path: String, expecting types: [String]? = nil,
                     what: String = "") throws(InputError) -> (node: JSONNode, type: String?, alias: String?) {
        guard case let .string(s) = node.value, let alias = TokenSet.aliasPath(s) else { return (node, nil, nil) }
        guard let tokens else {
            throw error(path, node, "token alias \(s) used, but the spec loads no token file (add \"tokens\")")
        }
        let resolved = try tokens.resolve(alias, origin: error(path, node, ""))
        if let types, let type = resolved.type, !types.contains(type) {
            let via = resolved.path == alias ? "" : " (via \(s))"
            throw error(path, node, "token \(resolved.path) in \(tokens.file):\(resolved.node.line)\(via) has $type \"\(type)\", "
                        + "but this key takes \(what) (a token of $type \(types.map { "\"\($0)\"" }.joined(separator: " or ")))")
        }
        return (resolved.node, resolved.type, s)
    }

    /// A length in points: a number, `"20px"`/`"20pt"`, a DTCG dimension `{value, unit}`, or an alias to one
    /// (of `$type` dimension or number, or untyped).
    func length(_ node: JSONNode, _ path: String, min: Double = 0, max: Double = 10_000) throws(InputError) -> Double {
        let (n, _, alias) = try dereference(node, path, expecting: ["dimension", "number"], what: "a length")
        let from = alias.map { " (from \($0))" } ?? ""
        let value: Double
        switch n.value {
        case let .number(v): value = v
        case let .string(s):
            guard let v = Self.parseDimension(s) else {
                throw error(path, node, "expected a length (a number, \"20px\" or {\"value\", \"unit\"}), found \"\(s)\"\(from)")
            }
            value = v
        case let .object(members):
            guard let v = members.first(where: { $0.key == "value" })?.value, case let .number(num) = v.value,
                  let u = members.first(where: { $0.key == "unit" })?.value, case let .string(unit) = u.value,
                  let factor = Self.unitFactor(unit) else {
                throw error(path, node, "expected a dimension {\"value\": number, \"unit\": \"px\" or \"rem\"}\(from)")
            }
            value = num * factor
        default:
            throw error(path, node, "expected a length, found \(n.typeName)\(from)")
        }
        guard value.isFinite, value >= min, value <= max else {
            throw error(path, node, "length \(value) is out of range (\(min)…\(max) pt)\(from)")
        }
        return value
    }

    static func unitFactor(_ unit: String) -> Double? {
        switch unit {
        case "px", "pt": 1
        case "rem": 16
        default: nil
        }
    }

    static func parseDimension(_ s: String) -> Double? {
        let t = s.trimmingCharacters(in: .whitespaces)
        for unit in ["px", "pt", "rem"] where t.hasSuffix(unit) {
            guard let v = Double(t.dropLast(unit.count)), let f = unitFactor(unit) else { return nil }
            return v * f
        }
        return nil
    }

    /// A colour: `#RRGGBB`, `#RRGGBBAA`, a DTCG 2025.10 colour object, or an alias to one (of `$type`
    /// color, or untyped).
    func color(_ node: JSONNode, _ path: String) throws(InputError) -> AuthoredColor {
        let (n, _, alias) = try dereference(node, path, expecting: ["color"], what: "a colour")
        let from = alias.map { " (from \($0))" } ?? ""
        switch n.value {
        case let .string(s):
            guard let c = RGBA(hex: s) else {
                throw error(path, node, "expected a colour \"#RRGGBB\" or \"#RRGGBBAA\" or a token alias, found \"\(s)\"\(from)")
            }
            return AuthoredColor(rgba: c, token: alias, line: node.line)
        case let .object(members):
            func member(_ k: String) -> JSONNode? { members.first { $0.key == k }?.value }
            if let space = member("colorSpace") {
                guard case let .string(cs) = space.value, cs == "srgb" else {
                    throw error(path, node, "only the \"srgb\" colour space is supported\(from)")
                }
                guard let comps = member("components"), case let .array(items) = comps.value, items.count == 3 else {
                    throw error(path, node, "a colour needs \"components\": [r, g, b] in 0…1\(from)")
                }
                var c: [Double] = []
                for item in items {
                    guard case let .number(v) = item.value, (0...1).contains(v) else {
                        throw error(path, node, "colour components must be numbers in 0…1\(from)")
                    }
                    c.append(v)
                }
                var alpha = 1.0
                if let a = member("alpha") {
                    guard case let .number(v) = a.value, (0...1).contains(v) else {
                        throw error(path, node, "colour alpha must be a number in 0…1\(from)")
                    }
                    alpha = v
                }
                return AuthoredColor(rgba: RGBA(r: c[0], g: c[1], b: c[2], a: alpha), token: alias, line: node.line)
            }
            throw error(path, node, "expected a colour object with \"colorSpace\" and \"components\"\(from)")
        default:
            throw error(path, node, "expected a colour, found \(n.typeName)\(from)")
        }
    }

    func text(_ node: JSONNode, _ path: String) throws(InputError) -> String {
        let (n, _, _) = try dereference(node, path)
        return try string(n, path)
    }
}
