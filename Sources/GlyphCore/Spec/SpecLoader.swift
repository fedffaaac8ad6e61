import Foundation
import GlyphColor

/// Where a spec's neighbouring files (tokens, images) come from: the file system, or the
/// assets built into the tool.
public protocol AssetSource: Sendable {
    /// The bytes of `path` (relative to the spec's folder was already applied); nil if missing.
    func data(at path: String) -> Data?
    /// The bytes of `path`, refused past `limit` bytes (or when it is not a regular file); `what`
    /// names the kind of file in messages. The default reads `data(at:)` and checks its size.
    func read(_ path: String, limit: Int, what: String) throws(InputFile.Failure) -> Data
    /// A file URL for `path` when it is a real file (used as librsvg's base), else nil.
    func fileURL(at path: String) -> URL?
    /// The name shown in messages and reports.
    func displayName(_ path: String) -> String
    /// `relative` resolved against the folder of `from`.
    func resolve(_ relative: String, from: String) -> String
    /// Whether `path` (resolved) is a folder.
    func isFolder(_ path: String) -> Bool
    /// Nil when `path` (resolved) lies inside one of `folders` (resolved), symbolic links followed
    /// (`ConfinedPath.escape`); else why not. The default compares the paths as written.
    func escape(_ path: String, folders: [String]) -> PathEscape?
    /// The bytes of `path` (resolved) when it lies inside one of `folders` as it is opened (the file
    /// system's source walks it with `Beneath.within`: the bytes are those of the file checked), at
    /// most `limit` bytes; else why not. The default checks `escape`, then reads.
    func read(_ path: String, within folders: [String], limit: Int, what: String) throws(Beneath.Refusal) -> Data
}

extension AssetSource {
    public func read(_ path: String, limit: Int, what: String) throws(InputFile.Failure) -> Data {
        guard let data = data(at: path) else { throw InputFile.Failure(message: "no such file", missing: true) }
        if data.count > limit {
            throw InputFile.Failure(message: "the \(what) is \(data.count) bytes; the limit is \(Limits.bytes(limit)) (docs/limits.md)",
                                    missing: false)
        }
        return data
    }

    public func isFolder(_ path: String) -> Bool { false }

    public func read(_ path: String, within folders: [String], limit: Int, what: String) throws(Beneath.Refusal) -> Data {
        if let escape = escape(path, folders: folders) { throw .escape(escape) }
        do { return try read(path, limit: limit, what: what) } catch { throw .file(error) }
    }

    public func escape(_ path: String, folders: [String]) -> PathEscape? {
        let p = ConfinedPath.lexical(Array(path.utf8))
        return folders.contains { ConfinedPath.inside(p, ConfinedPath.lexical(Array($0.utf8))) } ? nil : .outside
    }
}

public struct FileSystemSource: AssetSource {
    public init() {}
    public func data(at path: String) -> Data? { try? InputFile.read(path, limit: Limits.jsonFileBytes) }
    public func read(_ path: String, limit: Int, what: String) throws(InputFile.Failure) -> Data {
        try InputFile.read(path, limit: limit, what: what)
    }
    public func fileURL(at path: String) -> URL? { URL(fileURLWithPath: path) }
    public func displayName(_ path: String) -> String { path }
    public func resolve(_ relative: String, from: String) -> String {
        // Lexical, as a relative path is: `/a/link/../b` is `/a/b`, the path checked and opened.
        if relative.hasPrefix("/") { return String(decoding: ConfinedPath.lexical(Array(relative.utf8)), as: UTF8.self) }
        return URL(fileURLWithPath: relative, relativeTo: URL(fileURLWithPath: from).deletingLastPathComponent())
            .standardizedFileURL.path
    }
    public func isFolder(_ path: String) -> Bool {
        var folder: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &folder) && folder.boolValue
    }
    public func escape(_ path: String, folders: [String]) -> PathEscape? {
        ConfinedPath.escape(path, folders: folders)
    }
    public func read(_ path: String, within folders: [String], limit: Int, what: String) throws(Beneath.Refusal) -> Data {
        switch Beneath.within(path, roots: folders) {
        case let .failure(refusal): throw refusal
        case let .success(fd):
            defer { close(fd) }
            do {
                let data = try InputFile.read(descriptor: fd, limit: limit, what: what)
                InputLog.note(path, data)
                return data
            } catch { throw .file(error) }
        }
    }
}

extension Spec {
    static let topKeys = ["$schema", "name", "description", "control", "tokens", "tokensFormat", "shapes", "sizes", "glyph",
                          "frame", "hitArea", "targetSpacing", "label", "states", "appearance", "images", "assets", "themes", "scales",
                          "dynamicTypeSizes", "onOffLabels", "focus", "settings", "mirrorsInRightToLeft"]

    /// Loads a spec file from disk (its tokens and images relative to it).
    public static func load(contentsOf url: URL, images: any VectorImageReader) throws(InputError) -> Spec {
        try load(path: url.standardizedFileURL.path, source: FileSystemSource(), images: images)
    }

    /// Loads a spec from an asset source.
    public static func load(path: String, source: AssetSource, images: any VectorImageReader) throws(InputError) -> Spec {
        let name = source.displayName(path)
        let data: Data
        do { data = try source.read(path, limit: Limits.jsonFileBytes, what: "spec") } catch {
            throw InputError(file: name, message: error.message)
        }
        let root: JSONNode
        do { root = try JSONReader.parse(data) } catch {
            throw InputError(file: name, line: error.line, column: error.column, message: "malformed JSON: \(error.message)")
        }
        var parser = SpecParser(path: path, source: source, images: images)
        var spec = try parser.parse(root)
        spec.writtenKeys = SpecInputs.flatten(root)
        return spec
    }
}

private struct SpecParser {
    let path: String
    let source: AssetSource
    let images: any VectorImageReader
    var r: SpecReader
    /// The images' loader, kept for the checks that need the spec's scales and themes.
    var imageLoader: ImageLoader?
    /// The spec's `assets` (folders images may come from), for image marks.
    var assetsNode: JSONNode?
    /// Whether a mark loaded an image.
    var loadedMarkImages = false
    /// The token file when it is a DTCG resolver document: themes pick its contexts (`tokensContext`).
    var resolver: TokenResolver?

