import Foundation
import GlyphAudit
import GlyphCore
import GlyphSnapshot

/// Everything one run found, in a form that is written to `report.json` and read back by
/// `merge-reports`: every other report (HTML, JUnit, SARIF, Markdown) is made from this alone.
/// The format is documented in docs/report-format.md; `schema` names its version.
public struct RunReport: Codable, Sendable, Equatable {
    public static let currentSchema = "glyphaudit-report/1"

    public var schema: String = RunReport.currentSchema
    public var tool: String
    /// `I/N` when this is one shard of a run; nil for a whole run (and after merging).
    public var shard: String?
    /// The findings' fail level the run used (`error`, `warning`, `never`).
    public var failOn: String
    /// Variants selected in the whole run (all shards together).
    public var selected: Int
    /// The run's `--only` filter, normalized (`key=value,…` by key, values sorted); nil when none.
    /// With `presets` it names the selection, so `merge-reports` can tell shards of different runs apart.
    public var filter: String?
    public var presets: [PresetRecord]
    public var variants: [VariantRecord]
    public var findings: [Finding]
    /// nil when snapshots were not checked.
    public var snapshots: SnapshotSection?
    public var rules: [RuleRecord]
    /// Every file the run read as input (spec, token and image files), with its SHA-256, sorted by
    /// path (relative to the working folder where it lies below it). Recorded when candidates are
    /// staged (under CI or with `--stage`): `glyphaudit accept` refuses the report when one differs.
    public var inputs: [InputRecord]? = nil
    /// The changed and stale baselines grouped by cause (`SnapshotGroup`), when the snapshot folder
    /// has a manifest; nil (absent) otherwise.
    public var snapshotGroups: [SnapshotGroup]?
    /// How long each preset, component and rule took (`PresetTiming`), for JUnit's `time`; nil
    /// (absent) when the run was not timed (GLYPHAUDIT_REPRODUCIBLE, or a library call that did
    /// not ask), so that the same inputs give byte-identical reports.
    public var timings: [PresetTiming]? = nil

    public init(tool: String, shard: String? = nil, failOn: String, selected: Int, filter: String? = nil, presets: [PresetRecord],
                variants: [VariantRecord], findings: [Finding], snapshots: SnapshotSection?, rules: [RuleRecord]) {
        self.tool = tool
        self.shard = shard
        self.failOn = failOn
        self.selected = selected
        self.filter = filter
        self.presets = presets
        self.variants = variants
        self.findings = findings
        self.snapshots = snapshots
        self.rules = rules
    }
}

public struct PresetRecord: Codable, Sendable, Equatable {
    public var name: String
    public var control: String
    public var description: String
    /// The spec file (relative to the working directory when possible; `Assets/…` for built-ins).
    public var source: String
    public var tokens: String?
    public var shapes: [String]
    public var sizes: [String]
    public var themes: [String]
    public var states: [String]
    public var dynamicTypeSizes: [String]
    public var scales: [Int]
    /// Variants in the whole (unsharded, unfiltered) matrix.
    public var variantCount: Int
    /// Theme → the `appearance` it declares (`light`, `dark`, `light-high-contrast`,
    /// `dark-high-contrast`), for the themes that declare one; absent when none does.
    public var appearances: [String: String]? = nil

    /// The appearance a theme declares, nil when it declares none.
    public func appearance(of theme: String) -> String? { appearances?[theme] }
}

public struct VariantRecord: Codable, Sendable, Equatable {
    /// Position in the whole selected matrix (the same in every shard); orders merged reports.
    public var index: Int
    /// The variant id (written as its text); `preset` … `scale` are its parts.
    public var id: VariantID
    public var preset: String
    public var component: String
    public var dynamicType: String
    public var theme: String
    public var state: String
    public var scale: Int
    /// The render in the report folder (written for @2x variants, for the contact sheet).
    public var image: String?
    public var width: Int
    public var height: Int
    /// The display setting the variant is drawn under (`boldText`); absent for the default rendering.
    public var setting: DisplaySetting? = nil
    /// `true` for a focused variant (`checked+focused`); absent otherwise.
    public var focused: Bool? = nil

