import Foundation
import Testing
import GlyphTestSupport

/// The reproducers of Tests/Fixtures/bad-input (inputs that once crashed, hung, or ran out of
/// memory), each run as its repro.sh runs it: exit 2 (or 64 for the command line), one line naming
/// the file and what is wrong, nothing written. The SVG ones (02, 06, 10) are in
/// SVGReferenceCheckTests. Time and memory are measured in the note of issue 9, not here.
@Suite("Bad input: the reproducers of Tests/Fixtures/bad-input")
struct CLIBadInputTests {
    static let fixtures = TestPaths.fixture("bad-input")

    /// A writable copy of one reproducer folder (the checkout's copy stays untouched).
    static func copy(_ name: String) throws -> TempFolder {
        let folder = TempFolder()
        let source = fixtures.appendingPathComponent(name)
        for file in try FileManager.default.contentsOfDirectory(atPath: source.path) {
            try FileManager.default.copyItem(at: source.appendingPathComponent(file), to: folder.url.appendingPathComponent(file))
        }
        return folder
    }

    /// One line on stderr, starting with the tool's name.
    static func oneLine(_ r: CLI.Result) -> Bool {
        r.stderr.hasPrefix("glyphaudit: ") && r.stderr.filter { $0 == "\n" }.count == 1
    }

