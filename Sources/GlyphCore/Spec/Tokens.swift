import Foundation

/// A design-token file: W3C Design Tokens (DTCG) format 2025.10, or a Tokens Studio file
/// (docs/tokens.md says what is read and what is refused).
///
/// DTCG: groups, `$value`, `$type` inherited from the nearest group, `$root` tokens
/// (`{color.brand.$root}`), `$extends` group inheritance (a deep merge: the extended group's tokens
/// appear under the extending group, local ones win), `$deprecated` on tokens and groups, and
/// `$ref` JSON Pointers (a token's whole value, or a part of a value). Aliases `{group.token}` are
/// followed by the readers (`TokenSet.chain`, and the colour and length readers in TokenValues.swift).
///
/// Tokens Studio: tokens written as `value`/`type` (without `$`), token sets (the top-level groups
/// of a file with `$themes` or `$metadata`; a reference may leave out the set's name), its
/// dimension types (`sizing`, `spacing`, `borderRadius`, `borderWidth`) and
/// `$extensions["studio.tokens"].modify`.
public struct TokenSet: Sendable {
    /// How a token file is read.
    public enum Format: String, Sendable, CaseIterable {
        /// Tokens Studio when the file shows its marks (`detect`), else DTCG.
        case auto
        /// Strict DTCG 2025.10.
        case dtcg
        /// Tokens Studio (its legacy format, sets, types and colour modifiers), and DTCG.
        case tokensStudio = "tokens-studio"
    }

    public struct Token: Sendable {
        public var path: String
        /// The token's own `$type` (or Tokens Studio `type`), else its nearest group's.
        public var type: String?
        /// `$value` (Tokens Studio: `value`); for a token-level `$ref`, the node it points at.
        public var value: JSONNode
        /// A token-level `$ref` that names a whole token: that token's path (the token is an alias).
        public var aliasOf: String?
        /// `$deprecated` (its own or its group's): nil when not deprecated, "" when deprecated
        /// without a reason.
        public var deprecated: String?
        /// Tokens Studio's `$extensions["studio.tokens"].modify`.
        public var modify: JSONNode?
        /// The line of the token's value.
        public var line: Int { value.line }
    }

    /// A Tokens Studio theme: its name (and group), and the sets it reads — those it marks
    /// `enabled` or `source`, in the file's set order (`disabled` and unlisted sets are left out).
    public struct StudioTheme: Sendable, Equatable {
        public var name: String
        public var group: String?
        public var sets: [String]
        /// `group/name` when it has a group, as Tokens Studio shows it.
        public var fullName: String { group.map { "\($0)/\(name)" } ?? name }
    }

    public let file: String
    /// `.dtcg` or `.tokensStudio` (never `.auto`: what it was detected as).
    public let format: Format
    /// Why `.auto` read the file as Tokens Studio.
    public let detectedAs: String?
    public private(set) var tokens: [String: Token] = [:]
    /// Paths of groups (for "is a group, not a token").
    public private(set) var groups: Set<String> = []
    /// Tokens Studio token sets, in order: a reference without a set's name resolves in the last
    /// set (in this order) that has the token, as Tokens Studio merges sets.
    public private(set) var sets: [String] = []
    /// Tokens Studio themes (`$themes`), in file order: a spec's theme may read the token file as one
    /// of them (`"tokensTheme"`).
    public private(set) var studioThemes: [StudioTheme] = []
    /// The file as parsed (for JSON Pointers).
    let root: JSONNode
    /// The members' positions of each large object of the file (more than 16 members), by its path
    /// (each name after U+001F): a JSON Pointer into a group of 20,000 tokens is found in constant
    /// time, not by reading the group.
    let memberIndex: [String: [String: Int]]
    /// For the tokens of a resolver file (`TokenResolver`): the file each token was written in, by
    /// path (the last source that declared it); empty for a token file read alone.
    public internal(set) var sourceFiles: [String: String] = [:]

    /// The file a token was written in: its resolver source's, else this file.
    public func file(of path: String) -> String { sourceFiles[path] ?? file }
    /// Nodes visited while collecting (an `$extends` chain can multiply a file's tokens), and the
    /// limit on them (`Limits.jsonValues`; tests lower it).
    private var visited = 0
    private let nodeLimit: Int

    public init(file: String, root: JSONNode, format: Format = .auto) throws(InputError) {
        try self.init(file: file, root: root, format: format, nodeLimit: Limits.jsonValues)
    }

