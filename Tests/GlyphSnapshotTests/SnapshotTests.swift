import Foundation
import Testing
@testable import GlyphColor
@testable import GlyphCore
@testable import GlyphPipeline
@testable import GlyphRaster
@testable import GlyphRender
@testable import GlyphSnapshot
import GlyphTestSupport
import GlyphSnapshotTestSupport

// Snapshot baselines: the store, the comparison with its gates, record / update / prune, stale
// detection, unreadable baselines and the folder diff. Each test works on a small spec (8 variants)
// in a fresh temporary folder.

@Suite("Snapshot baselines and comparison")
struct SnapshotTests {
    // MARK: Round trip

    @Test("record, then check: every variant matches and nothing is written")
    func recordThenCheck() throws {
        let s = try SnapshotScene()
        let first = s.checker(writes: .record).run(s.plan, jobs: 2)
        #expect(first.counts.variants == 8)
        #expect(first.counts.new == 8 && first.counts.recorded == 8)
        #expect(first.exitStatus == 0)
        for v in s.plan.items.map(\.variant) {
            let file = s.snapshots.appendingPathComponent(v.fileName("png"))
            #expect(FileManager.default.fileExists(atPath: file.path), "\(file.path)")
        }

        let second = s.checker().run(s.plan, jobs: 2)
        #expect(second.counts.match == 8)
        #expect(second.results.allSatisfy { $0.difference?.identical == true })
        #expect(second.exitStatus == 0)
        #expect(!FileManager.default.fileExists(atPath: s.out.path), "a clean check writes no pictures")
        // The same with renders made beforehand (as `run` does, to audit them too).
        #expect(s.checker().run(s.plan, rasters: s.plan.renderAll(jobs: 2), jobs: 2) == second)

        // Without --record, a missing baseline is a failure and nothing is written.
        try FileManager.default.removeItem(at: s.baseline(0))
        let third = s.checker().run(s.plan, jobs: 2)
        #expect(third.counts.new == 1 && third.counts.recorded == 0)
        #expect(third.exitStatus == 1)
        #expect(!FileManager.default.fileExists(atPath: s.baseline(0).path))
    }

    // MARK: Changes that fail

    @Test("a one-pixel change in one variant is caught, named and pictured")
    func onePixelChange() throws {
        let s = try SnapshotScene()
        _ = s.checker(writes: .record).run(s.plan, jobs: 2)
        let index = 5
        var baseline = try Raster(contentsOfPNG: s.baseline(index))
        let (x, y) = try #require(centralFlatPixel(baseline))
        baseline.setContrasting(x, y)
        try baseline.pngData().write(to: s.baseline(index))

        let report = s.checker().run(s.plan, jobs: 2)
        let failing = report.results.filter { $0.status != .match }
        #expect(failing.count == 1)
        let r = try #require(failing.first)
        #expect(r.id == s.plan.items[index].variant.variantID)
        #expect(r.status == .mismatch)
        let d = try #require(r.difference)
        #expect(d.mismatchedPixels == 1)
        #expect(d.sameSize)
        #expect(d.maxColorDelta > 0.1)
        #expect(abs(d.mismatchRatio - 1 / Double(baseline.width * baseline.height)) < 1e-12)
        #expect(report.exitStatus == 1)

        // The three pictures: the render, pixelmatch's diff (red at the changed pixel) and expected | actual | diff.
        let outputs = try #require(r.outputs)
        let actual = try Raster(contentsOfPNG: URL(fileURLWithPath: outputs.actual))
        #expect(actual == s.render(index))
        let diff = try Raster(contentsOfPNG: URL(fileURLWithPath: outputs.diff))
        #expect(diff.width == baseline.width && diff.height == baseline.height)
        #expect(diff.rgbaBytes(x, y) == [255, 0, 0, 255])
        let side = try Raster(contentsOfPNG: URL(fileURLWithPath: outputs.sideBySide))
        let w = baseline.width, h = baseline.height
        #expect(side.width == 3 * w + 8 && side.height == h)
        // Left to right: the baseline (with its changed pixel), the render, the diff; grey 4 px gaps between.
        #expect(side.region(x: 0, y: 0, width: w, height: h) == baseline)
        #expect(side.region(x: w + 4, y: 0, width: w, height: h) == s.render(index))
        #expect(side.region(x: 2 * (w + 4), y: 0, width: w, height: h) == diff)
        #expect(side.rgbaBytes(2 * (w + 4) + x, y) == [255, 0, 0, 255], "the red pixel is in the right panel")
        #expect(side.rgbaBytes(w + 4 + x, y) != [255, 0, 0, 255])
        #expect(side.region(x: w, y: 0, width: 4, height: h) == Raster(width: 4, height: h, fill: ImageComparator.gapColor))
        #expect(outputs.actual.hasSuffix("\(r.id).actual.png"))
        #expect(outputs.diff.hasSuffix("\(r.id).diff.png"))
        #expect(outputs.sideBySide.hasSuffix("\(r.id).sidebyside.png"))
    }