    /// Whether the variant is drawn with its focus indicator.
    public var isFocused: Bool { focused == true }

    package init(index: Int, id: VariantID, preset: String, component: String, dynamicType: String, theme: String, state: String, scale: Int, image: String? = nil, width: Int, height: Int) {
        self.index = index
        self.id = id
        self.preset = preset
        self.component = component
        self.dynamicType = dynamicType
        self.theme = theme
        self.state = state
        self.scale = scale
        self.image = image
        self.width = width
        self.height = height
        // Both come from the id (`…/default+boldText/checked+focused@2x`), so they never disagree with it.
        setting = id.setting
        focused = id.focused ? true : nil
    }
}

extension Finding {
    /// Whether the finding covers a variant id: `*` matches any value of a part, and a finding with
    /// `dynamicTypeSizes` covers those sizes only.
    public func covers(_ other: VariantID) -> Bool {
        guard variant.hasWildcard ? variant.covers(other) : variant.description == other.description else { return false }
        guard let sizes = dynamicTypeSizes else { return true }
        return sizes.contains { $0.short == other.dynamicType }
    }
}

/// One input file of a run and the SHA-256 of the bytes it read.
public struct InputRecord: Codable, Sendable, Equatable {
    public var path: String
    public var sha256: String

    public init(path: String, sha256: String) {
        self.path = path
        self.sha256 = sha256
    }

    /// The files of an `InputLog` recording, paths relative to `base` where they lie below it, sorted.
    public static func list(_ files: [String: String], base: URL) -> [InputRecord] {
        files.map { InputRecord(path: relativePath($0.key, base: base), sha256: $0.value) }.sorted { $0.path < $1.path }
    }
}

public struct SnapshotSection: Codable, Sendable, Equatable {
    public var folder: String
    public var results: [SnapshotRecord]
    /// The folder (relative to the report folder, `candidates`) where every changed and new render
    /// was staged for `glyphaudit accept`, with `renderer.json`; nil when none was.
    public var candidates: String? = nil
    /// What `glyphaudit accept` writes into the snapshot folder's manifest with the candidates: the
    /// keys of the run's presets and the renderer's components (the results carry the entries).
    public var manifest: ManifestRecord? = nil

    /// The part of `manifest.json` a staging run computed beyond its variants' entries.
    public struct ManifestRecord: Codable, Sendable, Equatable {
        /// Preset → key path → value.
        public var keys: [String: [String: String]]
        /// The renderer's components (its id is `SnapshotManifest.rendererID` of them).
        public var renderer: [String: String]

        public init(keys: [String: [String: String]], renderer: [String: String]) {
            self.keys = keys
            self.renderer = renderer
        }
    }

    public init(folder: String, results: [SnapshotRecord]) {
        self.folder = folder
        self.results = results
    }
}

public struct SnapshotRecord: Codable, Sendable, Equatable {
    /// The variant id (a stale baseline's path, as `SnapshotResult.id`), written as its text.
    public var id: VariantID
    public var status: SnapshotResult.Status
    public var failed: Bool
    public var baseline: String
    public var action: SnapshotResult.Action?
    public var message: String?
    public var mismatchedPixels: Int?
    public var mismatchRatio: Double?
    public var maxDelta: Double?
    public var expectedSize: [Int]?
    public var actualSize: [Int]?
    /// expected / actual / diff pictures, relative to the report folder.
    public var expected: String?
    public var actual: String?
    public var diff: String?
    /// The three in one picture (expected | actual | diff), relative to the report folder.
    public var sideBySide: String?
    /// The render staged for `glyphaudit accept` (`candidates/<variant id>.png`), relative to the report folder.
    public var candidate: String? = nil
    /// The variant's manifest entry as the run computed it (inputs, renderer, audit numbers), when
    /// candidates were staged: on each candidate, and on a match whose entry changed (`accept` writes them).
    public var manifest: SnapshotManifest.Entry? = nil

