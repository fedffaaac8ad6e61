import Foundation
import Testing
import GlyphTestSupport

// The command line itself: `--opt=value`, where the configuration is found, how `merge-reports`
// decides a sharded run and guards its output folder, the completion scripts, and long lists cut short.

/// Runs `command` with /bin/sh in `folder`, with the built glyphaudit first on PATH.
func shell(_ command: String, in folder: URL) throws -> CLI.Result {
    let path = CLI.binary.deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
    return try runTool("/bin/sh", ["-c", command], in: folder, environment: ["PATH": path, "GITHUB_ACTIONS": "", "NO_COLOR": "1"])
}

/// Runs any program, reading both pipes to the end (`CI` not passed on, as for the tool itself).
func runTool(_ program: String, _ arguments: [String], in folder: URL, environment: [String: String] = [:]) throws -> CLI.Result {
    try CLI.launch(URL(fileURLWithPath: program), arguments, in: folder, environment: environment)
}

/// The program's path when it is installed (zsh, fish), else nil.
func installed(_ name: String) -> String? {
    ["/usr/bin/", "/bin/", "/usr/local/bin/"].map { $0 + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
}

@Suite("glyphaudit options: --opt=value")
struct CLIInlineValueTests {
    @Test("every option that takes a value takes it after '=' too, with the same result as the next word")
    func inlineEqualsSeparate() throws {
        let dir = TempFolder()
        // audit: --preset, --only (whose value holds '=' itself), --fail-on. swiftui-switch at Dynamic Type L:
        // 3 themes × 2 states × unfocused and focused × 3 scales = 36 variants.
        let spaced = try CLI.run(["audit", "--preset", "swiftui-switch", "--only", "dynamic-type=L", "--fail-on", "never", "--json"],
                                 in: dir.url)
        let inline = try CLI.run(["audit", "--preset=swiftui-switch", "--only=dynamic-type=L", "--fail-on=never", "--json"], in: dir.url)
        #expect(spaced.status == 0 && inline.status == 0, "\(spaced.stderr)\(inline.stderr)")
        #expect(inline.stdout == spaced.stdout)
        let summary = try #require((try JSONSerialization.jsonObject(with: Data(inline.stdout.utf8)) as? [String: Any])?["summary"]
            as? [String: Any])
        #expect(summary["variants"] as? Int == 36)

        // run: --shard, --report, --formats.
        let run = try CLI.run(["run", "--preset=swiftui-switch", "--only=dynamic-type=L", "--shard=1/1", "--report=r",
                               "--formats=json", "--fail-on=never"], in: dir.url, environment: ["GITHUB_ACTIONS": ""])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: dir.url.appendingPathComponent("r/report.json")))
            as? [String: Any])
        #expect(report["shard"] as? String == "1/1" && report["failOn"] as? String == "never")
        #expect(dir.files("r").filter { !$0.hasPrefix("images/") && !$0.hasPrefix("evidence/") } == ["report.json"])

        // presets show --out=DIR.
        let show = try CLI.run(["presets", "show", "swiftui-switch", "--out=spec"], in: dir.url)
        #expect(show.status == 0, "\(show.stderr)")
        #expect(dir.files("spec") == ["swiftui-switch.json"])
    }

    @Test("export --vector=svg and --vector=pdf name the format (the parser refused them before); --vector=png is a usage error")
    func vectorInline() throws {
        let dir = TempFolder()
        for (args, ext) in [(["--vector=svg"], "svg"), (["--vector=pdf"], "pdf"), (["--vector", "svg"], "svg"), (["--vector"], "pdf")] {
            let name = "\(ext)-\(args.count)-\(args[0].count).xcassets"
            let r = try CLI.run(["export", "--xcassets=\(name)", "--preset=swiftui-switch"] + args, in: dir.url)
            #expect(r.status == 0, "\(args): \(r.stderr)")
            let images = dir.files(name).filter { !$0.hasSuffix("Contents.json") }
            // One image set per shape, size and state (1 × 1 × 2 for the switch), one file per appearance (any, dark).
            #expect(images.count == 4, "\(args): \(images)")
            #expect(images.allSatisfy { $0.hasSuffix(".\(ext)") }, "\(args): \(images)")
        }
        let png = try CLI.run(["export", "--xcassets=p.xcassets", "--vector=png"], in: dir.url)
        #expect(png.status == 64)
        #expect(png.stderr.contains("--vector takes pdf or svg, got \"png\""), "\(png.stderr)")
        let stray = try CLI.run(["export", "--xcassets=p.xcassets", "--vector", "png"], in: dir.url)
        #expect(stray.status == 64)
        #expect(stray.stderr.contains("unexpected argument \"png\" (--vector takes pdf or svg)"), "\(stray.stderr)")
        #expect(!dir.files().contains { $0.hasPrefix("p.xcassets") }, "nothing written")
    }

    @Test("a flag given a value, an empty or unknown choice: usage errors (64) that say what is wrong")
    func flagWithValue() throws {
        let dir = TempFolder()
        let cases: [([String], String)] = [
            (["audit", "--json=yes"], "--json is a flag and takes no value, got \"--json=yes\"; write --json alone"),
            (["run", "--record=1"], "--record is a flag and takes no value, got \"--record=1\""),
            (["check", "--prune="], "--prune is a flag and takes no value, got \"--prune=\""),
            (["audit", "--fail-on=info"], "--fail-on takes error, warning or never, got \"info\""),
            (["audit", "--fail-on="], "--fail-on takes error, warning or never, got \"\""),
            (["merge-reports", "x", "--fail-on=sometimes"], "--fail-on takes error, warning or never, got \"sometimes\""),
            (["render", "--nope=1"], "unknown option --nope"),
        ]
        for (args, message) in cases {
            let r = try CLI.run(args, in: dir.url)
            #expect(r.status == 64, "\(args): \(r.stderr)")
            #expect(r.stderr.contains(message), "\(args): \(r.stderr)")
            #expect(r.stderr.contains("Run `glyphaudit \(args[0]) --help` for usage."), "\(args)")
        }
        #expect(dir.files().isEmpty)
    }
}

