import Foundation
import Testing
import GlyphCore
import GlyphPipeline
import GlyphSnapshot
import GlyphTestSupport

// Candidates (issue 22, item 1) and `glyphaudit accept` (item 2), run as the built binary.

@Suite("glyphaudit accept and candidates (the binary)", .serialized)
struct CLIAcceptTests {
    func run(_ args: [String], in dir: TempFolder, ci: String? = nil) throws -> CLI.Result {
        var env = ["NO_COLOR": "1", "GITHUB_ACTIONS": ""]
        if let ci { env["CI"] = ci }
        return try CLI.run(args, in: dir.url, environment: env)
    }

    /// SmallSpec with the mark 1 pt heavier (markWeight 2 → 3) and a third display scale: the checked
    /// states of @1x and @2x change (2 Dynamic Type sizes × 2 scales; an unchecked box has no mark),
    /// and the 4 variants at @3x (2 sizes × 2 states) are new.
    static func changed(name: String = "t") -> Data {
        Data(SmallSpec.json.replacingOccurrences(of: "\"markWeight\": 2 }", with: "\"markWeight\": 3 }")
            .replacingOccurrences(of: "\"scales\": [1, 2]", with: "\"scales\": [1, 2, 3]")
            .replacingOccurrences(of: "\"name\": \"t\"", with: "\"name\": \"\(name)\"").utf8)
    }

    static func candidates(_ name: String = "t") -> [String] {
        var files: [String] = []
        for dt in ["AX5", "L"] {
            files += ["checked@1x", "checked@2x", "checked@3x", "unchecked@3x"].map { "\(name)/square-md/\(dt)/default/\($0).png" }
        }
        return files.sorted()
    }

    func contents(_ folder: URL) -> [String: Data] { CLI.files(below: folder) }

    func editReport(_ folder: URL, _ edit: (inout [String: Any]) throws -> Void) throws {
        let file = folder.appendingPathComponent("report.json")
        var doc = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        try edit(&doc)
        try JSONSerialization.data(withJSONObject: doc).write(to: file)
    }

    /// Sets the candidate of the first result that has one.
    func setFirstCandidate(_ value: String) -> (inout [String: Any]) throws -> Void {
        { doc in
            var snapshots = try #require(doc["snapshots"] as? [String: Any])
            var results = try #require(snapshots["results"] as? [[String: Any]])
            let i = try #require(results.firstIndex { $0["candidate"] != nil })
            results[i]["candidate"] = value
            snapshots["results"] = results
            doc["snapshots"] = snapshots
        }
    }

    /// A folder with recorded baselines of SmallSpec, then the spec changed.
    func recordedThenChanged() throws -> TempFolder {
        let dir = TempFolder()
        dir.write("spec.json", Data(SmallSpec.json.utf8))
        let record = try run(["check", "--spec", "spec.json", "--record", "--quiet"], in: dir)
        try #require(record.status == 0, "\(record.stderr)")
        dir.write("spec.json", Self.changed())
        return dir
    }

