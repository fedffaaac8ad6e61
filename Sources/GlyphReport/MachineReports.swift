import Foundation
import GlyphAudit
import GlyphCore
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
        case "\r": out += "&#13;"
        case "\t": out += "&#9;"
        default:
            // XML 1.0 forbids the other control characters and U+FFFE, U+FFFF.
            if ch.value < 0x20 || ch.value == 0xFFFE || ch.value == 0xFFFF { continue }
            out.unicodeScalars.append(ch)
        }
    }
    return out
}

extension RunReport {
    /// The spec file of a preset, for `file` attributes and locations.
    func source(of preset: String) -> String { presets.first { $0.name == preset }?.source ?? preset }

    /// Whether a preset is one of the tool's built-in presets, whose files (spec, tokens, images) are
    /// compiled into glyphaudit and are not files of the repository it runs in. Its `source` is
    /// `Assets/presets/NAME.json` (the built-in's path, which `presetRecords` writes for a spec read
    /// from the tool; a spec read from disk has the path it was given) or `preset:NAME`.
    public func isBuiltin(_ preset: String) -> Bool {
        let source = source(of: preset)
        return source.hasPrefix("preset:") || (Presets.names.contains(preset) && source == Presets.path(preset))
    }

    /// `path` (as report.json has it) as a path from the repository root, when it names a file of the
    /// repository: inside the root (see `RepositoryPaths`) and not a file of a built-in preset (its
    /// spec, tokens and images are inside the tool; baselines never are). `exists` is asked last, with
    /// the file's absolute path (the annotations check that the file is there). Nil otherwise.
    func repositoryPath(_ path: String, builtin: Bool, paths: RepositoryPaths, exists: (String) -> Bool = { _ in true }) -> String? {
        guard !builtin, let rel = paths.fromRoot(path), !rel.isEmpty, exists(paths.absolute(fromRoot: rel)) else { return nil }
        return rel
    }

    /// At most this many findings or snapshots are listed in one JUnit failure or `system-out`; the
    /// rest are counted (`… and 58 more`).
    public static let junitListLimit = 50

