import Foundation
import GlyphAudit
import GlyphRaster
import GlyphReport
import Testing
import GlyphTestSupport

// `glyphaudit run` and `glyphaudit merge-reports`, run as the built binary from fresh folders, on a
// reduced matrix of all four built-in presets (Dynamic Type L and AX5 at @2x: 130 variants, with the
// contact-sheet pictures), so each run takes well under a second in a debug build.

/// A fresh folder to run in, with helpers for baselines and report folders.
final class RunWorkspace {
    static let reduced = ["--only", "scale=2", "--only", "dynamic-type=L,AX5"]
    static let reportFiles = ["index.html", "junit.xml", "report.json", "results.sarif", "summary.md"]

    let folder = TempFolder()
    var url: URL { folder.url }

    func run(_ args: [String], environment: [String: String] = [:]) throws -> CLI.Result {
        // The test may itself run in GitHub Actions; the tool must not see that unless a test says so.
        var env = ["GITHUB_ACTIONS": "", "NO_COLOR": "1"]
        for (k, v) in environment { env[k] = v }
        return try CLI.run(args, in: url, environment: env)
    }

    /// Copies the package's baselines for the reduced matrix (of `preset`, or all) into `snap/`.
    func copyBaselines(preset: String? = nil) throws {
        let source = CLI.packageRoot.appendingPathComponent("snapshots")
        let target = url.appendingPathComponent("snap")
        var copied = 0
        for rel in filesBelow(source) where rel.hasSuffix("@2x.png") && (rel.contains("/L/") || rel.contains("/AX5/"))
            && (preset == nil || rel.hasPrefix(preset! + "/")) {
            let to = target.appendingPathComponent(rel)
            try FileManager.default.createDirectory(at: to.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: source.appendingPathComponent(rel), to: to)
            copied += 1
        }
        #expect(copied > 0, "no baselines in \(source.path)")
    }

    /// Changes one pixel in the middle of a baseline in `snap/` (inverts its colour).
    func changeOnePixel(_ rel: String) throws {
        let file = url.appendingPathComponent("snap").appendingPathComponent(rel)
        var raster = try Raster(contentsOfPNG: file)
        let i = ((raster.height / 2) * raster.width + raster.width / 2) * 4
        for k in 0..<3 { raster.pixels[i + k] = 255 - raster.pixels[i + k] }
        raster.pixels[i + 3] = 255
        try raster.pngData().write(to: file)
    }

    /// Every file below `sub`, with its bytes.
    func tree(_ sub: String) -> [String: Data] {
        let base = url.appendingPathComponent(sub)
        var out: [String: Data] = [:]
        for rel in filesBelow(base) { out[rel] = try? Data(contentsOf: base.appendingPathComponent(rel)) }
        return out
    }

    func exists(_ rel: String) -> Bool { FileManager.default.fileExists(atPath: url.appendingPathComponent(rel).path) }

    func text(_ rel: String) throws -> String { try String(contentsOf: url.appendingPathComponent(rel), encoding: .utf8) }

    func json(_ rel: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url.appendingPathComponent(rel))) as? [String: Any])
    }
}

/// Regular files below `folder`, relative paths, sorted.
func filesBelow(_ folder: URL) -> [String] {
    guard let e = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else { return [] }
    let base = folder.standardizedFileURL.path
    var out: [String] = []
    for case let f as URL in e where (try? f.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
        out.append(String(f.standardizedFileURL.path.dropFirst(base.count + 1)))
    }
    return out.sorted()
}

/// Expects two report folders to hold the same files with the same bytes.
func expectSameTree(_ a: [String: Data], _ b: [String: Data], _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(a.keys.sorted() == b.keys.sorted(), "\(what): different files", sourceLocation: sourceLocation)
    let differing = a.keys.filter { b[$0] != nil && a[$0] != b[$0] }.sorted()
    #expect(differing.isEmpty, "\(what): different bytes in \(differing.prefix(10))", sourceLocation: sourceLocation)
}

/// The changed baseline in the sharding and determinism tests: a checkbox, so its preset's shard has pictures to copy.
let changedBaselineFile = "design-system-checkbox/square-md/AX5/inverse/checked@2x.png"

@Suite("glyphaudit run: sharding and merge-reports")
struct CLIShardTests {
    /// One unsharded run, then 2, 3 and 9 shards of the same selection merged, each compared with it.
    @Test("merged shards equal one unsharded run, byte for byte, pictures included (2, 3 and 9 shards; of 2, one padded with 20 MB of unknown values)")
    func mergedEqualsWhole() throws {
        let w = RunWorkspace()
        try w.copyBaselines()
        try w.changeOnePixel(changedBaselineFile)
        let options = RunWorkspace.reduced + ["--snapshots", "snap"]
        let whole = try w.run(["run"] + options + ["--report", "out"])
        #expect(whole.status == 1, "\(whole.stderr)")
        // The same --report folder name for both, since junit.xml names it (attachment paths).
        try FileManager.default.moveItem(at: w.url.appendingPathComponent("out"), to: w.url.appendingPathComponent("whole"))
        for n in [2, 3, 9] { try mergedEqualsWhole(w, options, shards: n) }
    }

