import Foundation
import GlyphCore

/// A rule's severity in `.glyphaudit.json`: one of the three, or `off` to not run it.
public enum ConfiguredSeverity: String, Sendable, CaseIterable, Codable {
    case error, warning, info, off

    public var severity: Severity? {
        switch self {
        case .error: .error
        case .warning: .warning
        case .info: .info
        case .off: nil
        }
    }
}

/// One rule's settings: its severity and parameter values.
public struct RuleSetting: Sendable, Equatable {
    public var severity: ConfiguredSeverity?
    public var values: [String: Double]

    public init(severity: ConfiguredSeverity? = nil, values: [String: Double] = [:]) {
        self.severity = severity
        self.values = values
    }
}

/// A finding a team has accepted, with the reason. `variant` may use `*` for any run of characters
/// (`rvs-checkbox/*/mixed@*x`); without `subject` it accepts every finding of the rule there.
/// `message` and `severity` record what was accepted (`--write-baseline` writes both): an entry with
/// a message accepts only a finding with that message, word for word — so a finding that got worse
/// (a lower ratio, more sizes) or changed in any way is no longer accepted and shows as new — and an
/// entry with a severity accepts nothing above it.
public struct AcceptedFinding: Sendable, Equatable {
    public var rule: String
    public var variant: String
    public var subject: String?
    public var reason: String
    /// The finding's message when it was accepted.
    public var message: String?
    /// The finding's severity when it was accepted.
    public var severity: Severity?
    /// Where the entry was written, for messages.
    public var file: String?
    public var line: Int?

    public init(rule: String, variant: String, subject: String? = nil, reason: String, message: String? = nil,
                severity: Severity? = nil, file: String? = nil, line: Int? = nil) {
        self.rule = rule
        self.variant = variant
        self.subject = subject
        self.reason = reason
        self.message = message
        self.severity = severity
        self.file = file
        self.line = line
    }

    /// What `--write-baseline` writes as the reason of a finding nobody has accepted yet.
    public static let placeholderPrefix = "TODO"

    /// The reason is still a placeholder (it starts with `TODO`).
    public var hasPlaceholderReason: Bool { reason.hasPrefix(Self.placeholderPrefix) }

    public func matches(_ f: Finding) -> Bool {
        guard matchesPlace(f) else { return false }
        if let message, message != f.message { return false }
        if let severity, f.severity > severity { return false }
        return true
    }

    /// Whether the entry is about this finding's rule, variant and subject, whatever it recorded.
    public func matchesPlace(_ f: Finding) -> Bool {
        guard f.rule == rule else { return false }
        if let subject, subject != f.subject { return false }
        return variant == f.variant.description || Self.glob(variant, f.variant.description)
    }

    /// `*` matches any run of characters (also `/`); everything else matches itself.
    static func glob(_ pattern: String, _ text: String) -> Bool {
        let p = Array(pattern.utf8), t = Array(text.utf8)
        var pi = 0, ti = 0, star = -1, mark = 0
        while ti < t.count {
            if pi < p.count, p[pi] == UInt8(ascii: "*") {
                star = pi
                mark = ti
                pi += 1
            } else if pi < p.count, p[pi] == t[ti] {
                pi += 1
                ti += 1
            } else if star >= 0 {
                pi = star + 1
                mark += 1
                ti = mark
            } else {
                return false
            }
        }
        while pi < p.count, p[pi] == UInt8(ascii: "*") { pi += 1 }
        return pi == p.count
    }

}

/// An entry as a baseline file holds it (and `audit --json` lists unused ones): where it was
/// written (`file`, `line`) is not part of it.
extension AcceptedFinding: Encodable {
    private enum CodingKeys: String, CodingKey {
        case rule, variant, subject, reason, message, severity
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(rule, forKey: .rule)
        try c.encode(variant, forKey: .variant)
        try c.encodeIfPresent(subject, forKey: .subject)
        try c.encode(reason, forKey: .reason)
        try c.encodeIfPresent(message, forKey: .message)
        try c.encodeIfPresent(severity, forKey: .severity)
    }
}

/// A baseline file (`--write-baseline FILE`, `--baseline FILE`): `{"version": 1, "accepted": [...]}`.
struct BaselineFile: Encodable {
    var version = 1
    var accepted: [AcceptedFinding]
}

