import Foundation
import GlyphAudit
import GlyphCore
import GlyphSnapshot

/// The audit results of variant groups under `--incremental` (docs/snapshots.md, "Incremental
/// runs"): one file per group (`Variant.groupKey`: a component in one theme and display setting)
/// in `<snapshots>/.glyphaudit-cache/<xx>/<key>.entry`, named by the SHA-256 of everything the group's audit reads
/// — the input digests of its variants (scene, spec and token keys, renderer), the rules and their
/// configuration, the spec and token files' paths (findings name them) and glyphaudit's version.
/// An entry holds what the rules that compare within a group found (`Auditor.groupRuleIDs`), the
/// group's audit numbers, and the ink of its image glyphs; the rules that fold a component's themes
/// (on layouts and those inks) and the pass across components (colours) run in every run.
public struct AuditCache: Sendable {
    public static let folderName = ".glyphaudit-cache"
    public let folder: URL
    /// Everything of the run the key holds besides the variants: the tool, the rules and their settings.
    let runKey: String

    public init(snapshots: URL, auditor: Auditor, tool: String) {
        folder = snapshots.appendingPathComponent(Self.folderName)
        var text = "glyphaudit-audit-cache 3\n\(tool)\n"
        for rule in auditor.rules {
            let setting = auditor.config.rules[rule.id]
            let values = auditor.options(for: rule).values.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            text += "\(rule.id) \(setting?.severity.map { "\($0)" } ?? "default") \(values.joined(separator: ","))\n"
        }
        runKey = text
    }

    /// What is kept of a variant group's audit.
    public struct Entry: Codable, Sendable {
        /// The findings of the group's rules (with evidence paths when `evidence`).
        public var findings: [Finding]
        /// Whether the run that wrote it drew evidence pictures.
        public var evidence: Bool
        /// The audit numbers per variant id (`AuditMargins`).
        public var margins: [String: AuditNumbers]?
        /// The ink of the group's image glyphs by variant id (`ClippingRule.glyphInks`).
        public var inks: [String: [Double]]?
    }

    /// The key of a variant group: its variants' digests in order, its spec's files, and the run's key.
    public func key(_ items: [PlannedVariant], digests: [String]) -> String {
        let spec = items.first?.spec
        return SHA256.hex(runKey + "spec \(spec?.sourceFile ?? "") \(spec?.tokenFile ?? "")\n" + digests.joined(separator: "\n"))
    }

    func url(_ key: String) -> URL { folder.appendingPathComponent(String(key.prefix(2))).appendingPathComponent(key + ".entry") }

    public func read(_ key: String) -> Entry? {
        // The path as text (a key is hex digits): Foundation's URL is slow to build one per group.
        let path = folder.path.hasSuffix("/") ? url(key).path : "\(folder.path)/\(key.prefix(2))/\(key).entry"
        guard let data = try? InputFile.read(path, limit: Limits.jsonFileBytes, what: "audit cache") else { return nil }
        return Entry.parse(data)
    }

    /// Writes a group's entry; with `evidence` (the run's evidence folder) the pictures its
    /// findings name are kept beside it (`<key>.evidence/`), to be put back when it is reused.
    public func write(_ entry: Entry, key: String, evidence: URL?) throws {
        if let evidence {
            for path in entry.findings.compactMap(\.picturePath) {
                let data = try InputFile.read(evidence.appendingPathComponent(path).path, limit: Limits.pngFileBytes, what: "PNG")
                try writeIfChanged(data, to: pictures(key).appendingPathComponent(path))
            }
        }
        // Not flushed to disk (a cache: an entry a power cut loses or cuts short reads as none),
        // nor left to the command's transaction: in place at once. (An entry of the same key is
        // replaced: one made without evidence pictures, by a run that draws them.)
        try AtomicFile.writeUnflushed(try entry.fileData(), to: url(key))
    }

    func pictures(_ key: String) -> URL { folder.appendingPathComponent(String(key.prefix(2))).appendingPathComponent(key + ".evidence") }

    /// Puts the evidence pictures of a reused entry into the run's evidence folder; false when one is missing.
    public func restorePictures(_ entry: Entry, key: String, into evidence: URL) -> Bool {
        for path in entry.findings.compactMap(\.picturePath) {
            guard let data = try? InputFile.read(pictures(key).appendingPathComponent(path).path, limit: Limits.pngFileBytes, what: "PNG"),
                  (try? writeIfChanged(data, to: evidence.appendingPathComponent(path))) != nil else { return false }
        }
        return true
    }
}

extension AuditCache.Entry {
    static let header = "glyphaudit audit cache entry 3"