    init(path: String, source: AssetSource, images: any VectorImageReader) {
        self.path = path
        self.source = source
        self.images = images
        self.r = SpecReader(file: source.displayName(path))
    }

    mutating func parse(_ root: JSONNode) throws(InputError) -> Spec {
        let top = try r.object(root, "", allowed: Spec.topKeys, required: ["name", "control", "sizes", "states", "themes"])
        var tokenFile: String?
        if let t = top["tokens"] {
            let rel = try r.string(t, "tokens")
            let tokenPath = source.resolve(rel, from: path)
            let data: Data
            do { data = try source.read(tokenPath, limit: Limits.jsonFileBytes, what: "token file") } catch {
                throw r.error("tokens", t, error.missing ? "token file \(source.displayName(tokenPath)) not found"
                                                          : "\(source.displayName(tokenPath)): \(error.message)")
            }
            let node: JSONNode
            do { node = try JSONReader.parse(data) } catch {
                throw InputError(file: source.displayName(tokenPath), line: error.line, column: error.column,
                                 message: "malformed JSON: \(error.message)")
            }
            let format = try top["tokensFormat"].map { n throws(InputError) in try r.choice(n, "tokensFormat", TokenSet.Format.self) }
            if rel.hasSuffix(".resolver.json") || node["resolutionOrder"] != nil {
                let resolver = try loadResolver(tokenPath, node, format: format ?? .auto)
                // Keys outside themes read each modifier's default context (its first when it has none).
                r.tokens = try resolver.tokens(contexts: Dictionary(uniqueKeysWithValues: resolver.modifiers.map {
                    ($0.name, $0.defaultContext ?? $0.contexts[0])
                }))
                self.resolver = resolver
            } else {
                r.tokens = try TokenSet(file: source.displayName(tokenPath), root: node, format: format ?? .auto)
            }
            tokenFile = source.displayName(tokenPath)
        } else if let f = top["tokensFormat"] {
            throw r.error("tokensFormat", f, "\"tokensFormat\" says how to read the token file, but the spec loads none (add \"tokens\")")
        }
        let name = try r.string(top["name"]!, "name")
        try r.fileName(name, "name", top["name"], what: "a name")
        let description = try top["description"].map { node throws(InputError) in try r.string(node, "description") } ?? ""
        let control = try r.choice(top["control"]!, "control", ControlKind.self)

        var shapes: [GlyphShape] = [.square]
        if let s = top["shapes"] {
            shapes = []
            for (i, item) in try r.array(s, "shapes").enumerated() {
                let shape = try r.choice(item, "shapes[\(i)]", GlyphShape.self)
                if shapes.contains(shape) { throw r.error("shapes[\(i)]", item, "\"\(shape.rawValue)\" is listed twice") }
                shapes.append(shape)
            }
            if shapes.isEmpty { throw r.error("shapes", s, "the shape list is empty") }
            if control == .switch {
                r.warn("shapes", s, "a switch has no box shape (square or circle): \"shapes\" is not used")
            }
        }

        var images: ImageSetSpec?
        if let i = top["images"] {
            if control == .switch, case let .object(members) = i.value {
                // An image switch (toggle icons) has two states, off and on: nothing draws a third.
                for (key, value) in members where Self.checkboxOnlyImageKeys.contains(key) {
                    throw r.error("images.\(key)", value, "\"\(key)\" is for a three-state image checkbox; a switch has the states "
                                  + "off and on and takes images.off and images.on only")
                }
            }
            images = try parseImages(i, roots: try parseAssetRoots(top["assets"]))
        }
        // Image marks (on a drawn box) load their images from the same folders.
        assetsNode = top["assets"]

        let sizes = try parseSizes(top["sizes"]!, control: control, imageBased: images != nil)

        var glyphTextStyle: TextStyle?
        var glyphScales = false
        if let g = top["glyph"] {
            let m = try r.object(g, "glyph", allowed: ["textStyle", "scalesWithDynamicType"])
            if let t = m["textStyle"] { glyphTextStyle = try r.choice(t, "glyph.textStyle", TextStyle.self) }
            if let s = m["scalesWithDynamicType"] { glyphScales = try r.bool(s, "glyph.scalesWithDynamicType") }
            if glyphScales && glyphTextStyle == nil {
                throw r.error("glyph", g, "a glyph that scales with Dynamic Type needs a \"textStyle\" to follow")
            }
        }

        var frame = FrameSpec.hug
        if let f = top["frame"] {
            if case let .string(s) = f.value {
                switch s {
                case "hug": frame = .hug
                case "size": frame = .size
                default: throw r.error("frame", f, "expected \"hug\", \"size\" or {\"width\", \"height\"}, found \"\(s)\"" + Suggest.didYouMean(s, in: ["hug", "size"]))
                }
            } else {
                let m = try r.object(f, "frame", allowed: ["width", "height"], required: ["width", "height"])
                frame = .fixed(width: try r.length(m["width"]!, "frame.width", min: 1, max: 1000),
                               height: try r.length(m["height"]!, "frame.height", min: 1, max: 1000))
            }
        }

        var hitArea = HitAreaSpec.frame
        if let h = top["hitArea"] {
            if case let .string(s) = h.value {
                switch s {
                case "frame": hitArea = .frame
                case "row": hitArea = .row
                default: throw r.error("hitArea", h, "expected \"frame\", \"row\" or {\"width\", \"height\"}, found \"\(s)\"" + Suggest.didYouMean(s, in: ["frame", "row"]))
                }
            } else {
                let m = try r.object(h, "hitArea", allowed: ["width", "height"], required: ["width", "height"])
                hitArea = .fixed(width: try r.length(m["width"]!, "hitArea.width", min: 1, max: 1000),
                                 height: try r.length(m["height"]!, "hitArea.height", min: 1, max: 1000))
            }
        }
        let targetSpacing = try top["targetSpacing"].map { n throws(InputError) in try r.length(n, "targetSpacing", max: 1000) }

        var label: LabelSpec?
        if let l = top["label"] { label = try parseLabel(l) }

        let allowedStates = ControlState.allowed(for: control)
        var states: [ControlState] = []
        let stateNode = top["states"]!
        for (i, item) in try r.array(stateNode, "states").enumerated() {
            let st = try r.choice(item, "states[\(i)]", ControlState.self)
            guard allowedStates.contains(st) else {
                throw r.error("states[\(i)]", item, "a \(control.rawValue) has the states \(allowedStates.map(\.rawValue).joined(separator: ", "))")
            }
            if states.contains(st) { throw r.error("states[\(i)]", item, "\"\(st.rawValue)\" is listed twice") }
            states.append(st)
        }
        if states.isEmpty { throw r.error("states", stateNode, "the state list is empty; give at least one state") }

        var appearance: [ControlState: StateAppearance] = [:]
        var switchMarks: [ControlState: SwitchMarks] = [:]
        if let a = top["appearance"], control == .switch, images == nil {
            switchMarks = try parseSwitchMarks(a, states: states)
        } else if let a = top["appearance"] {
            guard control == .checkbox, images == nil else {
                throw r.error("appearance", a, "appearance is for drawn checkboxes and drawn switches (not image checkboxes or image switches)")
            }
            for (key, node) in try r.map(a, "appearance") {
                let p = "appearance.\(key)"
                guard let st = ControlState(rawValue: key), states.contains(st) else {
                    throw r.error(p, node, SpecReader.unknown("state", key, valid: states.map(\.rawValue), listed: "this spec's states:"))
                }
                let m = try r.object(node, p, allowed: ["ring", "fill", "mark"])
                let d = StateAppearance.default(st)
                appearance[st] = StateAppearance(
                    ring: try m["ring"].map { n throws(InputError) in try r.bool(n, p + ".ring") } ?? d.ring,
                    fill: try m["fill"].map { n throws(InputError) in try r.bool(n, p + ".fill") } ?? d.fill,
                    marks: try m["mark"].map { n throws(InputError) in try marks(n, p + ".mark") } ?? d.marks)
            }
        }

        if images == nil, let a = top["assets"], !loadedMarkImages {
            throw r.error("assets", a, "assets are folders images come from; this spec has no \"images\" and no image marks")
        }
        if let loader = imageLoader, images == nil {
            for w in loader.warnings { r.warn(w.key, w.node, w.message) }
        }
        var onOffLabels = false
        if let o = top["onOffLabels"] {
            onOffLabels = try r.bool(o, "onOffLabels")
            guard control == .switch, images == nil else {
                throw r.error("onOffLabels", o, "On/Off Labels are drawn on a switch's track (a drawn switch, not \(images == nil ? "a checkbox" : "an image control"))")
            }
        }

        var focus: FocusSpec?
        if let n = top["focus"] { focus = try FocusSpec.parse(n, reader: &r) }
        let themes = try parseThemes(top["themes"]!, control: control, states: states, label: label != nil,
                                     images: images, appearance: appearance, sizes: sizes, switchMarks: switchMarks,
                                     onOffLabels: onOffLabels ? top["onOffLabels"] : nil, focus: focus.map { ($0, top["focus"]!) })

        var scales = [1, 2, 3]
        if let s = top["scales"] {
            scales = []
            for (i, item) in try r.array(s, "scales").enumerated() {
                guard case let .number(v) = item.value, v == v.rounded(), (1...4).contains(v) else {
                    throw r.error("scales[\(i)]", item, "a display scale is 1, 2, 3 or 4")
                }
                if !scales.contains(Int(v)) { scales.append(Int(v)) }
            }
            if scales.isEmpty { throw r.error("scales", s, "the scale list is empty") }
        }
        for w in imageLoader?.scaleWarnings(scales: scales, themes: themes) ?? [] { r.warn(w.key, w.node, w.message) }
        var dts = DynamicTypeSize.allCases
        if let d = top["dynamicTypeSizes"] {
            dts = []
            for (i, item) in try r.array(d, "dynamicTypeSizes").enumerated() {
                let s = try r.string(item, "dynamicTypeSizes[\(i)]")
                guard let dt = DynamicTypeSize(name: s) else {
                    throw r.error("dynamicTypeSizes[\(i)]", item, SpecReader.unknown("Dynamic Type size", s, valid: DynamicTypeSize.allCases.map(\.rawValue)))
                }
                if !dts.contains(dt) { dts.append(dt) }
            }
            dts.sort()
            if dts.isEmpty { throw r.error("dynamicTypeSizes", d, "the Dynamic Type size list is empty") }
        }

        var spec = Spec(name: name, description: description, control: control,
                    shapes: control == .switch ? [.square] : shapes, sizes: sizes,
                    glyphTextStyle: glyphTextStyle, glyphScales: glyphScales, frame: frame, hitArea: hitArea,
                    targetSpacing: targetSpacing, label: label, states: states, appearance: appearance, images: images,
                    themes: themes, scales: scales, dynamicTypeSizes: dts, sourceFile: source.displayName(path),
                    tokenFile: tokenFile, lines: r.lines, warnings: r.warnings, switchMarks: switchMarks, onOffLabels: onOffLabels, focus: focus)
        if let m = top["mirrorsInRightToLeft"] { spec.mirrorsInRightToLeft = try r.bool(m, "mirrorsInRightToLeft") }
        if let node = top["settings"] {
            // Each setting's spec: this spec's JSON with its patch merged in, read again like it.
            let base = SpecBase(spec)
            for (setting, patch) in try SettingsLoader.parse(node, reader: &r, control: control, imageBased: images != nil) {
                var parser = SpecParser(path: path, source: source, images: self.images)
                var derived: Spec
                do { derived = try parser.parse(SettingsLoader.derivedRoot(root, setting: setting, patch: patch)) } catch {
                    throw SettingsLoader.located(error, setting: setting, arrayForm: node.value.isArray)
                }
                derived.warnings = derived.warnings.filter { !spec.warnings.contains($0) }
                derived.settingBase = base
                spec.warnings += derived.warnings
                spec.settings.append(setting)
                spec.settingSpecs[setting] = derived
            }
        }
        return spec
    }