    @Test("01: an unpaired surrogate escape is malformed JSON in a spec and in .glyphaudit.json, not a trap")
    func surrogate() throws {
        let dir = try Self.copy("01-json-surrogate-overflow")
        let render = try CLI.run(["render", "--spec", "spec.json", "--out", "out"], in: dir.url)
        #expect(render.status == 2 && Self.oneLine(render), "\(render.stderr)")
        #expect(render.stderr.contains("spec.json:1:23: malformed JSON: invalid \\u escape: a high surrogate without a low one"),
                "\(render.stderr)")
        let audit = try CLI.run(["audit", "--preset", "swiftui-switch", "--only", "scale=1", "--only", "dynamic-type=L"], in: dir.url)
        #expect(audit.status == 2 && audit.stderr.contains(".glyphaudit.json:1:") && audit.stderr.contains("high surrogate"),
                "\(audit.stderr)")
        #expect(dir.files() == [".glyphaudit.json", "repro.sh", "spec.json"])
    }

    @Test("03: PNGs too large to decode are refused from their headers, as a diff input and as a baseline")
    func pngBombs() throws {
        let dir = try Self.copy("03-png-memory-bombs")
        let bomb = try CLI.run(["diff", "ref.png", "bomb-20000x20000.png"], in: dir.url)
        #expect(bomb.status == 2 && bomb.stderr.contains("bomb-20000x20000.png: the PNG is 20000 × 20000 px; the limit is 8192 px"))
        let canvas = try CLI.run(["diff", "wide-30000x1.png", "tall-1x30000.png", "--output", "d.png"], in: dir.url)
        #expect(canvas.status == 2 && canvas.stderr.contains("the PNG is 30000 × 1 px") && canvas.stderr.contains("the PNG is 1 × 30000 px"))
        #expect(!dir.files().contains("d.png"))

        // As a baseline: the variant's baseline file is the bomb.
        let only = ["--preset", "swiftui-switch", "--only", "scale=1", "--only", "dynamic-type=L", "--only", "theme=default",
                    "--only", "state=on"]
        #expect(try CLI.run(["check", "--record", "--snapshots", "snaps"] + only, in: dir.url).status == 0)
        let baseline = dir.url.appendingPathComponent("snaps/swiftui-switch/switch-md/L/default/on@1x.png")
        try FileManager.default.removeItem(at: baseline)
        try FileManager.default.copyItem(at: dir.url.appendingPathComponent("bomb-20000x20000.png"), to: baseline)
        let check = try CLI.run(["check", "--snapshots", "snaps", "--quiet"] + only, in: dir.url)
        #expect(check.status == 2 && check.stderr.contains("the PNG is 20000 × 20000 px"), "\(check.stderr)")
    }

    @Test("04: a FIFO or a device is not a regular file: refused at once, as a diff input and as a baseline")
    func specialFiles() throws {
        let dir = TempFolder()
        let only = ["--preset", "swiftui-switch", "--only", "scale=1", "--only", "dynamic-type=L", "--only", "theme=default",
                    "--only", "state=on"]
        #expect(try CLI.run(["check", "--record", "--snapshots", "snaps"] + only, in: dir.url).status == 0)
        let baseline = dir.url.appendingPathComponent("snaps/swiftui-switch/switch-md/L/default/on@1x.png")
        let fifo = dir.url.appendingPathComponent("fifo.png").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let diffFifo = try CLI.run(["diff", baseline.path, "fifo.png"], in: dir.url)
        #expect(diffFifo.status == 2 && diffFifo.stderr.contains("fifo.png: not a regular file (a FIFO)"), "\(diffFifo.stderr)")
        let diffZero = try CLI.run(["diff", baseline.path, "/dev/zero"], in: dir.url)
        #expect(diffZero.status == 2 && diffZero.stderr.contains("/dev/zero: not a regular file"), "\(diffZero.stderr)")

        try FileManager.default.removeItem(at: baseline)
        #expect(mkfifo(baseline.path, 0o600) == 0)
        let check = try CLI.run(["check", "--snapshots", "snaps", "--quiet"] + only, in: dir.url)
        #expect(check.status == 2 && check.stderr.contains("not a regular file (a FIFO)"), "\(check.stderr)")
        let run = try CLI.run(["run", "--snapshots", "snaps", "--report", "rep", "--quiet"] + only, in: dir.url)
        #expect(run.status == 2 && run.stderr.contains("not a regular file (a FIFO)"), "\(run.stderr)")
        try FileManager.default.removeItem(at: baseline)
        #expect(symlink("/dev/zero", baseline.path) == 0)
        let zero = try CLI.run(["check", "--snapshots", "snaps", "--quiet"] + only, in: dir.url)
        #expect(zero.status == 2 && zero.stderr.contains("not a regular file"), "\(zero.stderr)")
    }

    @Test("05: an object of 150,000 keys is parsed (linearly) and its first unknown key named")
    func manyKeys() throws {
        let dir = try Self.copy("05-json-quadratic-keys")
        for file in ["wide-50k.json", "wide-150k.json"] {
            let r = try CLI.run(["render", "--spec", file, "--out", "out"], in: dir.url)
            #expect(r.status == 2 && Self.oneLine(r) && r.stderr.contains("\(file):1:7: k0: unknown key \"k0\""), "\(r.stderr)")
        }
        #expect(!dir.files().contains { $0.hasPrefix("out/") })
    }

    @Test("07: names used in file names, strict numbers and escapes, the blamed key, short cycle messages, one exit status")
    func misc() throws {
        let dir = try Self.copy("07-misc")
        let theme = try CLI.run(["render", "--spec", "theme-name-300.json", "--out", "out"], in: dir.url)
        #expect(theme.status == 2 && Self.oneLine(theme), "\(theme.stderr)")
        #expect(theme.stderr.contains("theme-name-300.json:1:1337: themes.\(String(repeating: "t", count: 37))…: "
                                      + "a theme name is 300 bytes long; the limit is 64"), "\(theme.stderr)")
        #expect(!dir.files().contains { $0.hasPrefix("out/") })

        let strict = try CLI.run(["render", "--spec", "leading-zero-and-u-plus.json", "--out", "out"], in: dir.url)
        #expect(strict.status == 2 && strict.stderr.contains("leading-zero-and-u-plus.json:10:15: malformed JSON: invalid number (a leading zero)"),
                "\(strict.stderr)")
        let text = try String(contentsOf: dir.url.appendingPathComponent("leading-zero-and-u-plus.json"), encoding: .utf8)
        dir.write("u-plus.json", text.replacingOccurrences(of: ": 022", with: ": 22"))
        let uPlus = try CLI.run(["render", "--spec", "u-plus.json", "--out", "out"], in: dir.url)
        #expect(uPlus.status == 2 && uPlus.stderr.contains("malformed JSON: invalid \\u escape (four hex digits expected)"),
                "\(uPlus.stderr)")

        // The glyph is 1000 pt (1235 pt wide at xxL) beside a 137 pt label: the glyph's size is at fault.
        let glyph = try CLI.run(["render", "--spec", "glyph-1000pt-blames-label.json", "--out", "out"], in: dir.url)
        #expect(glyph.status == 2 && glyph.stderr.contains(": sizes.md.size: ") && !glyph.stderr.contains("label.text"),
                "\(glyph.stderr)")

        let cycle = try CLI.run(["render", "--spec", "token-cycle-20000.json", "--out", "out"], in: dir.url)
        #expect(cycle.status == 2 && Self.oneLine(cycle) && cycle.stderr.utf8.count < 400, "\(cycle.stderr.prefix(400))")
        // The cycle is every token of the group "c" in the token file: c.t0 → … → c.tN → c.t0.
        let tokens = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.url.appendingPathComponent("cycle.tokens.json")))
        let count = (((tokens as? [String: Any])?["c"] as? [String: Any]) ?? [:]).keys.filter { !$0.hasPrefix("$") }.count
        #expect(count > 20000)
        #expect(cycle.stderr.contains("token alias cycle of \(count) tokens: {c.t0} → {c.t1} → {c.t2} → … → "
                                      + "{c.t\(count - 1)} → {c.t0}"), "\(cycle.stderr.prefix(400))")

        let check = try CLI.run(["check", "--spec", "small.json", "--snapshots", "snaps-file", "--quiet"], in: dir.url)
        #expect(check.status == 2 && check.stderr.contains("snaps-file: is a file, not a folder"), "\(check.stderr)")
        let run = try CLI.run(["run", "--spec", "small.json", "--snapshots", "snaps-file", "--report", "rep"], in: dir.url)
        #expect(run.status == 2 && run.stderr == check.stderr)
        #expect(!dir.files().contains { $0.hasPrefix("out/") || $0.hasPrefix("rep/") })

        // Errors in the command line itself are usage errors (64), as an unknown --format is.
        for args in [["render", "--preset", "swiftui-switch", "--only", "size", "--out", "out"],
                     ["render", "--preset", "swiftui-switch", "--only", "colour=red", "--out", "out"],
                     ["render", "--preset", "nope", "--out", "out"], ["presets", "show", "nope"], ["rules", "explain", "nope"],
                     ["render", "--preset", "swiftui-switch", "--format", "gif", "--out", "out"]] {
            #expect(try CLI.run(args, in: dir.url).status == 64, "\(args)")
        }
    }

    @Test("11: a 20 MB spec is refused by its size before it is parsed")
    func hugeSpec() throws {
        let dir = TempFolder()
        // The reproducer's shape: a valid spec whose description is a long array of zeros.
        let body = [UInt8]("{\"name\": \"t\", \"description\": [".utf8) + Array(repeating: UInt8(ascii: "0"), count: 1)
            + [UInt8](String(repeating: ",0", count: 10_000_000).utf8) + [UInt8]("]}".utf8)
        try Data(body).write(to: dir.url.appendingPathComponent("big.json"))
        let r = try CLI.run(["render", "--spec", "big.json", "--out", "out"], in: dir.url)
        #expect(r.status == 2 && Self.oneLine(r), "\(r.stderr)")
        #expect(r.stderr.contains("big.json: the spec is \(body.count) bytes; the limit is 16 MiB (docs/limits.md)"), "\(r.stderr)")
        #expect(dir.files() == ["big.json"])
    }
}