    /// The entry's bytes, lines of text: the header; `evidence true|false`; `names` and the names
    /// of its numbers as a JSON array; `margins` and the variant ids as a JSON array (or `none`),
    /// then a line per variant, a number per name (its IEEE 754 bits in 16 hex digits, `-` for a
    /// name the variant lacks); `inks` the same, each line the variant's inks; `findings` and the
    /// findings as a JSON array. Names and ids sorted: the same entry gives the same bytes. The
    /// numbers are read back bit for bit without parsing decimals, a hundred times faster than the
    /// JSON object of objects it replaces (an incremental run reads one entry per group it reuses).
    func fileData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        func json<T: Encodable>(_ value: T) throws -> String { String(decoding: try encoder.encode(value), as: UTF8.self) }
        var out = Self.header + "\nevidence \(evidence)\n"
        let names = Set((margins ?? [:]).values.flatMap(\.names)).sorted()
        out += "names " + (try json(names)) + "\n"
        func hex(_ v: Double) -> String {
            let s = String(v.bitPattern, radix: 16)
            return String(repeating: "0", count: 16 - s.count) + s
        }
        if let margins {
            let ids = margins.keys.sorted()
            out += "margins " + (try json(ids)) + "\n"
            for id in ids {
                let m = margins[id]!
                out += names.map { m[$0].map(hex) ?? "-" }.joined(separator: " ") + "\n"
            }
        } else {
            out += "margins none\n"
        }
        if let inks {
            let ids = inks.keys.sorted()
            out += "inks " + (try json(ids)) + "\n"
            for id in ids { out += inks[id]!.map(hex).joined(separator: " ") + "\n" }
        } else {
            out += "inks none\n"
        }
        out += "findings " + (try json(findings)) + "\n"
        return Data(out.utf8)
    }

    /// An entry as `fileData` writes it; nil for anything else (an entry of another version, a
    /// file cut short or edited): the group is then drawn and audited again.
    static func parse(_ data: Data) -> Self? {
        let bytes = [UInt8](data)
        var at = 0
        /// The next line, without its newline; nil at the end or when the file does not end in one.
        func line() -> ArraySlice<UInt8>? {
            guard at < bytes.count, let end = bytes[at...].firstIndex(of: 0x0A) else { return nil }
            defer { at = end + 1 }
            return bytes[at..<end]
        }
        func field(_ name: String) -> ArraySlice<UInt8>? {
            let prefix = Array((name + " ").utf8)
            guard let l = line(), l.starts(with: prefix) else { return nil }
            return l.dropFirst(prefix.count)
        }
        func strings(_ text: ArraySlice<UInt8>) -> [String]? {
            guard let node = try? JSONReader.parse(Data(text)), let list = node.array else { return nil }
            let out = list.compactMap(\.string)
            return out.count == list.count ? out : nil
        }
        /// A line of numbers, each 16 hex digits or `-` (nil), separated by single spaces.
        func numbers(_ l: ArraySlice<UInt8>) -> [Double?]? {
            var out: [Double?] = []
            var i = l.startIndex
            while i < l.endIndex {
                if l[i] == UInt8(ascii: "-") {
                    out.append(nil)
                    i += 1
                } else {
                    guard i + 16 <= l.endIndex else { return nil }
                    var v: UInt64 = 0
                    for k in i..<(i + 16) {
                        let c = l[k]
                        let d: UInt8
                        switch c {
                        case UInt8(ascii: "0")...UInt8(ascii: "9"): d = c - UInt8(ascii: "0")
                        case UInt8(ascii: "a")...UInt8(ascii: "f"): d = c - UInt8(ascii: "a") + 10
                        default: return nil
                        }
                        v = v << 4 | UInt64(d)
                    }
                    out.append(Double(bitPattern: v))
                    i += 16
                }
                if i < l.endIndex {
                    guard l[i] == UInt8(ascii: " "), i + 1 < l.endIndex else { return nil }
                    i += 1
                }
            }
            return out
        }
        guard let head = line(), head.elementsEqual(Self.header.utf8), let ev = field("evidence"),
              ev.elementsEqual("true".utf8) || ev.elementsEqual("false".utf8),
              let nameText = field("names"), let names = strings(nameText),
              zip(names, names.dropFirst()).allSatisfy({ $0 < $1 }) else { return nil }
        let evidence = ev.elementsEqual("true".utf8)
        guard let marginIDs = field("margins") else { return nil }
        var margins: [String: AuditNumbers]?
        if !marginIDs.elementsEqual("none".utf8) {
            guard let ids = strings(marginIDs) else { return nil }
            var table: [String: AuditNumbers] = [:]
            table.reserveCapacity(ids.count)
            var last: [String] = []
            for id in ids {
                guard let l = line(), let values = numbers(l), values.count == names.count,
                      values.allSatisfy({ $0?.isFinite ?? true }) else { return nil }
                var kept: [String] = [], numbers: [Double] = []
                for (name, value) in zip(names, values) { if let value { kept.append(name); numbers.append(value) } }
                var m = AuditNumbers(ascending: kept, values: numbers)
                m.shareNames(&last)
                guard table.updateValue(m, forKey: id) == nil else { return nil }
            }
            margins = table
        }
        guard let inkIDs = field("inks") else { return nil }
        var inks: [String: [Double]]?
        if !inkIDs.elementsEqual("none".utf8) {
            guard let ids = strings(inkIDs) else { return nil }
            var table: [String: [Double]] = [:]
            for id in ids {
                guard let l = line(), let values = numbers(l), values.allSatisfy({ $0 != nil }),
                      table.updateValue(values.map { $0! }, forKey: id) == nil else { return nil }
            }
            inks = table
        }
        guard let findingText = field("findings"), at == bytes.count else { return nil }
        var findings: [Finding] = []
        if !findingText.elementsEqual("[]".utf8) {
            guard let f = try? JSONDecoder().decode([Finding].self, from: Data(findingText)) else { return nil }
            findings = f
        }
        return Self(findings: findings, evidence: evidence, margins: margins, inks: inks)
    }
}
