import Foundation
import GlyphCore

/// What fed each baseline, kept beside them as `manifest.json` (docs/snapshots.md): per variant the
/// digest of its resolved inputs (`VariantInputs`), the digest of the spec and token keys that fed it
/// and the renderer that drew it, and the audit numbers measured on it (`margins`); per preset the
/// keys with their values; per renderer its components. Written by `check`/`run` with `--record` or
/// `--update`, one variant per line, keys sorted: the same baselines give the same bytes.
public struct SnapshotManifest: Sendable, Equatable {
    public static let fileName = "manifest.json"
    public static let format = 1

    public struct Entry: Sendable, Equatable, Codable {
        /// `VariantInputs.digest`: the scene, the keys' digest and the renderer.
        public var digest: String
        /// `SpecInputs.keysDigest` of the keys that fed the variant.
        public var keys: String
        /// The renderer's id (a key of `renderers`).
        public var renderer: String
        /// The audit numbers measured on the variant (`AuditMargins`), by name; nil when not audited.
        public var margins: AuditNumbers?

        public init(digest: String, keys: String, renderer: String, margins: AuditNumbers? = nil) {
            self.digest = digest
            self.keys = keys
            self.renderer = renderer
            self.margins = margins
        }
    }

    /// Renderer id (the first 12 hex digits of the SHA-256 of its components) → components.
    public var renderers: [String: [String: String]] = [:]
    /// Preset → key path → value (`SpecInputs.keys`), as last written.
    public var keys: [String: [String: String]] = [:]
    /// Variant id → entry.
    public var variants: [String: Entry] = [:]

    public init() {}

    /// The recorded audit numbers looked up by variant id, or nil when no entry records any
    /// (`MarginPolicy.findings(recorded:after:variants:jobs:)`: the entries are read in place).
    public var recordedMargins: (@Sendable (String) -> AuditNumbers?)? {
        guard variants.values.contains(where: { $0.margins != nil }) else { return nil }
        let variants = variants
        return { variants[$0]?.margins }
    }

    /// A renderer's id in the manifest.
    public static func rendererID(_ components: [String: String]) -> String {
        String(SHA256.hex(VariantInputs.rendererText(components)).prefix(12))
    }

    struct File: Codable {
        var about: String?
        var format: Int
        var renderers: [String: [String: String]]
        var keys: [String: [String: String]]
        var variants: [String: Entry]
    }

    static let about = "What fed each baseline in this folder (written by glyphaudit check/run --record / --update; "
        + "see docs/snapshots.md): per variant the digest of its resolved inputs, of the spec and token keys that fed it, "
        + "the renderer that drew it and its audit numbers."