    /// A drawn switch's `appearance`: per state `{"trackMark": marks, "knobMark": marks}`, each in
    /// the mark grammar of a checkbox (a kind, a mark object or an array of them).
    mutating func parseSwitchMarks(_ node: JSONNode, states: [ControlState]) throws(InputError) -> [ControlState: SwitchMarks] {
        var out: [ControlState: SwitchMarks] = [:]
        for (key, n) in try r.map(node, "appearance") {
            let p = "appearance.\(key)"
            guard let st = ControlState(rawValue: key), states.contains(st) else {
                throw r.error(p, n, "unknown state \"\(key)\"; this spec's states: \(states.map(\.rawValue).joined(separator: ", "))")
            }
            let m = try r.object(n, p, allowed: ["trackMark", "knobMark"])
            out[st] = SwitchMarks(track: try m["trackMark"].map { x throws(InputError) in try marks(x, p + ".trackMark") } ?? [],
                                  knob: try m["knobMark"].map { x throws(InputError) in try marks(x, p + ".knobMark") } ?? [])
        }
        return out
    }

    /// A resolver document and the token files it names (relative to it, read as `tokens` is read).
    func loadResolver(_ path: String, _ root: JSONNode, format: TokenSet.Format) throws(InputError) -> TokenResolver {
        let shown = source.displayName(path)
        return try TokenResolver(file: shown, root: root, format: format) { ref, node, key throws(InputError) in
            let file = source.resolve(ref, from: path)
            let data: Data
            do throws(InputFile.Failure) { data = try source.read(file, limit: Limits.jsonFileBytes, what: "token file") } catch {
                throw InputError(file: shown, keyPath: key, line: node.line, column: node.column,
                                 message: error.missing ? "token file \(source.displayName(file)) not found"
                                                        : "\(source.displayName(file)): \(error.message)")
            }
            do throws(JSONSyntaxError) { return (try JSONReader.parse(data), source.displayName(file)) } catch {
                throw InputError(file: source.displayName(file), line: error.line, column: error.column,
                                 message: "malformed JSON: \(error.message)")
            }
        }
    }

