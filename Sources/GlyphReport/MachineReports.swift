import Foundation
import GlyphAudit
import GlyphColor
import GlyphCore
import GlyphRaster
import GlyphSnapshot

/// XML text escaping for element content and attribute values.
func xmlEscape(_ s: String) -> String {
    var out = ""
    out.reserveCapacity(s.count)
    for ch in s.unicodeScalars {
        switch ch {
        case "&": out += "&amp;"
        case "<": out += "&lt;"
        case ">": out += "&gt;"
        case "\"": out += "&quot;"
        case "'": out += "&apos;"
        case "\n": out += "&#10;"
        default:
            // XML 1.0 forbids most control characters.
            if ch.value < 0x20 && ch != "\t" && ch != "\r" { continue }
            out.unicodeScalars.append(ch)
        }
    }
    return out
}

extension RunReport {
    /// The spec file of a preset, for `file` attributes and locations.
    func source(of preset: String) -> String { presets.first { $0.name == preset }?.source ?? preset }

    /// JUnit XML: one `testcase` per variant and rule (classname `preset.rule`, name the rest of the
    /// variant id), plus one per variant for its snapshot when snapshots were checked. Findings at the
    /// fail level are `failure`s; others are listed in `system-out`. Snapshot pictures are attached
    /// with `[[ATTACHMENT|path]]` lines (Jenkins' and GitLab's convention); both read such a path
    /// relative to the working folder (Jenkins' workspace, GitLab's `$CI_PROJECT_DIR`), so the pictures'
    /// report-relative paths are prefixed with `attachmentBase`, the report folder as seen from there.
    /// Every element carries `time="0"` (no clock goes into a report; dorny/test-reporter shows a
    /// missing time as NaN).
    public func junitXML(attachmentBase: String = "") -> String {
        let failing = Set(failingFindings.map { "\($0.rule)|\($0.variant)|\($0.subject)" })
        let matcher = FindingMatcher(findings)
        let snapshotByID = Dictionary((snapshots?.results ?? []).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let ruleIDs = rules.map(\.id)

        var suites = ""
        var totalTests = 0
        var totalFailures = 0
        for preset in presets {
            let vs = variants.filter { $0.preset == preset.name }
            if vs.isEmpty { continue }
            var cases = ""
            var tests = 0
            var failures = 0
            for v in vs {
                let name = String(v.id.dropFirst(preset.name.count + 1))
                let mine = matcher.matches(v.id).map { findings[$0] }
                for rule in ruleIDs {
                    tests += 1
                    let hits = mine.filter { $0.rule == rule }
                    let fails = hits.filter { failing.contains("\($0.rule)|\($0.variant)|\($0.subject)") }
                    cases += "    <testcase classname=\"\(xmlEscape(preset.name + "." + rule))\" name=\"\(xmlEscape(name))\" file=\"\(xmlEscape(preset.source))\" time=\"0\""
                    if hits.isEmpty {
                        cases += "/>\n"
                        continue
                    }
                    cases += ">\n"
                    if let first = fails.first {
                        failures += 1
                        let body = fails.map { "[\($0.severity)] \($0.message)" }.joined(separator: "\n")
                        cases += "      <failure type=\"\(xmlEscape(rule))\" message=\"\(xmlEscape(first.message))\">\(xmlEscape(body))</failure>\n"
                    }
                    let notes = hits.filter { !fails.contains($0) }
                    if !notes.isEmpty {
                        let text = notes.map { "[\($0.severity)\($0.accepted != nil ? ", accepted" : "")] \($0.message)" }.joined(separator: "\n")
                        cases += "      <system-out>\(xmlEscape(text))</system-out>\n"
                    }
                    cases += "    </testcase>\n"
                }
                if let s = snapshotByID[v.id] {
                    tests += 1
                    cases += "    <testcase classname=\"\(xmlEscape(preset.name + ".snapshot"))\" name=\"\(xmlEscape(name))\" file=\"\(xmlEscape(snapshotFile(s)))\" time=\"0\""
                    if !s.failed {
                        cases += "/>\n"
                        continue
                    }
                    failures += 1
                    let message = snapshotMessage(s)
                    cases += ">\n      <failure type=\"snapshot-\(xmlEscape(s.status.rawValue))\" message=\"\(xmlEscape(message))\">\(xmlEscape(message))</failure>\n"
                    let attachments = [s.expected, s.actual, s.diff].compactMap { $0 }
                        .map { "[[ATTACHMENT|\(attachmentBase.isEmpty ? $0 : attachmentBase + "/" + $0)]]" }
                    if !attachments.isEmpty {
                        cases += "      <system-out>\(xmlEscape(attachments.joined(separator: "\n")))</system-out>\n"
                    }
                    cases += "    </testcase>\n"
                }
            }
            totalTests += tests
            totalFailures += failures
            suites += "  <testsuite name=\"\(xmlEscape(preset.name))\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"0\" skipped=\"0\" time=\"0\" file=\"\(xmlEscape(preset.source))\">\n"
            suites += cases
            suites += "  </testsuite>\n"
        }
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<testsuites name=\"glyphaudit\" tests=\"\(totalTests)\" failures=\"\(totalFailures)\" errors=\"0\" skipped=\"0\" time=\"0\">\n"
            + suites + "</testsuites>\n"
    }

    /// SARIF 2.1.0: one result per finding, located where the problem comes from (the token file and
    /// line when the colour came from a token, else the spec line), with the rules' help text.
    public func sarifData() throws -> Data {
        let ruleIndex = Dictionary(uniqueKeysWithValues: rules.enumerated().map { ($1.id, $0) })
        let sarifRules: [[String: Any]] = rules.map { r in
            var props: [String: Any] = ["tags": ["accessibility"] + (r.criterion.map { ["WCAG \($0)"] } ?? [])]
            if let c = r.criterion { props["wcag"] = c }
            return [
                "id": r.id,
                "name": r.title,
                "shortDescription": ["text": r.title],
                "fullDescription": ["text": r.summary],
                "help": ["text": r.fix, "markdown": "**\(r.title)**\n\n\(r.summary)\n\nHow to fix: \(r.fix)"],
                "defaultConfiguration": ["level": r.severity.severity.map(sarifLevel) ?? "note"],
                "properties": props,
            ]
        }
        var results: [[String: Any]] = []
        for f in findings {
            var result: [String: Any] = [
                "ruleId": f.rule,
                "level": sarifLevel(f.severity),
                "message": ["text": f.message],
                "properties": ["variant": f.variant, "subject": f.subject],
                "partialFingerprints": ["glyphaudit/v1": "\(f.rule)|\(f.variant)|\(f.subject)"],
            ]
            if let i = ruleIndex[f.rule] { result["ruleIndex"] = i }
            var physical: [String: Any]
            if let l = f.location, let tokenFile = l.tokenFile, l.token != nil {
                physical = ["artifactLocation": sarifArtifact(tokenFile)]
                if let line = l.tokenLine { physical["region"] = ["startLine": line] }
            } else {
                physical = ["artifactLocation": sarifArtifact(f.location?.file ?? source(of: f.preset))]
                if let line = f.location?.line { physical["region"] = ["startLine": line] }
            }
            var location: [String: Any] = ["physicalLocation": physical]
            if let key = f.location?.keyPath {
                location["logicalLocations"] = [["name": key, "fullyQualifiedName": "\(f.preset).\(key)", "kind": "member"]]
            }
            result["locations"] = [location]
            if let reason = f.accepted {
                result["suppressions"] = [["kind": "external", "justification": reason]]
            }
            results.append(result)
        }
        let version = tool.split(separator: " ").last.map(String.init) ?? tool
        let doc: [String: Any] = [
            "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
            "version": "2.1.0",
            "runs": [[
                "tool": ["driver": [
                    "name": "glyphaudit",
                    "version": version,
                    "rules": sarifRules,
                ]],
                // Paths are relative to the folder glyphaudit ran in (the repository root in CI); its
                // absolute URI is not written, so the log is the same on every machine (SARIF 2.1.0
                // §3.14.14 allows a base without `uri`; GitHub resolves relative paths from the repository root).
                "originalUriBaseIds": [Self.sarifRoot: [
                    "description": ["text": "The folder glyphaudit ran in (the repository root in CI); file paths are relative to it."],
                ]],
                "results": results,
            ]],
        ]
        var data = try JSONSerialization.data(withJSONObject: doc, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        data.append(0x0A)
        return data
    }

    /// A snapshot result's message, or, when the check gave none, what it means and what to do.
    public func snapshotMessage(_ s: SnapshotRecord) -> String {
        if let m = s.message { return m }
        switch s.status {
        case .new:
            return s.action == .recorded ? "no baseline; recorded as \(s.baseline)"
                : "no baseline yet (\(s.baseline)); if the render is right, record it with `glyphaudit check --record` (or `glyphaudit run --record`)"
        case .stale:
            return "no variant makes this baseline any more; delete it with `glyphaudit check --prune`"
        default:
            return s.status.rawValue
        }
    }

    /// The file a snapshot result points at: its baseline, or, for a new variant (whose baseline does not
    /// exist yet), the preset's spec.
    func snapshotFile(_ s: SnapshotRecord) -> String {
        s.status == .new && s.action != .recorded ? source(of: VariantID(parsing: s.id).preset) : s.baseline
    }

    /// The URI base id of every relative location.
    static let sarifRoot = "%SRCROOT%"

    /// An artifact location: a relative path as a relative URI against `%SRCROOT%`, an absolute path
    /// (a spec outside the working folder) as a `file:` URI.
    func sarifArtifact(_ path: String) -> [String: Any] {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: ";=")
        let encoded = path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
        if path.hasPrefix("/") { return ["uri": "file://" + encoded] }
        return ["uri": encoded, "uriBaseId": Self.sarifRoot]
    }

    func sarifLevel(_ severity: Severity) -> String {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .info: "note"
        }
    }