    @Test("check under CI=true stages every changed and new render with renderer.json and the inputs' SHA-256; accept makes the next check pass")
    func checkUnderCIThenAccept() throws {
        let dir = try recordedThenChanged()
        let ci = try run(["check", "--spec", "spec.json"], in: dir, ci: "true")
        #expect(ci.status == 1, "\(ci.stderr)")
        let out = dir.url.appendingPathComponent("glyphaudit-out/snapshots")
        let staged = out.appendingPathComponent("candidates")
        #expect(PNGFiles.list(under: staged) == Self.candidates())
        #expect(try Data(contentsOf: staged.appendingPathComponent("renderer.json")) == RendererFingerprint.current.fileData())
        #expect(ci.stderr.contains("8 renders staged in glyphaudit-out/snapshots/candidates/ (changed and new, with renderer.json): "
                                   + "after review, `glyphaudit accept glyphaudit-out/snapshots` writes them into snapshots/ without rendering"),
                "\(ci.stderr)")
        // The candidates are the renders of the changed spec, byte for byte.
        let render = try run(["render", "--spec", "spec.json", "--out", "rendered", "--quiet"], in: dir)
        try #require(render.status == 0, "\(render.stderr)")
        for file in Self.candidates() {
            #expect(try Data(contentsOf: staged.appendingPathComponent(file))
                    == Data(contentsOf: dir.url.appendingPathComponent("rendered/\(file)")), "\(file)")
        }
        // report.json: the one input, with the SHA-256 of its bytes, and each candidate on its variant.
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("report.json"))) as? [String: Any])
        let inputs = try #require(doc["inputs"] as? [[String: String]])
        #expect(inputs == [["path": "spec.json", "sha256": SHA256.hex(Self.changed())]])
        let results = try #require((doc["snapshots"] as? [String: Any])?["results"] as? [[String: Any]])
        #expect(Set(results.compactMap { $0["candidate"] as? String }) == Set(Self.candidates().map { "candidates/" + $0 }))

        let accept = try run(["accept", "glyphaudit-out/snapshots"], in: dir)
        #expect(accept.status == 0, "\(accept.stderr)")
        #expect(accept.stdout.split(separator: "\n").count == 12 && accept.stdout.hasPrefix("accepted   t/square-md/AX5/default/checked@1x\n")
                && accept.stdout.hasSuffix("refreshed  t/square-md/L/default/unchecked@2x\n"),
                "\(accept.stdout)")
        let check = try run(["check", "--spec", "spec.json"], in: dir)
        // Passes, with nothing listed: accept wrote the manifest entries the CI check computed, of the
        // accepted candidates and of the 4 unchecked variants whose pixels the heavier tick did not
        // change (their inputs did), so none is a stale baseline.
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.isEmpty, "\(check.stdout)")
        #expect(accept.stderr.contains("4 manifest entries refreshed for variants whose inputs changed but whose pixels did not"), "\(accept.stderr)")
        #expect(check.stderr.contains("checked 12 variants: 12 match, 0 mismatch, 0 new, 0 stale"), "\(check.stderr)")
        #expect(!check.stderr.contains("renderer.json"), "the fingerprint is this renderer's: exact, no note")
    }

    @Test("run --shard under CI stages candidates per shard; merge-reports gathers them; accept on the merged folder makes check pass")
    func runShardsMergeAccept() throws {
        let dir = TempFolder()
        dir.write("t.json", Data(SmallSpec.json.utf8))
        dir.write("u.json", Data(SmallSpec.json.replacingOccurrences(of: "\"name\": \"t\"", with: "\"name\": \"u\"").utf8))
        let specs = ["--spec", "t.json", "--spec", "u.json"]
        try #require(try run(["check", "--record", "--quiet"] + specs, in: dir).status == 0)
        dir.write("t.json", Self.changed())
        dir.write("u.json", Self.changed(name: "u"))
        for i in 1...2 {
            let r = try run(["run", "--shard", "\(i)/2", "--fail-on", "never", "--report", "s\(i)"] + specs, in: dir, ci: "true")
            // --fail-on never: a shard exits 0 on snapshot failures too (its reports list them).
            #expect(r.status == 0, "\(r.stderr)")
        }
        let shardFiles = PNGFiles.list(under: dir.url.appendingPathComponent("s1/candidates"))
            + PNGFiles.list(under: dir.url.appendingPathComponent("s2/candidates"))
        #expect(shardFiles.sorted() == (Self.candidates("t") + Self.candidates("u")).sorted())
        let merged = try run(["merge-reports", "s1", "s2", "--report", "merged", "--fail-on", "error"], in: dir)
        #expect(merged.status == 1, "the 16 snapshot failures fail the merged run: \(merged.stderr)")
        #expect(PNGFiles.list(under: dir.url.appendingPathComponent("merged/candidates")) == (Self.candidates("t") + Self.candidates("u")).sorted())
        #expect(try Data(contentsOf: dir.url.appendingPathComponent("merged/candidates/renderer.json")) == RendererFingerprint.current.fileData())

        let accept = try run(["accept", "merged"], in: dir)
        #expect(accept.status == 0, "\(accept.stderr)")
        let check = try run(["check"] + specs, in: dir)
        // Passes with nothing listed: the shards' manifest entries (merged) were accepted with the pixels,
        // those of the unchanged unchecked variants too, so no baseline is stale.
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.isEmpty, "\(check.stdout)")
    }

    @Test("accept refuses (exit 2, nothing written) a changed input, a name leaving the folder, a link, an incomplete folder, mixed renderers")
    func refusals() throws {
        let dir = try recordedThenChanged()
        // --stage outside CI: the same candidates.
        let staged = try run(["check", "--spec", "spec.json", "--stage", "--out", "out"], in: dir)
        #expect(staged.status == 1, "\(staged.stderr)")
        let out = dir.url.appendingPathComponent("out")
        #expect(PNGFiles.list(under: out.appendingPathComponent("candidates")) == Self.candidates())
        let snapshots = dir.url.appendingPathComponent("snapshots")
        let before = contents(snapshots)
        #expect(before.count == 10, "8 baselines, renderer.json and manifest.json")

        func refused(_ args: [String], _ message: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
            let now = contents(snapshots)
            let r = try run(["accept"] + args, in: dir)
            #expect(r.status == 2, "\(args): \(r.stderr)", sourceLocation: sourceLocation)
            #expect(r.stderr.contains(message), "\(args): \(r.stderr)", sourceLocation: sourceLocation)
            #expect(r.stdout.isEmpty, sourceLocation: sourceLocation)
            #expect(contents(snapshots) == now, "\(args): the baselines were touched", sourceLocation: sourceLocation)
        }
        var copies = 0
        func copy(_ edit: (URL) throws -> Void) throws -> String {
            copies += 1
            let name = "copy\(copies)"
            try FileManager.default.copyItem(at: out, to: dir.url.appendingPathComponent(name))
            try edit(dir.url.appendingPathComponent(name))
            return name
        }
        let candidate = "candidates/t/square-md/L/default/checked@1x.png"

        // The spec changed since the report was made.
        dir.write("spec.json", Data(String(decoding: Self.changed(), as: UTF8.self).replacingOccurrences(of: "\"markWeight\": 3", with: "\"markWeight\": 2.5").utf8))
        try refused(["out"], "out/report.json: inputs: the inputs no longer match the checkout: spec.json changed (SHA-256 ")
        try FileManager.default.removeItem(at: dir.url.appendingPathComponent("spec.json"))
        try refused(["out"], "spec.json is missing")
        dir.write("spec.json", Self.changed())

        // Names that leave the folder, or are not their variant's candidate.
        try refused([try copy { try editReport($0, setFirstCandidate("candidates/../../snapshots/t/square-md/L/default/checked@1x.png")) }],
                    "leaves the report folder (a \"..\" segment)")
        try refused([try copy { try editReport($0, setFirstCandidate(dir.url.appendingPathComponent("out/\(candidate)").path)) }],
                    "is an absolute path")
        try refused([try copy { try editReport($0, setFirstCandidate("candidates/t/square-md/L/default/unchecked@1x.png")) }],
                    "is not the candidate of t/square-md/AX5/default/checked@1x")
        // A link, to a whole PNG outside the folder: not followed.
        try refused([try copy { c in
            let file = c.appendingPathComponent(candidate)
            try FileManager.default.removeItem(at: file)
            try FileManager.default.createSymbolicLink(at: file, withDestinationURL: out.appendingPathComponent(candidate))
        }], "symbolic link")
        try refused([try copy { c in
            let file = c.appendingPathComponent("report.json")
            try FileManager.default.moveItem(at: file, to: c.appendingPathComponent("elsewhere.json"))
            try FileManager.default.createSymbolicLink(at: file, withDestinationURL: c.appendingPathComponent("elsewhere.json"))
        }], "symbolic link")

        // Incomplete folders.
        try refused([try copy { try FileManager.default.removeItem(at: $0.appendingPathComponent(candidate)) }],
                    "snapshots.results[6].candidate: \"\(candidate)\" is missing: an incomplete report folder")
        try refused([try copy { try FileManager.default.removeItem(at: $0.appendingPathComponent("report.json")) }], "no report.json")
        try refused([try copy { try FileManager.default.removeItem(at: $0.appendingPathComponent("candidates/renderer.json")) }],
                    "their renderer.json is not there")
        try refused([try copy { c in try Data([0x89, 0x50, 0x4E, 0x47]).write(to: c.appendingPathComponent(candidate)) }], "not a whole PNG")

        // Another renderer's candidates, alone: accepted without rendering, and its fingerprint with them.
        let other = try copy { c in
            let file = c.appendingPathComponent("candidates/renderer.json")
            let text = String(decoding: try Data(contentsOf: file), as: UTF8.self)
            let cairo = try #require(RendererFingerprint.current.components["cairo"])
            try Data(text.replacingOccurrences(of: "\"cairo\" : \"\(cairo)\"", with: "\"cairo\" : \"0.0.1-elsewhere\"").utf8).write(to: file)
        }
        // Mixed with this renderer's: refused.
        try refused(["out", other], "these candidates were drawn by another renderer than those of ")
        try refused(["out", other], "cairo ")

        // Groups: none recorded; then one recorded, a typo, and the group itself.
        try refused(["out", "--group", "mark"], "snapshotGroups: this report records no snapshot groups")
        let grouped = try copy { c in
            try editReport(c) { doc in
                doc["snapshotGroups"] = [["id": "mark", "kind": "inputs", "cause": "sizes.md.markWeight 2 → 3", "count": 2,
                                           "variants": ["t/square-md/L/default/checked@2x", "t/square-md/AX5/default/checked@2x"]]]
            }
        }
        try refused([grouped, "--group", "mrak"], "no group \"mrak\"; did you mean \"mark\"?")
        let group = try run(["accept", grouped, "--group", "mark"], in: dir)
        #expect(group.status == 0, "\(group.stderr)")
        #expect(group.stdout == "accepted   t/square-md/AX5/default/checked@2x\naccepted   t/square-md/L/default/checked@2x\n")
        var expected = before
        for id in ["t/square-md/AX5/default/checked@2x", "t/square-md/L/default/checked@2x"] {
            expected["\(id).png"] = try Data(contentsOf: out.appendingPathComponent("candidates/\(id).png"))
        }
        // The manifest takes the accepted variants' entries as the CI check computed them (their new
        // digests), and keeps the rest as recorded.
        func manifestDigests(_ data: Data?) throws -> [String: String] {
            let object = try JSONSerialization.jsonObject(with: try #require(data)) as? [String: Any]
            return ((object?["variants"] as? [String: [String: Any]]) ?? [:]).compactMapValues { $0["digest"] as? String }
        }
        let recorded = try manifestDigests(before["manifest.json"])
        func changedEntries() throws -> [String] {
            let now = try manifestDigests(contents(snapshots)["manifest.json"])
            #expect(Set(now.keys) == Set(recorded.keys))
            return now.filter { recorded[$0.key] != $0.value }.keys.sorted()
        }
        #expect(try changedEntries() == ["t/square-md/AX5/default/checked@2x", "t/square-md/L/default/checked@2x"])
        expected["manifest.json"] = contents(snapshots)["manifest.json"]
        #expect(contents(snapshots) == expected)

        // --only: one variant.
        let only = try run(["accept", "out", "--only", "dynamic-type=L", "--only", "state=checked", "--only", "scale=1"], in: dir)
        #expect(only.status == 0 && only.stdout == "accepted   t/square-md/L/default/checked@1x\n", "\(only.stdout)\(only.stderr)")
        expected["t/square-md/L/default/checked@1x.png"] = try Data(contentsOf: out.appendingPathComponent(candidate))
        #expect(try changedEntries() == ["t/square-md/AX5/default/checked@2x", "t/square-md/L/default/checked@1x",
                                         "t/square-md/L/default/checked@2x"])
        expected["manifest.json"] = contents(snapshots)["manifest.json"]
        #expect(contents(snapshots) == expected)

        // The other renderer's candidates: accepted (nothing is drawn here), renderer.json is theirs.
        let elsewhere = try run(["accept", other], in: dir)
        #expect(elsewhere.status == 0, "\(elsewhere.stderr)")
        #expect(try Data(contentsOf: snapshots.appendingPathComponent("renderer.json"))
                == Data(contentsOf: dir.url.appendingPathComponent("\(other)/candidates/renderer.json")))
        #expect(PNGFiles.list(under: snapshots).count == 12)

        // --force accepts over a changed input, with a warning.
        dir.write("spec.json", Data(SmallSpec.json.utf8))
        try refused(["out"], "spec.json changed")
        let forced = try run(["accept", "out", "--force"], in: dir)
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(forced.stderr.contains("warning: ") && forced.stderr.contains("inputs changed since the report was made (--force): spec.json changed"),
                "\(forced.stderr)")
        #expect(try Data(contentsOf: snapshots.appendingPathComponent("renderer.json")) == RendererFingerprint.current.fileData())
    }

    @Test("a killed accept leaves each baseline absent or whole and equal to its candidate; accepting again then passes check")
    func killedAccept() throws {
        let dir = TempFolder()
        let preset = ["--preset", "swiftui-switch"]
        // No baselines: every variant is new, and staged.
        let staged = try run(["check", "--stage", "--quiet", "--out", "out"] + preset, in: dir)
        #expect(staged.status == 1)
        let candidates = dir.url.appendingPathComponent("out/candidates")
        let files = PNGFiles.list(under: candidates)
        #expect(files.count == 432, "216 and their focused twins")
        let snapshots = dir.url.appendingPathComponent("snapshots")
        var killedRunning = 0
        for threshold in [1, 50, 150] {
            let process = Process()
            process.executableURL = CLI.binary
            process.arguments = ["accept", "out", "--quiet"]
            process.currentDirectoryURL = dir.url
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            while process.isRunning {
                let temporaries = (FileManager.default.enumerator(atPath: snapshots.path)?.allObjects as? [String] ?? [])
                    .count { $0.contains(".tmp-\(process.processIdentifier)-") }
                if temporaries >= threshold { break }
                usleep(500)
            }
            if process.isRunning { killedRunning += 1 }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            for file in PNGFiles.list(under: snapshots) {
                #expect(try Data(contentsOf: snapshots.appendingPathComponent(file)) == Data(contentsOf: candidates.appendingPathComponent(file)),
                        "\(file) is not its candidate")
            }
        }
        #expect(killedRunning > 0, "every accept finished before it could be killed")
        let accept = try run(["accept", "out", "--quiet"], in: dir)
        #expect(accept.status == 0, "\(accept.stderr)")
        let check = try run(["check"] + preset, in: dir)
        #expect(check.status == 0 && check.stdout.isEmpty, "\(check.stdout.prefix(300))")
    }

    @Test("accept: usage errors exit 64; a report without candidates accepts nothing (exit 0)")
    func usage() throws {
        let dir = TempFolder()
        #expect(try run(["accept"], in: dir).status == 64)
        #expect(try run(["accept", "x", "--only", "colour=red"], in: dir).status == 64)
        #expect(try run(["accept", "x", "--group"], in: dir).status == 64)
        #expect(try run(["accept", "x"], in: dir).status == 2)
        let r = try run(["run", "--preset", "swiftui-switch", "--only", "scale=1", "--formats", "json", "--report", "rep", "--fail-on", "never"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let none = try run(["accept", "rep"], in: dir)
        #expect(none.status == 0 && none.stderr.contains("nothing to accept"), "\(none.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.url.appendingPathComponent("snapshots").path))
    }
}