    /// The tokens a theme reads from a resolver file: its `tokensContext` (modifier → context), each
    /// modifier it leaves out in its `default`. Nil when the spec's tokens are not a resolver and the
    /// theme says nothing.
    mutating func contextTokens(_ m: [String: JSONNode], _ p: String, _ n: JSONNode) throws(InputError) -> TokenSet? {
        guard let resolver else {
            if let c = m["tokensContext"] {
                throw r.error("\(p).tokensContext", c, "\"tokensContext\" picks contexts of a DTCG resolver file (*.resolver.json), but "
                              + (r.tokens == nil ? "the spec loads no token file" : "\(r.tokens!.file) is not one"))
            }
            return nil
        }
        for other in ["tokensTheme", "tokenSets"] where m[other] != nil {
            throw r.error("\(p).\(other)", m[other], "\"\(other)\" picks sets of a Tokens Studio file; \(resolver.file) is a resolver: "
                          + "pick its contexts with \"tokensContext\"")
        }
        var chosen: [String: String] = [:]
        if let c = m["tokensContext"] {
            for (name, v) in try r.map(c, "\(p).tokensContext") {
                let k = "\(p).tokensContext.\(name)"
                guard let modifier = resolver.modifiers.first(where: { $0.name == name }) else {
                    throw r.error(k, v, "unknown modifier \"\(name)\"; \(resolver.file) has "
                                  + (resolver.modifiers.isEmpty ? "no modifiers" : resolver.modifiers.map { "\"\($0.name)\"" }.joined(separator: ", ")))
                }
                let context = try r.string(v, k)
                guard modifier.contexts.contains(context) else {
                    throw r.error(k, v, "unknown context \"\(context)\" of modifier \"\(name)\" in \(resolver.file); its contexts: "
                                  + modifier.contexts.map { "\"\($0)\"" }.joined(separator: ", "))
                }
                chosen[name] = context
            }
        }
        var all: [String: String] = [:]
        for modifier in resolver.modifiers {
            guard let c = chosen[modifier.name] ?? modifier.defaultContext else {
                throw r.error(p, n, "modifier \"\(modifier.name)\" of \(resolver.file) has no default; give its context: "
                              + "\"tokensContext\": {\"\(modifier.name)\": " + modifier.contexts.map { "\"\($0)\"" }.joined(separator: " | ") + "}")
            }
            all[modifier.name] = c
        }
        return try resolver.tokens(contexts: all)
    }

    /// The token sets a theme reads: its `tokensTheme` (a Tokens Studio theme of the token file) or
    /// its `tokenSets` (set names); nil for every set.
    mutating func tokenSets(_ m: [String: JSONNode], _ p: String) throws(InputError) -> [String]? {
        guard m["tokensTheme"] != nil || m["tokenSets"] != nil else { return nil }
        let key = m["tokensTheme"] != nil ? "tokensTheme" : "tokenSets"
        let node = m[key]!
        if m["tokensTheme"] != nil, let other = m["tokenSets"] {
            throw r.error("\(p).tokenSets", other, "give either \"tokensTheme\" or \"tokenSets\", not both")
        }
        guard let tokens = r.tokens, tokens.format == .tokensStudio, !tokens.sets.isEmpty else {
            throw r.error("\(p).\(key)", node, "\"\(key)\" picks token sets of a Tokens Studio file (one with \"$themes\" or "
                          + "\"$metadata\"), but " + (r.tokens == nil ? "the spec loads no token file" : "\(r.tokens!.file) has no token sets"))
        }
        if key == "tokensTheme" {
            let name = try r.string(node, "\(p).tokensTheme")
            let hits = tokens.studioThemes.filter { $0.fullName == name || $0.name == name }
            guard hits.count == 1 else {
                let known = tokens.studioThemes.map { "\"\($0.fullName)\"" }
                throw r.error("\(p).tokensTheme", node, hits.isEmpty
                    ? "no Tokens Studio theme \"\(name)\" in \(tokens.file); " + (known.isEmpty ? "it has no $themes" : "its themes: \(known.joined(separator: ", "))")
                    : "\"\(name)\" names \(hits.count) themes in \(tokens.file) (in different groups); write it as group/name: "
                        + hits.map { "\"\($0.fullName)\"" }.joined(separator: ", "))
            }
            return hits[0].sets
        }
        var names: [String] = []
        for (i, item) in try r.array(node, "\(p).tokenSets").enumerated() {
            let set = try r.string(item, "\(p).tokenSets[\(i)]")
            guard tokens.sets.contains(set) else {
                throw r.error("\(p).tokenSets[\(i)]", item, "no token set \"\(set)\" in \(tokens.file); its sets: "
                              + tokens.sets.map { "\"\($0)\"" }.joined(separator: ", "))
            }
            names.append(set)
        }
        if names.isEmpty { throw r.error("\(p).tokenSets", node, "the set list is empty") }
        return names
    }