@Suite("glyphaudit configuration: .glyphaudit.json found from a subfolder")
struct CLIConfigLookupTests {
    /// Turns the switch's nontext-contrast errors off.
    static let config = #"{ "version": 1, "rules": { "nontext-contrast": "off" } }"#
    static let audit = ["audit", "--preset", "swiftui-switch", "--only", "dynamic-type=L", "--fail-on", "never", "--json", "--verbose"]

    /// The rules of the findings `audit --json` printed.
    static func rules(_ r: CLI.Result) throws -> Set<String> {
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], "\(r.stderr)")
        let findings = try #require(json["findings"] as? [[String: Any]])
        return Set(findings.compactMap { $0["rule"] as? String })
    }

    /// No `.git` from the temporary folder up to `/`: the tests outside a repository depend on it.
    static func outsideAnyRepository(_ folder: URL) -> Bool {
        var dir = folder.standardizedFileURL
        while true {
            if FileManager.default.fileExists(atPath: dir.appendingPathComponent(".git").path) { return false }
            if dir.path == "/" { return true }
            dir = dir.deletingLastPathComponent()
        }
    }

    @Test("audit, rules and run in a subfolder of a repository read its root's .glyphaudit.json, and --verbose names it")
    func fromSubfolder() throws {
        let repo = TempFolder()
        try FileManager.default.createDirectory(at: repo.url.appendingPathComponent(".git"), withIntermediateDirectories: true)
        repo.write(".glyphaudit.json", Self.config)
        repo.write("Sources/ui/keep", "")
        let sub = repo.url.appendingPathComponent("Sources/ui")

        let atRoot = try CLI.run(Self.audit, in: repo.url)
        let below = try CLI.run(Self.audit, in: sub)
        #expect(below.status == 0, "\(below.stderr)")
        #expect(below.stderr.contains("config: ../../.glyphaudit.json\n"), "\(below.stderr)")
        #expect(atRoot.stderr.contains("config: .glyphaudit.json\n"), "\(atRoot.stderr)")
        // The switch fails nontext-contrast (README: its off track is 1.21:1); the config turns it off.
        let outside = TempFolder()
        let unconfigured = try CLI.run(Self.audit, in: outside.url)
        #expect(try Self.rules(unconfigured).contains("nontext-contrast"))
        #expect(try Self.rules(below) == Self.rules(atRoot))
        #expect(try !Self.rules(below).contains("nontext-contrast"))
        #expect(try Self.rules(below) == Self.rules(unconfigured).subtracting(["nontext-contrast"]))

        let rules = try CLI.run(["rules", "--verbose"], in: sub)
        #expect(rules.status == 0)
        #expect(rules.stderr.contains("config: ../../.glyphaudit.json"), "\(rules.stderr)")
        #expect(rules.stdout.split(separator: "\n").contains { $0.hasPrefix("nontext-contrast ") && $0.contains(" off ") }, "\(rules.stdout)")

        let run = try CLI.run(["run", "--preset", "swiftui-switch", "--only", "dynamic-type=L", "--formats", "json", "--report", "r", "--verbose"],
                              in: sub, environment: ["GITHUB_ACTIONS": ""])
        #expect(run.stderr.contains("config: ../../.glyphaudit.json"), "\(run.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: sub.appendingPathComponent("r/report.json")))
            as? [String: Any])
        let ruleRecords = try #require(report["rules"] as? [[String: Any]])
        #expect(ruleRecords.first { $0["id"] as? String == "nontext-contrast" }?["severity"] as? String == "off")
        // Without nontext-contrast, the switch at L has only a target-size warning and infos: the run passes.
        #expect(run.status == 0, "\(run.stderr)")
    }

    @Test("the nearest file wins; --config wins over all; the search stops at the repository root; .git may be a file")
    func precedence() throws {
        let outer = TempFolder()
        // A config above the repository root must not be read.
        outer.write(".glyphaudit.json", #"{ "version": 1, "rules": { "target-size": "off" } }"#)
        outer.write("repo/.git", "gitdir: /elsewhere/.git/worktrees/repo\n")   // a worktree's .git is a file
        outer.write("repo/a/b/keep", "")
        let b = outer.url.appendingPathComponent("repo/a/b")
        let none = try CLI.run(Self.audit, in: b)
        #expect(none.stderr.contains("config: none (no .glyphaudit.json from the working folder up to the repository root, "
                                     + outer.url.appendingPathComponent("repo").standardizedFileURL.path + ")"), "\(none.stderr)")
        #expect(try Self.rules(none).contains("target-size"), "the file above the repository is not read")

        outer.write("repo/.glyphaudit.json", #"{ "version": 1, "rules": { "target-size": "off" } }"#)
        outer.write("repo/a/.glyphaudit.json", Self.config)
        let nearest = try CLI.run(Self.audit, in: b)
        #expect(nearest.stderr.contains("config: ../.glyphaudit.json\n"), "\(nearest.stderr)")
        let rules = try Self.rules(nearest)
        #expect(!rules.contains("nontext-contrast") && rules.contains("target-size"), "only the nearest file counts: \(rules)")

        outer.write("other.json", #"{ "version": 1, "rules": { "text-contrast": "off" } }"#)
        let given = try CLI.run(Self.audit + ["--config", "../../../other.json"], in: b)
        #expect(given.stderr.contains("config: ../../../other.json (--config)"), "\(given.stderr)")
        let g = try Self.rules(given)
        #expect(g.contains("nontext-contrast") && g.contains("target-size") && !g.contains("text-contrast"), "\(g)")

        // A bad file found above names itself as found.
        outer.write("repo/a/.glyphaudit.json", #"{ "version": 1, "rules": { "no-such-rule": "off" } }"#)
        let bad = try CLI.run(Self.audit, in: b)
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("glyphaudit: ../.glyphaudit.json:1:"), "\(bad.stderr)")
    }

    @Test("outside any git repository only the working folder's .glyphaudit.json is read, as before")
    func outsideRepository() throws {
        let outer = TempFolder()
        try #require(Self.outsideAnyRepository(outer.url), "the temporary folder lies inside a git repository")
        outer.write(".glyphaudit.json", Self.config)
        outer.write("sub/keep", "")
        let sub = try CLI.run(Self.audit, in: outer.url.appendingPathComponent("sub"))
        #expect(sub.stderr.contains("config: none (no .glyphaudit.json in the working folder, which is in no git repository)"),
                "\(sub.stderr)")
        #expect(try Self.rules(sub).contains("nontext-contrast"))
        let here = try CLI.run(Self.audit, in: outer.url)
        #expect(here.stderr.contains("config: .glyphaudit.json\n"), "\(here.stderr)")
        #expect(try !Self.rules(here).contains("nontext-contrast"))
    }
}