/// `.glyphaudit.json`:
///
/// ```json
/// {
///   "version": 1,
///   "rules": {
///     "state-shape": { "severity": "error", "minimumArea": 2 },
///     "target-size": "warning",
///     "image-aspect": "off"
///   },
///   "accepted": [
///     { "rule": "nontext-contrast", "variant": "swiftui-switch/*", "subject": "off track",
///       "reason": "the platform's own switch; tracked in DS-123" }
///   ]
/// }
/// ```
/// Unknown keys, unknown rules and out-of-range numbers are errors naming the file and key path.
public struct AuditConfig: Sendable, Equatable {
    public var rules: [String: RuleSetting]
    public var accepted: [AcceptedFinding]
    /// The file it was read from, if any.
    public var file: String?

    public init(rules: [String: RuleSetting] = [:], accepted: [AcceptedFinding] = [], file: String? = nil) {
        self.rules = rules
        self.accepted = accepted
        self.file = file
    }

    public static let fileName = ".glyphaudit.json"

    /// Where `.glyphaudit.json` is found when no `--config` is given: the first of the working folder
    /// and the folders above it, up to and including the repository root (the nearest folder that holds
    /// `.git`, a folder or a file), that holds one. Outside a repository (no `.git` from the working
    /// folder up to `/`) only the working folder is looked in, so a stray file in a home or temporary
    /// folder never configures an unrelated run.
    public struct Lookup: Sendable, Equatable {
        /// The folders looked in, the working folder first.
        public var searched: [URL]
        /// The file found, relative to the working folder (`.glyphaudit.json`, `../../.glyphaudit.json`); nil when none.
        public var file: String?
    }

    /// Looks for `.glyphaudit.json` from `folder` (the working folder) up; see `Lookup`.
    public static func lookup(from folder: URL) -> Lookup {
        let fm = FileManager.default
        var chain: [URL] = []
        var dir = folder.standardizedFileURL
        var root: Int?
        while true {
            chain.append(dir)
            if fm.fileExists(atPath: dir.appendingPathComponent(".git").path) { root = chain.count - 1; break }
            let parent = dir.deletingLastPathComponent().standardizedFileURL
            if parent.path == dir.path || dir.path == "/" { break }
            dir = parent
        }
        let searched = root.map { Array(chain[...$0]) } ?? [chain[0]]
        for (up, dir) in searched.enumerated() {
            if fm.fileExists(atPath: dir.appendingPathComponent(fileName).path) {
                return Lookup(searched: searched, file: String(repeating: "../", count: up) + fileName)
            }
        }
        return Lookup(searched: searched, file: nil)
    }

    /// Reads a configuration file; errors name it as `file` is written (relative paths stay relative).
    public static func load(file: String, rules: [any AuditRule] = Auditor.configurable) throws(InputError) -> AuditConfig {
        try parse(try read(file), file: file, rules: rules)
    }

    public static func load(contentsOf url: URL, rules: [any AuditRule] = Auditor.configurable) throws(InputError) -> AuditConfig {
        try load(file: url.path, rules: rules)
    }

    static func read(_ file: String) throws(InputError) -> JSONNode { try readJSON(URL(fileURLWithPath: file)) }

    public static func parse(_ root: JSONNode, file: String, rules known: [any AuditRule] = Auditor.configurable) throws(InputError) -> AuditConfig {
        var r = SpecReader(file: file)
        let top = try r.object(root, "", allowed: ["$schema", "version", "rules", "accepted"], required: ["version"])
        try checkVersion(top["version"]!, r)
        var config = AuditConfig(file: file)
        if let rulesNode = top["rules"] {
            for (id, node) in try r.map(rulesNode, "rules") {
                let path = "rules.\(id)"
                guard let rule = known.first(where: { $0.id == id }) else {
                    throw r.error(path, node, SpecReader.unknown("rule", id, valid: known.map(\.id), listed: "rules:"))
                }
                var setting = RuleSetting()
                if case .string = node.value {
                    setting.severity = try r.choice(node, path, ConfiguredSeverity.self)
                } else {
                    let m = try r.object(node, path, allowed: ["severity"] + rule.parameters.map(\.name))
                    if let s = m["severity"] { setting.severity = try r.choice(s, path + ".severity", ConfiguredSeverity.self) }
                    for p in rule.parameters {
                        guard let n = m[p.name] else { continue }
                        guard case let .number(v) = n.value else {
                            throw r.error("\(path).\(p.name)", n, "expected a number, found \(n.typeName)")
                        }
                        guard p.range.contains(v) else {
                            throw r.error("\(path).\(p.name)", n,
                                          "\(Format.number(v)) is out of range (\(Format.number(p.range.lowerBound))…\(Format.number(p.range.upperBound)))")
                        }
                        setting.values[p.name] = v
                    }
                }
                config.rules[id] = setting
            }
        }
        if let a = top["accepted"] { config.accepted = try parseAccepted(a, "accepted", &r, rules: known) }
        return config
    }

