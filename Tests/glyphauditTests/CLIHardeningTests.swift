import Foundation
import Testing
import GlyphTestSupport

/// The reproducers of issue 24 that live in the command line and its output (Tests/Fixtures/bad-input,
/// 20 and on): each run as its repro.sh runs it, with the exit status and message its README asks for.
@Suite("Bad input, issue 24: merge-reports' shard folders, --shard, option values, stdout, presets show --out")
struct CLIHardeningTests {
    /// One line on stderr, starting with the tool's name.
    static func oneLine(_ r: CLI.Result) -> Bool {
        r.stderr.hasPrefix("glyphaudit: ") && r.stderr.filter { $0 == "\n" }.count == 1
    }

    static func exists(_ url: URL) -> Bool { FileManager.default.fileExists(atPath: url.path) }

    /// Runs the two shards of repro 20 and 22 (`run … --shard i/2 --fail-on never --report s<i>`) in `dir`.
    static func shards(_ dir: URL, _ presets: [String], only: String) throws {
        for i in 1...2 {
            let r = try CLI.run(["run"] + presets.flatMap { ["--preset", $0] }
                                + ["--only", "dynamic-type=\(only)", "--shard", "\(i)/2", "--fail-on", "never", "--report", "s\(i)", "--quiet"],
                                in: dir)
            #expect(r.status == 0, "\(r.stderr)")
        }
    }

    /// s1/report.json as JSON, edited by `edit`, written back.
    static func editReport(_ dir: URL, _ edit: (inout [String: Any]) throws -> Void) throws {
        let file = dir.appendingPathComponent("s1/report.json")
        var report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        try edit(&report)
        try JSONSerialization.data(withJSONObject: report).write(to: file)
    }

    @Test("20: a picture path in a shard's report.json that is absolute, has .., goes through a link or is no PNG is refused before anything is read or written")
    func mergePicturePaths() throws {
        let root = try badInputFixture("20-")
        root.write("secret.txt", "SECRET\n")
        root.write("ci/secret.txt", "ORIGINAL FILE OF THE CHECKOUT\n")
        let ci = root.url.appendingPathComponent("ci")
        try Self.shards(ci, ["swiftui-switch"], only: "L")
        let report = ci.appendingPathComponent("s1/report.json")
        let original = try Data(contentsOf: report)
        // The first variant with a picture, as edit.py takes it.
        let variants = try #require((try JSONSerialization.jsonObject(with: original) as? [String: Any])?["variants"] as? [[String: Any]])
        let first = try #require(variants.firstIndex { $0["image"] != nil })
        let picture = try #require(variants[first]["image"] as? String)
        #expect(picture.hasPrefix("images/") && picture.hasSuffix(".png"))

        func merge(_ image: String, _ message: String) throws {
            try original.write(to: report)
            try Self.editReport(ci) { r in
                var vs = r["variants"] as! [[String: Any]]
                vs[first]["image"] = image
                r["variants"] = vs
            }
            let m = try CLI.run(["merge-reports", "s1", "s2", "--report", "out/merged"], in: ci)
            #expect(m.status == 2 && Self.oneLine(m), "\(image): \(m.stderr)")
            #expect(m.stderr.contains(message), "\(image): \(m.stderr)")
            #expect(!Self.exists(ci.appendingPathComponent("out")), "\(image): nothing created")
        }
        try merge("../../secret.txt", "s1/report.json: variants[\(first)].image: \"../../secret.txt\" leaves the report folder (a \"..\" segment)")
        try merge("images/../../secret.png", "variants[\(first)].image: \"images/../../secret.png\" leaves the report folder")
        try merge(root.url.appendingPathComponent("secret.txt").path, "variants[\(first)].image: \"\(root.url.path)/secret.txt\" is an absolute path")
        try merge("images//a.png", "is not a plain relative path")
        try merge("secret.txt", "variants[\(first)].image: \"secret.txt\" is not a .png file")
        // A link inside the shard folder, to the file outside or to a folder outside: not followed.
        try FileManager.default.createSymbolicLink(atPath: ci.appendingPathComponent("s1/escape.png").path, withDestinationPath: "../../secret.txt")
        try merge("escape.png", "s1/escape.png: is, or lies below, a symbolic link")
        try FileManager.default.createSymbolicLink(atPath: ci.appendingPathComponent("s1/up").path, withDestinationPath: "../..")
        try merge("up/secret.png", "s1/up/secret.png: is, or lies below, a symbolic link")
        // A regular file inside the shard that is not a PNG is not copied either.
        root.write("ci/s1/images/fake.png", "not a picture\n")
        try merge("images/fake.png", "s1/images/fake.png: is not a PNG file (no PNG signature)")
        #expect(try String(contentsOf: ci.appendingPathComponent("secret.txt"), encoding: .utf8) == "ORIGINAL FILE OF THE CHECKOUT\n")
        #expect(try String(contentsOf: root.url.appendingPathComponent("secret.txt"), encoding: .utf8) == "SECRET\n")

        // An evidence picture and a snapshot picture are checked the same way.
        try original.write(to: report)
        try Self.editReport(ci) { r in
            var fs = r["findings"] as! [[String: Any]]
            let i = fs.firstIndex { $0["evidence"] != nil }!
            fs[i]["evidence"] = "../../other-secret.txt"
            r["findings"] = fs
        }
        let ev = try CLI.run(["merge-reports", "s1", "s2", "--report", "out/merged"], in: ci)
        #expect(ev.status == 2 && ev.stderr.contains("].evidence: \"../../other-secret.txt\" leaves the report folder"), "\(ev.stderr)")
        #expect(!Self.exists(ci.appendingPathComponent("out")))

        // The untouched reports still merge, every picture copied.
        try original.write(to: report)
        let ok = try CLI.run(["merge-reports", "s1", "s2", "--report", "out/merged", "--fail-on", "never"], in: ci)
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(Self.exists(ci.appendingPathComponent("out/merged").appendingPathComponent(picture)))
    }

