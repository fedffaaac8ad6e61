import Foundation

/// The assets compiled into the tool (see scripts/embed-assets), read like files under `Assets/`.
public struct BuiltinSource: AssetSource {
    public init() {}
    public func data(at path: String) -> Data? { EmbeddedAssets.files[path].map { Data($0.utf8) } }
    public func fileURL(at path: String) -> URL? { nil }
    public func displayName(_ path: String) -> String { path }
    public func resolve(_ relative: String, from: String) -> String {
        var parts = from.split(separator: "/").dropLast().map(String.init)
        for part in relative.split(separator: "/") {
            if part == ".." { _ = parts.popLast() } else if part != "." { parts.append(String(part)) }
        }
        return parts.joined(separator: "/")
    }
    /// The built-in presets share `Assets/images`: the tool's own files, not confined to a folder.
    public func escape(_ path: String, folders: [String]) -> PathEscape? { nil }
}

/// The four built-in presets, one per seed document.
public enum Presets {
    public static let names = ["swiftui-checkbox", "swiftui-switch", "design-system-checkbox", "rvs-checkbox"]

    public static func path(_ name: String) -> String { "Assets/presets/\(name).json" }

    /// The preset's spec file as shipped.
    public static func source(_ name: String) -> String? { EmbeddedAssets.files[path(name)] }

    public static func load(_ name: String, images: any VectorImageReader) throws(InputError) -> Spec {
        guard names.contains(name) else {
            throw InputError(file: "--preset", message: "unknown preset \"\(name)\"; built-in presets: \(names.joined(separator: ", "))")
        }
        return try Spec.load(path: path(name), source: BuiltinSource(), images: images)
    }
}

/// A built-in preset written out as a folder of its own (`presets show NAME --out DIR`).
public struct StandaloneFile: Sendable, Equatable {
    /// Relative to the folder: `NAME.json`, `tokens/…`, `images/…`.
    public var path: String
    public var text: String
}

extension Presets {
    /// The assets a preset's spec reads besides itself (its token file and images), as paths under `Assets/`.
    public static func references(_ name: String) throws(InputError) -> [String] {
        try standaloneEdits(name).files
    }

    /// The preset's spec with the files it reads, ready to be written into one folder: the spec as
    /// `NAME.json`, its token file and images below it at their places under `Assets/` (`tokens/…`,
    /// `images/…`), and the spec's `tokens` and `images` paths rewritten to point at them. Nothing
    /// else in the spec changes (formatting, key order, lines), except that `$schema`, which points
    /// into the repository's docs, is left out. Loaded from that folder, the spec renders exactly
    /// like the preset.
    public static func standalone(_ name: String) throws(InputError) -> [StandaloneFile] {
        let (text, edits, files) = try standaloneEdits(name)
        var bytes = Array(text.utf8)
        for edit in edits.sorted(by: { $0.range.lowerBound > $1.range.lowerBound }) {
            bytes.replaceSubrange(edit.range, with: Array(edit.replacement.utf8))
        }
        var out = [StandaloneFile(path: "\(name).json", text: String(decoding: bytes, as: UTF8.self))]
        for file in files {
            guard let t = EmbeddedAssets.files[file] else {
                throw InputError(file: path(name), message: "the built-in file \(file) is missing from the tool")
            }
            out.append(StandaloneFile(path: String(file.dropFirst("Assets/".count)), text: t))
        }
        return out
    }

    private struct Edit {
        var range: Range<Int>
        var replacement: String
    }

    private static func standaloneEdits(_ name: String) throws(InputError) -> (text: String, edits: [Edit], files: [String]) {
        guard names.contains(name), let text = source(name) else {
            throw InputError(file: "presets show", message: "unknown preset \"\(name)\"; built-in presets: \(names.joined(separator: ", "))")
        }
        let file = path(name)
        let root: JSONNode
        do { root = try JSONReader.parse(Data(text.utf8)) } catch {
            throw InputError(file: file, line: error.line, column: error.column, message: "malformed JSON: \(error.message)")
        }
        let bytes = Array(text.utf8)
        var lineStarts = [0]
        for (i, b) in bytes.enumerated() where b == 0x0A { lineStarts.append(i + 1) }
        /// The byte range of a string node's literal, checked to be the plain quoted `value`.
        func literal(_ node: JSONNode, _ value: String) throws(InputError) -> Range<Int> {
            let start = lineStarts[node.line - 1] + node.column - 1
            let quoted = Array("\"\(value)\"".utf8)
            guard start + quoted.count <= bytes.count, Array(bytes[start..<start + quoted.count]) == quoted else {
                throw InputError(file: file, line: node.line, column: node.column, message: "cannot rewrite this path (it uses escapes)")
            }
            return start..<start + quoted.count
        }
        var edits: [Edit] = []
        var files: [String] = []
        var paths: [JSONNode] = []
        if let t = root["tokens"] { paths.append(t) }
        if let images = root["images"] {
            for key in ["on", "off", "clear"] { if let n = images[key] { paths.append(n) } }
        }
        for node in paths {
            guard case let .string(rel) = node.value else { continue }
            let asset = BuiltinSource().resolve(rel, from: file)
            guard asset.hasPrefix("Assets/") else {
                throw InputError(file: file, line: node.line, message: "\(rel) is outside the built-in assets")
            }
            if !files.contains(asset) { files.append(asset) }
            edits.append(Edit(range: try literal(node, rel), replacement: "\"\(asset.dropFirst("Assets/".count))\""))
        }
        // `$schema` points at ../../docs/spec.schema.json in the repository: drop its line.
        if let schema = root["$schema"], case let .string(value) = schema.value {
            let lineStart = lineStarts[schema.line - 1]
            let lineEnd = schema.line < lineStarts.count ? lineStarts[schema.line] : bytes.count
            let line = String(decoding: bytes[lineStart..<lineEnd], as: UTF8.self)
            if line.trimmingCharacters(in: .whitespacesAndNewlines) == "\"$schema\": \"\(value)\"," {
                edits.append(Edit(range: lineStart..<lineEnd, replacement: ""))
            }
        }
        return (text, edits, files)
    }
}
