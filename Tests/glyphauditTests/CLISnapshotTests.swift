import Foundation
import Testing
import GlyphColor
import GlyphCore
import GlyphRaster
import GlyphRender
import GlyphSnapshot
import GlyphTestSupport
import GlyphSnapshotTestSupport

// `glyphaudit check` and `glyphaudit diff`, run as the built binary in a temporary working folder.
// The binary is looked up next to the test bundle (`.build/debug/glyphaudit` when the tests were
// built with `swift build --build-tests`, as `make test` does); GLYPHAUDIT_BIN overrides.

@Suite("glyphaudit check and diff (the binary)", .serialized)
struct CLISnapshotTests {
    // MARK: check

    @Test("record → check round trip; new baselines fail without --record")
    func roundTrip() throws {
        let w = try Workspace()
        let first = try w.run("check", "--spec", "spec.json")
        #expect(first.status == 1, "\(first)")
        #expect(first.lines.count == 8 && first.lines.allSatisfy { $0.hasPrefix("new ") }, "\(first)")
        #expect(first.stdout.contains("t/square-md/AX5/default/checked@2x"))
        #expect(!FileManager.default.fileExists(atPath: w.snapshots.path), "check without --record writes nothing")

        let record = try w.run("check", "--spec", "spec.json", "--record")
        #expect(record.status == 0, "\(record)")
        // One paragraph, not a line per file (--verbose lists them: CLIFingerprintTests).
        #expect(record.lines == ["snapshots: 8 baselines written (8 recorded, 0 updated), 0 unchanged, 0 stale removed; "
                                 + "snapshots/renderer.json written; snapshots/manifest.json written (--verbose lists every file)."], "\(record)")
        #expect(PNGFiles.list(under: w.snapshots) == Workspace.files)

        let check = try w.run("check", "--spec", "spec.json")
        #expect(check.status == 0, "\(check)")
        #expect(check.stdout.isEmpty)
        #expect(check.stderr.contains("checked 8 variants: 8 match, 0 mismatch, 0 new, 0 stale"))
        #expect(!FileManager.default.fileExists(atPath: w.folder.appendingPathComponent("glyphaudit-out").path))

        let json = try w.run("check", "--spec", "spec.json", "--json", "--quiet")
        #expect(json.status == 0)
        #expect(json.stderr.isEmpty)
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let summary = try #require(doc["summary"] as? [String: Any])
        #expect(summary["match"] as? Int == 8)
        #expect((doc["results"] as? [Any])?.count == 8)
    }

    @Test("a one-pixel change in one variant is caught and named, with the three pictures in --out")
    func onePixelChange() throws {
        let w = try Workspace(recorded: true)
        let file = "t/square-md/L/default/checked@2x.png"
        try w.changeOnePixel(file)

        let r = try w.run("check", "--spec", "spec.json")
        #expect(r.status == 1, "\(r)")
        // The mismatch, then its cause from the manifest: the baseline was edited, every input is the same.
        #expect(r.lines.count == 3, "\(r)")
        #expect(r.lines.dropFirst().first == "changes by cause (1 group):")
        #expect(r.lines.last?.hasSuffix("  1 variant: renderer drew the same inputs differently") == true, "\(r)")
        let line = try #require(r.lines.first)
        #expect(line.hasPrefix("mismatch "))
        #expect(line.contains("t/square-md/L/default/checked@2x"))
        #expect(line.contains("1 px differ"))
        #expect(r.stderr.contains("1 mismatch"))
        let out = w.folder.appendingPathComponent("glyphaudit-out/snapshots/t/square-md/L/default")
        for suffix in ["actual", "diff", "sidebyside"] {
            let picture = out.appendingPathComponent("checked@2x.\(suffix).png")
            #expect((try? Raster(contentsOfPNG: picture)) != nil, "\(picture.path)")
        }

        // --out elsewhere; the baseline is untouched by a plain check.
        let before = try Data(contentsOf: w.baseline(file))
        let elsewhere = try w.run("check", "--spec", "spec.json", "--out", "pictures")
        #expect(elsewhere.status == 1)
        #expect(FileManager.default.fileExists(atPath: w.folder.appendingPathComponent(
            "pictures/t/square-md/L/default/checked@2x.diff.png").path))
        #expect(try Data(contentsOf: w.baseline(file)) == before)

        // Gates let it pass.
        #expect(try w.run("check", "--spec", "spec.json", "--max-diff-pixels", "1").status == 0)
        #expect(try w.run("check", "--spec", "spec.json", "--max-diff-ratio", "0.01").status == 0)
        #expect(try w.run("check", "--spec", "spec.json", "--max-diff-pixels", "0", "--max-diff-ratio", "0.01").status == 1)
    }

    @Test("baselines of another renderer (no renderer.json): an anti-aliasing-only change passes; with --threshold 0 a small colour change fails")
    func antialiasingOnly() throws {
        let w = try Workspace(recorded: true)
        // Baselines recorded before fingerprints: compared with pixelmatch's tolerances.
        try FileManager.default.removeItem(at: w.baseline(RendererFingerprint.fileName))
        let file = "t/square-md/AX5/default/checked@2x.png"
        let original = try Raster(contentsOfPNG: w.baseline(file))
        let changed = try #require(antialiasedPixelChange(original), "no anti-aliased pixel found")
        try changed.pngData().write(to: w.baseline(file))

        let r = try w.run("check", "--spec", "spec.json", "--json")
        #expect(r.status == 0, "\(r)")
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let results = try #require(doc["results"] as? [[String: Any]])
        let entry = try #require(results.first { ($0["id"] as? String) == "t/square-md/AX5/default/checked@2x" })
        #expect(entry["status"] as? String == "match")
        let difference = try #require(entry["difference"] as? [String: Any])
        #expect(difference["antialiasedPixels"] as? Int == 1)
        #expect(difference["mismatchedPixels"] as? Int == 0)
        #expect(difference["identical"] as? Bool == false)

        // A change of 3 levels in one channel of a flat pixel: within the default threshold, not within 0.
        try Data(contentsOf: w.baseline("t/square-md/L/default/unchecked@1x.png")).write(to: w.folder.appendingPathComponent("keep.png"))
        var slight = try Raster(contentsOfPNG: w.baseline("t/square-md/L/default/unchecked@1x.png"))
        let (x, y) = try #require(centralFlatPixel(slight))
        let i = (y * slight.width + x) * 4
        slight.pixels[i] = slight.pixels[i] > 128 ? slight.pixels[i] - 3 : slight.pixels[i] + 3
        try slight.pngData().write(to: w.baseline("t/square-md/L/default/unchecked@1x.png"))
        #expect(try w.run("check", "--spec", "spec.json").status == 0)
        let strict = try w.run("check", "--spec", "spec.json", "--threshold", "0")
        #expect(strict.status == 1)
        #expect(strict.lines.filter { $0.hasPrefix("mismatch") }.count == 1 && strict.stdout.contains("t/square-md/L/default/unchecked@1x"))
    }

    @Test("a size change fails and reports both sizes")
    func sizeChange() throws {
        let w = try Workspace(recorded: true)
        let file = "t/square-md/L/default/unchecked@1x.png"
        let original = try Raster(contentsOfPNG: w.baseline(file))
        let bigger = Raster(width: original.width + 2, height: original.height + 1, fill: .white)
        try bigger.pngData().write(to: w.baseline(file))

        let r = try w.run("check", "--spec", "spec.json", "--max-diff-ratio", "1")
        #expect(r.status == 1, "\(r)")
        #expect(r.lines.filter { $0.hasPrefix("mismatch") }.count == 1)
        #expect(r.stdout.contains("size changed: baseline \(original.width + 2)×\(original.height + 1) px, "
                                  + "render \(original.width)×\(original.height) px"), "\(r)")
    }

    @Test("truncated, empty and non-PNG baselines: exit 2 and a message naming the file, never a crash",
          arguments: ["truncated", "empty", "not-png"])
    func unreadable(kind: String) throws {
        let w = try Workspace(recorded: true)
        let file = "t/square-md/AX5/default/unchecked@2x.png"
        let good = try Data(contentsOf: w.baseline(file))
        let bad: Data = switch kind {
        case "truncated": good.prefix(good.count - 20)
        case "empty": Data()
        default: Data("GIF89a this is not a PNG".utf8)
        }
        try bad.write(to: w.baseline(file))

        for extra in [[], ["--record", "--update"], ["--json"]] {
            let r = try w.run(["check", "--spec", "spec.json"] + extra)
            #expect(r.status == 2, "\(r)")
            #expect(!r.signaled)
            #expect(r.stderr.contains("snapshots/\(file)"), "\(r)")
            let reason = ["truncated": "truncated", "empty": "empty", "not-png": "not a PNG"][kind]!
            #expect(r.stderr.contains(reason), "\(r)")
            #expect(try Data(contentsOf: w.baseline(file)) == bad, "an unreadable baseline is not overwritten")
        }
    }

    @Test("--update rewrites only the changed baselines: every other file keeps its bytes and mtime")
    func updateOnlyChanged() throws {
        let w = try Workspace(recorded: true)
        let changed = ["t/square-md/L/default/checked@1x.png", "t/square-md/AX5/default/unchecked@2x.png"]
        for file in changed {
            var r = try Raster(contentsOfPNG: w.baseline(file))
            let (x, y) = try #require(centralFlatPixel(r))
            r.setContrasting(x, y)
            try r.pngData().write(to: w.baseline(file))
        }
        let old = Date(timeIntervalSince1970: 1_000_000_000)
        var bytes: [String: Data] = [:]
        for file in Workspace.files {
            try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: w.baseline(file).path)
            bytes[file] = try Data(contentsOf: w.baseline(file))
        }

        let r = try w.run("check", "--spec", "spec.json", "--update", "--verbose")
        #expect(r.status == 0, "\(r)")
        #expect(r.lines.filter { $0.hasPrefix("updated ") }.count == 2, "\(r)")
        for file in Workspace.files {
            let mtime = try FileManager.default.attributesOfItem(atPath: w.baseline(file).path)[.modificationDate] as? Date
            if changed.contains(file) {
                #expect(mtime != old, "\(file)")
                #expect(try Data(contentsOf: w.baseline(file)) != bytes[file])
            } else {
                #expect(mtime == old, "\(file) kept its mtime")
                #expect(try Data(contentsOf: w.baseline(file)) == bytes[file], "\(file) kept its bytes")
            }
        }
        #expect(try w.run("check", "--spec", "spec.json").status == 0)
    }

    @Test("stale baselines are listed (only under the run's preset folders) and removed with --prune")
    func staleAndPrune() throws {
        let w = try Workspace(recorded: true)
        let png = try Data(contentsOf: w.baseline(Workspace.files[0]))
        let stale = ["t/square-md/L/sepia/checked@1x.png", "t/square-lg/L/default/checked@1x.png"]
        let kept = ["other-preset/square-md/L/default/checked@1x.png", "t/square-md/L/default/.checked@1x.png.tmp-9-9"]
        for file in stale + kept {
            try FileManager.default.createDirectory(at: w.baseline(file).deletingLastPathComponent(), withIntermediateDirectories: true)
            try png.write(to: w.baseline(file))
        }

        // --only scale=1: the @2x baselines are filtered out, not stale.
        let r = try w.run("check", "--spec", "spec.json", "--only", "scale=1")
        #expect(r.status == 0, "stale baselines do not fail the check: \(r)")
        #expect(r.lines.count == 2 && r.lines.allSatisfy { $0.hasPrefix("stale ") }, "\(r)")
        for file in stale { #expect(r.stdout.contains("snapshots/\(file)")) }
        #expect(r.stderr.contains("checked 4 variants: 4 match, 0 mismatch, 0 new, 2 stale"), "\(r)")

        let pruned = try w.run("check", "--spec", "spec.json", "--only", "scale=1", "--prune", "--verbose")
        #expect(pruned.status == 0)
        #expect(pruned.lines.filter { $0.hasPrefix("pruned ") }.count == 2, "\(pruned)")
        for file in stale { #expect(!FileManager.default.fileExists(atPath: w.baseline(file).path)) }
        for file in kept + Workspace.files { #expect(FileManager.default.fileExists(atPath: w.baseline(file).path), "\(file)") }
        #expect(try w.run("check", "--spec", "spec.json").stdout.isEmpty)
    }

    @Test("a killed --record leaves no PNG (a check renames its files into place only when it ends), and its temporary files are not taken for baselines")
    func killedRecord() throws {
        let w = try Workspace()
        // A 1152-variant preset on one thread, killed at three points (counted in temporary files).
        let preset = ["--preset", "design-system-checkbox"]
        for threshold in [10, 200, 600] {
            let process = try w.start(["check", "--record", "--jobs", "1", "--quiet"] + preset)
            let deadline = Date().addingTimeInterval(120)
            while process.isRunning && allFiles(under: w.snapshots).count(where: { $0.contains(".tmp-\(process.processIdentifier)-") }) < threshold
                    && Date() < deadline {
                usleep(20_000)
            }
            let wasRunning = process.isRunning
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            #expect(wasRunning, "the recorder finished before it could be killed")
            #expect(process.terminationReason == .uncaughtSignal || !wasRunning)

            // No baseline was renamed into place; the only files are dot-named (temporaries, the lock).
            #expect(PNGFiles.list(under: w.snapshots).isEmpty)
            for file in PNGFiles.list(under: w.snapshots) {
                let data = try Data(contentsOf: w.snapshots.appendingPathComponent(file))
                #expect((try? Raster(pngData: data)) != nil, "\(file) is not a whole PNG (\(data.count) bytes)")
            }
            for file in allFiles(under: w.snapshots) where !file.hasSuffix(".png") {
                #expect((file as NSString).lastPathComponent.hasPrefix("."), "unexpected file \(file)")
            }
        }
        // A plain check neither mentions the leftovers nor calls them stale; every baseline written matches.
        let check = try w.run(["check", "--quiet", "--verbose"] + preset)
        #expect(check.status == 1, "new variants remain: \(check.stdout.prefix(300))")
        #expect(!check.stdout.contains(".tmp-"))
        #expect(check.lines.allSatisfy { $0.hasPrefix("new ") }, "\(check.lines.filter { !$0.hasPrefix("new ") }.prefix(5))")
        // Recording to the end, then the check is clean.
        #expect(try w.run(["check", "--record", "--quiet"] + preset).status == 0)
        let clean = try w.run(["check"] + preset)
        #expect(clean.status == 0 && clean.stdout.isEmpty, "\(clean.stderr)")
    }

    @Test("two recorders at once: one records, the other is refused while it runs (exit 2), and every baseline is whole and right")
    func concurrentRecorders() throws {
        let w = try Workspace()
        let a = try w.start("check", "--record", "--preset", "swiftui-switch", "--quiet")
        let b = try w.start("check", "--record", "--preset", "swiftui-switch", "--quiet", "--jobs", "1")
        a.waitUntilExit()
        b.waitUntilExit()
        // Both 0 only when they did not overlap; never both refused.
        #expect([a.terminationStatus, b.terminationStatus].sorted() == [0, 2] || [a.terminationStatus, b.terminationStatus] == [0, 0])
        #expect(PNGFiles.list(under: w.snapshots).count == 432)
        let check = try w.run("check", "--preset", "swiftui-switch")
        #expect(check.status == 0 && check.stdout.isEmpty, "\(check)")
    }

    @Test("check: usage errors exit 64, bad input exits 2")
    func checkErrors() throws {
        let w = try Workspace()
        #expect(try w.run("check", "--spec", "spec.json", "--threshold", "2").status == 64)
        #expect(try w.run("check", "--spec", "spec.json", "--max-diff-pixels", "-1").status == 64)
        #expect(try w.run("check", "--spec", "spec.json", "extra").status == 64)
        let missing = try w.run("check", "--spec", "nope.json")
        #expect(missing.status == 2 && missing.stderr.contains("nope.json"))
    }

    // MARK: diff

    @Test("diff of two folders: pairs by relative path, lists one-sided files, exit 1; --json; --output")
    func diffFolders() throws {
        let w = try Workspace(recorded: true)
        let fm = FileManager.default
        let a = w.folder.appendingPathComponent("snapshots")
        let b = w.folder.appendingPathComponent("copy")
        try fm.copyItem(at: a, to: b)
        // Identical folders.
        let same = try w.run("diff", "snapshots", "copy")
        #expect(same.status == 0 && same.stdout.isEmpty, "\(same)")
        #expect(same.stderr.contains("compared 8 pairs: 0 differ, 8 match"))

        // One changed pixel, one file only in A, one only in B.
        let changed = "t/square-md/L/default/checked@2x.png"
        var r = try Raster(contentsOfPNG: b.appendingPathComponent(changed))
        let (x, y) = try #require(centralFlatPixel(r))
        r.setContrasting(x, y)
        try r.pngData().write(to: b.appendingPathComponent(changed))
        try fm.removeItem(at: b.appendingPathComponent("t/square-md/L/default/unchecked@1x.png"))
        try fm.copyItem(at: a.appendingPathComponent(changed), to: b.appendingPathComponent("t/extra.png"))

        let diff = try w.run("diff", "snapshots", "copy", "--output", "diffs")
        #expect(diff.status == 1, "\(diff)")
        #expect(diff.lines.contains { $0.hasPrefix("differ ") && $0.contains(changed) && $0.contains("1 px differ") }, "\(diff)")
        #expect(diff.lines.contains("only-in-a  t/square-md/L/default/unchecked@1x.png"), "\(diff)")
        #expect(diff.lines.contains("only-in-b  t/extra.png"), "\(diff)")
        let diffImage = try Raster(contentsOfPNG: w.folder.appendingPathComponent("diffs/\(changed)"))
        #expect(diffImage.rgbaBytes(x, y) == [255, 0, 0, 255])
        #expect(PNGFiles.list(under: w.folder.appendingPathComponent("diffs")) == [changed], "only differing pairs get a diff image")

        let json = try w.run("diff", "snapshots", "copy", "--json", "--jobs", "1")
        #expect(json.status == 1)
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let pairs = try #require(doc["pairs"] as? [[String: Any]])
        #expect(pairs.count == 7)
        let entry = try #require(pairs.first { $0["path"] as? String == changed })
        #expect(entry["status"] as? String == "differ")
        #expect(entry["mismatchedPixels"] as? Int == 1)
        let sizeA = try #require(entry["sizeA"] as? [String: Any])
        #expect(sizeA["width"] as? Int == r.width && sizeA["height"] as? Int == r.height)
        #expect(doc["onlyInA"] as? [String] == ["t/square-md/L/default/unchecked@1x.png"])
        #expect(doc["onlyInB"] as? [String] == ["t/extra.png"])
    }

    @Test("diff of two files: options, --output FILE, sizes, unreadable input exits 2")
    func diffFiles() throws {
        let w = try Workspace(recorded: true)
        let a = "snapshots/t/square-md/L/default/checked@1x.png"
        var raster = try Raster(contentsOfPNG: w.folder.appendingPathComponent(a))
        let (x, y) = try #require(centralFlatPixel(raster))
        raster.setContrasting(x, y)
        try raster.pngData().write(to: w.folder.appendingPathComponent("b.png"))

        let same = try w.run("diff", a, a, "--output", "same.png")
        #expect(same.status == 0)
        #expect(FileManager.default.fileExists(atPath: w.folder.appendingPathComponent("same.png").path),
                "two files: --output always gets the diff image")

        let r = try w.run("diff", a, "b.png", "--output", "d.png", "--diff-color-alt", "0,255,0", "--alpha", "0.5")
        #expect(r.status == 1, "\(r)")
        let d = try Raster(contentsOfPNG: w.folder.appendingPathComponent("d.png"))
        let expected: [UInt8] = raster.pixel(x, y).r == 0 ? [0, 255, 0, 255] : [255, 0, 0, 255]
        #expect(d.rgbaBytes(x, y) == expected, "the alt colour where B is darker")

        let mask = try w.run("diff", a, "b.png", "--output", "m.png", "--diff-mask", "--diff-color-alt", "#00FF00")
        #expect(mask.status == 1)
        let m = try Raster(contentsOfPNG: w.folder.appendingPathComponent("m.png"))
        #expect(m.pixel(0, 0).a == 0, "a mask leaves the background transparent")

        let strict = try w.run("diff", a, "b.png", "--include-aa", "--threshold", "0", "--json")
        #expect(strict.status == 1)

        let size = try w.run("diff", a, "snapshots/t/square-md/L/default/checked@2x.png")
        #expect(size.status == 1)
        #expect(size.stdout.contains("size changed"), "\(size)")

        try Data("nope".utf8).write(to: w.folder.appendingPathComponent("bad.png"))
        let bad = try w.run("diff", a, "bad.png")
        #expect(bad.status == 2 && !bad.signaled)
        #expect(bad.stderr.contains("bad.png") && bad.stderr.contains("not a PNG"), "\(bad)")
        let missing = try w.run("diff", a, "missing.png")
        #expect(missing.status == 2 && missing.stderr.contains("missing.png"))
        let mixed = try w.run("diff", a, "snapshots")
        #expect(mixed.status == 2)
        #expect(try w.run("diff", a).status == 64)
        #expect(try w.run("diff", a, "b.png", "--diff-color-alt", "red").status == 64)
    }

    @Test("--help names every option, and every USAGE line lists exactly the options its command accepts")
    func help() throws {
        let w = try Workspace()
        let check = try w.run("check", "--help")
        #expect(check.status == 0)
        for option in ["--snapshots DIR", "--out DIR", "--record", "--update", "--prune", "--max-diff-pixels N",
                       "--max-diff-ratio R", "--threshold T", "--include-aa", "--alpha A", "--json", "--quiet",
                       "--preset NAME", "--only KEY=VALUE", "--jobs N", "--ci", "--verbose"] {
            #expect(check.stdout.contains(option), "\(option)")
        }
        let diff = try w.run("diff", "--help")
        #expect(diff.status == 0)
        for option in ["--threshold T", "--include-aa", "--alpha A", "--diff-color-alt R,G,B", "--diff-mask",
                       "--out FILE|DIR", "--output FILE|DIR", "--json", "--jobs N"] {
            #expect(diff.stdout.contains(option), "\(option)")
        }
        let main = try w.run("--help")
        #expect(main.stdout.contains("check") && main.stdout.contains("diff"))

        // The USAGE line of every command lists every option the command accepts (and no other), under
        // its one name: the old spellings (`Same as --out (its old spelling).`) are listed under OPTIONS only.
        for command in ["check", "diff", "run", "render", "audit", "export", "merge-reports"] {
            let help = try w.run(command, "--help").stdout
            let usage = try #require(help.split(separator: "\n").first { $0.hasPrefix("USAGE: ") })
            let accepted = help.split(separator: "\n").drop { $0 != "OPTIONS:" }.dropFirst()
                .filter { !$0.hasSuffix("(its old spelling).") }.compactMap { $0.split(separator: " ").first.map(String.init) }.filter { $0 != "--help" }
            #expect(accepted.count >= 3, "\(command): \(accepted)")
            let listed = usage.split(separator: " ").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "[]…")) }
                .filter { $0.hasPrefix("--") }
            #expect(Set(listed) == Set(accepted), "\(command) usage: \(usage)")
        }
        let run = try w.run("run", "--help")
        for option in ["--include-aa", "--alpha A", "--max-diff-pixels N", "--max-diff-ratio R", "--ci"] {
            #expect(run.stdout.contains(option), "run: \(option)")
        }
    }

    // MARK: Follow-ups of issue 4

    @Test("baselines of another renderer: an anti-aliasing-only change passes, counted as within tolerance; fails with --include-aa (check and run)")
    func includeAntialiasing() throws {
        let w = try Workspace(recorded: true)
        // Baselines recorded before fingerprints: compared with pixelmatch's tolerances.
        try FileManager.default.removeItem(at: w.baseline(RendererFingerprint.fileName))
        let id = "t/square-md/AX5/default/checked@2x"
        let original = try Raster(contentsOfPNG: w.baseline("\(id).png"))
        let changed = try #require(antialiasedPixelChange(original), "no anti-aliased pixel found")
        try changed.pngData().write(to: w.baseline("\(id).png"))

        let pass = try w.run("check", "--spec", "spec.json")
        #expect(pass.status == 0, "\(pass)")
        #expect(pass.stdout.isEmpty)
        #expect(pass.stderr.contains("checked 8 variants: 8 match (1 differs within tolerance), 0 mismatch, 0 new, 0 stale"), "\(pass)")
        let json = try w.run("check", "--spec", "spec.json", "--json")
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect((doc["summary"] as? [String: Any])?["withinTolerance"] as? Int == 1)
        let results = try #require(doc["results"] as? [[String: Any]])
        #expect(results.filter { $0["withinTolerance"] as? Bool == true }.map { $0["id"] as? String } == [id])
        #expect(results.filter { $0["withinTolerance"] != nil }.count == 1, "identical matches carry no flag")

        let strict = try w.run("check", "--spec", "spec.json", "--include-aa")
        #expect(strict.status == 1, "\(strict)")
        #expect(strict.lines.filter { $0.hasPrefix("mismatch") }.count == 1 && strict.lines[0].hasPrefix("mismatch   \(id)  1 px differ"), "\(strict)")
        #expect(strict.stderr.contains("7 match, 1 mismatch"))

        // --alpha: the baseline's opacity in the diff picture. At 0 every unchanged pixel is white.
        let (dx, dy) = try #require(darkPixel(original), "a dark pixel of the tick's fill")
        _ = try w.run("check", "--spec", "spec.json", "--include-aa", "--out", "faded")
        _ = try w.run("check", "--spec", "spec.json", "--include-aa", "--alpha", "0", "--out", "blank")
        let faded = try Raster(contentsOfPNG: w.folder.appendingPathComponent("faded/\(id).diff.png"))
        let blank = try Raster(contentsOfPNG: w.folder.appendingPathComponent("blank/\(id).diff.png"))
        #expect(blank.rgbaBytes(dx, dy) == [255, 255, 255, 255])
        #expect(faded.rgbaBytes(dx, dy) != [255, 255, 255, 255], "the default alpha 0.1 shows the baseline faded")
        #expect(try w.run("check", "--spec", "spec.json", "--alpha", "2").status == 64)

        // run: the same change passes with a note in report.json, and fails with --include-aa.
        let run = ["run", "--spec", "spec.json", "--fail-on", "never", "--formats", "json"]
        let ran = try w.run(run + ["--report", "r1"])
        #expect(ran.status == 0, "\(ran)")
        #expect(ran.stdout.contains("8 match (1 differs within tolerance), 0 changed"), "\(ran)")
        let record = try #require(try snapshotRecord(w, "r1", id))
        #expect(record["status"] as? String == "match")
        // The one wording of a difference (ImageDifference.summary), as `check` words it.
        let message = try #require(record["message"] as? String)
        #expect(message.hasPrefix("differs within tolerance: 0 px differ (0.000% of 3136), largest colour difference 0.")
                && message.hasSuffix(", 1 anti-aliased px ignored"), "\(record)")
        let ranStrict = try w.run(run + ["--report", "r2", "--include-aa"])
        // --fail-on never: exit 0 on a failed snapshot too; the report says it failed.
        #expect(ranStrict.status == 0, "\(ranStrict)")
        #expect(try snapshotRecord(w, "r2", id)?["status"] as? String == "mismatch")
    }

    @Test("stale baselines with the default selection: the root and vanished presets' folders too; never what --preset or --only leaves out")
    func staleDefaultSelection() throws {
        let w = try Workspace()
        let png = try Raster(width: 2, height: 2, fill: .white).pngData()
        let valid = try Presets.load("swiftui-switch").variants()[0].fileName("png")
        let files = ["stray.png", "old-preset/square-md/L/default/checked@1x.png", "swiftui-switch/bogus/x.png", valid,
                     ".hidden.png", "old-preset/notes.txt"]
        for file in files {
            try FileManager.default.createDirectory(at: w.baseline(file).deletingLastPathComponent(), withIntermediateDirectories: true)
            try png.write(to: w.baseline(file))
        }
        func stale(_ r: RunResult) -> [String] {
            r.lines.filter { $0.hasPrefix("stale ") || $0.hasPrefix("pruned ") }
                .map { String($0.split(separator: " ", omittingEmptySubsequences: true)[1]) }
        }
        let everything = ["snapshots/old-preset/square-md/L/default/checked@1x.png", "snapshots/stray.png",
                          "snapshots/swiftui-switch/bogus/x.png"]
        // No --preset, no --spec: all built-in presets, which own the whole folder.
        let all = try w.run("check", "--quiet")
        #expect(all.status == 1, "the built-in variants have no baselines here")
        #expect(stale(all) == everything, "\(stale(all))")
        // --only filters the variants checked, not the stale list.
        #expect(stale(try w.run("check", "--quiet", "--only", "preset=swiftui-switch")) == everything)
        #expect(stale(try w.run("check", "--quiet", "--only", "preset=rvs-checkbox", "--only", "scale=1")) == everything)
        // A picked selection looks only at its own folders.
        #expect(stale(try w.run("check", "--quiet", "--preset", "swiftui-switch")) == ["snapshots/swiftui-switch/bogus/x.png"])
        #expect(stale(try w.run("check", "--quiet", "--spec", "spec.json")) == [])
        #expect(stale(try w.run("check", "--quiet", "--preset", "rvs-checkbox", "--spec", "spec.json")) == [])

        let pruneOne = try w.run("check", "--quiet", "--preset", "swiftui-switch", "--prune", "--verbose")
        #expect(stale(pruneOne) == ["snapshots/swiftui-switch/bogus/x.png"])
        #expect(!FileManager.default.fileExists(atPath: w.baseline("swiftui-switch/bogus/x.png").path))
        #expect(FileManager.default.fileExists(atPath: w.baseline("stray.png").path))
        let pruneAll = try w.run("check", "--quiet", "--only", "scale=2", "--prune", "--verbose")
        #expect(pruneAll.lines.filter { $0.hasPrefix("pruned ") }.count == 2, "\(pruneAll.lines.filter { !$0.hasPrefix("new ") })")
        for file in everything { #expect(!FileManager.default.fileExists(atPath: w.folder.appendingPathComponent(file).path), "\(file)") }
        for file in [valid, ".hidden.png", "old-preset/notes.txt"] {
            #expect(FileManager.default.fileExists(atPath: w.baseline(file).path), "\(file) is kept")
        }
    }

    @Test("run: a --snapshots folder that does not exist is an error (exit 2, nothing written); the default one missing is a note")
    func runSnapshotFolder() throws {
        let w = try Workspace()
        let base = ["run", "--spec", "spec.json", "--fail-on", "never", "--formats", "json"]
        let missing = try w.run(base + ["--snapshots", "snaps", "--report", "r"])
        #expect(missing.status == 2, "\(missing)")
        #expect(missing.stderr.contains("\(w.folder.appendingPathComponent("snaps").path): the snapshot folder given with --snapshots does not exist"),
                "\(missing)")
        #expect(!FileManager.default.fileExists(atPath: w.folder.appendingPathComponent("r").path), "nothing written")

        let file = try w.run(base + ["--snapshots", "spec.json", "--report", "r"])
        #expect(file.status == 2 && file.stderr.contains("spec.json: is a file"), "\(file)")
        #expect(!FileManager.default.fileExists(atPath: w.folder.appendingPathComponent("r").path))

        let unchecked = try w.run(base + ["--report", "r"])
        #expect(unchecked.status == 0, "\(unchecked)")
        #expect(unchecked.stderr.contains("snapshots not checked") && unchecked.stdout.contains("snapshots: not checked"))

        let record = try w.run(base + ["--snapshots", "snaps", "--record", "--report", "r"])
        #expect(record.status == 0, "\(record)")
        #expect(PNGFiles.list(under: w.folder.appendingPathComponent("snaps")) == Workspace.files)
        let checked = try w.run(base + ["--snapshots", "snaps", "--report", "r"])
        #expect(checked.status == 0 && checked.stdout.contains("8 match, 0 changed, 0 new, 0 stale"), "\(checked)")
    }

    @Test("a file that cannot be written: a clear message with the path and the system's reason, exit 2")
    func writeErrors() throws {
        let w = try Workspace(recorded: true)
        let file = "t/square-md/L/default/checked@2x.png"
        try w.changeOnePixel(file)
        try Data("x".utf8).write(to: w.folder.appendingPathComponent("afile"))

        let r = try w.run("check", "--spec", "spec.json", "--out", "afile")
        #expect(r.status == 2, "\(r)")
        // Found before any work (issue 24, reproducer 26), not when the first picture is written.
        #expect(r.stderr == "glyphaudit: afile: is a file, not a folder; --out takes a folder (nothing was done)\n", "\(r)")
        #expect(!r.stderr.contains("NSCocoaErrorDomain") && !r.stdout.contains("NSCocoaErrorDomain"))

        let d = try w.run("diff", "snapshots/\(file)", "snapshots/\(file)", "--output", "/proc/glyphaudit-nope/x.png")
        #expect(d.status == 2, "\(d)")
        #expect(d.stderr.contains("glyphaudit: /proc/glyphaudit-nope/x.png: cannot write: cannot create the folder "
                                  + "/proc/glyphaudit-nope: No such file or directory"), "\(d)")
        #expect(!d.stderr.contains("NSCocoaErrorDomain"))
    }

    @Test("the largest colour difference is on --threshold's scale: 0.966 for black on white (√(0.5053·255²/35215))")
    func colourDifferenceScale() throws {
        let w = try Workspace()
        try w.writeWhiteAndDot("white.png", "dot.png")
        let r = try w.run("diff", "white.png", "dot.png")
        #expect(r.status == 1)
        #expect(r.lines == ["differ     dot.png  1 px differ (11.111% of 9), largest colour difference 0.966"], "\(r)")
        let json = try w.run("diff", "white.png", "dot.png", "--json")
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let pair = try #require((doc["pairs"] as? [[String: Any]])?.first)
        let y = 255 * (0.29889531 + 0.58662247 + 0.11448223)
        #expect(abs((pair["maxColorDelta"] as? Double ?? 0) - (0.5053 * y * y / 35215).squareRoot()) < 1e-12)
        // With a threshold just below the value the pixel counts, just above it it does not.
        #expect(try w.run("diff", "white.png", "dot.png", "--threshold", "0.965").status == 1)
        #expect(try w.run("diff", "white.png", "dot.png", "--threshold", "0.967").status == 0)
    }

    @Test("diff of two files: the unreadable one is named, both when both are; --output DIR; one pair, singular")
    func diffTwoFilesFollowUps() throws {
        let w = try Workspace()
        try w.writeWhiteAndDot("a.png", "b.png")
        try Data("nope".utf8).write(to: w.folder.appendingPathComponent("bad.png"))
        try Data().write(to: w.folder.appendingPathComponent("empty.png"))
        let folder = w.folder.path

        let aBad = try w.run("diff", "bad.png", "a.png")
        #expect(aBad.status == 2)
        #expect(aBad.lines == ["unreadable bad.png  \(folder)/bad.png: not a PNG file (bad signature)"], "\(aBad)")
        #expect(!aBad.stdout.contains("a.png"), "A is the unreadable one, B is fine")
        let bBad = try w.run("diff", "a.png", "bad.png")
        #expect(bBad.lines == ["unreadable bad.png  \(folder)/bad.png: not a PNG file (bad signature)"], "\(bBad)")
        let both = try w.run("diff", "bad.png", "empty.png")
        #expect(both.status == 2)
        #expect(both.lines == ["unreadable bad.png, empty.png  \(folder)/bad.png: not a PNG file (bad signature); "
                               + "\(folder)/empty.png: the file is empty (0 bytes)"], "\(both)")
        #expect(both.stderr.contains("bad.png") && both.stderr.contains("empty.png"))
        #expect(both.stderr.contains("compared 1 pair: 0 differ, 0 match, 1 unreadable"), "\(both)")

        try FileManager.default.createDirectory(at: w.folder.appendingPathComponent("out"), withIntermediateDirectories: true)
        let into = try w.run("diff", "a.png", "b.png", "--output", "out")
        #expect(into.status == 1, "\(into)")
        #expect(into.stderr.contains("compared 1 pair: 1 differ, 0 match"), "\(into)")
        #expect(into.stdout.hasSuffix("; diff: out/b.diff.png\n"), "\(into)")
        let picture = try Raster(contentsOfPNG: w.folder.appendingPathComponent("out/b.diff.png"))
        #expect(picture.rgbaBytes(1, 1) == [255, 0, 0, 255])
        // --output FILE still names the file itself.
        #expect(try w.run("diff", "a.png", "b.png", "--output", "out/named.png").status == 1)
        #expect(FileManager.default.fileExists(atPath: w.folder.appendingPathComponent("out/named.png").path))
    }
}

