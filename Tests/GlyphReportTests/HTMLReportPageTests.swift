import Foundation
import Testing
@testable import GlyphAudit
@testable import GlyphCore
@testable import GlyphReport
@testable import GlyphSnapshot

/// The HTML report's page: pictures at their point size in scroll boxes, the picture viewer's data,
/// skip links, the snapshot groups, and byte-identical output. (How the page lays out and what axe-core
/// says of it is checked in a browser by scripts/check-report.)
@Suite("HTML report page")
struct HTMLReportPageTests {
    /// The tags between two offsets.
    static func between(_ tags: HTMLTags, _ from: Int, _ to: Int) -> [HTMLTags.Tag] {
        tags.tags.filter { $0.offset > from && $0.offset < to }
    }

    static func heading(_ tags: HTMLTags, _ id: String) throws -> HTMLTags.Tag {
        try #require(tags.tags.first { $0.name.hasPrefix("h") && $0.attributes["id"] == id }, "#\(id)")
    }

    @Test("every contact-sheet picture is drawn at its point size (an @2x render W × H px at W/2 × H/2), however wide, in a button, inside a named, focusable scroll box")
    func picturesAtPointSize() throws {
        var report = HTMLReportTests.make()
        // At AX5, alpha's renders are 900 × 200 px (450 × 100 pt): two columns of them are wider than a
        // 1400 px window, and they are still drawn at 450 × 100.
        for i in report.variants.indices where report.variants[i].dynamicType == "AX5" {
            report.variants[i].width = 900
            report.variants[i].height = 200
        }
        let tags = HTMLTags(report.html())
        let sheets = try Self.heading(tags, "sheets").offset, findings = try Self.heading(tags, "findings").offset
        let expected: [String: (String, String)] = [
            "alpha/square-md/L/default/unchecked@2x": ("20", "14"), "alpha/square-md/L/default/checked@2x": ("20", "14"),
            "alpha/square-md/AX5/default/unchecked@2x": ("450", "100"), "alpha/square-md/AX5/default/checked@2x": ("450", "100"),
            "beta/switch-md/L/default/off@2x": ("20", "14"), "beta/switch-md/L/default/on@2x": ("20", "14"),
        ]
        let regionNames = ["alpha": "alpha square-md contact sheet", "beta": "beta switch-md contact sheet"]
        for v in report.variants {
            let img = try #require(Self.between(tags, sheets, findings).first { $0.name == "img" && $0.attributes["src"] == v.image }, "\(v.id)")
            let size = try #require(expected[v.id.description])
            #expect(img.attributes["width"] == size.0 && img.attributes["height"] == size.1, "\(v.id): \(img.attributes)")
            let button = try #require(tags.all("button").last { $0.offset < img.offset })
            #expect(button.attributes["class"] == "cell-open" && button.attributes["type"] == "button")
            #expect(button.attributes["data-variant"] == RunReport.pictureID(v.id))
            let box = try #require(tags.all("div").last { $0.offset < img.offset && $0.attributes["class"]?.contains("sheet-scroll") == true })
            #expect(box.attributes["tabindex"] == "0" && box.attributes["role"] == "region")
            #expect(box.attributes["aria-label"] == regionNames[v.preset], "\(box.attributes)")
        }
        // No sheet is fitted to the page (the old `fit` sheets scaled pictures down).
        #expect(tags.all("table", where: { $0.attributes["class"]?.hasPrefix("sheet") == true }).allSatisfy { $0.attributes["class"] == "sheet" })
        // What keeps them so: no max-width on sheet pictures, and the box scrolls.
        #expect(HTMLBuilder.css.contains(".sheet img{display:block;max-width:none}"))
        #expect(HTMLBuilder.css.contains(".scroll-box{position:relative;overflow:auto;max-width:100%}"))
        // Each sheet's title (outside its box) names the table.
        for t in tags.all("table", where: { $0.attributes["class"] == "sheet" }) {
            let id = try #require(t.attributes["aria-labelledby"])
            #expect(try Self.heading(tags, id).name == "h4")
        }
    }

