import Foundation
import Testing
import GlyphCore
import GlyphPipeline
import GlyphRaster
import GlyphRender
import GlyphReport
import GlyphSnapshot
import GlyphTestSupport
import GlyphSnapshotTestSupport

// The renderer fingerprint of a snapshot folder (renderer.json): what it records, how it is read
// and compared, and how it decides between an exact and a tolerant comparison.

@Suite("Renderer fingerprint of the baselines")
struct FingerprintTests {
    // MARK: What it records

    @Test("SHA-256 gives the FIPS 180-2 example digests (empty, one block, two blocks, a million bytes)")
    func sha256Vectors() {
        #expect(SHA256.hex(Data()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(Data("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex(Data("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256.hex(Data(repeating: UInt8(ascii: "a"), count: 1_000_000))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test("SHA-256 agrees with sha256sum at the padding edges (55, 56, 63, 64, 65 and 119 bytes)",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/sha256sum")))
    func sha256Edges() throws {
        let folder = TempFolder()
        for count in [55, 56, 63, 64, 65, 119] {
            let bytes = Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) })
            let file = folder.url.appendingPathComponent("\(count).bin")
            try bytes.write(to: file)
            let reference = try tool("/usr/bin/sha256sum", [file.path]).prefix(64)
            #expect(SHA256.hex(bytes) == reference, "\(count) bytes")
        }
    }

    @Test("the library versions are the ones pkg-config names for the installed libraries",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/pkg-config")))
    func libraryVersions() throws {
        func modversion(_ package: String) throws -> String {
            try tool("/usr/bin/pkg-config", ["--modversion", package]).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(RendererVersions.cairo == (try modversion("cairo")))
        #expect(RendererVersions.pango == (try modversion("pango")))
        #expect(RendererVersions.librsvg == (try modversion("librsvg-2.0")))
        #expect(RendererVersions.libpng == (try modversion("libpng")))
        #expect(RendererVersions.zlib == (try modversion("zlib")))
        let names = RendererVersions.components.map(\.key)
        #expect(names == RendererFingerprint.order, "every component, in the documented order")
        #expect(RendererFingerprint.current.components["glyphaudit-render"] == "\(RendererVersions.render)")
    }

    @Test("the label fonts are the files fontconfig resolves for the label families, hashed like sha256sum",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/fc-match")
                   && FileManager.default.isExecutableFile(atPath: "/usr/bin/sha256sum")))
    func labelFonts() throws {
        let fonts = Dictionary(uniqueKeysWithValues: RendererVersions.labelFonts.map { ($0.key, $0.value) })
        // fontconfig's weight 180 is semibold (pango's PANGO_WEIGHT_SEMIBOLD).
        for (key, pattern) in [("font-regular", ""), ("font-semibold", ":weight=180")] {
            let families = "Inter,DejaVu Sans" + pattern
            let file = try tool("/usr/bin/fc-match", ["-f", "%{file}", families])
            let family = try tool("/usr/bin/fc-match", ["-f", "%{family[0]}", families])
            let hash = try tool("/usr/bin/sha256sum", [file]).prefix(64)
            let value = try #require(fonts[key])
            #expect(value.hasPrefix(family + " ") || value.hasPrefix(family + ","), "\(key): \(value) is not \(family)")
            #expect(value.hasSuffix(" sha256:\(hash)"), "\(key): \(value), \(file) hashes to \(hash)")
        }
    }

    // MARK: The file

    @Test("renderer.json: sorted keys, the same bytes for the same fingerprint, read back as written")
    func fileRoundTrip() throws {
        let folder = TempFolder()
        let fp = RendererFingerprint(components: ["zlib": "1.3", "cairo": "1.18.0", "font-regular": "Inter sha256:00ff"])
        try fp.write(in: folder.url)
        let data = try Data(contentsOf: folder.url.appendingPathComponent("renderer.json"))
        #expect(data == RendererFingerprint(components: ["font-regular": "Inter sha256:00ff", "cairo": "1.18.0", "zlib": "1.3"]).fileData())
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.hasSuffix("}\n"))
        let top = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(Set(top.keys) == ["about", "components", "format"])
        #expect(top["format"] as? Int == 1)
        #expect(text.range(of: "\"cairo\"")!.lowerBound < text.range(of: "\"font-regular\"")!.lowerBound
                && text.range(of: "\"font-regular\"")!.lowerBound < text.range(of: "\"zlib\"")!.lowerBound, "sorted keys")
        #expect(try RendererFingerprint.read(in: folder.url) == .found(fp))
        #expect(try RendererFingerprint.read(in: folder.url.appendingPathComponent("nowhere")) == .missing)
    }

    @Test("a renderer.json that is not a fingerprint is bad input naming the file and what is wrong",
          arguments: [
            ("{\"form", "", "not a renderer fingerprint: not valid JSON"),
            ("[]", "", "not a renderer fingerprint: expected a JSON object with \"format\" and \"components\""),
            ("{\"components\": {}}", ": format", "missing"),
            ("{\"format\": \"1\", \"components\": {}}", ": format", "must be a whole number"),
            ("{\"format\": 1}", ": components", "missing"),
            ("{\"format\": 1, \"components\": [\"cairo\"]}", ": components", "must be an object of names and versions"),
            ("{\"format\": 1, \"components\": {\"cairo\": 1.16}}", ": components.cairo", "must be a string (a version)"),
          ])
    func badFile(_ text: String, _ keyPath: String, _ message: String) throws {
        let folder = TempFolder()
        let file = folder.write("renderer.json", text)
        let error = try #require(throws: InputError.self) { try RendererFingerprint.read(in: folder.url) }
        #expect(error.description.hasPrefix("\(file.path)\(keyPath): \(message)"), "\(error)")
    }

    @Test("a renderer.json of another format is not an error: it is another renderer's")
    func otherFormat() throws {
        let folder = TempFolder()
        folder.write("renderer.json", "{\"format\": 2, \"renderer\": \"something else\"}")
        #expect(try RendererFingerprint.read(in: folder.url) == .otherFormat(2))
        let c = try SnapshotComparison.of(folder.url, renderer: Self.renderer, display: "snap/renderer.json")
        #expect(!c.exact)
        #expect(c.reasons == ["snap/renderer.json has format 2, this glyphaudit writes 1: comparing with anti-aliasing tolerance"])
    }

    // MARK: Exact or tolerant

    static let renderer = RendererFingerprint(components: [
        "glyphaudit-render": "1", "cairo": "1.18.0", "pango": "1.54.0", "librsvg": "2.58.0", "libpng": "1.6.43", "zlib": "1.3",
        "font-regular": "Inter sha256:a7e791e8f5a0fb02b65663f7fca73e1d1ca9543f772ad480cbd76f4e3fe3f8cc",
    ])

    @Test("the same fingerprint compares exactly; each changed component is named, in order; a missing file is named")
    func comparisonOf() throws {
        let folder = TempFolder()
        let missing = try SnapshotComparison.of(folder.url, renderer: Self.renderer, display: "snap/renderer.json")
        #expect(!missing.exact)
        #expect(missing.reasons == ["snap/renderer.json missing: comparing with anti-aliasing tolerance (check --record or --update writes it)"])

        try Self.renderer.write(in: folder.url)
        let same = try SnapshotComparison.of(folder.url, renderer: Self.renderer, display: "snap/renderer.json")
        #expect(same.exact && same.reasons.isEmpty && same.fingerprintCurrent)

        var old = Self.renderer
        old.components["zlib"] = "1.2.13"
        old.components["cairo"] = "1.16.0"
        old.components["font-regular"] = "Inter sha256:1111111111111111111111111111111111111111111111111111111111111111"
        old.components["font-semibold"] = "Inter Semi-Bold sha256:22"
        try old.write(in: folder.url)
        let changed = try SnapshotComparison.of(folder.url, renderer: Self.renderer, display: "snap/renderer.json")
        #expect(!changed.exact && !changed.fingerprintCurrent)
        #expect(changed.reasons == [
            "cairo 1.16.0 → 1.18.0: comparing with anti-aliasing tolerance",
            "zlib 1.2.13 → 1.3: comparing with anti-aliasing tolerance",
            "font-regular Inter sha256:111111111111… → Inter sha256:a7e791e8f5a0…: comparing with anti-aliasing tolerance",
            "font-semibold Inter Semi-Bold sha256:22 → (none): comparing with anti-aliasing tolerance",
        ])
        let rebase = try SnapshotComparison.of(folder.url, renderer: Self.renderer, display: "snap/renderer.json", rebase: true)
        #expect(rebase.exact, "--update of another renderer's folder compares exactly")
        #expect(rebase.reasons.first == "cairo 1.16.0 → 1.18.0: --update rewrites every baseline that changed")
    }

    @Test("exact: an anti-aliasing-only change and a 3-level colour change count; tolerant: both pass within tolerance")
    func exactCountsEveryPixel() throws {
        let s = try Scene()
        let i = 1
        let render = s.render(i)
        let aa = try #require(antialiasedPixelChange(render), "no anti-aliased pixel found")
        var slight = render
        let (x, y) = try #require(centralFlatPixel(slight))
        let p = (y * slight.width + x) * 4
        slight.pixels[p] = slight.pixels[p] > 128 ? slight.pixels[p] - 3 : slight.pixels[p] + 3
        let variant = s.plan.items[i].variant

        for (baseline, what) in [(aa, "anti-aliased pixel"), (slight, "3 levels in one channel")] {
            try baseline.pngData().write(to: s.prepared(variant))
            let tolerant = SnapshotChecker(store: s.store, output: nil).check(variant, actual: render)
            #expect(tolerant.status == .match && tolerant.withinTolerance, "\(what): \(tolerant)")

            try Self.renderer.write(in: s.snapshots)
            let comparison = try SnapshotComparison.of(s.snapshots, renderer: Self.renderer, display: "x")
            let exact = SnapshotChecker(store: s.store, output: nil, comparison: comparison).check(variant, actual: render)
            #expect(exact.status == .mismatch, "\(what): \(exact)")
            #expect(exact.difference?.mismatchedPixels == 1 && exact.difference?.antialiasedPixels == 0, "\(what)")
            // The gates still apply as given.
            let gated = SnapshotChecker(store: s.store, output: nil, options: SnapshotOptions(maxDiffPixels: 1), comparison: comparison)
            #expect(gated.check(variant, actual: render).status == .match, "\(what)")
            try FileManager.default.removeItem(at: s.snapshots.appendingPathComponent("renderer.json"))
        }
        // A threshold the user gave is kept: 0.1 lets the 3-level change through even when exact.
        try Self.renderer.write(in: s.snapshots)
        let comparison = try SnapshotComparison.of(s.snapshots, renderer: Self.renderer, display: "x")
        let given = SnapshotChecker(store: s.store, output: nil, options: SnapshotOptions(exactThreshold: 0.1), comparison: comparison)
        #expect(given.check(variant, actual: render).status == .match)
        #expect(SnapshotOptions().exactPixelmatch.threshold == 0 && SnapshotOptions().exactPixelmatch.includeAA)
    }

    // MARK: Writing it

    @Test("--record into an empty folder writes renderer.json; a plain check writes nothing")
    func recordWrites() throws {
        let s = try Scene()
        let plain = try s.checker(writes: []).run(s.plan, jobs: 2, render: s.renderItem)
        #expect(plain.fingerprintWritten == nil && !FileManager.default.fileExists(atPath: s.fingerprint.path))
        #expect(plain.comparisonNotes == nil, "nothing was compared: no note about the fingerprint")

        let recorded = try s.checker(writes: .record).run(s.plan, jobs: 2, render: s.renderItem)
        #expect(recorded.counts.recorded == 8)
        #expect(recorded.fingerprintWritten == s.fingerprint.path)
        #expect(try Data(contentsOf: s.fingerprint) == Self.renderer.fileData())
        let again = try s.checker(writes: []).run(s.plan, jobs: 2, render: s.renderItem)
        #expect(again.exact == true && again.comparisonNotes == nil && again.counts.match == 8)
    }

    @Test("--record keeps another renderer's folder as it is while a baseline differs; --update rebases it")
    func recordKeepsUpdateRebases() throws {
        let s = try Scene()
        _ = try s.checker(writes: .record).run(s.plan, jobs: 2, render: s.renderItem)
        try FileManager.default.removeItem(at: s.fingerprint)
        // One baseline differs by an anti-aliased pixel, as another cairo would draw it.
        let variant = s.plan.items[1].variant
        try #require(antialiasedPixelChange(s.render(1))).pngData().write(to: s.store.url(of: variant))

        let record = try s.checker(writes: .record).run(s.plan, jobs: 2, render: s.renderItem)
        #expect(record.exitStatus == 0 && record.counts.withinTolerance == 1)
        #expect(record.fingerprintWritten == nil && !FileManager.default.fileExists(atPath: s.fingerprint.path))
        #expect(record.fingerprintNote == "\(s.fingerprint.path) not written: 1 baseline differs from this renderer's render "
                + "within tolerance (run with --update to rewrite them and the fingerprint)")
        #expect(record.comparisonNotes == ["renderer.json missing: comparing with anti-aliasing tolerance (check --record or --update writes it)"])

        let update = try s.checker(writes: .update).run(s.plan, jobs: 2, render: s.renderItem)
        #expect(update.counts.updated == 1 && update.exitStatus == 0)
        #expect(update.fingerprintWritten == s.fingerprint.path)
        #expect(try Raster(contentsOfPNG: s.store.url(of: variant)) == s.render(1))
        let exact = try s.checker(writes: []).run(s.plan, jobs: 2, render: s.renderItem)
        #expect(exact.exact == true && exact.counts.match == 8 && exact.counts.withinTolerance == 0)
    }

    @Test("with newSnapshots, a variant without a baseline leaves its render there, beside the fingerprint")
    func newSnapshots() throws {
        let s = try Scene()
        let folder = s.folder.url.appendingPathComponent("new")
        var checker = try s.checker(writes: [])
        checker.newSnapshots = folder
        let report = checker.run(s.plan, jobs: 2, render: s.renderItem)
        #expect(report.missing.count == 8 && report.exitStatus == 1)
        #expect(report.newSnapshots == folder.path)
        #expect(PNGFiles.list(under: folder) == s.plan.items.map { $0.variant.fileName("png") }.sorted())
        for (i, item) in s.plan.items.enumerated() {
            #expect(try Raster(contentsOfPNG: folder.appendingPathComponent(item.variant.fileName("png"))) == s.render(i))
        }
        #expect(try RendererFingerprint.read(in: folder) == .found(Self.renderer))
        #expect(!FileManager.default.fileExists(atPath: s.snapshots.path), "the snapshot folder is not touched")
    }

    // MARK: One wording

    @Test("a mismatch is worded once: check's list and the report's message are ImageDifference.summary")
    func oneWording() throws {
        let d = ImageDifference(expectedSize: PixelSize(width: 56, height: 56), actualSize: PixelSize(width: 56, height: 56),
                                mismatchedPixels: 3, antialiasedPixels: 2, maxColorDelta: 0.9660, identical: false,
                                comparedPixels: 3136)
        #expect(d.summary == "3 px differ (0.096% of 3136), largest colour difference 0.966, 2 anti-aliased px ignored")
        let sized = ImageDifference(expectedSize: PixelSize(width: 56, height: 56), actualSize: PixelSize(width: 28, height: 28),
                                    mismatchedPixels: 3136, antialiasedPixels: 0, maxColorDelta: 0, identical: false,
                                    comparedPixels: 3136)
        #expect(sized.summary == "size changed: baseline 56×56 px, render 28×28 px")

        let mismatch = SnapshotResult(id: "t/square-md/L/default/checked@2x", status: .mismatch, baseline: "/x/a.png", difference: d)
        let tolerated = SnapshotResult(id: "t/square-md/L/default/checked@1x", status: .match, baseline: "/x/b.png", difference: d)
        let same = SnapshotResult(id: "t/square-md/L/default/unchecked@1x", status: .match, baseline: "/x/c.png",
                                  difference: .identical(PixelSize(width: 28, height: 28)))
        #expect(mismatch.differenceSummary == d.summary)
        #expect(tolerated.differenceSummary == "differs within tolerance: " + d.summary)
        #expect(same.differenceSummary == nil)
        let section = try SnapshotSection(SnapshotReport(snapshots: "/x", results: [mismatch, tolerated, same]),
                                          folder: URL(fileURLWithPath: "/x"), report: URL(fileURLWithPath: "/r"),
                                          cwd: URL(fileURLWithPath: "/"))
        #expect(section.results.map(\.message) == [d.summary, "differs within tolerance: " + d.summary, nil])
    }
}