/// The report.json snapshot record of a variant.
private func snapshotRecord(_ w: Workspace, _ report: String, _ id: String) throws -> [String: Any]? {
    let data = try Data(contentsOf: w.folder.appendingPathComponent("\(report)/report.json"))
    let doc = try JSONSerialization.jsonObject(with: data) as? [String: Any]
    let results = (doc?["snapshots"] as? [String: Any])?["results"] as? [[String: Any]]
    return results?.first { $0["id"] as? String == id }
}

/// An opaque dark pixel (the checkbox fill) whose 8 neighbours have its colour, so no change
/// made by `antialiasedPixelChange` can be on it.
private func darkPixel(_ r: Raster) -> (Int, Int)? {
    for y in 1..<(r.height - 1) {
        for x in 1..<(r.width - 1) {
            let p = r.pixel(x, y)
            guard p.a == 255 && Int(p.r) + Int(p.g) + Int(p.b) < 400 else { continue }
            var flat = true
            for dy in -1...1 { for dx in -1...1 where r.pixel(x + dx, y + dy) != p { flat = false } }
            if flat { return (x, y) }
        }
    }
    return nil
}

// MARK: - Running the binary

/// The result of one run of the binary.
private struct RunResult: CustomStringConvertible {
    var status: Int32
    var signaled: Bool
    var stdout: String
    var stderr: String

