import Foundation
import GlyphAudit
import GlyphColor
import GlyphCore
import GlyphRaster
import GlyphSnapshot

/// The designers' report: one self-contained `index.html` (no server, no network, no outside fonts
/// or scripts) beside its pictures. Semantic HTML, usable with the keyboard, its own text and
/// controls at WCAG AA contrast.
extension RunReport {
    /// The width a contact sheet may take: the page's 1400 px less its 20 px margins.
    static let sheetWidth = 1360

    public func html() -> String {
        let page = HTMLPage(self)
        var h = HTMLBuilder()
        page.head(&h)
        page.overview(&h)
        page.filters(&h)
        page.contactSheets(&h)
        page.findingSection(&h)
        page.snapshotSection(&h)
        page.footer(&h)
        return h.text
    }

    /// The presets this report holds variants (or findings) of: with `--only preset=…` or in a shard,
    /// the others are not listed, so a "—" never stands for a preset that was not run.
    var presetsInReport: [PresetRecord] {
        let names = Set(variants.map(\.preset)).union(findings.map(\.preset))
        return presets.filter { names.contains($0.name) }
    }

    /// One rule's findings of one severity in one preset, folded into cards.
    struct RuleGroup {
        var rule: RuleRecord
        var severity: Severity
        var folds: [[Int]]
        /// The heading's id: `rule-<id>` for the rule's first group on the page.
        var anchor: String
    }

    /// The findings of each preset in the order the page lists them: errors, then warnings, then info;
    /// within a severity by rule (in the `rules` order); open findings before accepted ones.
    func findingGroups(_ shown: [PresetRecord]) -> [(preset: String, rules: [RuleGroup])] {
        var used = Set<String>()
        var out: [(preset: String, rules: [RuleGroup])] = []
        for p in shown {
            let pf = findings.indices.filter { findings[$0].preset == p.name }
            if pf.isEmpty { continue }
            var groups: [RuleGroup] = []
            for severity in [Severity.error, .warning, .info] {
                for rule in rules {
                    let rf = pf.filter { findings[$0].rule == rule.id && rank(findings[$0].severity) == rank(severity) }
                    if rf.isEmpty { continue }
                    let anchor = used.insert(rule.id).inserted ? "rule-\(rule.id)" : "rule-\(rule.id)-\(p.name)-\(severity.rawValue)"
                    groups.append(RuleGroup(rule: rule, severity: severity, folds: foldFindings(rf), anchor: anchor))
                }
            }
            out.append((p.name, groups))
        }
        return out
    }

    /// The Dynamic Type sizes a card's findings hold at, in size order (all the preset's for `*`).
    func dynamicTypeSizes(of fold: [Int], preset: PresetRecord?) -> [String] {
        let all = preset?.dynamicTypeSizes ?? DynamicTypeSize.allCases.map(\.short)
        var sizes = Set<String>()
        for j in fold {
            let f = findings[j]
            let part = f.id.dynamicType.isEmpty ? VariantID.any : f.id.dynamicType
            let base = part == "*" ? all : [part]
            sizes.formUnion(f.dynamicTypeSizes.map { s in base.filter { b in s.contains { $0.short == b } } } ?? base)
        }
        return DynamicTypeSize.allCases.map(\.short).filter(sizes.contains)
    }

    static func severityTitle(_ severity: Severity, _ n: Int) -> String {
        switch severity {
        case .error: n == 1 ? "Error" : "Errors"
        case .warning: n == 1 ? "Warning" : "Warnings"
        case .info: "Info"
        }
    }

    /// A variant id without its scale: the picture the contact sheet shows for every scale.
    static func pictureID(_ id: String) -> String {
        guard let at = id.lastIndex(of: "@") else { return id }
        return String(id[..<at])
    }

    /// The width a sheet of these columns takes at the renders' own size (CSS px): the size column,
    /// then each column as wide as its widest render or its heading, with the cell padding and border.
    static func naturalWidth(_ columns: [(theme: String, state: String)], _ variants: [VariantRecord]) -> Int {
        48 + columns.reduce(0) { sum, col in
            let widest = variants.filter { $0.theme == col.theme && $0.state == col.state }.map { $0.width / 2 }.max() ?? 0
            let heading = max(col.theme.count, col.state.count) * 8 + 16
            return sum + max(widest, heading) + 9
        }
    }

    /// For each picture (variant id at @2x), the open findings that cover it at any scale.
    func variantFindingIndex() -> [String: [Int]] {
        let matcher = FindingMatcher(findings) { $0.accepted == nil }
        var out: [String: [Int]] = [:]
        for v in variants where v.image != nil {
            let hits = matcher.matches(v.id, anyScale: true)
            if !hits.isEmpty { out[v.pictureKey] = hits }
        }
        return out
    }