    /// The `images` keys of a three-state image checkbox, refused for an image switch.
    static let checkboxOnlyImageKeys = ["clear", "threeState", "useOffImageForClear"]

    /// A state's marks: `"none"`, `"check"`, `"dash"`, `"dot"`, a mark object, or an array of them.
    mutating func marks(_ node: JSONNode, _ p: String) throws(InputError) -> [MarkSpec] {
        switch node.value {
        case .string:
            let kind = try r.choice(node, p, MarkKind.self)
            if kind == .path { throw r.error(p, node, "a path mark is an object: {\"kind\": \"path\", \"d\": \"…\"}") }
            if kind == .image { throw r.error(p, node, "an image mark is an object: {\"kind\": \"image\", \"image\": \"images/tick.svg\"}") }
            return kind == .none ? [] : [MarkSpec(kind: kind)]
        case .array(let items):
            var out: [MarkSpec] = []
            for (i, item) in items.enumerated() { out += try marks(item, "\(p)[\(i)]") }
            return out
        case .object:
            var mark = try markObject(node, p)
            mark.keyPath = p
            return [mark]
        default:
            throw r.error(p, node, "expected a mark (\"none\", \"check\", \"dash\", \"dot\"), a mark object or an array of them, found \(node.typeName)")
        }
    }

    /// `{"kind": …, "color": role, "size": length or "75%", "d", "viewBox", "stroke", "lineCap", "lineJoin"}`.
    mutating func markObject(_ node: JSONNode, _ p: String) throws(InputError) -> MarkSpec {
        let m = try r.object(node, p, allowed: ["kind", "color", "size", "d", "viewBox", "stroke", "lineCap", "lineJoin", "image", "template"],
                             required: ["kind"])
        let kind = try r.choice(m["kind"]!, p + ".kind", MarkKind.self)
        if kind == .none { throw r.error(p + ".kind", m["kind"], "a mark object draws something; leave the mark out (or write \"none\") for no mark") }
        let pathKeys = ["d", "viewBox", "stroke", "lineCap", "lineJoin"]
        if kind != .path, let k = pathKeys.first(where: { m[$0] != nil }) {
            throw r.error("\(p).\(k)", m[k], "\"\(k)\" is for a path mark (\"kind\": \"path\")")
        }
        if kind != .image, let k = ["image", "template"].first(where: { m[$0] != nil }) {
            throw r.error("\(p).\(k)", m[k], "\"\(k)\" is for an image mark (\"kind\": \"image\")")
        }
        var spec = MarkSpec(kind: kind)
        if let c = m["color"] { spec.role = try r.choice(c, p + ".color", ColorRole.self) }
        if let n = m["size"] {
            if case .string(let text) = n.value, text.hasSuffix("%") {
                guard let f = Double(text.dropLast()), f.isFinite, f > 0, f <= 100 else {
                    throw r.error(p + ".size", n, "a percentage of the box, more than 0% and at most 100%, e.g. \"75%\"")
                }
                spec.size = .fraction(f / 100)
            } else {
                spec.size = .points(try r.length(n, p + ".size", min: 0, max: 1000))
            }
        }
        if kind == .image { return try imageMark(spec, m, node, p) }
        guard kind == .path else { return spec }
        guard let dn = m["d"] else { throw r.error(p, node, "a path mark needs \"d\", its SVG path data") }
        let d = try r.string(dn, p + ".d")
        let data: PathData
        do { data = try PathData(parsing: d) } catch {
            throw r.error(p + ".d", dn, "the path data does not parse at character \(error.offset): \(error.message)")
        }
        var viewBox: Rect?
        if let vb = m["viewBox"] {
            var numbers: [Double] = []
            switch vb.value {
            case .string(let t):
                let parts = t.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" })
                numbers = parts.compactMap { Double($0) }.filter(\.isFinite)
                if numbers.count != parts.count { numbers = [] }
            case .array(let items):
                for item in items { if case .number(let x) = item.value { numbers.append(x) } }
                if numbers.count != items.count { numbers = [] }
            default: break
            }
            guard numbers.count == 4, numbers[2] > 0, numbers[3] > 0, numbers.allSatisfy({ abs($0) <= 1e6 }) else {
                throw r.error(p + ".viewBox", vb, "a viewBox is four numbers, \"minX minY width height\", with a positive width and height (e.g. \"0 0 20 20\")")
            }
            viewBox = Rect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
        }
        let stroke = try m["stroke"].map { n throws(InputError) in try r.length(n, p + ".stroke", min: 0, max: 1e6) }
        let cap = try m["lineCap"].map { n throws(InputError) in try r.choice(n, p + ".lineCap", MarkPath.LineCap.self) } ?? .butt
        let join = try m["lineJoin"].map { n throws(InputError) in try r.choice(n, p + ".lineJoin", MarkPath.LineJoin.self) } ?? .miter
        guard let viewBox else { throw r.error(p, node, "a path mark needs \"viewBox\", the grid its path data is drawn on (e.g. \"0 0 20 20\")") }
        spec.path = MarkPath(d: d, data: data, viewBox: viewBox, stroke: stroke, lineCap: cap, lineJoin: join)
        return spec
    }