    var lines: [String] { stdout.split(separator: "\n").map(String.init) }
    var description: String { "exit \(status)\nstdout:\n\(stdout.prefix(2000))\nstderr:\n\(stderr.prefix(2000))" }
}

private enum Binary {
    /// `glyphaudit` next to the test bundle: Bundle.main is the test runner in `.build/<config>/`.
    static let url: URL? = {
        let fm = FileManager.default
        if let env = ProcessInfo.processInfo.environment["GLYPHAUDIT_BIN"] { return URL(fileURLWithPath: env) }
        let runner = URL(fileURLWithPath: CommandLine.arguments.first ?? "").deletingLastPathComponent()
        let candidates = [
            Bundle.main.bundleURL.appendingPathComponent("glyphaudit"),
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("glyphaudit"),
            runner.appendingPathComponent("glyphaudit"),
        ]
        return candidates.first { fm.isExecutableFile(atPath: $0.path) }
    }()

    static func require() throws -> URL {
        try #require(url, "glyphaudit not found next to the test bundle (\(Bundle.main.bundleURL.path)); build it first: swift build --build-tests")
    }
}

/// A temporary working folder with a small spec (8 variants: 2 Dynamic Type sizes × 2 states × 2 scales).
private final class Workspace: @unchecked Sendable {
    static let spec = SmallSpec.json

