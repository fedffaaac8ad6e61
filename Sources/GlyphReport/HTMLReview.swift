import Foundation
import GlyphCore
import GlyphSnapshot

// Review in the report (docs/snapshots.md, "Review in the report"): with snapshot groups (a snapshot
// folder with a manifest), the changed baselines are shown once per cause — its count, the inputs that
// changed, the expected / actual / diff of one variant, the rest one click away — each with a checkbox;
// ticking groups writes the `glyphaudit accept REPORT --group ID…` command for them, with a Copy
// button. A page without groups is what it was, byte for byte.

extension HTMLPage {
    /// The command's start: `glyphaudit accept REPORT` (the report folder as written, relative to the
    /// folder glyphaudit ran in), with `--snapshots DIR` when the baselines are not in `snapshots`.
    var acceptBase: String {
        var words = ["glyphaudit", "accept", reportFolder]
        if let folder = report.snapshots?.folder, folder != "snapshots" { words += ["--snapshots", folder] }
        return words.map(Self.shellQuoted).joined(separator: " ")
    }

    /// A word as a POSIX shell reads it back: as it is when plain, else in single quotes.
    static func shellQuoted(_ word: String) -> String {
        let plain = !word.isEmpty && word.unicodeScalars.allSatisfy {
            CharacterSet.alphanumerics.contains($0) && $0.isASCII || "_./=,:@+-".unicodeScalars.contains($0)
        }
        return plain ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// Whether a group's renders were staged (a checkbox for `accept --group`).
    func acceptable(_ g: SnapshotGroup, _ index: [String: Int]) -> Bool {
        g.variants.contains { id in index[id].map { changedSnapshots[$0].candidate != nil } ?? false }
    }

    /// Whether `accept --group` refreshes a stale group's manifest entries: the report carries the
    /// entries the run computed for its variants (inputs changed, pixels did not).
    func refreshable(_ g: SnapshotGroup) -> Bool {
        let ids = Set(g.variants)
        return (report.snapshots?.results ?? []).contains { ids.contains($0.id.description) && $0.manifest != nil }
    }

    /// The stale groups of the same cause as changed group `g` (the same keys changed), whose entries
    /// `accept` refreshes: ticking `g` accepts them with it, so the next `check` has nothing stale.
    func companions(_ g: SnapshotGroup) -> [SnapshotGroup] {
        staleCauses.filter { $0.changes == g.changes && $0.cause == g.cause && refreshable($0) }
    }

    /// The stale groups `accept` can refresh that go with no changed group: each has a checkbox of its own.
    var staleOnTheirOwn: [SnapshotGroup] {
        let joined = Set(causes.filter { acceptable($0, changedIndex) }.flatMap { companions($0).map(\.id) })
        return staleCauses.filter { !joined.contains($0.id) && refreshable($0) }
    }

    /// The changed snapshots' places (`s-<n>`) by variant id.
    var changedIndex: [String: Int] {
        Dictionary(changedSnapshots.enumerated().filter { $0.element.status == .mismatch }.map { ($0.element.id.description, $0.offset) },
                   uniquingKeysWith: { a, _ in a })
    }

    /// The box at the top of the snapshot section: what ticking does, Select all and Clear, and (sticky
    /// while the groups scroll by) the command for the ticked groups with its Copy button.
    func reviewBox(_ h: inout HTMLBuilder) {
        let index = changedIndex
        let staged = causes.filter { acceptable($0, index) } + staleOnTheirOwn
        h.add("<section class=\"review\" aria-labelledby=\"review-title\"><h3 id=\"review-title\">Review by cause</h3>\n")
        guard !staged.isEmpty else {
            h.add("<p>This run staged no candidates, so there is nothing to accept from this report: a run under CI (or with "
                  + "<code>--stage</code>) stages every changed render for <code>glyphaudit accept</code>.</p>\n</section>\n")
            return
        }
        let n = staged.count
        h.add("<p>Each cause is shown once. Tick the groups whose new pictures are right, then run the command below in the folder "
              + "glyphaudit ran in: it copies their renders (staged in <code>\(reportFolder)/candidates/</code>) into "
              + "<code>\(report.snapshots?.folder ?? "snapshots")/</code> and the inputs that drew them into its manifest, without rendering.</p>\n")
        h.add("<div class=\"review-tools\"><button type=\"button\" data-pick-all>Select all</button>"
              + "<button type=\"button\" data-pick-none>Clear</button>"
              + "<span id=\"review-count\" role=\"status\">0 of \(counted(n, "group")) ticked</span></div>\n")
        h.add("</section>\n")
        h.add("<div class=\"review-bar\" id=\"review-bar\"><p class=\"vh\" id=\"accept-label\">Command to accept the ticked groups</p>"
              + "<pre class=\"command empty\" id=\"accept-command\" data-base=\"\(acceptBase)\" aria-describedby=\"accept-label\">"
              + "No group ticked: tick the groups to accept below.</pre>"
              + "<button type=\"button\" data-copy disabled>Copy</button><span class=\"copy-note\" id=\"copy-note\" role=\"status\"></span></div>\n")
    }

    /// The changed baselines by cause: each group once, then the changes no group holds.
    func changedByCause(_ h: inout HTMLBuilder, _ members: [Int], renders: [String: VariantRecord]) {
        let index = changedIndex
        var shown = Set<Int>()
        for g in causes {
            let places = g.variants.compactMap { index[$0] }
            if places.isEmpty { continue }
            shown.formUnion(places)
            causeSection(&h, g, index: index)
        }
        let rest = members.filter { !shown.contains($0) }
        if !rest.isEmpty {
            h.add("<h4 id=\"snapshots-ungrouped\">Not grouped <span class=\"count\">\(rest.count)</span></h4>\n"
                  + "<p class=\"muted\">The manifest holds no entry for these (recorded before it, or accepted since).</p>\n")
            for n in rest { snapshotArticle(&h, n, renders: renders) }
        }
    }

    /// One cause group: its count and folds, what changed, a checkbox when its renders were staged, the
    /// expected / actual / diff of its first variant, and the other variants in a disclosure.
    func causeSection(_ h: inout HTMLBuilder, _ g: SnapshotGroup, index: [String: Int]) {
        let folds: [(representative: String, variants: [String])] = g.diffs.map { $0.map { ($0.representative, $0.variants) } }
            ?? g.variants.map { ($0, [$0]) }
        let title = "cause-\(g.id)"
        // (Not a landmark: groups of one size have the same heading.)
        h.add("<section class=\"cause\" id=\"\(title)\" data-group=\"\(g.id)\">\n<div class=\"cause-head\">")
        let distinct: HTML = folds.count < g.count ? " <span class=\"muted\">· \(counted(folds.count, "distinct diff"))</span>" : ""
        h.add("<h4 id=\"\(title)-title\">\(counted(g.count, "variant"))\(distinct) <span class=\"badge info\">\(g.kind)</span></h4>")
        if acceptable(g, index) {
            let also = companions(g).map(\.id)
            let alsoAttribute: HTML = also.isEmpty ? "" : " data-also=\"\(also.joined(separator: " "))\""
            h.add("<p class=\"pick\"><input type=\"checkbox\" id=\"pick-\(g.id)\" data-pick=\"\(g.id)\"\(alsoAttribute) data-count=\"\(g.count)\">"
                  + "<label for=\"pick-\(g.id)\">Accept <code>\(g.id)</code></label></p>")
        } else {
            h.add("<p class=\"muted\"><code>\(g.id)</code> (no render staged)</p>")
        }
        h.add("</div>\n<div class=\"cause-body\"><div class=\"cause-info\">\n")
        causeChanges(&h, g)
        // The representative: the first fold's first variant, large enough to see its pixels (beside
        // what changed on a wide screen).
        if let first = folds.first, let n = index[first.representative] {
            let same = first.variants.count - 1
            h.add("<p class=\"muted\">Shown: \(same > 0 ? "one of \(first.variants.count) variants with this same diff" : "the first variant")</p>\n</div>\n")
            groupArticle(&h, n, large: true)
        } else {
            h.add("</div>\n")
        }
        h.add("</div>\n")
        var others = 0
        for fold in folds { others += fold.variants.count }
        others = max(0, others - 1)
        if others > 0 {
            let moreDiffs = folds.count - 1
            h.add("<details class=\"more cause-more\"><summary>\(others == 1 ? "The other variant" : "The other \(others) variants")"
                  + "\(moreDiffs > 0 ? " (\(counted(moreDiffs, "more distinct diff")))" : "")</summary>\n")
            for (i, fold) in folds.enumerated() {
                let rest = i == 0 ? Array(fold.variants.dropFirst()) : fold.variants
                for (j, id) in rest.enumerated() {
                    guard let n = index[id] else { continue }
                    if i > 0 && j == 0 {
                        groupArticle(&h, n, large: false)
                    } else if let rep = index[fold.representative] {
                        // An identical diff: named, with a link to the pictures it shares.
                        let s = changedSnapshots[n]
                        h.add("<article class=\"snapshot twin\" id=\"s-\(n)\" data-status=\"changed\" data-preset=\"\(s.id.preset)\" "
                              + "data-theme=\"\(s.id.baseTheme)\" data-dt=\"\(s.id.dynamicType)\"\(axesAttributes([s.id]))>"
                              + "<h5><code>\(s.id)</code></h5><p class=\"muted\">The same diff as <a href=\"#s-\(rep)\">"
                              + "\(changedSnapshots[rep].id)</a>.</p></article>\n")
                    }
                }
            }
            h.add("</details>\n")
        }
        h.add("</section>\n")
    }

    /// What changed for a group: a table of keys (before → after), or the cause in words.
    func causeChanges(_ h: inout HTMLBuilder, _ g: SnapshotGroup) {
        var rest = g.cause
        if let changes = g.changes, !changes.isEmpty {
            h.add("<table class=\"changes\"><caption>What changed</caption><thead><tr><th scope=\"col\">Input</th>"
                  + "<th scope=\"col\">Before</th><th scope=\"col\">After</th></tr></thead><tbody>")
            for c in changes {
                // A key breaks after its dots on a narrow screen, not inside a word.
                let key = HTML.joined(c.key.split(separator: ".", omittingEmptySubsequences: false).map { "\(String($0))" }, separator: ".<wbr>")
                h.add("<tr><th scope=\"row\"><code>\(key)</code></th><td class=\"before\">\(c.before ?? "(unset)")</td>"
                      + "<td class=\"after\">\(c.after ?? "(unset)")</td></tr>")
            }
            h.add("</tbody></table>\n")
            let text = changes.map(\.description).joined(separator: "; ")
            rest = rest == text ? "" : rest.hasPrefix(text + "; ") ? String(rest.dropFirst(text.count + 2)) : rest
        }
        if rest.isEmpty { return }
        switch g.kind {
        case .unexplained:
            h.add("<p class=\"cause-text\"><strong>No input changed:</strong> the renderer drew the same inputs differently "
                  + "(a library that changed without changing its version, or a baseline edited by hand).</p>\n")
        case .renderer:
            h.add("<p class=\"cause-text\"><strong>Renderer changed:</strong> \(rest.hasPrefix("renderer: ") ? String(rest.dropFirst(10)) : rest)</p>\n")
        case .stale:
            h.add("<p class=\"cause-text\">\(rest)</p>\n")
        case .inputs, .unrecorded:
            h.add("<p class=\"cause-text\"><strong>Changed:</strong> \(rest)</p>\n")
        }
    }

    /// A changed baseline inside its group: its id, the numbers, and expected / actual / diff side by
    /// side (`large`: drawn bigger, pixel for pixel, for the group's representative).
    func groupArticle(_ h: inout HTMLBuilder, _ n: Int, large: Bool) {
        let s = changedSnapshots[n]
        let id = s.id
        h.add("<article class=\"snapshot in-cause\" id=\"s-\(n)\" data-status=\"changed\" data-preset=\"\(id.preset)\" "
              + "data-theme=\"\(id.baseTheme)\" data-dt=\"\(id.dynamicType)\"\(axesAttributes([id]))>\n")
        h.add("<h5><code>\(s.id)</code></h5>\n")
        if let m = s.message { h.add("<p class=\"muted\">\(m)</p>\n") }
        let pics = [("Expected", s.expected, s.expectedSize), ("Actual", s.actual, s.actualSize), ("Diff", s.diff, s.actualSize)]
            .compactMap { l, p, size in p.map { (l, $0, size) } }
        if !pics.isEmpty {
            // Zoomed whole times (at most 8×) so that the larger side is about 160 CSS px (96 for the rest).
            let side = pics.compactMap { $0.2?.max() }.max() ?? 0
            let zoom = side > 0 ? max(1, min(8, (large ? 160 : 96) / side)) : 1
            h.add("<div class=\"triple\">")
            for (label, p, size) in pics {
                let dims: HTML = size.map { $0.count == 2 ? " width=\"\($0[0] * zoom)\" height=\"\($0[1] * zoom)\"" : "" } ?? ""
                h.add("<figure><img src=\"\(p)\"\(dims) alt=\"\(label) \(s.id)\" loading=\"lazy\"><figcaption>\(label)</figcaption></figure>")
            }
            h.add("</div>\n")
        }
        h.add("</article>\n")
    }

    /// The stale groups (inputs changed, pixels did not): each with what changed and its variants.
    func staleCauseList(_ h: inout HTMLBuilder) {
        h.add("<h4 id=\"snapshots-stale-inputs\">Inputs changed, pixels did not <span class=\"count\">\(staleCauses.reduce(0) { $0 + $1.count })</span></h4>\n")
        let own = Set(staleOnTheirOwn.map(\.id))
        h.add("<p class=\"muted\">Their renders match the baselines, but the manifest recorded other inputs for them. "
              + "<code>glyphaudit accept</code> records the new ones from this report: a group of the same cause as a changed "
              + "group above goes with it when that one is ticked; tick the others here. (<code>glyphaudit check --update</code> "
              + "records them too, rendering.)</p>\n")
        for g in staleCauses {
            h.add("<section class=\"cause stale\" id=\"cause-\(g.id)\"><div class=\"cause-head\">"
                  + "<h5 id=\"cause-\(g.id)-title\">\(counted(g.count, "variant")) <code>\(g.id)</code></h5>")
            if own.contains(g.id) {
                h.add("<p class=\"pick\"><input type=\"checkbox\" id=\"pick-\(g.id)\" data-pick=\"\(g.id)\" data-count=\"\(g.count)\">"
                      + "<label for=\"pick-\(g.id)\">Record <code>\(g.id)</code></label></p>")
            } else if refreshable(g) {
                h.add("<p class=\"muted\">Goes with the changed group of the same cause.</p>")
            } else {
                h.add("<p class=\"muted\">Nothing staged: <code>glyphaudit check --update</code> records them.</p>")
            }
            h.add("</div>\n")
            causeChanges(&h, g)
            h.add("<details class=\"more\"><summary>The \(counted(g.count, "variant"))</summary><ul>\n")
            for v in g.variants { h.add("<li><code>\(v)</code></li>\n") }
            h.add("</ul></details></section>\n")
        }
    }
}

extension HTMLBuilder {
    /// Style for a page with snapshot groups (other pages are as they were).
    static let reviewCSS = """
    .review{margin:12px 0 0;padding:12px 16px;border:1px solid var(--line);border-radius:10px 10px 0 0;border-bottom:0;background:var(--panel)}
    .review h3{margin:0 0 4px;font-size:18px}.review p{margin:4px 0;max-width:110ch}
    .review-tools{display:flex;flex-wrap:wrap;gap:8px 12px;align-items:center;margin:8px 0 0}
    .review-bar{position:sticky;top:0;z-index:3;display:flex;flex-wrap:wrap;gap:8px 12px;align-items:center;margin:0 0 16px;padding:10px 16px;
      background:var(--panel);border:1px solid var(--line);border-top:0;border-radius:0 0 10px 10px;box-shadow:0 4px 10px rgba(0,0,0,.10)}
    .command{flex:1 1 240px;margin:0;padding:6px 10px;min-height:32px;border-radius:6px;background:var(--ink);color:#fff;
      font:13px/1.6 ui-monospace,SFMono-Regular,Menlo,"DejaVu Sans Mono",monospace;white-space:pre-wrap;overflow-wrap:anywhere}
    .command.empty{background:#fff;color:var(--muted);border:1px dashed var(--muted);font-family:inherit;font-size:14px}
    .copy-note{font-size:13px;color:var(--good);font-weight:600}
    .cause{border:1px solid var(--line);border-left:6px solid var(--focus);border-radius:10px;padding:12px 16px;margin:12px 0;background:var(--bg)}
    .cause.picked{border-color:var(--focus);box-shadow:0 0 0 1px var(--focus)}.cause.stale{border-left-color:var(--line)}
    .cause-head{display:flex;flex-wrap:wrap;justify-content:space-between;gap:8px 16px;align-items:center}
    .cause-head h4,.cause-head h5{margin:0;font-size:17px}.cause-head p{margin:0}
    .pick{display:inline-flex;align-items:center;gap:8px;padding:4px 12px 4px 8px;border:1px solid var(--muted);border-radius:6px;background:#fff}
    .pick input{width:22px;height:22px;margin:0;accent-color:var(--focus);cursor:pointer}.pick label{cursor:pointer;min-height:24px;display:inline-flex;align-items:center;gap:4px}
    .changes{margin:10px 0;font-size:14px;min-width:min(100%,360px)}.changes caption{font-size:13px;color:var(--muted);font-weight:400;padding:0 0 4px}
    .changes th{background:var(--panel);text-align:left;font-weight:600}.changes code{overflow-wrap:normal}.changes td.before{color:var(--bad)}.changes td.after{color:var(--good);font-weight:600}
    .cause-text{margin:8px 0;overflow-wrap:anywhere}.cause>p.muted{margin:8px 0 0;font-size:13px}
    .snapshot.in-cause{border:0;border-top:1px solid var(--line);border-radius:0;padding:8px 0 0;margin:8px 0 0}
    .snapshot.in-cause h5,.snapshot.twin h5{margin:0;font-size:14px;font-weight:600}.snapshot.twin{border:0;padding:4px 0;margin:0}
    .in-cause .triple{display:grid;grid-template-columns:repeat(3,minmax(0,max-content));gap:12px}.in-cause figure{margin:6px 0}.in-cause figure img{image-rendering:pixelated;background:#fff}
    .cause-more{margin-top:8px}section.cause,.cause article{scroll-margin-top:120px}
    @media (min-width:900px){.cause-body{display:grid;grid-template-columns:minmax(260px,2fr) 3fr;gap:0 32px;align-items:start}
      .cause-body>.snapshot.in-cause{border-top:0;padding-top:0;margin-top:10px}}

    """

