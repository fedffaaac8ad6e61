import Foundation

/// A DTCG 2025.10 Resolver module document (`*.resolver.json`): token `sets`, `modifiers` whose
/// `contexts` each name their own sources, and a `resolutionOrder` that merges them into one token
/// tree per choice of contexts (docs/tokens.md#resolver-files says what is read and what is refused).
///
/// Everything is read and checked when the spec loads: every `$ref` (to a set, a modifier, a token
/// file relative to the resolver, or a part of one with `file.json#/pointer`), every inline source,
/// every modifier's `default`. `tokens(contexts:)` then merges the sources in resolution order
/// (later tokens replace earlier ones whole, groups merge) and reads the result as a `TokenSet`,
/// which remembers the file each token came from.
public struct TokenResolver: Sendable {
    /// A token source: a token tree and the file it was written in.
    struct Source: Sendable {
        var root: JSONNode
        var file: String
        /// The values in `root` (every string, number, object, … counts one): what merging it costs.
        var values: Int = 0
    }

    /// The values in a JSON tree (each string, number, object, … counts one).
    static func valueCount(_ node: JSONNode) -> Int {
        switch node.value {
        case let .object(members): return members.reduce(1) { $0 + valueCount($1.value) }
        case let .array(items): return items.reduce(1) { $0 + valueCount($1) }
        default: return 1
        }
    }

    /// The values all the sources of one resolution may hold (a file named twice counts twice):
    /// `Limits.jsonValues`. Sets that name each other twice over (`a` lists `b` twice, `b` lists `c`
    /// twice, …) would otherwise make 2^N sources from a small document.
    public static let valueLimit = Limits.jsonValues

    public struct Modifier: Sendable {
        public var name: String
        /// Context names in file order.
        public var contexts: [String]
        public var defaultContext: String?
        var sources: [String: [Source]]
    }

    enum Item: Sendable {
        case set([Source])
        case modifier(String)
    }

    public let file: String
    public let format: TokenSet.Format
    public private(set) var modifiers: [Modifier] = []
    private var order: [Item] = []