    /// JUnit XML sized for CI, as GitLab and Jenkins read it (valid against the Jenkins JUnit schema
    /// with `file` on `testcase` added, `Tests/Fixtures/reference/schemas/jenkins-junit-10-gitlab.xsd`):
    /// one `testsuite` per preset in the run; in it one `testcase` per rule and component (classname
    /// `preset.rule`, name the component, e.g. `square-md`), and, when snapshots were checked, one per
    /// component for its snapshots (classname `preset.snapshot`). The set of test cases depends on the
    /// selection and the rules alone, never on what was found, so a CI's test history follows each one.
    ///
    /// A rule's test case fails when findings at the fail level cover the component (a finding for
    /// every component, `preset/*/…`, such as a theme's text colour, covers each of them): the
    /// failure's message counts them and the variants they cover and quotes the first; its body lists
    /// them, one line each (`[error] id (subject): message`), up to `junitListLimit`. Findings below
    /// the fail level or accepted are listed in `system-out`. A rule that is off is a `skipped` case.
    /// A snapshot case fails when any of its component's snapshots does, and attaches one picture with
    /// `[[ATTACHMENT|path]]` (Jenkins' and GitLab's convention; GitLab shows the first alone): the
    /// case's picture (`writeCasePictures`; `casePictures` names those written, nil: the ones the
    /// report's pictures would make). Both read the path from the repository root (Jenkins'
    /// workspace, GitLab's `$CI_PROJECT_DIR`), so it is prefixed with `attachmentBase`, the report
    /// folder from there. Every element carries a `time`, in seconds with three decimals, from
    /// `timings` (`JUnitTimes`): a rule's case the rule's time on the component, a snapshot case the
    /// component's renders and comparisons, rounded up to the millisecond; a suite its preset's whole
    /// time (at least the sum of its cases'); `testsuites` the sum of its suites'. A report without
    /// timings has `time="0"` everywhere (dorny/test-reporter shows a missing time as NaN). A case
    /// and its suite name the spec in `file` (from the root, `paths`) only when it is a file of the
    /// repository (not a built-in preset).
    public func junitXML(attachmentBase: String = "", paths: RepositoryPaths = .workingFolder(),
                         casePictures: [String: String]? = nil) -> String {
        let failing = Set(failingFindings.map(Self.findingKey))
        let limit = Self.junitListLimit
        var suites = ""
        var totalTests = 0
        var totalFailures = 0
        // Times in milliseconds; without timings every `time` is "0", as before there were any.
        let clock = JUnitTimes(self)
        func time(_ ms: Int) -> String { clock == nil ? "0" : PresetTiming.junitTime(ms) }
        var totalTime = 0
        let variantsByPreset = Dictionary(grouping: variants, by: \.preset)
        let findingsByPreset = Dictionary(grouping: findings, by: \.preset)
        let snapshotsByPreset = Dictionary(grouping: snapshots?.results ?? [], by: \.id.preset)

        func more(_ n: Int) -> String { "… and \(n) more (report.json and index.html list them all)" }
        func lines(_ items: [String]) -> String {
            (items.prefix(limit) + (items.count > limit ? [more(items.count - limit)] : [])).joined(separator: "\n")
        }

        for preset in presets {
            guard let vs = variantsByPreset[preset.name], !vs.isEmpty else { continue }
            var components: [String] = []
            for v in vs where !components.contains(v.component) { components.append(v.component) }
            let ids = vs.map(\.id)
            let mine = findingsByPreset[preset.name] ?? []
            // The appearance a finding's theme declares, after its variant id (nothing when undeclared),
            // then its display setting and focus (`[under Bold Text, focused]`).
            func look(_ f: Finding) -> String {
                (preset.appearance(of: f.variant.baseTheme).map { " [\($0) appearance]" } ?? "") + (f.variant.axesLabel.map { " [\($0)]" } ?? "")
            }
            // A rule's cases: one per component, and per component and display setting when the
            // preset has settings (`square-md under Bold Text`), so a CI's test tab shows the setting.
            var ruleCases: [(component: String, setting: DisplaySetting?)] = []
            for component in components {
                for setting in [nil] + settings(of: preset.name) where vs.contains(where: { $0.component == component && $0.setting == setting }) {
                    ruleCases.append((component, setting))
                }
            }
            var cases = ""
            var tests = 0, failures = 0, skipped = 0, caseTimes = 0
            // GitLab reads `file` on a test case (not on its suite): the spec, from the repository root.
            let specFile = repositoryPath(preset.source, builtin: isBuiltin(preset.name), paths: paths)
            let caseFile = specFile.map { " file=\"\(xmlEscape($0))\"" } ?? ""

            for rule in rules {
                let ruleFindings = mine.filter { $0.rule == rule.id }
                for (component, setting) in ruleCases {
                    tests += 1
                    let name = component + (setting.map { " under \($0.title)" } ?? "")
                    let ms = clock?.rule(preset.name, rule.id, component, setting) ?? 0
                    caseTimes += ms
                    cases += "    <testcase classname=\"\(xmlEscape(preset.name + "." + rule.id))\" name=\"\(xmlEscape(name))\"\(caseFile) time=\"\(time(ms))\""
                    if rule.severity == .off {
                        skipped += 1
                        cases += ">\n      <skipped message=\"\(xmlEscape("\(rule.id) is off in the configuration"))\"/>\n    </testcase>\n"
                        continue
                    }
                    let hits = ruleFindings.filter {
                        let c = $0.id.component
                        return (c == VariantID.any || c == component) && ($0.id.settingFilterValue == VariantID.any || $0.id.setting == setting)
                    }
                    if hits.isEmpty {
                        cases += "/>\n"
                        continue
                    }
                    cases += ">\n"
                    let fails = hits.filter { failing.contains(Self.findingKey($0)) }
                    if let first = fails.first {
                        failures += 1
                        let componentIDs = ids.filter { $0.component == component && $0.setting == setting }
                        let covered = Self.covered(fails, componentIDs)
                        let message = "\(Self.countedFindings(fails)) in \(covered) of \(counted(componentIDs.count, "variant")): \(first.message)"
                            + (fails.count > 1 ? " (and \(fails.count - 1) more)" : "")
                        let body = lines(fails.map { "[\($0.severity)] \($0.variant)\(look($0)) (\($0.subject)): \($0.message)" })
                        cases += "      <failure type=\"\(xmlEscape(rule.id))\" message=\"\(xmlEscape(message))\">\(xmlEscape(body))</failure>\n"
                    }
                    let notes = hits.filter { !failing.contains(Self.findingKey($0)) }
                    if !notes.isEmpty {
                        let text = lines(notes.map {
                            "[\($0.severity)\($0.accepted.map { ", accepted: \($0)" } ?? "")] \($0.variant)\(look($0)) (\($0.subject)): \($0.message)"
                        })
                        cases += "      <system-out>\(xmlEscape(text))</system-out>\n"
                    }
                    cases += "    </testcase>\n"
                }
            }

            if snapshots != nil {
                let results = snapshotsByPreset[preset.name] ?? []
                for component in components {
                    tests += 1
                    let mine = results.filter { $0.id.component == component || (component == components[0] && !components.contains($0.id.component)) }
                    let failed = mine.filter(\.failed)
                    let stale = mine.filter { $0.status == .stale && !$0.failed }
                    let checked = mine.filter { $0.status != .stale }.count
                    let ms = clock?.snapshot(preset.name, component) ?? 0
                    caseTimes += ms
                    cases += "    <testcase classname=\"\(xmlEscape(preset.name + ".snapshot"))\" name=\"\(xmlEscape(component))\"\(caseFile) time=\"\(time(ms))\""
                    if failed.isEmpty && stale.isEmpty {
                        cases += "/>\n"
                        continue
                    }
                    cases += ">\n"
                    if !failed.isEmpty {
                        failures += 1
                        let message = "\(failed.count) of \(counted(checked, "snapshot")) failed: \(Self.snapshotBreakdown(failed))"
                        let body = lines(failed.map { "\(Self.snapshotLabel($0)): \($0.id): \(snapshotMessage($0))" })
                        cases += "      <failure type=\"snapshot\" message=\"\(xmlEscape(message))\">\(xmlEscape(body))</failure>\n"
                    }
                    // One attachment per failed case (GitLab shows the first alone, Jenkins wants each on a
                    // line of its own): the case's picture, its failed snapshots' side-by-sides stacked.
                    var out: [String] = []
                    if !failed.isEmpty, let picture = casePictures?[Self.caseKey(preset.name, component)]
                        ?? (casePictures == nil && !casePictureSources(preset.name, component).isEmpty ? Self.casePicture(preset.name, component) : nil) {
                        out.append("[[ATTACHMENT|\(attachmentBase.isEmpty ? picture : attachmentBase + "/" + picture)]]")
                    }
                    if !stale.isEmpty { out.append(lines(stale.map { "stale: \($0.id): \(snapshotMessage($0))" })) }
                    if !out.isEmpty { cases += "      <system-out>\(xmlEscape(out.joined(separator: "\n")))</system-out>\n" }
                    cases += "    </testcase>\n"
                }
            }

            totalTests += tests
            totalFailures += failures
            let file = caseFile
            let suiteTime = clock?.suite(preset.name, cases: caseTimes) ?? 0
            totalTime += suiteTime
            suites += "  <testsuite name=\"\(xmlEscape(preset.name))\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"0\" "
                + "skipped=\"\(skipped)\" time=\"\(time(suiteTime))\"\(file)>\n"
            suites += cases
            suites += "  </testsuite>\n"
        }
        // (The schema has no `skipped` on `testsuites`: each suite counts its own.)
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<testsuites name=\"glyphaudit\" tests=\"\(totalTests)\" failures=\"\(totalFailures)\" errors=\"0\" time=\"\(time(totalTime))\">\n"
            + suites + "</testsuites>\n"
    }

