import Foundation
import GlyphAudit
import GlyphCore
import GlyphSnapshot

// What a pull request shows of a run: summary.md (a step summary or a comment) and the workflow
// annotations GitHub puts on the run. Both fold the failing findings into groups (rule × preset ×
// severity) in one order, so an annotation's "… and 37 more in summary.md" is found there.

/// Failing findings of one severity, rule and preset: what one annotation and one entry of
/// summary.md stand for.
struct FailureGroup {
    var severity: Severity
    var preset: String
    var rule: String
    /// In report order (variant, subject).
    var findings: [Finding]
    /// Variants of the run the findings cover.
    var variants: Int
}

extension RunReport {
    /// The failing findings in groups, most important first: errors before warnings; within a
    /// severity, the group covering the most variants first; ties in report order (preset, then rule).
    func failureGroups() -> [FailureGroup] { findingGroups(failingFindings) }

    /// `findings` grouped by severity, preset and rule, in the order of `failureGroups()`.
    func findingGroups(_ findings: [Finding]) -> [FailureGroup] {
        let presetOrder = Dictionary(presets.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { a, _ in a })
        let ruleOrder = Dictionary(rules.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { a, _ in a })
        var groups: [FailureGroup] = []
        var index: [String: Int] = [:]
        for f in findings {
            let key = "\(f.severity.rawValue)\u{0}\(f.preset)\u{0}\(f.rule)"
            if let i = index[key] {
                groups[i].findings.append(f)
            } else {
                index[key] = groups.count
                groups.append(FailureGroup(severity: f.severity, preset: f.preset, rule: f.rule, findings: [f], variants: 0))
            }
        }
        let idsByPreset = Dictionary(grouping: variants, by: \.preset).mapValues { $0.map(\.id) }
        for i in groups.indices {
            groups[i].variants = Self.covered(groups[i].findings, idsByPreset[groups[i].preset] ?? [])
        }
        return groups.enumerated().sorted { a, b in
            let (x, y) = (a.element, b.element)
            if x.severity != y.severity { return x.severity > y.severity }
            if x.variants != y.variants { return x.variants > y.variants }
            let px = presetOrder[x.preset] ?? Int.max, py = presetOrder[y.preset] ?? Int.max
            if px != py { return px < py }
            let rx = ruleOrder[x.rule] ?? Int.max, ry = ruleOrder[y.rule] ?? Int.max
            if rx != ry { return rx < ry }
            return a.offset < b.offset
        }.map(\.element)
    }

    /// The longest a message runs in summary.md and in an annotation before it is cut with `…`.
    static let messageLimit = 300

    /// A suggested colour in summary.md: "set `{token}` to `#949394` (3.06:1)".
    static func markdown(_ fix: ColorFix) -> String {
        let what = fix.token.map { "set \(MarkdownText.code($0)) to \(MarkdownText.code(fix.to))" } ?? "use \(MarkdownText.code(fix.to))"
        return "\(what) (\(fix.ratioText))"
    }

    static func clip(_ s: String, _ limit: Int = messageLimit) -> String {
        s.count <= limit ? s : String(s.prefix(limit - 1)) + "…"
    }

    // MARK: - summary.md

    /// GitHub's limit on a pull-request comment (and on an issue or pull-request body), in characters.
    public static let markdownLimit = 65_536

    /// What summary.md may take, in UTF-8 bytes (never fewer than its characters), so that it stays
    /// under `markdownLimit` with room to spare whatever the size of the run.
    public static let markdownBudget = 60_000

    /// At most this many entries (findings folded across Dynamic Type sizes and scales) under one group.
    static let markdownEntriesPerGroup = 10