    /// Reads a baseline file (`--baseline FILE`): `{"version": 1, "accepted": [...]}`.
    public static func loadBaseline(contentsOf url: URL, rules: [any AuditRule] = Auditor.configurable) throws(InputError) -> [AcceptedFinding] {
        try loadBaseline(file: url.path, rules: rules)
    }

    public static func loadBaseline(file: String, rules: [any AuditRule] = Auditor.configurable) throws(InputError) -> [AcceptedFinding] {
        let root = try read(file)
        var r = SpecReader(file: file)
        let top = try r.object(root, "", allowed: ["$schema", "version", "accepted"], required: ["version", "accepted"])
        try checkVersion(top["version"]!, r)
        return try parseAccepted(top["accepted"]!, "accepted", &r, rules: rules)
    }

    static func checkVersion(_ node: JSONNode, _ r: SpecReader) throws(InputError) {
        guard case let .number(v) = node.value, v == 1 else {
            throw r.error("version", node, "unsupported version; this glyphaudit reads version 1")
        }
    }

    static func parseAccepted(_ node: JSONNode, _ path: String, _ r: inout SpecReader,
                              rules: [any AuditRule]) throws(InputError) -> [AcceptedFinding] {
        var out: [AcceptedFinding] = []
        for (i, item) in try r.array(node, path).enumerated() {
            let p = "\(path)[\(i)]"
            let m = try r.object(item, p, allowed: ["rule", "variant", "subject", "reason", "message", "severity"],
                                 required: ["rule", "variant", "reason"])
            let rule = try r.string(m["rule"]!, p + ".rule")
            guard rules.contains(where: { $0.id == rule }) else {
                throw r.error(p + ".rule", m["rule"], SpecReader.unknown("rule", rule, valid: rules.map(\.id), listed: "rules:"))
            }
            let reason = try r.string(m["reason"]!, p + ".reason").trimmingCharacters(in: .whitespacesAndNewlines)
            if reason.isEmpty { throw r.error(p + ".reason", m["reason"], "give the reason the finding is accepted") }
            let variant = try r.string(m["variant"]!, p + ".variant")
            if variant.isEmpty { throw r.error(p + ".variant", m["variant"], "the variant id (or pattern with *) is empty") }
            let severity = try m["severity"].map { n throws(InputError) in try r.choice(n, p + ".severity", Severity.self) }
            out.append(AcceptedFinding(rule: rule, variant: variant,
                                       subject: try m["subject"].map { n throws(InputError) in try r.string(n, p + ".subject") },
                                       reason: reason,
                                       message: try m["message"].map { n throws(InputError) in try r.string(n, p + ".message") },
                                       severity: severity, file: r.file, line: item.line))
        }
        return out
    }

    /// A baseline accepting every open warning and error of `result` (`--write-baseline FILE`), each
    /// entry recording the finding's message and severity. A reason already given for the same
    /// finding in `previous` is kept; a finding that is new, or changed since its entry was written,
    /// gets a placeholder reason (`TODO: …`, naming the earlier reason when there was one).
    public static func baselineData(for result: AuditResult, previous: [AcceptedFinding] = []) -> Data {
        var entries: [AcceptedFinding] = []
        var seen = Set<String>()
        for f in result.findings where f.severity >= .warning {
            let key = "\(f.rule)\u{0}\(f.variant)\u{0}\(f.subject)"
            if !seen.insert(key).inserted { continue }
            let todo = "\(AcceptedFinding.placeholderPrefix): say why this \(f.severity.rawValue) is accepted (\(f.message))"
            let reason: String
            if let kept = f.accepted ?? previous.first(where: { $0.matches(f) })?.reason {
                reason = kept
            } else if let earlier = previous.first(where: { $0.matchesPlace(f) && !$0.hasPlaceholderReason }) {
                reason = todo + "; it changed since it was accepted as \"\(earlier.reason)\""
            } else {
                reason = todo
            }
            entries.append(AcceptedFinding(rule: f.rule, variant: f.variant.description, subject: f.subject, reason: reason,
                                           message: f.message, severity: f.severity))
        }
        return (try? JSONOutput.data(BaselineFile(accepted: entries), keyOrder: .natural)) ?? Data()
    }
}
