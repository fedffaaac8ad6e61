import Foundation
import GlyphColor

/// A W3C Design Tokens (DTCG 2025.10) file: groups, `$value`, `$type` inherited from groups,
/// aliases `{group.token}`, colours as the 2025.10 object or a legacy `"#hex"` string,
/// dimensions as `{value, unit}` or a `"20px"` string (px = pt).
public struct TokenSet: Sendable {
    public struct Token: Sendable {
        public var path: String
        public var type: String?
        public var value: JSONNode
    }

    public let file: String
    public private(set) var tokens: [String: Token] = [:]

    public init(file: String, root: JSONNode) throws(InputError) {
        self.file = file
        try collect(root, path: [], inheritedType: nil)
    }

    public init(contentsOf url: URL) throws(InputError) {
        let root = try readJSON(url)
        try self.init(file: url.path, root: root)
    }

    private mutating func collect(_ node: JSONNode, path: [String], inheritedType: String?) throws(InputError) {
        guard case let .object(members) = node.value else {
            throw InputError(file: file, keyPath: path.joined(separator: "."), line: node.line,
                             message: "expected a token or a group (an object), found \(node.typeName)")
        }
        var type = inheritedType
        if let t = node["$type"] {
            guard case let .string(s) = t.value else {
                throw InputError(file: file, keyPath: (path + ["$type"]).joined(separator: "."), line: t.line,
                                 message: "expected a string, found \(t.typeName)")
            }
            type = s
        }
        if let value = node["$value"] {
            let name = path.joined(separator: ".")
            tokens[name] = Token(path: name, type: type, value: value)
            return
        }
        for (key, child) in members where !key.hasPrefix("$") {
            if key.contains(".") || key.contains("{") || key.contains("}") {
                throw InputError(file: file, keyPath: (path + [key]).joined(separator: "."), line: child.line,
                                 message: "token and group names may not contain '.', '{' or '}'")
            }
            try collect(child, path: path + [key], inheritedType: type)
        }
    }

    /// `{a.b}` → `a.b`, or nil when the string is not an alias.
    public static func aliasPath(_ s: String) -> String? {
        guard s.count > 2, s.hasPrefix("{"), s.hasSuffix("}") else { return nil }
        return String(s.dropFirst().dropLast())
    }

    /// "token alias cycle: {a} → {b} → {a}"; a long cycle shows its first three and last two steps
    /// and how many it has, so the message stays one short line.
    static func cycleMessage(_ cycle: some Collection<String>) -> String {
        let names = cycle.map { "{\($0)}" }
        if names.count <= 6 { return "token alias cycle: " + names.joined(separator: " → ") }
        return "token alias cycle of \(names.count - 1) tokens: " + names.prefix(3).joined(separator: " → ") + " → … → "
            + names.suffix(2).joined(separator: " → ")
    }

    /// Follows aliases to a final value. `origin` names the place that asked, for errors.
    /// Returns the final token's value, its path, and its `$type` (its own or inherited; when it has
    /// none, the first one declared along the alias chain).
    public func resolve(_ path: String, origin: InputError) throws(InputError) -> (node: JSONNode, type: String?, path: String) {
        var seen: [String] = []
        var visited = Set<String>()
        var current = path
        var declared: String?
        while true {
            if visited.contains(current) {
                var e = origin
                e.message = Self.cycleMessage(seen.suffix(from: seen.firstIndex(of: current)!) + [current])
                throw e
            }
            seen.append(current)
            visited.insert(current)
            guard let token = tokens[current] else {
                var e = origin
                e.message = "unresolved token alias {\(current)}" + (seen.count > 1 ? " (via {\(path)})" : "") + " in \(file)"
                throw e
            }
            if declared == nil { declared = token.type }
            if case let .string(s) = token.value.value, let next = Self.aliasPath(s) {
                current = next
                continue
            }
            return (token.value, token.type ?? declared, current)
        }
    }
}

/// Reads and parses a JSON file (at most `Limits.jsonFileBytes`, a regular file); errors name the
/// file and the line and column.
public func readJSON(_ url: URL) throws(InputError) -> JSONNode {
    let data: Data
    do { data = try InputFile.read(url.path, limit: Limits.jsonFileBytes, what: "JSON file") } catch {
        throw InputError(file: url.path, message: error.message)
    }
    do { return try JSONReader.parse(data) } catch {
        throw InputError(file: url.path, line: error.line, column: error.column, message: "malformed JSON: \(error.message)")
    }
}