    /// `3 errors`, `2 warnings`, or `4 failing findings` when the severities are mixed.
    static func countedFindings(_ findings: [Finding]) -> String {
        let severities = Set(findings.map(\.severity))
        return counted(findings.count, severities.count == 1 ? severities.first!.rawValue : "finding")
    }

    /// What tells findings apart (the SARIF fingerprint too).
    static func findingKey(_ f: Finding) -> String { "\(f.rule)|\(f.variant)|\(f.subject)" }

    /// How many of `ids` the findings cover (see `Finding.covers`).
    static func covered(_ findings: [Finding], _ ids: [VariantID]) -> Int {
        var exact = Set<String>()
        var patterns: [(id: VariantID, sizes: Set<String>?)] = []
        for f in findings {
            if !f.variant.hasWildcard && f.dynamicTypeSizes == nil {
                exact.insert(f.variant.description)
            } else {
                patterns.append((f.id, f.dynamicTypeSizes.map { Set($0.map(\.short)) }))
            }
        }
        return ids.filter { v in
            exact.contains(v.description) || patterns.contains { p in
                p.id.covers(v) && (p.sizes.map { $0.contains(v.dynamicType) } ?? true)
            }
        }.count
    }

    /// A failed snapshot's kind in words: `changed`, `new`, `unreadable`, or `not written`.
    static func snapshotLabel(_ s: SnapshotRecord) -> String {
        switch s.status {
        case .mismatch: "changed"
        case .new: "new"
        case .unreadable: "unreadable"
        case .stale: "stale"
        case .match: "not written"
        }
    }