    /// The script of a page with snapshot groups: ticking writes the command; Copy copies it (the
    /// clipboard where the page may write it, else the text is selected for Ctrl+C / ⌘C).
    static let reviewScript = """
    (function(){
      var picks=[].slice.call(document.querySelectorAll('input[data-pick]'));
      var cmd=document.getElementById('accept-command'),note=document.getElementById('copy-note'),count=document.getElementById('review-count');
      var copy=document.querySelector('[data-copy]'),form=document.getElementById('filter-form'),snapSelect=document.querySelector('[data-snapshot-filter]');
      // A group whose variants the filters hide all is hidden with them.
      function causes(){document.querySelectorAll('section.cause[data-group]').forEach(function(s){
        s.hidden=!s.querySelector('article.snapshot:not([hidden])');});}
      if(form)form.addEventListener('change',causes);if(snapSelect)snapSelect.addEventListener('change',causes);causes();
      // A link to a variant inside a closed disclosure (a contact-sheet cell's badge) opens it.
      function reveal(){var t=location.hash&&document.getElementById(decodeURIComponent(location.hash.slice(1)));if(!t)return;var opened=false;
        for(var d=t.closest('details');d;d=d.parentElement&&d.parentElement.closest('details')){if(!d.open){d.open=true;opened=true;}}
        if(opened)t.scrollIntoView();}
      addEventListener('hashchange',reveal);reveal();
      if(!cmd)return;
      function update(){
        var on=picks.filter(function(p){return p.checked;});var n=0;
        picks.forEach(function(p){var s=p.closest('section.cause');if(s)s.classList.toggle('picked',p.checked);});
        on.forEach(function(p){n+=+p.getAttribute('data-count');});
        if(on.length){cmd.textContent=cmd.getAttribute('data-base')+on.map(function(p){return (p.getAttribute('data-pick')+' '+(p.getAttribute('data-also')||'')).trim().split(' ').map(function(g){return ' --group '+g;}).join('');}).join('');}
        else cmd.textContent='No group ticked: tick the groups to accept below.';
        cmd.classList.toggle('empty',!on.length);copy.disabled=!on.length;note.textContent='';
        count.textContent=on.length+' of '+picks.length+' group'+(picks.length===1?'':'s')+' ticked'+(on.length?' ('+n+' variant'+(n===1?'':'s')+')':'');
      }
      picks.forEach(function(p){p.addEventListener('change',update);});
      function all(v){picks.forEach(function(p){p.checked=v;});update();}
      document.querySelector('[data-pick-all]').addEventListener('click',function(){all(true);});
      document.querySelector('[data-pick-none]').addEventListener('click',function(){all(false);});
      function select(){var r=document.createRange();r.selectNodeContents(cmd);var s=getSelection();s.removeAllRanges();s.addRange(r);
        var ok=false;try{ok=document.execCommand('copy');}catch(e){}
        note.textContent=ok?'Copied.':'Selected: press Ctrl+C (⌘C) to copy.';}
      copy.addEventListener('click',function(){var text=cmd.textContent;
        if(navigator.clipboard&&navigator.clipboard.writeText){navigator.clipboard.writeText(text).then(function(){note.textContent='Copied.';},select);}
        else select();});
      update();
    })();

    """
}