    /// Findings that differ only in Dynamic Type size and scale fold into one card (in order; open
    /// findings before accepted ones).
    func foldFindings(_ indices: [Int]) -> [[Int]] {
        var order: [String] = []
        var groups: [String: [Int]] = [:]
        for i in indices {
            let f = findings[i]
            let key = f.foldKey
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(i)
        }
        return order.enumerated().sorted { a, b in
            let ra = rank(findings[groups[a.element]![0]].severity), rb = rank(findings[groups[b.element]![0]].severity)
            if ra != rb { return ra < rb }
            let aa = findings[groups[a.element]![0]].accepted != nil, ab = findings[groups[b.element]![0]].accepted != nil
            return aa != ab ? !aa : a.offset < b.offset
        }.map { groups[$0.element]! }
    }

    func formatNumber(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e9 ? String(Int(v)) : String(format: "%.4g", v)
    }
}

/// Severities in the page's order: error 0, warning 1, info 2.
private func rank(_ severity: Severity) -> Int { severity == .error ? 0 : severity == .warning ? 1 : 2 }

/// The strings in the order first seen, each once.
private func orderedUnique(_ xs: [String]) -> [String] {
    var seen = Set<String>()
    return xs.filter { seen.insert($0).inserted }
}

/// The report's page, one section per function; what several sections share is computed once here.
struct HTMLPage {
    let report: RunReport
    let shown: [PresetRecord]
    let groups: [(preset: String, rules: [RunReport.RuleGroup])]
    let dts: [String]
    let changedSnapshots: [SnapshotRecord]

    init(_ report: RunReport) {
        self.report = report
        shown = report.presetsInReport
        groups = report.findingGroups(shown)
        dts = DynamicTypeSize.allCases.map(\.short).filter { s in report.variants.contains { $0.dynamicType == s } }
        changedSnapshots = (report.snapshots?.results ?? []).filter { $0.status != .match }
    }

    var c: RunReport.Counts { report.counts }
    var ruleIDs: [String] { report.rules.map(\.id) }