    /// The file's bytes: sorted keys, two-space indent, one variant per line, a final newline.
    public func fileData() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        func q(_ s: String) -> String { String(decoding: try! encoder.encode(s), as: UTF8.self) }
        func num(_ v: Double) -> String { SpecInputs.number(v) }
        var out = "{\n  \"about\" : \(q(Self.about)),\n  \"format\" : \(Self.format),\n"
        func table(_ name: String, _ t: [String: [String: String]], last: Bool) {
            out += "  \(q(name)) : {"
            let outer = t.keys.sorted()
            for (i, k) in outer.enumerated() {
                out += "\n    \(q(k)) : {"
                let inner = t[k]!.keys.sorted()
                for (j, key) in inner.enumerated() {
                    out += "\n      \(q(key)) : \(q(t[k]![key]!))" + (j + 1 < inner.count ? "," : "")
                }
                out += inner.isEmpty ? "}" : "\n    }"
                out += i + 1 < outer.count ? "," : ""
            }
            out += outer.isEmpty ? "}" : "\n  }"
            out += last ? "\n" : ",\n"
        }
        table("keys", keys, last: false)
        table("renderers", renderers, last: false)
        out += "  \"variants\" : {"
        let ids = variants.keys.sorted()
        for (i, id) in ids.enumerated() {
            let e = variants[id]!
            var line = "{\"digest\":\(q(e.digest)),\"keys\":\(q(e.keys))"
            if let m = e.margins {
                line += ",\"margins\":{" + zip(m.names, m.values).map { "\(q($0)):\(num($1))" }.joined(separator: ",") + "}"
            }
            line += ",\"renderer\":\(q(e.renderer))}"
            out += "\n    \(q(id)) : \(line)" + (i + 1 < ids.count ? "," : "")
        }
        out += ids.isEmpty ? "}\n}\n" : "\n  }\n}\n"
        return Data(out.utf8)
    }

    /// Reads `manifest.json` in `folder`: nil when there is none. A file that is not a manifest is
    /// bad input (the message names the file); one of another format counts as none.
    public static func read(in folder: URL) throws(InputError) -> SnapshotManifest? {
        let path = folder.appendingPathComponent(fileName).path
        let data: Data
        do { data = try InputFile.read(path, limit: Limits.manifestFileBytes, what: "snapshot manifest") } catch {
            if error.missing { return nil }
            throw InputError(file: path, message: error.message)
        }
        // The usual case, a strict manifest of this format, by the plain parser; anything else through
        // JSONDecoder, whose errors name what is wrong.
        if let m = parse(data) { return m }
        struct Format: Decodable { var format: Int }
        do {
            guard try JSONDecoder().decode(Format.self, from: data).format == format else { return nil }
            let file = try JSONDecoder().decode(File.self, from: data)
            var m = SnapshotManifest()
            m.renderers = file.renderers
            m.keys = file.keys
            m.variants = file.variants
            return m
        } catch {
            let where_ = (error as? DecodingError).map(Self.describe) ?? "\(error)"
            throw InputError(file: path, message: "not a snapshot manifest: \(where_) (delete it and run glyphaudit check --update)")
        }
    }

    /// A manifest of this format read by `JSONReader` (`JSONDecoder` spent most of its time in the
    /// entries' keyed containers): nil unless every member the format has is there with its type
    /// (unknown members are ignored, as `JSONDecoder` ignores them). A file laid out as `fileData`
    /// writes it has its variant lines read in parallel.
    static func parse(_ data: Data) -> SnapshotManifest? {
        if let m = parseByLines(data) { return m }
        guard let top = try? JSONReader.parse(data), var m = head(top),
              case .object(let variants)? = top["variants"]?.value else { return nil }
        m.variants.reserveCapacity(variants.count)
        var names: [String: String] = [:]
        for (id, e) in variants {
            guard let entry = entry(e, names: &names) else { return nil }
            m.variants[id] = entry
        }
        return m
    }

    /// Everything but the variants, from the parsed file.
    private static func head(_ top: JSONNode) -> SnapshotManifest? {
        guard let format = top["format"]?.number, format == Double(Self.format), top["about"].map({ $0.string != nil }) ?? true,
              let renderers = top["renderers"]?.stringTables, let keys = top["keys"]?.stringTables,
              case .object? = top["variants"]?.value else { return nil }
        var m = SnapshotManifest()
        m.renderers = renderers
        m.keys = keys
        return m
    }

    /// An entry; `names` holds each margin name and renderer id read so far, so that the entries
    /// share one copy of each (a manifest of 51,840 variants repeats a dozen names in each).
    private static func entry(_ e: JSONNode, names: inout [String: String]) -> Entry? {
        guard let digest = e["digest"]?.string, let keys = e["keys"]?.string, let renderer = e["renderer"]?.string else { return nil }
        func shared(_ s: String) -> String {
            if let known = names[s] { return known }
            names[s] = s
            return s
        }
        var margins: AuditNumbers?
        if let value = e["margins"], value.value != .null {
            guard case .object(let members) = value.value else { return nil }
            var pairs: [(String, Double)] = []
            pairs.reserveCapacity(members.count)
            for (name, v) in members {
                guard let n = v.number else { return nil }
                pairs.append((shared(name), n))
            }
            margins = AuditNumbers(pairs: pairs)
        }
        return Entry(digest: digest, keys: keys, renderer: shared(renderer), margins: margins)
    }

    /// The file as `fileData` writes it — its head, then `  "variants" : {`, one variant a line, and
    /// `  }` `}` — with the head read whole and the variant lines in chunks, in parallel (a variant's
    /// line holds no raw newline: JSON escapes them). Nil for any other layout, a duplicate id or
    /// anything the whole read would refuse.
    static func parseByLines(_ data: Data) -> SnapshotManifest? {
        let bytes = [UInt8](data)
        let open = Array("\n  \"variants\" : {\n".utf8), close = Array("\n  }\n}\n".utf8)
        guard bytes.count >= open.count + close.count, bytes.suffix(close.count).elementsEqual(close),
              let start = bytes.firstRange(of: open) else { return nil }
        let bodyStart = start.upperBound, bodyEnd = bytes.count - close.count
        guard bodyStart < bodyEnd, let top = try? JSONReader.parse(Data(bytes[..<start.lowerBound] + Array("\n  \"variants\" : {}\n}\n".utf8))),
              var m = head(top) else { return nil }
        // Where each line of the body starts (memchr: the scan is over the whole file).
        let lineStarts = bytes.withUnsafeBufferPointer { p -> [Int] in
            var starts = [bodyStart]
            starts.reserveCapacity(bytes.count / 256)
            guard let base = p.baseAddress else { return starts }
            var at = bodyStart
            while at < bodyEnd, let hit = memchr(base + at, 0x0A, bodyEnd - at) {
                at = base.distance(to: hit.assumingMemoryBound(to: UInt8.self)) + 1
                starts.append(at)
            }
            return starts
        }
        // At least two chunks per core, each of 256 to 2,048 lines: a chunk's text and tree are
        // transient, a few MB at most (some 20 values a line: far under `Limits.jsonValues`).
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let per = min(2_048, max(256, lineStarts.count / (2 * cores)))
        let chunks = (lineStarts.count + per - 1) / per
        let parts = parallelMap(chunks, jobs: ProcessInfo.processInfo.activeProcessorCount) { c -> [(String, Entry)]? in
            let first = c * per, last = min(lineStarts.count, first + per)
            guard first < last else { return [] }
            let from = lineStarts[first], to = last < lineStarts.count ? lineStarts[last] - 1 : bodyEnd
            var text = bytes[from..<to]
            // Every line but the file's last ends with a comma.
            while let b = text.last, b == 0x20 || b == 0x0A { text = text.dropLast() }
            if text.last == UInt8(ascii: ",") { text = text.dropLast() }
            // The lines as `fileData` writes them, read in place; any other chunk parsed as JSON.
            if let fast = ManifestLines.entries(lineStarts[first..<last], in: bytes, end: text.endIndex) { return fast }
            guard let node = try? JSONReader.parse(Data([UInt8(ascii: "{")] + text + [UInt8(ascii: "}")])),
                  case .object(let members) = node.value else { return nil }
            var out: [(String, Entry)] = []
            out.reserveCapacity(members.count)
            var names: [String: String] = [:]
            for (id, e) in members {
                guard let entry = entry(e, names: &names) else { return nil }
                out.append((id, entry))
            }
            return out
        }
        var total = 0
        m.variants.reserveCapacity(lineStarts.count)
        for part in parts {
            guard let part else { return nil }
            total += part.count
            for (id, entry) in part { m.variants[id] = entry }
        }
        return total == m.variants.count ? m : nil
    }

    static func describe(_ e: DecodingError) -> String {
        func path(_ c: DecodingError.Context) -> String {
            c.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch e {
        case .keyNotFound(let k, let c): return "\(path(c).isEmpty ? "" : path(c) + "."))\(k.stringValue): missing"
        case .typeMismatch(_, let c), .valueNotFound(_, let c):
            return "\(path(c)): wrong type"
        case .dataCorrupted(let c): return c.codingPath.isEmpty ? "not valid JSON" : "\(path(c)): \(c.debugDescription)"
        @unknown default: return "\(e)"
        }
    }

    /// Writes the file atomically; a file that already holds these bytes is left alone.
    public func write(in folder: URL) throws {
        try writeIfChanged(fileData(), to: folder.appendingPathComponent(Self.fileName))
    }
}