    @Test("a size change fails and reports both sizes")
    func sizeChange() throws {
        let s = try SnapshotScene()
        _ = s.checker(writes: .record).run(s.plan, jobs: 2)
        let original = try Raster(contentsOfPNG: s.baseline(2))
        let smaller = original.cropped(to: PixelSize(width: original.width - 3, height: original.height - 2))
        try smaller.pngData().write(to: s.baseline(2))

        let r = s.checker().check(s.plan.items[2].variant, actual: s.render(2))
        #expect(r.status == .mismatch)
        let d = try #require(r.difference)
        #expect(d.expectedSize == PixelSize(width: original.width - 3, height: original.height - 2))
        #expect(d.actualSize == PixelSize(width: original.width, height: original.height))
        #expect(!d.sameSize)
        // The common area is identical, so exactly the pixels outside it differ.
        #expect(d.mismatchedPixels == original.width * original.height - smaller.width * smaller.height)
        let diff = try Raster(contentsOfPNG: URL(fileURLWithPath: try #require(r.outputs).diff))
        #expect(diff.width == original.width && diff.height == original.height)
        #expect(diff.rgbaBytes(original.width - 1, original.height - 1) == [255, 0, 0, 255])

        // Gates never let a size change pass.
        let lenient = SnapshotOptions(maxDiffPixels: Int.max, maxDiffRatio: 1)
        #expect(!lenient.passes(d))
    }

    // MARK: Changes that pass

    @Test("an anti-aliasing-only change (a real AA pixel per pixelmatch's detector) passes")
    func antialiasingOnlyChange() throws {
        let s = try SnapshotScene()
        _ = s.checker(writes: .record).run(s.plan, jobs: 2)
        // The checked state at @2x has the tick's anti-aliased edges.
        let index = try #require(s.plan.items.firstIndex { $0.variant.state == .checked && $0.variant.scale == 2 })
        let original = s.render(index)
        let changed = try #require(antialiasedPixelChange(original), "no anti-aliased pixel found")
        try changed.pngData().write(to: s.baseline(index))

        let r = s.checker().check(s.plan.items[index].variant, actual: original)
        #expect(r.status == .match)
        let d = try #require(r.difference)
        #expect(!d.identical)
        #expect(d.mismatchedPixels == 0)
        #expect(d.antialiasedPixels == 1)
        #expect(d.maxColorDelta > 0.01, "the change is over the threshold, so only AA detection lets it pass")
        #expect(r.outputs == nil)

        // The same change counts with includeAA.
        var strict = SnapshotOptions()
        strict.pixelmatch.includeAA = true
        let counted = SnapshotChecker(store: s.store, output: nil, options: strict).check(s.plan.items[index].variant, actual: original)
        #expect(counted.status == .mismatch)
        #expect(counted.difference?.mismatchedPixels == 1)
    }

    @Test("a colour change within the threshold passes; a stricter threshold catches it")
    func changeWithinThreshold() throws {
        let s = try SnapshotScene()
        _ = s.checker(writes: .record).run(s.plan, jobs: 2)
        var baseline = try Raster(contentsOfPNG: s.baseline(1))
        let (x, y) = try #require(centralFlatPixel(baseline))
        let i = (y * baseline.width + x) * 4
        baseline.pixels[i] = baseline.pixels[i] > 128 ? baseline.pixels[i] - 4 : baseline.pixels[i] + 4
        try baseline.pngData().write(to: s.baseline(1))

        let r = s.checker().check(s.plan.items[1].variant, actual: s.render(1))
        #expect(r.status == .match)
        #expect(r.difference?.identical == false)
        #expect(r.difference?.mismatchedPixels == 0)
        // It passes, but not silently: the report counts it as a match within tolerance.
        #expect(r.withinTolerance)
        let report = s.checker().run(s.plan, jobs: 2)
        #expect(report.counts.match == 8 && report.counts.withinTolerance == 1)
        #expect(report.results.filter(\.withinTolerance).map(\.id) == [s.plan.items[1].variant.variantID])
        #expect(report.exitStatus == 0)

        var strict = SnapshotOptions()
        strict.pixelmatch.threshold = 0
        let caught = SnapshotChecker(store: s.store, output: nil, options: strict).check(s.plan.items[1].variant, actual: s.render(1))
        #expect(caught.status == .mismatch)
        #expect(caught.difference?.mismatchedPixels == 1)
    }

    @Test("gates: --max-diff-pixels, --max-diff-ratio, both")
    func gates() {
        func difference(_ mismatched: Int, of pixels: Int = 100) -> ImageDifference {
            ImageDifference(expectedSize: PixelSize(width: pixels, height: 1), actualSize: PixelSize(width: pixels, height: 1),
                            mismatchedPixels: mismatched, antialiasedPixels: 0, maxColorDelta: 0.5,
                            identical: mismatched == 0, comparedPixels: pixels)
        }
        #expect(SnapshotOptions().passes(difference(0)))
        #expect(!SnapshotOptions().passes(difference(1)))
        #expect(SnapshotOptions(maxDiffPixels: 3).passes(difference(3)))
        #expect(!SnapshotOptions(maxDiffPixels: 3).passes(difference(4)))
        #expect(SnapshotOptions(maxDiffRatio: 0.05).passes(difference(5)))
        #expect(!SnapshotOptions(maxDiffRatio: 0.05).passes(difference(6)))
        #expect(SnapshotOptions(maxDiffPixels: 10, maxDiffRatio: 0.05).passes(difference(5)))
        #expect(!SnapshotOptions(maxDiffPixels: 10, maxDiffRatio: 0.05).passes(difference(6)))
        #expect(!SnapshotOptions(maxDiffPixels: 4, maxDiffRatio: 0.05).passes(difference(5)))
    }

    // MARK: Unreadable baselines

    @Test("truncated, empty and non-PNG baselines are clear failures naming the file, never overwritten",
          arguments: ["truncated", "empty", "text", "directory", "corrupt", "bad-deflate"])
    func unreadableBaseline(kind: String) throws {
        let s = try SnapshotScene()
        _ = s.checker(writes: .record).run(s.plan, jobs: 2)
        let file = s.baseline(3)
        let good = try Data(contentsOf: file)
        let bad: Data
        let reason: String
        switch kind {
        case "truncated": bad = good.prefix(good.count / 2); reason = "truncated"
        case "empty": bad = Data(); reason = "empty"
        case "directory": bad = Data(); reason = "is a folder, not a png file"
        case "corrupt", "bad-deflate":
            // Garble the first bytes of the IDAT chunk's data (its zlib header) after the IHDR chunk.
            var bytes = [UInt8](good)
            let idat = 8 + 25
            #expect(String(decoding: bytes[idat + 4..<idat + 8], as: UTF8.self) == "IDAT")
            let length = bytes[idat..<idat + 4].reduce(0) { $0 << 8 | Int($1) }
            bytes[idat + 8] ^= 0xFF
            bytes[idat + 9] ^= 0xFF
            if kind == "bad-deflate" {
                // Keep the CRC right, so only libpng (zlib) finds the damage.
                let crc = PNGFraming.crc32(bytes[idat + 4..<idat + 8 + length])
                for k in 0..<4 { bytes[idat + 8 + length + k] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * UInt32(k))) }
            }
            bad = Data(bytes)
            reason = kind == "corrupt" ? "crc" : "libpng cannot decode"
        default: bad = Data("version https://git-lfs.github.com/spec/v1\n".utf8); reason = "not a png"
        }
        if kind == "directory" {
            try FileManager.default.removeItem(at: file)
            try FileManager.default.createDirectory(at: file, withIntermediateDirectories: false)
        } else {
            try bad.write(to: file)
        }

        let report = s.checker(writes: [.record, .update, .prune]).run(s.plan, jobs: 2)
        let r = try #require(report.results.first { $0.status == .unreadable })
        #expect(report.counts.unreadable == 1)
        #expect(r.id == s.plan.items[3].variant.variantID)
        #expect(r.baseline == file.path)
        #expect(r.message?.lowercased().contains(reason) == true, "\(r.message ?? "nil")")
        if kind == "bad-deflate" {
            // libpng's own words follow (its error callback passes them up).
            #expect(r.message?.hasPrefix("libpng cannot decode its image data: IDAT: invalid window size") == true,
                    "\(r.message ?? "nil")")
        }
        #expect(r.action == nil)
        #expect(report.exitStatus == 2)
        if kind != "directory" {
            #expect(try Data(contentsOf: file) == bad, "an unreadable baseline is left as it is")
        }
    }

    // MARK: --update

    @Test("--update rewrites the changed baselines and leaves every other file untouched")
    func updateTouchesOnlyChanged() throws {
        let s = try SnapshotScene()
        _ = s.checker(writes: .record).run(s.plan, jobs: 2)
        // Change two baselines: one pixel, one size; and one within the threshold (a match, kept).
        var one = try Raster(contentsOfPNG: s.baseline(0))
        let (x, y) = try #require(centralFlatPixel(one))
        one.setContrasting(x, y)
        try one.pngData().write(to: s.baseline(0))
        let sized = try Raster(contentsOfPNG: s.baseline(6))
        try sized.cropped(to: PixelSize(width: sized.width - 1, height: sized.height)).pngData().write(to: s.baseline(6))
        var slight = try Raster(contentsOfPNG: s.baseline(4))
        let (sx, sy) = try #require(centralFlatPixel(slight))
        slight.pixels[(sy * slight.width + sx) * 4 + 1] ^= 1
        try slight.pngData().write(to: s.baseline(4))

        let old = Date(timeIntervalSince1970: 1_000_000_000)
        var before: [Int: Data] = [:]
        for i in s.plan.items.indices {
            try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: s.baseline(i).path)
            before[i] = try Data(contentsOf: s.baseline(i))
        }

        let report = s.checker(writes: .update).run(s.plan, jobs: 2)
        #expect(report.counts.mismatch == 2 && report.counts.updated == 2)
        #expect(report.exitStatus == 0)
        for i in s.plan.items.indices {
            let attributes = try FileManager.default.attributesOfItem(atPath: s.baseline(i).path)
            let mtime = attributes[.modificationDate] as? Date
            if i == 0 || i == 6 {
                #expect(mtime != old, "baseline \(i) was rewritten")
                #expect(try Raster(contentsOfPNG: s.baseline(i)) == s.render(i))
            } else {
                #expect(mtime == old, "baseline \(i) kept its mtime")
                #expect(try Data(contentsOf: s.baseline(i)) == before[i], "baseline \(i) kept its bytes")
            }
        }
        #expect(s.checker().run(s.plan, jobs: 2).exitStatus == 0)
    }

    // MARK: Stale baselines

    @Test("stale baselines: only under the selected presets' folders, not for filtered-out variants; --prune deletes them")
    func staleAndPrune() throws {
        let s = try SnapshotScene()
        _ = s.checker(writes: .record).run(s.plan, jobs: 2)
        let fm = FileManager.default
        // A variant the spec no longer has (a removed theme), and a PNG deeper down.
        let stale1 = s.snapshots.appendingPathComponent("t/square-md/L/sepia/checked@1x.png")
        let stale2 = s.snapshots.appendingPathComponent("t/square-md/L/default/checked@4x.png")
        // Not baselines of this run: another preset's folder, a dotfile (a temporary file), a text file.
        let otherPreset = s.snapshots.appendingPathComponent("other/square-md/L/default/checked@1x.png")
        let tempFile = s.snapshots.appendingPathComponent("t/square-md/L/default/.checked@1x.png.tmp-1-2")
        let dotFolder = s.snapshots.appendingPathComponent("t/.git/x.png")
        let notes = s.snapshots.appendingPathComponent("t/README.md")
        let png = try Data(contentsOf: s.baseline(0))
        for url in [stale1, stale2, otherPreset, tempFile, dotFolder, notes] {
            try fm.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try png.write(to: url)
        }

        // Filtered to scale 1: the scale-2 baselines are not stale.
        var filter = VariantFilter()
        try filter.add("scale=1")
        let filtered = try Plan(specs: s.plan.specs, filter: filter)
        #expect(filtered.items.count == 4)
        let report = s.checker().run(filtered, jobs: 2)
        let stale = report.results.filter { $0.status == .stale }
        #expect(stale.map(\.baseline) == [stale2.path, stale1.path].sorted())
        #expect(stale.map(\.id).contains("t/square-md/L/sepia/checked@1x"))
        #expect(report.exitStatus == 0, "stale baselines are reported, not failures")
        #expect(fm.fileExists(atPath: stale1.path))

        let pruned = s.checker(writes: .prune).run(filtered, jobs: 2)
        #expect(pruned.counts.pruned == 2)
        #expect(!fm.fileExists(atPath: stale1.path) && !fm.fileExists(atPath: stale2.path))
        for kept in [otherPreset, tempFile, dotFolder, notes] { #expect(fm.fileExists(atPath: kept.path)) }
        for i in s.plan.items.indices { #expect(fm.fileExists(atPath: s.baseline(i).path)) }
        #expect(s.checker().run(s.plan, jobs: 2).counts.stale == 0)
    }

    // MARK: Concurrency

    @Test("two recorders at once leave whole, correct baselines")
    func concurrentRecorders() throws {
        let s = try SnapshotScene()
        let checker = s.checker(writes: .record)
        let items = s.plan.items
        // 2 × 8 checks interleaved on 4 threads, each writing through AtomicFile.
        let results = parallelMap(items.count * 2, jobs: 4) { i in
            let item = items[i % items.count]
            return checker.check(item.variant, actual: Renderer.raster(item.layout, spec: item.spec))
        }
        #expect(results.allSatisfy { $0.writeError == nil })
        for i in items.indices { #expect(try Raster(contentsOfPNG: s.baseline(i)) == s.render(i)) }
        #expect(s.checker().run(s.plan, jobs: 2).exitStatus == 0)
        #expect(PNGFiles.list(under: s.snapshots).count == items.count)
    }

    // MARK: The comparator and the folder diff

    @Test("different sizes: the common area with pixelmatch, the rest of the canvas counts")
    func comparatorSizes() {
        let a = Raster(width: 3, height: 2, fill: .white)
        let b = Raster(width: 2, height: 3, fill: .white)
        let (d, diff) = ImageComparator.compare(expected: a, actual: b, diffImage: true)
        #expect(d.expectedSize == PixelSize(width: 3, height: 2) && d.actualSize == PixelSize(width: 2, height: 3))
        #expect(d.comparedPixels == 9 && d.mismatchedPixels == 5)
        #expect(diff?.width == 3 && diff?.height == 3)
        #expect(diff?.rgbaBytes(2, 2) == [255, 0, 0, 255])
        #expect(diff?.rgbaBytes(0, 0) == [255, 255, 255, 255])

        let same = ImageComparator.compare(expected: a, actual: a)
        #expect(same.difference.identical && same.diff == nil)
        // expected (3 × 2) | actual (2 × 3) | diff (3 × 3), 2 px apart: the panels by their sizes and colours.
        let red = Raster(width: 3, height: 3, fill: RGBA(r8: 255, g8: 0, b8: 0, a8: 255))
        let side = ImageComparator.sideBySide(expected: a, actual: b, diff: red, gap: 2)
        #expect(side.width == 3 + 2 + 2 + 2 + 3 && side.height == 3)
        #expect(side.rgbaBytes(3, 0) == [128, 128, 128, 255])
        #expect(side.region(x: 0, y: 0, width: 3, height: 2) == a && side.rgbaBytes(0, 2) == [128, 128, 128, 255], "expected on the left, grey under it")
        #expect(side.region(x: 5, y: 0, width: 2, height: 3) == b, "actual in the middle")
        #expect(side.region(x: 9, y: 0, width: 3, height: 3) == red, "the diff on the right")
    }

    @Test("folder diff: pairs by relative path, lists one-sided files, names unreadable files")
    func folderDiff() throws {
        let root = ScratchFolder()
        let a = root.url.appendingPathComponent("a")
        let b = root.url.appendingPathComponent("b")
        let white = try Raster(width: 4, height: 4, fill: .white).pngData()
        var dotted = Raster(width: 4, height: 4, fill: .white)
        dotted.setContrasting(1, 1)
        let files: [(URL, Data)] = [
            (a.appendingPathComponent("same.png"), white), (b.appendingPathComponent("same.png"), white),
            (a.appendingPathComponent("sub/changed.png"), white), (b.appendingPathComponent("sub/changed.png"), try dotted.pngData()),
            (a.appendingPathComponent("left-only.png"), white), (b.appendingPathComponent("sub/right-only.png"), white),
            (a.appendingPathComponent("broken.png"), white), (b.appendingPathComponent("broken.png"), Data("nope".utf8)),
            (b.appendingPathComponent(".hidden.png"), white),
        ]
        for (url, data) in files {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url)
        }
        let out = root.url.appendingPathComponent("out")
        let report = ImageDiff.compareFolders(a, b, output: out, jobs: 2)
        #expect(report.pairs.map(\.path) == ["broken.png", "same.png", "sub/changed.png"])
        #expect(report.onlyInA == ["left-only.png"])
        #expect(report.onlyInB == ["sub/right-only.png"])
        #expect(report.pairs[1].status == .match)
        #expect(report.pairs[2].status == .differ && report.pairs[2].difference?.mismatchedPixels == 1)
        #expect(report.pairs[0].status == .unreadable)
        #expect(report.pairs[0].message?.contains(b.appendingPathComponent("broken.png").path) == true)
        #expect(report.exitStatus == 2)
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("sub/changed.png").path))
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("same.png").path))
    }

    @Test("identical renders are not within tolerance; a match within the gates is")
    func withinToleranceCounts() throws {
        let s = try SnapshotScene()
        _ = s.checker(writes: .record).run(s.plan, jobs: 2)
        let clean = s.checker().run(s.plan, jobs: 2)
        #expect(clean.counts.withinTolerance == 0 && !clean.results.contains { $0.withinTolerance })

        // One pixel over the threshold, let through by --max-diff-pixels 1: a match within tolerance.
        var baseline = try Raster(contentsOfPNG: s.baseline(0))
        let (x, y) = try #require(centralFlatPixel(baseline))
        baseline.setContrasting(x, y)
        try baseline.pngData().write(to: s.baseline(0))
        let gated = SnapshotChecker(store: s.store, output: nil, options: SnapshotOptions(maxDiffPixels: 1)).run(s.plan, jobs: 2)
        #expect(gated.counts.match == 8 && gated.counts.withinTolerance == 1)
        #expect(gated.results[0].withinTolerance && gated.results[0].difference?.mismatchedPixels == 1)
        // Without the gate it is a mismatch, which is not "within tolerance".
        let strict = s.checker().run(s.plan, jobs: 2)
        #expect(strict.counts.withinTolerance == 0 && strict.results[0].status == .mismatch)
    }

    // MARK: Stale scope

    @Test("stale scope: the whole folder (root and vanished presets' folders) for the default selection; never what --only filters out")
    func staleWholeFolder() throws {
        let s = try SnapshotScene()
        _ = s.checker(writes: .record).run(s.plan, jobs: 2)
        let fm = FileManager.default
        let png = try Data(contentsOf: s.baseline(0))
        let atRoot = s.snapshots.appendingPathComponent("stray.png")
        let vanished = s.snapshots.appendingPathComponent("old-preset/square-md/L/default/checked@1x.png")
        let inSpec = s.snapshots.appendingPathComponent("t/square-md/L/sepia/checked@1x.png")
        // Never baselines: dotfiles, dot-folders, other files.
        let kept = ["old-preset/.x.png.tmp-1-2", ".git/y.png", "notes.txt"].map { s.snapshots.appendingPathComponent($0) }
        for url in [atRoot, vanished, inSpec] + kept {
            try fm.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try png.write(to: url)
        }

        func stale(_ plan: Plan, _ scope: StaleScope) -> [String] {
            SnapshotChecker(store: s.store, output: nil, staleScope: scope).run(plan, jobs: 2)
                .results.filter { $0.status == .stale }.map(\.baseline)
        }
        let everything = [atRoot, vanished, inSpec].map(\.path).sorted()
        #expect(stale(s.plan, .wholeFolder) == everything)
        #expect(stale(s.plan, .specFolders) == [inSpec.path], "a picked selection looks only at its own folders")

        // A filter never changes the stale list: the filtered-out baselines of the spec are not stale.
        var filter = VariantFilter()
        try filter.add("scale=2")
        try filter.add("state=checked")
        let filtered = try Plan(specs: s.plan.specs, filter: filter)
        #expect(filtered.items.count == 2)
        #expect(stale(filtered, .wholeFolder) == everything)

        let ids = SnapshotChecker(store: s.store, output: nil, staleScope: .wholeFolder).staleBaselines(of: s.plan.specs).map(\.id)
        #expect(ids == ["old-preset/square-md/L/default/checked@1x", "stray", "t/square-md/L/sepia/checked@1x"])

        let pruned = SnapshotChecker(store: s.store, output: nil, writes: .prune, staleScope: .wholeFolder).run(filtered, jobs: 2)
        #expect(pruned.counts.pruned == 3)
        for url in [atRoot, vanished, inSpec] { #expect(!fm.fileExists(atPath: url.path)) }
        for url in kept { #expect(fm.fileExists(atPath: url.path), "\(url.path)") }
        for i in s.plan.items.indices { #expect(fm.fileExists(atPath: s.baseline(i).path)) }
    }

    // MARK: The colour difference's scale

    @Test("maxColorDelta is on --threshold's scale: √(YIQ delta / 35215), checked against the formula for a grey step")
    func colorDeltaScale() {
        // A flat 3×3 grey 200 with its centre at 190: only the Y term of pixelmatch's YIQ metric is
        // non-zero (R = G = B), and 8 equal neighbours rule out anti-aliasing.
        let expected = Raster(width: 3, height: 3, fill: RGBA(r8: 200, g8: 200, b8: 200))
        var actual = expected
        for c in 0..<3 { actual.pixels[4 * 4 + c] = 190 }
        // By hand: ΔY = 10 · (0.29889531 + 0.58662247 + 0.11448223) = 10.00000001;
        // delta = 0.5053 · ΔY² = 50.53000001; √(50.53 / 35215) = 0.0378801…
        let y = 10 * (0.29889531 + 0.58662247 + 0.11448223)
        let byHand = (0.5053 * y * y / 35215).squareRoot()
        #expect(abs(byHand - 0.03788) < 1e-5)
        let d = ImageComparator.compare(expected: expected, actual: actual).difference
        #expect(abs(d.maxColorDelta - byHand) < 1e-12)
        #expect(d.maxColorDeltaText == "0.038")
        // The same scale as the threshold: counted just below the value, not just above it.
        for (threshold, counted) in [(0.0378, 1), (0.0379, 0), (0.1, 0)] {
            let options = PixelmatchOptions(threshold: threshold)
            #expect(ImageComparator.compare(expected: expected, actual: actual, options: options).difference.mismatchedPixels == counted,
                    "threshold \(threshold)")
        }

        // Black on white: ΔY = 255 → √(0.5053 · 255² / 35215) = 0.96594 (pixelmatch's own scale said 0.933).
        var dot = Raster(width: 3, height: 3, fill: .white)
        for c in 0..<3 { dot.pixels[4 * 4 + c] = 0 }
        let black = ImageComparator.compare(expected: Raster(width: 3, height: 3, fill: .white), actual: dot).difference
        let blackY = 255 * (0.29889531 + 0.58662247 + 0.11448223)
        #expect(abs(black.maxColorDelta - (0.5053 * blackY * blackY / 35215).squareRoot()) < 1e-12)
        #expect(abs(black.maxColorDelta - 0.96594) < 1e-5)
        #expect(black.maxColorDeltaText == "0.966")
    }

    @Test("the smallest real colour difference never prints as 0.000")
    func colorDeltaText() {
        // One alpha level on a near-white pixel, blended over white: 254 vs 255 − 254/255, so
        // ΔY = 1/255 and the difference is √(0.5053 / 255² / 35215) = 0.0000149.
        let a = Raster(width: 3, height: 3, fill: RGBA(r8: 254, g8: 254, b8: 254, a8: 255))
        var b = a
        b.pixels[4 * 4 + 3] = 254
        let d = ImageComparator.compare(expected: a, actual: b).difference
        #expect(abs(d.maxColorDelta - (0.5053 / 35215).squareRoot() / 255) < 1e-9)
        #expect(d.mismatchedPixels == 0 && !d.identical)
        #expect(d.maxColorDeltaText == "0.000015")
        #expect(ImageDifference.format(colorDelta: 0) == "0")
        #expect(ImageDifference.format(colorDelta: 1) == "1.000")
        #expect(ImageDifference.format(colorDelta: 0.25) == "0.250")
        #expect(ImageDifference.format(colorDelta: 0.0042) == "0.0042")
    }

    // MARK: Writes that fail

    @Test("a folder that cannot be made: the message names the file, the folder and the system's reason")
    func atomicWriteErrors() throws {
        let root = ScratchFolder()
        let file = root.url.appendingPathComponent("afile")
        try Data("x".utf8).write(to: file)
        let target = file.appendingPathComponent("sub/x.png")
        #expect {
            try AtomicFile.write(Data("png".utf8), to: target)
        } throws: { error in
            let e = error as? InputError
            return e?.file == target.path && e?.message == "cannot write: \(file.path) is a file, not a folder (Not a directory)"
        }
        // The parent itself is a file.
        #expect {
            try AtomicFile.write(Data("png".utf8), to: file.appendingPathComponent("x.png"))
        } throws: { error in
            "\(error)".contains("\(file.path) is a file, not a folder (Not a directory)")
        }
        // A folder the system refuses to create.
        #expect {
            try AtomicFile.write(Data("png".utf8), to: URL(fileURLWithPath: "/proc/glyphaudit-nope/x.png"))
        } throws: { error in
            "\(error)" == "/proc/glyphaudit-nope/x.png: cannot write: cannot create the folder /proc/glyphaudit-nope: "
                + String(cString: strerror(ENOENT))
        }
        // Writing a name that is a folder.
        let folder = root.url.appendingPathComponent("folder")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        #expect {
            try AtomicFile.write(Data("png".utf8), to: folder)
        } throws: { error in
            "\(error)" == "\(folder.path): cannot write: Is a directory"
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: root.url.path)
        #expect(!left.contains { $0.contains(".tmp-") }, "a failed write leaves no temporary file: \(left)")
        // And it still writes, making every missing folder.
        let deep = root.url.appendingPathComponent("a/b/c/x.png")
        try AtomicFile.write(Data("png".utf8), to: deep)
        #expect(try Data(contentsOf: deep) == Data("png".utf8))
    }

    @Test("an unflushed write (a cache entry): in place at once, inside a transaction too, and kept when the transaction fails")
    func unflushedWrite() throws {
        let root = ScratchFolder()
        let entry = root.url.appendingPathComponent("cache/ab/key.entry")
        let other = root.url.appendingPathComponent("report.json")
        // A transaction whose other write fails: the entry stays, the other file is not written.
        let (_, failure) = try AtomicFile.transaction {
            try AtomicFile.writeUnflushed(Data("one".utf8), to: entry)
            #expect(try Data(contentsOf: entry) == Data("one".utf8), "in place before the transaction ends")
            try? AtomicFile.write(Data("r".utf8), to: other)
            try? AtomicFile.write(Data("x".utf8), to: URL(fileURLWithPath: "/proc/glyphaudit-nope/x.png"))
        }
        #expect(failure != nil && !FileManager.default.fileExists(atPath: other.path))
        #expect(try Data(contentsOf: entry) == Data("one".utf8))
        // Replaced by a later write; no temporary file left.
        try AtomicFile.writeUnflushed(Data("two".utf8), to: entry)
        #expect(try Data(contentsOf: entry) == Data("two".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: entry.deletingLastPathComponent().path) == ["key.entry"])
        // A name that is a folder: an error naming the file.
        #expect { try AtomicFile.writeUnflushed(Data("x".utf8), to: root.url.appendingPathComponent("cache")) } throws: { error in
            "\(error)".hasPrefix(root.url.appendingPathComponent("cache").path + ": cannot write:")
        }
    }

    // MARK: The two-file diff

    @Test("two-file diff: an unreadable A is named (not B), both are named when both are unreadable")
    func twoFileUnreadable() throws {
        let root = ScratchFolder()
        let good = root.url.appendingPathComponent("good.png")
        let bad = root.url.appendingPathComponent("bad.png")
        let empty = root.url.appendingPathComponent("empty.png")
        try Raster(width: 2, height: 2, fill: .white).pngData().write(to: good)
        try Data("nope".utf8).write(to: bad)
        try Data().write(to: empty)

        let aBad = ImageDiff.compareFiles(bad, good, name: "good.png")
        #expect(aBad.status == .unreadable)
        #expect(aBad.unreadableFiles == [bad.path])
        #expect(aBad.message == "\(bad.path): not a PNG file (bad signature)")

        let bBad = ImageDiff.compareFiles(good, bad, name: "bad.png")
        #expect(bBad.unreadableFiles == [bad.path])

        let both = ImageDiff.compareFiles(bad, empty, name: "empty.png")
        #expect(both.unreadableFiles == [bad.path, empty.path])
        #expect(both.message == "\(bad.path): not a PNG file (bad signature); \(empty.path): the file is empty (0 bytes)")
    }
}