    /// summary.md: a Markdown summary to append to `$GITHUB_STEP_SUMMARY` or post as a pull-request
    /// comment, with no images and no HTML: the result and counts, findings by rule, the failing
    /// findings in groups (as the annotations have them: rule × preset, errors first, most variants
    /// first; in each, the findings folded across Dynamic Type sizes and scales), and the snapshots
    /// that failed. Lists are cut with "… and N more" to stay within `budget` UTF-8 bytes; the
    /// snapshots keep at least a third of what the findings could take. Ids, colours and commands are
    /// code spans; other text escapes only what Markdown would read as markup.
    public func markdown(budget: Int = RunReport.markdownBudget) -> String {
        let c = counts
        var head = "## glyphaudit \(passed ? "✅ passed" : "❌ failed")\n\n"
        head += "| | |\n|---|---|\n"
        head += "| Variants | \(c.variants) |\n"
        head += "| Findings | \(counted(c.errors, "error")), \(counted(c.warnings, "warning")), \(c.infos) info\(c.accepted > 0 ? ", \(c.accepted) accepted" : "") |\n"
        if snapshots != nil {
            head += "| Snapshots | \(c.snapshotMatches) match, \(c.snapshotMismatches) changed, \(c.snapshotNew) new, \(c.snapshotStale) stale |\n"
        }
        head += "| Fails on | \(MarkdownText.cell(MarkdownText.code(failOn))) |\n\n"
        var md = MarkdownBudget(limit: budget - 512)
        _ = md.append(head)
        let ruleRows = rules.filter { c.byRule[$0.id] != nil }
        if !ruleRows.isEmpty {
            _ = md.append("### Findings by rule\n\n| rule | WCAG | errors | warnings | info |\n|---|---|---:|---:|---:|\n")
            for (i, rule) in ruleRows.enumerated() {
                let r = c.byRule[rule.id]!
                let row = "| \(MarkdownText.cell(MarkdownText.code(rule.id))) | \(MarkdownText.cell(rule.criterion ?? "—")) "
                    + "| \(r["error"] ?? 0) | \(r["warning"] ?? 0) | \(r["info"] ?? 0) |\n"
                if !md.append(row) {
                    md.force("| … and \(ruleRows.count - i) more rules | | | | |\n")
                    break
                }
            }
            md.force("\n")
        }
        // A run with display settings: the open findings under each (and under none).
        let runSettings = settingsInRun
        if !runSettings.isEmpty && !ruleRows.isEmpty {
            _ = md.append("### Findings by display setting\n\n| setting | errors | warnings | info |\n|---|---:|---:|---:|\n")
            let open = findings.filter { $0.accepted == nil }
            for s in [nil] + runSettings.map(Optional.some) {
                let fs = open.filter { $0.variant.settingFilterValue != VariantID.any && $0.variant.setting == s }
                let e = fs.filter { $0.severity == .error }.count, w = fs.filter { $0.severity == .warning }.count
                _ = md.append("| \(s.map { "\($0.title) (\(MarkdownText.code($0.rawValue)))" } ?? "none (default)") | \(e) | \(w) | \(fs.count - e - w) |\n")
            }
            let every = open.filter { $0.variant.settingFilterValue == VariantID.any }.count
            if every > 0 { _ = md.append("\n\(counted(every, "finding")) hold\(every == 1 ? "s" : "") under every setting (`*` in the theme part).\n") }
            md.force("\n")
        }
        let rest = md.remaining
        let groups = failureGroups()
        let failed = (snapshots?.results ?? []).filter(\.failed)
        // The snapshots first get a third, the findings what is left; then the snapshots what the
        // findings did not take.
        let firstSnapshots = failed.isEmpty ? "" : snapshotSection(failed, budget: groups.isEmpty ? rest : rest / 3)
        let findingsText = groups.isEmpty ? "" : findingSection(groups, budget: rest - firstSnapshots.utf8.count)
        let snapshotText = failed.isEmpty ? "" : snapshotSection(failed, budget: rest - findingsText.utf8.count)
        return md.text + findingsText + snapshotText + groupSection(budget: rest - findingsText.utf8.count - snapshotText.utf8.count)
    }

    /// The snapshot changes by cause (`snapshotGroups`), one line per group with its count.
    func groupSection(budget: Int) -> String {
        guard let groups = snapshotGroups, !groups.isEmpty else { return "" }
        var md = MarkdownBudget(limit: budget - 100)
        guard md.append("### Snapshot changes by cause\n\n") else { return "" }
        for (i, g) in groups.enumerated() {
            let entry = "- \(MarkdownText.code(g.id)) \(g.kind.rawValue): \(MarkdownText.prose(Self.clip(g.summary)))\n"
            if !md.append(entry) {
                md.force("- … and \(groups.count - i) more: report.json lists them all\n")
                break
            }
        }
        // The ids are what `accept --group` takes, when the run staged the renders.
        if snapshots?.candidates != nil, groups.contains(where: { $0.kind != .stale }) {
            _ = md.append("\nAccept the staged renders of groups with `glyphaudit accept REPORT --group ID` (repeat `--group` for several; "
                          + "REPORT is this report's folder): index.html shows each group's pictures and writes the command for the ones you tick.\n")
        }
        return md.text + "\n"
    }

