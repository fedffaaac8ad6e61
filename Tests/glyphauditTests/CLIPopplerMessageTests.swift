import Foundation
import Testing
import GlyphTestSupport

/// Reproducer 27 f and g (Tests/Fixtures/bad-input/27-message-defects): poppler's own output and a
/// PDF's encryption said as it is. `on-broken-font.pdf` and `on-unknown-handler.pdf` are the PDFs the
/// reproducer makes with its `pdfgen.py` (the commands are in Tests/Fixtures/README.md).
@Suite("Bad input: poppler's messages (reproducer 27 f, g)")
struct CLIPopplerMessageTests {
    static func run(_ pdf: String) throws -> (CLI.Result, TempFolder) {
        let dir = try CLIBadInputTests.copy("27-message-defects")
        try FileManager.default.copyItem(at: dir.url.appendingPathComponent(pdf), to: dir.url.appendingPathComponent("on.pdf"))
        return (try CLI.run(["render", "--spec", "spec-pdf.json", "--out", "out"], in: dir.url), dir)
    }

    @Test("27f: a PDF with a broken embedded TrueType font renders (exit 0) and poppler's \"some font thing failed\" stays off stderr")
    func brokenFont() throws {
        let (r, dir) = try Self.run("on-broken-font.pdf")
        #expect(r.status == 0, "\(r.stderr)")
        // Only the tool's own summary line: poppler prints its font failure with fprintf(stderr, …).
        let lines = r.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 2 && lines[1] == "", "\(r.stderr)")
        #expect(lines.first?.hasPrefix("rendered 2 of 2 variants (2 files) into \(dir.url.path)/out in ") == true, "\(r.stderr)")
        #expect(!r.stderr.contains("font"), "\(r.stderr)")
    }

    @Test("27g: an /Encrypt naming an unknown security handler is said to be that, not a password: exit 2, one line, nothing written")
    func unknownSecurityHandler() throws {
        let (r, dir) = try Self.run("on-unknown-handler.pdf")
        #expect(r.status == 2 && CLIBadInputTests.oneLine(r), "\(r.stderr)")
        #expect(r.stderr == "glyphaudit: \(dir.url.path)/spec-pdf.json:14:11: images.on: \(dir.url.path)/on.pdf: the PDF is encrypted "
                + "with the security handler /Bogus, which poppler does not know; glyphaudit does not open it (save it without encryption)\n")
        #expect(!FileManager.default.fileExists(atPath: dir.url.appendingPathComponent("out").path), "nothing written")
    }
}
