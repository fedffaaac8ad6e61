import Foundation
import GlyphAudit
import GlyphCore
import GlyphSnapshot

/// The audit results of variant groups under `--incremental` (docs/snapshots.md, "Incremental
/// runs"): one file per group (`Variant.groupKey`: a component in one theme and display setting)
/// in `<snapshots>/.glyphaudit-cache/`, named by the SHA-256 of everything the group's audit reads
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
        var text = "glyphaudit-audit-cache 2\n\(tool)\n"
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

    func url(_ key: String) -> URL { folder.appendingPathComponent(String(key.prefix(2))).appendingPathComponent(key + ".json") }

    public func read(_ key: String) -> Entry? {
        // The path as text (a key is hex digits): Foundation's URL is slow to build one per group.
        let path = folder.path.hasSuffix("/") ? url(key).path : "\(folder.path)/\(key.prefix(2))/\(key).json"
        guard let data = try? InputFile.read(path, limit: Limits.jsonFileBytes, what: "audit cache") else { return nil }
        return Entry.parse(data) ?? (try? JSONDecoder().decode(Entry.self, from: data))
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
        try writeIfChanged(try JSONOutput.data(entry), to: url(key))
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
    /// An entry read by `JSONReader` (most of `JSONDecoder`'s time went to the numbers'
    /// dictionaries), the findings, when there are any, through `JSONDecoder`; nil when the file is
    /// not an entry of this shape (then `JSONDecoder` reads it all).
    static func parse(_ data: Data) -> Self? {
        guard let o = try? JSONReader.parse(data), case .bool(let evidence)? = o["evidence"]?.value,
              let list = o["findings"]?.array else { return nil }
        /// A member that is absent or null (nil), or read by `each` (nil when it cannot).
        func optional<T>(_ key: String, _ each: (JSONNode) -> T?) -> T?? {
            guard let node = o[key], node.value != .null else { return .some(nil) }
            return each(node).map { .some($0) }
        }
        var last: [String] = []
        guard let margins = optional("margins", { $0.table { v in
                  var numbers = v.auditNumbers
                  numbers?.shareNames(&last)
                  return numbers
              } }),
              let inks = optional("inks", { $0.table { v in v.array.flatMap { a in
                  let n = a.compactMap(\.number)
                  return n.count == a.count ? n : nil
              } } }) else { return nil }
        var findings: [Finding] = []
        if !list.isEmpty {
            struct Findings: Decodable { var findings: [Finding] }
            guard let f = try? JSONDecoder().decode(Findings.self, from: data) else { return nil }
            findings = f.findings
        }
        return Self(findings: findings, evidence: evidence, margins: margins, inks: inks)
    }
}