    /// An image mark's `image` (SVG, PDF, PNG or an image set, from the spec's folder or its `assets`)
    /// and `template` (default: the image set's template-rendering-intent, else true).
    mutating func imageMark(_ mark: MarkSpec, _ m: [String: JSONNode], _ node: JSONNode, _ p: String) throws(InputError) -> MarkSpec {
        guard let n = m["image"] else {
            throw r.error(p, node, "an image mark needs \"image\", the SVG, PDF or PNG file (or asset catalog image set) it draws")
        }
        let written = try r.string(n, p + ".image")
        if imageLoader == nil {
            imageLoader = ImageLoader(specPath: path, source: source, reader: images, roots: try parseAssetRoots(assetsNode))
        }
        let image = try imageLoader!.load(written, key: p + ".image", node: n)
        if image.isEmpty {
            throw r.error(p + ".image", n, "\(image.path) has no size (0 × 0): an image mark is fitted into its square by its aspect ratio")
        }
        loadedMarkImages = true
        var spec = mark
        spec.image = image
        let explicit = try m["template"].map { t throws(InputError) in try r.bool(t, p + ".template") }
        spec.template = explicit ?? (image as? ImageAsset)?.templateIntent ?? true
        if !spec.template, let c = m["color"] {
            throw r.error(p + ".color", c, "\"color\" paints a template image mark; this one (\"template\": false) is drawn in its own colours")
        }
        return spec
    }

    mutating func parseSizes(_ node: JSONNode, control: ControlKind, imageBased: Bool) throws(InputError) -> [SizeSpec] {
        var sizes: [SizeSpec] = []
        let entries = try r.map(node, "sizes")
        if entries.isEmpty { throw r.error("sizes", node, "no sizes; give at least one, e.g. {\"md\": {\"size\": 20}}") }
        for (name, n) in entries {
            let p = "sizes.\(name)"
            try r.fileName(name, p, n, what: "a size name", dash: false)
            func len(_ m: [String: JSONNode], _ k: String, _ def: Double?, min: Double = 0) throws(InputError) -> Double {
                if let v = m[k] { return try r.length(v, "\(p).\(k)", min: min, max: 1000) }
                if let def { return def }
                throw r.error(p, n, "missing required key \"\(k)\"")
            }
            if control == .switch, imageBased {
                // An image switch (toggle icons): the image's box, `size` square as for an image
                // checkbox, or `width` × `height` for a wide toggle image. No track or knob.
                let m = try r.object(n, p, allowed: ["size", "width", "height"])
                let w: Double, h: Double
                if let s = m["size"] {
                    if let extra = ["width", "height"].first(where: { m[$0] != nil }) {
                        throw r.error("\(p).\(extra)", m[extra], "give either \"size\" (a square image box) or \"width\" and \"height\", not both")
                    }
                    w = try r.length(s, "\(p).size", min: 1, max: 1000)
                    h = w
                } else if m["width"] != nil || m["height"] != nil {
                    w = try len(m, "width", nil, min: 1)
                    h = try len(m, "height", nil, min: 1)
                } else {
                    throw r.error(p, n, "missing required key \"size\" (the image box of an image switch; or \"width\" and \"height\")")
                }
                sizes.append(SizeSpec(name: name, size: h, cornerRadius: 0, borderWidth: 0, markSize: 0, markWeight: 0,
                                      trackWidth: w, trackHeight: h, knobDiameter: 0, knobInset: 0))
            } else if control == .switch {
                let m = try r.object(n, p, allowed: ["trackWidth", "trackHeight", "knobDiameter", "knobInset", "borderWidth",
                                                     "knobBorderWidth", "markWeight"])
                let tw = try len(m, "trackWidth", nil, min: 1)
                let th = try len(m, "trackHeight", nil, min: 1)
                /// A length, or one per state: `{"off": L, "on": L}` (both required).
                func perState(_ k: String, _ def: (off: Double, on: Double), min: Double = 0) throws(InputError) -> (off: Double, on: Double) {
                    guard let v = m[k] else { return def }
                    if case let .object(members) = v.value, members.contains(where: { $0.0 == "off" || $0.0 == "on" }) {
                        let o = try r.object(v, "\(p).\(k)", allowed: ["off", "on"], required: ["off", "on"])
                        return (try r.length(o["off"]!, "\(p).\(k).off", min: min, max: 1000),
                                try r.length(o["on"]!, "\(p).\(k).on", min: min, max: 1000))
                    }
                    let x = try r.length(v, "\(p).\(k)", min: min, max: 1000)
                    return (x, x)
                }
                let inset = try perState("knobInset", (2, 2))
                let knob = try perState("knobDiameter", (max(1, th - 2 * inset.off), max(1, th - 2 * inset.on)), min: 1)
                let border = try perState("borderWidth", (0, 0))
                let knobBorder = try perState("knobBorderWidth", (0, 0))
                let weight = try m["markWeight"].map { v throws(InputError) in try r.length(v, "\(p).markWeight", min: 0, max: 1000) } ?? 0
                /// The key (or its `off` / `on` member) a state's value of `k` was written at.
                func key(_ k: String, _ on: Bool) -> (String, JSONNode?) {
                    if case let .object(members) = m[k]?.value, let hit = members.first(where: { $0.0 == (on ? "on" : "off") }) {
                        return ("\(p).\(k).\(on ? "on" : "off")", hit.1)
                    }
                    return m[k] != nil ? ("\(p).\(k)", m[k]) : (p, n)
                }
                for on in [false, true] {
                    let d = on ? knob.on : knob.off, i = on ? inset.on : inset.off
                    let state = on ? "on" : "off"
                    if d + 2 * i > tw {
                        let (k, node) = key(m["knobDiameter"] != nil ? "knobDiameter" : "knobInset", on)
                        throw r.error(k, node, "the knob (\(Format.number(d)) pt with \(Format.number(i)) pt inset, \(state)) is longer "
                                      + "than the \(Format.number(tw)) × \(Format.number(th)) pt track leaves room for")
                    }
                    let b = on ? border.on : border.off
                    if b * 2 > th {
                        let (k, node) = key("borderWidth", on)
                        throw r.error(k, node, "the border (\(Format.number(b)) pt, \(state)) fills the whole \(Format.number(th)) pt track")
                    }
                    let kb = on ? knobBorder.on : knobBorder.off
                    if kb * 2 > d {
                        let (k, node) = key("knobBorderWidth", on)
                        throw r.error(k, node, "the knob border (\(Format.number(kb)) pt, \(state)) fills the whole \(Format.number(d)) pt knob")
                    }
                }
                var size = SizeSpec(name: name, size: th, cornerRadius: th / 2, borderWidth: border.off,
                                    markSize: 0, markWeight: weight, trackWidth: tw, trackHeight: th, knobDiameter: knob.off, knobInset: inset.off)
                if knob.on != knob.off { size.knobDiameterOn = knob.on }
                if inset.on != inset.off { size.knobInsetOn = inset.on }
                if border.on != border.off { size.borderWidthOn = border.on }
                size.knobBorderWidth = knobBorder.off
                if knobBorder.on != knobBorder.off { size.knobBorderWidthOn = knobBorder.on }
                sizes.append(size)
            } else {
                let allowed = imageBased ? ["size"] : ["size", "cornerRadius", "borderWidth", "markSize", "markWeight"]
                let m = try r.object(n, p, allowed: allowed + (imageBased ? [] : ["tickSize", "dashSize", "dotSize"]), required: ["size"])
                let size = try len(m, "size", nil, min: 1)
                let mark = try len(m, "markSize", size * 0.6, min: 0)
                /// A mark's own side, if the size gives it; no larger than the box.
                func side(_ k: String) throws(InputError) -> Double? {
                    guard let v = m[k] else { return nil }
                    let x = try r.length(v, "\(p).\(k)", min: 0, max: 1000)
                    if x > size { throw r.error("\(p).\(k)", v, "the mark (\(x) pt) is larger than the box (\(size) pt)") }
                    return x
                }
                let tick = try side("tickSize"), dash = try side("dashSize"), dot = try side("dotSize")
                let radius = try len(m, "cornerRadius", size * 0.2)
                let border = try len(m, "borderWidth", imageBased ? 0 : 1.5)
                if mark > size { throw r.error("\(p).markSize", m["markSize"], "the mark (\(mark) pt) is larger than the box (\(size) pt)") }
                if border * 2 > size { throw r.error("\(p).borderWidth", m["borderWidth"], "the border (\(border) pt) fills the whole box") }
                sizes.append(SizeSpec(name: name, size: size, cornerRadius: min(radius, size / 2), borderWidth: border,
                                      markSize: mark, markWeight: try len(m, "markWeight", mark * 0.16, min: 0),
                                      trackWidth: 0, trackHeight: 0, knobDiameter: 0, knobInset: 0,
                                      tickSize: tick, dashSize: dash, dotSize: dot))
            }
        }
        return sizes
    }