    /// Reads a resolver document. `load` reads a file a `$ref` names (a path relative to the
    /// resolver) and returns its parsed JSON and display name; it throws, naming the `$ref`, when the
    /// file is missing, too large or malformed.
    init(file: String, root: JSONNode, format: TokenSet.Format,
         load: (_ ref: String, _ node: JSONNode, _ key: String) throws(InputError) -> (root: JSONNode, file: String)) throws(InputError) {
        self.file = file
        self.format = format
        var r = SpecReader(file: file)
        let top = try r.object(root, "", allowed: ["$schema", "name", "version", "description", "sets", "modifiers",
                                                   "resolutionOrder", "$extensions", "$defs"],
                               required: ["version", "resolutionOrder"])
        let version = try r.string(top["version"]!, "version")
        guard version == "2025.10" else {
            throw r.error("version", top["version"], "unknown resolver version \"\(version)\"; glyphaudit reads \"2025.10\"")
        }
        var files = 0
        var fileCache: [String: (root: JSONNode, file: String)] = [:]
        /// Each set's sources, its `#/sets/…` references expanded, made once.
        var setCache: [String: (sources: [Source], values: Int)] = [:]
        /// Each `file.json#/pointer` source's value count, counted once.
        var valueCache: [String: Int] = [:]
        /// The values of the sources a list has gathered (`total`): refused past `valueLimit` as soon as it is.
        func budget(_ total: Int, _ key: String, _ node: JSONNode?) throws(InputError) {
            guard total <= Self.valueLimit else {
                throw r.error(key, node, "the token sources listed here hold more than \(Self.valueLimit) values in all (a file or set "
                              + "named twice counts twice); the limit is \(Self.valueLimit) (docs/limits.md)")
            }
        }

        /// A `{"$ref": …}` reference object's target string, nil when `node` is not one.
        func reference(_ node: JSONNode, _ key: String) throws(InputError) -> String? {
            guard case let .object(members) = node.value, let ref = node["$ref"] else { return nil }
            if let other = members.first(where: { $0.key != "$ref" }) {
                throw r.error("\(key).\(other.key)", other.value, "keys beside \"$ref\" (overrides of the referenced object) are not read; "
                              + "write the override as a source after it")
            }
            guard case let .string(s) = ref.value else { throw r.error("\(key).$ref", ref, "expected a reference (a string), found \(ref.typeName)") }
            return s
        }

        /// The node a same-document pointer `#/a/b` names in the resolver.
        func local(_ s: String, _ node: JSONNode, _ key: String) throws(InputError) -> (segments: [String], node: JSONNode) {
            let segments = Self.segments(String(s.dropFirst()))
            var n = root
            for (i, seg) in segments.enumerated() {
                guard let next = Self.child(n, seg) else {
                    throw r.error("\(key).$ref", node, "\"\(s)\" points at nothing: \"/\(segments[...i].joined(separator: "/"))\" is not in \(file)")
                }
                n = next
            }
            return (segments, n)
        }

        /// The sources of a `sources` array or a context: reference objects and inline token trees.
        /// `stack`: the same-document references being followed (a cycle is refused).
        func sources(_ node: JSONNode, _ key: String, stack: [String]) throws(InputError) -> [Source] {
            var out: [Source] = []
            var total = 0
            for (i, item) in try r.array(node, key).enumerated() {
                let k = "\(key)[\(i)]"
                guard case .object = item.value else { throw r.error(k, item, "expected a token source (an object), found \(item.typeName)") }
                guard let s = try reference(item, k) else {
                    out.append(Source(root: item, file: file, values: Self.valueCount(item)))
                    total += out.last!.values
                    try budget(total, k, item)
                    continue
                }
                if s.hasPrefix("#") {
                    // A set already expanded is not looked up again (a list of 100,000 references to sets).
                    let known = "/" + Self.segments(String(s.dropFirst())).joined(separator: "/")
                    if let hit = setCache[known] {
                        total += hit.values
                        try budget(total, "\(k).$ref", item["$ref"])
                        out += hit.sources
                        continue
                    }
                    let (segments, target) = try local(s, item["$ref"]!, k)
                    let path = "/" + segments.joined(separator: "/")
                    guard segments.count == 2, segments[0] == "sets" else {
                        let what = segments.first == "modifiers" ? "a modifier (only resolutionOrder may name one)"
                            : segments.first == "resolutionOrder" ? "an item of resolutionOrder (nothing may point into it)"
                            : "something other than a set (\"#/sets/NAME\")"
                        throw r.error("\(k).$ref", item["$ref"], "\"\(s)\" points at \(what)")
                    }
                    if stack.contains(path) {
                        throw r.error("\(k).$ref", item["$ref"], "circular reference: " + (stack + [path]).map { "#\($0)" }.joined(separator: " → "))
                    }
                    let set: (sources: [Source], values: Int)
                    if let hit = setCache[path] {
                        set = hit
                    } else {
                        let m = try r.object(target, "sets.\(segments[1])", allowed: ["description", "sources", "$extensions"], required: ["sources"])
                        let expanded = try sources(m["sources"]!, "sets.\(segments[1]).sources", stack: stack + [path])
                        set = (expanded, expanded.reduce(0) { $0 + $1.values })
                        setCache[path] = set
                    }
                    total += set.values
                    try budget(total, "\(k).$ref", item["$ref"])
                    out += set.sources
                    continue
                }
                guard !s.contains("://") else {
                    throw r.error("\(k).$ref", item["$ref"], "\"\(s)\" is a remote reference; only files next to the resolver (or below "
                                  + "or above it, as \"tokens\" reads them) and \"#/sets/…\" are read")
                }
                let parts = s.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                let path = String(parts[0])
                guard !path.isEmpty else { throw r.error("\(k).$ref", item["$ref"], "\"\(s)\" names no file") }
                let loaded: (root: JSONNode, file: String)
                if let cached = fileCache[path] {
                    loaded = cached
                } else {
                    files += 1
                    if files > TokenResolver.fileLimit {
                        throw r.error("\(k).$ref", item["$ref"], "more than \(TokenResolver.fileLimit) token files (docs/limits.md)")
                    }
                    loaded = try load(path, item["$ref"]!, "\(k).$ref")
                    fileCache[path] = loaded
                }
                var target = loaded.root
                if parts.count == 2, !parts[1].isEmpty {
                    let segments = Self.segments(String(parts[1]))
                    for (j, seg) in segments.enumerated() {
                        guard let next = Self.child(target, seg) else {
                            throw r.error("\(k).$ref", item["$ref"], "\"\(s)\" points at nothing: \"/\(segments[...j].joined(separator: "/"))\" "
                                          + "is not in \(loaded.file)")
                        }
                        target = next
                    }
                }
                guard case .object = target.value else {
                    throw r.error("\(k).$ref", item["$ref"], "\"\(s)\" is \(target.typeName), not a token tree (an object)")
                }
                let values: Int
                if let hit = valueCache[s] { values = hit } else {
                    values = Self.valueCount(target)
                    valueCache[s] = values
                }
                out.append(Source(root: target, file: loaded.file, values: values))
                total += values
                try budget(total, "\(k).$ref", item["$ref"])
            }
            return out
        }

        func modifier(_ node: JSONNode, _ name: String, _ key: String, inline: Bool) throws(InputError) -> Modifier {
            let m = try r.object(node, key, allowed: ["description", "contexts", "default", "$extensions"] + (inline ? ["name", "type"] : []),
                                 required: ["contexts"])
            let entries = try r.map(m["contexts"]!, "\(key).contexts")
            if entries.isEmpty { throw r.error("\(key).contexts", m["contexts"], "a modifier needs at least one context") }
            var out = Modifier(name: name, contexts: [], defaultContext: nil, sources: [:])
            for (context, n) in entries {
                out.contexts.append(context)
                out.sources[context] = try sources(n, "\(key).contexts.\(context)", stack: [])
            }
            if let d = m["default"] {
                let s = try r.string(d, "\(key).default")
                guard out.contexts.contains(s) else {
                    throw r.error("\(key).default", d, "unknown context \"\(s)\"; modifier \"\(name)\" has "
                                  + out.contexts.map { "\"\($0)\"" }.joined(separator: ", "))
                }
                out.defaultContext = s
            }
            return out
        }

        var names = Set<String>()
        for (i, item) in try r.array(top["resolutionOrder"]!, "resolutionOrder").enumerated() {
            let k = "resolutionOrder[\(i)]"
            guard case .object = item.value else { throw r.error(k, item, "expected a set or a modifier (an object), found \(item.typeName)") }
            if let s = try reference(item, k) {
                guard s.hasPrefix("#") else {
                    throw r.error("\(k).$ref", item["$ref"], "resolutionOrder names sets and modifiers of this document (\"#/sets/NAME\", "
                                  + "\"#/modifiers/NAME\"); put a token file in a set's sources")
                }
                let (segments, target) = try local(s, item["$ref"]!, k)
                guard segments.count == 2, ["sets", "modifiers"].contains(segments[0]) else {
                    throw r.error("\(k).$ref", item["$ref"], "\"\(s)\" is not a set or a modifier (\"#/sets/NAME\", \"#/modifiers/NAME\")")
                }
                let name = segments[1]
                if segments[0] == "sets" {
                    let m = try r.object(target, "sets.\(name)", allowed: ["description", "sources", "$extensions"], required: ["sources"])
                    order.append(.set(try sources(m["sources"]!, "sets.\(name).sources", stack: ["/sets/\(name)"])))
                } else {
                    guard !modifiers.contains(where: { $0.name == name }) else {
                        throw r.error("\(k).$ref", item["$ref"], "modifier \"\(name)\" is named twice in resolutionOrder")
                    }
                    modifiers.append(try modifier(target, name, "modifiers.\(name)", inline: false))
                    order.append(.modifier(name))
                }
                continue
            }
            // An inline set or modifier: "type" and a "name" unique in resolutionOrder.
            let m = try r.object(item, k, allowed: ["name", "type", "description", "sources", "contexts", "default", "$extensions"],
                                 required: ["name", "type"])
            let name = try r.string(m["name"]!, "\(k).name")
            guard names.insert(name).inserted else { throw r.error("\(k).name", m["name"], "\"\(name)\" is named twice in resolutionOrder") }
            switch try r.string(m["type"]!, "\(k).type") {
            case "set":
                if let c = m["contexts"] { throw r.error("\(k).contexts", c, "a set has \"sources\", not \"contexts\"") }
                guard let s = m["sources"] else { throw r.error(k, item, "missing required key \"sources\"") }
                order.append(.set(try sources(s, "\(k).sources", stack: [])))
            case "modifier":
                if let s = m["sources"] { throw r.error("\(k).sources", s, "a modifier has \"contexts\", not \"sources\"") }
                guard !modifiers.contains(where: { $0.name == name }) else {
                    throw r.error("\(k).name", m["name"], "modifier \"\(name)\" is named twice in resolutionOrder")
                }
                modifiers.append(try modifier(item, name, k, inline: true))
                order.append(.modifier(name))
            case let t:
                throw r.error("\(k).type", m["type"], "unknown type \"\(t)\"; expected \"set\" or \"modifier\"")
            }
        }
    }

