import Foundation
import Testing
import GlyphCore
import GlyphSnapshot
import GlyphTestSupport

// Audit margins in `check` (issue 22, item 4): the numbers kept in the manifest, compared by check.

@Suite("glyphaudit check reports audit margins (the binary)", .serialized)
struct CLIMarginTests {
    func run(_ args: [String], in dir: TempFolder, ci: String? = nil) throws -> CLI.Result {
        var env = ["NO_COLOR": "1", "GITHUB_ACTIONS": ""]
        if let ci { env["CI"] = ci }
        return try CLI.run(args, in: dir.url, environment: env)
    }

    /// SmallSpec with a black fill and the tick in `mark` (a grey), so the tick's ratio on the fill is
    /// the grey's against black.
    static func spec(mark: String, hit: Int? = nil) -> Data {
        var text = SmallSpec.json.replacingOccurrences(of: "\"fill\": \"#E00800\", \"mark\": \"#FFFFFF\"",
                                                       with: "\"fill\": \"#000000\", \"mark\": \"\(mark)\"")
        if let hit {
            text = text.replacingOccurrences(of: #""scales": [1, 2],"#, with: #""scales": [1, 2], "hitArea": { "width": \#(hit), "height": \#(hit) },"#)
        }
        return Data(text.utf8)
    }

    /// WCAG 2.2's relative luminance of an sRGB hex colour, from the definition.
    static func luminance(_ hex: String) -> Double {
        let v = Int(hex.dropFirst(), radix: 16)!
        func channel(_ byte: Int) -> Double {
            let c = Double(byte) / 255
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * channel(v >> 16 & 0xFF) + 0.7152 * channel(v >> 8 & 0xFF) + 0.0722 * channel(v & 0xFF)
    }

    static func wcag(_ a: String, _ b: String) -> Double {
        let (x, y) = (luminance(a), luminance(b))
        return (max(x, y) + 0.05) / (min(x, y) + 0.05)
    }

    /// The `margins` of check --json.
    func losses(_ r: CLI.Result) throws -> [[String: Any]] {
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], "\(r.stdout)\(r.stderr)")
        return doc["margins"] as? [[String: Any]] ?? []
    }

    static let checked = ["L", "AX5"].flatMap { dt in [1, 2].map { "t/square-md/\(dt)/default/checked@\($0)x" } }.sorted()

