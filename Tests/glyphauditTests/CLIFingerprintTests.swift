import Foundation
import Testing
import GlyphCore
import GlyphPipeline
import GlyphRaster
import GlyphRender
import GlyphSnapshot
import GlyphTestSupport

// Issue 11, the snapshot parts, as the built binary does them: baselines fingerprinted with their
// renderer (exact comparison when it is this one), missing baselines under CI, and the shorter
// listings of check and run. Every child gets CI from the test, never from the environment the
// tests run in (CI runs them with CI=true).

@Suite("glyphaudit: renderer-fingerprinted baselines and missing baselines under CI (the binary)", .serialized)
struct CLIFingerprintTests {
    static let small = SmallSpec.json

    func run(_ args: [String], in dir: TempFolder, ci: String? = nil) throws -> CLI.Result {
        var env = ["NO_COLOR": "1", "GITHUB_ACTIONS": ""]
        if let ci { env["CI"] = ci }
        return try CLI.run(args, in: dir.url, environment: env)
    }

    func json(_ r: CLI.Result) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], "\(r.stdout.prefix(500))")
    }

    /// The ids of the results with `status`.
    func ids(_ doc: [String: Any], _ status: String) -> Set<String> {
        Set(((doc["results"] as? [[String: Any]]) ?? []).filter { $0["status"] as? String == status }.compactMap { $0["id"] as? String })
    }

    // MARK: 1. Fingerprinted baselines

    @Test("acceptance: sm.markWeight 1.5 → 2.25 fails every changed variant (48) with --max-diff-pixels 10; unchanged passes; a forged fingerprint compares with tolerance and says why")
    func markWeightChange() throws {
        let dir = TempFolder()
        let show = try run(["presets", "show", "design-system-checkbox", "--out", "spec"], in: dir)
        #expect(show.status == 0, "\(show.stderr)")
        let specFile = dir.url.appendingPathComponent("spec/design-system-checkbox.json")
        let selection = ["--spec", "spec/design-system-checkbox.json", "--only", "dynamic-type=L,AX5", "--snapshots", "snap"]
        let record = try run(["check", "--record"] + selection, in: dir)
        #expect(record.status == 0, "\(record.stderr)")
        let snap = dir.url.appendingPathComponent("snap")
        #expect(try RendererFingerprint.read(in: snap) == .found(.current))

        // Unchanged: passes, compared exactly, every pixel the same.
        let same = try run(["check", "--max-diff-pixels", "10", "--json"] + selection, in: dir)
        #expect(same.status == 0, "\(same.stderr)")
        let sameDoc = try json(same)
        #expect(sameDoc["exact"] as? Bool == true)
        #expect(sameDoc["comparisonNotes"] == nil)
        let sameSummary = try #require(sameDoc["summary"] as? [String: Any])
        #expect(sameSummary["match"] as? Int == 192 && sameSummary["withinTolerance"] as? Int == 0, "\(sameSummary)")

        // The edit, as JSON.
        var spec = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: specFile)) as? [String: Any])
        var sizes = try #require(spec["sizes"] as? [String: Any])
        var sm = try #require(sizes["sm"] as? [String: Any])
        #expect(sm["markWeight"] as? Double == 1.5)
        sm["markWeight"] = 2.25
        sizes["sm"] = sm
        spec["sizes"] = sizes
        try JSONSerialization.data(withJSONObject: spec, options: [.prettyPrinted, .sortedKeys]).write(to: specFile)

        // The variants whose pixels the edit changed: rendered here and compared with the baselines.
        var filter = VariantFilter()
        try filter.add("dynamic-type=L,AX5")
        let plan = try Plan(specs: [try Spec.load(contentsOf: specFile)], filter: filter)
        #expect(plan.items.count == 192)
        var changed: [String: Raster] = [:]
        var baselines: [String: Raster] = [:]
        for item in plan.items {
            let baseline = try Raster(contentsOfPNG: snap.appendingPathComponent(item.variant.fileName("png")))
            let render = Renderer.raster(item.layout, spec: item.spec)
            if !ImageComparator.samePixels(baseline, render) {
                changed[item.variant.id] = render
                baselines[item.variant.id] = baseline
            }
        }
        #expect(changed.count == 48)
        #expect(changed.keys.allSatisfy { $0.split(separator: "/")[1].hasSuffix("-sm") }, "only the sm size changed: \(changed.keys.sorted())")

        // Same renderer: every changed variant fails, all 48 of them.
        let exact = try run(["check", "--max-diff-pixels", "10", "--json"] + selection, in: dir)
        #expect(exact.status == 1, "\(exact.stderr)")
        let exactDoc = try json(exact)
        #expect(exactDoc["exact"] as? Bool == true)
        #expect(ids(exactDoc, "mismatch") == Set(changed.keys))
        #expect(ids(exactDoc, "match").count == 144)

        // A forged fingerprint (one version edited): pixelmatch's tolerances, and the component named.
        let fingerprint = snap.appendingPathComponent("renderer.json")
        let original = try String(contentsOf: fingerprint, encoding: .utf8)
        let cairo = "\"cairo\" : \"\(RendererVersions.cairo)\""
        #expect(original.contains(cairo))
        try original.replacingOccurrences(of: cairo, with: "\"cairo\" : \"0.9.0\"").write(to: fingerprint, atomically: true, encoding: .utf8)
        let forged = try run(["check", "--max-diff-pixels", "10", "--json"] + selection, in: dir)
        #expect(forged.stderr.hasPrefix("cairo 0.9.0 → \(RendererVersions.cairo): comparing with anti-aliasing tolerance\n"), "\(forged.stderr)")
        let forgedDoc = try json(forged)
        #expect(forgedDoc["exact"] as? Bool == false)
        // The reference: pixelmatch with its default tolerances (ported from v6.0.0 and held to its fixtures).
        let tolerantFailures = Set(changed.filter { id, render in
            ImageComparator.compare(expected: baselines[id]!, actual: render).difference.mismatchedPixels > 10
        }.keys)
        #expect(ids(forgedDoc, "mismatch") == tolerantFailures)
        #expect(tolerantFailures.count < 48, "anti-aliasing tolerance lets some of the changed variants pass")
        #expect(forged.status == (tolerantFailures.isEmpty ? 0 : 1))
        // check does not rewrite a fingerprint unasked.
        #expect(try String(contentsOf: fingerprint, encoding: .utf8).contains("\"cairo\" : \"0.9.0\""))

        // No fingerprint at all (baselines recorded before this change): the same, and the file named.
        try FileManager.default.removeItem(at: fingerprint)
        let missing = try run(["check", "--max-diff-pixels", "10"] + selection, in: dir)
        #expect(missing.stderr.hasPrefix("snap/renderer.json missing: comparing with anti-aliasing tolerance"), "\(missing.stderr)")
        #expect(missing.stdout.split(separator: "\n").filter { $0.hasPrefix("mismatch ") }.count == tolerantFailures.count)

        // --update rebases the folder: every changed baseline rewritten, the fingerprint written, then exact and clean.
        let update = try run(["check", "--update"] + selection, in: dir)
        #expect(update.status == 0, "\(update.stderr)")
        // The cause first (the folder's manifest names the key), then the paragraph of writes.
        #expect(update.stdout.hasPrefix("changes by cause ("), "\(update.stdout)")
        #expect(update.stdout.contains("48 variants: sizes.sm.markWeight 1.5 → 2.25"), "\(update.stdout)")
        #expect(update.stdout.hasSuffix("snap: 48 baselines written (0 recorded, 48 updated), 144 unchanged, 0 stale removed; "
                + "snap/renderer.json written; snap/manifest.json written (--verbose lists every file).\n"), "\(update.stdout)")
        #expect(try RendererFingerprint.read(in: snap) == .found(.current))
        let clean = try run(["check", "--json"] + selection, in: dir)
        #expect(clean.status == 0)
        #expect(try json(clean)["exact"] as? Bool == true)
    }

    @Test("an unreadable renderer.json is bad input: exit 2 naming the file, nothing rendered or written")
    func unreadableFingerprint() throws {
        let dir = TempFolder()
        dir.write("spec.json", Self.small)
        dir.write("snapshots/renderer.json", "{\"format\": 1, \"components\": {\"cairo\": 1}}")
        for extra in [[], ["--record"], ["--update"]] {
            let r = try run(["check", "--spec", "spec.json"] + extra, in: dir)
            #expect(r.status == 2, "\(r.stderr)")
            #expect(r.stderr == "glyphaudit: \(dir.url.path)/snapshots/renderer.json: components.cairo: must be a string (a version)\n")
            #expect(dir.files("snapshots") == ["renderer.json"], "nothing written")
        }
        let ran = try run(["run", "--spec", "spec.json", "--formats", "json", "--report", "r"], in: dir)
        #expect(ran.status == 2 && ran.stderr.contains("snapshots/renderer.json: components.cairo"), "\(ran.stderr)")
        #expect(dir.files("r").isEmpty, "no report written")
    }

    // MARK: 3. Shorter listings

    @Test("check --record prints one paragraph (--verbose: every file); a listing stops at 20 lines and counts the rest")
    func recordParagraphAndCap() throws {
        let dir = TempFolder()
        dir.write("spec.json", Self.small)
        let verbose = try run(["check", "--spec", "spec.json", "--record", "--verbose"], in: dir)
        #expect(verbose.status == 0)
        let lines = verbose.stdout.split(separator: "\n")
        #expect(lines.count == 8 && lines.allSatisfy { $0.hasPrefix("recorded   t/square-md/") }, "\(verbose.stdout)")
        let again = try run(["check", "--spec", "spec.json", "--record"], in: dir)
        #expect(again.stdout == "snapshots: 0 baselines written (0 recorded, 0 updated), 8 unchanged, 0 stale removed.\n", "\(again.stdout)")

        // 432 new variants of the switch (216 and their focused twins): 20 lines and a count; --verbose lists all.
        let capped = try run(["check", "--preset", "swiftui-switch", "--snapshots", "switch"], in: dir)
        #expect(capped.status == 1)
        let cappedLines = capped.stdout.split(separator: "\n").map(String.init)
        #expect(cappedLines.count == 21, "\(cappedLines.count)")
        #expect(cappedLines.prefix(20).allSatisfy { $0.hasPrefix("new        swiftui-switch/") })
        #expect(cappedLines.last == "… and 412 more (--verbose lists them all, --json gives every result)")
        let all = try run(["check", "--preset", "swiftui-switch", "--snapshots", "switch", "--verbose"], in: dir)
        #expect(all.stdout.split(separator: "\n").count == 432)
    }

    // MARK: 2. Missing baselines under CI

    @Test("CI=true run with no baselines at all: exit 1 (0 at --fail-on never), the renders in the report folder; without CI not checked")
    func runUnderCI() throws {
        let dir = TempFolder()
        let variants = try Presets.load("swiftui-switch").variants().map { $0.fileName("png") }.sorted()
        #expect(variants.count == 2 * 216, "216 and their focused twins")

        // --fail-on never: nothing found fails the run, missing baselines neither (a CI matrix's shards finish).
        let ci = try run(["run", "--preset", "swiftui-switch", "--fail-on", "never"], in: dir, ci: "true")
        #expect(ci.status == 0, "\(ci.stderr)")
        #expect(ci.stdout.contains("— passed (fails on never)"), "\(ci.stdout)")
        let newSnapshots = dir.url.appendingPathComponent("glyphaudit-out/new-snapshots")
        #expect(PNGFiles.list(under: newSnapshots) == variants)
        #expect(try Data(contentsOf: newSnapshots.appendingPathComponent("renderer.json")) == RendererFingerprint.current.fileData())
        #expect(ci.stderr.contains("glyphaudit: 432 baselines missing: record them with `glyphaudit check --record --preset swiftui-switch` "
                                   + "(or run --record), or copy glyphaudit-out/new-snapshots/ into snapshots/ (renderer.json included) "
                                   + "and commit them\n"), "\(ci.stderr)")
        #expect(!ci.stderr.contains("snapshots not checked"))
        #expect(ci.stdout.contains("  snapshots (snapshots): 0 match, 0 changed, 432 new, 0 stale\n"), "\(ci.stdout)")
        // The listing of failures stops at 20 lines.
        #expect(ci.stdout.split(separator: "\n").filter { $0.hasPrefix("    new: swiftui-switch/") }.count == 20)
        #expect(ci.stdout.contains("    … and 412 more (see glyphaudit-out/index.html)\n"), "\(ci.stdout)")
        #expect(!FileManager.default.fileExists(atPath: dir.url.appendingPathComponent("snapshots").path), "the baselines are not written")

        // Without CI (unset, empty, false, 0): not checked, exit 0, no renders left.
        for value in [nil, "", "false", "0"] as [String?] {
            let r = try run(["run", "--preset", "swiftui-switch", "--fail-on", "never", "--formats", "json", "--only", "scale=2",
                             "--report", "plain"], in: dir, ci: value)
            #expect(r.status == 0, "CI=\(value ?? "(unset)"): \(r.stderr)")
            #expect(r.stdout.contains("  snapshots: not checked\n"))
            #expect(!FileManager.default.fileExists(atPath: dir.url.appendingPathComponent("plain/new-snapshots").path))
        }
        // --ci, and CI=1: under CI.
        for (value, extra) in [(nil, ["--ci"]), ("1", [])] as [(String?, [String])] {
            let r = try run(["run", "--preset", "swiftui-switch", "--fail-on", "warning", "--formats", "json", "--only", "scale=2",
                             "--report", "ci"] + extra, in: dir, ci: value)
            #expect(r.status == 1, "\(extra) CI=\(value ?? "(unset)"): \(r.stderr)")
            #expect(PNGFiles.list(under: dir.url.appendingPathComponent("ci/new-snapshots")).count == 144, "72 and their focused twins")
        }

        // Copied over the snapshot folder, the renders are the baselines: clean, compared exactly.
        try FileManager.default.copyItem(at: newSnapshots, to: dir.url.appendingPathComponent("snapshots"))
        let copied = try run(["run", "--preset", "swiftui-switch", "--fail-on", "never", "--formats", "json", "--report", "after"],
                             in: dir, ci: "true")
        #expect(copied.status == 0, "\(copied.stderr)")
        #expect(copied.stdout.contains("  snapshots (snapshots): 432 match, 0 changed, 0 new, 0 stale\n"), "\(copied.stdout)")
        #expect(!copied.stderr.contains("renderer.json"), "the fingerprint came along: exact, no note")
        #expect(!FileManager.default.fileExists(atPath: dir.url.appendingPathComponent("after/new-snapshots").path))
    }

    @Test("check under CI: the renders of missing baselines go to <out>/new-snapshots/ with renderer.json, and the fix is named")
    func checkUnderCI() throws {
        let dir = TempFolder()
        dir.write("spec.json", Self.small)
        let plain = try run(["check", "--spec", "spec.json"], in: dir)
        #expect(plain.status == 1, "a new variant fails check outside CI too")
        #expect(!FileManager.default.fileExists(atPath: dir.url.appendingPathComponent("glyphaudit-out").path))

        let ci = try run(["check", "--spec", "spec.json"], in: dir, ci: "true")
        #expect(ci.status == 1)
        let folder = dir.url.appendingPathComponent("glyphaudit-out/snapshots/new-snapshots")
        let expected = ["AX5", "L"].flatMap { dt in ["checked", "unchecked"].flatMap { s in [1, 2].map { "t/square-md/\(dt)/default/\(s)@\($0)x.png" } } }
        #expect(PNGFiles.list(under: folder) == expected.sorted())
        #expect(try RendererFingerprint.read(in: folder) == .found(.current))
        #expect(ci.stderr.contains("glyphaudit: 8 baselines missing: record them with `glyphaudit check --record --spec spec.json` "
                                   + "(or run --record), or copy glyphaudit-out/snapshots/new-snapshots/ into snapshots/ "
                                   + "(renderer.json included) and commit them\n"), "\(ci.stderr)")
        #expect(ci.stdout.contains("new        t/square-md/L/default/checked@1x  no baseline at snapshots/t/square-md/L/default/checked@1x.png "
                                   + "(--record writes it); render: glyphaudit-out/snapshots/new-snapshots/t/square-md/L/default/checked@1x.png"),
                "\(ci.stdout)")
        // With --record under CI they are recorded, and nothing fails.
        let recorded = try run(["check", "--spec", "spec.json", "--record", "--out", "o2"], in: dir, ci: "true")
        #expect(recorded.status == 0)
        #expect(!FileManager.default.fileExists(atPath: dir.url.appendingPathComponent("o2").path))
    }
}