@Suite("glyphaudit merge-reports: the README's shard example, the exit status, the output folder")
struct CLIMergeDecidesTests {
    /// The README's block after `<!-- shard-example`.
    static func readmeShardExample() throws -> String {
        let readme = try String(contentsOf: CLI.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let after = try #require(readme.range(of: "<!-- shard-example"), "README.md has no shard example")
        let rest = readme[after.upperBound...]
        let start = try #require(rest.range(of: "```sh\n"))
        let end = try #require(rest[start.upperBound...].range(of: "```"))
        return String(rest[start.upperBound..<end.lowerBound])
    }

    @Test("the README's four shards and merge run as written: the merge is reached and exits 1 on the presets' errors")
    func readmeSequence() throws {
        let script = try Self.readmeShardExample()
        #expect(script.contains("--shard $i/4 --fail-on never") && script.contains("merge-reports out-1 out-2 out-3 out-4"), "\(script)")
        let w = RunWorkspace()
        let r = try shell(script, in: w.url)
        #expect(r.status == 1, "\(r.stderr)")
        for i in 1...4 { #expect(try w.json("out-\(i)/report.json")["shard"] as? String == "\(i)/4") }
        // The merge wrote the default folder, failing on error as one unsharded `glyphaudit run`: the
        // built-in presets' 124 errors, 6 warnings and 29 info (README), over all 2340 variants (the
        // SwiftUI presets' focused ones: 12 focus-indicator infos).
        let merged = try w.json("glyphaudit-out/report.json")
        #expect(merged["failOn"] as? String == "error" && merged["shard"] == nil)
        #expect((merged["variants"] as? [Any])?.count == 2340)
        let findings = try #require(merged["findings"] as? [[String: Any]])
        let severities = findings.compactMap { $0["severity"] as? String }
        #expect(severities.filter { $0 == "error" }.count == 124)
        #expect(severities.filter { $0 == "warning" }.count == 6)
        #expect(severities.filter { $0 == "info" }.count == 29)
        for file in RunWorkspace.reportFiles { #expect(w.exists("glyphaudit-out/\(file)"), "\(file)") }
        #expect(r.stderr.contains("merged 4 reports: 2340 variants, 124 errors, 6 warnings, 0 snapshot failures → "), "\(r.stderr)")
        #expect(r.stderr.contains("merged run: failed (fails on error): 124 findings, 0 snapshot failures\n"), "\(r.stderr)")

        // Again: glyphaudit-out is there now, so the merge refuses (2) and leaves it as it is.
        let before = w.tree("glyphaudit-out")
        let again = try shell("glyphaudit merge-reports out-1 out-2 out-3 out-4 --fail-on never", in: w.url)
        #expect(again.status == 2, "\(again.stderr)")
        #expect(again.stderr.contains("glyphaudit-out: the folder exists and is not empty"), "\(again.stderr)")
        #expect(again.stderr.contains("--force"), "\(again.stderr)")
        expectSameTree(before, w.tree("glyphaudit-out"), "a refused merge writes nothing")
        // With --force it writes; --fail-on never passes.
        w.folder.write("glyphaudit-out/notes.txt", "mine")
        let forced = try shell("glyphaudit merge-reports out-1 out-2 out-3 out-4 --fail-on never --force", in: w.url)
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try w.json("glyphaudit-out/report.json")["failOn"] as? String == "never")
        #expect(try w.text("glyphaudit-out/notes.txt") == "mine", "files the merge does not write are left")
    }

    @Test("under CI, the shards' new-snapshots/ merge into the one an unsharded run leaves")
    func newSnapshotsMerge() throws {
        let w = RunWorkspace()
        let selection = ["--preset", "swiftui-switch"] + RunWorkspace.reduced + ["--fail-on", "never"]
        #expect(try w.run(["run"] + selection + ["--report", "whole"], environment: ["CI": "true"]).status == 0)
        for i in 1...2 {
            let r = try w.run(["run"] + selection + ["--shard", "\(i)/2", "--report", "s\(i)"], environment: ["CI": "true"])
            #expect(r.status == 0, "a shard at --fail-on never finishes green: \(r.stderr)")
        }
        let merge = try w.run(["merge-reports", "s1", "s2", "--report", "merged", "--fail-on", "never"])
        #expect(merge.status == 0, "at never the merge passes: \(merge.stderr)")
        let strict = try w.run(["merge-reports", "s1", "s2", "--report", "merged-error", "--formats", "json"])
        #expect(strict.status == 1, "missing baselines fail the merged run at error: \(strict.stderr)")
        let whole = w.tree("whole/new-snapshots")
        #expect(whole.count > 1 && whole.keys.contains("renderer.json"), "\(whole.keys.sorted())")
        expectSameTree(whole, w.tree("merged/new-snapshots"), "the merged new-snapshots/ equals the unsharded run's")
    }

    @Test("merge-reports --fail-on decides, whatever level the shards ran with; failed snapshots fail it at any level")
    func failLevel() throws {
        let w = RunWorkspace()
        for i in 1...2 {
            let r = try w.run(["run"] + RunWorkspace.reduced + ["--formats", "json", "--shard", "\(i)/2", "--report", "s\(i)"])
            #expect(r.status <= 1, "\(r.stderr)")
        }
        // The reduced matrix of the four presets has errors and warnings; shards ran with the default (error).
        for (level, status) in [("never", 0), ("error", 1), ("warning", 1)] {
            let m = try w.run(["merge-reports", "s1", "s2", "--report", "m-\(level)", "--formats", "json", "--fail-on", level])
            #expect(m.status == Int32(status), "\(level): \(m.stderr)")
            #expect(try w.json("m-\(level)/report.json")["failOn"] as? String == level)
            #expect(m.stderr.contains("merged run: \(status == 0 ? "passed" : "failed") (fails on \(level))"), "\(m.stderr)")
        }
        // At warning, the warnings count as failing findings too.
        let merged = try w.json("m-warning/report.json")
        let open = try #require(merged["findings"] as? [[String: Any]]).filter { $0["accepted"] == nil }
        let failing = open.filter { ["error", "warning"].contains($0["severity"] as? String) }.count
        let errors = open.filter { $0["severity"] as? String == "error" }.count
        #expect(failing > errors)
        let m = try w.run(["merge-reports", "s1", "s2", "--report", "again", "--formats", "json", "--fail-on", "warning"])
        #expect(m.stderr.contains("merged run: failed (fails on warning): \(failing) findings, 0 snapshot failures"), "\(m.stderr)")
    }

    @Test("failed snapshots fail the merge at error (not at never), and the list of them stops after 10 with a count")
    func snapshotFailures() throws {
        let w = RunWorkspace()
        try w.copyBaselines(preset: "swiftui-switch")
        // 24 changed baselines: the switch at L and AX5 (2 sizes × 3 themes × 2 states × unfocused and
        // focused = 24 at @2x).
        let changed = filesBelow(w.url.appendingPathComponent("snap"))
        #expect(changed.count == 24)
        for rel in changed { try w.changeOnePixel(rel) }
        let options = ["--preset", "swiftui-switch"] + RunWorkspace.reduced + ["--snapshots", "snap", "--fail-on", "never", "--formats", "json"]
        let shard = try w.run(["run"] + options + ["--shard", "1/1", "--report", "s1"])
        #expect(shard.status == 0, "at --fail-on never the shard passes, its snapshots listed: \(shard.stderr)")
        let never = try w.run(["merge-reports", "s1", "--report", "m-never", "--formats", "json", "--fail-on", "never"])
        #expect(never.status == 0, "\(never.stderr)")
        #expect(never.stderr.contains("merged run: passed (fails on never)"), "\(never.stderr)")
        // At error the snapshots fail it (with the switch's 6 nontext-contrast errors).
        let m = try w.run(["merge-reports", "s1", "--report", "m", "--formats", "json"])
        #expect(m.status == 1, "\(m.stderr)")
        #expect(m.stderr.contains("merged run: failed (fails on error): 6 findings, 24 snapshot failures"), "\(m.stderr)")
        let listed = m.stderr.split(separator: "\n").filter { $0.hasPrefix("  snapshot mismatch: swiftui-switch/") }
        #expect(listed.count == 10, "\(m.stderr)")
        #expect(m.stderr.contains("\n  … and 14 more\n"), "\(m.stderr)")
    }

    @Test("the output folder: an empty one is used, a file in its place or a non-empty one is refused without --force")
    func destination() throws {
        let w = RunWorkspace()
        let r = try w.run(["run", "--preset", "swiftui-switch"] + RunWorkspace.reduced + ["--formats", "json", "--shard", "1/1", "--report", "s1"])
        #expect(r.status <= 1, "\(r.stderr)")
        try FileManager.default.createDirectory(at: w.url.appendingPathComponent("empty"), withIntermediateDirectories: true)
        let empty = try w.run(["merge-reports", "s1", "--report", "empty", "--formats", "json"])
        #expect(empty.status <= 1 && w.exists("empty/report.json"), "\(empty.stderr)")

        w.folder.write("afile", "x")
        let file = try w.run(["merge-reports", "s1", "--report", "afile", "--force"])
        #expect(file.status == 2)
        #expect(file.stderr.contains("afile: exists and is not a folder"), "\(file.stderr)")

        w.folder.write("full/keep.txt", "x")
        let full = try w.run(["merge-reports", "s1", "--report", "full"])
        #expect(full.status == 2)
        #expect(full.stderr.contains("full: the folder exists and is not empty (1 entry); merge-reports writes into it only with --force"),
                "\(full.stderr)")
        #expect(filesBelow(w.url.appendingPathComponent("full")) == ["keep.txt"], "nothing written")
        #expect(try w.text("afile") == "x")
    }
}

@Suite("glyphaudit completions")
struct CLICompletionTests {
    /// Every command `glyphaudit --help` lists, with the options its `--help` lists (from the same tables
    /// the parser uses, but printed by another path).
    static func commandsAndOptions(in dir: URL) throws -> [(command: String, options: [String])] {
        let main = try CLI.run(["--help"], in: dir).stdout
        let names = main.split(separator: "\n", omittingEmptySubsequences: false).drop { $0 != "COMMANDS:" }.dropFirst()
            .prefix { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            .compactMap { $0.split(separator: " ").first.map(String.init) }
        var out: [(String, [String])] = []
        for name in names {
            let help = try CLI.run([name, "--help"], in: dir).stdout
            let options = help.split(separator: "\n").drop { $0 != "OPTIONS:" }.dropFirst()
                .compactMap { $0.split(separator: " ").first.map(String.init) }
            out.append((name, options))
        }
        return out
    }

    @Test("the bash script passes bash -n and completes commands, options, choices and operands")
    func bash() throws {
        let dir = TempFolder()
        let r = try CLI.run(["completions", "bash"], in: dir.url)
        #expect(r.status == 0, "\(r.stderr)")
        dir.write("glyphaudit.bash", r.stdout)
        let syntax = try runTool("/bin/bash", ["-n", "glyphaudit.bash"], in: dir.url)
        #expect(syntax.status == 0, "\(syntax.stderr)")

        let table = try Self.commandsAndOptions(in: dir.url)
        #expect(table.count == 12 && table.map(\.command).contains("completions"), "\(table.map(\.command))")
        // Drive the completion function as bash does: COMP_WORDS, COMP_CWORD, then COMPREPLY.
        var driver = "source ./glyphaudit.bash\n"
        driver += #"t() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]}-1)); COMPREPLY=(); _glyphaudit; echo "${COMPREPLY[*]}"; }"# + "\n"
        var cases: [(words: [String], expected: [String])] = [
            (["glyphaudit", ""], table.map(\.command) + ["help", "--help", "--version"]),
            (["glyphaudit", "audit", "--fail-on", ""], ["error", "warning", "never"]),
            (["glyphaudit", "audit", "--fail-on", "=", "w"], ["warning"]),
            (["glyphaudit", "merge-reports", "--fail-on", "="], ["error", "warning", "never"]),
            (["glyphaudit", "run", "--formats", "json,s"], ["json,sarif"]),
            (["glyphaudit", "render", "--format", ""], ["png", "svg", "pdf"]),
            (["glyphaudit", "audit", "--preset", "swiftui-"], ["swiftui-checkbox", "swiftui-switch"]),
            (["glyphaudit", "export", "--vector", ""], ["pdf", "svg"]),
            (["glyphaudit", "presets", ""], ["show"]),
            (["glyphaudit", "presets", "show", "rvs"], ["rvs-checkbox"]),
            (["glyphaudit", "rules", "--config", "x.json", "explain", "target"], ["target-size"]),
            (["glyphaudit", "completions", ""], ["bash", "zsh", "fish"]),
            (["glyphaudit", "help", "merge"], ["merge-reports"]),
            (["glyphaudit", "help", "to"], ["tokens"]),
            (["glyphaudit", "run", "--format", "json,s"], ["json,sarif"]),
            (["glyphaudit", "merge-reports", "--out", "="], []),
            (["glyphaudit", "diff", "--output", "a.png", "--jo"], ["--jobs"]),
        ]
        for (command, options) in table {
            cases.append((["glyphaudit", command, "--"], options))
        }
        for c in cases { driver += "t " + c.words.map { "'\($0)'" }.joined(separator: " ") + "\n" }
        dir.write("driver.bash", driver)
        let out = try runTool("/bin/bash", ["driver.bash"], in: dir.url)
        #expect(out.status == 0, "\(out.stderr)")
        let lines = out.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count >= cases.count)
        for (k, c) in cases.enumerated() where k < lines.count {
            #expect(lines[k].split(separator: " ").map(String.init).sorted() == c.expected.sorted(), "\(c.words): \(lines[k])")
        }
    }

