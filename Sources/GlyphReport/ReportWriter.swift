import Foundation
import GlyphAudit
import GlyphCore

/// The report formats `run` writes (`--formats`).
public enum ReportFormat: String, CaseIterable, Sendable {
    case html, json, junit, sarif, markdown

    /// The file each format is written to, in the report folder.
    public var fileName: String {
        switch self {
        case .html: "index.html"
        case .json: "report.json"
        case .junit: "junit.xml"
        case .sarif: "results.sarif"
        case .markdown: "summary.md"
        }
    }
}

extension RunReport {
    /// Presets as report records; paths relative to `base` where they lie below it.
    public static func presetRecords(_ plan: Plan, base: URL) -> [PresetRecord] {
        plan.specs.map { spec in
            let declared = spec.themes.compactMap { t in t.appearance.map { (t.name, $0.rawValue) } }
            var record = PresetRecord(name: spec.name, control: spec.control.rawValue, description: spec.description,
                         source: relativePath(spec.sourceFile ?? spec.name, base: base),
                         tokens: spec.tokenFile.map { relativePath($0, base: base) },
                         shapes: spec.shapes.map(\.rawValue), sizes: spec.sizes.map(\.name), themes: spec.themes.map(\.name),
                         states: spec.states.map(\.rawValue), dynamicTypeSizes: spec.dynamicTypeSizes.map(\.short),
                         scales: spec.scales, variantCount: spec.variantCount)
            if !declared.isEmpty { record.appearances = Dictionary(declared, uniquingKeysWith: { a, _ in a }) }
            return record
        }
    }

    /// A `--only` filter as the report records it: `key=value,…` in key order, values sorted; nil when empty.
    public static func filterText(_ filter: VariantFilter) -> String? {
        let parts = VariantFilter.Key.allCases.compactMap { key in
            filter.allowed[key].map { "\(key.rawValue)=\($0.sorted().joined(separator: ","))" }
        }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }

    /// The folder (inside a report) where contact-sheet pictures go.
    public static let imageFolder = "images"

    /// Puts findings and snapshots in one canonical order, so a run and merged shards agree byte for byte.
    public mutating func canonicalize() {
        let presetOrder = Dictionary(uniqueKeysWithValues: presets.enumerated().map { ($1.name, $0) })
        let ruleOrder = Dictionary(uniqueKeysWithValues: rules.enumerated().map { ($1.id, $0) })
        variants.sort { $0.index < $1.index }
        // Each finding's key built once (an id's text is built, not stored); equal keys keep their order.
        let keys = findings.map { f in (presetOrder[f.preset] ?? Int.max, ruleOrder[f.rule] ?? Int.max, f.variant.description) }
        findings = findings.indices.sorted { i, j in
            let (a, b) = (findings[i], findings[j])
            if keys[i] != keys[j] { return keys[i] < keys[j] }
            if a.subject != b.subject { return a.subject < b.subject }
            if a.message != b.message { return a.message < b.message }
            return i < j
        }.map { findings[$0] }
        if let i = inputs {
            var seen = Set<String>()
            inputs = i.filter { seen.insert($0.path).inserted }.sorted { $0.path < $1.path }
        }
        // A run's own results are in its variants' order, one each and no stale baselines after them
        // (the common case, seen without building each id's text): already in order.
        if var s = snapshots, s.results.count != variants.count || !zip(s.results, variants).allSatisfy({ $0.id == $1.id }) {
            // By the ids' text, as they are written (a stale baseline's id is any path).
            let order = Dictionary(variants.map { ($0.id.description, $0.index) }, uniquingKeysWith: { a, _ in a })
            struct Seen: Hashable { let id: String, status: String }
            var seen = Set<Seen>()
            seen.reserveCapacity(s.results.count)
            let ids = s.results.map(\.id.description)
            let kept = s.results.indices.filter { seen.insert(Seen(id: ids[$0], status: s.results[$0].status.rawValue)).inserted }
            // Each id's text built once; equal keys keep their order.
            let keys = kept.map { (order[ids[$0]] ?? Int.max, ids[$0]) }
            s.results = keys.indices.sorted { (keys[$0].0, keys[$0].1, $0) < (keys[$1].0, keys[$1].1, $1) }.map { s.results[kept[$0]] }
            snapshots = s
        }
        canonicalizeTimings()
    }

    /// The report folder as the page's accept command names it: relative to the folder glyphaudit ran
    /// in (where the command is run, as report.json's paths are), `.` for that folder itself, absolute
    /// when it lies outside.
    static func acceptFolder(_ folder: URL, cwd: URL) -> String {
        let path = folder.standardizedFileURL.path
        let base = cwd.standardizedFileURL.path
        if path == base { return "." }
        let resolved = folder.resolvingSymlinksInPath().standardizedFileURL.path
        for (p, b) in [(path, base), (resolved, base)] where p.hasPrefix(b == "/" ? "/" : b + "/") {
            return String(p.dropFirst(b == "/" ? 1 : b.count + 1))
        }
        return resolved == base ? "." : path
    }

    /// Writes the chosen formats into `folder` (atomically, each file whole). The CI formats' paths
    /// (JUnit, SARIF) start at `paths.root` (by default the working folder).
    public func write(to folder: URL, formats: [ReportFormat], paths: RepositoryPaths = .workingFolder()) throws {
        // JUnit attachments are read relative to the repository root (GitLab's $CI_PROJECT_DIR,
        // Jenkins' workspace): the report folder from there; outside the root, from the report folder.
        let absolute = folder.path.hasPrefix("/") ? folder : paths.cwd.appendingPathComponent(folder.path)
        let attachmentBase = paths.fromRoot(absolute.resolvingSymlinksInPath().path) ?? ""
        for format in formats {
            let data: Data
            switch format {
            case .json: data = try jsonData()
            case .html: data = Data(html(folder: Self.acceptFolder(absolute, cwd: paths.cwd)).utf8)
            case .junit:
                let pictures = try writeCasePictures(in: folder)
                data = Data(junitXML(attachmentBase: attachmentBase, paths: paths, casePictures: pictures).utf8)
            case .sarif: data = try sarifData(paths: paths)
            case .markdown: data = Data(markdown().utf8)
            }
            try writeIfChanged(data, to: folder.appendingPathComponent(format.fileName))
        }
    }
}