    /// `2 changed, 1 new`: failed snapshots counted by kind, in a fixed order.
    static func snapshotBreakdown(_ failed: [SnapshotRecord]) -> String {
        let labels = failed.map(snapshotLabel)
        return ["changed", "new", "unreadable", "stale", "not written"].compactMap { label in
            let n = labels.filter { $0 == label }.count
            return n == 0 ? nil : "\(n) \(label)"
        }.joined(separator: ", ")
    }

    /// SARIF 2.1.0: one result per finding of a spec in the repository, located where the problem
    /// comes from (the token file and line when the colour came from a token, else the spec line),
    /// with the rules' help text.
    ///
    /// A built-in preset's findings are not results: its spec and tokens are inside the tool, not
    /// files of the repository, and GitHub code scanning refuses a whole log in which any result lacks
    /// a file location (`locationFromSarifResult: expected at least one location` / `expected artifact
    /// location`). They are counted in a note (`invocations[0].toolExecutionNotifications`); the other
    /// reports list them.
    /// Paths are relative to the repository root (`paths`; by default the working folder).
    public func sarifData(paths: RepositoryPaths = .workingFolder()) throws -> Data {
        try JSONOutput.data(sarifLog(paths: paths), keyOrder: .natural)
    }

    /// The SARIF log `sarifData` writes.
    func sarifLog(paths: RepositoryPaths = .workingFolder()) -> SARIFLog {
        let ruleIndex = Dictionary(uniqueKeysWithValues: rules.enumerated().map { ($1.id, $0) })
        let sarifRules = rules.map { r in
            SARIFRule(id: r.id, name: r.title,
                      shortDescription: SARIFMessage(text: r.title),
                      fullDescription: SARIFMessage(text: r.summary),
                      help: SARIFMessage(text: r.fix, markdown: "**\(r.title)**\n\n\(r.summary)\n\nHow to fix: \(r.fix)"),
                      defaultConfiguration: SARIFConfiguration(level: r.severity.severity.map(sarifLevel) ?? "note"),
                      properties: .init(tags: ["accessibility"] + (r.criterion.map { ["WCAG \($0)"] } ?? []), wcag: r.criterion))
        }
        var results: [SARIFResult] = []
        var leftOut: [String: Int] = [:]
        for f in findings {
            guard !isBuiltin(f.preset) else {
                leftOut[f.preset, default: 0] += 1
                continue
            }
            let physical: SARIFPhysicalLocation
            let file: String
            if let l = f.location, let tokenFile = l.tokenFile, l.token != nil {
                file = tokenFile
                physical = SARIFPhysicalLocation(artifactLocation: sarifArtifact(tokenFile, paths), region: l.tokenLine.map { SARIFRegion(startLine: $0) })
            } else {
                file = f.location?.file ?? source(of: f.preset)
                physical = SARIFPhysicalLocation(artifactLocation: sarifArtifact(file, paths),
                                                 region: f.location?.line.map { SARIFRegion(startLine: $0) })
            }
            let logical = f.location?.keyPath.map { key in
                [SARIFLogicalLocation(name: key, fullyQualifiedName: "\(f.preset).\(key)", kind: "member")]
            }
            var result = SARIFResult(
                ruleId: f.rule, ruleIndex: ruleIndex[f.rule], level: sarifLevel(f.severity),
                message: SARIFMessage(text: f.message),
                properties: .init(variant: f.variant.description, subject: f.subject,
                                  appearance: presets.first { $0.name == f.preset }?.appearance(of: f.variant.baseTheme),
                                  setting: f.variant.setting?.rawValue, focused: f.variant.focused ? true : nil),
                partialFingerprints: ["glyphaudit/v1": Self.findingKey(f)],
                locations: [SARIFLocation(physicalLocation: physical, logicalLocations: logical)],
                relatedLocations: f.location.flatMap { sarifChain($0, paths) },
                suppressions: f.accepted.map { [SARIFSuppression(kind: "external", justification: $0)] })
            if let fix = f.suggestion {
                result.message = SARIFMessage(text: "\(f.message). Fix: \(fix.text).")
                result.fixes = sarifFix(fix, physical, file: file, alias: f.location?.aliasChain != nil).map { [$0] }
            }
            results.append(result)
        }
        let version = tool.split(separator: " ").last.map(String.init) ?? tool
        var run = SARIFRun(
            tool: SARIFTool(driver: SARIFDriver(name: "glyphaudit", version: version, rules: sarifRules)),
            // Paths are relative to the repository root (RepositoryPaths: the folder holding .git
            // above the one glyphaudit ran in, or --root); its absolute URI is not written, so the log
            // is the same on every machine (SARIF 2.1.0 §3.14.14 allows a base without `uri`; GitHub
            // resolves relative paths from the repository root).
            originalUriBaseIds: [Self.sarifRoot: SARIFBase(description: SARIFMessage(
                text: "The repository root (the nearest folder holding .git at or above the one glyphaudit ran in, or --root); "
                    + "file paths are relative to it."))],
            results: results)
        if !leftOut.isEmpty {
            let names = presets.map(\.name).filter { leftOut[$0] != nil }
            let n = leftOut.values.reduce(0, +)
            let text = "\(counted(n, "finding")) of the built-in preset\(names.count == 1 ? "" : "s") \(names.joined(separator: ", ")) "
                + "\(n == 1 ? "is" : "are") not among the results: a built-in preset's spec is inside glyphaudit, not a file of this "
                + "repository. report.json, junit.xml, summary.md and index.html list them; `glyphaudit presets show NAME --out DIR` "
                + "writes a preset out as a spec of your own, whose findings are located in it."
            run.invocations = [SARIFInvocation(executionSuccessful: true, toolExecutionNotifications: [
                SARIFNotification(descriptor: SARIFDescriptor(id: "builtin-presets"), level: "note", message: SARIFMessage(text: text),
                                  properties: .init(findings: n, presets: names)),
            ])]
        }
        return SARIFLog(runs: [run])
    }