    @Test("the zsh and fish scripts name every command and every option of each (and pass the shells' syntax check when installed)")
    func zshAndFish() throws {
        let dir = TempFolder()
        let table = try Self.commandsAndOptions(in: dir.url)
        let zsh = try CLI.run(["completions", "zsh"], in: dir.url)
        let fish = try CLI.run(["completions", "fish"], in: dir.url)
        #expect(zsh.status == 0 && fish.status == 0)
        #expect(zsh.stdout.hasPrefix("#compdef glyphaudit\n"))

        // zsh: one `cmd)` branch per command holding an _arguments spec per option.
        for (command, options) in table {
            #expect(zsh.stdout.contains("        '\(command):"), "zsh: command \(command)")
            let branch = try #require(zsh.stdout.components(separatedBy: "\n    \(command))\n").dropFirst().first, "zsh: \(command)")
                .components(separatedBy: "\n        ;;\n")[0]
            for option in options {
                #expect(branch.contains("'\(option)[") || branch.contains("'\(option)=[") || branch.contains("'*\(option)=["),
                        "zsh \(command): \(option)")
            }
        }
        // fish: `-a cmd` for the command, `-l name` under its condition for each option.
        for (command, options) in table {
            #expect(fish.stdout.contains("-n __fish_use_subcommand -a \(command) -d "), "fish: command \(command)")
            for option in options {
                #expect(fish.stdout.contains("-n '__fish_seen_subcommand_from \(command)' -l \(option.dropFirst(2)) "), "fish \(command): \(option)")
            }
        }
        #expect(zsh.stdout.contains("'--fail-on=[error (default), warning or never]:LEVEL:(error warning never)'"))
        #expect(fish.stdout.contains("-l fail-on -x -a 'error warning never'"))

