import Foundation
import Testing
import GlyphTestSupport

// The SVG reference check from the command line (issue 9, item 3): the reproducers in
// `Tests/Fixtures/bad-input/{02,06,10}-*`.

@Suite("glyphaudit render: SVGs that reach outside their folder, or break the reader, are bad input")
struct CLISVGCheckTests {
    /// The seven bypasses of 06: spec, SVG as named in the message, what is refused.
    static let bypasses: [(spec: String, svg: String, message: String)] = [
        ("pi-stylesheet", "img/pi-stylesheet.svg:1", #"uses <?xml-stylesheet type="text/css" href="../secret.css"?>; a style sheet in another file is not supported (put the CSS in a <style> element)"#),
        ("newline-entity", "img/newline-entity.svg", #"references "..&#10;/secret.png" (read as "../secret.png"), outside its own folder; it is not read"#),
        ("backslash", "img/backslash.svg", #"references "..\secret.png" (read as "../secret.png"), outside its own folder; it is not read"#),
        ("percent", "img/percent.svg", #"references "%2e%2e/secret.png" (read as "../secret.png"), outside its own folder; it is not read"#),
        ("nested-use", "img/nested-use.svg", #"through "inner.svg#r": references "../secret.png", outside its own folder; it is not read"#),
        ("style-child-element", "img/style-child-element.svg:1", "has an element <x> inside <style>; a style sheet may only hold text"),
        ("css-escape", "img/css-escape.svg:1", #"has a CSS escape (\75 rl(../secret.css);) in a <style> element; CSS escapes are not supported"#),
    ]

    /// Runs `render --spec spec --out out` in `dir`: exit 2, one line naming the spec, images.on, the SVG
    /// and `message`, and nothing written.
    func expectRefused(_ dir: TempFolder, spec: String, svg: String, message: String) throws {
        let r = try CLI.run(["render", "--spec", spec, "--out", "out"], in: dir.url)
        #expect(r.status == 2, "\(spec): \(r.stderr)")
        #expect(r.stderr.hasPrefix("glyphaudit: ") && r.stderr.contains("/\(spec):1:76: images.on: /"), "\(r.stderr)")
        #expect(r.stderr.hasSuffix("/\(svg): \(message)\n"), "\(r.stderr)")
        #expect(r.stderr.filter { $0 == "\n" }.count == 1, "one line: \(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.url.appendingPathComponent("out").path), "\(spec): something was written")
    }

    @Test("02: invalid UTF-8 in an SVG comment or attribute name: exit 2 naming images.on and the SVG, not a crash")
    func invalidUTF8() throws {
        let dir = try badInputFixture("02-")
        try expectRefused(dir, spec: "spec-comment.json", svg: "img/on-comment.svg:1",
                          message: "is not valid UTF-8 (byte 0xFF at line 1); an SVG must be UTF-8")
        try expectRefused(dir, spec: "spec-attrname.json", svg: "img/on-attrname.svg:1",
                          message: "is not valid UTF-8 (byte 0xFE at line 1); an SVG must be UTF-8")
    }

    @Test("06: each bypass of the reference check is refused: exit 2, one line saying what, nothing written")
    func bypasses() throws {
        let dir = try badInputFixture("06-")
        for (spec, svg, message) in Self.bypasses {
            try expectRefused(dir, spec: "spec-\(spec).json", svg: svg, message: message)
        }
    }

    @Test("10: a well-formed 10.4 MB SVG is refused for its size (8 MiB), named, not as not well-formed")
    func overLimit() throws {
        let dir = try badInputFixture("10-")
        dir.write("img/on.svg", #"<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24">"#
                  + String(repeating: #"<path d="M0 0L1 1"/>"#, count: 520_000) + "</svg>")
        try expectRefused(dir, spec: "spec.json", svg: "img/on.svg",
                          message: "the SVG image is 10400069 bytes; the limit is 8 MiB (docs/limits.md)")
        // --svg-jobs reads the file itself: the same limit, and a FIFO is refused instead of waited on.
        #expect(mkfifo(dir.url.appendingPathComponent("img/fifo.svg").path, 0o644) == 0)
        for (svg, message) in [("on.svg", "the SVG image is 10400069 bytes; the limit is 8 MiB (docs/limits.md)"),
                               ("fifo.svg", "not a regular file (a FIFO); only regular files are read")] {
            dir.write("jobs.tsv", "img/\(svg)\t8\t8\ta.png\n")
            let r = try CLI.run(["render", "--svg-jobs", "jobs.tsv", "--out", "out"], in: dir.url)
            #expect(r.status == 2)
            #expect(r.stderr.hasSuffix("/img/\(svg): \(message)\n"), "\(r.stderr)")
        }
    }

    static let strace = "/usr/bin/strace"
    /// Whether strace is installed and may trace here (a container may forbid ptrace).
    static let straceWorks: Bool = {
        guard FileManager.default.isExecutableFile(atPath: strace) else { return false }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: strace)
        p.arguments = ["-o", "/dev/null", "/bin/true"]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return false }
        p.waitUntilExit()
        return p.terminationStatus == 0
    }()

    @Test("06 under strace: no file outside the SVG's folder is opened, stat'ed or even resolved",
          .enabled(if: straceWorks, "strace is not installed at /usr/bin/strace, or may not trace here (ptrace not permitted)"))
    func nothingOutsideIsTouched() throws {
        let dir = try badInputFixture("06-")
        for (spec, svg, _) in Self.bypasses {
            let log = dir.url.appendingPathComponent("strace-\(spec).txt")
            let p = Process()
            p.executableURL = URL(fileURLWithPath: Self.strace)
            p.arguments = ["-f", "-e", "trace=openat,open,stat,readlink,newfstatat", "-o", log.path,
                           CLI.binary.path, "render", "--spec", "spec-\(spec).json", "--out", "out"]
            p.currentDirectoryURL = dir.url
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            try p.run()
            p.waitUntilExit()
            #expect(p.terminationStatus == 2, "\(spec)")
            let calls = try String(contentsOf: log, encoding: .utf8).split(separator: "\n")
            let svgFile = String(svg.split(separator: ":")[0])
            // The trace saw the SVG being read, so it is the real thing, and nothing names the files outside.
            // An image is opened one component at a time from the spec's folder (openat(fd, "name", O_NOFOLLOW)).
            let svgName = String(svgFile.split(separator: "/").last!)
            #expect(calls.contains { $0.contains("openat(") && $0.contains("\"\(svgName)\"") && $0.contains("O_NOFOLLOW") },
                    "\(spec): the trace does not show \(svgFile) read")
            let outside = calls.filter { $0.contains("secret") }
            #expect(outside.isEmpty, "\(spec): \(outside.prefix(3).joined(separator: " | "))")
            #expect(!FileManager.default.fileExists(atPath: dir.url.appendingPathComponent("out").path))
        }
    }
}
