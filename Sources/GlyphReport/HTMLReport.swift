import Foundation
import GlyphAudit
import GlyphCore
import GlyphSnapshot

/// The designers' report: one self-contained `index.html` (no server, no network, no outside fonts
/// or scripts) beside its pictures. Semantic HTML, usable with the keyboard, its own text and
/// controls at WCAG AA contrast.
extension RunReport {
    /// The page; `folder` is the report folder as the accept command names it (relative to the folder
    /// glyphaudit ran in), used only on a page with snapshot groups.
    public func html(folder: String = "glyphaudit-out") -> String {
        let page = HTMLPage(self, folder: folder)
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

    /// A variant id without its scale: the picture the contact sheet shows for every scale. Its text
    /// up to the last `@`, so that a stale baseline's id (any path) keys as it always has.
    static func pictureID(_ id: VariantID) -> String {
        let text = id.description
        guard let at = text.lastIndex(of: "@") else { return text }
        return String(text[..<at])
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
    /// A contrast finding's suggested colour: the colour as written and the suggestion, each a
    /// swatch on the background it is measured against, with their ratios.
    static func suggestion(_ fix: ColorFix) -> HTML {
        func swatch(_ color: String, _ caption: String) -> HTML {
            "<span class=\"swatch\" style=\"background:\(fix.background)\"><span style=\"background:\(color)\"></span></span>"
                + "<span><code>\(color)</code> \(caption)</span>"
        }
        let what = fix.token.map { "Set \($0) to" } ?? "Use"
        return "<p class=\"suggestion\"><strong>Fix:</strong> \(what) <code>\(fix.to)</code> for the \(fix.part) "
            + "(\(fix.ratioText) on <code>\(fix.background)</code>).</p>\n"
            + "<p class=\"swatches\" aria-label=\"The \(fix.part) as written and as suggested, on \(fix.background)\">"
            + swatch(fix.from, "now") + " → " + swatch(fix.to, "suggested") + "</p>\n"
    }

    let report: RunReport
    let shown: [PresetRecord]
    let groups: [(preset: String, rules: [RunReport.RuleGroup])]
    let dts: [String]
    /// The snapshot results that are not a match, in report order: `s-<n>` is the n-th.
    let changedSnapshots: [SnapshotRecord]
    /// The display settings of the run's variants (in order) and whether it has focused ones: the
    /// page shows a settings column, their filters and grouped sheets only when it has either.
    let settings: [DisplaySetting]
    let focus: Bool
    var axes: Bool { focus || !settings.isEmpty }
    /// The report folder as `glyphaudit accept` takes it (HTMLReview.swift).
    let reportFolder: String
    /// The snapshot groups whose pixels changed (shown once each, with a checkbox) and the stale ones
    /// (inputs changed, pixels did not); with neither the page is as it was before groups.
    let causes: [SnapshotGroup]
    let staleCauses: [SnapshotGroup]
    var hasCauses: Bool { !causes.isEmpty || !staleCauses.isEmpty }

    init(_ report: RunReport, folder: String = "glyphaudit-out") {
        self.report = report
        shown = report.presetsInReport
        groups = report.findingGroups(shown)
        dts = DynamicTypeSize.allCases.map(\.short).filter { s in report.variants.contains { $0.dynamicType == s } }
        changedSnapshots = (report.snapshots?.results ?? []).filter { $0.status != .match }
        settings = report.settingsInRun
        focus = report.hasFocused
        reportFolder = folder
        let changed = Set(changedSnapshots.filter { $0.status == .mismatch }.map(\.id.description))
        causes = (report.snapshots == nil ? [] : report.snapshotGroups ?? []).filter { g in
            g.kind != .stale && g.variants.contains(where: changed.contains)
        }
        staleCauses = (report.snapshots == nil ? [] : report.snapshotGroups ?? []).filter { $0.kind == .stale }
    }

    /// ` data-setting="…" data-focus="…"` for an element about `id`, when the run has settings or focus.
    func axesAttributes(_ ids: [VariantID]) -> HTML {
        guard axes else { return "" }
        var out: HTML = ""
        if !settings.isEmpty { out = out + " data-setting=\"\(orderedUnique(ids.map(\.settingFilterValue)).joined(separator: " "))\"" }
        if focus { out = out + " data-focus=\"\(orderedUnique(ids.map(\.focusFilterValue)).joined(separator: " "))\"" }
        return out
    }

    var c: RunReport.Counts { report.counts }
    var ruleIDs: [String] { report.rules.map(\.id) }

    /// The snapshot section's groups in the page's order (what needs a look first), each with the
    /// word the page uses for it (`changed` for a mismatch) and its heading's id.
    static let snapshotGroups: [(status: SnapshotResult.Status, key: String, title: String)] = [
        (.mismatch, "changed", "Changed"), (.new, "new", "New"), (.stale, "stale", "Stale"), (.unreadable, "unreadable", "Unreadable"),
    ]

    static func snapshotWord(_ status: SnapshotResult.Status) -> String {
        snapshotGroups.first { $0.status == status }?.key ?? status.rawValue
    }

    /// The non-empty snapshot groups with the indices (into `changedSnapshots`) of their results.
    var snapshotGroupMembers: [(key: String, title: String, members: [Int])] {
        Self.snapshotGroups.compactMap { g in
            let members = changedSnapshots.indices.filter { changedSnapshots[$0].status == g.status }
            return members.isEmpty ? nil : (g.key, g.title, members)
        }
    }

    func head(_ h: inout HTMLBuilder) {
        let passed = report.passed
        let status = passed ? "Passed" : "Failed"
        let failOn = report.failOn, tool = report.tool, shard = report.shard
        h.add("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        h.add("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
        h.add("<title>glyphaudit report — \(status)</title>\n<style>\(HTML(trusted: HTMLBuilder.css + (axes ? HTMLBuilder.axesCSS : "") + (hasCauses ? HTMLBuilder.reviewCSS : "")))</style>\n</head>\n<body>\n")
        h.add("<header class=\"top\"><div class=\"wrap\"><h1>glyphaudit report</h1>")
        h.add("<p class=\"status \(passed ? "pass" : "fail")\"><span aria-hidden=\"true\">\(passed ? "✓" : "✕")</span> \(status)")
        h.add(" <span class=\"muted\">fails on \(failOn) · \(tool)\(shard.map { " · shard \($0)" } ?? "")</span></p>\n")
        // Skip links: every section two to six Tab presses from the top of the page.
        let c = self.c
        let open = c.errors + c.warnings + c.infos
        h.add("<nav class=\"toc\" aria-label=\"Sections of the report\"><ul>")
        h.add("<li><a href=\"#overview\">Overview</a></li><li><a href=\"#filters\">Filters</a></li>")
        h.add("<li><a href=\"#sheets\">Contact sheets</a></li>")
        h.add("<li><a href=\"#findings\">Findings <span class=\"count\">\(open)</span></a></li>")
        if report.snapshots != nil {
            h.add("<li><a href=\"#snapshots\">Snapshots <span class=\"count\">\(changedSnapshots.count)</span></a></li>")
            for g in snapshotGroupMembers {
                h.add("<li><a href=\"#snapshots-\(g.key)\">\(g.title) <span class=\"count\">\(g.members.count)</span></a></li>")
            }
        }
        h.add("</ul></nav></div></header>\n")
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
        // A table wider than a phone scrolls in its own box, not the page.
        // (Its title is outside the box, so it stays in view when the table scrolls.)
        h.add("<p class=\"table-title\" id=\"counts-title\">Findings by preset and rule (errors / warnings / info)</p>\n")
        h.add("<div class=\"scroll-box\" tabindex=\"0\" role=\"region\" aria-labelledby=\"counts-title\">\n")
        h.add("<table class=\"counts\" aria-labelledby=\"counts-title\">\n<thead><tr><th scope=\"col\">Preset</th>")
        if axes { h.add("<th scope=\"col\">\(settings.isEmpty ? "Focus" : focus ? "Display settings and focus" : "Display settings")</th>") }
        for r in ruleIDs {
            let anchor = groups.lazy.flatMap(\.rules).first { $0.rule.id == r }?.anchor
            h.add(anchor.map { "<th scope=\"col\"><a href=\"#\($0)\">\(r)</a></th>" } ?? "<th scope=\"col\">\(r)</th>")
        }
        h.add("</tr></thead>\n<tbody>\n")
        for p in shown {
            h.add("<tr><th scope=\"row\"><a href=\"#preset-\(p.name)\">\(p.name)</a></th>")
            if axes { settingsCell(&h, p.name) }
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
        h.add("</tbody></table></div>\n")
        if shown.count < presets.count {
            let others = presets.filter { p in !shown.contains { $0.name == p.name } }.map(\.name)
            h.add("<p class=\"muted\">Not in this \(shard == nil ? "run" : "shard") (no variant selected): \(others.joined(separator: ", ")).</p>\n")
        }
        h.add("</section>\n")
    }

    /// The overview's settings cell of a preset: each display setting its variants are drawn under,
    /// with the open findings under it (errors / warnings / info), and whether it has focused variants.
    func settingsCell(_ h: inout HTMLBuilder, _ preset: String) {
        let mine = report.settings(of: preset)
        let focused = report.variants.contains { $0.preset == preset && $0.isFocused }
        if mine.isEmpty && !focused {
            h.add("<td><span class=\"muted\">none</span></td>")
            return
        }
        let open = report.findings.filter { $0.preset == preset && $0.accepted == nil }
        var lines: [HTML] = []
        for s in mine {
            let fs = open.filter { $0.variant.setting == s }
            let e = fs.filter { $0.severity == .error }.count, w = fs.filter { $0.severity == .warning }.count
            lines.append("<a href=\"#sheets-\(preset)-\(s.rawValue)\">\(s.title)</a> <span class=\"muted\">\(e) / \(w) / \(fs.count - e - w)</span>")
        }
        if focused { lines.append("focused variants") }
        h.add("<td>" + HTML.joined(lines, separator: "<br>") + "</td>")
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
        if !settings.isEmpty {
            h.select("setting", "Display setting", [(DisplaySetting.noneFilterValue, "none (default)")] + settings.map { ($0.rawValue, $0.title) })
        }
        if focus { h.select("focus", "Focus", [("focused", "focused"), ("unfocused", "unfocused")]) }
        h.add("<p class=\"filter-note\" id=\"filter-count\" role=\"status\" aria-live=\"polite\"></p>\n</form></section>\n")
    }

    /// Every @2x render, a table per component (rows: Dynamic Type sizes; columns: theme × state).
    /// Each picture is drawn at its point size (an @2x render W px wide at W/2 CSS px, never smaller):
    /// a sheet wider than the page scrolls sideways in its own box.
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
        h.add("<p class=\"muted prose\">Each cell is the @2x render on its own surface, drawn at its point size; a sheet wider than "
              + "the window scrolls sideways in its box. Select a cell to see the render at full size, zoomed, with its findings. "
              + "Cells with findings are outlined (solid: error, dashed: warning, dotted: info); the Rule and Severity filters "
              + "outline only the cells with a matching finding and dim the others. "
              + "<span class=\"snap-badge\">snapshot</span> marks a render whose baseline changed, is new or is unreadable.</p>\n")
        let sheet = SheetContext(findings: findings, byVariant: findingsByVariant, cardOf: cardOf,
                                 snapshots: changedSnapshots, snapshotsByPicture: snapshotsByPicture)
        for p in shown {
            let pv = variants.filter { $0.preset == p.name && $0.image != nil }
            if pv.isEmpty { continue }
            h.add("<section class=\"preset\" id=\"preset-\(p.name)\" data-preset=\"\(p.name)\"><h3>\(p.name)</h3>\n")
            if !p.description.isEmpty { h.add("<p class=\"muted prose\">\(p.description)</p>\n") }
            // A preset with display settings: the default rendering's sheets, then each setting's under
            // a heading naming it (the Display setting filter shows one group).
            let groupSettings: [DisplaySetting?] = [nil] + report.settings(of: p.name)
            let grouped = groupSettings.count > 1
            for g in groupSettings {
                let gv = pv.filter { $0.setting == g }
                if gv.isEmpty { continue }
                let key = g?.rawValue ?? DisplaySetting.noneFilterValue
                if grouped {
                    h.add("<div class=\"setting-group\" data-setting=\"\(key)\"><h4 id=\"sheets-\(p.name)-\(key)\">"
                          + "\(g?.title ?? "Default") <span class=\"muted\">· \(g == nil ? "no display setting" : "display setting")</span></h4>\n")
                }
                for comp in orderedUnique(gv.map(\.component)) {
                    let cv = gv.filter { $0.component == comp }
                    let columns = p.themes.flatMap { t in p.states.flatMap { s in (focus ? [false, true] : [false]).map { (theme: t, state: s, focused: $0) } } }
                        .filter { col in cv.contains { $0.theme == col.theme && $0.state == col.state && $0.isFocused == col.focused } }
                    let rows = dts.filter { dt in cv.contains { $0.dynamicType == dt } }
                    // The sheet's title outside its box (it stays in view when the sheet scrolls), with the
                    // hint the script shows when the sheet is wider than its box.
                    let title = "sheet-\(p.name)-\(comp)" + (g.map { "-\($0.rawValue)" } ?? "")
                    let level: HTML = grouped ? "h5" : "h4"
                    let under = g.map { " under \($0.title)" } ?? ""
                    h.add("<div class=\"sheet-head\"><\(level) id=\"\(title)\">\(comp) <span class=\"muted\">· @2x\(under)</span></\(level)>"
                          + "<span class=\"scroll-hint muted\" hidden>Scroll sideways in the sheet for more columns</span></div>\n")
                    h.add("<div class=\"sheet-scroll scroll-box\" tabindex=\"0\" role=\"region\" aria-label=\"\(p.name) \(comp) contact sheet\(under)\">\n")
                    sheet.table(&h, labelledBy: title, columns: columns, rows: rows, variants: cv, appearances: p.appearances, focusAxis: focus)
                    h.add("</div>\n")
                }
                if grouped { h.add("</div>\n") }
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
                    let themesCovered = fold.map { findings[$0].id }.map { $0.theme.isEmpty ? VariantID.any : $0.baseTheme }
                    let theme = themesCovered.contains("*") ? (p?.themes ?? []).joined(separator: " ") : orderedUnique(themesCovered).joined(separator: " ")
                    let sizes = report.dynamicTypeSizes(of: fold, preset: p)
                    h.add("<article class=\"finding sev-\(f.severity.rawValue)\" id=\"f-\(i)\" data-preset=\"\(f.preset)\" data-rule=\"\(f.rule)\" "
                          + "data-severity=\"\(f.severity.rawValue)\" data-count=\"\(fold.count)\" data-theme=\"\(theme)\" data-dt=\"\(sizes.joined(separator: " "))\"\(axesAttributes(fold.map { findings[$0].id }))>\n")
                    h.add("<p class=\"head\"><span class=\"badge \(f.severity.rawValue)\">\(f.severity.rawValue.capitalized)</span>")
                    if f.accepted != nil { h.add(" <span class=\"badge accepted\">Accepted</span>") }
                    h.add(" <code>\(f.variant.description)</code> <span class=\"muted subject\">\(f.subject)</span>")
                    if let label = f.variant.axesLabel { h.add(" <span class=\"badge axes\">\(label)</span>") }
                    h.add("</p>\n")
                    h.add("<p class=\"message\">\(f.message)</p>\n")
                    if let fix = f.suggestion { h.add(Self.suggestion(fix)) }
                    if let all = p?.dynamicTypeSizes, !sizes.isEmpty, sizes.count < all.count {
                        h.add("<p class=\"muted\">At Dynamic Type sizes \(sizes.joined(separator: ", ")) only.</p>\n")
                    }
                    if fold.count > 1 {
                        h.add("<details class=\"more\"><summary>The same finding in \(fold.count) variants</summary><ul>\n")
                        for j in fold {
                            let id: HTML = j == i ? "" : " id=\"f-\(j)\""
                            h.add("<li\(id)><code>\(findings[j].variant.description)</code> — <span class=\"msg\">\(findings[j].message)</span></li>\n")
                        }
                        h.add("</ul></details>\n")
                    }
                    if let reason = f.accepted { h.add("<p class=\"muted\">Accepted: \(reason)</p>\n") }
                    if let l = f.location {
                        var where_ = l.file + (l.line.map { ":\($0)" } ?? "")
                        if let k = l.keyPath { where_ += " (\(k))" }
                        if let t = l.token {
                            where_ += " · token \(t)" + (l.tokenFile.map { " in \($0)" + (l.tokenLine.map { ":\($0)" } ?? "") } ?? "") + l.chainText
                        }
                        h.add("<p class=\"muted\">Source: <code>\(where_)</code></p>\n")
                    }
                    if let ev = f.picturePath {
                        h.add("<figure><img src=\"\(ev)\" alt=\"Evidence for \(f.rule) in \(f.variant.description): \(f.message)\" loading=\"lazy\"><figcaption>Evidence</figcaption></figure>\n")
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

    /// The baselines that need a look, in groups: changed first, then new, stale and unreadable, each
    /// with its count; the unchanged ones summarised (those that differ within tolerance listed).
    /// A status filter shows one group.
    func snapshotSection(_ h: inout HTMLBuilder) {
        guard let snap = report.snapshots else { return }
        let c = self.c, changedSnapshots = self.changedSnapshots, variants = report.variants
        let groups = snapshotGroupMembers
        let unreadable = changedSnapshots.filter { $0.status == .unreadable }.count
        h.add("<section aria-labelledby=\"snapshots\"><h2 id=\"snapshots\">Snapshot changes</h2>\n")
        h.add("<p class=\"muted\">Baselines in <code>\(snap.folder)</code>: \(c.snapshotMismatches) changed, \(c.snapshotNew) new, "
              + "\(c.snapshotStale) stale\(unreadable > 0 ? ", \(unreadable) unreadable" : ""), \(c.snapshotMatches) unchanged.</p>\n")
        if !groups.isEmpty {
            h.add("<form class=\"snap-filter\" onsubmit=\"return false\"><label>Show <select data-snapshot-filter>"
                  + "<option value=\"\">Every change (\(changedSnapshots.count))</option>")
            for g in groups { h.add("<option value=\"\(g.key)\">\(g.title) (\(g.members.count))</option>") }
            h.add("</select></label> <span class=\"filter-note\" id=\"snapshot-count\" role=\"status\" aria-live=\"polite\"></span></form>\n")
        }
        if !causes.isEmpty { reviewBox(&h) }
        let renders = Dictionary(variants.filter { $0.image != nil }.map { (RunReport.pictureID($0.id), $0) }, uniquingKeysWith: { a, _ in a })
        for g in groups {
            h.add("<section class=\"snap-group\" data-status=\"\(g.key)\" aria-labelledby=\"snapshots-\(g.key)\">"
                  + "<h3 id=\"snapshots-\(g.key)\">\(g.title) <span class=\"count\">\(g.members.count)</span></h3>\n")
            if g.key == "changed" && !causes.isEmpty {
                changedByCause(&h, g.members, renders: renders)
            } else {
                for n in g.members { snapshotArticle(&h, n, renders: renders) }
            }
            h.add("</section>\n")
        }
        let tolerance = snap.results.filter { $0.status == .match && $0.message != nil }
        h.add("<section class=\"snap-group\" data-status=\"unchanged\" aria-labelledby=\"snapshots-unchanged\">"
              + "<h3 id=\"snapshots-unchanged\">Unchanged <span class=\"count\">\(c.snapshotMatches)</span></h3>\n")
        h.add("<p>\(c.snapshotMatches == 0 ? "No render matches its baseline." : c.snapshotMatches == 1 ? "1 render matches its baseline." : "\(c.snapshotMatches) renders match their baselines.")")
        if !tolerance.isEmpty { h.add(" \(tolerance.count) of them differ\(tolerance.count == 1 ? "s" : "") within tolerance.") }
        h.add("</p>\n")
        if !tolerance.isEmpty {
            h.add("<details class=\"more\"><summary>Within tolerance (\(tolerance.count))</summary><ul>\n")
            for s in tolerance { h.add("<li><code>\(s.id)</code> — \(s.message ?? "")</li>\n") }
            h.add("</ul></details>\n")
        }
        if !staleCauses.isEmpty { staleCauseList(&h) }
        h.add("</section>\n</section>\n")
    }

    /// One changed, new, stale or unreadable baseline with its pictures and what to do about it.
    func snapshotArticle(_ h: inout HTMLBuilder, _ n: Int, renders: [String: VariantRecord]) {
        let s = changedSnapshots[n]
        let id = s.id
        let word = Self.snapshotWord(s.status)
        h.add("<article class=\"snapshot\" id=\"s-\(n)\" data-status=\"\(word)\" data-preset=\"\(id.preset)\" data-theme=\"\(id.baseTheme)\" data-dt=\"\(id.dynamicType)\"\(axesAttributes([id]))>\n")
        h.add("<h4><code>\(s.id)</code> <span class=\"badge \(s.failed ? "error" : "info")\">\(word)</span></h4>\n")
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
            h.add("<div class=\"compare\" data-compare><div class=\"scroll-box\" tabindex=\"0\" role=\"region\" aria-label=\"Expected and actual \(s.id), one over the other\">"
                  + "<div class=\"stack\"><img src=\"\(e)\" alt=\"Expected (baseline) \(s.id)\"><img class=\"over\" src=\"\(a)\" alt=\"Actual render \(s.id)\"></div></div>\n")
            h.add("<label>Slide between expected and actual <input type=\"range\" min=\"0\" max=\"100\" value=\"50\" data-slider></label> ")
            h.add("<button type=\"button\" data-flip>Flip</button></div>\n")
        }
        let pics = [("Expected", s.expected), ("Actual", s.actual), ("Diff", s.diff)].compactMap { l, p in p.map { (l, $0) } }
        if !pics.isEmpty {
            h.add("<div class=\"triple\">")
            for (label, p) in pics { h.add("<figure><img src=\"\(p)\" alt=\"\(label) \(s.id)\" loading=\"lazy\"><figcaption>\(label)</figcaption></figure>") }
            h.add("</div>\n")
        }
        // A new variant has no baseline to compare with: show what would be recorded (the
        // contact sheet's @2x render; for another scale, the same variant at @2x).
        if s.status == .new, s.actual == nil, let v = renders[RunReport.pictureID(s.id)], let img = v.image {
            let scale = s.id.scale
            let label = scale == "2" ? "The render" : "The render at @2x (this baseline is @\(scale)x)"
            h.add("<figure><img src=\"\(img)\" width=\"\(v.width / 2)\" height=\"\(v.height / 2)\" alt=\"\(label) \(s.id)\" "
                  + "loading=\"lazy\"><figcaption>\(label)</figcaption></figure>\n")
        }
        h.add("</article>\n")
    }

    func footer(_ h: inout HTMLBuilder) {
        let tool = report.tool
        h.add("</main>\n<footer class=\"wrap muted\"><p>Made by \(tool). Open this file straight from disk; it loads nothing from the network.</p></footer>\n")
        viewer(&h)
        let script = HTMLBuilder.script(axes: axes)
        // In a group, a changed baseline's id is in an h5.
        let review = hasCauses ? script.replacingOccurrences(of: "s.querySelector('h4 code')", with: "s.querySelector('h4 code,h5 code')")
            + HTMLBuilder.reviewScript : script
        h.add("<script>\(HTML(trusted: review))</script>\n</body>\n</html>\n")
    }

    /// The picture viewer a contact-sheet cell opens (filled by the page's script): the render at full
    /// size, zoomed 1×, 2× or 4× pixel for pixel, with the variant's findings and snapshot results.
    func viewer(_ h: inout HTMLBuilder) {
        h.add("<dialog id=\"viewer\" aria-labelledby=\"viewer-title\"><div class=\"viewer-body\">\n")
        h.add("<div class=\"viewer-head\"><h2 id=\"viewer-title\">Render</h2><button type=\"button\" data-close>Close</button></div>\n")
        h.add("<p class=\"viewer-meta muted\" id=\"viewer-meta\"></p>\n")
        h.add("<div class=\"viewer-tools\"><div class=\"zoom\" role=\"group\" aria-label=\"Zoom\">")
        for z in [1, 2, 4] {
            h.add("<button type=\"button\" data-zoom=\"\(z)\" aria-pressed=\"\(z == 1 ? "true" : "false")\">\(z)×</button>")
        }
        h.add("</div><div class=\"step\"><button type=\"button\" data-step=\"-1\">Previous cell</button>"
              + "<button type=\"button\" data-step=\"1\">Next cell</button></div></div>\n")
        h.add("<div class=\"viewer-pic scroll-box\" tabindex=\"0\" role=\"region\" aria-label=\"The render at full size\"></div>\n")
        h.add("<h3>Findings</h3><ul class=\"viewer-findings\"></ul><p class=\"viewer-none\">No open finding covers this render.</p>\n")
        h.add("<div class=\"viewer-snapshots\"><h3>Snapshot</h3><ul></ul></div>\n")
        h.add("</div></dialog>\n")
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

    /// A sheet; `focusAxis` (a run with focused variants): columns of each state unfocused and
    /// focused, each cell saying which (`data-focus`) for the Focus filter.
    func table(_ h: inout HTMLBuilder, labelledBy title: String, columns: [(theme: String, state: String, focused: Bool)], rows: [String],
               variants: [VariantRecord], appearances: [String: String]? = nil, focusAxis: Bool = false) {
        func focusAttr(_ focused: Bool) -> HTML { focusAxis ? " data-focus=\"\(focused ? "focused" : "unfocused")\"" : "" }
        h.add("<table class=\"sheet\" aria-labelledby=\"\(title)\">\n")
        h.add("<thead><tr><th scope=\"col\">Size</th>")
        for (t, s, focused) in columns {
            let state = focused ? "\(s) · focused" : s
            // A theme that declares its appearance says it under its name.
            if let look = appearances?[t] {
                h.add("<th scope=\"col\" data-theme=\"\(t)\"\(focusAttr(focused))>\(t)<br><span class=\"muted\">\(look)</span><br><span class=\"muted\">\(state)</span></th>")
            } else {
                h.add("<th scope=\"col\" data-theme=\"\(t)\"\(focusAttr(focused))>\(t)<br><span class=\"muted\">\(state)</span></th>")
            }
        }
        h.add("</tr></thead>\n<tbody>\n")
        for dt in rows {
            let row = variants.filter { $0.dynamicType == dt }
            h.add("<tr data-dt=\"\(dt)\"><th scope=\"row\">\(dt)</th>")
            for (t, s, focused) in columns {
                if let v = row.first(where: { $0.theme == t && $0.state == s && $0.isFocused == focused }), v.image != nil {
                    cell(&h, v, focus: focusAttr(focused))
                } else {
                    h.add("<td data-theme=\"\(t)\"\(focusAttr(focused))></td>")
                }
            }
            h.add("</tr>\n")
        }
        h.add("</tbody></table>\n")
    }

    /// A cell: the picture at its point size in a button that opens the viewer (`data-f`: the open
    /// findings that cover it, worst first, one of each wording; `data-s`: its changed snapshots).
    func cell(_ h: inout HTMLBuilder, _ v: VariantRecord, focus: HTML = "") {
        guard let img = v.image else { return }
        let related = (byVariant[v.pictureKey] ?? []).sorted { a, b in
            let ra = rank(findings[a].severity), rb = rank(findings[b].severity)
            return ra != rb ? ra < rb : a < b
        }
        // The same finding at several scales is listed once.
        var seenText = Set<String>()
        let listed = related.filter { i in
            let f = findings[i]
            return seenText.insert([f.rule, f.severity.rawValue, f.subject, f.message].joined(separator: "\u{0}")).inserted
        }
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
        let alt = name + (listed.isEmpty ? "" : ", \(listed.count) finding\(listed.count == 1 ? "" : "s")")
            + (snaps.isEmpty ? "" : ", snapshot \(snapshots[snaps[0]].status)")
        let classAttr: HTML = cls.isEmpty ? "" : " class=\"\(cls.joined(separator: " "))\""
        let title = cards.map { "\(findings[$0].severity) · \(findings[$0].rule): \(findings[$0].message)" }.joined(separator: "\n")
        let titleAttr: HTML = cards.isEmpty ? "" : " title=\"\(title)\""
        h.add("<td data-theme=\"\(v.theme)\"\(focus) data-hits=\"\(hitsAttr)\"\(classAttr)>")
        h.add("<button type=\"button\" class=\"cell-open\" aria-haspopup=\"dialog\" data-variant=\"\(name)\" "
              + "data-f=\"\(listed.map(String.init).joined(separator: " "))\" data-s=\"\(snaps.map(String.init).joined(separator: " "))\"\(titleAttr)>"
              + "<span class=\"vh\">View </span><img src=\"\(img)\" width=\"\(v.width / 2)\" height=\"\(v.height / 2)\" alt=\"\(alt)\" loading=\"lazy\"></button>")
        if !listed.isEmpty || !snaps.isEmpty {
            h.add("<p class=\"cell-meta\">")
            if !listed.isEmpty { h.add("<span class=\"cell-count\">\(listed.count) finding\(listed.count == 1 ? "" : "s")</span> ") }
            if let n = snaps.first {
                let scales = snaps.map { "@\(snapshots[$0].id.scale)x" }
                let what = orderedUnique(snaps.map { HTMLPage.snapshotWord(snapshots[$0].status) })
                h.add("<a class=\"snap-badge\" href=\"#s-\(n)\">snapshot \(what.joined(separator: ", "))</a> "
                      + "<span class=\"muted\">\(scales.joined(separator: " "))</span>")
            }
            h.add("</p>")
        }
        h.add("</td>")
    }
}

extension VariantRecord {
    var pictureKey: String { id.description }
}