    init(file: String, root: JSONNode, format: Format, nodeLimit: Int, sourceFiles: [String: String] = [:]) throws(InputError) {
        self.file = file
        self.root = root
        self.memberIndex = Self.indexMembers(root)
        self.sourceFiles = sourceFiles
        self.nodeLimit = nodeLimit
        switch format {
        case .auto:
            let reason = Self.tokensStudioMarks(root)
            self.format = reason == nil ? .dtcg : .tokensStudio
            self.detectedAs = reason
        case .dtcg, .tokensStudio:
            self.format = format
            self.detectedAs = nil
        }
        if self.format == .tokensStudio, root["$themes"] != nil || root["$metadata"] != nil,
           case let .object(members) = root.value {
            var order: [String] = []
            if case let .array(items)? = root["$metadata"]?["tokenSetOrder"]?.value {
                for item in items { if case let .string(s) = item.value { order.append(s) } }
            }
            let names = members.map(\.key).filter { !$0.hasPrefix("$") }
            sets = order.filter(names.contains) + names.filter { !order.contains($0) }
            if let themes = root["$themes"] { studioThemes = try Self.studioThemes(themes, sets: sets, file: file) }
        }
        var cache = Expansions()
        try collect(root, path: [], inheritedType: nil, deprecated: nil, cache: &cache)
    }

    /// `$themes`: an array of `{name, group?, selectedTokenSets: {set: "enabled" | "source" | "disabled"}}`
    /// (other members, such as `id` and Figma's, are not used).
    private static func studioThemes(_ node: JSONNode, sets: [String], file: String) throws(InputError) -> [StudioTheme] {
        func fail(_ path: String, _ n: JSONNode, _ message: String) -> InputError {
            InputError(file: file, keyPath: path, line: n.line, column: n.column, message: message)
        }
        guard case let .array(items) = node.value else { throw fail("$themes", node, "expected an array of themes, found \(node.typeName)") }
        var out: [StudioTheme] = []
        for (i, item) in items.enumerated() {
            let p = "$themes[\(i)]"
            guard case .object = item.value else { throw fail(p, item, "expected a theme (an object), found \(item.typeName)") }
            guard let n = item["name"], case let .string(name) = n.value else {
                throw fail(p, item, "a theme needs \"name\" (a string)")
            }
            var group: String?
            if let g = item["group"] {
                guard case let .string(s) = g.value else { throw fail(p + ".group", g, "expected a string, found \(g.typeName)") }
                group = s
            }
            var chosen = Set<String>()
            if let sel = item["selectedTokenSets"] {
                guard case let .object(members) = sel.value else {
                    throw fail(p + ".selectedTokenSets", sel, "expected an object {set: \"enabled\" | \"source\" | \"disabled\"}, found \(sel.typeName)")
                }
                for (set, status) in members {
                    guard case let .string(st) = status.value, ["enabled", "source", "disabled"].contains(st) else {
                        throw fail(p + ".selectedTokenSets." + set, status, "expected \"enabled\", \"source\" or \"disabled\"")
                    }
                    if st != "disabled" { chosen.insert(set) }
                }
            }
            out.append(StudioTheme(name: name, group: group, sets: sets.filter(chosen.contains)))
        }
        return out
    }

    /// The file read with only `names` as its sets (a Tokens Studio theme's), in the file's set
    /// order: a reference without a set's name resolves in those sets only.
    public func reading(sets names: [String]) -> TokenSet {
        var copy = self
        copy.sets = sets.filter(names.contains)
        return copy
    }

    public init(contentsOf url: URL, format: Format = .auto) throws(InputError) {
        let root = try readJSON(url)
        try self.init(file: url.path, root: root, format: format)
    }

    // MARK: Reading the file

    /// The resolver source of the token at or above `path`.
    func sourceFile(_ path: [String]) -> String {
        for n in stride(from: path.count, through: 1, by: -1) {
            if let f = sourceFiles[path[..<n].joined(separator: ".")] { return f }
        }
        return file
    }

    func error(_ path: [String], _ node: JSONNode?, _ message: String) -> InputError {
        InputError(file: sourceFiles.isEmpty ? file : sourceFile(path), keyPath: path.joined(separator: "."), line: node?.line, column: node?.column, message: message)
    }

    /// A member of an object node.
    static func member(_ node: JSONNode, _ key: String) -> JSONNode? { node[key] }

    /// Whether an object is a token written in Tokens Studio's legacy form: `value` (and `type`)
    /// without `$value`. A DTCG group may hold a token or group named "value", but then that member
    /// is a token (`$value`) or holds tokens, and the group has no string `type`; a composite value
    /// (a modifier, a typography) holds none.
    static func isLegacyToken(_ node: JSONNode) -> Bool {
        guard case .object = node.value, node["$value"] == nil, let value = node["value"] else { return false }
        if case .string? = node["type"]?.value { return true }
        guard case let .object(members) = value.value else { return true }
        if value["$value"] != nil { return false }
        return !members.contains { $0.value.isObject && ($0.value["$value"] != nil || $0.value["value"] != nil) }
    }