    /// The baselines of the spec, relative to `snapshots`, sorted.
    static let files: [String] = {
        var files: [String] = []
        for dt in ["AX5", "L"] {
            for state in ["checked", "unchecked"] {
                for scale in [1, 2] { files.append("t/square-md/\(dt)/default/\(state)@\(scale)x.png") }
            }
        }
        return files.sorted()
    }()

    let folder: URL
    var snapshots: URL { folder.appendingPathComponent("snapshots") }

    init(recorded: Bool = false) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("glyphaudit-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(Self.spec.utf8).write(to: folder.appendingPathComponent("spec.json"))
        if recorded {
            let r = try run("check", "--spec", "spec.json", "--record", "--quiet")
            try #require(r.status == 0, "\(r)")
        }
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    func baseline(_ file: String) -> URL { snapshots.appendingPathComponent(file) }

    /// Sets the flat pixel nearest the centre of a baseline to black or white, whichever is farther
    /// from its colour (a change the comparator must catch); returns where.
    /// Writes a white 3 × 3 PNG and the same with its centre pixel black (one pixel over any threshold).
    func writeWhiteAndDot(_ white: String, _ dot: String) throws {
        let plain = Raster(width: 3, height: 3, fill: .white)
        var dotted = plain
        for c in 0..<3 { dotted.pixels[4 * 4 + c] = 0 }
        try plain.pngData().write(to: folder.appendingPathComponent(white))
        try dotted.pngData().write(to: folder.appendingPathComponent(dot))
    }

    @discardableResult
    func changeOnePixel(_ file: String) throws -> (Int, Int) {
        var raster = try Raster(contentsOfPNG: baseline(file))
        let (x, y) = try #require(centralFlatPixel(raster))
        raster.setContrasting(x, y)
        try raster.pngData().write(to: baseline(file))
        return (x, y)
    }

    func run(_ args: String...) throws -> RunResult { try run(args) }

    /// Runs the binary in the folder and waits; stdout and stderr go through files (no pipe limits).
    func run(_ args: [String]) throws -> RunResult {
        let id = UUID().uuidString
        let outURL = FileManager.default.temporaryDirectory.appendingPathComponent("glyphaudit-cli-\(id).out")
        let errURL = FileManager.default.temporaryDirectory.appendingPathComponent("glyphaudit-cli-\(id).err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: outURL)
            try? FileManager.default.removeItem(at: errURL)
        }
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        let process = try makeProcess(args, stdout: out, stderr: err)
        try process.run()
        process.waitUntilExit()
        try out.close()
        try err.close()
        return RunResult(status: process.terminationStatus, signaled: process.terminationReason == .uncaughtSignal,
                         stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
                         stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }

    /// Starts the binary in the folder, output discarded.
    func start(_ args: String...) throws -> Process { try start(args) }

    func start(_ args: [String]) throws -> Process {
        let process = try makeProcess(args, stdout: FileHandle.nullDevice, stderr: FileHandle.nullDevice)
        try process.run()
        return process
    }

    private func makeProcess(_ args: [String], stdout: FileHandle, stderr: FileHandle) throws -> Process {
        let process = Process()
        process.executableURL = try Binary.require()
        process.arguments = args
        process.currentDirectoryURL = folder
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        // CI (which runs the tests with CI=true) changes what a missing baseline does: not passed on.
        environment["CI"] = nil
        process.environment = environment
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = FileHandle.nullDevice
        return process
    }
}

/// Every file under a folder (dotfiles included), relative paths.
private func allFiles(under folder: URL) -> [String] {
    guard let e = FileManager.default.enumerator(atPath: folder.path) else { return [] }
    var files: [String] = []
    while let path = e.nextObject() as? String {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path, isDirectory: &isFolder),
           !isFolder.boolValue {
            files.append(path)
        }
    }
    return files
}