    /// The failing findings, group by group, within `budget` bytes.
    func findingSection(_ groups: [FailureGroup], budget: Int) -> String {
        var md = MarkdownBudget(limit: budget - 400)
        guard md.append("### Failing findings\n\nBy rule and preset, the groups covering the most variants first; "
                        + "findings that differ only in Dynamic Type size and scale are folded.\n\n") else { return "" }
        for (g, group) in groups.enumerated() {
            let mark = group.severity == .error ? "❌" : "⚠️"
            let line = "- \(mark) **\(MarkdownText.code(group.rule))** in \(MarkdownText.code(group.preset)): "
                + "\(Self.countedFindings(group.findings)) in \(counted(group.variants, "variant"))\n"
            guard md.append(line) else {
                md.force(foldLine(groups[g...]))
                return md.text + "\n"
            }
            let entries = Self.folded(group.findings)
            for (i, e) in entries.enumerated() {
                let more = entries.count - i
                if i == Self.markdownEntriesPerGroup {
                    md.force("  - … and \(more) more\n")
                    break
                }
                let fold = e.count > 1 ? " (\(e.count) findings at different Dynamic Type sizes or scales)" : ""
                let fix = e.first.suggestion.map { " — fix: \(Self.markdown($0))" } ?? ""
                let axes = e.first.variant.axesLabel.map { " (\($0))" } ?? ""
                let entry = "  - \(MarkdownText.code(e.id))\(axes): \(MarkdownText.prose(Self.clip(e.first.message)))\(fold)\(fix)\n"
                if !md.append(entry) {
                    md.force("  - … and \(more) more\n")
                    if g + 1 < groups.count { md.force(foldLine(groups[(g + 1)...])) }
                    return md.text + "\n"
                }
            }
        }
        return md.text + "\n"
    }

    private func foldLine(_ rest: ArraySlice<FailureGroup>) -> String {
        let n = rest.reduce(0) { $0 + $1.findings.count }
        return "- … and \(counted(rest.count, "more group")) (\(counted(n, "finding"))): index.html and report.json list them all\n"
    }

    /// The failed snapshots, within `budget` bytes.
    func snapshotSection(_ failed: [SnapshotRecord], budget: Int) -> String {
        var md = MarkdownBudget(limit: budget - 200)
        guard md.append("### Snapshot changes\n\n") else { return "" }
        for (i, s) in failed.enumerated() {
            let entry = "- \(MarkdownText.code(s.id.description)): \(s.status.rawValue) — \(MarkdownText.prose(Self.clip(snapshotMessage(s))))\n"
            if !md.append(entry) {
                md.force("- … and \(failed.count - i) more: index.html shows them all\n")
                break
            }
        }
        return md.text + "\n"
    }

    /// Findings folded as the HTML report folds them (`Finding.foldKey`): the id of each fold has `*`
    /// where its findings differ; the first finding speaks for it.
    static func folded(_ findings: [Finding]) -> [(id: String, first: Finding, count: Int)] {
        var order: [String] = []
        var byKey: [String: [Finding]] = [:]
        for f in findings {
            if byKey[f.foldKey] == nil { order.append(f.foldKey) }
            byKey[f.foldKey, default: []].append(f)
        }
        return order.map { key in
            let fs = byKey[key]!
            let ids = fs.map(\.id)
            let id = ids.allSatisfy(\.isComplete) ? (VariantID.group(ids)?.description ?? fs[0].variant.description) : fs[0].variant.description
            return (id, fs[0], fs.count)
        }
    }

    // MARK: - GitHub annotations

    /// GitHub shows at most 10 error and 10 warning annotations of a step.
    public static let annotationLimit = 10