    func head(_ h: inout HTMLBuilder) {
        let passed = report.passed
        let status = passed ? "Passed" : "Failed"
        let failOn = report.failOn, tool = report.tool, shard = report.shard
        h.add("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        h.add("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
        h.add("<title>glyphaudit report — \(status)</title>\n<style>\(HTML(trusted: HTMLBuilder.css))</style>\n</head>\n<body>\n")
        h.add("<a class=\"skip\" href=\"#main\">Skip to the report</a>\n")
        h.add("<header class=\"top\"><div class=\"wrap\"><h1>glyphaudit report</h1>")
        h.add("<p class=\"status \(passed ? "pass" : "fail")\"><span aria-hidden=\"true\">\(passed ? "✓" : "✕")</span> \(status)")
        h.add(" <span class=\"muted\">fails on \(failOn) · \(tool)\(shard.map { " · shard \($0)" } ?? "")</span></p></div></header>\n")
        h.add("<main id=\"main\" class=\"wrap\">\n")
    }

    /// Counts by severity and snapshot status, and findings by preset and rule.
    func overview(_ h: inout HTMLBuilder) {
        let c = self.c, groups = self.groups, shown = self.shown, ruleIDs = self.ruleIDs
        let snapshots = report.snapshots, findings = report.findings, presets = report.presets, shard = report.shard
        h.add("<section aria-labelledby=\"overview\"><h2 id=\"overview\">Overview</h2>\n<ul class=\"cards\">\n")
        h.card("Variants", "\(c.variants)", "rendered and audited")
        h.card("Errors", "\(c.errors)", "findings", tone: c.errors > 0 ? "bad" : "good")
        h.card("Warnings", "\(c.warnings)", "findings", tone: c.warnings > 0 ? "warn" : "good")
        h.card("Info", "\(c.infos)", c.accepted > 0 ? "findings · \(c.accepted) accepted" : "findings")
        if snapshots != nil {
            let changes = c.snapshotMismatches + c.snapshotNew + c.snapshotStale
            h.card("Snapshot changes", "\(changes)", "\(c.snapshotMismatches) changed · \(c.snapshotNew) new · \(c.snapshotStale) stale",
                   tone: c.snapshotFailed > 0 ? "bad" : "good")
        }
        h.add("</ul>\n")
        h.add("<table class=\"counts\"><caption>Findings by preset and rule (errors / warnings / info)</caption>\n<thead><tr><th scope=\"col\">Preset</th>")
        for r in ruleIDs {
            let anchor = groups.lazy.flatMap(\.rules).first { $0.rule.id == r }?.anchor
            h.add(anchor.map { "<th scope=\"col\"><a href=\"#\($0)\">\(r)</a></th>" } ?? "<th scope=\"col\">\(r)</th>")
        }
        h.add("</tr></thead>\n<tbody>\n")
        for p in shown {
            h.add("<tr><th scope=\"row\"><a href=\"#preset-\(p.name)\">\(p.name)</a></th>")
            let pg = groups.first { $0.preset == p.name }?.rules ?? []
            for r in ruleIDs {
                let fs = findings.filter { $0.preset == p.name && $0.rule == r && $0.accepted == nil }
                let e = fs.filter { $0.severity == .error }.count, w = fs.filter { $0.severity == .warning }.count
                let i = fs.count - e - w
                let cls = e > 0 ? "bad" : w > 0 ? "warn" : "ok"
                let text = "\(e) / \(w) / \(i)"
                if fs.isEmpty {
                    h.add("<td class=\"ok\"><span class=\"muted\" title=\"no findings\">—</span></td>")
                } else if let anchor = pg.first(where: { $0.rule.id == r })?.anchor {
                    h.add("<td class=\"\(cls)\"><a href=\"#\(anchor)\">\(text)</a></td>")
                } else {
                    h.add("<td class=\"\(cls)\">\(text)</td>")
                }
            }
            h.add("</tr>\n")
        }
        h.add("</tbody></table>\n")
        if shown.count < presets.count {
            let others = presets.filter { p in !shown.contains { $0.name == p.name } }.map(\.name)
            h.add("<p class=\"muted\">Not in this \(shard == nil ? "run" : "shard") (no variant selected): \(others.joined(separator: ", ")).</p>\n")
        }
        h.add("</section>\n")
    }

    func filters(_ h: inout HTMLBuilder) {
        let shown = self.shown, ruleIDs = self.ruleIDs, dts = self.dts, variants = report.variants
        let themes = orderedUnique(shown.flatMap(\.themes)).filter { t in variants.contains { $0.theme == t } }
        h.add("<section aria-labelledby=\"filters\" class=\"filters\"><h2 id=\"filters\">Filters</h2>\n<form id=\"filter-form\" onsubmit=\"return false\">\n")
        h.select("preset", "Preset", shown.map(\.name))
        h.select("rule", "Rule", ruleIDs)
        h.select("severity", "Severity", ["error", "warning", "info"])
        h.select("theme", "Theme", themes)
        h.select("dt", "Dynamic Type size", dts)
        h.add("<p class=\"filter-note\" id=\"filter-count\" role=\"status\" aria-live=\"polite\"></p>\n</form></section>\n")
    }

    /// Every @2x render, a table per component (rows: Dynamic Type sizes; columns: theme × state).
    func contactSheets(_ h: inout HTMLBuilder) {
        let groups = self.groups, shown = self.shown, dts = self.dts, changedSnapshots = self.changedSnapshots
        let findings = report.findings, variants = report.variants
        var cardOf: [Int: Int] = [:]
        for g in groups { for r in g.rules { for fold in r.folds { for i in fold { cardOf[i] = fold[0] } } } }
        let findingsByVariant = report.variantFindingIndex()
        var snapshotsByPicture: [String: [Int]] = [:]
        for (n, s) in changedSnapshots.enumerated() where s.status != .stale {
            snapshotsByPicture[RunReport.pictureID(s.id), default: []].append(n)
        }
        h.add("<section aria-labelledby=\"sheets\"><h2 id=\"sheets\">Contact sheets</h2>\n")
        h.add("<p class=\"muted\">Each cell is the @2x render on its own surface. Cells with findings are outlined "
              + "(solid: error, dashed: warning, dotted: info) and link to them; the Rule and Severity filters outline "
              + "only the cells with a matching finding and dim the others. "
              + "<span class=\"snap-badge\">snapshot</span> marks a render whose baseline changed, is new or is unreadable.</p>\n")
        for p in shown {
            let pv = variants.filter { $0.preset == p.name && $0.image != nil }
            if pv.isEmpty { continue }
            h.add("<section class=\"preset\" id=\"preset-\(p.name)\" data-preset=\"\(p.name)\"><h3>\(p.name)</h3>\n")
            if !p.description.isEmpty { h.add("<p class=\"muted\">\(p.description)</p>\n") }
            for comp in orderedUnique(pv.map(\.component)) {
                let cv = pv.filter { $0.component == comp }
                let columns = p.themes.flatMap { t in p.states.map { (theme: t, state: $0) } }
                    .filter { col in cv.contains { $0.theme == col.theme && $0.state == col.state } }
                let rows = dts.filter { dt in cv.contains { $0.dynamicType == dt } }
                let sheet = SheetContext(findings: findings, byVariant: findingsByVariant, cardOf: cardOf,
                                         snapshots: changedSnapshots, snapshotsByPicture: snapshotsByPicture)
                // Columns theme × state at the renders' own size when they fit the page; else the table
                // takes the page width in equal columns and the renders wider than a column are scaled
                // down to it (the small sizes keep their size, so every cell stays readable).
                h.add("<div class=\"sheet-scroll\" tabindex=\"0\" role=\"region\" aria-label=\"\(p.name) \(comp) contact sheet\">\n")
                sheet.table(&h, caption: "\(comp) · @2x", columns: columns, rows: rows, variants: cv,
                            fit: RunReport.naturalWidth(columns, cv) > RunReport.sheetWidth)
                h.add("</div>\n")
            }
            h.add("</section>\n")
        }
        h.add("</section>\n")
    }

    /// Per preset, errors first, then warnings, then info; within a severity by rule.
    func findingSection(_ h: inout HTMLBuilder) {
        let groups = self.groups, findings = report.findings, presets = report.presets
        h.add("<section aria-labelledby=\"findings\"><h2 id=\"findings\">Findings</h2>\n")
        if findings.isEmpty { h.add("<p>No findings.</p>\n") }
        for g in groups {
            let p = presets.first { $0.name == g.preset }
            h.add("<section class=\"finding-group\" data-preset=\"\(g.preset)\"><h3>\(g.preset)</h3>\n")
            for rg in g.rules {
                let rule = rg.rule
                let count = rg.folds.reduce(0) { $0 + $1.count }
                h.add("<section class=\"rule-group\" data-rule=\"\(rule.id)\" data-severity=\"\(rg.severity.rawValue)\">")
                h.add("<h4 id=\"\(rg.anchor)\"><span class=\"badge \(rg.severity.rawValue)\">\(RunReport.severityTitle(rg.severity, count))</span> ")
                h.add("\(rule.title) <code>\(rule.id)</code>")
                if let cr = rule.criterion { h.add(" <span class=\"muted\">WCAG \(cr)</span>") }
                h.add(" <span class=\"muted\">· \(count)</span></h4>\n")
                h.add("<details class=\"fix\"><summary>What it checks and how to fix it</summary><p>\(rule.summary)</p><p><strong>Fix:</strong> \(rule.fix)</p></details>\n")
                for fold in rg.folds {
                    let i = fold[0]
                    let f = findings[i]
                    let themesCovered = fold.map { findings[$0].id }.map { $0.theme.isEmpty ? VariantID.any : $0.theme }
                    let theme = themesCovered.contains("*") ? (p?.themes ?? []).joined(separator: " ") : orderedUnique(themesCovered).joined(separator: " ")
                    let sizes = report.dynamicTypeSizes(of: fold, preset: p)
                    h.add("<article class=\"finding sev-\(f.severity.rawValue)\" id=\"f-\(i)\" data-preset=\"\(f.preset)\" data-rule=\"\(f.rule)\" "
                          + "data-severity=\"\(f.severity.rawValue)\" data-count=\"\(fold.count)\" data-theme=\"\(theme)\" data-dt=\"\(sizes.joined(separator: " "))\">\n")
                    h.add("<p class=\"head\"><span class=\"badge \(f.severity.rawValue)\">\(f.severity.rawValue.capitalized)</span>")
                    if f.accepted != nil { h.add(" <span class=\"badge accepted\">Accepted</span>") }
                    h.add(" <code>\(f.variant)</code> <span class=\"muted\">\(f.subject)</span></p>\n")
                    h.add("<p class=\"message\">\(f.message)</p>\n")
                    if let all = p?.dynamicTypeSizes, !sizes.isEmpty, sizes.count < all.count {
                        h.add("<p class=\"muted\">At Dynamic Type sizes \(sizes.joined(separator: ", ")) only.</p>\n")
                    }
                    if fold.count > 1 {
                        h.add("<details class=\"more\"><summary>The same finding in \(fold.count) variants</summary><ul>\n")
                        for j in fold {
                            let id: HTML = j == i ? "" : " id=\"f-\(j)\""
                            h.add("<li\(id)><code>\(findings[j].variant)</code> — \(findings[j].message)</li>\n")
                        }
                        h.add("</ul></details>\n")
                    }
                    if let reason = f.accepted { h.add("<p class=\"muted\">Accepted: \(reason)</p>\n") }
                    if let l = f.location {
                        var where_ = l.file + (l.line.map { ":\($0)" } ?? "")
                        if let k = l.keyPath { where_ += " (\(k))" }
                        if let t = l.token { where_ += " · token \(t)" + (l.tokenFile.map { " in \($0)" + (l.tokenLine.map { ":\($0)" } ?? "") } ?? "") }
                        h.add("<p class=\"muted\">Source: <code>\(where_)</code></p>\n")
                    }
                    if let ev = f.picturePath {
                        h.add("<figure><img src=\"\(ev)\" alt=\"Evidence for \(f.rule) in \(f.variant): \(f.message)\" loading=\"lazy\"><figcaption>Evidence</figcaption></figure>\n")
                    }
                    let nums = f.numbers.sorted { $0.key < $1.key }.map { "\($0.key) \(report.formatNumber($0.value))" }
                        + f.values.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
                    if !nums.isEmpty { h.add("<p class=\"numbers\">\(nums.joined(separator: " · "))</p>\n") }
                    h.add("</article>\n")
                }
                h.add("</section>\n")
            }
            h.add("</section>\n")
        }
        h.add("</section>\n")
    }

    /// Changed, new and stale baselines with their pictures.
    func snapshotSection(_ h: inout HTMLBuilder) {
        let c = self.c, changedSnapshots = self.changedSnapshots, variants = report.variants
        if let snap = report.snapshots {
            h.add("<section aria-labelledby=\"snapshots\"><h2 id=\"snapshots\">Snapshot changes</h2>\n")
            h.add("<p class=\"muted\">Baselines in <code>\(snap.folder)</code>: \(c.snapshotMatches) match, \(c.snapshotMismatches) changed, \(c.snapshotNew) new, \(c.snapshotStale) stale.</p>\n")
            let renders = Dictionary(variants.filter { $0.image != nil }.map { (RunReport.pictureID($0.id), $0) }, uniquingKeysWith: { a, _ in a })
            for (n, s) in changedSnapshots.enumerated() {
                let id = VariantID(parsing: s.id)
                h.add("<article class=\"snapshot\" id=\"s-\(n)\" data-preset=\"\(id.preset)\" data-theme=\"\(id.theme)\" data-dt=\"\(id.dynamicType)\">\n")
                h.add("<h3><code>\(s.id)</code> <span class=\"badge \(s.failed ? "error" : "info")\">\(s.status.rawValue)</span></h3>\n")
                if let m = s.message { h.add("<p>\(m)</p>\n") }
                switch s.status {
                case .new:
                    if s.action == .recorded {
                        h.add("<p>There was no baseline; this run recorded the render below as <code>\(s.baseline)</code>.</p>\n")
                    } else {
                        h.add("<p>No baseline yet (<code>\(s.baseline)</code>). If the render below is right, record it with "
                              + "<code>glyphaudit check --record</code> (or <code>glyphaudit run --record</code>).</p>\n")
                    }
                case .stale:
                    if s.action == .pruned {
                        h.add("<p>No variant makes this baseline any more; it was deleted.</p>\n")
                    } else {
                        h.add("<p>No variant of the preset makes this baseline any more (<code>\(s.baseline)</code>). "
                              + "Delete it with <code>glyphaudit check --prune</code>.</p>\n")
                    }
                default: break
                }
                if let e = s.expected, let a = s.actual {
                    h.add("<div class=\"compare\" data-compare><div class=\"stack\"><img src=\"\(e)\" alt=\"Expected (baseline) \(s.id)\"><img class=\"over\" src=\"\(a)\" alt=\"Actual render \(s.id)\"></div>\n")
                    h.add("<label>Slide between expected and actual <input type=\"range\" min=\"0\" max=\"100\" value=\"50\" data-slider></label> ")
                    h.add("<button type=\"button\" data-flip>Flip</button></div>\n")
                }
                let pics = [("Expected", s.expected), ("Diff", s.diff), ("Actual", s.actual)].compactMap { l, p in p.map { (l, $0) } }
                if !pics.isEmpty {
                    h.add("<div class=\"triple\">")
                    for (label, p) in pics { h.add("<figure><img src=\"\(p)\" alt=\"\(label) \(s.id)\" loading=\"lazy\"><figcaption>\(label)</figcaption></figure>") }
                    h.add("</div>\n")
                }
                // A new variant has no baseline to compare with: show what would be recorded (the
                // contact sheet's @2x render; for another scale, the same variant at @2x).
                if s.status == .new, s.actual == nil, let v = renders[RunReport.pictureID(s.id)], let img = v.image {
                    let scale = VariantID(parsing: s.id).scale
                    let label = scale == "2" ? "The render" : "The render at @2x (this baseline is @\(scale)x)"
                    h.add("<figure><img src=\"\(img)\" width=\"\(v.width / 2)\" height=\"\(v.height / 2)\" alt=\"\(label) \(s.id)\" "
                          + "loading=\"lazy\"><figcaption>\(label)</figcaption></figure>\n")
                }
                h.add("</article>\n")
            }
            if changedSnapshots.isEmpty { h.add("<p>Every baseline matches.</p>\n") }
            h.add("</section>\n")
        }
    }

    func footer(_ h: inout HTMLBuilder) {
        let tool = report.tool
        h.add("</main>\n<footer class=\"wrap muted\"><p>Made by \(tool). Open this file straight from disk; it loads nothing from the network.</p></footer>\n")
        h.add("<script>\(HTML(trusted: HTMLBuilder.script))</script>\n</body>\n</html>\n")
    }
}

/// What a contact-sheet cell needs to know about findings and snapshots.
struct SheetContext {
    let findings: [Finding]
    /// Picture → indices of the open findings covering it.
    let byVariant: [String: [Int]]
    /// Finding index → the index of the card that shows it.
    let cardOf: [Int: Int]
    let snapshots: [SnapshotRecord]
    /// Picture id (no scale) → indices into `snapshots` of its changed snapshots.
    let snapshotsByPicture: [String: [Int]]

