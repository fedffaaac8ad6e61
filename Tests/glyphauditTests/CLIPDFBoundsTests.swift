import Foundation
import Testing
import GlyphTestSupport

/// The PDF reproducers of Tests/Fixtures/bad-input (12–15), run as their repro.sh runs them: exit 2,
/// one line naming the spec key, the PDF and what is too large, nothing written; each in well under
/// a second of CPU and 100 MB (measured with /usr/bin/time around the binary; CPU time, user and
/// system, rather than the clock, which other work on a busy machine slows). The scanner itself is tested
/// on small PDFs in GlyphCoreTests/PDFScanTests.swift.
@Suite("Bad input: PDF work bounds (reproducers 12–15)")
struct CLIPDFBoundsTests {
    /// Runs the tool under /usr/bin/time: its result (stderr without time's line), CPU seconds and peak KB.
    static func measured(_ arguments: [String], in dir: URL) throws -> (CLI.Result, seconds: Double, kb: Int) {
        let time = URL(fileURLWithPath: "/usr/bin/time")
        var r = try CLI.launch(time, ["-f", "%U %S %M", CLI.binary.path] + arguments, in: dir)
        var lines = r.stderr.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        let figures = (lines.popLast() ?? "").split(separator: " ")
        // time adds "Command exited with non-zero status N" before its figures.
        if lines.last?.hasPrefix("Command exited with non-zero status") == true { lines.removeLast() }
        r.stderr = lines.map { $0 + "\n" }.joined()
        let cpu = figures.count == 3 ? (Double(figures[0]) ?? .infinity) + (Double(figures[1]) ?? .infinity) : .infinity
        return (r, cpu, Int(figures.last ?? "") ?? .max)
    }

    static func expectBounded(_ run: (CLI.Result, seconds: Double, kb: Int), _ words: String,
                              sourceLocation: SourceLocation = #_sourceLocation) {
        let (r, seconds, kb) = run
        #expect(r.status == 2 && CLIBadInputTests.oneLine(r), "\(r.stderr)", sourceLocation: sourceLocation)
        #expect(r.stderr.contains(words), "\(r.stderr)", sourceLocation: sourceLocation)
        #expect(seconds < 1 && kb < 100_000, "\(seconds) s, \(kb) KB", sourceLocation: sourceLocation)
    }

    @Test("12: Form XObject fan-out 2^16, 2^22, 2^40 is refused at once, naming images.on and the PDF")
    func fanout() throws {
        let dir = try CLIBadInputTests.copy("12-pdf-form-xobject-fanout-hang")
        let before = dir.files()
        for (n, words) in [("16", "its pages draw more than 10000 XObjects, counting every repeat"),
                           ("22", "its pages draw more than 10000 XObjects, counting every repeat"),
                           ("40", "its Form XObjects nest more than 32 deep (form 42); the limit is 32 (docs/limits.md)")] {
            try? FileManager.default.removeItem(at: dir.url.appendingPathComponent("on.pdf"))
            try FileManager.default.copyItem(at: dir.url.appendingPathComponent("on-2^\(n).pdf"), to: dir.url.appendingPathComponent("on.pdf"))
            let run = try Self.measured(["render", "--spec", "spec.json", "--out", "out"], in: dir.url)
            Self.expectBounded(run, "spec.json:14:11: images.on: \(dir.url.path)/on.pdf: the PDF is not drawn: \(words)")
        }
        #expect(dir.files() == (before + ["on.pdf"]).sorted(), "nothing written")
    }