    /// A SARIF `fix` for a suggested colour: the colour's literal on the line the finding points at
    /// (the spec's key, or the token's final value) replaced by the suggestion. Nil when that line
    /// does not hold the colour as written (`#RRGGBB` in any case), e.g. a colour in `rgb()`.
    /// The related locations of a colour that came through aliases: the spec key that names the
    /// token (its message the key and the alias), then each further token of the chain at its line
    /// (the last with the colour it holds). Nil without a chain.
    func sarifChain(_ l: FindingLocation, _ paths: RepositoryPaths) -> [SARIFLocation]? {
        guard let chain = l.aliasChain, chain.count > 1, let tokenFile = l.tokenFile else { return nil }
        var out = [SARIFLocation(id: 0, physicalLocation: SARIFPhysicalLocation(artifactLocation: sarifArtifact(l.file, paths),
                                                                                region: l.line.map { SARIFRegion(startLine: $0) }),
                                 message: SARIFMessage(text: (l.keyPath.map { "\($0): " } ?? "") + (l.token ?? chain[0].token)))]
        for (i, step) in chain.enumerated().dropFirst() {
            let last = i == chain.count - 1
            out.append(SARIFLocation(id: i, physicalLocation: SARIFPhysicalLocation(artifactLocation: sarifArtifact(tokenFile, paths),
                                                                                    region: step.line.map { SARIFRegion(startLine: $0) }),
                                     message: SARIFMessage(text: "\(chain[i - 1].token) → \(step.token)"
                                                           + (last ? (l.aliasValue.map { " → \($0)" } ?? "") : ""))))
        }
        return out
    }