    /// Why a file looks like a Tokens Studio file, or nil: `$themes` or `$metadata` at the top, a
    /// token in the legacy `value`/`type` form, or `$extensions["studio.tokens"]`.
    public static func tokensStudioMarks(_ root: JSONNode) -> String? {
        if root["$themes"] != nil { return "it has \"$themes\" at the top" }
        if root["$metadata"] != nil { return "it has \"$metadata\" at the top" }
        func walk(_ node: JSONNode, _ path: [String]) -> String? {
            guard case let .object(members) = node.value else { return nil }
            if isLegacyToken(node) {
                return "\(path.joined(separator: ".")) is written as {\"value\", \"type\"} without \"$\""
            }
            if node["$extensions"]?["studio.tokens"] != nil {
                return "\(path.joined(separator: ".")) has $extensions[\"studio.tokens\"]"
            }
            if node["$value"] != nil { return nil }
            for (key, child) in members where !key.hasPrefix("$") || key == "$root" {
                if let r = walk(child, path + [key]) { return r }
            }
            return nil
        }
        return walk(root, [])
    }

    /// The hint for a strict DTCG read that met a Tokens Studio construct.
    static let readAsTokensStudio = "read the file as Tokens Studio with \"tokensFormat\": \"tokens-studio\" in the spec "
        + "(or leave \"tokensFormat\" out to detect it)"