    @Test("a tick whose contrast falls from 7:1 to 4:1 (still a pass): check reports the loss with both numbers; check --update accepts it and reports it; then nothing")
    func contrastLoss() throws {
        // #959595 on black: luminance 0.3005, (0.3505) / (0.05) = 7.01:1; #6B6B6B: 0.1470, 3.94:1.
        let before = Self.wcag("#959595", "#000000"), after = Self.wcag("#6B6B6B", "#000000")
        #expect(before > 7 && before < 7.02 && after > 3.9 && after < 4 && after > 3, "both pass 3:1")
        let dir = TempFolder()
        dir.write("spec.json", Self.spec(mark: "#959595"))
        let record = try run(["check", "--spec", "spec.json", "--record", "--quiet"], in: dir)
        try #require(record.status == 0, "\(record.stderr)")
        let manifest = try #require(try SnapshotManifest.read(in: dir.url.appendingPathComponent("snapshots")))
        #expect(abs((manifest.variants[Self.checked[0]]?.margins?["contrast.tick on fill"] ?? 0) - before) < 1e-9)

        dir.write("spec.json", Self.spec(mark: "#6B6B6B"))
        func expectLoss(_ r: CLI.Result, _ what: String) throws {
            let found = try losses(r)
            // One finding for the component: the 4 checked variants (L and AX5, @1x and @2x) folded.
            #expect(found.compactMap { $0["id"] as? String } == ["t/square-md/*/default/checked@*x"], "\(what): \(r.stdout)")
            #expect(found.compactMap { $0["variants"] as? Int } == [Self.checked.count], "\(what): the 4 checked variants")
            for f in found {
                #expect(f["name"] as? String == "contrast.tick on fill" && f["severity"] as? String == "warning", "\(what)")
                #expect(abs((f["before"] as? Double ?? 0) - before) < 1e-9 && abs((f["after"] as? Double ?? 0) - after) < 1e-9, "\(what): \(f)")
                #expect(f["tolerance"] as? Double == 0.25)
            }
        }
        // The pixels changed (a mismatch, exit 1) and the margin is reported.
        let changed = try run(["check", "--spec", "spec.json", "--json"], in: dir)
        #expect(changed.status == 1)
        try expectLoss(changed, "check")
        let listed = try run(["check", "--spec", "spec.json"], in: dir)
        let lost = Int(((before - after) / before * 100).rounded())
        #expect(listed.stdout.contains("margin     t/square-md/*/default/checked@*x  warning: contrast.tick on fill fell from "
                                       + "\(Format.number(before)) to \(Format.number(after)) in 4 variants (\(lost) % of its margin gone; the tolerance is 25 %)\n"),
                "\(listed.stdout)")
        // Accepting the change reports the loss once, with both numbers, and takes the new numbers.
        let update = try run(["check", "--spec", "spec.json", "--update", "--json"], in: dir)
        #expect(update.status == 0, "\(update.stderr)")
        try expectLoss(update, "check --update")
        let next = try run(["check", "--spec", "spec.json", "--json"], in: dir)
        let none = try losses(next)
        #expect(next.status == 0 && none.isEmpty, "\(next.stdout)")
    }

    @Test("rules.margin in .glyphaudit.json: error fails check on a loss with unchanged pixels; off reports none")
    func severity() throws {
        let dir = TempFolder()
        dir.write("spec.json", Self.spec(mark: "#FFFFFF", hit: 48))
        try #require(try run(["check", "--spec", "spec.json", "--record", "--quiet"], in: dir).status == 0)
        // The hit area is not drawn: 48 → 30 pt changes no pixel, and loses 37.5 % of target-size.
        dir.write("spec.json", Self.spec(mark: "#FFFFFF", hit: 30))
        let warned = try run(["check", "--spec", "spec.json", "--json"], in: dir)
        #expect(warned.status == 0, "a warning does not fail check: \(warned.stdout)")
        let warnings = try losses(warned)
        #expect(warnings.count == 1 && warnings.allSatisfy { $0["name"] as? String == "target-size" && $0["variants"] as? Int == 8 }, "\(warnings)")
        dir.write(".glyphaudit.json", #"{ "version": 1, "rules": { "margin": "error" } }"#)
        let failed = try run(["check", "--spec", "spec.json"], in: dir)
        #expect(failed.status == 1, "\(failed.stdout)\(failed.stderr)")
        #expect(failed.stdout.contains("margin     t/square-md/*/default/*@*x  error: target-size fell from 48 to 30 in 8 variants (38 % of its margin gone; the tolerance is 25 %)\n"),
                "\(failed.stdout)")
        // --margin-tolerance overrides the configured tolerance: 37.5 % is within 40 %.
        #expect(try run(["check", "--spec", "spec.json", "--margin-tolerance", "0.4"], in: dir).status == 0)
        #expect(try run(["check", "--spec", "spec.json", "--margin-tolerance", "1.5"], in: dir).status == 64)
        dir.write(".glyphaudit.json", #"{ "version": 1, "rules": { "margin": { "severity": "warning", "tolerance": 0.4 } } }"#)
        let within = try losses(try run(["check", "--spec", "spec.json", "--json"], in: dir))
        #expect(within.isEmpty, "37.5 % is within 40 %")
        dir.write(".glyphaudit.json", #"{ "version": 1, "rules": { "margin": "off" } }"#)
        let off = try run(["check", "--spec", "spec.json"], in: dir)
        #expect(off.status == 0 && !off.stdout.contains("margin"), "\(off.stdout)")
    }

    func contents(_ folder: URL) -> [String: Data] { CLI.files(below: folder) }

    @Test("accept writes the CI check's manifest entries with the pixels: the next check lists no stale baseline, and manifest.json is byte for byte check --update's")
    func acceptWritesTheManifest() throws {
        // Two copies of one checkout: baselines recorded, then the tick 1 pt heavier (a key change that
        // changes the checked pixels and the inputs of every variant, not the unchecked pixels).
        var dirs: [TempFolder] = []
        for _ in 0..<2 {
            let dir = TempFolder()
            dir.write("spec.json", Data(SmallSpec.json.utf8))
            try #require(try run(["check", "--spec", "spec.json", "--record", "--quiet"], in: dir).status == 0)
            dir.write("spec.json", Data(SmallSpec.json.replacingOccurrences(of: "\"markWeight\": 2 }", with: "\"markWeight\": 3 }").utf8))
            dirs.append(dir)
        }
        let (viaAccept, viaUpdate) = (dirs[0], dirs[1])
        let before = try #require(try SnapshotManifest.read(in: viaAccept.url.appendingPathComponent("snapshots")))

        let ci = try run(["check", "--spec", "spec.json"], in: viaAccept, ci: "true")
        #expect(ci.status == 1, "\(ci.stdout)\(ci.stderr)")
        #expect(ci.stdout.contains("4 stale baselines (inputs changed, not re-recorded): sizes.md.markWeight 2 → 3"), "\(ci.stdout)")
        // report.json: the entries on the 4 changed checked variants (candidates) and the 4 unchecked
        // ones (matches whose inputs changed), with the preset's keys and the renderer.
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: viaAccept.url
            .appendingPathComponent("glyphaudit-out/snapshots/report.json"))) as? [String: Any])
        let snapshots = try #require(doc["snapshots"] as? [String: Any])
        let results = try #require(snapshots["results"] as? [[String: Any]])
        #expect(results.filter { $0["manifest"] != nil }.count == 8)
        let record = try #require(snapshots["manifest"] as? [String: Any])
        #expect((record["keys"] as? [String: [String: String]])?["t"]?["sizes.md.markWeight"] == "3")
        #expect((record["renderer"] as? [String: String]) == before.renderers.values.first)

        let accept = try run(["accept", "glyphaudit-out/snapshots"], in: viaAccept)
        #expect(accept.status == 0, "\(accept.stderr)")
        let next = try run(["check", "--spec", "spec.json"], in: viaAccept)
        #expect(next.status == 0 && next.stdout.isEmpty, "no stale baseline, nothing listed: \(next.stdout)\(next.stderr)")
        #expect(next.stderr.contains("checked 8 variants: 8 match, 0 mismatch, 0 new, 0 stale"), "\(next.stderr)")

        let update = try run(["check", "--spec", "spec.json", "--update", "--quiet"], in: viaUpdate)
        #expect(update.status == 0, "\(update.stderr)")
        let a = contents(viaAccept.url.appendingPathComponent("snapshots")), u = contents(viaUpdate.url.appendingPathComponent("snapshots"))
        #expect(a[SnapshotManifest.fileName] != nil && a[SnapshotManifest.fileName] == u[SnapshotManifest.fileName],
                "manifest.json by accept:\n\(String(decoding: a[SnapshotManifest.fileName] ?? Data(), as: UTF8.self))\nby --update:\n\(String(decoding: u[SnapshotManifest.fileName] ?? Data(), as: UTF8.self))")
        #expect(a == u, "every baseline, renderer.json and manifest.json the same: \(Set(a.keys).symmetricDifference(u.keys))")
        // The keys and digests moved on from the recorded ones.
        let after = try #require(try SnapshotManifest.read(in: viaAccept.url.appendingPathComponent("snapshots")))
        #expect(after.keys["t"]?["sizes.md.markWeight"] == "3" && before.keys["t"]?["sizes.md.markWeight"] == "2")
        #expect(Set(after.variants.keys) == Set(before.variants.keys) && after.variants.allSatisfy { before.variants[$0.key]?.digest != $0.value.digest })
    }
}