    /// `n` shards of `options` into s1 … sn, merged into out, compared with `whole`; then removed.
    func mergedEqualsWhole(_ w: RunWorkspace, _ options: [String], shards n: Int) throws {
        var empty = 0
        for i in 1...n {
            let r = try w.run(["run"] + options + ["--shard", "\(i)/\(n)", "--report", "s\(i)"])
            #expect(r.status == 0 || r.status == 1, "shard \(i)/\(n): \(r.stderr)")
            if r.stderr.contains("shard \(i)/\(n) holds no variant of this run") {
                empty += 1
                #expect(r.status == 0, "an empty shard fails nothing")
            }
            let report = try w.json("s\(i)/report.json")
            #expect(report["shard"] as? String == "\(i)/\(n)")
            #expect(report["selected"] as? Int == 130)
        }
        #expect(empty == 0, "the four presets' variant groups (component × theme) outnumber 9 shards: none is empty")
        if n == 2 {
            // Reproducer 21's padding (Tests/Fixtures/bad-input/21-…), 20 MB of small arrays under a key
            // a report does not have: skipped piece by piece, the merge is the same.
            let file = w.url.appendingPathComponent("s1/report.json")
            var text = try String(contentsOf: file, encoding: .utf8)
            while text.last?.isWhitespace == true { text.removeLast() }
            #expect(text.last == "}")
            let item = #"{"a": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]}"#
            var padded = Data(text.dropLast().utf8)
            padded.append(contentsOf: Data(#", "zpad": ["#.utf8))
            padded.append(contentsOf: Data(Array(repeating: item, count: 256_000).joined(separator: ",").utf8))
            padded.append(contentsOf: Data("]}\n".utf8))
            #expect(padded.count > 20_000_000)
            try padded.write(to: file)
        }

        let merge = try w.run(["merge-reports"] + (1...n).map { "s\($0)" } + ["--report", "out"])
        #expect(merge.status == 1, "the merged run fails as the whole one did: \(merge.stderr)")
        #expect(merge.stderr.contains("merged \(n) reports: 130 variants"), "\(merge.stderr)")

        let a = w.tree("whole"), b = w.tree("out")
        for file in RunWorkspace.reportFiles { #expect(a[file] != nil, "\(file) written") }
        #expect(a.keys.contains { $0.hasPrefix("images/") } && a.keys.contains { $0.hasPrefix("evidence/") })
        #expect(a.keys.contains { $0.hasPrefix("snapshots/") && $0.hasSuffix(".diff.png") }, "the changed snapshot's pictures")
        expectSameTree(a, b, "\(n) shards merged")
        for folder in ["out"] + (1...n).map({ "s\($0)" }) {
            try FileManager.default.removeItem(at: w.url.appendingPathComponent(folder))
        }
    }

    @Test("a missing, doubled or foreign shard is refused (exit 2) with a clear message, and nothing is written")
    func refusals() throws {
        let w = RunWorkspace()
        let json = ["--formats", "json"]
        // Five shards of four presets: the fifth is empty.
        for i in 1...5 {
            let r = try w.run(["run"] + RunWorkspace.reduced + json + ["--shard", "\(i)/5", "--report", "s\(i)"])
            #expect(r.status <= 1, "\(r.stderr)")
        }
        // Another run: as many variants, another --only.
        _ = try w.run(["run", "--only", "scale=2", "--only", "dynamic-type=L,xL"] + json + ["--shard", "2/5", "--report", "other2"])
        _ = try w.run(["run", "--fail-on", "never"] + RunWorkspace.reduced + json + ["--shard", "2/5", "--report", "never2"])
        #expect(try w.json("other2/report.json")["selected"] as? Int == 130)

        func refused(_ dirs: [String], _ message: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
            let r = try w.run(["merge-reports"] + dirs + ["--report", "merged"])
            #expect(r.status == 2, "\(dirs): \(r.stderr)", sourceLocation: sourceLocation)
            #expect(r.stderr.contains(message), "\(dirs): \(r.stderr)", sourceLocation: sourceLocation)
            #expect(r.stderr.hasPrefix("glyphaudit: "), sourceLocation: sourceLocation)
            #expect(!w.exists("merged"), "nothing written", sourceLocation: sourceLocation)
        }
        try refused(["s1", "s2", "s3", "s5"], "shard 4/5 is missing")
        try refused(["s1", "s2", "s3", "s4"], "shard 5/5 is missing; name the --report folders of all 5 shards")
        try refused(["s1", "s2", "s3", "s4", "s5", "s5"], "shard 5/5 is given twice")
        try refused(["s1", "s2", "s2", "s3", "s4", "s5"], "shard 2/5 is given twice")
        try refused(["s1", "other2", "s3", "s4", "s5"], "other2/report.json: this report is of another run than ")
        try refused(["s1", "other2", "s3", "s4", "s5"], "s1/report.json: --only (dynamic-type=L,xL scale=2 vs dynamic-type=AX5,L scale=2) differ")
        try refused(["s1", "never2", "s3", "s4", "s5"], "--fail-on (never vs error) differ")
        try refused(["s1", "nowhere"], "nowhere/report.json: cannot read the report")
        let usage = try w.run(["merge-reports"])
        #expect(usage.status == 64, "\(usage.stderr)")

        // The whole set merges; its exit status is the run's.
        let ok = try w.run(["merge-reports", "s5", "s3", "s1", "s4", "s2", "--report", "merged", "--formats", "json,markdown"])
        #expect(ok.status == 1, "\(ok.stderr)")
        // The shards wrote their pictures although --formats left out html, and merge-reports copies them.
        let merged = filesBelow(w.url.appendingPathComponent("merged"))
        #expect(merged.filter { !$0.hasPrefix("images/") && !$0.hasPrefix("evidence/") } == ["report.json", "summary.md"])
        #expect(merged.filter { $0.hasPrefix("images/") }.count == 130 && merged.contains { $0.hasPrefix("evidence/") })
        #expect(!ok.stderr.contains("warning:"), "\(ok.stderr)")
    }

    @Test("shards run with --formats json still merge into the whole HTML report; a shard without pictures is warned about")
    func jsonShardsKeepPictures() throws {
        let w = RunWorkspace()
        let whole = try w.run(["run"] + RunWorkspace.reduced + ["--report", "whole"])
        #expect(whole.status == 1, "\(whole.stderr)")
        for i in 1...2 {
            let r = try w.run(["run"] + RunWorkspace.reduced + ["--formats", "json", "--shard", "\(i)/2", "--report", "s\(i)"])
            #expect(r.status <= 1, "\(r.stderr)")
            #expect(!w.exists("s\(i)/index.html"))
        }
        let merge = try w.run(["merge-reports", "s1", "s2", "--report", "out"])
        #expect(merge.status == 1, "\(merge.stderr)")
        #expect(!merge.stderr.contains("warning:"), "\(merge.stderr)")
        #expect(try w.text("out/index.html") == w.text("whole/index.html"), "the same page as the unsharded run's")
        let pictures = { (tree: [String: Data]) in tree.filter { $0.key.hasPrefix("images/") || $0.key.hasPrefix("evidence/") } }
        let a = pictures(w.tree("whole")), b = pictures(w.tree("out"))
        #expect(a.count > 100)
        expectSameTree(a, b, "pictures")

        // A shard written without pictures (by an older glyphaudit): merged, with a warning naming it.
        let file = w.url.appendingPathComponent("s1/report.json")
        var old = try RunReport.read(file)
        for i in old.variants.indices { old.variants[i].image = nil }
        let stripped = old.variants.filter { $0.scale == 2 }.count
        #expect(stripped > 0)
        try old.jsonData().write(to: file)
        let warned = try w.run(["merge-reports", "s1", "s2", "--report", "out2"])
        #expect(warned.status == 1, "\(warned.stderr)")
        #expect(warned.stderr.contains("warning: ") && warned.stderr.contains("s1/report.json: \(stripped) @2x variants without a picture (that run wrote no html)"),
                "\(warned.stderr)")
        let quietJSON = try w.run(["merge-reports", "s1", "s2", "--report", "out3", "--formats", "json"])
        #expect(!quietJSON.stderr.contains("warning:"), "no HTML written, nothing lost: \(quietJSON.stderr)")
    }

    @Test("merge-reports counts in words: 1 warning, not 1 warnings")
    func mergePlurals() throws {
        let w = RunWorkspace()
        let r = try w.run(["run", "--preset", "swiftui-switch"] + RunWorkspace.reduced + ["--formats", "json", "--shard", "1/1", "--report", "s1"])
        #expect(r.status <= 1, "\(r.stderr)")
        let findings = try #require(try w.json("s1/report.json")["findings"] as? [[String: Any]])
        let warnings = findings.filter { $0["severity"] as? String == "warning" && $0["accepted"] == nil }.count
        let errors = findings.filter { $0["severity"] as? String == "error" && $0["accepted"] == nil }.count
        #expect(warnings == 1, "the switch's one target-size warning")
        let merge = try w.run(["merge-reports", "s1", "--report", "out", "--formats", "json"])
        #expect(merge.stderr.contains("merged 1 reports: 24 variants, \(errors) errors, 1 warning, 0 snapshot failures → "), "\(merge.stderr)")
    }
}

@Suite("glyphaudit run: exit statuses, formats and output")
struct CLIRunTests {
    @Test("exit 0 with --fail-on never, 1 on the built-in presets' error findings")
    func findingsDecide() throws {
        let w = RunWorkspace()
        let never = try w.run(["run"] + RunWorkspace.reduced + ["--fail-on", "never", "--report", "a"])
        #expect(never.status == 0, "\(never.stderr)")
        #expect(never.stdout.contains("glyphaudit run: 130 variants — passed (fails on never)"), "\(never.stdout)")
        #expect(never.stderr.contains("snapshots not checked"), "no snapshots folder here")
        let error = try w.run(["run"] + RunWorkspace.reduced + ["--report", "b"])
        #expect(error.status == 1, "\(error.stderr)")
        #expect(error.stdout.contains("— failed (fails on error)"))
        let report = try w.json("b/report.json")
        let findings = try #require(report["findings"] as? [[String: Any]])
        #expect(findings.contains { $0["severity"] as? String == "error" })
        for file in RunWorkspace.reportFiles { #expect(w.exists("b/\(file)"), "\(file)") }
    }

    @Test("one baseline changed by one pixel: listed (exit 0 at --fail-on never, 1 at error); the pictures in the report and junit.xml")
    func changedBaseline() throws {
        let w = RunWorkspace()
        try w.copyBaselines(preset: "swiftui-switch")
        let args = ["run", "--preset", "swiftui-switch"] + RunWorkspace.reduced + ["--fail-on", "never", "--snapshots", "snap"]
        let clean = try w.run(args + ["--report", "clean"])
        #expect(clean.status == 0, "every baseline matches: \(clean.stdout)\(clean.stderr)")
        #expect(clean.stdout.contains("24 match, 0 changed, 0 new, 0 stale"), "12 variants and their focused twins: \(clean.stdout)")

        let id = "swiftui-switch/switch-md/L/default/on@2x"
        try w.changeOnePixel("\(id).png")
        let changed = try w.run(args + ["--report", "ci/out"])
        #expect(changed.status == 0, "at --fail-on never a changed snapshot does not fail the run: \(changed.stdout)\(changed.stderr)")
        #expect(changed.stdout.contains("— passed (fails on never)"), "\(changed.stdout)")
        // Every rule off, so that only the snapshot can fail it.
        let off = Auditor.registry.map { "\"\($0.id)\": \"off\"" }.joined(separator: ", ")
        w.folder.write("off.json", "{ \"version\": 1, \"rules\": { \(off) } }")
        let strict = try w.run(["run", "--preset", "swiftui-switch"] + RunWorkspace.reduced
                               + ["--snapshots", "snap", "--formats", "json", "--report", "strict", "--config", "off.json"])
        #expect(strict.status == 1, "at error the changed snapshot fails the run: \(strict.stdout)\(strict.stderr)")
        #expect(changed.stdout.contains("23 match, 1 changed"), "\(changed.stdout)")
        #expect(changed.stdout.contains("mismatch: \(id)"), "\(changed.stdout)")
        for kind in ["expected", "actual", "diff", "sidebyside"] {
            #expect(w.exists("ci/out/snapshots/\(id).\(kind).png"), "\(kind)")
        }
        // The attachment (one, the case's picture) is a path from the working folder (here the root), where Jenkins and GitLab look for it.
        let junit = try w.text("ci/out/junit.xml")
        let attachments = junit.matches(of: try Regex(#"\[\[ATTACHMENT\|([^\]]+)\]\]"#)).compactMap { $0.output[1].substring.map(String.init) }
        #expect(attachments == ["ci/out/snapshots/swiftui-switch/switch-md.failed.png"], "\(junit)")
        for a in attachments { #expect(w.exists(a), "attachment \(a) is not a file below the working folder") }
        let summary = try w.text("ci/out/summary.md")
        #expect(summary.contains("### Snapshot changes") && summary.contains("`\(id)`: mismatch"))
    }

    @Test("bad input exits 2 with a message naming the file and writes nothing")
    func badInput() throws {
        let w = RunWorkspace()
        w.folder.write("broken.json", #"{ "name": "broken", "control": "checkbox", "sizes": { "#)
        w.folder.write("unknown.json", #"{ "name": "u", "control": "slider", "sizes": { "md": { "size": 20 } } }"#)
        let cases: [([String], String)] = [
            (["--spec", "broken.json"], "broken.json:1:"),
            (["--spec", "unknown.json"], "unknown.json"),
            (["--spec", "missing.json"], "missing.json"),
            (["--config", "missing.json"], "missing.json: no such configuration file"),
            (["--only", "scale=7"], "no variant matches scale=7"),
            (["--baseline", "missing.json"], "missing.json"),
        ]
        let before = w.folder.files()
        for (args, message) in cases {
            let r = try w.run(["run"] + args + ["--report", "out"])
            #expect(r.status == 2, "\(args): \(r.stderr)")
            #expect(r.stderr.hasPrefix("glyphaudit: ") && r.stderr.contains(message), "\(args): \(r.stderr)")
            #expect(w.folder.files() == before, "\(args): nothing written")
        }
    }

    @Test("usage errors exit 64 and write nothing")
    func usageErrors() throws {
        let w = RunWorkspace()
        for args in [["--formats", "json,pdf"], ["--formats", ""], ["--formats", ","], ["--formats="], ["--shard", "3/2"], ["--shard", "0/2"], ["--shard", "two"], ["--fail-on", "sometimes"],
                     ["--bogus"], ["--jobs", "0"], ["--report"]] {
            let r = try w.run(["run"] + args)
            #expect(r.status == 64, "\(args): \(r.stderr)")
            #expect(r.stderr.contains("glyphaudit run --help"), "\(args): \(r.stderr)")
            #expect(w.folder.files().isEmpty, "\(args): nothing written")
        }
    }

    @Test("--formats \"\" is a usage error for merge-reports too, not \"all\"")
    func emptyFormats() throws {
        let w = RunWorkspace()
        let r = try w.run(["merge-reports", "nowhere", "--formats", ""])
        #expect(r.status == 64, "\(r.stderr)")
        #expect(r.stderr.contains("--formats needs one or more of html, json, junit, sarif, markdown"), "\(r.stderr)")
    }

    /// Runs the tool on a pseudo-terminal (util-linux `script`), outside CI, with NO_COLOR as given.
    static func onTerminal(_ args: [String], noColor: String?) throws -> String? {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { return nil }
        let w = RunWorkspace()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        let command = ([CLI.binary.path] + args).map { "'\($0)'" }.joined(separator: " ")
        process.arguments = ["-qec", command, "/dev/null"]
        process.currentDirectoryURL = w.url
        var env = ProcessInfo.processInfo.environment
        for key in ["CI", "GITHUB_ACTIONS", "NO_COLOR"] { env[key] = nil }
        env["TERM"] = "xterm-256color"
        if let noColor { env["NO_COLOR"] = noColor }
        process.environment = env
        process.standardInput = FileHandle.nullDevice
        return try capture(process, stderr: false).output
    }

    @Test("on a terminal, only a non-empty NO_COLOR turns colour off (no-color.org): an empty one does not",
          .disabled(if: !FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "no util-linux script for a pseudo-terminal"))
    func noColorMustBeNonEmpty() throws {
        let args = ["run", "--preset", "rvs-checkbox", "--only", "scale=2", "--only", "dynamic-type=L", "--formats", "json"]
        let dim = "\u{1B}[2m"   // the progress line's colour
        let unset = try #require(try Self.onTerminal(args, noColor: nil))
        #expect(unset.contains(dim), "a terminal without NO_COLOR gets colour: \(unset.debugDescription)")
        let empty = try #require(try Self.onTerminal(args, noColor: ""))
        #expect(empty.contains(dim), "NO_COLOR= (empty) leaves colour on: \(empty.debugDescription)")
        let set = try #require(try Self.onTerminal(args, noColor: "1"))
        #expect(!set.contains(dim) && set.contains("… laying out"), "NO_COLOR=1 turns it off: \(set.debugDescription)")
        // The audit's coloured severities follow the same rule.
        let audit = ["audit", "--preset", "rvs-checkbox", "--only", "scale=2", "--only", "dynamic-type=L"]
        #expect(try #require(try Self.onTerminal(audit, noColor: "")).contains("\u{1B}[31m"))
        #expect(try #require(try Self.onTerminal(audit, noColor: "yes")).contains("\u{1B}[31m") == false)
    }

    @Test("--formats json,markdown writes only those two files")
    func formats() throws {
        let w = RunWorkspace()
        let r = try w.run(["run"] + RunWorkspace.reduced + ["--formats", "json,markdown", "--report", "out"])
        #expect(r.status == 1, "\(r.stderr)")
        #expect(filesBelow(w.url.appendingPathComponent("out")) == ["report.json", "summary.md"], "no pictures without html")
        #expect(r.stdout.contains("reports: \(w.url.path)/out/report.json, \(w.url.path)/out/summary.md"), "\(r.stdout)")
        let report = try w.json("out/report.json")
        #expect((report["variants"] as? [[String: Any]])?.allSatisfy { $0["image"] == nil } == true)
    }

    @Test("GITHUB_ACTIONS=true prints one annotation per rule and preset with open errors (warnings), at most 10 each; without it none")
    func annotations() throws {
        let w = RunWorkspace()
        let plain = try w.run(["run"] + RunWorkspace.reduced + ["--report", "a"])
        #expect(!(plain.stdout + plain.stderr).split(separator: "\n").contains { $0.hasPrefix("::") })

        let gha = try w.run(["run"] + RunWorkspace.reduced + ["--report", "b"], environment: ["GITHUB_ACTIONS": "true"])
        #expect(gha.status == 1)
        let lines = gha.stdout.split(separator: "\n").map(String.init).filter { $0.hasPrefix("::") }
        let findings = try #require(try w.json("b/report.json")["findings"] as? [[String: Any]])
        let failing = findings.filter { $0["severity"] as? String == "error" && $0["accepted"] == nil }
        let groups = Set(failing.map { "\(($0["variant"] as! String).split(separator: "/")[0]) \($0["rule"] as! String)" })
        let errors = lines.filter { $0.hasPrefix("::error") }, warnings = lines.filter { $0.hasPrefix("::warning") }
        #expect(errors.count == min(groups.count, 10), "\(errors.count) annotations for \(groups.count) groups of \(failing.count) error findings")
        let warned = Set(findings.filter { $0["severity"] as? String == "warning" && $0["accepted"] == nil }
            .map { "\(($0["variant"] as! String).split(separator: "/")[0]) \($0["rule"] as! String)" })
        #expect(warnings.count == min(warned.count, 10) && errors.count + warnings.count == lines.count)
        // Built-in presets: their spec and token files are inside the tool, so no file=.
        #expect(lines.allSatisfy { $0.hasPrefix("::error title=glyphaudit ") || $0.hasPrefix("::warning title=glyphaudit ") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("::error title=glyphaudit nontext-contrast%3A ") && $0.contains(" in swiftui-switch::") }, "\(lines)")
    }

    @Test("NO_COLOR and no terminal: no escape sequence anywhere in the output")
    func noEscapes() throws {
        let w = RunWorkspace()
        try w.copyBaselines(preset: "swiftui-switch")
        try w.changeOnePixel("swiftui-switch/switch-md/AX5/inverse/off@2x.png")
        let runs = [
            try w.run(["run"] + RunWorkspace.reduced + ["--snapshots", "snap", "--report", "a"],
                      environment: ["NO_COLOR": "1", "TERM": "xterm-256color", "GITHUB_ACTIONS": "true"]),
            try w.run(["run", "--spec", "missing.json"], environment: ["NO_COLOR": "1", "TERM": "xterm-256color"]),
            try w.run(["merge-reports", "a", "--report", "c"], environment: ["NO_COLOR": "1", "TERM": "xterm-256color"]),
        ]
        for r in runs {
            #expect(!r.stdout.contains("\u{1B}") && !r.stderr.contains("\u{1B}"), "\(r.stdout)\(r.stderr)")
        }
        #expect(runs[0].stdout.contains("::error"), "annotations are plain text too")
    }

    @Test("two runs give byte-identical reports; a rerun into the same folder rewrites nothing")
    func determinism() throws {
        let one = RunWorkspace(), two = RunWorkspace()
        for w in [one, two] {
            try w.copyBaselines()
            try w.changeOnePixel(changedBaselineFile)
            let r = try w.run(["run"] + RunWorkspace.reduced + ["--snapshots", "snap", "--report", "out", "--jobs", w === one ? "1" : "4"])
            #expect(r.status == 1, "\(r.stderr)")
        }
        let a = one.tree("out")
        #expect(a.count > 100, "reports and their pictures")
        expectSameTree(a, two.tree("out"), "two runs")

        let report = one.url.appendingPathComponent("out/report.json")
        let old = Date(timeIntervalSince1970: 1_000_000_000)
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: report.path)
        _ = try one.run(["run"] + RunWorkspace.reduced + ["--snapshots", "snap", "--report", "out"])
        let mtime = try FileManager.default.attributesOfItem(atPath: report.path)[.modificationDate] as? Date
        #expect(mtime == old, "an unchanged report is not rewritten")
        expectSameTree(a, one.tree("out"), "rerun")
    }
}

@Suite("glyphaudit run: the HTML report")
struct CLIHTMLReportTests {
    /// A report with findings, evidence and a changed snapshot (so the compare controls are in it).
    static func makeReport() throws -> RunWorkspace {
        let w = RunWorkspace()
        try w.copyBaselines()
        try w.changeOnePixel(changedBaselineFile)
        let r = try w.run(["run"] + RunWorkspace.reduced + ["--snapshots", "snap", "--report", "out"])
        #expect(r.status == 1, "\(r.stderr)")
        return w
    }

    @Test("self-contained and accessible: local files only, headings in order, alt on every image, labels on every control, lang")
    func structure() throws {
        let w = try Self.makeReport()
        let html = try w.text("out/index.html")
        let page = HTMLScan(html)

        #expect(page.tags.first { $0.name == "html" }?.attributes["lang"] == "en")
        #expect(!html.contains("http://") && !html.contains("https://"), "no network URLs at all")

        // Every picture and local link exists in the report folder; every anchor link has its target.
        let ids = Set(page.tags.compactMap { $0.attributes["id"] })
        var images = 0
        for tag in page.tags {
            for key in ["src", "href"] {
                guard let value = tag.attributes[key] else { continue }
                #expect(!value.hasPrefix("//") && !value.contains("://"), "<\(tag.name) \(key)=\(value)>")
                if value.hasPrefix("#") {
                    #expect(ids.contains(String(value.dropFirst())), "link to a missing anchor \(value)")
                } else {
                    let path = value.removingPercentEncoding ?? value
                    #expect(w.exists("out/\(path)"), "<\(tag.name) \(key)=\(value)> is not in the report folder")
                    if tag.name == "img" { images += 1 }
                }
            }
        }
        #expect(images > 100, "contact sheets, evidence and snapshot pictures: \(images)")
        #expect(page.tags.contains { $0.name == "img" && ($0.attributes["src"] ?? "").hasSuffix(".diff.png") })

        // Every image has a text alternative.
        for img in page.tags where img.name == "img" {
            #expect(!(img.attributes["alt"] ?? "").trimmingCharacters(in: .whitespaces).isEmpty, "\(img.attributes["src"] ?? "")")
        }

        // Headings: one h1 first, then never a level skipped on the way down.
        let levels = page.tags.compactMap { t -> Int? in
            guard t.name.count == 2, t.name.hasPrefix("h"), let n = Int(t.name.dropFirst()) else { return nil }
            return n
        }
        #expect(levels.first == 1 && levels.filter { $0 == 1 }.count == 1, "\(levels.prefix(10))")
        for (a, b) in zip(levels, levels.dropFirst()) { #expect(b <= a + 1, "h\(a) followed by h\(b)") }

        // Every form control has a label: inside a <label>, named by <label for>, or aria-label(ledby).
        let labelled = Set(page.tags.filter { $0.name == "label" }.compactMap { $0.attributes["for"] })
        var controls = 0
        for tag in page.tags where ["select", "input", "textarea"].contains(tag.name) && tag.attributes["type"] != "hidden" {
            controls += 1
            let ok = tag.insideLabel || tag.attributes["aria-label"] != nil || tag.attributes["aria-labelledby"] != nil
                || tag.attributes["id"].map(labelled.contains) == true
            #expect(ok, "<\(tag.name)> without a label: \(tag.attributes)")
        }
        #expect(controls >= 6, "five filters and the snapshot slider")
        for button in page.buttons { #expect(!button.isEmpty, "a button without text") }
        #expect(!page.buttons.isEmpty)
    }

    static let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }
        ?? (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
            .map { "\($0)/chromium" }.first { FileManager.default.isExecutableFile(atPath: $0) }

    /// One of the two browser runs of the tests (the other: CLIReviewTests): scripts/check-report on the report
    /// (loads, console, layout at four widths, axe-core, the viewer by keyboard, a screenshot), which
    /// also writes the page's DOM with the filters preset by `queries`, and checks a broken copy of
    /// the page (`breakCopy`) to see it caught, in the same Chromium session.
    @Test("in headless Chromium (scripts/check-report): no load or console error, axe-core clean, the viewer by keyboard; the Dynamic Type and severity filters hide the findings and outlines that do not match; check-report catches a duplicate id, a page that scrolls sideways and pictures drawn below @1x",
          .disabled(if: chromium == nil, "chromium is not installed (scripts/setup --browser); the browser check was skipped"))
    func browser() throws {
        let w = try Self.makeReport()
        try Self.breakCopy(w)
        let queries = ["all": "", "dt": "?dt=L", "severity": "?severity=warning"]
        let doms = queries.keys.sorted().flatMap { ["--dom", queries[$0]!, w.url.appendingPathComponent("dom-\($0).html").path] }
        let broken = w.url.appendingPathComponent("broken").path
        let (status, text) = try checkReport(w.url, doms + ["--also", broken])
        #expect(status == 0, "\(text)")
        #expect(text.contains("loads cleanly"), "\(text)")
        #expect(text.contains("1400 px: scrollWidth") && text.contains("; axe "), "axe-core ran: \(text)")
        let shot = try Data(contentsOf: w.url.appendingPathComponent("shot.png"))
        #expect(shot.starts(with: [0x89, 0x50, 0x4E, 0x47]), "a PNG screenshot")
        try Self.filters { try HTMLScan(w.text("dom-\($0).html")) }

        // The broken copy: each defect named (and none of them in the report itself).
        let caught = text.split(separator: "\n").filter { $0.hasPrefix("check-report: also \(broken)") }
        #expect(caught.contains { $0.contains("duplicate id 'overview'") }, "\(text)")
        #expect(caught.contains { $0.contains("at 390 px the page scrolls sideways") }, "\(text)")
        #expect(caught.contains { $0.contains("contact-sheet pictures are drawn smaller than @1x") }, "\(text)")
        #expect(!text.split(separator: "\n").contains { !$0.hasPrefix("check-report: also ") && $0.contains("duplicate id") }, "\(text)")
    }
}

extension CLIHTMLReportTests {
    /// In the browser, the Dynamic Type and severity filters hide the findings and outlines that do not
    /// match: `dom` gives the page after its script ran at 1400 px, with the filters of "all" (none),
    /// "dt" (`?dt=L`) or "severity" (`?severity=warning`).
    static func filters(_ dom: (String) throws -> HTMLScan) throws {
        let all = try dom("all")
        let cards = all.tags.filter { $0.name == "article" && $0.attributes["class"]?.hasPrefix("finding") == true }
        #expect(cards.count > 20 && cards.allSatisfy { $0.attributes["hidden"] == nil }, "nothing hidden without a filter")

        // Dynamic Type L: only the cards holding at L stay; the AX5-only ones go.
        let l = try dom("dt")
        let lCards = l.tags.filter { $0.name == "article" && $0.attributes["class"]?.hasPrefix("finding") == true }
        #expect(lCards.count == cards.count)
        let shown = lCards.filter { $0.attributes["hidden"] == nil }, hidden = lCards.filter { $0.attributes["hidden"] != nil }
        #expect(!shown.isEmpty && !hidden.isEmpty, "\(shown.count) shown, \(hidden.count) hidden")
        for c in lCards {
            let sizes = (c.attributes["data-dt"] ?? "").split(separator: " ")
            #expect((c.attributes["hidden"] == nil) == sizes.contains("L"), "\(c.attributes["id"] ?? "") at \(sizes)")
        }
        #expect(l.tags.filter { $0.name == "tr" && $0.attributes["data-dt"] == "AX5" }.allSatisfy { $0.attributes["hidden"] != nil })

        // Severity warning: no error outline is left on the sheets, and cells without a warning are dimmed.
        let warn = try dom("severity")
        let cells = warn.tags.filter { $0.name == "td" && $0.attributes["data-hits"] != nil }
        #expect(cells.count > 100)
        for c in cells {
            let classes = Set((c.attributes["class"] ?? "").split(separator: " "))
            let hasWarning = (c.attributes["data-hits"] ?? "").split(separator: " ").contains { $0.hasSuffix(":warning") }
            #expect(!classes.contains("flag-error") && !classes.contains("flag-info"), "\(classes)")
            #expect(classes.contains("flag-warning") == hasWarning && classes.contains("dim") == !hasWarning, "\(c.attributes)")
        }
        #expect(cells.contains { ($0.attributes["class"] ?? "").contains("flag-warning") })
        #expect(warn.tags.filter { $0.name == "article" && $0.attributes["data-severity"] == "error" }.allSatisfy { $0.attributes["hidden"] != nil })
    }

    /// A copy of the report at `out/` in `broken/`: two elements with id "overview", a sheet that does
    /// not scroll in its box (so the page does), and the first picture of each sheet squeezed to 10 px.
    static func breakCopy(_ w: RunWorkspace) throws {
        try FileManager.default.copyItem(at: w.url.appendingPathComponent("out"), to: w.url.appendingPathComponent("broken"))
        let index = w.url.appendingPathComponent("broken/index.html")
        var html = try String(contentsOf: index, encoding: .utf8)
        #expect(html.contains("class=\"sheet-scroll scroll-box\""))
        html = html.replacingOccurrences(of: "<h2 id=\"filters\">", with: "<h2 id=\"overview\">")
            .replacingOccurrences(of: "class=\"sheet-scroll scroll-box\"", with: "class=\"sheet-scroll\"")
            .replacingOccurrences(of: "</style>", with: ".sheet tbody tr:first-child td:nth-child(2) img{width:10px!important}</style>")
        #expect(html.components(separatedBy: "id=\"overview\"").count == 3, "two elements with id=\"overview\"")
        try html.write(to: index, atomically: true, encoding: .utf8)
    }
}

/// A small scanner for the tags of the generated report (enough for markup we write ourselves):
/// start tags with their attributes, whether each sits inside a <label>, and the text of buttons.
struct HTMLScan {
    struct Tag {
        var name: String
        var attributes: [String: String]
        var insideLabel: Bool
    }

    var tags: [Tag] = []
    var buttons: [String] = []

    init(_ html: String) {
        // Scripts and styles hold no markup.
        var text = html
        for element in ["script", "style"] {
            while let open = text.range(of: "<\(element)"), let close = text.range(of: "</\(element)>", range: open.upperBound..<text.endIndex) {
                text.replaceSubrange(open.lowerBound..<close.upperBound, with: "")
            }
        }
        let tagPattern = try! Regex(#"<(/?)([a-zA-Z][a-zA-Z0-9]*)((?:\s+[^\s=>]+(?:="[^"]*")?)*)\s*/?>"#)
        let attributePattern = try! Regex(#"([^\s=>]+)(?:="([^"]*)")?"#)
        var labels = 0
        var button: String?
        var last = text.startIndex
        for match in text.matches(of: tagPattern) {
            if button != nil { button! += String(text[last..<match.range.lowerBound]) }
            last = match.range.upperBound
            let closing = match.output[1].substring == "/"
            let name = String(match.output[2].substring ?? "").lowercased()
            if closing {
                if name == "label" { labels -= 1 }
                if name == "button", let b = button { buttons.append(b.trimmingCharacters(in: .whitespacesAndNewlines)); button = nil }
                continue
            }
            var attributes: [String: String] = [:]
            for a in String(match.output[3].substring ?? "").matches(of: attributePattern) {
                let key = String(a.output[1].substring ?? "").lowercased()
                let value = a.output[2].substring.map(String.init) ?? ""
                attributes[key] = value.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&lt;", with: "<")
                    .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
            }
            tags.append(Tag(name: name, attributes: attributes, insideLabel: labels > 0))
            if name == "label" { labels += 1 }
            if name == "button" { button = attributes["aria-label"] ?? "" }
        }
    }
}

/// Runs scripts/check-report on `folder/out`, writing `folder/shot.png`: its exit status and output.
private func checkReport(_ folder: URL, _ extra: [String] = []) throws -> (Int32, String) {
    let process = Process()
    process.executableURL = CLI.packageRoot.appendingPathComponent("scripts/check-report")
    process.arguments = [folder.appendingPathComponent("out").path, folder.appendingPathComponent("shot.png").path] + extra
    let r = try capture(process, stderr: true)
    return (r.status, r.output)
}

/// Runs a process to its end: its exit status and its standard output (with `stderr`, both in one).
private func capture(_ process: Process, stderr: Bool) throws -> (status: Int32, output: String) {
    let out = Pipe()
    process.standardOutput = out
    if stderr { process.standardError = out }
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}