    /// A short Markdown summary for `$GITHUB_STEP_SUMMARY`: under 1 MiB, no images.
    public func markdown(limit: Int = 50) -> String {
        let c = counts
        var md = "## glyphaudit \(passed ? "✅ passed" : "❌ failed")\n\n"
        md += "| | |\n|---|---|\n"
        md += "| Variants | \(c.variants) |\n"
        md += "| Findings | \(counted(c.errors, "error")), \(counted(c.warnings, "warning")), \(c.infos) info\(c.accepted > 0 ? ", \(c.accepted) accepted" : "") |\n"
        if snapshots != nil {
            md += "| Snapshots | \(c.snapshotMatches) match, \(c.snapshotMismatches) changed, \(c.snapshotNew) new, \(c.snapshotStale) stale |\n"
        }
        md += "| Fails on | \(failOn) |\n\n"
        if !c.byRule.isEmpty {
            md += "### Findings by rule\n\n| rule | WCAG | errors | warnings | info |\n|---|---|---:|---:|---:|\n"
            for rule in rules where c.byRule[rule.id] != nil {
                let r = c.byRule[rule.id]!
                md += "| `\(rule.id)` | \(rule.criterion ?? "—") | \(r["error"] ?? 0) | \(r["warning"] ?? 0) | \(r["info"] ?? 0) |\n"
            }
            md += "\n"
        }
        let failing = failingFindings
        if !failing.isEmpty {
            md += "### Failing findings\n\n"
            for f in failing.prefix(limit) {
                md += "- **\(f.rule)** `\(f.variant)`: \(markdownEscape(f.message))\n"
            }
            if failing.count > limit { md += "- … and \(failing.count - limit) more (see the HTML or JSON report)\n" }
            md += "\n"
        }
        let changed = (snapshots?.results ?? []).filter(\.failed)
        if !changed.isEmpty {
            md += "### Snapshot changes\n\n"
            for s in changed.prefix(limit) {
                md += "- `\(s.id)`: \(s.status) — \(markdownEscape(snapshotMessage(s)))\n"
            }
            if changed.count > limit { md += "- … and \(changed.count - limit) more\n" }
        }
        return md
    }

