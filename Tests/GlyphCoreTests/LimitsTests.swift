import Foundation
import Testing
@testable import GlyphColor
@testable import GlyphCore
@testable import GlyphRaster
@testable import GlyphSnapshot
import GlyphTestSupport
import GlyphRenderTestSupport

/// The strict JSON reader against RFC 8259's grammar, and the limits every input passes
/// (docs/limits.md). The reproducers of Tests/Fixtures/bad-input are run through the CLI in
/// glyphauditTests/CLIBadInputTests.swift.
@Suite("Input limits and the strict JSON reader")
struct LimitsTests {
    static func parse(_ text: String) -> Result<JSONNode, JSONSyntaxError> {
        do { return .success(try JSONReader.parse(Data(text.utf8))) } catch { return .failure(error) }
    }

    static func message(_ text: String) -> String? {
        if case .failure(let e) = parse(text) { return e.message }
        return nil
    }

    @Test("RFC 8259 refuses these: leading zeros, signs in \\u escapes, unpaired surrogates",
          arguments: [
              ("[022]", "leading zero"), ("[-01]", "leading zero"), ("[00.5]", "leading zero"),
              (#"["\u+041"]"#, "four hex digits"), (#"["\u-041"]"#, "four hex digits"), (#"["\u 041"]"#, "four hex digits"),
              (#"["\uD800\u0041"]"#, "high surrogate without a low one"), (#"["\uD800"]"#, "high surrogate without a low one"),
              (#"["\uD800x"]"#, "high surrogate without a low one"), (#"["\uDC00"]"#, "low surrogate without a high one"),
              (#"["\uDBFF\uDBFF"]"#, "high surrogate without a low one"),
              (#"{"a": 1, "a": 2}"#, "duplicate key \"a\""), ("[1.]", "invalid number"), ("[.5]", "unexpected character"),
              ("[+1]", "unexpected character"), ("[1e]", "invalid number"), ("[1e400]", "invalid number"),
          ])
    func refused(_ text: String, _ reason: String) {
        let m = Self.message(text)
        #expect(m?.contains(reason) == true, "\(text): \(m ?? "accepted")")
    }

    @Test("RFC 8259 accepts these, with the values the grammar gives")
    func accepted() throws {
        // U+1D11E (musical symbol G clef) is the surrogate pair D834 DD1E (RFC 8259 section 7).
        #expect(try JSONReader.parse(Data(#"["\uD834\uDD1E"]"#.utf8)) == JSONNode(value: .array([
            JSONNode(value: .string("\u{1D11E}"), line: 1, column: 2)]), line: 1, column: 1))
        let numbers = try JSONReader.parse(Data("[0, -0, 0.5, 10, 1e2, 1E-2, -12.5e+1]".utf8))
        guard case .array(let items) = numbers.value else { Issue.record("not an array"); return }
        #expect(items.map(\.value) == [0, -0.0, 0.5, 10, 100, 0.01, -125].map { JSONValue.number($0) })
        #expect(try JSONReader.parse(Data(#"["\u00e9\u00E9"]"#.utf8)).value == .array([JSONNode(value: .string("éé"), line: 1, column: 2)]))
    }

    @Test("nesting stops at the documented depth, one level past it is refused")
    func depth() {
        let ok = String(repeating: "[", count: Limits.jsonDepth) + String(repeating: "]", count: Limits.jsonDepth)
        if case .failure(let e) = Self.parse(ok) { Issue.record("depth \(Limits.jsonDepth) refused: \(e.message)") }
        let deep = String(repeating: "[", count: Limits.jsonDepth + 1) + String(repeating: "]", count: Limits.jsonDepth + 1)
        #expect(Self.message(deep)?.contains("the limit is \(Limits.jsonDepth)") == true)
        // 100,000 levels: refused at the limit, not a stack overflow.
        #expect(Self.message(String(repeating: "[", count: 100_000)) != nil)
    }

    @Test("a document of more values than the limit is refused where the limit is passed")
    func values() {
        let ok = "[" + Array(repeating: "0", count: Limits.jsonValues - 1).joined(separator: ",") + "]"
        if case .failure(let e) = Self.parse(ok) { Issue.record("\(Limits.jsonValues) values refused: \(e.message)") }
        let over = "[" + Array(repeating: "0", count: Limits.jsonValues).joined(separator: ",") + "]"
        guard case .failure(let e) = Self.parse(over) else { Issue.record("accepted"); return }
        #expect(e.message.contains("more than \(Limits.jsonValues) values"))
        // Value number 1,000,001 is the last zero: column 2 + 2 × 999,999.
        #expect(e.line == 1 && e.column == 2 + 2 * (Limits.jsonValues - 1))
    }

    @Test("150,000 distinct keys parse (the duplicate check is a set), and a duplicate among them is found")
    func manyKeys() throws {
        let n = 150_000
        let keys = (0..<n).map { "\"k\($0)\": \($0)" }
        let node = try JSONReader.parse(Data(("{" + keys.joined(separator: ",") + "}").utf8))
        guard case .object(let members) = node.value else { Issue.record("not an object"); return }
        #expect(members.count == n && members.last?.key == "k\(n - 1)")
        #expect(Self.message("{" + keys.joined(separator: ",") + ", \"k77\": 0}") == "duplicate key \"k77\"")
    }

    @Test("only regular files are read: a FIFO, a device, a symbolic link to one, /proc and a folder are refused")
    func specialFiles() throws {
        let folder = TempFolder()
        let fifo = folder.url.appendingPathComponent("fifo.json").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let link = folder.url.appendingPathComponent("zero.png").path
        #expect(symlink("/dev/zero", link) == 0)
        let cases: [(String, String)] = [
            (fifo, "not a regular file (a FIFO)"), ("/dev/zero", "not a regular file"), (link, "not a regular file"),
            ("/proc/self/status", "not a regular file (/proc is not read)"), (folder.url.path, "is a folder"),
            (folder.url.appendingPathComponent("missing.json").path, "no such file"),
        ]
        for (path, reason) in cases {
            do {
                _ = try InputFile.read(path, limit: Limits.jsonFileBytes, what: "spec")
                Issue.record("\(path) was read")
            } catch {
                #expect(error.message.contains(reason), "\(path): \(error.message)")
            }
        }
    }

    @Test("a file past its size limit is refused before it is read; one at the limit is read whole")
    func sizeLimit() throws {
        let folder = TempFolder()
        let file = folder.url.appendingPathComponent("big.json")
        try Data(repeating: 0x20, count: 4097).write(to: file)
        do {
            _ = try InputFile.read(file.path, limit: 4096, what: "spec")
            Issue.record("read past the limit")
        } catch {
            #expect(error.message == "the spec is 4097 bytes; the limit is 4 KiB (docs/limits.md)")
        }
        #expect(try InputFile.read(file.path, limit: 4097).count == 4097)
    }

    /// A PNG's signature and IHDR chunk declaring `width` × `height` (no pixel data: the size is
    /// refused from the header alone, before any decoding).
    static func pngHeader(width: UInt32, height: UInt32) -> Data {
        func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        return Data([137, 80, 78, 71, 13, 10, 26, 10] + be(13) + Array("IHDR".utf8) + be(width) + be(height) + [8, 6, 0, 0, 0] + be(0))
    }

    @Test("a PNG's size is checked from its header: past 8192 px on a side or 16,777,216 px in all, no pixel is decoded",
          arguments: [(20000, 20000, false), (30000, 1, false), (1, 30000, false), (8193, 1, false), (4097, 4096, false),
                      (8192, 2048, true), (4096, 4096, true)])
    func pngSize(_ width: Int, _ height: Int, _ fits: Bool) {
        let header = Self.pngHeader(width: UInt32(width), height: UInt32(height))
        do {
            let size = try Raster.checkPNGSize(header)
            #expect(fits && size?.width == width && size?.height == height)
        } catch {
            #expect(!fits && "\(error)" == "the PNG is \(width) × \(height) px; the limit is 8192 px on a side and 16777216 px in all (docs/limits.md)")
        }
    }

    @Test("the 1.1 MB PNG of 20000 × 20000 from the bad-input fixtures is refused from its header")
    func pngBomb() throws {
        let url = TestPaths.fixture("bad-input/03-png-memory-bombs/bomb-20000x20000.png")
        do {
            _ = try Raster(contentsOfPNG: url)
            Issue.record("decoded")
        } catch {
            #expect("\(error)".hasSuffix("the PNG is 20000 × 20000 px; the limit is 8192 px on a side and 16777216 px in all (docs/limits.md)"))
        }
    }

    @Test("a diff image's canvas (as large as both images) is refused past the pixel limit, the counts still made")
    func diffCanvas() {
        let wide = Raster(width: 8192, height: 1, fill: RGBA(r8: 0, g8: 0, b8: 0, a8: 255))
        let tall = Raster(width: 1, height: 8192, fill: RGBA(r8: 0, g8: 0, b8: 0, a8: 255))
        #expect(ImageComparator.canvasProblem(wide, tall)?.contains("would be 8192 × 8192 px; the limit is 16777216 px") == true)
        let (difference, diff) = ImageComparator.compare(expected: wide, actual: tall, diffImage: true)
        #expect(diff == nil)
        // The common pixel matches; every other pixel of the 8192 × 8192 canvas counts as different.
        #expect(difference.mismatchedPixels == 8192 * 8192 - 1)
        #expect(ImageComparator.canvasProblem(wide, wide) == nil)
    }

    @Test("names used in file names: letters, digits, '-' and '_', at most 64 bytes, refused at their spec key")
    func names() throws {
        func spec(theme: String) -> String {
            ##"{"name": "t", "control": "checkbox", "sizes": {"md": {"size": 20}}, "states": ["unchecked", "checked"], "##
                + ##""themes": {"\##(theme)": {"surface": "#FFFFFF", "border": "#000000", "fill": "#000000", "mark": "#000000"}}}"##
        }
        let long = String(repeating: "t", count: 65)
        guard case .failure(let e) = loadSpec(spec(theme: long)) else { Issue.record("65-letter theme accepted"); return }
        #expect(e.keyPath == "themes.\(String(repeating: "t", count: 37))…")
        #expect(e.message == "a theme name is 65 bytes long; the limit is 64 (it is used in file names; docs/limits.md)")
        if case .failure(let e) = loadSpec(spec(theme: String(repeating: "t", count: 64))) { Issue.record("64 letters refused: \(e)") }
        // 22 three-byte letters are 66 bytes in UTF-8.
        guard case .failure(let wide) = loadSpec(spec(theme: String(repeating: "ア", count: 22))) else { Issue.record("accepted"); return }
        #expect(wide.message.contains("66 bytes long"))
        guard case .failure(let slash) = loadSpec(spec(theme: "a/b")) else { Issue.record("a/b accepted"); return }
        #expect(slash.message.contains("letters, digits, '-' and '_'"))
    }

    @Test("a long token alias cycle is named in one short line: its length, first three and last two steps")
    func cycleMessage() {
        let names = (0..<20000).map { "t\($0)" } + ["t0"]
        #expect(TokenSet.cycleMessage(names) == "token alias cycle of 20000 tokens: {t0} → {t1} → {t2} → … → {t19999} → {t0}")
        #expect(TokenSet.cycleMessage(["a", "b", "a"]) == "token alias cycle: {a} → {b} → {a}")
    }
}