    private mutating func collect(_ node: JSONNode, path: [String], inheritedType: String?, deprecated: String?,
                                  cache: inout Expansions) throws(InputError) {
        visited += 1
        guard visited <= nodeLimit else {
            throw error(path, node, "the token file expands (through \"$extends\") to more than \(nodeLimit) "
                        + "tokens and groups; the limit is \(nodeLimit) (docs/limits.md)")
        }
        guard case .object = node.value else {
            throw error(path, node, "expected a token or a group (an object), found \(node.typeName)")
        }
        // Groups that extend each other's subgroups (a.s extends b, b.t extends a) nest without end.
        guard path.count <= Limits.jsonDepth else {
            throw error(path, node, "groups nested more than \(Limits.jsonDepth) deep (through \"$extends\"; a cycle?); "
                        + "the limit is \(Limits.jsonDepth) (docs/limits.md)")
        }
        if !path.isEmpty, try isToken(node, path, cache: &cache) {
            try addToken(node, path: path, inheritedType: inheritedType, deprecated: deprecated, cache: &cache)
            return
        }
        if format == .dtcg, !path.isEmpty, Self.isLegacyToken(node) {
            throw error(path, node, "written in the Tokens Studio legacy format (\"value\"/\"type\" without \"$\"): a DTCG "
                        + "2025.10 reader finds no \"$value\", so there is no token here. This looks like a Tokens Studio "
                        + "file: " + Self.readAsTokensStudio)
        }
        groups.insert(path.joined(separator: "."))
        // The group's members with what `$extends` brings: the extended group's own `$type` and
        // `$deprecated` too (its own win).
        let merged = try expanded(path, cache: &cache).members
        let group = JSONNode(value: .object(merged), line: node.line, column: node.column)
        var type = inheritedType
        if let t = group["$type"] {
            guard case let .string(s) = t.value else { throw error(path + ["$type"], t, "expected a string, found \(t.typeName)") }
            type = s
        }
        let groupDeprecated = try deprecation(group, path) ?? deprecated
        for (key, child) in merged {
            if key == "$root" {
                guard case .object = child.value, child["$value"] != nil || child["$ref"] != nil
                        || (format == .tokensStudio && Self.isLegacyToken(child)) else {
                    throw error(path + [key], child, "\"$root\" is the group's root token: an object with \"$value\"")
                }
                try addToken(child, path: path + [key], inheritedType: type, deprecated: groupDeprecated, cache: &cache)
                continue
            }
            if key.hasPrefix("$") { continue }
            if key.utf8.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "}") }) {
                throw error(path + [key], child, "token and group names may not contain '.', '{' or '}'")
            }
            try collect(child, path: path + [key], inheritedType: type, deprecated: groupDeprecated, cache: &cache)
        }
    }

    /// Whether an object is a token: it has `$value`, or a token-level `$ref` (one that does not
    /// name a group), or (Tokens Studio) the legacy `value`.
    private func isToken(_ node: JSONNode, _ path: [String], cache: inout Expansions) throws(InputError) -> Bool {
        if node["$value"] != nil { return true }
        if format == .tokensStudio && Self.isLegacyToken(node) { return true }
        if node["$ref"] != nil { return try refIsAlias(node, path, cache: &cache) }
        return false
    }

    /// Whether an object with a `$ref` is a token (an alias of what the pointer names) rather than a
    /// group extending a group: it is a token unless the pointer chain ends at a group. A `$ref`
    /// object without members of its own (`{"$ref": "#/x/d"}`) that names another such object is
    /// followed (c → d → e): the chain ends at a token, a value, or a group; a chain that comes back
    /// to itself is an alias cycle (reported where a spec uses it), not a group.
    /// Each answer is kept for every object on the chain (`cache.refIsAlias`), so a chain of N such
    /// tokens is walked once, not N times.
    private func refIsAlias(_ node: JSONNode, _ path: [String], cache: inout Expansions) throws(InputError) -> Bool {
        var current = node
        var at = path
        // Keyed by the path's names joined with a character no name in a valid file holds ('.' may be
        // in a name the reader has not refused yet).
        var walked = [path.joined(separator: "\u{1F}")]
        var seen = Set(walked)
        var answer = false
        while let ref = current["$ref"] {
            if let known = cache.refIsAlias[walked.last!] { answer = known; break }
            let target = try pointer(ref, at: at)
            guard isGroup(target.node, target.segments) else { answer = true; break }
            guard Self.isBareRef(target.node) else { answer = false; break }
            let name = target.segments.joined(separator: "\u{1F}")
            guard seen.insert(name).inserted else { answer = true; break }
            walked.append(name)
            (current, at) = (target.node, target.segments)
        }
        for name in walked { cache.refIsAlias[name] = answer }
        return answer
    }

    /// An object that is only a `$ref` (and `$`-keys a token may carry, but no `$extends` and no
    /// members): a token-level `$ref` when its chain ends at a token.
    static func isBareRef(_ node: JSONNode) -> Bool {
        guard case let .object(members) = node.value, node["$ref"] != nil, node["$extends"] == nil else { return false }
        return !members.contains { !$0.key.hasPrefix("$") || $0.key == "$root" }
    }

    /// A JSON node names a group when it is an object without `$value` outside any value.
    private func isGroup(_ node: JSONNode, _ segments: [String]) -> Bool {
        guard case .object = node.value, node["$value"] == nil, !segments.contains("$value") else { return false }
        return !(format == .tokensStudio && Self.isLegacyToken(node))
    }

    private func deprecation(_ node: JSONNode, _ path: [String]) throws(InputError) -> String?? {
        guard let d = node["$deprecated"] else { return nil }
        switch d.value {
        case let .bool(b): return .some(b ? "" : nil)
        case let .string(s): return .some(s)
        default: throw error(path + ["$deprecated"], d, "expected true, false or a string (the reason), found \(d.typeName)")
        }
    }

    private mutating func addToken(_ node: JSONNode, path: [String], inheritedType: String?, deprecated: String?,
                                   cache: inout Expansions) throws(InputError) {
        let name = path.joined(separator: ".")
        var type = inheritedType
        for key in format == .tokensStudio ? ["type", "$type"] : ["$type"] {
            if let t = node[key] {
                guard case let .string(s) = t.value else { throw error(path + [key], t, "expected a string, found \(t.typeName)") }
                type = s
            }
        }
        let dep = try deprecation(node, path) ?? deprecated
        let modify = node["$extensions"]?["studio.tokens"]?["modify"]
        if case .object(let members) = node.value, node["$value"] != nil,
           let child = members.first(where: { !$0.key.hasPrefix("$") && $0.value.isObject }) {
            throw error(path + [child.key], child.value, "\(name) is a token (it has \"$value\") and cannot also hold "
                        + "\"\(child.key)\" (a token or group): an object is either a token or a group")
        }
        if let value = node["$value"] ?? (format == .tokensStudio ? node["value"] : nil) {
            tokens[name] = Token(path: name, type: type, value: value, aliasOf: nil, deprecated: dep, modify: modify)
            return
        }
        // A token-level `$ref` (2025.10 §7.1.2): to a token's `$value` or to a token, it is an alias of
        // that token; to anything else, that node is the value.
        let ref = node["$ref"]!
        let target = try pointer(ref, at: path)
        var segments = target.segments
        let toValue = segments.last == "$value"
        if toValue { segments.removeLast() }
        var alias: String?
        if !segments.isEmpty, !segments.contains(where: { $0.hasPrefix("$") && $0 != "$root" }),
           let t = toValue ? nodeAt(segments) : target.node {
            // A token, or (c → d → e) a `$ref` token whose chain ends at a token: an alias either way.
            let refToken = !toValue && Self.isBareRef(t) ? try refIsAlias(t, segments, cache: &cache) : false
            if t["$value"] != nil || (format == .tokensStudio && Self.isLegacyToken(t)) || refToken {
                alias = segments.joined(separator: ".")
            }
        }
        tokens[name] = Token(path: name, type: type, value: alias == nil ? target.node : ref, aliasOf: alias,
                             deprecated: dep, modify: modify)
    }

    // MARK: Groups: `$extends` (and a group-level `$ref`)

    /// The groups expanded so far, by path: each group's members with `$extends` applied, computed
    /// once (a chain of N groups costs N merges, not N²), with an index by member name.
    struct Expansions {
        struct Group {
            var members: [(key: String, value: JSONNode)]
            var index: [String: Int]
        }
        var groups: [String: Group] = [:]
        /// Members (not `$` keys) of every expanded group: the same limit as `visited` bounds them,
        /// so a file whose groups multiply is refused before the merges are made, not after.
        var members = 0
        /// Whether the object with a `$ref` at a path is a token (an alias), by path (`refIsAlias`).
        var refIsAlias: [String: Bool] = [:]
    }

    /// A group expansion asked for: the group's path, and (for a group an `$extends` names, or one
    /// on the way to it) the `$extends` that asked, which errors name.
    private struct Request {
        var path: [String]
        var name: String
        var origin: (at: [String], node: JSONNode?, target: String)?
    }

    /// The members of the group at `path` with `$extends` (or a group `$ref`) applied: the extended
    /// group's members, deep-merged with the group's own (same path: the local one wins; groups on
    /// both sides merge). A group's path is read in the expanded tree (its parent expanded first),
    /// so an `$extends` may name a group another `$extends` brings. Each group is expanded once
    /// (`cache`); the groups being expanded are kept on an explicit stack (a chain of 20,000 groups
    /// does not recurse 20,000 deep) and in a set (a cycle is found in constant time per step).
    private func expanded(_ path: [String], cache: inout Expansions) throws(InputError) -> Expansions.Group {
        let name = path.joined(separator: ".")
        if let hit = cache.groups[name] { return hit }
        var stack = [Request(path: path, name: name, origin: nil)]
        var onStack: Set<String> = [name]
        func circular(_ at: [String], _ node: JSONNode?, to target: String) -> InputError {
            // The groups on the stack from the target on; a group that extends itself or a group it is
            // in (not on the stack): that group, then the target.
            let from = stack.firstIndex { $0.name == target } ?? stack.index(before: stack.endIndex)
            let names = stack[from...].map(\.name) + [target]
            // One short line however long the cycle: its first three and last two steps.
            let shown = names.count <= 6 ? ": " + names.map { "{\($0)}" }.joined(separator: " → ")
                : " of \(names.count - 1) groups: " + names.prefix(3).map { "{\($0)}" }.joined(separator: " → ") + " → … → "
                    + names.suffix(2).map { "{\($0)}" }.joined(separator: " → ")
            return error(at, node, "circular group extension\(shown)")
        }
        func missing(_ request: Request, _ why: String) -> InputError {
            guard let o = request.origin else { return error(request.path, nil, "{\(request.name)} \(why)") }
            return error(o.at, o.node, "\(o.at.last ?? "$extends") names {\(o.target)}, \(why)")
        }
        while let request = stack.last {
            if cache.groups[request.name] != nil {
                stack.removeLast()
                onStack.remove(request.name)
                continue
            }
            // The group as its parent (expanded) holds it.
            let node: JSONNode
            if request.path.isEmpty {
                node = root
            } else {
                let parentPath = Array(request.path.dropLast())
                let parentName = parentPath.joined(separator: ".")
                guard let parent = cache.groups[parentName] else {
                    if onStack.contains(parentName) {
                        let o = stack.last { $0.origin != nil }?.origin
                        throw circular(o?.at ?? request.path, o?.node, to: parentName)
                    }
                    stack.append(Request(path: parentPath, name: parentName, origin: request.origin))
                    onStack.insert(parentName)
                    continue
                }
                guard let i = parent.index[request.path.last!] else { throw missing(request, "which is not in \(file)") }
                node = parent.members[i].value
                guard isGroup(node, request.path) else {
                    throw missing(request, "which is a token; a group can only extend a group")
                }
            }
            guard case let .object(local) = node.value else { throw missing(request, "which is not a group") }
            var target: [String]?
            var via = ""
            if let ext = node["$extends"] {
                guard case let .string(s) = ext.value, let alias = Self.aliasPath(s) else {
                    throw error(request.path + ["$extends"], ext, "expected a group reference \"{group}\", found \(ext.typeName == "a string" ? "\"\(ext.value.stringValue ?? "")\"" : ext.typeName)")
                }
                target = alias.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
                via = "$extends"
            } else if let ref = node["$ref"] {
                target = try pointer(ref, at: request.path).segments
                via = "$ref"
            }
            var base: [(key: String, value: JSONNode)] = []
            if let target {
                let targetName = target.joined(separator: ".")
                if targetName.isEmpty || targetName == request.name || request.name.hasPrefix(targetName + ".") {
                    throw circular(request.path + [via], node[via], to: targetName)
                }
                if let hit = cache.groups[targetName] {
                    base = hit.members
                } else if onStack.contains(targetName) {
                    throw circular(request.path + [via], node[via], to: targetName)
                } else {
                    stack.append(Request(path: target, name: targetName, origin: (request.path + [via], node[via], targetName)))
                    onStack.insert(targetName)
                    continue
                }
            }
            let members = Self.merge(base, local.filter { $0.key != "$extends" && !(target != nil && via == "$ref" && $0.key == "$ref") })
            var index: [String: Int] = [:]
            index.reserveCapacity(members.count)
            for (i, m) in members.enumerated() where index[m.key] == nil {
                index[m.key] = i
                if !m.key.hasPrefix("$") { cache.members += 1 }
            }
            guard cache.members <= nodeLimit else {
                throw error(request.path, node, "the token file expands (through \"$extends\") to more than \(nodeLimit) "
                            + "tokens and groups; the limit is \(nodeLimit) (docs/limits.md)")
            }
            cache.groups[request.name] = Expansions.Group(members: members, index: index)
            stack.removeLast()
            onStack.remove(request.name)
        }
        return cache.groups[name]!
    }

    /// Deep merge: `local` over `base` (a member found through a dictionary: linear in both sizes).
    static func merge(_ base: [(key: String, value: JSONNode)], _ local: [(key: String, value: JSONNode)]) -> [(key: String, value: JSONNode)] {
        if base.isEmpty { return local }
        var out = base
        var index: [String: Int] = [:]
        index.reserveCapacity(out.count + local.count)
        for (i, m) in out.enumerated() where index[m.key] == nil { index[m.key] = i }
        for (key, value) in local {
            if let i = index[key] {
                let old = out[i].value
                if case let .object(a) = old.value, case let .object(b) = value.value, old["$value"] == nil, value["$value"] == nil,
                   !isLegacyToken(old), !isLegacyToken(value), !key.hasPrefix("$") {
                    out[i].value = JSONNode(value: .object(merge(a, b)), line: value.line, column: value.column)
                } else {
                    out[i].value = value
                }
            } else {
                index[key] = out.count
                out.append((key, value))
            }
        }
        return out
    }

    // MARK: JSON Pointers

    /// The node a `$ref` JSON Pointer (`"#/a/b/0"`, RFC 6901, in this file) points at, and its path.
    func pointer(_ ref: JSONNode, at path: [String]) throws(InputError) -> (node: JSONNode, segments: [String]) {
        let at = path + ["$ref"]
        guard case let .string(s) = ref.value else { throw error(at, ref, "expected a JSON Pointer \"#/…\", found \(ref.typeName)") }
        guard s.hasPrefix("#") else {
            throw error(at, ref, "only JSON Pointers into this file (\"#/…\") are read; \"\(s)\" names another document")
        }
        let fragment = String(s.dropFirst()).removingPercentEncoding ?? String(s.dropFirst())
        guard fragment.isEmpty || fragment.hasPrefix("/") else { throw error(at, ref, "\"\(s)\" is not a JSON Pointer (\"#/…\")") }
        let segments = fragment.isEmpty ? [] : fragment.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map {
            $0.contains("~") ? $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~") : String($0)
        }
        switch walk(segments) {
        case let .found(node): return (node, segments)
        case let .missing(i):
            throw error(at, ref, "the JSON Pointer \"\(s)\" points at nothing: \"/\(segments[...i].joined(separator: "/"))\" "
                        + "is not in \(file)")
        }
    }

    /// The node at a path of object keys and array indices in the file as written.
    func nodeAt(_ segments: [String]) -> JSONNode? {
        if case let .found(node) = walk(segments) { return node }
        return nil
    }

    enum Walk {
        case found(JSONNode)
        /// The index of the first segment that names nothing.
        case missing(Int)
    }

    /// The node at `segments`, or the first of them that names nothing.
    func walk(_ segments: [String]) -> Walk {
        var node = root
        var key = ""
        for (i, segment) in segments.enumerated() {
            switch node.value {
            case let .object(members):
                if let index = memberIndex[key] {
                    guard let at = index[segment] else { return .missing(i) }
                    node = members[at].value
                } else {
                    guard let n = node[segment] else { return .missing(i) }
                    node = n
                }
            case let .array(items):
                guard let k = Int(segment), k >= 0, k < items.count, String(k) == segment else { return .missing(i) }
                node = items[k]
            default:
                return .missing(i)
            }
            key += "\u{1F}" + segment
        }
        return .found(node)
    }

    /// `memberIndex` for a file: every object of more than 16 members, by path.
    static func indexMembers(_ root: JSONNode) -> [String: [String: Int]] {
        var out: [String: [String: Int]] = [:]
        func visit(_ node: JSONNode, _ key: String) {
            switch node.value {
            case let .object(members):
                if members.count > 16 {
                    var index: [String: Int] = [:]
                    index.reserveCapacity(members.count)
                    for (i, m) in members.enumerated() where index[m.key] == nil { index[m.key] = i }
                    out[key] = index
                }
                for (k, v) in members where v.isContainer { visit(v, key + "\u{1F}" + k) }
            case let .array(items):
                for (i, v) in items.enumerated() where v.isContainer { visit(v, key + "\u{1F}" + String(i)) }
            default:
                break
            }
        }
        visit(root, "")
        return out
    }

    /// `node` with every `{"$ref": "#/…"}` object inside it replaced by what it points at. What it
    /// becomes is measured first, each pointer's target once (a pointer names the same node wherever
    /// it is written), so a value whose pointers fan out (an array of two pointers to an array of two
    /// pointers to …: 2^N values from a 2 KB file) is refused at once, in time linear in the file:
    /// at most `limit` values (`Limits.jsonValues`) are built, nested at most `Limits.jsonDepth` deep.
    func resolvingPointers(_ node: JSONNode, at path: [String], limit: Int = Limits.jsonValues) throws(InputError) -> JSONNode {
        var measured: [String: (count: Int, depth: Int)] = [:]
        var following: Set<String> = []
        var targets: [String: JSONNode] = [:]
        func pointerString(_ ref: JSONNode) -> String? { ref.value.stringValue }
        func target(_ ref: JSONNode) throws(InputError) -> JSONNode {
            if let key = pointerString(ref), let hit = targets[key] { return hit }
            let t = try pointer(ref, at: path).node
            if let key = pointerString(ref) { targets[key] = t }
            return t
        }
        /// The values `n` becomes and how deep they nest (a count past `limit` stops at `limit + 1`).
        func measure(_ n: JSONNode, _ depth: Int) throws(InputError) -> (count: Int, depth: Int) {
            guard depth < Limits.jsonDepth else {
                throw error(path, n, "JSON Pointers nested more than \(Limits.jsonDepth) deep; the limit is \(Limits.jsonDepth) (docs/limits.md)")
            }
            switch n.value {
            case let .object(members):
                if members.count == 1, let ref = n["$ref"] {
                    let key = pointerString(ref) ?? ""
                    if let hit = measured[key] { return hit }
                    guard following.insert(key).inserted else {
                        throw error(path, ref, "the JSON Pointer \"\(key)\" leads back to itself (a cycle of JSON Pointers)")
                    }
                    let inner = try measure(target(ref), depth + 1)
                    following.remove(key)
                    let result = (inner.count, inner.depth + 1)
                    measured[key] = result
                    return result
                }
                var count = 1, deepest = 0
                for (_, v) in members {
                    let m = try measure(v, depth + 1)
                    count = min(count + m.count, limit + 1)
                    deepest = max(deepest, m.depth + 1)
                    if count > limit { break }
                }
                return (count, deepest)
            case let .array(items):
                var count = 1, deepest = 0
                for v in items {
                    let m = try measure(v, depth + 1)
                    count = min(count + m.count, limit + 1)
                    deepest = max(deepest, m.depth + 1)
                    if count > limit { break }
                }
                return (count, deepest)
            default:
                return (1, 0)
            }
        }
        let size = try measure(node, 0)
        guard size.count <= limit else {
            throw error(path, node, "its JSON Pointers (\"$ref\") expand to more than \(limit) values; the limit is \(limit) "
                        + "(docs/limits.md)")
        }
        guard size.depth < Limits.jsonDepth else {
            throw error(path, node, "JSON Pointers nested more than \(Limits.jsonDepth) deep; the limit is \(Limits.jsonDepth) (docs/limits.md)")
        }
        func build(_ n: JSONNode) throws(InputError) -> JSONNode {
            switch n.value {
            case let .object(members):
                if members.count == 1, let ref = n["$ref"] { return try build(target(ref)) }
                var out: [(key: String, value: JSONNode)] = []
                out.reserveCapacity(members.count)
                for (k, v) in members { out.append((k, try build(v))) }
                return JSONNode(value: .object(out), line: n.line, column: n.column)
            case let .array(items):
                var out: [JSONNode] = []
                out.reserveCapacity(items.count)
                for v in items { out.append(try build(v)) }
                return JSONNode(value: .array(out), line: n.line, column: n.column)
            default:
                return n
            }
        }
        return try build(node)
    }

    // MARK: References

    /// `{a.b}` → `a.b`, or nil when the string is not an alias.
    public static func aliasPath(_ s: String) -> String? {
        guard s.count > 2, s.hasPrefix("{"), s.hasSuffix("}") else { return nil }
        let inner = s.dropFirst().dropLast()
        guard !inner.contains("{"), !inner.contains("}") else { return nil }
        return String(inner)
    }

    /// The token a reference names: its path, or (Tokens Studio) the path in the last set that has it.
    public func lookup(_ path: String) -> Token? {
        if let t = tokens[path] { return t }
        for set in sets.reversed() { if let t = tokens["\(set).\(path)"] { return t } }
        return nil
    }

    /// "token alias cycle: {a} → {b} → {a}"; a long cycle shows its first three and last two steps
    /// and how many it has, so the message stays one short line.
    static func cycleMessage(_ cycle: some Collection<String>) -> String {
        let names = cycle.map { "{\($0)}" }
        if names.count <= 6 { return "token alias cycle: " + names.joined(separator: " → ") }
        return "token alias cycle of \(names.count - 1) tokens: " + names.prefix(3).joined(separator: " → ") + " → … → "
            + names.suffix(2).joined(separator: " → ")
    }

    /// The alias a token's value makes: a `{…}` string or a token-level `$ref` to a token.
    public func alias(of token: Token) -> String? {
        if let a = token.aliasOf { return a }
        if case let .string(s) = token.value.value { return Self.aliasPath(s) }
        return nil
    }

    /// The tokens a reference passes through, first to last: the last holds a value (not an
    /// alias). Errors go to `origin` (the place that asked): a missing token, a group (with its
    /// root token when it has one), a cycle.
    public func chain(_ path: String, origin: InputError) throws(InputError) -> [Token] {
        var out: [Token] = []
        var seen: [String] = []
        var visited = Set<String>()
        var current = path
        while true {
            guard let token = lookup(current) else {
                var e = origin
                let via = seen.isEmpty ? "" : " (via {\(path)})"
                let name = groups.contains(current) ? current : sets.lazy.map { "\($0).\(current)" }.first(where: groups.contains)
                if let name {
                    let rootToken = tokens["\(name).$root"] != nil ? "; its root token is {\(name).$root}" : "; it has no root token ($root)"
                    e.message = "{\(current)}\(via) is a group, not a token, in \(file)\(rootToken)"
                } else {
                    e.message = "unresolved token alias {\(current)}\(via) in \(file)"
                    if format == .dtcg, let marks = Self.tokensStudioMarks(root) {
                        e.message += " (the file looks like a Tokens Studio file: \(marks); " + Self.readAsTokensStudio + ")"
                    }
                }
                throw e
            }
            if visited.contains(token.path) {
                var e = origin
                e.message = Self.cycleMessage(seen.suffix(from: seen.firstIndex(of: token.path)!) + [token.path])
                throw e
            }
            seen.append(token.path)
            visited.insert(token.path)
            out.append(token)
            guard let next = alias(of: token) else { return out }
            current = next
        }
    }

    /// Follows aliases to a final value. `origin` names the place that asked, for errors.
    /// Returns the final token's value, its path, and its `$type` (its own or inherited; when it has
    /// none, the first one declared along the alias chain).
    public func resolve(_ path: String, origin: InputError) throws(InputError) -> (node: JSONNode, type: String?, path: String) {
        let tokens = try chain(path, origin: origin)
        let last = tokens.last!
        return (last.value, last.type ?? tokens.lazy.compactMap(\.type).first, last.path)
    }
}

extension JSONNode {
    var isObject: Bool {
        if case .object = value { return true }
        return false
    }

    var isContainer: Bool {
        switch value {
        case .object, .array: return true
        default: return false
        }
    }
}

extension JSONValue {
    var stringValue: String? {
        if case let .string(s) = self { return s }
        return nil
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