    public init(id: VariantID, status: SnapshotResult.Status, failed: Bool, baseline: String, action: SnapshotResult.Action? = nil, message: String? = nil,
                mismatchedPixels: Int? = nil, mismatchRatio: Double? = nil, maxDelta: Double? = nil,
                expectedSize: [Int]? = nil, actualSize: [Int]? = nil, expected: String? = nil, actual: String? = nil,
                diff: String? = nil, sideBySide: String? = nil) {
        self.id = id
        self.status = status
        self.failed = failed
        self.baseline = baseline
        self.action = action
        self.message = message
        self.mismatchedPixels = mismatchedPixels
        self.mismatchRatio = mismatchRatio
        self.maxDelta = maxDelta
        self.expectedSize = expectedSize
        self.actualSize = actualSize
        self.expected = expected
        self.actual = actual
        self.diff = diff
        self.sideBySide = sideBySide
    }
}

public struct RuleRecord: Codable, Sendable, Equatable {
    public var id: String
    public var title: String
    public var criterion: String?
    /// The severity of a failure under the run's configuration (`off`: the rule did not run).
    public var severity: ConfiguredSeverity
    public var summary: String
    public var fix: String
}

/// Finds the findings that cover a variant id quickly: each id is read into its parts once.
struct FindingMatcher {
    private let patterns: [(index: Int, id: VariantID, sizes: Set<String>?)]

    init(_ findings: [Finding], where keep: (Finding) -> Bool = { _ in true }) {
        patterns = findings.enumerated().filter { keep($0.element) }.map {
            ($0.offset, $0.element.id, $0.element.dynamicTypeSizes.map { Set($0.map(\.short)) })
        }
    }

    /// Indices (into the findings given) of those covering `id` (see `Finding.covers`);
    /// `anyScale` ignores the scale part.
    func matches(_ v: VariantID, anyScale: Bool = false) -> [Int] {
        patterns.filter { p in
            guard p.id.covers(v, anyScale: anyScale) else { return false }
            if let sizes = p.sizes, !sizes.contains(v.dynamicType) { return false }
            return true
        }.map(\.index)
    }
}

extension RunReport {
    public struct Counts: Sendable, Equatable {
        public var variants = 0
        public var errors = 0
        public var warnings = 0
        public var infos = 0
        public var accepted = 0
        public var byRule: [String: [String: Int]] = [:]
        public var snapshotMismatches = 0
        public var snapshotNew = 0
        public var snapshotStale = 0
        public var snapshotFailed = 0
        public var snapshotMatches = 0
    }

    public var counts: Counts {
        var c = Counts()
        c.variants = variants.count
        for f in findings {
            if f.accepted != nil { c.accepted += 1; continue }
            switch f.severity {
            case .error: c.errors += 1
            case .warning: c.warnings += 1
            default: c.infos += 1
            }
            c.byRule[f.rule, default: [:]][f.severity.rawValue, default: 0] += 1
        }
        for s in snapshots?.results ?? [] {
            switch s.status {
            case .match: c.snapshotMatches += 1
            case .mismatch: c.snapshotMismatches += 1
            case .new: c.snapshotNew += 1
            case .stale: c.snapshotStale += 1
            default: break
            }
            if s.failed { c.snapshotFailed += 1 }
        }
        return c
    }

    /// Findings that fail the run at its fail level (accepted ones never do).
    public var failingFindings: [Finding] {
        findings.filter { f in
            guard f.accepted == nil else { return false }
            switch failOn {
            case "never": return false
            case "warning": return f.severity >= .warning
            default: return f.severity == .error
            }
        }
    }

    /// 0 clean, 1 findings at the fail level or failed snapshots. At `--fail-on never` nothing the
    /// run found fails it, failed snapshots neither (a CI matrix's shard jobs then all finish and the
    /// merge decides); the reports still list the snapshots as failed.
    public var status: ExitStatus {
        ExitStatus(failed: !failingFindings.isEmpty || (failOn != "never" && counts.snapshotFailed > 0))
    }
    public var exitStatus: Int32 { status.rawValue }

    public var passed: Bool { exitStatus == 0 }

    /// The report as JSON: sorted keys, two-space indent, so equal reports are equal bytes.
    public func jsonData() throws -> Data {
        try JSONOutput.data(self)
    }

