import Foundation
import GlyphCore

/// What `audit --json` prints: a summary, every finding as report.json writes it (`Finding`'s
/// `Codable` form, with `criterion` null for a platform rule), and the baseline entries that matched
/// nothing or whose finding changed. Written by `JSONOutput` (`.natural` key order).
public struct AuditJSON: Encodable {
    public var version = 1
    public var summary: Summary
    public var findings: [Entry]
    public var unusedAccepted: [AcceptedFinding]
    public var changedAccepted: [Changed]

    public struct Summary: Encodable {
        public var variants: Int
        public var presets: [String]
        public var rules: [String]
        public var error: Int
        public var warning: Int
        public var info: Int
        public var accepted: Int
        /// Open findings per preset, rule and severity.
        public var byPreset: [String: [String: [String: Int]]]
    }

    /// A finding: its `Codable` form, and `"criterion": null` when it has none.
    public struct Entry: Encodable {
        public var finding: Finding

        private enum CodingKeys: String, CodingKey { case criterion }

        public func encode(to encoder: any Encoder) throws {
            try finding.encode(to: encoder)
            if finding.criterion == nil {
                var c = encoder.container(keyedBy: CodingKeys.self)
                try c.encodeNil(forKey: .criterion)
            }
        }
    }

    /// A baseline entry whose finding is still there with another message or a higher severity:
    /// the entry, and the finding as it is `now`.
    public struct Changed: Encodable {
        public var entry: AcceptedFinding
        public var now: Now

        public struct Now: Encodable {
            public var message: String
            public var severity: Severity
            public var variant: String
        }

        private enum CodingKeys: String, CodingKey { case now }

        public func encode(to encoder: any Encoder) throws {
            try entry.encode(to: encoder)
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(now, forKey: .now)
        }
    }

    public init(_ result: AuditResult) {
        let open = result.open
        var byPreset: [String: [String: [String: Int]]] = [:]
        for f in open {
            byPreset[f.preset, default: [:]][f.rule, default: [:]][f.severity.rawValue, default: 0] += 1
        }
        summary = Summary(variants: result.variants, presets: result.presets, rules: result.rules,
                          error: result.count(.error), warning: result.count(.warning), info: result.count(.info),
                          accepted: result.findings.count - open.count, byPreset: byPreset)
        findings = result.findings.map(Entry.init)
        unusedAccepted = result.unusedAccepted
        changedAccepted = result.changedAccepted.map { c in
            Changed(entry: c.entry, now: .init(message: c.now.message, severity: c.now.severity,
                                               variant: String(describing: c.now.variant)))
        }
    }
}