/// A small spec (8 variants), its plan and a snapshot folder in a temporary folder; the checker it
/// makes takes `FingerprintTests.renderer` as the renderer of this process.
private struct Scene {
    let folder = TempFolder()
    let plan: Plan
    var snapshots: URL { folder.url.appendingPathComponent("snapshots") }
    var store: SnapshotStore { SnapshotStore(root: snapshots) }
    var fingerprint: URL { snapshots.appendingPathComponent("renderer.json") }

    init() throws {
        let file = folder.write("spec.json", SmallSpec.json)
        plan = try Plan(specs: [try Spec.load(contentsOf: file)])
    }

    func checker(writes: SnapshotWrites) throws -> SnapshotChecker {
        let comparison = try SnapshotComparison.of(snapshots, renderer: FingerprintTests.renderer, display: "renderer.json",
                                                   rebase: writes.contains(.update))
        return SnapshotChecker(store: store, output: nil, writes: writes, comparison: comparison)
    }

    func render(_ i: Int) -> Raster { Renderer.raster(plan.items[i].layout, spec: plan.items[i].spec) }

    var renderItem: @Sendable (PlannedVariant) -> Raster { { Renderer.raster($0.layout, spec: $0.spec) } }

    /// The baseline's URL, its folder created.
    func prepared(_ v: Variant) throws -> URL {
        let url = store.url(of: v)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        return url
    }
}

/// Runs a tool to its end; its standard output.
private func tool(_ path: String, _ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
}