    @Test("22: a picture that is a FIFO or over 64 MiB stops merge-reports before it creates a folder")
    func mergeChecksFirst() throws {
        let dir = try badInputFixture("22-")
        try Self.shards(dir.url, ["swiftui-switch", "swiftui-checkbox"], only: "L,AX5")
        let images = dir.url.appendingPathComponent("s2/images")
        let pictures = try #require(FileManager.default.enumerator(atPath: images.path)?.allObjects as? [String]).filter { $0.hasSuffix(".png") }.sorted()
        let last = try #require(pictures.last)
        let path = images.appendingPathComponent(last).path
        let saved = try Data(contentsOf: URL(fileURLWithPath: path))
        try FileManager.default.removeItem(atPath: path)
        #expect(mkfifo(path, 0o644) == 0)
        for _ in 1...2 {  // the second try finds the same, not a folder left by the first
            let m = try CLI.run(["merge-reports", "s1", "s2", "--report", "merged"], in: dir.url)
            #expect(m.status == 2 && Self.oneLine(m), "\(m.stderr)")
            #expect(m.stderr.contains("s2/images/\(last): not a regular file (a FIFO); only regular files are read"), "\(m.stderr)")
            #expect(!Self.exists(dir.url.appendingPathComponent("merged")))
        }
        // A sparse file past the PNG limit (64 MiB) is refused by its size, unread.
        try FileManager.default.removeItem(atPath: path)
        try saved.write(to: URL(fileURLWithPath: path))
        #expect(truncate(path, off_t(64 << 20) + 1) == 0)
        let big = try CLI.run(["merge-reports", "s1", "s2", "--report", "merged"], in: dir.url)
        #expect(big.status == 2 && Self.oneLine(big), "\(big.stderr)")
        #expect(big.stderr.contains("s2/images/\(last): ") && big.stderr.contains("the limit is 64 MiB"), "\(big.stderr)")
        #expect(!Self.exists(dir.url.appendingPathComponent("merged")))
        // Restored, the merge runs.
        try saved.write(to: URL(fileURLWithPath: path))
        let ok = try CLI.run(["merge-reports", "s1", "s2", "--report", "merged", "--fail-on", "never"], in: dir.url)
        #expect(ok.status == 0, "\(ok.stderr)")
    }