/// One variant's inputs in this run: its digest and keys' digest (with the spec's keys).
public struct VariantInput: Sendable {
    public var variant: Variant
    public var digest: String
    public var keysDigest: String
    public var inputs: SpecInputs

    public init(variant: Variant, digest: String, keysDigest: String, inputs: SpecInputs) {
        self.variant = variant
        self.digest = digest
        self.keysDigest = keysDigest
        self.inputs = inputs
    }
}

/// The inputs of a run's variants: each spec's keys computed once, the renderer's text and id.
public final class ManifestInputs: @unchecked Sendable {
    public let renderer: [String: String]
    public let rendererText: String
    public let rendererID: String
    private let lock = NSLock()
    private var specs: [String: SpecInputs] = [:]

    public init(renderer: [String: String]) {
        self.renderer = renderer
        rendererText = VariantInputs.rendererText(renderer)
        rendererID = SnapshotManifest.rendererID(renderer)
    }

    /// The keys of `spec` (computed once per spec name).
    public func inputs(of spec: Spec) -> SpecInputs {
        lock.lock()
        defer { lock.unlock() }
        if let s = specs[spec.name] { return s }
        let s = SpecInputs(spec)
        specs[spec.name] = s
        return s
    }

    /// A planned variant's inputs.
    public func input(_ item: PlannedVariant) -> VariantInput {
        let spec = inputs(of: item.spec)
        let keys = spec.keysDigest(of: item.variant)
        return VariantInput(variant: item.variant, digest: VariantInputs.digest(scene: item.scene, keysDigest: keys, renderer: rendererText),
                            keysDigest: keys, inputs: spec)
    }
}

