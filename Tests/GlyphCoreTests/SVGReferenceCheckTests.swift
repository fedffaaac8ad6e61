import Foundation
import Testing
import GlyphColor
import GlyphCore
import GlyphRaster
import GlyphRender
import GlyphTestSupport

// The SVG reference check (issue 9, item 3): what librsvg would read, refused before it reads it.
// The reproducers are `Tests/Fixtures/bad-input/{02,06,10}-*`.

@Suite("SVG reference check: nothing librsvg would read outside the SVG's folder")
struct SVGReferenceCheckTests {
    static let ns = #"xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="24" height="24""#
    static func svg(_ body: String, prolog: String = "") -> String { prolog + "<svg \(ns)>" + body + "</svg>" }
    static let clean = svg(#"<rect width="24" height="24"/>"#)
    static let png = try! Raster(width: 8, height: 8, fill: RGBA(r8: 0, g8: 0, b8: 255, a8: 255)).pngData()

    /// `root/` holds secret.png and secret.css (outside); the SVGs are checked in `root/img/`, which
    /// holds sub/a.png, parts/dot.svg (a clean SVG) and a.css (a clean style sheet).
    final class Layout {
        let root = TempFolder()
        var img: URL { root.url.appendingPathComponent("img") }
        init() {
            root.write("secret.png", SVGReferenceCheckTests.png)
            root.write("secret.css", "rect{fill:red}")
            root.write("img/sub/a.png", SVGReferenceCheckTests.png)
            root.write("img/parts/dot.svg", SVGReferenceCheckTests.svg(
                ##"<defs><linearGradient id="g"><stop offset="0" stop-color="#00F"/></linearGradient></defs><rect width="24" height="24" fill="url(#g)"/>"##))
            root.write("img/a.css", "rect { fill: url(#g) }")
        }

        /// Checks `bytes` as `img/<name>`: the error, or nil when it is accepted.
        func verdict(_ bytes: Data, name: String = "t.svg") -> InputError? {
            let file = root.write("img/" + name, bytes)
            do {
                try SVGReferenceCheck.check(data: bytes, file: file, name: name)
                return nil
            } catch {
                return error
            }
        }

        func verdict(_ text: String, name: String = "t.svg") -> InputError? { verdict(Data(text.utf8), name: name) }
    }

    // MARK: The reproducers

    @Test("02: invalid UTF-8 in a comment or an attribute name is refused at images.on (no crash)")
    func fixture02() throws {
        let folder = try badInputFixture("02-")
        for (spec, svg, byte) in [("spec-comment.json", "img/on-comment.svg", "0xFF"), ("spec-attrname.json", "img/on-attrname.svg", "0xFE")] {
            do {
                _ = try Spec.load(contentsOf: folder.url.appendingPathComponent(spec))
                Issue.record("\(spec) was accepted")
            } catch {
                #expect(error.keyPath == "images.on")
                #expect(error.message == "\(folder.url.appendingPathComponent(svg).path):1: is not valid UTF-8 (byte \(byte) at line 1); an SVG must be UTF-8")
            }
            // The check alone, as a fuzzer calls it.
            let file = folder.url.appendingPathComponent(svg)
            #expect(throws: InputError(file: "x.svg", line: 1, message: "is not valid UTF-8 (byte \(byte) at line 1); an SVG must be UTF-8")) {
                try SVGReferenceCheck.check(data: try Data(contentsOf: file), file: file, name: "x.svg")
            }
        }
    }

    static let bypasses: [(spec: String, svg: String, message: String)] = [
        ("pi-stylesheet", "pi-stylesheet.svg:1", #"uses <?xml-stylesheet type="text/css" href="../secret.css"?>; a style sheet in another file is not supported (put the CSS in a <style> element)"#),
        ("newline-entity", "newline-entity.svg", #"references "..&#10;/secret.png" (read as "../secret.png"), outside its own folder; it is not read"#),
        ("backslash", "backslash.svg", #"references "..\secret.png" (read as "../secret.png"), outside its own folder; it is not read"#),
        ("percent", "percent.svg", #"references "%2e%2e/secret.png" (read as "../secret.png"), outside its own folder; it is not read"#),
        ("nested-use", "nested-use.svg", #"through "inner.svg#r": references "../secret.png", outside its own folder; it is not read"#),
        ("style-child-element", "style-child-element.svg:1", "has an element <x> inside <style>; a style sheet may only hold text"),
        ("css-escape", "css-escape.svg:1", #"has a CSS escape (\75 rl(../secret.css);) in a <style> element; CSS escapes are not supported"#),
    ]

    @Test("06: the seven bypasses are refused at images.on, each saying what it refuses")
    func fixture06() throws {
        let folder = try badInputFixture("06-")
        for (spec, svg, message) in Self.bypasses {
            do {
                _ = try Spec.load(contentsOf: folder.url.appendingPathComponent("spec-\(spec).json"))
                Issue.record("spec-\(spec).json was accepted")
            } catch {
                #expect(error.keyPath == "images.on", "\(spec)")
                #expect(error.message == folder.url.appendingPathComponent("img/" + svg).path + ": " + message)
                #expect(!error.description.contains("\n"))
            }
        }
    }

    @Test("10: a well-formed SVG over 8 MiB is refused for its size, from a spec, a file and bytes")
    func fixture10() throws {
        let folder = try badInputFixture("10-")
        // As its repro.sh makes it: 10,400,069 bytes.
        let text = #"<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24">"#
            + String(repeating: #"<path d="M0 0L1 1"/>"#, count: 520_000) + "</svg>"
        let on = folder.write("img/on.svg", text)
        #expect(text.utf8.count == 10_400_069)
        let limit = "the SVG image is 10400069 bytes; the limit is 8 MiB (docs/limits.md)"
        do {
            _ = try Spec.load(contentsOf: folder.url.appendingPathComponent("spec.json"))
            Issue.record("accepted")
        } catch {
            #expect(error.keyPath == "images.on")
            #expect(error.message == "\(on.path): \(limit)")
        }
        #expect(throws: InputError(file: on.path, message: limit)) { _ = try SVGDocument(url: on) }
        #expect(throws: InputError(file: "on.svg", message: limit)) { _ = try SVGDocument(data: Data(text.utf8), name: "on.svg", base: on) }
        // Just under the limit is read (and the check is what it is for a big file: no well-formedness complaint).
        let under = #"<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24">"#
            + String(repeating: #"<path d="M0 0L1 1"/>"#, count: 400_000) + "</svg>"
        let file = folder.write("img/under.svg", under)
        #expect(throws: Never.self) { try SVGReferenceCheck.check(data: Data(under.utf8), file: file, name: "under.svg") }
        // And a missing file is still "no such SVG file".
        #expect(throws: InputError(file: folder.url.appendingPathComponent("img/nope.svg").path, message: "no such SVG file")) {
            _ = try SVGDocument(url: folder.url.appendingPathComponent("img/nope.svg"))
        }
    }

    // MARK: Rules

    @Test("references read as a URL parser reads them are refused when they leave the folder or name a URL")
    func urls() throws {
        let layout = Layout()
        let image = { (href: String) in Self.svg(#"<image href="\#(href)" width="24" height="24"/>"#) }
        let outside = { (shown: String, read: String?) in
            #"references "\#(shown)""# + (read.map { #" (read as "\#($0)")"# } ?? "") + ", outside its own folder; it is not read"
        }
        let cases: [(svg: String, message: String)] = [
            (image("file:../secret.png"), outside("file:../secret.png", "../secret.png")),
            (image("FILE:///etc/passwd"), outside("FILE:///etc/passwd", "///etc/passwd")),
            // An absolute path (a short one: a message quotes at most 79 characters of a reference,
            // and a path in TMPDIR may be longer; /etc/passwd is there on Linux and macOS).
            (image("/etc/passwd"), outside("/etc/passwd", nil)),
            (image("//host/secret.png"), outside("//host/secret.png", nil)),
            (image("c|/secret.png"), outside("c|/secret.png", nil)),
            (image("..%2fsecret.png"), outside("..%2fsecret.png", "../secret.png")),
            (image(".%2E/secret.png"), outside(".%2E/secret.png", "../secret.png")),
            (image("sub/../../secret.png"), outside("sub/../../secret.png", nil)),
            (image("&#x2e;&#x2E;/secret.png"), outside("../secret.png", nil)),
            (image(" \t..&#13;/secret.png "), outside("  ..&#13;/secret.png ", "../secret.png")),
            (image("..%5csecret.png"), outside("..%5csecret.png", "../secret.png")),
            (image("%00.png"), #"references "%00.png", which percent-decodes to no valid file name (a NUL byte, or not UTF-8)"#),
            (image("%C0%AE%C0%AE/secret.png"), #"references "%C0%AE%C0%AE/secret.png", which percent-decodes to no valid file name (a NUL byte, or not UTF-8)"#),
            (image("h&#9;ttp://example.com/x.png"), #"references the URL "h&#9;ttp://example.com/x.png"; an SVG may only reference files in its own folder"#),
            (image("javascript:alert(1)"), #"references the URL "javascript:alert(1)"; an SVG may only reference files in its own folder"#),
            (image("file:http://example.com/x.png"), #"references the URL "file:http://example.com/x.png"; an SVG may only reference files in its own folder"#),
            (Self.svg(#"<use xlink:href="..\secret.svg#a"/>"#), outside(#"..\secret.svg#a"#, "../secret.svg")),
            (Self.svg(#"<rect width="1" height="1" fill="url(&quot;../secret.svg#p&quot;)"/>"#), outside("../secret.svg#p", nil)),
            (Self.svg(#"<rect width="1" height="1" style="fill:url(..&#10;/secret.svg#p)"/>"#), outside("..&#10;/secret.svg#p", "../secret.svg")),
            (Self.svg(#"<rect width="1" height="1" style="fill: URL( '..\/secret.svg#p' )"/>"#), #"has a CSS escape (\/secret.svg#p' )) in its style attribute; CSS escapes are not supported"#),
            (Self.svg(#"<rect width="1" height="1" fill="\75 rl(../secret.svg#a)"/>"#), #"has a CSS escape (\75 rl(../secret.svg#a)) in its fill attribute; CSS escapes are not supported"#),
            (image("sub"), #"references "sub", a folder, not a file; it is not read"#),
        ]
        for (text, message) in cases {
            let error = layout.verdict(text)
            #expect(error?.message == message, "\(text)")
            #expect(error?.file == "t.svg")
        }
    }

    @Test("style sheets: <style>, @import, comments, character references, CDATA, data: URLs; elements and escapes refused")
    func styleSheets() throws {
        let layout = Layout()
        layout.root.write("img/imports-out.css", "rect{fill:blue}\n@import \"../secret.css\";")
        layout.root.write("img/sub/imports-up.css", "@import url(\"../../secret.css\");")
        let style = { (css: String) in Self.svg("<style>\(css)</style><rect width=\"1\" height=\"1\"/>") }
        let outside = { (shown: String) in #"references "\#(shown)", outside its own folder; it is not read"# }
        let cases: [(svg: String, message: String)] = [
            (style(#"@import "imports-out.css";"#), #"through "imports-out.css": "# + outside("../secret.css")),
            (style("@IMPORT url( sub/imports-up.css );"), #"through "sub/imports-up.css": "# + outside("../../secret.css")),
            (style("@imp<!-- a comment -->ort url(../secret.css);"), outside("../secret.css")),
            (style("@import url(&#46;&#46;/secret.css);"), outside("../secret.css")),
            (style("<![CDATA[@import ]]>'../secret.css';"), outside("../secret.css")),
            (style("/* @import '../a.css'; */ rect { fill: url( \"../secret.svg#g\" ) }"), outside("../secret.svg#g")),
            (style(#"@import url("data:text/css,@import%20'../secret.css';");"#),
             #"in the data: URL "data:text/css,@import%20'../secret.css';": "# + outside("../secret.css")),
            (style("@import url(a.css)<g/>"), "has an element <g> inside <style>; a style sheet may only hold text"),
            (style(#"@import "\2e\2e/secret.css";"#), #"has a CSS escape (\2e\2e/secret.css";) in a <style> element; CSS escapes are not supported"#),
            (Self.svg(#"<?xml-stylesheet href="a.css"?><rect width="1" height="1"/>"#),
             #"uses <?xml-stylesheet href="a.css"?>; a style sheet in another file is not supported (put the CSS in a <style> element)"#),
        ]
        for (text, message) in cases {
            #expect(layout.verdict(text)?.message == message, "\(text)")
        }
    }

    @Test("DOCTYPE subsets, entities, XInclude, xml:base, encodings and stray bytes are refused")
    func constructs() throws {
        let layout = Layout()
        let cases: [(svg: Data, line: Int?, message: String)] = [
            (Data(Self.svg("<image href=\"&e;\"/>", prolog: #"<!DOCTYPE svg [<!ENTITY e "../secret.png">]>"#).utf8), 1,
             "has a DOCTYPE with an internal subset ([…]); entity and other declarations are not supported (a plain <!DOCTYPE svg PUBLIC …> is fine)"),
            (Data(Self.svg("", prolog: "<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" \"x\"\n[ ]>").utf8), 2,
             "has a DOCTYPE with an internal subset ([…]); entity and other declarations are not supported (a plain <!DOCTYPE svg PUBLIC …> is fine)"),
            (Data(Self.svg("<title>a&nbsp;b</title>").utf8), 1,
             "uses the entity &nbsp;, which is not defined here; only XML's own (&amp; &lt; &gt; &quot; &apos;) and numeric character references are supported"),
            (Data(Self.svg(#"<xi:include xmlns:xi="http://www.w3.org/2001/XInclude" href="a.css" parse="text"/>"#).utf8), 1,
             #"uses XInclude (xmlns:xi="http://www.w3.org/2001/XInclude"); it is not supported"#),
            (Data(Self.svg(#"<g xml:base="sub/"><image href="a.png"/></g>"#).utf8), nil,
             #"sets xml:base="sub/"; xml:base is not supported (write references relative to the SVG file, inside its own folder)"#),
            (Data([0xFF, 0xFE]) + Self.clean.data(using: .utf16LittleEndian)!, nil, "is UTF-16; only UTF-8 SVGs are supported"),
            (Data(("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n" + Self.svg("<title>caf")).utf8) + Data([0xE9]) + Data("</title></svg>".utf8), 2,
             #"declares encoding="iso-8859-1" and has the non-ASCII byte 0xE9; only UTF-8 SVGs are supported (save it as UTF-8)"#),
            (Data((#"<?xml version="1.0" encoding="Shift_JIS"?>"# + Self.clean).utf8), 1,
             #"declares encoding="Shift_JIS"; only UTF-8 SVGs are supported (save it as UTF-8)"#),
            (Data(Self.svg("<title>\u{1}</title>").utf8), 1, "has the control character 0x01 (at line 1), which XML does not allow"),
            (Data(Self.svg("\n<title>a\u{0}</title>").utf8), 2,
             "has a NUL byte (at line 2): it is not UTF-8 text (UTF-16 and other encodings are not supported)"),
            (Data(("\n" + Self.clean).utf8) + Data([0xC0, 0xAE]), 2, "is not valid UTF-8 (byte 0xC0 at line 2); an SVG must be UTF-8"),
            (Data("<html/>".utf8), nil, "not an SVG document (the root element is not <svg>)"),
            (Data(" <!-- nothing -->".utf8), nil, "not an SVG document (it has no root element)"),
            (Data(Self.svg(#"<image href="a<b"/>"#).utf8), 1, "not a well-formed SVG (XML) document: a '<' in an attribute value (write &lt;)"),
            (Data(Self.svg("\n<g></h>").utf8), 2, "not a well-formed SVG (XML) document: </h> ends <g>"),
            (Data((" <?xml version=\"1.0\"?>" + Self.clean).utf8), 1, "not a well-formed SVG (XML) document: an XML declaration that is not at the very start"),
            (Data(Self.svg("<title>&#0;</title>").utf8), 1, "not a well-formed SVG (XML) document: a character reference to a character XML does not allow (&#0;)"),
        ]
        for (bytes, line, message) in cases {
            let error = layout.verdict(bytes)
            #expect(error?.message == message, "\(String(decoding: bytes, as: UTF8.self))")
            #expect(error?.line == line, "\(message)")
        }
    }

    @Test("SVGs and style sheets it references are checked too: nested, cycles, depth, links, FIFOs, size, gzip")
    func nested() throws {
        let layout = Layout()
        let use = { (href: String) in Self.svg(#"<use href="\#(href)"/>"#) }
        layout.root.write("img/sub/n.svg", Self.svg(#"<image id="i" href="../../secret.png"/>"#))
        layout.root.write("img/b.svg", Self.svg(#"<g xml:base="x/"/>"#))
        layout.root.write("img/data.svg", Self.svg(#"<image href="data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'%3E%3Cimage href='sub/a.png'/%3E%3C/svg%3E"/>"#))
        // A nested SVG, found by content whatever its name, with a link in its own folder that leads out.
        try FileManager.default.createSymbolicLink(atPath: layout.img.appendingPathComponent("sub/link").path, withDestinationPath: layout.root.url.path)
        layout.root.write("img/sub/m.png", Self.svg(#"<image href="link/secret.png"/>"#))
        // A chain d0 → d1 → … → d8.
        for k in 0..<9 { layout.root.write("img/d\(k).svg", use("d\(k + 1).svg#a")) }
        layout.root.write("img/d9.svg", Self.clean)
        layout.root.write("img/big.svg", String(repeating: " ", count: Limits.svgFileBytes - Self.clean.utf8.count + 1) + Self.clean)
        layout.root.write("img/z.svgz", Data([0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0]))
        #expect(mkfifo(layout.img.appendingPathComponent("pipe").path, 0o644) == 0)

        let cases: [(svg: String, message: String)] = [
            (use("sub/n.svg#i"), #"through "sub/n.svg#i": references "../../secret.png", outside its own folder; it is not read"#),
            (Self.svg(#"<image href="sub/m.png"/>"#),
             #"through "sub/m.png": references "link/secret.png", which a symbolic link leads outside its own folder; it is not read"#),
            (Self.svg(#"<rect width="1" height="1" fill="url(b.svg#g)"/>"#),
             #"through "b.svg#g": sets xml:base="x/"; xml:base is not supported (write references relative to the SVG file, inside its own folder)"#),
            (use("data.svg#x"), #"through "data.svg#x": in the data: URL "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'%3E%3Cimage href='s…": "#
             + #"references "sub/a.png", but this SVG has no folder (it is built in, or inside a data: URL), so it may not reference files"#),
            (use("d0.svg#a"), (0..<8).map { #"through "d\#($0).svg#a": "# }.joined()
             + #"references "d8.svg#a", more than 8 SVGs or style sheets deep; that is not supported"#),
            (use("big.svg#a"), #"references "big.svg#a": the SVG image is 8388609 bytes; the limit is 8 MiB (docs/limits.md)"#),
            (Self.svg(#"<image href="z.svgz"/>"#), #"references "z.svgz", a compressed (gzip) file; compressed SVGs (.svgz) are not supported"#),
            (Self.svg(#"<image href="pipe"/>"#), #"references "pipe", which is not a regular file (a FIFO); it is not read"#),
        ]
        for (text, message) in cases {
            #expect(layout.verdict(text)?.message == message, "\(text)")
        }
        // A link to the folder itself may be followed, up to the kernel's 40 links; no path is 4096 bytes.
        try FileManager.default.createSymbolicLink(atPath: layout.img.appendingPathComponent("here").path, withDestinationPath: ".")
        #expect(layout.verdict(Self.svg(#"<image href="\#(String(repeating: "here/", count: 40))sub/a.png"/>"#)) == nil)
        #expect(layout.verdict(Self.svg(#"<image href="\#(String(repeating: "here/", count: 41))sub/a.png"/>"#))?.message
                == #"references "here/here/here/here/here/here/here/here/here/here/here/here/here/here/here/here…", a path through more than 40 symbolic links; it is not read"#)
        #expect(layout.verdict(Self.svg(#"<image href="\#(String(repeating: "a/", count: 2100))"/>"#))?.message
                == #"references "a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a/a…", a path of 4096 bytes or more; it is not read"#)
        // A chain of 8 below the top is fine, and so is a cycle.
        #expect(layout.verdict(use("d2.svg#a")) == nil)
        layout.root.write("img/c1.svg", use("c2.svg#a"))
        layout.root.write("img/c2.svg", use("c1.svg#a") + "")
        #expect(layout.verdict(use("c1.svg#a")) == nil)
        #expect(layout.verdict(use("t.svg#a")) == nil, "a reference to itself")
        // A built-in image (no base) may not reference any file.
        #expect(throws: InputError(file: "b.svg", message: #"references "a.png", but this SVG has no folder (it is built in, or inside a data: URL), so it may not reference files"#)) {
            _ = try SVGDocument(data: Data(Self.svg(#"<image href="a.png"/>"#).utf8), name: "b.svg", base: nil)
        }
    }

    @Test("positive controls: references inside the folder, fragments, data: URIs, nested clean SVGs, real exports")
    func accepted() throws {
        let layout = Layout()
        layout.root.write("img/sprite.svg", Self.svg(#"<symbol id="a"><use href="parts/dot.svg#g"/><rect width="4" height="4" fill="url(#g)"/></symbol>"#))
        let png64 = Self.png.base64EncodedString()
        let illustrator = """
            <?xml version="1.0" encoding="utf-8"?>
            <!-- Generator: Adobe Illustrator 27.0.0, SVG Export Plug-In . SVG Version: 6.00 Build 0)  -->
            <!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">
            <svg version="1.1" id="Layer_1" xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" x="0px" y="0px"
            \t viewBox="0 0 24 24" style="enable-background:new 0 0 24 24;" xml:space="preserve">
            <style type="text/css">
            \t.st0{fill:none;stroke:#000000;stroke-width:2;stroke-miterlimit:10;}
            </style>
            <path class="st0" d="M4,12l5,5L20,6"/>
            </svg>
            """
        let inkscape = """
            <?xml version="1.0" encoding="UTF-8" standalone="no"?>
            <!-- Created with Inkscape (http://www.inkscape.org/) -->
            <svg xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"
               xmlns="http://www.w3.org/2000/svg" xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd"
               xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" width="24" height="24" viewBox="0 0 24 24"
               sodipodi:docname="check.svg" inkscape:export-filename="C:\\Users\\me\\icons (old)\\check.png">
              <metadata><?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><rdf:RDF><dc:title>Check &amp; done &#169;</dc:title></rdf:RDF></metadata>
              <g inkscape:label="Layer 1" inkscape:groupmode="layer"><path style="fill:#000000;stroke:none" d="M4 12l5 5L20 6z"/></g>
            </svg>
            """
        let cases: [String] = [
            Self.svg(#"<image href="sub/a.png" width="24" height="24"/>"#),
            Self.svg(#"<image xlink:href="./sub/a.png?v=2#frag" width="24" height="24"/>"#),
            Self.svg(#"<image href="file:sub/a.png" width="24" height="24"/>"#),
            Self.svg(#"<image href="sub%2Fa.png" width="24" height="24"/>"#),
            Self.svg(##"<defs><linearGradient id="g"><stop offset="0" stop-color="#00F"/></linearGradient><rect id="r" width="4" height="4"/></defs>"##
                     + ##"<rect width="24" height="24" fill="url(#g)" style="stroke: url( '#g' )"/><use href="#r"/><use xlink:href="#r" x="4"/>"##),
            Self.svg(#"<image href="parts/dot.svg" width="24" height="24"/><use href="sprite.svg#a"/><rect width="1" height="1" fill="url(parts/dot.svg#g)"/>"#),
            Self.svg(#"<image href="data:image/png;base64,\#(png64)" width="24" height="24"/>"#),
            Self.svg(#"<image href="data:image/svg+xml;base64,\#(Data(Self.svg(#"<rect fill="url(#a)" width="1" height="1"/>"#).utf8).base64EncodedString())" width="24" height="24"/>"#),
            Self.svg(##"<style>@import "a.css"; /* ../secret.css */ .x { fill: url(#g) }</style><style><![CDATA[ rect > g { fill: url("#g") } ]]></style>"##),
            Self.svg("<!-- <image href=\"../secret.png\"/> and url(../secret.css) --><title>A &amp; B &#169; &#x1F600;</title>"),
            Self.svg(#"<image href="missing.png" width="24" height="24"/>"#),
            "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n" + Self.clean,
            illustrator,
            inkscape,
        ]
        for text in cases {
            let error = layout.verdict(text)
            #expect(error == nil, "\(text): \(error?.message ?? "")")
            // librsvg reads them too.
            #expect(throws: Never.self) { _ = try SVGDocument(url: layout.img.appendingPathComponent("t.svg")) }
        }
        // And draws what they reference: the PNG in a subfolder, the SVG nested through <image>.
        layout.root.write("img/t.svg", Self.svg(#"<image href="sub/a.png" width="24" height="24"/>"#))
        let drawn = Renderer.raster(svg: try SVGDocument(url: layout.img.appendingPathComponent("t.svg")), width: 24, height: 24)
        #expect(drawn.color(12, 12) == RGBA(r8: 0, g8: 0, b8: 255, a8: 255))
        layout.root.write("img/t.svg", Self.svg(#"<image href="parts/dot.svg" width="24" height="24"/>"#))
        let nested = Renderer.raster(svg: try SVGDocument(url: layout.img.appendingPathComponent("t.svg")), width: 24, height: 24)
        #expect(nested.color(12, 12) == RGBA(r8: 0, g8: 0, b8: 255, a8: 255))
    }

    // MARK: Robustness (the check is fuzzed with libFuzzer; here: truncations, mutations and sizes)

    /// Inputs whose every prefix and many mutations must be checked without a trap.
    static let seeds: [String] = [
        svg(##"<style>@import url(a.css); rect{fill:url("#g")}</style><image xlink:href="sub/a.png"/><rect style="fill:url(#g)"/>"##,
            prolog: #"<?xml version="1.0" encoding="UTF-8"?><!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x"><!-- c -->"#),
        svg(#"<![CDATA[x]]><title>&amp;&#x41;&#66;</title><image href="data:image/svg+xml;base64,PHN2Zz48L3N2Zz4="/><?pi x?>"#),
    ]

    @Test("every prefix and 3000 random mutations of SVGs are checked without a trap")
    func mutations() throws {
        let layout = Layout()
        let file = layout.img.appendingPathComponent("t.svg")
        var inputs: [[UInt8]] = Self.seeds.map { Array($0.utf8) }
        for name in ["02-svg-invalid-utf8-xmlparser-crash/img/on-comment.svg", "02-svg-invalid-utf8-xmlparser-crash/img/on-attrname.svg"]
            + Self.bypasses.map({ "06-svg-precheck-bypass/img/" + $0.svg.replacingOccurrences(of: ":1", with: "") }) {
            inputs.append(Array(try Data(contentsOf: TestPaths.fixture("bad-input/" + name))))
        }
        var checked = 0
        for input in inputs {
            for end in 0...input.count {
                _ = try? SVGReferenceCheck.check(data: Data(input[..<end]), file: file, name: "t.svg")
                checked += 1
            }
        }
        var random = SplitMix(seed: 9)
        let alphabet = Array("<>/?!-[]&#;:=\"' \t\n\\%.()@*xX0aurl".utf8) + [0x00, 0x80, 0xC3, 0xA9, 0xFF, 0xEF, 0xBB, 0xBF]
        for _ in 0..<3000 {
            var bytes = inputs[Int(random.next() % UInt64(inputs.count))]
            for _ in 0..<(1 + Int(random.next() % 6)) where !bytes.isEmpty {
                let at = Int(random.next() % UInt64(bytes.count))
                let b = alphabet[Int(random.next() % UInt64(alphabet.count))]
                switch random.next() % 4 {
                case 0: bytes[at] = b
                case 1: bytes.insert(b, at: at)
                case 2: bytes.remove(at: at)
                default: bytes.insert(contentsOf: bytes[at..<min(bytes.count, at + 16)], at: at)
                }
            }
            _ = try? SVGReferenceCheck.check(data: Data(bytes), file: file, name: "t.svg")
            checked += 1
        }
        #expect(checked > 3000)
    }

    @Test("pathological inputs take linear time and no recursion: deep nesting, long values, many references")
    func pathological() throws {
        let layout = Layout()
        let file = layout.img.appendingPathComponent("t.svg")
        let head = "<svg \(Self.ns)>"
        let inputs: [(String, String, String?)] = [
            ("300,000 nested <g>", head + String(repeating: "<g>", count: 300_000) + String(repeating: "</g>", count: 300_000) + "</svg>", nil),
            // Left for librsvg to report, as any SVG that ends too early.
            ("an unterminated comment of 4 MB", head + "<!--" + String(repeating: "-", count: 4_000_000), nil),
            ("an attribute of 250,000 character references", head + "<image href=\"" + String(repeating: "&#46;&#46;&#47;", count: 83_000)
             + "a.png\"/></svg>", "outside its own folder"),
            ("100,000 url(#a)", head + String(repeating: #"<rect fill="url(#a)"/>"#, count: 100_000) + "</svg>", nil),
            ("a style sheet of 2 MB that ends in url(", head + "<style>" + String(repeating: "a{fill:url(#a)}", count: 130_000) + "url(", nil),
            ("a style sheet of unterminated comments", head + "<style>" + String(repeating: "/*/", count: 1_000_000), nil),
            ("200,000 attributes", head + "<g" + String(repeating: " a='1'", count: 200_000) + "/></svg>", nil),
            ("20,000 references to missing files", head + (0..<20_000).map { "<image href=\"m\($0).png\"/>" }.joined() + "</svg>", nil),
        ]
        for (what, text, refusal) in inputs {
            let start = Date()
            var error: InputError?
            do throws(InputError) {
                try SVGReferenceCheck.check(data: Data(text.utf8), file: file, name: "t.svg")
            } catch let caught {
                error = caught
            }
            let seconds = Date().timeIntervalSince(start)
            #expect(seconds < 15, "\(what): \(seconds) s")
            if let refusal {
                #expect(error?.message.contains(refusal) == true, "\(what): \(error?.message ?? "accepted")")
            } else {
                #expect(error == nil, "\(what): \(error?.message ?? "")")
            }
        }
    }
}

/// A small deterministic random source (SplitMix64).
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