    mutating func parseLabel(_ node: JSONNode) throws(InputError) -> LabelSpec {
        let m = try r.object(node, "label", allowed: ["text", "textStyle", "size", "spacing", "maxWidth", "position"], required: ["text"])
        let text = try r.text(m["text"]!, "label.text")
        if text.isEmpty { throw r.error("label.text", m["text"], "the label text is empty (leave out \"label\" for no label)") }
        return LabelSpec(
            text: text,
            textStyle: try m["textStyle"].map { n throws(InputError) in try r.choice(n, "label.textStyle", TextStyle.self) } ?? .body,
            size: try m["size"].map { n throws(InputError) in try r.length(n, "label.size", min: 1, max: 500) },
            spacing: try m["spacing"].map { n throws(InputError) in try r.length(n, "label.spacing", max: 500) } ?? 8,
            maxWidth: try m["maxWidth"].map { n throws(InputError) in try r.length(n, "label.maxWidth", min: 1, max: 4000) },
            position: try m["position"].map { n throws(InputError) in try r.choice(n, "label.position", LabelPosition.self) } ?? .trailing)
    }

    /// `assets`: a folder or a list of folders (relative to the spec) its images may come from too.
    mutating func parseAssetRoots(_ node: JSONNode?) throws(InputError) -> [String] {
        guard let node else { return [] }
        var items: [(String, JSONNode)] = []
        if case .array = node.value {
            for (i, item) in try r.array(node, "assets").enumerated() { items.append(("assets[\(i)]", item)) }
            if items.isEmpty { throw r.error("assets", node, "the list of asset folders is empty (leave out \"assets\" for none)") }
        } else {
            items = [("assets", node)]
        }
        var roots: [String] = []
        for (key, item) in items {
            let rel = try r.string(item, key)
            let folder = source.resolve(rel, from: path)
            guard source.isFolder(folder) else {
                throw r.error(key, item, "no folder \(source.displayName(folder)) (asset roots are folders, relative to the spec)")
            }
            if !roots.contains(folder) { roots.append(folder) }
        }
        return roots
    }

    mutating func parseImages(_ node: JSONNode, roots: [String]) throws(InputError) -> ImageSetSpec {
        let m = try r.object(node, "images", allowed: ["on", "off", "clear", "template", "threeState", "useOffImageForClear",
                                                       "contentMode"],
                             required: ["on", "off"])
        var loader = ImageLoader(specPath: path, source: source, reader: images, roots: roots)
        func image(_ key: String) throws(InputError) -> (any VectorImage)? {
            guard let n = m[key] else { return nil }
            return try loader.load(try r.string(n, "images.\(key)"), key: "images.\(key)", node: n)
        }
        let on = try image("on")!, off = try image("off")!, clear = try image("clear")
        let explicit = try m["template"].map { n throws(InputError) in try r.bool(n, "images.template") }
        let intent = try loader.templateIntent(explicit: explicit)
        for w in loader.warnings + intent.warnings { r.warn(w.key, w.node, w.message) }
        imageLoader = loader
        return ImageSetSpec(
            on: on, off: off, clear: clear,
            template: intent.template ?? true,
            threeState: try m["threeState"].map { n throws(InputError) in try r.bool(n, "images.threeState") } ?? false,
            useOffImageForClear: try m["useOffImageForClear"].map { n throws(InputError) in try r.bool(n, "images.useOffImageForClear") } ?? true,
            contentMode: try m["contentMode"].map { n throws(InputError) in try r.choice(n, "images.contentMode", ImageContentMode.self) }
                ?? .aspectFit)
    }

