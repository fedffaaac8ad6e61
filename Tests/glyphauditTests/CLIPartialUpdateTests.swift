import Foundation
import Testing
import GlyphTestSupport

// Changes by cause after a partial write (issue 22, item 3): `check --update --only …` and `--record`
// rewrite the manifest's keys table, but a key keeps its recorded value while a variant left as it
// was still needs it, so the next `check` names that variant's cause.

@Suite("glyphaudit check --update --only keeps the keys the variants left need (the binary)", .serialized)
struct CLIPartialUpdateTests {
    func run(_ args: [String], in dir: TempFolder, ci: Bool = false) throws -> CLI.Result {
        var env = ["NO_COLOR": "1", "GITHUB_ACTIONS": ""]
        if ci { env["CI"] = "true" }
        return try CLI.run(args, in: dir.url, environment: env)
    }

    /// The snapshotGroups of check --json: kind, cause, the changes (key, before, after) and variants.
    func groups(_ r: CLI.Result) throws -> [(kind: String, cause: String, changes: [[String]], variants: [String])] {
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], "\(r.stdout)\(r.stderr)")
        let list = doc["snapshotGroups"] as? [[String: Any]] ?? []
        return list.map { g in
            let changes = (g["changes"] as? [[String: Any]] ?? []).map { c in
                [c["key"] as? String ?? "", c["before"] as? String ?? "(unset)", c["after"] as? String ?? "(unset)"]
            }
            return (g["kind"] as? String ?? "", g["cause"] as? String ?? "", changes, g["variants"] as? [String] ?? [])
        }
    }

    /// The `keys` the manifest records for preset `r`.
    func keys(_ dir: TempFolder) throws -> [String: String] {
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: dir.url.appendingPathComponent("snapshots/manifest.json")))
                               as? [String: Any])
        return try #require((doc["keys"] as? [String: Any])?["r"] as? [String: String])
    }

    /// Every file of the snapshot folder with its bytes (the lock file, when one is left, aside).
    func files(_ dir: TempFolder) throws -> [String: Data] {
        let root = dir.url.appendingPathComponent("snapshots")
        var out: [String: Data] = [:]
        for case let url as URL in FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) ?? .init() {
            let relative = String(url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1))
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir), !isDir.boolValue,
                  relative != ".glyphaudit.lock" else { continue }
            out[relative] = try Data(contentsOf: url)
        }
        return out
    }

    static func ids(_ size: String, _ state: String) -> [String] { ["r/square-\(size)/L/default/\(state)@1x", "r/square-\(size)/L/default/\(state)@2x"] }

    /// The spec of CLIReviewTests (sm, md, lg) written into `dir` and its baselines recorded.
    func recordStart(in dir: TempFolder) throws {
        dir.write("spec.json", CLIReviewTests.spec())
        let record = try run(["check", "--spec", "spec.json", "--record", "--quiet"], in: dir)
        try #require(record.status == 0, "\(record.stderr)")
    }

    /// `check` in `dir` gives md's checked variants one group whose cause is md's markWeight 2 → 3.
    func expectMarkWeightCause(in dir: TempFolder) throws {
        let check = try run(["check", "--spec", "spec.json", "--json", "--quiet"], in: dir)
        let g = try groups(check).first { $0.kind == "inputs" }
        #expect(g?.cause == "sizes.md.markWeight 2 → 3", "\(check.stdout)")
        #expect(g?.variants == Self.ids("md", "checked"))
    }

    @Test("markWeight of sm 1.5 → 2 and md 2 → 3; check --update --only size=sm; check names md's cause `sizes.md.markWeight 2 → 3`; check --update --only size=md,lg leaves the snapshot folder byte for byte what one check --update leaves")
    func partialUpdateKeepsTheCause() throws {
        // CLIReviewTests.spec: sm, md, lg with markWeight 1.5, 2, 2.5; unchecked and checked at @1x and @2x.
        let start = TempFolder()
        try recordStart(in: start)
        #expect(try keys(start)["sizes.md.markWeight"] == "2" && keys(start)["sizes.sm.markWeight"] == "1.5")
        // Two copies of the same start: one updated in two parts, one in one.
        let parts = TempFolder(), whole = TempFolder()
        for dir in [parts, whole] {
            try FileManager.default.copyItem(at: start.url.appendingPathComponent("snapshots"), to: dir.url.appendingPathComponent("snapshots"))
            dir.write("spec.json", CLIReviewTests.spec(sm: "2", md: "3"))
        }

        let first = try run(["check", "--spec", "spec.json", "--update", "--only", "size=sm", "--quiet"], in: parts)
        #expect(first.status == 0, "\(first.stderr)")
        // sm's key is its new value (every sm variant was rewritten); md's keeps 2 (md's entries were written with it).
        let table = try keys(parts)
        #expect(table["sizes.sm.markWeight"] == "2", "\(table)")
        #expect(table["sizes.md.markWeight"] == "2", "\(table)")
        #expect(table["sizes.lg.markWeight"] == "2.5", "\(table)")

        // The next check: md's checked variants changed, its unchecked ones are stale; both name the key
        // with the values the spec had and has. Nothing of sm or lg.
        let check = try run(["check", "--spec", "spec.json", "--json", "--quiet"], in: parts)
        #expect(check.status == 1, "\(check.stderr)")
        let found = try groups(check)
        #expect(found.count == 2, "\(found)")
        for (kind, state) in [("inputs", "checked"), ("stale", "unchecked")] {
            let g = found.first { $0.kind == kind }
            #expect(g?.cause == "sizes.md.markWeight 2 → 3", "\(found)")
            #expect(g?.changes == [["sizes.md.markWeight", "2", "3"]], "\(found)")
            #expect(g?.variants == Self.ids("md", state), "\(found)")
        }
        let text = try run(["check", "--spec", "spec.json"], in: parts)
        #expect(text.stdout.contains("2 variants: sizes.md.markWeight 2 → 3"), "\(text.stdout)")
        #expect(!text.stdout.contains("keys changed"), "\(text.stdout)")

        // The rest, then the whole in one: the same files, the manifest byte for byte.
        let rest = try run(["check", "--spec", "spec.json", "--update", "--only", "size=md,lg", "--quiet"], in: parts)
        #expect(rest.status == 0, "\(rest.stderr)")
        let once = try run(["check", "--spec", "spec.json", "--update", "--quiet"], in: whole)
        #expect(once.status == 0, "\(once.stderr)")
        let (a, b) = (try files(parts), try files(whole))
        #expect(a["manifest.json"] != nil && a["manifest.json"] == b["manifest.json"],
                "\(String(decoding: a["manifest.json"] ?? Data(), as: UTF8.self))\n---\n\(String(decoding: b["manifest.json"] ?? Data(), as: UTF8.self))")
        #expect(a.keys.sorted() == b.keys.sorted() && a == b, "\(a.keys.sorted()) \(b.keys.sorted())")
        #expect(try keys(parts)["sizes.md.markWeight"] == "3")
        let clean = try run(["check", "--spec", "spec.json", "--json", "--quiet"], in: parts)
        #expect(clean.status == 0, "\(clean.stderr)")
        #expect(try groups(clean).isEmpty)
    }

    @Test("--record leaves a changed baseline (and its entry) alone: md's markWeight keeps its recorded value, and check names md's cause")
    func recordKeepsTheCause() throws {
        let dir = TempFolder()
        try recordStart(in: dir)
        dir.write("spec.json", CLIReviewTests.spec(md: "3"))
        // --record writes no changed baseline: md's checked variants fail (exit 1), their entries stay.
        let again = try run(["check", "--spec", "spec.json", "--record", "--quiet"], in: dir)
        #expect(again.status == 1, "\(again.stderr)")
        #expect(try keys(dir)["sizes.md.markWeight"] == "2")
        try expectMarkWeightCause(in: dir)
    }

    @Test("accept --only size=sm of a CI run's candidates, then accept --only size=md,lg: between them check names md's cause; after them the snapshot folder is byte for byte what check --update leaves")
    func partialAcceptKeepsTheCause() throws {
        let parts = TempFolder(), whole = TempFolder()
        for dir in [parts, whole] {
            try recordStart(in: dir)
            dir.write("spec.json", CLIReviewTests.spec(sm: "2", md: "3"))
        }
        let ci = try run(["run", "--spec", "spec.json", "--report", "out", "--fail-on", "never"], in: parts, ci: true)
        #expect(ci.status == 0, "\(ci.stderr)")
        let first = try run(["accept", "out", "--only", "size=sm", "--quiet"], in: parts)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try keys(parts)["sizes.md.markWeight"] == "2" && keys(parts)["sizes.sm.markWeight"] == "2")
        let check = try run(["check", "--spec", "spec.json", "--json", "--quiet"], in: parts)
        #expect(check.status == 1, "\(check.stderr)")
        let found = try groups(check)
        #expect(found.map(\.cause) == ["sizes.md.markWeight 2 → 3", "sizes.md.markWeight 2 → 3"], "\(found)")
        #expect(Set(found.map(\.kind)) == ["inputs", "stale"], "\(found)")

        let rest = try run(["accept", "out", "--only", "size=md,lg", "--quiet"], in: parts)
        #expect(rest.status == 0, "\(rest.stderr)")
        let once = try run(["check", "--spec", "spec.json", "--update", "--quiet"], in: whole)
        #expect(once.status == 0, "\(once.stderr)")
        let (a, b) = (try files(parts), try files(whole))
        #expect(a["manifest.json"] != nil && a["manifest.json"] == b["manifest.json"],
                "\(String(decoding: a["manifest.json"] ?? Data(), as: UTF8.self))\n---\n\(String(decoding: b["manifest.json"] ?? Data(), as: UTF8.self))")
        #expect(a.keys.sorted() == b.keys.sorted() && a == b, "\(a.keys.sorted()) \(b.keys.sorted())")
    }

    @Test("a theme colour feeds every size: after check --update --only size=sm the mark's old colour stays for md and lg, check names it for their checked (changed) and unchecked (stale) variants; after the rest the table holds the new one")
    func sharedKeyPartialUpdate() throws {
        let dir = TempFolder()
        try recordStart(in: dir)
        // The tick white → black (#FFFFFF → #000000): every checked variant changes.
        let text = String(decoding: CLIReviewTests.spec(), as: UTF8.self)
        dir.write("spec.json", Data(text.replacingOccurrences(of: "\"mark\": \"#FFFFFF\"", with: "\"mark\": \"#000000\"").utf8))
        let first = try run(["check", "--spec", "spec.json", "--update", "--only", "size=sm", "--quiet"], in: dir)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try keys(dir)["themes.default.mark"] == "#FFFFFF")
        let check = try run(["check", "--spec", "spec.json", "--json", "--quiet"], in: dir)
        #expect(check.status == 1, "\(check.stderr)")
        let found = try groups(check)
        // The checked variants changed; the unchecked ones (fed by the theme's keys too, their pixels
        // the same) are stale: both name the colour, in plan order (md, then lg).
        #expect(found.count == 2, "\(found)")
        for (kind, state) in [("inputs", "checked"), ("stale", "unchecked")] {
            let g = found.first { $0.kind == kind }
            #expect(g?.cause == "themes.default.mark #FFFFFF → #000000", "\(found)")
            #expect(g?.variants == Self.ids("md", state) + Self.ids("lg", state), "\(found)")
        }
        let rest = try run(["check", "--spec", "spec.json", "--update", "--only", "size=md,lg", "--quiet"], in: dir)
        #expect(rest.status == 0, "\(rest.stderr)")
        #expect(try keys(dir)["themes.default.mark"] == "#000000")
    }

    @Test("run --update --only size=sm (the CI entry point, which audits too) keeps md's recorded markWeight: check names md's cause")
    func runPartialUpdate() throws {
        let dir = TempFolder()
        dir.write("spec.json", CLIReviewTests.spec())
        let record = try run(["run", "--spec", "spec.json", "--snapshots", "snapshots", "--record", "--report", "r0", "--fail-on", "never", "--quiet"], in: dir)
        try #require(record.status == 0, "\(record.stderr)")
        dir.write("spec.json", CLIReviewTests.spec(sm: "2", md: "3"))
        let first = try run(["run", "--spec", "spec.json", "--update", "--only", "size=sm", "--report", "r1", "--fail-on", "never", "--quiet"], in: dir)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try keys(dir)["sizes.md.markWeight"] == "2" && keys(dir)["sizes.sm.markWeight"] == "2")
        try expectMarkWeightCause(in: dir)
    }

    @Test("a size removed (lg) while md's markWeight changes: check --update --only size=sm keeps md's key, drops lg's (its baselines are stale, never compared); --update --prune of the rest leaves what one --update --prune leaves")
    func removedSizeAndPrune() throws {
        // The spec without lg, md's markWeight 3.
        let text = String(decoding: CLIReviewTests.spec(md: "3"), as: UTF8.self)
            .replacingOccurrences(of: "\"markWeight\": 3 },\n", with: "\"markWeight\": 3 }\n")
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.contains("\"lg\"") }
        let without = Data(lines.joined(separator: "\n").utf8)
        #expect(!lines.joined().contains("lg") && lines.joined().contains("\"markWeight\": 3 }"))
        let parts = TempFolder(), whole = TempFolder()
        for dir in [parts, whole] {
            try recordStart(in: dir)
            dir.write("spec.json", without)
        }
        let first = try run(["check", "--spec", "spec.json", "--update", "--only", "size=sm", "--quiet"], in: parts)
        #expect(first.status == 0, "\(first.stderr)")
        let table = try keys(parts)
        #expect(table["sizes.md.markWeight"] == "2" && table["sizes.lg.markWeight"] == nil, "\(table)")
        let check = try run(["check", "--spec", "spec.json", "--json", "--quiet"], in: parts)
        let g = try groups(check).first { $0.kind == "inputs" }
        #expect(g?.cause == "sizes.md.markWeight 2 → 3", "\(check.stdout)")

        let rest = try run(["check", "--spec", "spec.json", "--update", "--prune", "--quiet"], in: parts)
        #expect(rest.status == 0, "\(rest.stderr)")
        let once = try run(["check", "--spec", "spec.json", "--update", "--prune", "--quiet"], in: whole)
        #expect(once.status == 0, "\(once.stderr)")
        let (a, b) = (try files(parts), try files(whole))
        #expect(a["manifest.json"] != nil && a["manifest.json"] == b["manifest.json"])
        #expect(a == b && !a.keys.contains { $0.contains("square-lg") }, "\(a.keys.sorted())")
    }
}