    func table(_ h: inout HTMLBuilder, caption: String, columns: [(theme: String, state: String)], rows: [String],
               variants: [VariantRecord], fit: Bool) {
        h.add("<table class=\"sheet\(fit ? " fit" : "")\"><caption>\(caption)</caption>\n")
        if fit { h.add("<colgroup><col class=\"size-col\"><col span=\"\(columns.count)\"></colgroup>\n") }
        h.add("<thead><tr><th scope=\"col\">Size</th>")
        for (t, s) in columns {
            h.add("<th scope=\"col\" data-theme=\"\(t)\">\(t)<br><span class=\"muted\">\(s)</span></th>")
        }
        h.add("</tr></thead>\n<tbody>\n")
        for dt in rows {
            let row = variants.filter { $0.dynamicType == dt }
            h.add("<tr data-dt=\"\(dt)\"><th scope=\"row\">\(dt)</th>")
            for (t, s) in columns {
                if let v = row.first(where: { $0.theme == t && $0.state == s }), v.image != nil {
                    cell(&h, v)
                } else {
                    h.add("<td data-theme=\"\(t)\"></td>")
                }
            }
            h.add("</tr>\n")
        }
        h.add("</tbody></table>\n")
    }

    func cell(_ h: inout HTMLBuilder, _ v: VariantRecord) {
        guard let img = v.image else { return }
        let related = (byVariant[v.pictureKey] ?? []).sorted { a, b in
            let ra = rank(findings[a].severity), rb = rank(findings[b].severity)
            return ra != rb ? ra < rb : a < b
        }
        // One link per card (a folded card holds several findings), worst first.
        var cards: [Int] = []
        for i in related where !cards.contains(cardOf[i] ?? i) { cards.append(cardOf[i] ?? i) }
        let worst = related.first.map { findings[$0].severity }
        let hits = related.map { "\(findings[$0].rule):\(findings[$0].severity)" }
        var seenHits = Set<String>()
        let hitsAttr = hits.filter { seenHits.insert($0).inserted }.joined(separator: " ")
        let snaps = snapshotsByPicture[RunReport.pictureID(v.id)] ?? []
        var cls: [String] = []
        if let worst { cls.append("flag-\(worst)") }
        if !snaps.isEmpty { cls.append("snap") }
        let name = RunReport.pictureID(v.id)
        let alt = name + (related.isEmpty ? "" : ", \(related.count) finding\(related.count == 1 ? "" : "s")")
            + (snaps.isEmpty ? "" : ", snapshot \(snapshots[snaps[0]].status)")
        let image: HTML = "<img src=\"\(img)\" width=\"\(v.width / 2)\" height=\"\(v.height / 2)\" alt=\"\(alt)\" loading=\"lazy\">"
        let classAttr: HTML = cls.isEmpty ? "" : " class=\"\(cls.joined(separator: " "))\""
        h.add("<td data-theme=\"\(v.theme)\" data-hits=\"\(hitsAttr)\"\(classAttr)>")
        if let first = cards.first {
            let title = cards.map { "\(findings[$0].severity) · \(findings[$0].rule): \(findings[$0].message)" }.joined(separator: "\n")
            h.add("<a href=\"#f-\(first)\" title=\"\(title)\">\(image)</a>")
        } else {
            h.add(image)
        }
        if cards.count > 1 {
            // Every finding of the cell, one click away and out of the way until wanted.
            h.add("<details class=\"cell-more\"><summary>\(cards.count) findings</summary><ul>")
            for k in cards {
                let f = findings[k]
                h.add("<li><a href=\"#f-\(k)\">\(f.rule)</a> <span class=\"muted\">\(f.severity.rawValue) · \(f.subject)</span></li>")
            }
            h.add("</ul></details>")
        }
        if let n = snaps.first {
            let scales = snaps.map { "@\(VariantID(parsing: snapshots[$0].id).scale)x" }
            let what = orderedUnique(snaps.map { snapshots[$0].status == .mismatch ? "changed" : snapshots[$0].status.rawValue })
            h.add("<p class=\"cell-snap\"><a class=\"snap-badge\" href=\"#s-\(n)\">snapshot \(what.joined(separator: ", "))</a> "
                  + "<span class=\"muted\">\(scales.joined(separator: " "))</span></p>")
        }
        h.add("</td>")
    }
}

extension VariantRecord {
    var pictureKey: String { id }
}

/// The report's own style sheet and script (no outside fonts or scripts).
extension HTMLBuilder {
    static let css = """
    :root{--ink:#1c1c1e;--muted:#545458;--line:#c7c7cc;--bg:#ffffff;--panel:#f2f2f7;--bad:#b3261e;--warn:#8a5300;--good:#1b6e2d;--focus:#0040dd}
    *{box-sizing:border-box}body{margin:0;font:15px/1.5 -apple-system,"Inter","Segoe UI","DejaVu Sans",sans-serif;color:var(--ink);background:var(--bg)}
    .wrap{max-width:1400px;margin:0 auto;padding:0 20px}.skip{position:absolute;left:-999px}.skip:focus{left:8px;top:8px;background:#fff;padding:8px;z-index:9}
    a{color:#0040dd}a:focus,button:focus,select:focus,input:focus,[tabindex]:focus{outline:3px solid var(--focus);outline-offset:2px}
    .top{background:var(--panel);border-bottom:1px solid var(--line);padding:12px 0}.top h1{margin:0;font-size:22px}
    .status{margin:4px 0 0;font-weight:600;font-size:18px}.status.pass{color:var(--good)}.status.fail{color:var(--bad)}
    .muted{color:var(--muted);font-weight:400}h2{margin-top:32px;border-bottom:1px solid var(--line);padding-bottom:4px}
    .cards{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:12px}.card{background:var(--panel);border-radius:10px;padding:12px 16px;min-width:160px;border-left:6px solid var(--line)}
    .card.bad{border-left-color:var(--bad)}.card.warn{border-left-color:var(--warn)}.card.good{border-left-color:var(--good)}
    .card .value{font-size:28px;font-weight:700;display:block}.card .title{font-weight:600}.card .note{display:block;color:var(--muted);font-size:13px}
    table{border-collapse:collapse}caption{text-align:left;font-weight:600;padding:6px 0}th,td{border:1px solid var(--line);padding:4px 8px;vertical-align:middle}
    .counts td.bad,.counts td.bad a{color:var(--bad);font-weight:600}.counts td.warn,.counts td.warn a{color:var(--warn);font-weight:600}
    .filters form{display:flex;flex-wrap:wrap;gap:16px;align-items:center}.filters select{font:inherit;padding:4px;border:1px solid var(--muted);border-radius:6px;background:#fff;color:var(--ink)}
    .sheet-scroll{overflow-x:auto;margin:8px 0 24px}.sheet th{background:var(--panel);font-size:13px}.sheet td{padding:4px;background:var(--panel)}
    .sheet img{display:block}.sheet td.flag-error{outline:3px solid var(--bad);outline-offset:-3px}.sheet td.flag-warning{outline:3px dashed var(--warn);outline-offset:-3px}
    .sheet td.flag-info{outline:2px dotted var(--muted);outline-offset:-2px}.sheet td.dim img{opacity:.3}
    .sheet.fit{table-layout:fixed;width:100%}.sheet.fit .size-col{width:48px}.sheet.fit img{max-width:100%;height:auto}
    .cell-more{font-size:12px;line-height:1.5}.cell-more summary{cursor:pointer;color:#0040dd}.cell-more ul{list-style:none;margin:0;padding:0}
    .cell-snap{margin:2px 0 0;font-size:12px}
    .snap-badge{display:inline-block;background:var(--focus);color:#fff;border-radius:4px;padding:0 5px;font-size:12px;font-weight:700;text-decoration:none}
    .finding{border:1px solid var(--line);border-left:6px solid var(--line);border-radius:8px;padding:8px 12px;margin:8px 0}
    .finding.sev-error{border-left-color:var(--bad)}.finding.sev-warning{border-left-color:var(--warn)}.finding .head{margin:0}.finding .message{margin:4px 0;font-weight:600}
    .numbers{font-size:13px;color:var(--muted)}.badge{display:inline-block;border-radius:4px;padding:0 6px;font-size:13px;font-weight:700;border:1px solid currentColor}
    .badge.error{color:var(--bad)}.badge.warning{color:var(--warn)}.badge.info{color:var(--muted)}.badge.accepted{color:var(--good)}
    figure{margin:8px 0}figure img{max-width:100%;border:1px solid var(--line)}figcaption{font-size:13px;color:var(--muted)}
    .fix summary{cursor:pointer;color:#0040dd}.triple{display:flex;flex-wrap:wrap;gap:12px}
    .compare .stack{position:relative;display:inline-block;border:1px solid var(--line)}.compare .stack img{display:block}
    .compare .over{position:absolute;left:0;top:0;clip-path:inset(0 50% 0 0)}button{font:inherit;padding:4px 12px;border:1px solid var(--muted);border-radius:6px;background:#fff;color:var(--ink);cursor:pointer}
    [hidden]{display:none!important}footer{margin:40px auto;font-size:13px}
    """