/// The variant lines of a manifest exactly as `SnapshotManifest.fileData` writes them —
/// `    "<id>" : {"digest":"…","keys":"…","margins":{"<name>":<number>,…},"renderer":"…"},` with
/// `margins` optional — read in place, without a JSON tree. Strings without escapes or control
/// characters, numbers in JSON's syntax, no name twice: whatever else a line holds (JSON that
/// another writer laid out differently, or that the JSON reader refuses) is left to the JSON reader.
enum ManifestLines {
    /// The entries of the lines starting at `starts` (the last ending at `end`, its comma excluded),
    /// or nil when one is not of that exact form.
    static func entries(_ starts: ArraySlice<Int>, in bytes: [UInt8], end: Int) -> [(String, SnapshotManifest.Entry)]? {
        bytes.withUnsafeBufferPointer { p in
            var out: [(String, SnapshotManifest.Entry)] = []
            out.reserveCapacity(starts.count)
            var names = Names()
            for k in starts.indices {
                // A line ends before its comma and newline.
                let lineEnd = k + 1 < starts.endIndex ? starts[k + 1] - 2 : end
                var line = Cursor(p: p, i: starts[k], end: lineEnd)
                guard lineEnd > starts[k], let e = line.entry(&names) else { return nil }
                out.append(e)
            }
            return out
        }
    }

    /// One line (without its comma), or nil when it is not of that exact form.
    static func entry(of line: [UInt8]) -> (String, SnapshotManifest.Entry)? {
        var names = Names()
        return line.withUnsafeBufferPointer { p in
            var cursor = Cursor(p: p, i: 0, end: p.count)
            return cursor.entry(&names)
        }
    }

    /// Each margin name and renderer id read once, shared by the entries (looked up by their bytes).
    struct Names {
        var known: [(bytes: [UInt8], text: String)] = []
        var hint = 0
        /// The margin names of the last line that had margins.
        var lastMargins: [String] = []