    @Test("23: --shard I/N runs in constant memory for any N; a report claiming 1 of 2^63 - 1 shards is refused at once")
    func hugeShardCount() throws {
        let dir = try badInputFixture("23-")
        let n = "9223372036854775807"  // Int.max, the largest N --shard accepts
        let start = Date()
        let selection = ["--preset", "swiftui-switch", "--only", "dynamic-type=L", "--only", "scale=2"]
        func variants(_ args: [String], _ folder: String) throws -> Int? {
            let r = try CLI.run(["run"] + selection + args + ["--fail-on", "never", "--report", folder, "--formats", "json", "--quiet"], in: dir.url)
            #expect(r.status == 0, "\(args): \(r.stderr)")
            let report = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.url.appendingPathComponent("\(folder)/report.json")))
            return ((report as? [String: Any])?["variants"] as? [Any])?.count
        }
        // One component in 3 themes: 3 variant groups of a third each; shards 1 and 2 hold one each
        // (any past the third holds none).
        let whole = try #require(try variants([], "whole"))
        #expect(whole > 0 && whole % 3 == 0)
        #expect(try variants(["--shard", "1/\(n)"], "s1") == whole / 3)
        #expect(try variants(["--shard", "2/\(n)"], "s2") == whole / 3)
        let m = try CLI.run(["merge-reports", "s1", "s2", "--report", "m"], in: dir.url)
        #expect(m.status == 2 && Self.oneLine(m), "\(m.stderr)")
        #expect(m.stderr.contains("shards 3/\(n), 4/\(n), 5/\(n), 6/\(n), 7/\(n), 8/\(n), 9/\(n), 10/\(n), 11/\(n), 12/\(n) and 9223372036854775795 more are missing"),
                "\(m.stderr)")
        #expect(Date().timeIntervalSince(start) < 10)
        #expect(!Self.exists(dir.url.appendingPathComponent("m")))
    }

    @Test("28: an empty value, or a sign before a number, is a usage error (64) and nothing is written")
    func emptyAndSignedValues() throws {
        let dir = try badInputFixture("28-")
        let cases: [([String], String)] = [
            (["render", "--preset", "swiftui-switch", "--only", "scale=1", "--out", ""], "--out needs a value (DIR), got an empty one"),
            (["render", "--preset", "swiftui-switch", "--only", "scale=1", "--out="], "--out needs a value (DIR), got an empty one"),
            (["render", "--preset", "swiftui-switch", "--format", "", "--out", "out"], "--format needs a value (LIST), got an empty one"),
            (["render", "--preset", "swiftui-switch", "--format", ",", "--out", "out"], "--format needs one or more of png, svg, pdf"),
            (["run", "--preset", "swiftui-switch", "--shard", "+1/2", "--report", "rep"], "--shard takes I/N with 1 ≤ I ≤ N, got \"+1/2\""),
            (["run", "--preset", "swiftui-switch", "--shard", "1/+2", "--report", "rep"], "got \"1/+2\""),
            (["run", "--preset", "swiftui-switch", "--shard", "/2", "--report", "rep"], "got \"/2\""),
            (["render", "--preset", "swiftui-switch", "--jobs", "+1", "--out", "out"], "--jobs takes a whole number from 1 to 256, got \"+1\""),
            (["render", "--preset", "swiftui-switch", "--jobs", "", "--out", "out"], "--jobs needs a value (N), got an empty one"),
            (["render", "--preset", "", "--out", "out"], "--preset needs one or more of swiftui-"),
            (["render", "--preset", ",", "--out", "out"], "--preset needs one or more of swiftui-"),
        ]
        for (args, message) in cases {
            let r = try CLI.run(args, in: dir.url)
            #expect(r.status == 64, "\(args): \(r.stderr)")
            #expect(r.stderr.contains(message), "\(args): \(r.stderr)")
        }
        #expect(Array(dir.files().prefix(3)) == ["README.md", "repro.sh"])
    }

    @Test("29: stdout on a full disk or closed is one message and exit 2, not a trap")
    func stdoutFailure() throws {
        let dir = try badInputFixture("29-")
        let sh = URL(fileURLWithPath: "/bin/sh")
        let cases: [(String, String)] = [
            ("\"$0\" audit --preset swiftui-switch --only dynamic-type=L --json --fail-on never > /dev/full", "No space left on device"),
            ("\"$0\" audit --preset swiftui-switch --only dynamic-type=L --json --fail-on never >&-", "Bad file descriptor"),
            ("\"$0\" audit --preset swiftui-switch --only dynamic-type=L --fail-on never > /dev/full", "No space left on device"),
            ("\"$0\" presets show design-system-checkbox > /dev/full", "No space left on device"),
            ("\"$0\" presets >&-", "Bad file descriptor"),
            ("\"$0\" rules > /dev/full", "No space left on device"),
            ("\"$0\" completions bash > /dev/full", "No space left on device"),
        ]
        for (script, reason) in cases {
            let r = try CLI.launch(sh, ["-c", script, CLI.binary.path], in: dir.url)
            #expect(r.status == 2, "\(script): \(r.stderr)")
            #expect(r.stderr == "glyphaudit: cannot write the output: \(reason)\n", "\(script): \(r.stderr)")
        }
        #expect(Array(dir.files().prefix(3)) == ["README.md", "repro.sh"])
    }

    @Test("24: presets show --out refuses to replace a file the user edited, unless --force; the preset's own bytes are left")
    func presetsShowKeepsEdits() throws {
        let dir = try badInputFixture("24-")
        let first = try CLI.run(["presets", "show", "rvs-checkbox", "--out", "my-checkbox"], in: dir.url)
        #expect(first.status == 0, "\(first.stderr)")
        let fresh = TempFolder()
        #expect(try CLI.run(["presets", "show", "rvs-checkbox", "--out", "p"], in: fresh.url).status == 0)
        // Unchanged files: a second run is fine and changes nothing.
        let again = try CLI.run(["presets", "show", "rvs-checkbox", "--out", "my-checkbox"], in: dir.url)
        #expect(again.status == 0, "\(again.stderr)")

        let icon = "my-checkbox/images/rvs-checkbox/on.svg", spec = "my-checkbox/rvs-checkbox.json"
        let edited = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 24 24\"><!-- MY EDITED ICON --><path d=\"M4 12l5 5L20 6\"/></svg>\n"
        dir.write(icon, edited)
        let r = try CLI.run(["presets", "show", "rvs-checkbox", "--out", "my-checkbox"], in: dir.url)
        #expect(r.status == 2 && Self.oneLine(r), "\(r.stderr)")
        #expect(r.stderr.contains("my-checkbox/images/rvs-checkbox/on.svg: exists and differs from the preset's images/rvs-checkbox/on.svg; "
                                  + "presets show --out replaces it only with --force (nothing was written)"), "\(r.stderr)")
        #expect(try String(contentsOf: dir.url.appendingPathComponent(icon), encoding: .utf8) == edited)
        // The spec comes first: an edit there is named first, and neither file is replaced.
        let specText = try String(contentsOf: dir.url.appendingPathComponent(spec), encoding: .utf8)
        #expect(specText.contains("\"name\": \"rvs-checkbox\""))
        dir.write(spec, specText.replacingOccurrences(of: "\"name\": \"rvs-checkbox\"", with: "\"name\": \"my-checkbox\""))
        let both = try CLI.run(["presets", "show", "rvs-checkbox", "--out", "my-checkbox"], in: dir.url)
        #expect(both.status == 2 && both.stderr.contains("my-checkbox/rvs-checkbox.json: exists and differs"), "\(both.stderr)")
        #expect(try String(contentsOf: dir.url.appendingPathComponent(icon), encoding: .utf8) == edited)
        #expect(try String(contentsOf: dir.url.appendingPathComponent(spec), encoding: .utf8).contains("\"name\": \"my-checkbox\""))

        // --force replaces them with the preset's (those of a fresh folder).
        let forced = try CLI.run(["presets", "show", "rvs-checkbox", "--out", "my-checkbox", "--force"], in: dir.url)
        #expect(forced.status == 0, "\(forced.stderr)")
        for (mine, preset) in [(icon, "p/images/rvs-checkbox/on.svg"), (spec, "p/rvs-checkbox.json")] {
            #expect(try Data(contentsOf: dir.url.appendingPathComponent(mine)) == Data(contentsOf: fresh.url.appendingPathComponent(preset)))
        }
        #expect(try CLI.run(["presets", "show", "rvs-checkbox", "--force"], in: dir.url).status == 64)
    }

    @Test("26, 27d: an output path that is a file where a folder must be (or a folder for a file) is refused before any work, nothing created")
    func outputPathsFirst() throws {
        let dir = try badInputFixture("26-")
        dir.write("cs", "x\n")
        dir.write("rep.txt", "x\n")
        try FileManager.default.createDirectory(at: dir.url.appendingPathComponent("wb"), withIntermediateDirectories: true)
        let cases: [([String], String)] = [
            (["render", "--preset", "swiftui-switch", "--contact-sheet", "cs", "--out", "out"],
             "glyphaudit: cs: is a file, not a folder; --contact-sheet takes a folder (nothing was done)\n"),
            (["render", "--preset", "swiftui-switch", "--out", "cs"], "glyphaudit: cs: is a file, not a folder; --out takes a folder (nothing was done)\n"),
            (["run", "--preset", "design-system-checkbox", "--report", "rep.txt"],
             "glyphaudit: rep.txt: is a file, not a folder; --report takes a folder (nothing was done)\n"),
            (["run", "--preset", "swiftui-switch", "--report", "rep.txt/sub/dir"],
             "glyphaudit: rep.txt/sub/dir: cannot be made: \(dir.url.standardizedFileURL.path)/rep.txt is a file, not a folder (--report; nothing was done)\n"),
            (["audit", "--preset", "swiftui-switch", "--evidence", "cs"], "glyphaudit: cs: is a file, not a folder; --evidence takes a folder (nothing was done)\n"),
            // 27d: no "wrote 7 accepted findings to wb" before the failure.
            (["audit", "--preset", "swiftui-switch", "--write-baseline", "wb", "--fail-on", "never"],
             "glyphaudit: wb: is a folder, not a file; --write-baseline takes a file (nothing was done)\n"),
            (["check", "--preset", "swiftui-switch", "--snapshots", "wb", "--out", "cs"],
             "glyphaudit: cs: is a file, not a folder; --out takes a folder (nothing was done)\n"),
        ]
        for (args, message) in cases {
            let start = Date()
            let r = try CLI.run(args, in: dir.url)
            #expect(r.status == 2, "\(args): \(r.stderr)")
            #expect(r.stderr == message && r.stdout.isEmpty, "\(args): \(r.stderr)")
            // Refused before the matrix is laid out: far less than rendering it takes.
            #expect(Date().timeIntervalSince(start) < 1, "\(args)")
        }
        #expect(dir.files() == ["README.md", "cs", "rep.txt", "repro.sh"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path).sorted() == ["README.md", "cs", "rep.txt", "repro.sh", "wb"])
        #expect(try String(contentsOf: dir.url.appendingPathComponent("cs"), encoding: .utf8) == "x\n")
    }

    @Test("32: the next export or run into a folder removes the temporary files of killed runs (writer gone), and nothing else")
    func staleTemporaryFiles() throws {
        let dir = try badInputFixture("32-")
        // A PID that no process has: a child that has exited and been reaped.
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/true")
        try child.run()
        child.waitUntilExit()
        let dead = child.processIdentifier, alive = getpid()
        #expect(kill(dead, 0) == -1 && errno == ESRCH)
        let set = "G.xcassets/rvs-checkbox/square-md-checked.imageset"
        let stale = [".Contents.json.tmp-\(dead)-17695110953589841285", ".square-md-checked@2x.png.tmp-\(dead)-1"]
        let kept = [".Contents.json.tmp-\(alive)-5",  // a writer that still runs
                    ".notes.tmp-\(dead)-x", ".notes.tmp-\(dead)", ".a.tmp-+\(dead)-1"]  // not our pattern
        func plant() throws {
            for name in stale + kept { dir.write("\(set)/\(name)", "partial") }
            // A link with a temporary name is not ours either: left.
            try? FileManager.default.createSymbolicLink(atPath: dir.url.appendingPathComponent("\(set)/.link.tmp-\(dead)-2").path,
                                                        withDestinationPath: "../../../repro.sh")
        }
        func hidden() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: dir.url.appendingPathComponent(set).path).filter { $0.contains(".tmp") }.sorted()
        }
        let export = ["export", "--xcassets", "G.xcassets", "--preset", "rvs-checkbox", "--quiet"]
        #expect(try CLI.run(export, in: dir.url).status == 0)
        // Everything unchanged: the image set is still cleared.
        try plant()
        let unchanged = try CLI.run(export, in: dir.url)
        #expect(unchanged.status == 0, "\(unchanged.stderr)")
        #expect(try hidden() == (kept + [".link.tmp-\(dead)-2"]).sorted())
        // A file written again (it was removed): cleared too.
        try plant()
        try FileManager.default.removeItem(at: dir.url.appendingPathComponent("\(set)/square-md-checked@2x.png"))
        #expect(try CLI.run(export, in: dir.url).status == 0)
        #expect(try hidden() == (kept + [".link.tmp-\(dead)-2"]).sorted())
        #expect(try String(contentsOf: dir.url.appendingPathComponent("repro.sh"), encoding: .utf8).hasPrefix("#!/bin/sh"))

        // A run's report folder the same way.
        #expect(try CLI.run(["run", "--preset", "swiftui-switch", "--only", "dynamic-type=L", "--fail-on", "never", "--report", "rep", "--quiet"],
                            in: dir.url).status == 0)
        dir.write("rep/.report.json.tmp-\(dead)-9", "partial")
        dir.write("rep/.report.json.tmp-\(alive)-9", "partial")
        #expect(try CLI.run(["run", "--preset", "swiftui-switch", "--only", "dynamic-type=L", "--fail-on", "never", "--report", "rep", "--quiet"],
                            in: dir.url).status == 0)
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.url.appendingPathComponent("rep").path).filter { $0.contains(".tmp-") }
        #expect(left == [".report.json.tmp-\(alive)-9"])
    }

    @Test("27 a, b, c, e: one short line per error: long values cut, no \"file file\", a deep report said to be deep, no DecodingError text")
    func shortMessages() throws {
        let dir = try badInputFixture("27-")
        // a) a Tokens Studio value of 100 KB (gen_ts.py writes 500 KB; the tokens take longer to resolve, not the message).
        let core = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.url.appendingPathComponent("core.tokens.json")))
        let long = "rgba(" + String(repeating: "{c.a}", count: 20_000) + ", 50%)"
        let ts: [String: Any] = ["core": core, "$themes": [Any](),
                                 "s1": ["c": ["a": ["value": "#102030", "type": "color"], "b": ["value": long, "type": "color"]]]]
        try JSONSerialization.data(withJSONObject: ts).write(to: dir.url.appendingPathComponent("ts.json"))
        let a = try CLI.run(["render", "--spec", "spec-long-token.json", "--out", "o"], in: dir.url)
        #expect(a.status == 2 && Self.oneLine(a), "\(a.stderr.prefix(300))")
        #expect(a.stderr.utf8.count < 1200 && a.stderr.contains("characters in all)"), "\(a.stderr.prefix(1300))")

        // b) --only with 10,000 values.
        let themes = (0..<10_000).map { "t\($0)" }.joined(separator: ",")
        let b = try CLI.run(["render", "--preset", "swiftui-switch", "--out", "o", "--only", "theme=" + themes], in: dir.url)
        #expect(b.status == 2 && Self.oneLine(b), "\(b.stderr.prefix(300))")
        #expect(b.stderr.hasPrefix("glyphaudit: --only: no variant matches theme=t0,t1,t2,") && b.stderr.utf8.count < 400, "\(b.stderr.prefix(500))")
        #expect(b.stderr.contains("… (\(themes.count + 6) characters) (432 variants before filtering)"), "\(b.stderr.prefix(500))")

        // c) a folder as --baseline or --config.
        try FileManager.default.createDirectory(at: dir.url.appendingPathComponent("bl"), withIntermediateDirectories: true)
        for option in ["--baseline", "--config"] {
            let c = try CLI.run(["audit", "--preset", "swiftui-switch", option, "bl"], in: dir.url)
            #expect(c.status == 2 && Self.oneLine(c), "\(option): \(c.stderr)")
            #expect(c.stderr.contains("bl: is a folder, not a JSON file") && !c.stderr.contains("file file"), "\(option): \(c.stderr)")
        }

        // e) a report.json nested 100,000 deep, and one whose key holds the wrong kind of value.
        for i in 1...2 {
            #expect(try CLI.run(["run", "--preset", "swiftui-switch", "--only", "dynamic-type=L", "--shard", "\(i)/2", "--fail-on", "never",
                                 "--report", "s\(i)", "--formats", "json", "--quiet"], in: dir.url).status == 0)
        }
        let file = dir.url.appendingPathComponent("s1/report.json")
        let original = try String(contentsOf: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        try (String(original.dropLast()) + ", \"z\": " + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "}")
            .write(to: file, atomically: true, encoding: .utf8)
        let e = try CLI.run(["merge-reports", "s1", "s2", "--report", "m"], in: dir.url)
        #expect(e.status == 2 && Self.oneLine(e), "\(e.stderr)")
        #expect(e.stderr.contains("s1/report.json: not a glyphaudit report: JSON nested 100001 levels deep; the limit is 128 (docs/limits.md)"),
                "\(e.stderr)")
        var report = try #require(try JSONSerialization.jsonObject(with: Data(original.utf8)) as? [String: Any])
        var variants = try #require(report["variants"] as? [[String: Any]])
        variants[2]["index"] = "two"
        report["variants"] = variants
        try JSONSerialization.data(withJSONObject: report).write(to: file)
        let t = try CLI.run(["merge-reports", "s1", "s2", "--report", "m"], in: dir.url)
        #expect(t.status == 2 && Self.oneLine(t), "\(t.stderr)")
        #expect(t.stderr.contains("s1/report.json: variants[2].index: not a glyphaudit report: expected a number here") && !t.stderr.contains("DecodingError"),
                "\(t.stderr)")
        #expect(!Self.exists(dir.url.appendingPathComponent("m")) && !Self.exists(dir.url.appendingPathComponent("o")))
    }
}
