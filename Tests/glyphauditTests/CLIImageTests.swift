import Foundation
import GlyphRaster
import Testing
import GlyphTestSupport

/// PNG images and asset catalogs through the command line: bad input exits 2 naming the files, a
/// missing scale is a printed warning, an image outside the spec's folders is refused.
@Suite("CLI: PNG images and asset catalogs")
struct CLIImageTests {
    static func png(_ side: Int) throws -> Data {
        var r = Raster(width: side, height: side)
        for y in 2..<(side - 2) { for x in 2..<(side - 2) { r.pixels[(y * side + x) * 4 + 3] = 255 } }
        return try r.pngData()
    }

    static let spec = """
    {
      "name": "png",
      "control": "checkbox",
      "sizes": { "md": { "size": 20 } },
      "images": { "on": "img/on.png", "off": "img/off.png" },
      "states": ["unchecked", "checked"],
      "scales": [1, 2],
      "themes": { "default": { "surface": "#FFFFFF", "tint": "#0A60D0" } }
    }
    """

    func folder() throws -> TempFolder {
        let dir = TempFolder()
        dir.write("spec.json", Self.spec)
        try Self.png(20).write(to: dir.url.appendingPathComponent("img/off.png", isDirectory: false), createFolder: true)
        try Self.png(40).write(to: dir.url.appendingPathComponent("img/off@2x.png"))
        try Self.png(20).write(to: dir.url.appendingPathComponent("img/on.png"))
        return dir
    }

    @Test("a corrupt PNG: exit 2, one message naming the spec key and the PNG, nothing written")
    func corrupt() throws {
        let dir = try folder()
        var bytes = try Self.png(40)
        bytes[bytes.count - 20] ^= 0x5A // inside IDAT: the CRC no longer matches
        try bytes.write(to: dir.url.appendingPathComponent("img/on@2x.png"))
        for command in [["render", "--spec", "spec.json", "--out", "out"], ["audit", "--spec", "spec.json"],
                        ["export", "--xcassets", "X.xcassets", "--spec", "spec.json"]] {
            let r = try CLI.run(command, in: dir.url)
            #expect(r.status == 2, "\(command): \(r.stderr)")
            let lines = r.stderr.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].hasPrefix("glyphaudit: \(dir.url.path)/spec.json:5:21: images.on: \(dir.url.path)/img/on@2x.png: cannot read this PNG: "),
                    "\(r.stderr)")
            #expect(dir.files().allSatisfy { $0.hasPrefix("img/") || $0 == "spec.json" }, "\(dir.files())")
        }
        // Not a PNG at all.
        dir.write("img/on@2x.png", "<svg/>")
        let r = try CLI.run(["render", "--spec", "spec.json", "--out", "out"], in: dir.url)
        #expect(r.status == 2 && r.stderr.contains("img/on@2x.png: cannot read this PNG: not a PNG file (bad signature)"), "\(r.stderr)")
    }

    @Test("a corrupt PDF image: exit 2, one message naming the spec key and the PDF, nothing written")
    func corruptPDF() throws {
        let dir = try folder()
        dir.write("spec.json", Self.spec.replacingOccurrences(of: "img/on.png", with: "img/on.pdf"))
        dir.write("img/on.pdf", "%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n")
        for command in [["render", "--spec", "spec.json", "--out", "out"], ["audit", "--spec", "spec.json"],
                        ["export", "--xcassets", "X.xcassets", "--spec", "spec.json"]] {
            let r = try CLI.run(command, in: dir.url)
            #expect(r.status == 2, "\(command): \(r.stderr)")
            let lines = r.stderr.split(separator: "\n").filter { $0.hasPrefix("glyphaudit: ") }
            #expect(lines.count == 1 && lines[0].hasPrefix("glyphaudit: \(dir.url.path)/spec.json:5:21: images.on: \(dir.url.path)/img/on.pdf: "),
                    "\(r.stderr)")
            #expect(dir.files().allSatisfy { $0.hasPrefix("img/") || $0 == "spec.json" }, "\(dir.files())")
        }
    }

    @Test("a missing scale is a warning on stderr; the render goes on")
    func missingScaleWarning() throws {
        let dir = try folder()
        let r = try CLI.run(["render", "--spec", "spec.json", "--out", "out", "--quiet"], in: dir.url)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr == "glyphaudit: warning: \(dir.url.path)/spec.json:5:21: images.on: no on@2x.png next to on.png: "
                + "@2x draws on.png scaled up 2×\n", "\(r.stderr)")
        #expect(dir.files("out").count == 2 * 2 * 12) // states × scales × Dynamic Type sizes (one theme)
    }

    @Test("an image outside the spec's folder: exit 2 naming the key, the path and where images may come from")
    func outside() throws {
        let dir = try folder()
        dir.write("sub/spec.json", Self.spec.replacingOccurrences(of: "\"img/", with: "\"../img/"))
        let r = try CLI.run(["audit", "--spec", "sub/spec.json"], in: dir.url)
        #expect(r.status == 2)
        #expect(r.stderr == "glyphaudit: \(dir.url.path)/sub/spec.json:5:21: images.on: \"../img/on.png\" (\(dir.url.path)/img/on.png) lies "
                + "outside the spec's folder \(dir.url.path)/sub; it is not read (a spec's images lie in its own folder, or in the folders "
                + "its \"assets\" names)\n", "\(r.stderr)")
        dir.write("sub/spec.json", Self.spec.replacingOccurrences(of: "\"img/", with: "\"../img/")
            .replacingOccurrences(of: "\"states\"", with: "\"assets\": \"../img\", \"states\""))
        let ok = try CLI.run(["audit", "--spec", "sub/spec.json", "--quiet"], in: dir.url)
        #expect(ok.status != 2, "\(ok.stderr)")
    }
}

extension Data {
    func write(to url: URL, createFolder: Bool) throws {
        if createFolder { try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true) }
        try write(to: url)
    }
}