    /// How deep `data`'s arrays and objects nest when deeper than `limit` (strings skipped), else
    /// nil: one pass over the bytes, nothing allocated.
    static func nestingPast(_ limit: Int, _ data: Data) -> Int? {
        var depth = 0, deepest = 0, inString = false, escaped = false
        for byte in data {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                deepest = max(deepest, depth)
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        return deepest > limit ? deepest : nil
    }

    /// A decoding error as one short line: the key path (`variants[3].image`) and what is wrong,
    /// without Swift's debug text.
    static func describe(_ error: DecodingError) -> (keyPath: String?, message: String) {
        func path(_ keys: [any CodingKey]) -> String? {
            var s = ""
            for k in keys {
                if let i = k.intValue { s += "[\(i)]" } else { s += (s.isEmpty ? "" : ".") + k.stringValue }
            }
            return s.isEmpty ? nil : s
        }
        switch error {
        case .typeMismatch(let type, let c):
            return (path(c.codingPath), "expected \(type == String.self ? "a string" : type == Int.self || type == Double.self ? "a number" : type == Bool.self ? "true or false" : "another kind of value") here")
        case .valueNotFound(_, let c):
            return (path(c.codingPath), "a value is missing (null or absent)")
        case .keyNotFound(let key, let c):
            return (path(c.codingPath), "the key \"\(key.stringValue)\" is missing")
        case .dataCorrupted(let c):
            return (path(c.codingPath), c.codingPath.isEmpty ? "not valid JSON" : "an invalid value")
        @unknown default:
            return (nil, "cannot be read")
        }
    }

    public static func read(_ url: URL) throws(InputError) -> RunReport {
        let data: Data
        do { data = try InputFile.read(url.path, limit: Limits.reportFileBytes, what: "report") } catch {
            throw InputError(file: url.path, message: error.missing ? "cannot read the report (no report.json here?)" : error.message)
        }
        return try decode(data, file: url.path)
    }

    /// A report from the bytes of its report.json (`file` names it in messages), as `read` reads it.
    public static func decode(_ data: Data, file url: URL) throws(InputError) -> RunReport {
        try decode(data, file: url.path)
    }

    /// A report's bytes decoded (`read`; the `report` fuzz target): `file` names it in errors.
    public static func decode(_ data: Data, file: String) throws(InputError) -> RunReport {
        // Nesting past the JSON limit is said as such (Foundation's parser calls it "not valid JSON").
        if let depth = nestingPast(Limits.jsonDepth, data) {
            throw InputError(file: file, message: "not a glyphaudit report: JSON nested \(depth) levels deep; "
                             + "the limit is \(Limits.jsonDepth) (docs/limits.md)")
        }
        let report: RunReport
        // Decoded piece by piece (ReportDecoding: memory about the file's size plus the model, not 15
        // times the file, whatever unknown keys hold).
        do { report = try ReportDecoding.decode(data) } catch let error as ReportDecoding.NotJSON {
            throw InputError(file: file, message: "not a glyphaudit report: \(error.message)")
        } catch let error as ReportDecoding.TooLarge {
            throw InputError(file: file, keyPath: error.keyPath.isEmpty ? nil : error.keyPath,
                             message: error.keyPath.isEmpty
                                 ? "the report's keys other than variants, findings and snapshots' results are \(error.bytes) bytes; the limit is \(Limits.bytes(Limits.jsonFileBytes)) (docs/limits.md)"
                                 : "one element is \(error.bytes) bytes; the limit is \(Limits.bytes(Limits.jsonFileBytes)) (docs/limits.md)")
        } catch let error as DecodingError {
            let (keyPath, message) = describe(error)
            throw InputError(file: file, keyPath: keyPath, message: "not a glyphaudit report: \(message)")
        } catch {
            throw InputError(file: file, message: "not a glyphaudit report: \(error.localizedDescription)")
        }
        guard report.schema == currentSchema else {
            throw InputError(file: file, keyPath: "schema", message: "report schema \(report.schema); this tool reads \(currentSchema)")
        }
        return report
    }
}