// MARK: - Helpers

/// A fresh temporary folder, removed when released.
private final class ScratchFolder {
    let url: URL

    init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("glyphaudit-snapshot-test-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}

/// A small spec (1 size × 2 Dynamic Type sizes × 1 theme × 2 states × 2 scales = 8 variants),
/// its plan, and a snapshot folder and output folder in a temporary folder.
private struct SnapshotScene {
    static let specJSON = SmallSpec.json

    let folder = ScratchFolder()
    let plan: Plan
    var snapshots: URL { folder.url.appendingPathComponent("snapshots") }
    var out: URL { folder.url.appendingPathComponent("out") }
    var store: SnapshotStore { SnapshotStore(root: snapshots) }

    init() throws {
        let file = folder.url.appendingPathComponent("spec.json")
        try Data(Self.specJSON.utf8).write(to: file)
        plan = try Plan(specs: [try Spec.load(contentsOf: file)])
    }

    func checker(writes: SnapshotWrites = []) -> SnapshotChecker {
        SnapshotChecker(store: store, output: out, writes: writes)
    }

    func baseline(_ i: Int) -> URL { store.url(of: plan.items[i].variant) }

    func render(_ i: Int) -> Raster { Renderer.raster(plan.items[i].layout, spec: plan.items[i].spec) }
}