    /// Text for one Markdown line: Markdown and HTML punctuation backslash-escaped, so a message
    /// (which may quote names from a spec) can neither break the table or list nor become a link,
    /// an image or an HTML tag.
    func markdownEscape(_ s: String) -> String {
        var out = ""
        for ch in s {
            switch ch {
            case "\n", "\r", "\r\n": out += " "
            case "\\", "`", "*", "_", "[", "]", "<", ">", "!", "|": out += "\\" + String(ch)
            default: out.append(ch)
            }
        }
        return out
    }

    /// GitHub Actions workflow commands for failing findings and snapshots (`::error file=…::`).
    public func githubAnnotations(limit: Int = 50) -> [String] {
        func esc(_ s: String) -> String {
            s.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
                .replacingOccurrences(of: "\n", with: "%0A")
        }
        func prop(_ s: String) -> String { esc(s).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C") }
        var lines: [String] = []
        for f in failingFindings.prefix(limit) {
            let file = f.location?.token != nil ? (f.location?.tokenFile ?? f.location?.file) : f.location?.file
            let line = f.location?.token != nil ? f.location?.tokenLine : f.location?.line
            var p = "file=\(prop(file ?? source(of: f.preset)))"
            if let line { p += ",line=\(line)" }
            p += ",title=\(prop("glyphaudit \(f.rule)"))"
            lines.append("::\(f.severity == .warning ? "warning" : "error") \(p)::\(esc("\(f.variant): \(f.message)"))")
        }
        for s in (snapshots?.results ?? []).filter(\.failed).prefix(limit) {
            lines.append("::error file=\(prop(snapshotFile(s))),title=\(prop("glyphaudit snapshot"))::\(esc("\(s.id): \(snapshotMessage(s))"))")
        }
        return lines
    }
}