    mutating func parseThemes(_ node: JSONNode, control: ControlKind, states: [ControlState], label: Bool,
                              images: ImageSetSpec?, appearance: [ControlState: StateAppearance],
                              sizes: [SizeSpec], switchMarks: [ControlState: SwitchMarks] = [:],
                              onOffLabels: JSONNode? = nil, focus: (FocusSpec, JSONNode)? = nil) throws(InputError) -> [ThemeSpec] {
        // A switch track with a ring needs its colour (drawn in every state); an image switch has no track.
        let drawnSwitch = control == .switch && images == nil
        let ringedTrack = drawnSwitch ? sizes.first { s in states.contains { s.borderWidth($0) > 0 } } : nil
        let ringedKnob = drawnSwitch ? sizes.first { s in states.contains { s.knobBorderWidth($0) > 0 } } : nil
        var themes: [ThemeSpec] = []
        let entries = try r.map(node, "themes")
        if entries.isEmpty { throw r.error("themes", node, "no themes; give at least \"default\"") }
        let roleNames = ColorRole.allCases.map(\.rawValue)
        for (name, n) in entries {
            let p = "themes.\(name)"
            try r.fileName(name, p, n, what: "a theme name")
            let m = try r.object(n, p, allowed: roleNames + ["states", "imageOpacity", "appearance", "tokensTheme", "tokenSets", "tokensContext"],
                                 required: ["surface"])
            // Its colours from a resolver's contexts, a Tokens Studio theme's sets, or sets named here.
            let fileTokens = r.tokens
            defer { r.tokens = fileTokens }
            if let resolved = try contextTokens(m, p, n) {
                r.tokens = resolved
            } else if let sets = try tokenSets(m, p) {
                r.tokens = fileTokens?.reading(sets: sets)
            }
            var colors: [ColorRole: AuthoredColor] = [:]
            for role in ColorRole.allCases {
                if let c = m[role.rawValue] { colors[role] = try r.color(c, "\(p).\(role.rawValue)") }
            }
            var stateColors: [ControlState: [ColorRole: AuthoredColor]] = [:]
            if let s = m["states"] {
                for (key, sn) in try r.map(s, "\(p).states") {
                    let sp = "\(p).states.\(key)"
                    guard let st = ControlState(rawValue: key), states.contains(st) else {
                        throw r.error(sp, sn, SpecReader.unknown("state", key, valid: states.map(\.rawValue), listed: "this spec's states:"))
                    }
                    let sm = try r.object(sn, sp, allowed: roleNames.filter { $0 != "surface" })
                    var overrides: [ColorRole: AuthoredColor] = [:]
                    for role in ColorRole.allCases {
                        if let c = sm[role.rawValue] { overrides[role] = try r.color(c, "\(sp).\(role.rawValue)") }
                    }
                    stateColors[st] = overrides
                }
            }
            var opacity = 1.0
            if let o = m["imageOpacity"] {
                guard case let .number(v) = o.value, (0...1).contains(v) else {
                    throw r.error("\(p).imageOpacity", o, "expected a number in 0…1")
                }
                opacity = v
            }
            if let o = onOffLabels {
                // iOS's label colours where the theme gives none (Flutter's CupertinoSwitch: white on, #B3B3B3 off).
                for (role, hex) in [(ColorRole.onLabel, "#FFFFFF"), (.offLabel, "#B3B3B3")] where colors[role] == nil {
                    colors[role] = AuthoredColor(
                        rgba: RGBA(hex: hex)!, line: o.line,
                        note: "iOS's \(role == .onLabel ? "on" : "off") label colour \(hex) as Flutter's CupertinoSwitch draws it "
                            + "(Apple publishes none); \(p).\(role.rawValue) sets it",
                        keyPath: "onOffLabels")
                }
            }
            var theme = ThemeSpec(name: name, colors: colors, stateColors: stateColors, imageOpacity: opacity)
            theme.appearance = try m["appearance"].map { a throws(InputError) in try r.choice(a, "\(p).appearance", ThemeAppearance.self) }
            if let (f, n) = focus, f.paint == .role(.focus), theme.colors[.focus] == nil {
                theme.colors[.focus] = FocusSpec.defaultRoleColor(dark: theme.isDark, line: n.line, theme: p)
            }
            // Every colour the states need must be there.
            var needed: Set<ColorRole> = label ? [.label] : []
            if let (f, _) = focus, case let .role(role) = f.paint { needed.insert(role) }
            for st in states {
                if let images {
                    // An image checkbox or image switch: the tint of template images, nothing else.
                    if images.template { needed.insert(.tint) }
                } else if control == .switch {
                    needed.formUnion([.knob, st == .on ? .trackOn : .trackOff])
                    if ringedTrack != nil { needed.insert(.border) }
                    if ringedKnob != nil { needed.insert(.knobBorder) }
                    for mark in (switchMarks[st]?.track ?? []) + (switchMarks[st]?.knob ?? []) { needed.insert(mark.role) }
                } else {
                    let a = appearance[st] ?? .default(st)
                    if a.ring { needed.insert(.border) }
                    if a.fill { needed.insert(.fill) }
                    for mark in a.marks where mark.usesRole { needed.insert(mark.role) }
                }
            }
            for role in ColorRole.allCases where needed.contains(role) {
                let everyState = states.allSatisfy { theme.color(role, state: $0) != nil }
                if !everyState {
                    if role == .border, let ringed = ringedTrack {
                        throw r.error(p, n, "missing colour \"border\" (sizes.\(ringed.name).borderWidth is "
                                      + "\(Format.number(max(ringed.borderWidth(.off), ringed.borderWidth(.on)))) pt: the track has a ring in that colour)")
                    }
                    if role == .knobBorder, let ringed = ringedKnob {
                        throw r.error(p, n, "missing colour \"knobBorder\" (sizes.\(ringed.name).knobBorderWidth is "
                                      + "\(Format.number(max(ringed.knobBorderWidth(.off), ringed.knobBorderWidth(.on)))) pt: the knob has a ring in that colour)")
                    }
                    throw r.error(p, n, "missing colour \"\(role.rawValue)\" (this control draws it)")
                }
            }
            themes.append(theme)
        }
        return themes
    }
}