    /// GitHub Actions workflow commands for the open findings and failed snapshots, at most `limit`
    /// `::error` and `limit` `::warning` lines, the most important first: one line for all failed
    /// snapshots (first, as an error), then one per group of open errors, then of open warnings,
    /// whatever `--fail-on` says (within each, the group covering the most variants first). A line quotes its group's first finding and counts the
    /// rest ("… and 107 more in summary.md"); when there are more groups than lines, the last line
    /// counts the groups left out. `file=` (and `line=`) is given only for a file of the repository —
    /// a spec or token file of a spec given with `--spec`, inside the repository root (`paths`), that
    /// `exists` (asked with its absolute path) — as a path from the root, never for a built-in preset,
    /// whose files are inside the tool.
    public func githubAnnotations(limit: Int = RunReport.annotationLimit, paths: RepositoryPaths = .workingFolder(),
                                  exists: (String) -> Bool = { FileManager.default.fileExists(atPath: $0) }) -> [String] {
        func esc(_ s: String) -> String {
            s.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
                .replacingOccurrences(of: "\n", with: "%0A")
        }
        func prop(_ s: String) -> String { esc(s).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C") }
        func command(_ level: String, file: (path: String, line: Int?)?, title: String, message: String) -> String {
            var p = ""
            if let file {
                p += "file=\(prop(file.path))"
                if let line = file.line { p += ",line=\(line)" }
                p += ","
            }
            p += "title=\(prop(Self.clip(title, 200)))"
            return "::\(level) \(p)::\(esc(message))"
        }
        func place(_ group: FailureGroup) -> (path: String, line: Int?)? {
            for f in group.findings {
                guard let l = f.location else { continue }
                let tokenFile = l.token != nil ? l.tokenFile : nil
                let path = tokenFile ?? l.file
                if let rel = repositoryPath(path, builtin: isBuiltin(f.preset), paths: paths, exists: exists) {
                    return (rel, tokenFile != nil ? l.tokenLine : l.line)
                }
            }
            return repositoryPath(source(of: group.preset), builtin: isBuiltin(group.preset), paths: paths, exists: exists).map { ($0, nil) }
        }
        func lines(_ level: String, _ groups: [FailureGroup], slots: Int) -> [String] {
            guard slots > 0 else { return [] }
            let shown = groups.count > slots ? Array(groups.prefix(slots - 1)) : groups
            var out = shown.map { g -> String in
                let first = g.findings[0]
                var message = "\(first.variant)\(first.variant.axesLabel.map { " (\($0))" } ?? ""): \(Self.clip(first.message))"
                if let fix = first.suggestion { message += "; fix: \(fix.text)" }
                if g.findings.count > 1 {
                    message += "\n… and \(g.findings.count - 1) more in summary.md (\(counted(g.variants, "variant")) in all)"
                }
                return command(level, file: place(g), title: "glyphaudit \(g.rule): \(Self.countedFindings(g.findings)) in \(g.preset)",
                               message: message)
            }
            if groups.count > shown.count {
                let left = groups[shown.count...]
                let names = left.prefix(5).map { "\($0.rule) in \($0.preset)" }.joined(separator: ", ") + (left.count > 5 ? ", …" : "")
                let n = left.reduce(0) { $0 + $1.findings.count }
                out.append(command(level, file: nil, title: "glyphaudit: \(counted(left.count, "more group")) of \(level)s",
                                   message: "… and \(counted(left.count, "more group")) (\(counted(n, "finding"))) in summary.md: \(names)"))
            }
            return out
        }

        var errors: [String] = []
        let failed = (snapshots?.results ?? []).filter(\.failed)
        if let first = failed.first, limit > 0 {
            let checked = (snapshots?.results ?? []).filter { $0.status != .stale }.count
            var message = "\(Self.snapshotBreakdown(failed))\n\(first.id): \(Self.clip(snapshotMessage(first)))"
            if failed.count > 1 { message += "\n… and \(failed.count - 1) more in summary.md" }
            // A baseline is the repository's; a new snapshot points at its spec, which may be built in.
            let file = snapshotFile(first)
            let builtin = file != first.baseline && isBuiltin(first.id.preset)
            errors.append(command("error", file: repositoryPath(file, builtin: builtin, paths: paths, exists: exists).map { ($0, nil) },
                                  title: "glyphaudit snapshots: \(failed.count) of \(checked) failed", message: message))
        }
        // Every open error and warning, whatever --fail-on: a warning annotation fails nothing, and
        // a shard run with --fail-on never still shows its errors where they are.
        let groups = findingGroups(findings.filter { $0.accepted == nil && $0.severity >= .warning })
        errors += lines("error", groups.filter { $0.severity == .error }, slots: limit - errors.count)
        return errors + lines("warning", groups.filter { $0.severity == .warning }, slots: limit)
    }
}

/// Text appended while it fits in a number of UTF-8 bytes; `force` appends past the limit (for the
/// short "… and N more" lines, which the callers leave room for).
struct MarkdownBudget {
    var text = ""
    let limit: Int