    @Test("the cell's button names the open findings that cover the variant, worst first, and its changed snapshots, for the viewer")
    func viewerData() throws {
        let report = HTMLReportTests.make()
        let tags = HTMLTags(report.html())
        func button(_ id: VariantID) throws -> HTMLTags.Tag {
            try #require(tags.all("button").first { $0.attributes["data-variant"] == RunReport.pictureID(id) }, "\(id)")
        }
        func index(_ rule: String, _ preset: String, _ variant: String) throws -> Int {
            try #require(report.findings.firstIndex { $0.rule == rule && $0.preset == preset && $0.variant.description == variant })
        }
        let contrast = try index("nontext-contrast", "alpha", "alpha/square-md/*/default/unchecked@2x")
        let targetAX5 = try index("target-size", "alpha", "alpha/square-md/*/*/*@*x")
        let shapeAX5 = try index("state-shape", "alpha", "alpha/square-md/AX5/default/checked@2x")
        let shapeL = try index("state-shape", "alpha", "alpha/square-md/L/default/checked@2x")
        let betaInfo = try index("target-size", "beta", "beta/switch-md/L/default/*@2x")
        // Two errors (in finding order), then nothing else.
        #expect(try button("alpha/square-md/AX5/default/unchecked@2x").attributes["data-f"] == "\(min(contrast, targetAX5)) \(max(contrast, targetAX5))")
        // The error before the warning.
        #expect(try button("alpha/square-md/AX5/default/checked@2x").attributes["data-f"] == "\(targetAX5) \(shapeAX5)")
        #expect(try button("alpha/square-md/L/default/checked@2x").attributes["data-f"] == "\(shapeL)")
        #expect(try button("alpha/square-md/L/default/unchecked@2x").attributes["data-f"] == "\(contrast)")
        // beta's accepted error is not listed; its info finding is.
        #expect(try button("beta/switch-md/L/default/off@2x").attributes["data-f"] == "\(betaInfo)")
        // Every finding named has its element on the page (a card, or a line of a folded card).
        let ids = Set(tags.tags.compactMap { $0.attributes["id"] })
        for b in tags.all("button", where: { $0.attributes["class"] == "cell-open" }) {
            for j in (b.attributes["data-f"] ?? "").split(separator: " ") { #expect(ids.contains("f-\(j)"), "f-\(j)") }
            for n in (b.attributes["data-s"] ?? "").split(separator: " ") { #expect(ids.contains("s-\(n)"), "s-\(n)") }
        }
        // Snapshots: the changed one and the new one, by their place among the changes.
        let changes = try #require(report.snapshots?.results.filter { $0.status != .match })
        let mismatch = try #require(changes.firstIndex { $0.status == .mismatch }), new = try #require(changes.firstIndex { $0.status == .new })
        #expect(try button("alpha/square-md/AX5/default/checked@2x").attributes["data-s"] == "\(mismatch)")
        #expect(try button("beta/switch-md/L/default/off@2x").attributes["data-s"] == "\(new)")
        #expect(try button("alpha/square-md/L/default/unchecked@2x").attributes["data-s"] == "")
        // Hovering a cell names its findings.
        #expect(try button("alpha/square-md/L/default/unchecked@2x").attributes["title"] == "error · nontext-contrast: ring #C4C4C4 on #FFFFFF is 1.74:1, needs 3:1")
        // The cell says how many findings (one line per wording) it has.
        #expect(report.html().contains("<span class=\"cell-count\">2 findings</span>"))

        // The viewer: a modal dialog named by its title, zoom 1×, 2×, 4× (1× pressed), drawn pixel for pixel.
        let dialog = try #require(tags.all("dialog").first)
        #expect(dialog.attributes["id"] == "viewer" && dialog.attributes["aria-labelledby"] == "viewer-title")
        let zoom = tags.all("button", where: { $0.offset > dialog.offset && $0.attributes["data-zoom"] != nil })
        #expect(zoom.map { $0.attributes["data-zoom"] ?? "" } == ["1", "2", "4"])
        #expect(zoom.map { $0.attributes["aria-pressed"] ?? "" } == ["true", "false", "false"])
        #expect(HTMLBuilder.css.contains(".viewer-pic img{display:block;max-width:none;image-rendering:pixelated}"))
        #expect(HTMLBuilder.script.contains("dlg.addEventListener('close',function(){if(!away&&current)current.focus();"),
                "the focus goes back to the cell")
    }

    @Test("skip links to every section come first: Findings is the fourth Tab stop of the page")
    func skipLinks() throws {
        let report = SampleReport.make()
        let tags = HTMLTags(report.html())
        let nav = try #require(tags.all("nav").first)
        #expect(nav.attributes["aria-label"] == "Sections of the report")
        let main = try #require(tags.all("main").first)
        let links = Self.between(tags, nav.offset, main.offset).filter { $0.name == "a" }.compactMap { $0.attributes["href"] }
        #expect(links == ["#overview", "#filters", "#sheets", "#findings", "#snapshots", "#snapshots-changed", "#snapshots-new", "#snapshots-stale"])
        let ids = Set(tags.tags.compactMap { $0.attributes["id"] })
        for l in links { #expect(ids.contains(String(l.dropFirst())), "\(l)") }
        // The page's Tab order: links, buttons, form controls, summaries and tabindex=0 boxes, in source order.
        let stops = tags.tags.filter { t in
            (t.name == "a" && t.attributes["href"] != nil) || ["button", "select", "input", "summary"].contains(t.name)
                || t.attributes["tabindex"] == "0"
        }
        #expect(stops.firstIndex { $0.attributes["href"] == "#findings" } == 3)
        // Without snapshots there is no snapshot link.
        var none = report
        none.snapshots = nil
        let noneTags = HTMLTags(none.html())
        let noneNav = try #require(noneTags.all("nav").first), noneMain = try #require(noneTags.all("main").first)
        #expect(Self.between(noneTags, noneNav.offset, noneMain.offset).filter { $0.name == "a" }.compactMap { $0.attributes["href"] }
                == ["#overview", "#filters", "#sheets", "#findings"])
    }

    @Test("snapshot changes come in groups, changed first, then new and stale, with counts and a status filter; the unchanged are summarised")
    func snapshotGroups() throws {
        var report = SampleReport.make()
        // Two more changes at the end of the list and one match within tolerance: the groups order them.
        report.snapshots?.results += [
            SnapshotRecord(id: "beta/switch-md/L/default/on@2x", status: .mismatch, failed: true,
                           baseline: "snapshots/beta/switch-md/L/default/on@2x.png", message: "size changed from 40×28 to 42×28"),
            SnapshotRecord(id: "alpha/square-md/L/default/checked@2x", status: .match, failed: false,
                           baseline: "snapshots/alpha/square-md/L/default/checked@2x.png",
                           message: "differs within tolerance: 2 px counted, 1 anti-aliased px ignored, largest colour difference 0.010"),
            SnapshotRecord(id: "alpha/square-md/AX5/default/unchecked@2x", status: .new, failed: true,
                           baseline: "snapshots/alpha/square-md/AX5/default/unchecked@2x.png"),
        ]
        let html = report.html()
        let tags = HTMLTags(html)
        let groups = tags.all("section", where: { $0.attributes["class"] == "snap-group" })
        #expect(groups.map { $0.attributes["data-status"] ?? "" } == ["changed", "new", "stale", "unchanged"])
        let articles = tags.all("article", where: { $0.attributes["class"] == "snapshot" })
        #expect(articles.map { $0.attributes["data-status"] ?? "" } == ["changed", "changed", "new", "new", "stale"])
        // Each article sits in its group and keeps the id the cells link to (its place among the changes).
        let changes = try #require(report.snapshots?.results.filter { $0.status != .match })
        #expect(changes.count == 5)
        for a in articles {
            let group = try #require(groups.last { $0.offset < a.offset })
            #expect(group.attributes["data-status"] == a.attributes["data-status"])
            let n = try #require(a.attributes["id"].flatMap { Int($0.dropFirst(2)) })
            #expect(["mismatch": "changed", "new": "new", "stale": "stale"][changes[n].status.rawValue] == a.attributes["data-status"])
        }
        #expect(html.contains("<h3 id=\"snapshots-changed\">Changed <span class=\"count\">2</span></h3>"))
        #expect(html.contains("<h3 id=\"snapshots-new\">New <span class=\"count\">2</span></h3>"))
        #expect(html.contains("<h3 id=\"snapshots-stale\">Stale <span class=\"count\">1</span></h3>"))
        #expect(html.contains("<h3 id=\"snapshots-unchanged\">Unchanged <span class=\"count\">2</span></h3>"))
        #expect(html.contains("2 renders match their baselines. 1 of them differs within tolerance."))
        #expect(html.contains("<li><code>alpha/square-md/L/default/checked@2x</code> — differs within tolerance: 2 px counted"))
        // The status filter: every change, or one group, with its count.
        #expect(html.contains("<select data-snapshot-filter><option value=\"\">Every change (5)</option><option value=\"changed\">Changed (2)</option>"
                              + "<option value=\"new\">New (2)</option><option value=\"stale\">Stale (1)</option></select>"))
        #expect(HTMLBuilder.script.contains("(!st||el.getAttribute('data-status')===st)"))
    }

    /// SampleReport with a second changed baseline and one cause group holding both (one fold each),
    /// staged as candidates when `staged`.
    static func grouped(staged: Bool) -> RunReport {
        var report = SampleReport.make()
        report.snapshots?.results.append(SnapshotRecord(id: "beta/switch-md/L/default/on@2x", status: .mismatch, failed: true,
                                                        baseline: "snapshots/beta/switch-md/L/default/on@2x.png", message: "5 px differ",
                                                        expectedSize: [20, 14], actualSize: [20, 14], expected: "e.png", actual: "a.png", diff: "d.png"))
        if staged {
            report.snapshots?.candidates = "candidates"
            for i in report.snapshots!.results.indices where report.snapshots!.results[i].status == .mismatch {
                report.snapshots!.results[i].candidate = "candidates/\(report.snapshots!.results[i].id).png"
            }
        }
        let ids = ["alpha/square-md/AX5/default/checked@2x", "beta/switch-md/L/default/on@2x"]
        report.snapshotGroups = [
            SnapshotGroup(id: "g0123456789", kind: .inputs, cause: "sizes.md.markWeight 2 → 3",
                          changes: [SnapshotGroup.Change(key: "sizes.md.markWeight", before: "2", after: "3")], count: 2, variants: ids,
                          diffs: ids.map { SnapshotGroup.Fold(representative: $0, variants: [$0]) }),
            SnapshotGroup(id: "gabcdef0123", kind: .stale, cause: "themes.default.mark #FFFFFF → #FFFF00",
                          changes: [SnapshotGroup.Change(key: "themes.default.mark", before: "#FFFFFF", after: "#FFFF00")], count: 1,
                          variants: ["alpha/square-md/L/default/unchecked@2x"], diffs: nil),
        ]
        return report
    }

    @Test("with cause groups: each once with its key before → after, a checkbox when staged, the command's start quoted for a POSIX shell with --snapshots when not the default; a page without groups has none of it")
    func causeGroups() throws {
        var report = Self.grouped(staged: true)
        report.snapshots?.folder = "design/snaps"
        let html = report.html(folder: "ci out")
        #expect(html.contains("data-base=\"glyphaudit accept 'ci out' --snapshots design/snaps\""))
        #expect(html.components(separatedBy: "<section class=\"cause\" id=\"cause-g0123456789\"").count == 2)
        #expect(html.contains("<input type=\"checkbox\" id=\"pick-g0123456789\" data-pick=\"g0123456789\" data-count=\"2\">"
                              + "<label for=\"pick-g0123456789\">Accept <code>g0123456789</code></label>"))
        #expect(html.contains("<tr><th scope=\"row\"><code>sizes.<wbr>md.<wbr>markWeight</code></th><td class=\"before\">2</td><td class=\"after\">3</td></tr>"))
        // The stale group: listed, no checkbox.
        #expect(html.contains("<section class=\"cause stale\" id=\"cause-gabcdef0123\">") && !html.contains("data-pick=\"gabcdef0123\""))
        // The representative (the first fold's) outside the disclosure, at 4× (its 40 px side to 160); the other inside, at 4× (20 px: 96 / 20, whole times).
        let tags = HTMLTags(html)
        let details = try #require(tags.all("details", where: { $0.attributes["class"] == "more cause-more" }).first)
        let first = try #require(tags.all("article").first { $0.attributes["id"] == "s-0" })
        let second = try #require(tags.all("article").first { $0.attributes["id"] == "s-3" })
        #expect(first.offset < details.offset && second.offset > details.offset)
        #expect(html.contains("<img src=\"snapshots/alpha/square-md/AX5/default/checked@2x.expected.png\" width=\"160\" height=\"112\""))
        #expect(html.contains("<img src=\"e.png\" width=\"80\" height=\"56\""))
        #expect(html.contains("<summary>The other variant (1 more distinct diff)</summary>"))
        // The quoting: a quote inside a word, and plain words as they are.
        #expect(HTMLPage.shellQuoted("it's here") == "'it'\\''s here'" && HTMLPage.shellQuoted("glyphaudit-out/ci_1") == "glyphaudit-out/ci_1")
        #expect(HTMLPage.shellQuoted("é") == "'é'" && HTMLPage.shellQuoted("") == "''")
        // The report folder as the command names it, from the folder glyphaudit ran in.
        let cwd = URL(fileURLWithPath: "/work/repo")
        #expect(RunReport.acceptFolder(URL(fileURLWithPath: "/work/repo/glyphaudit-out"), cwd: cwd) == "glyphaudit-out")
        #expect(RunReport.acceptFolder(URL(fileURLWithPath: "/work/repo/./a/../out/"), cwd: cwd) == "out")
        #expect(RunReport.acceptFolder(cwd, cwd: cwd) == ".")
        #expect(RunReport.acceptFolder(URL(fileURLWithPath: "/tmp/elsewhere"), cwd: cwd) == "/tmp/elsewhere")

        // Not staged: the groups, no checkbox, and the box says there is nothing to accept.
        let unstaged = Self.grouped(staged: false).html()
        #expect(unstaged.contains("This run staged no candidates") && !unstaged.contains("type=\"checkbox\""))
        // No groups: none of it, and the page's script and style as they were.
        let plain = SampleReport.make().html()
        #expect(!plain.contains("class=\"cause") && !plain.contains(".review{") && !plain.contains("accept-command"))
        #expect(plain.contains("<script>\(HTMLBuilder.script(axes: false))</script>"))
    }

    @Test("the same report gives the same bytes, also when read back from its report.json (merge-reports writes the page from it)")
    func deterministic() throws {
        let report = HTMLReportTests.make()
        let page = report.html()
        #expect(report.html() == page)
        let read = try JSONDecoder().decode(RunReport.self, from: try report.jsonData())
        #expect(read.html() == page)
        // And a different report gives a different page (the comparison can fail).
        var other = report
        other.variants[0].width = 42
        #expect(other.html() != page)
    }
}