    @Test("13: an image XObject past the PNG limits (32000², 8193 × 1) is refused from its /Width and /Height")
    func imageBomb() throws {
        let dir = try CLIBadInputTests.copy("13-pdf-image-bomb-memory")
        let before = dir.files()
        for (file, size) in [("on-32000x32000-cut.pdf", "32000 × 32000"), ("on-8193x1.pdf", "8193 × 1")] {
            try? FileManager.default.removeItem(at: dir.url.appendingPathComponent("on.pdf"))
            try FileManager.default.copyItem(at: dir.url.appendingPathComponent(file), to: dir.url.appendingPathComponent("on.pdf"))
            let run = try Self.measured(["render", "--spec", "spec.json", "--out", "out"], in: dir.url)
            Self.expectBounded(run, "images.on: \(dir.url.path)/on.pdf: the PDF is not drawn: its image XObject 5 is \(size) px; "
                                    + "the limit is 8192 px on a side and 16777216 px in all, as for a PNG (docs/limits.md)")
        }
        // Both images of the two-image spec: the first key read is named.
        try FileManager.default.copyItem(at: dir.url.appendingPathComponent("on-8193x1.pdf"), to: dir.url.appendingPathComponent("off.pdf"))
        let two = try Self.measured(["render", "--spec", "spec-two-images.json", "--out", "out"], in: dir.url)
        Self.expectBounded(two, "the PDF is not drawn: its image XObject 5 is")
        #expect(dir.files() == (before + ["off.pdf", "on.pdf"]).sorted(), "nothing written")
    }

    @Test("14: a content stream inflating past 16 MiB is refused as soon as it passes, not after 8 GB")
    func contentBomb() throws {
        let dir = try CLIBadInputTests.copy("14-pdf-content-stream-bomb-slow")
        try FileManager.default.copyItem(at: dir.url.appendingPathComponent("on-64MiB.pdf"), to: dir.url.appendingPathComponent("on.pdf"))
        let before = dir.files()
        let run = try Self.measured(["render", "--spec", "spec.json", "--out", "out"], in: dir.url)
        Self.expectBounded(run, "images.on: \(dir.url.path)/on.pdf: the PDF is not drawn: its streams decode to more than 16 MiB "
                                + "(stream 4 passes it); the limit is 16 MiB of decoded PDF streams (docs/limits.md)")
        #expect(dir.files() == before, "nothing written")
    }

    @Test("15: an image set's unscaled PDF that would rasterise past the PNG limits is refused before the bitmap is made")
    func rasterize() throws {
        let dir = try CLIBadInputTests.copy("15-xcassets-pdf-rasterize-unbounded")
        let before = dir.files()
        for n in [10000, 100000] {
            let run = try Self.measured(["render", "--spec", "spec-\(n).json", "--out", "out"], in: dir.url)
            Self.expectBounded(run, "spec-\(n).json:14:11: images.on: \(dir.url.path)/A\(n).xcassets/on.imageset/Contents.json:3: "
                                    + "images[0].filename: on.pdf: rasterised at 1x (the image set does not preserve vector data), "
                                    + "its \(n) × \(n) pt page would be a bitmap of \(n) × \(n) px; the limit is 8192 px on a side "
                                    + "and 16777216 px in all, as for a PNG (docs/limits.md)")
        }
        // A scale's own PDF: 2731 pt at 3x is 8193 px. The 10000 pt PDF's page is rewritten to 2731 pt.
        let set = dir.url.appendingPathComponent("A10000.xcassets/on.imageset")
        let pdf = try String(decoding: Data(contentsOf: set.appendingPathComponent("on.pdf")), as: UTF8.self)
        #expect(pdf.contains("/MediaBox [0 0 10000 10000]"))
        try Data(pdf.replacingOccurrences(of: "/MediaBox [0 0 10000 10000]", with: "/MediaBox [0 0 2731 1" + String(repeating: " ", count: 5) + "]").utf8)
            .write(to: set.appendingPathComponent("on.pdf"))
        try Data(#"{ "images" : [ { "filename" : "on.pdf", "idiom" : "universal", "scale" : "3x" } ], "info" : { "author" : "xcode", "version" : 1 } }"#.utf8)
            .write(to: set.appendingPathComponent("Contents.json"))
        let scaled = try Self.measured(["render", "--spec", "spec-10000.json", "--out", "out"], in: dir.url)
        Self.expectBounded(scaled, "rasterised at 3x (the image set does not preserve vector data), its 2731 × 1 pt page would be "
                                   + "a bitmap of 8193 × 3 px")
        #expect(!dir.files().contains { $0.hasPrefix("out") }, "nothing written")
        #expect(dir.files() == before, "no file added or removed")
    }
}