    /// At most this many token files per resolver.
    public static let fileLimit = Limits.resolverFiles

    static func segments(_ fragment: String) -> [String] {
        let f = fragment.removingPercentEncoding ?? fragment
        guard f.hasPrefix("/") else { return f.isEmpty ? [] : [f] }
        return f.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map {
            $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
        }
    }

    static func child(_ node: JSONNode, _ seg: String) -> JSONNode? {
        switch node.value {
        case .object: return node[seg]
        case let .array(items):
            guard let k = Int(seg), k >= 0, k < items.count, String(k) == seg else { return nil }
            return items[k]
        default: return nil
        }
    }

    /// The tokens of one resolution: each modifier in the context `contexts` gives it (all must be
    /// given, and known), the sources merged in resolution order.
    public func tokens(contexts: [String: String]) throws(InputError) -> TokenSet {
        var chosen: [Source] = []
        for item in order {
            switch item {
            case let .set(sources): chosen += sources
            case let .modifier(name):
                let m = modifiers.first { $0.name == name }!
                guard let c = contexts[name], let sources = m.sources[c] else {
                    throw InputError(file: file, message: "modifier \"\(name)\" has no context chosen")
                }
                chosen += sources
            }
        }
        let values = chosen.reduce(0) { $0 + $1.values }
        guard values <= Self.valueLimit else {
            throw InputError(file: file, message: "the token sources of this resolution (\(contexts.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", "))) "
                             + "hold more than \(Self.valueLimit) values in all; the limit is \(Self.valueLimit) (docs/limits.md)")
        }
        // Merged in place (a tree of dictionaries), so each source costs its own size, not the size of
        // what was merged before it.
        let merged = MergeTree(line: 1, column: 1)
        var files: [String: String] = [:]
        for source in chosen {
            guard case let .object(members) = source.root.value else { continue }
            merged.merge(members)
            Self.tokenPaths(source.root, []) { files[$0] = source.file }
        }
        return try TokenSet(file: file, root: merged.node, format: format, nodeLimit: Limits.jsonValues, sourceFiles: files)
    }