    init(limit: Int) { self.limit = max(0, limit) }

    var remaining: Int { max(0, limit - text.utf8.count) }

    mutating func append(_ s: String) -> Bool {
        guard text.utf8.count + s.utf8.count <= limit else { return false }
        text += s
        return true
    }

    mutating func force(_ s: String) { text += s }
}

/// Markdown (CommonMark with GitHub's tables) for text that comes from findings and specs.
enum MarkdownText {
    /// A code span holding `s` as it is: fenced with one backtick more than the longest run of
    /// backticks inside it, padded with a space where the content starts or ends with a backtick
    /// or ends with a backslash (CommonMark strips one such space on each side). Line breaks become
    /// spaces, as they would inside a span.
    static func code(_ s: String) -> String {
        let t = String(s.map { $0.isNewline ? " " : $0 })
        guard !t.isEmpty else { return "" }
        var longest = 0, run = 0
        for ch in t {
            run = ch == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: longest + 1)
        let pad = t.first == "`" || t.last == "`" || t.last == "\\" || (t.first == " " && t.last == " ") ? " " : ""
        return fence + pad + t + pad + fence
    }

    /// A table cell: `|` is the one character GitHub reads as the cell's end even inside a code span.
    static func cell(_ s: String) -> String { s.replacingOccurrences(of: "|", with: "\\|") }

    /// A message as one line of Markdown: the code spans it has (``…``) stay code spans, a colour
    /// (`#RRGGBB`, `#RRGGBBAA`) becomes one, and in the rest only what Markdown would read as markup
    /// is escaped — `\`, `[`, `]` (links and images), `*`, `~`, a `_` not inside a word (emphasis),
    /// `<` and an `&` that could start an entity (HTML) — so a name from a spec can neither format
    /// the text nor become a link, an image or a tag. A backtick is never escaped: one without its
    /// pair becomes a code span of its own.
    static func prose(_ s: String) -> String {
        let chars = Array(s)
        func isWord(_ i: Int) -> Bool { i >= 0 && i < chars.count && (chars[i].isLetter || chars[i].isNumber) }
        func isHex(_ i: Int) -> Bool { i < chars.count && chars[i].isHexDigit }
        var out = ""
        var i = 0
        while i < chars.count {
            let ch = chars[i]
            if ch == "`" {
                var n = 0
                while i + n < chars.count && chars[i + n] == "`" { n += 1 }
                // The span closes at the next run of exactly n backticks (CommonMark).
                var j = i + n
                var close: Int?
                while j < chars.count {
                    guard chars[j] == "`" else { j += 1; continue }
                    var m = 0
                    while j + m < chars.count && chars[j + m] == "`" { m += 1 }
                    if m == n { close = j; break }
                    j += m
                }
                if let close {
                    var inner = String(chars[(i + n)..<close])
                    if inner.count >= 2, inner.first == " ", inner.last == " ", inner.contains(where: { $0 != " " }) {
                        inner = String(inner.dropFirst().dropLast())
                    }
                    out += code(inner)
                    i = close + n
                } else {
                    out += code(String(repeating: "`", count: n))
                    i += n
                }
                continue
            }
            if ch == "#" && !isWord(i - 1) {
                var n = 0
                while isHex(i + 1 + n) { n += 1 }
                if (n == 6 || n == 8) && !isWord(i + 1 + n) {
                    out += code(String(chars[i...(i + n)]))
                    i += n + 1
                    continue
                }
            }
            switch ch {
            case _ where ch.isNewline: out += " "
            case "\\", "[", "]", "*", "~": out += "\\" + String(ch)
            case "_": out += isWord(i - 1) && isWord(i + 1) ? "_" : "\\_"
            case "<": out += "&lt;"
            case "&": out += isWord(i + 1) || (i + 1 < chars.count && chars[i + 1] == "#") ? "&amp;" : "&"
            default: out.append(ch)
            }
            i += 1
        }
        return out
    }
}