        dir.write("_glyphaudit", zsh.stdout)
        dir.write("glyphaudit.fish", fish.stdout)
        if let z = installed("zsh") {
            let check = try runTool(z, ["-n", "_glyphaudit"], in: dir.url)
            #expect(check.status == 0, "\(check.stderr)")
        }
        if let f = installed("fish") {
            let check = try runTool(f, ["--no-execute", "glyphaudit.fish"], in: dir.url)
            #expect(check.status == 0, "\(check.stderr)")
            let complete = try runTool(f, ["-c", "source glyphaudit.fish; complete -C 'glyphaudit audit --fail-on '"], in: dir.url)
            #expect(complete.stdout.split(separator: "\n").map { String($0.split(separator: "\t")[0]) }.sorted() == ["error", "never", "warning"],
                    "\(complete.stdout)\(complete.stderr)")
        }
    }

    @Test("an unknown or missing shell is a usage error")
    func badShell() throws {
        let dir = TempFolder()
        for args in [["completions"], ["completions", "tcsh"], ["completions", "bash", "zsh"]] {
            let r = try CLI.run(args, in: dir.url)
            #expect(r.status == 64, "\(args)")
            #expect(r.stderr.contains("bash, zsh or fish"), "\(args): \(r.stderr)")
            #expect(r.stdout.isEmpty)
        }
    }
}