        mutating func text(_ b: UnsafeBufferPointer<UInt8>) -> String? {
            // Names come in the same order in every line: the one after the last found first.
            for k in known.indices {
                let j = (hint + k) % known.count
                if known[j].bytes.count == b.count, known[j].bytes.withUnsafeBufferPointer({ memcmp($0.baseAddress!, b.baseAddress!, b.count) == 0 }) {
                    hint = j + 1
                    return known[j].text
                }
            }
            guard let s = String(validating: b, as: UTF8.self) else { return nil }
            known.append((Array(b), s))
            hint = known.count
            return s
        }
    }

    /// A place in a line.
    struct Cursor {
        let p: UnsafeBufferPointer<UInt8>
        var i: Int
        let end: Int

        mutating func literal(_ text: StaticString) -> Bool {
            let n = text.utf8CodeUnitCount
            guard i + n <= end, memcmp(p.baseAddress! + i, text.utf8Start, n) == 0 else { return false }
            i += n
            return true
        }

        /// A string's bytes up to its closing quote (the opening one read already).
        mutating func stringBytes() -> UnsafeBufferPointer<UInt8>? {
            let s = i
            while i < end {
                let c = p[i]
                if c == UInt8(ascii: "\"") {
                    i += 1
                    return UnsafeBufferPointer(rebasing: p[s..<i - 1])
                }
                if c == UInt8(ascii: "\\") || c < 0x20 { return nil }
                i += 1
            }
            return nil
        }

        mutating func string() -> String? { stringBytes().flatMap { String(validating: $0, as: UTF8.self) } }

        mutating func entry(_ names: inout Names) -> (String, SnapshotManifest.Entry)? {
            guard literal("    \""), let id = string(), literal(" : {\"digest\":\""), let digest = string(),
                  literal(",\"keys\":\""), let keys = string() else { return nil }
            var margins: AuditNumbers?
            if literal(",\"margins\":{") {
                // As `fileData` writes them: names in ascending order, each once (else the JSON reader reads the line).
                var list: [String] = [], values: [Double] = []
                list.reserveCapacity(16)
                values.reserveCapacity(16)
                if !literal("}") {
                    while true {
                        guard literal("\""), let nameBytes = stringBytes(), let name = names.text(nameBytes), literal(":"),
                              let value = number(), list.last.map({ $0 < name }) ?? true else { return nil }
                        list.append(name)
                        values.append(value)
                        if literal(",") { continue }
                        guard literal("}") else { return nil }
                        break
                    }
                }
                // The names array of the line before, when the same (as it mostly is): one copy.
                var m = AuditNumbers(ascending: list, values: values)
                m.shareNames(&names.lastMargins)
                margins = m
            }
            guard literal(",\"renderer\":\""), let rendererBytes = stringBytes(), let renderer = names.text(rendererBytes),
                  literal("}"), i == end else { return nil }
            return (id, SnapshotManifest.Entry(digest: digest, keys: keys, renderer: renderer, margins: margins))
        }

        mutating func digits() -> Int {
            let s = i
            while i < end, p[i] >= UInt8(ascii: "0"), p[i] <= UInt8(ascii: "9") { i += 1 }
            return i - s
        }

        /// A number in JSON's syntax (`-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`), finite, read as
        /// the JSON reader reads it.
        mutating func number() -> Double? {
            let start = i
            if i < end, p[i] == UInt8(ascii: "-") { i += 1 }
            let intStart = i
            let n = digits()
            guard n > 0, n == 1 || p[intStart] != UInt8(ascii: "0") else { return nil }
            if i < end, p[i] == UInt8(ascii: ".") {
                i += 1
                guard digits() > 0 else { return nil }
            }
            if i < end, p[i] == UInt8(ascii: "e") || p[i] == UInt8(ascii: "E") {
                i += 1
                if i < end, p[i] == UInt8(ascii: "+") || p[i] == UInt8(ascii: "-") { i += 1 }
                guard digits() > 0 else { return nil }
            }
            let text = UnsafeBufferPointer(rebasing: p[start..<i])
            guard let v = JSONReader.exactNumber(text) ?? Double(String(decoding: text, as: UTF8.self)), v.isFinite else { return nil }
            return v
        }
    }
}