    /// Every token path in a tree (objects with `$value`, or legacy `value`), for the file map.
    static func tokenPaths(_ node: JSONNode, _ path: [String], _ found: (String) -> Void) {
        guard case let .object(members) = node.value else { return }
        if node["$value"] != nil || TokenSet.isLegacyToken(node) {
            found(path.joined(separator: "."))
            return
        }
        for (k, v) in members where !k.hasPrefix("$") { tokenPaths(v, path + [k], found) }
    }
}

/// Token trees merged one over another as `TokenSet.merge` merges two (a member of the same name
/// replaces the earlier one whole, unless both are groups, which merge), but in place: merging a
/// source costs its size, however much was merged before it.
private final class MergeTree {
    enum Entry {
        case node(JSONNode)
        case tree(MergeTree)
    }
    var keys: [String] = []
    var entries: [String: Entry] = [:]
    var line: Int
    var column: Int

    init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    convenience init(_ node: JSONNode) {
        self.init(line: node.line, column: node.column)
        if case let .object(members) = node.value {
            for (k, v) in members where entries[k] == nil {
                keys.append(k)
                entries[k] = .node(v)
            }
        }
    }

    /// Whether a node may merge with a group under `key` (`TokenSet.merge`'s test).
    static func isGroup(_ node: JSONNode, _ key: String) -> Bool {
        guard case .object = node.value, node["$value"] == nil, !key.hasPrefix("$") else { return false }
        return !TokenSet.isLegacyToken(node)
    }

    /// The merged group reads as a Tokens Studio legacy token (its `value` and `type`): only those
    /// members are looked at, as `TokenSet.isLegacyToken` does.
    var isLegacyToken: Bool {
        guard let value = entries["value"] else { return false }
        var probe: [(key: String, value: JSONNode)] = [("value", Self.node(value))]
        if let type = entries["type"] { probe.append(("type", Self.node(type))) }
        return TokenSet.isLegacyToken(JSONNode(value: .object(probe), line: line, column: column))
    }

    static func node(_ entry: Entry) -> JSONNode {
        switch entry {
        case let .node(n): return n
        case let .tree(t): return t.node
        }
    }

    func merge(_ members: [(key: String, value: JSONNode)]) {
        for (key, value) in members {
            guard let existing = entries[key] else {
                keys.append(key)
                entries[key] = .node(value)
                continue
            }
            guard case let .object(local) = value.value, Self.isGroup(value, key) else {
                entries[key] = .node(value)
                continue
            }
            let tree: MergeTree
            switch existing {
            case let .tree(t) where !t.isLegacyToken:
                tree = t
            case let .node(old) where Self.isGroup(old, key):
                tree = MergeTree(old)
            default:
                entries[key] = .node(value)
                continue
            }
            tree.merge(local)
            (tree.line, tree.column) = (value.line, value.column)
            entries[key] = .tree(tree)
        }
    }

    var node: JSONNode {
        JSONNode(value: .object(keys.map { ($0, Self.node(entries[$0]!)) }), line: line, column: column)
    }
}