    static let script = """
    (function(){
      var form=document.getElementById('filter-form');var note=document.getElementById('filter-count');
      function val(k){var s=form.querySelector('[data-filter="'+k+'"]');return s?s.value:'';}
      function ok(el,k,v,attr){if(!v)return true;var a=el.getAttribute(attr||('data-'+k));if(a===null)return true;if(a==='*')return true;return (' '+a+' ').indexOf(' '+v+' ')>=0;}
      var total=0;document.querySelectorAll('article.finding').forEach(function(el){total+=+(el.getAttribute('data-count')||1);});
      function apply(){
        var f={preset:val('preset'),rule:val('rule'),severity:val('severity'),theme:val('theme'),dt:val('dt')};
        var shown=0;
        document.querySelectorAll('article.finding').forEach(function(el){
          var vis=ok(el,'preset',f.preset)&&ok(el,'rule',f.rule)&&ok(el,'severity',f.severity)&&ok(el,'theme',f.theme)&&ok(el,'dt',f.dt);
          el.hidden=!vis;if(vis)shown+=+(el.getAttribute('data-count')||1);});
        document.querySelectorAll('section.rule-group,section.finding-group').forEach(function(s){
          s.hidden=!s.querySelector('article.finding:not([hidden])');});
        document.querySelectorAll('section.preset').forEach(function(s){s.hidden=!ok(s,'preset',f.preset);});
        document.querySelectorAll('table.sheet tr[data-dt]').forEach(function(r){r.hidden=!ok(r,'dt',f.dt);});
        document.querySelectorAll('table.sheet [data-theme]').forEach(function(c){c.hidden=!ok(c,'theme',f.theme);});
        document.querySelectorAll('table.sheet td[data-hits]').forEach(function(c){
          var m=c.getAttribute('data-hits').split(' ').filter(function(h){if(!h)return false;var p=h.split(':');
            return (!f.rule||p[0]===f.rule)&&(!f.severity||p[1]===f.severity);});
          function has(s){return m.some(function(h){return h.split(':')[1]===s;});}
          var w=has('error')?'error':has('warning')?'warning':m.length?'info':'';
          ['error','warning','info'].forEach(function(s){c.classList.toggle('flag-'+s,s===w);});
          c.classList.toggle('dim',!!(f.rule||f.severity)&&!m.length);});
        document.querySelectorAll('article.snapshot').forEach(function(el){el.hidden=!(ok(el,'preset',f.preset)&&ok(el,'theme',f.theme)&&ok(el,'dt',f.dt));});
        note.textContent=shown+' of '+total+' finding'+(total===1?'':'s')+' shown';
      }
      // Filters can be preset in the link: index.html?severity=warning&dt=AX5
      var q=new URLSearchParams(location.search);
      form.querySelectorAll('select[data-filter]').forEach(function(s){var v=q.get(s.getAttribute('data-filter'));
        if(v!==null&&Array.prototype.some.call(s.options,function(o){return o.value===v;}))s.value=v;});
      form.addEventListener('change',apply);apply();
      // A layout self-check for scripts/check-report: a contact sheet wider than the page is marked.
      document.querySelectorAll('.sheet-scroll').forEach(function(d){if(d.scrollWidth>d.clientWidth+1)d.setAttribute('data-overflow','');});
      document.querySelectorAll('[data-compare]').forEach(function(box){
        var over=box.querySelector('.over');var slider=box.querySelector('[data-slider]');var flip=box.querySelector('[data-flip]');
        function set(p){over.style.clipPath='inset(0 '+(100-p)+'% 0 0)';}
        slider.addEventListener('input',function(){set(+slider.value);});
        flip.addEventListener('click',function(){slider.value=(+slider.value>50)?0:100;set(+slider.value);});
        set(+slider.value);});
    })();
    """
}