@Suite("glyphaudit audit: long lists cut short")
struct CLIListLimitTests {
    @Test("a preset's details stop after 20 entries with a count; --verbose lists every finding")
    func detailsCapped() throws {
        let dir = TempFolder()
        // swiftui-switch with 12 themes, each the switch's default theme: 4 nontext-contrast errors per theme
        // (off track, knob on off, on track, knob on on; README), and one target-size warning for the preset.
        let spec = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: CLI.packageRoot.appendingPathComponent("Assets/presets/swiftui-switch.json"))) as? [String: Any])
        var s = spec
        s.removeValue(forKey: "$schema")
        s["name"] = "many-themes"
        s.removeValue(forKey: "focus")  // this test is about the details listing, not the focused variants
        let theme = try #require((spec["themes"] as? [String: Any])?["default"])
        var themes: [String: Any] = ["default": theme]
        for i in 1...11 { themes[String(format: "t%02d", i)] = theme }
        s["themes"] = themes
        try JSONSerialization.data(withJSONObject: s, options: [.sortedKeys]).write(to: dir.url.appendingPathComponent("many.json"))

        let args = ["audit", "--spec", "many.json", "--only", "dynamic-type=L", "--fail-on", "never"]
        let r = try CLI.run(args, in: dir.url, environment: ["NO_COLOR": "1"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.hasPrefix("glyphaudit audit: 72 variants, 7 rules — 48 errors, 1 warning\n"), "\(r.stdout)")
        let entries = r.stdout.split(separator: "\n").filter { $0.hasPrefix("  error ") || $0.hasPrefix("  warning ") }
        #expect(entries.count == 20)
        #expect(r.stdout.contains("\n  … and 29 more in many-themes (--verbose or --json lists every finding)\n"), "\(r.stdout)")
        let verbose = try CLI.run(args + ["--verbose"], in: dir.url, environment: ["NO_COLOR": "1"])
        // Unfolded: 48 errors at 3 scales each (folded as @*x by the rule itself) and the warning.
        #expect(!verbose.stdout.contains("… and"))
        #expect(verbose.stdout.split(separator: "\n").filter { $0.hasPrefix("  error ") }.count == 48)
    }

    @Test("baseline entries that match nothing stop after 20 with a count; --verbose lists them all")
    func staleCapped() throws {
        let dir = TempFolder()
        let entries = (1...25).map { #"{ "rule": "clipping", "variant": "nowhere-\#($0)/*", "reason": "gone" }"# }
        dir.write(".glyphaudit.json", #"{ "version": 1, "accepted": ["# + entries.joined(separator: ",\n") + "] }")
        let args = ["audit", "--preset", "swiftui-switch", "--only", "dynamic-type=L", "--fail-on", "never"]
        let r = try CLI.run(args, in: dir.url, environment: ["NO_COLOR": "1"])
        #expect(r.status == 0, "\(r.stderr)")
        let listed = r.stdout.split(separator: "\n").filter { $0.hasPrefix("  clipping  nowhere-") }
        #expect(listed.count == 20, "\(r.stdout)")
        #expect(r.stdout.contains("\n  … and 5 more (--verbose lists them all)\n"), "\(r.stdout)")
        let verbose = try CLI.run(args + ["--verbose"], in: dir.url, environment: ["NO_COLOR": "1"])
        #expect(verbose.stdout.split(separator: "\n").filter { $0.hasPrefix("  clipping  nowhere-") }.count == 25)
    }
}