    /// A fix replaces the failing colour where the location points. When that is a token naming
    /// another (`alias`), it replaces the alias it holds (`"{base.color.neutral.8}"`) with the colour:
    /// what "set {token} to #…" says, without changing the other tokens that name the same one.
    /// `file` is the file as report.json names it (from the working folder), read to find the column.
    func sarifFix(_ fix: ColorFix, _ physical: SARIFPhysicalLocation, file path: String, alias: Bool = false) -> SARIFFix? {
        let artifact = physical.artifactLocation
        guard let line = physical.region?.startLine,
              let data = try? InputFile.read(path, limit: Limits.jsonFileBytes, what: "spec"),
              let text = String(data: data, encoding: .utf8) else { return nil }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard line >= 1, line <= lines.count else { return nil }
        let lineText = lines[line - 1]
        // A spec's theme may hold several colours on one line: the colour after its key. A token's
        // line holds its value alone.
        var from = lineText.startIndex
        if fix.token == nil, let key = fix.keyPath?.split(separator: ".").last {
            guard let k = lineText.range(of: "\"\(key)\"") else { return nil }
            from = k.upperBound
        }
        var written = fix.from
        var found = lineText.range(of: "\"\(fix.from)\"", options: .caseInsensitive, range: from..<lineText.endIndex)
        if found == nil, alias, let open = lineText.range(of: "\"{", range: from..<lineText.endIndex),
           let close = lineText.range(of: "}\"", range: open.upperBound..<lineText.endIndex) {
            found = open.lowerBound..<close.upperBound
            written = String(lineText[lineText.index(after: open.lowerBound)..<lineText.index(before: close.upperBound)])
        }
        guard let range = found else { return nil }
        // Columns count UTF-16 code units from 1 (SARIF's default columnKind), inside the quotes.
        let start = lineText.utf16.distance(from: lineText.startIndex, to: range.lowerBound) + 2
        return SARIFFix(description: SARIFMessage(text: "\(fix.text) for the \(fix.part)"), artifactChanges: [
            SARIFArtifactChange(artifactLocation: artifact, replacements: [
                SARIFReplacement(deletedRegion: SARIFRegion(startLine: line, startColumn: start, endColumn: start + written.utf16.count),
                                 insertedContent: SARIFMessage(text: fix.to)),
            ]),
        ])
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
        s.status == .new && s.action != .recorded ? source(of: s.id.preset) : s.baseline
    }

    /// The URI base id of every relative location.
    static let sarifRoot = "%SRCROOT%"

    /// An artifact location: a path inside the repository root as a relative URI (from the root)
    /// against `%SRCROOT%`; a path outside it as report.json has it (an absolute path as a `file:` URI).
    func sarifArtifact(_ file: String, _ paths: RepositoryPaths) -> SARIFArtifactLocation {
        let path = paths.fromRoot(file).flatMap { $0.isEmpty ? nil : $0 } ?? file
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: ";=")
        let encoded = path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
        if path.hasPrefix("/") { return SARIFArtifactLocation(uri: "file://" + encoded) }
        return SARIFArtifactLocation(uri: encoded, uriBaseId: Self.sarifRoot)
    }

    func sarifLevel(_ severity: Severity) -> String {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .info: "note"
        }
    }
}
