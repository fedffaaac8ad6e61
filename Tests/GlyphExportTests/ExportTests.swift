import Foundation
import Testing
import GlyphColor
import GlyphCore
import GlyphExport
import GlyphPipeline
import GlyphRaster
import GlyphRender
import GlyphTestSupport
import GlyphRenderTestSupport

/// The asset catalog, read back from disk: what Xcode would see.
@Suite("Export: the .xcassets catalog")
struct ExportTests {
    static let builtins: [Spec] = Presets.names.map { try! Presets.load($0) }

    /// Exports `specs` into a fresh `Glyphs.xcassets` and returns the catalog folder (kept alive by `folder`).
    func export(_ specs: [Spec] = builtins, format: AssetCatalog.Format = .png, filter: VariantFilter = VariantFilter(),
                into folder: TempFolder) throws -> (URL, AssetCatalog, AssetCatalog.WriteSummary) {
        let root = folder.url.appendingPathComponent("Glyphs.xcassets")
        let catalog = try AssetCatalog(specs: specs, filter: filter, format: format)
        let summary = try AssetCatalog.write(try catalog.files(jobs: 2), to: root)
        return (root, catalog, summary)
    }

    func json(_ url: URL) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any], "\(url.path)")
    }

    /// Every regular file below `root` with its bytes and modification date.
    func snapshot(_ root: URL) throws -> [String: (Data, Date)] {
        var out: [String: (Data, Date)] = [:]
        let e = try #require(FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey]))
        for case let url as URL in e where (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true {
            let date = try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date)
            out[String(url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1))] = (try Data(contentsOf: url), date)
        }
        return out
    }

    // MARK: Contents.json as Xcode writes it

    @Test("XcodeJSON writes Xcode's layout: two spaces, \"key\" : value, sorted keys, arrays of objects, final newline")
    func xcodeLayout() {
        let value: XcodeJSON = [
            "properties": ["template-rendering-intent": "template"],
            "info": ["version": 1, "author": "xcode"],
            "images": [
                ["scale": "1x", "idiom": "universal", "filename": "a.png"],
                ["appearances": [["value": "dark", "appearance": "luminosity"]], "idiom": "universal", "filename": "a-dark.png",
                 "scale": "1x"],
            ],
        ]
        #expect(value.formatted() == """
        {
          "images" : [
            {
              "filename" : "a.png",
              "idiom" : "universal",
              "scale" : "1x"
            },
            {
              "appearances" : [
                {
                  "appearance" : "luminosity",
                  "value" : "dark"
                }
              ],
              "filename" : "a-dark.png",
              "idiom" : "universal",
              "scale" : "1x"
            }
          ],
          "info" : {
            "author" : "xcode",
            "version" : 1
          },
          "properties" : {
            "template-rendering-intent" : "template"
          }
        }

        """)
    }

    @Test("XcodeJSON: empty containers, booleans, escapes; parses back as the same value")
    func xcodeEdges() throws {
        let value: XcodeJSON = ["images": [], "b": true, "s": "a \"q\" \\ /\n\u{1}é", "tags": ["x", "y"]]
        #expect(value.formatted() == """
        {
          "b" : true,
          "images" : [

          ],
          "s" : "a \\"q\\" \\\\ /\\n\\u0001é",
          "tags" : [
            "x",
            "y"
          ]
        }

        """)
        let back = try #require(try JSONSerialization.jsonObject(with: value.data) as? [String: Any])
        #expect(back["s"] as? String == "a \"q\" \\ /\n\u{1}é")
        #expect((back["images"] as? [Any])?.isEmpty == true)
        #expect(back["tags"] as? [String] == ["x", "y"])
    }

    @Test("one small image set's Contents.json is exactly what Xcode writes for it")
    func handWrittenImageSet() throws {
        let spec = try Presets.load("rvs-checkbox")
        var filter = VariantFilter()
        try filter.add("state=checked")
        let set = try #require(try AssetCatalog(specs: [spec], filter: filter, format: .pdf).imageSets.first)
        #expect(set.path == "rvs-checkbox/square-md-checked.imageset")
        #expect(set.contents.formatted() == """
        {
          "images" : [
            {
              "filename" : "square-md-checked.pdf",
              "idiom" : "universal"
            }
          ],
          "info" : {
            "author" : "xcode",
            "version" : 1
          },
          "properties" : {
            "preserves-vector-representation" : true,
            "template-rendering-intent" : "template"
          }
        }

        """)
    }

    // MARK: The catalog read back

    @Test("every image set of the built-in presets, with Contents.json files that list files of the right pixel sizes")
    func readBack() throws {
        let folder = TempFolder()
        let (root, catalog, summary) = try export(into: folder)
        #expect(summary.unchanged.isEmpty && summary.removed.isEmpty)

        // The catalog and its namespace folders.
        #expect(try json(root.appendingPathComponent("Contents.json")).keys.sorted() == ["info"])
        let info = try #require(try json(root.appendingPathComponent("Contents.json"))["info"] as? [String: Any])
        #expect(info["author"] as? String == "xcode" && info["version"] as? Int == 1)
        for preset in Presets.names {
            let c = try json(root.appendingPathComponent("\(preset)/Contents.json"))
            #expect((c["properties"] as? [String: Any])?["provides-namespace"] as? Bool == true, "\(preset)")
        }

        // One image set per preset, shape, size and state.
        let expected: [String: (w: Int, h: Int)] = [
            "design-system-checkbox/square-md-unchecked": (20, 20), "design-system-checkbox/square-md-checked": (20, 20),
            "design-system-checkbox/square-sm-unchecked": (16, 16), "design-system-checkbox/square-sm-checked": (16, 16),
            "design-system-checkbox/circle-md-unchecked": (20, 20), "design-system-checkbox/circle-md-checked": (20, 20),
            "design-system-checkbox/circle-sm-unchecked": (16, 16), "design-system-checkbox/circle-sm-checked": (16, 16),
            "swiftui-checkbox/square-md-unchecked": (22, 22), "swiftui-checkbox/square-md-checked": (22, 22),
            "swiftui-switch/switch-md-off": (51, 31), "swiftui-switch/switch-md-on": (51, 31),
            "rvs-checkbox/square-md-unchecked": (44, 44), "rvs-checkbox/square-md-checked": (44, 44),
            "rvs-checkbox/square-md-mixed": (44, 44),
        ]
        #expect(Set(catalog.imageSets.map { "\($0.folder)/\($0.name)" }) == Set(expected.keys))
        for (name, size) in expected {
            let dir = root.appendingPathComponent("\(name).imageset")
            let contents = try json(dir.appendingPathComponent("Contents.json"))
            let images = try #require(contents["images"] as? [[String: Any]], "\(name)")
            let template = name.hasPrefix("rvs-checkbox/")
            #expect(images.count == (template ? 3 : 6), "\(name): 1x 2x 3x\(template ? "" : ", any and dark")")
            var seen = Set<String>()
            for image in images {
                #expect(image["idiom"] as? String == "universal")
                let file = try #require(image["filename"] as? String)
                let scaleText = try #require(image["scale"] as? String)
                let scale = try #require(Int(scaleText.dropLast()))
                let dark = (image["appearances"] as? [[String: String]]) == [["appearance": "luminosity", "value": "dark"]]
                #expect(dark || image["appearances"] == nil)
                #expect(seen.insert("\(scale)\(dark)").inserted, "\(name): one image per scale and appearance")
                let raster = try Raster(contentsOfPNG: dir.appendingPathComponent(file))
                #expect(raster.width == size.w * scale && raster.height == size.h * scale, "\(name)/\(file)")
                #expect(raster.pixel(0, 0).a == 0, "\(name)/\(file): transparent background")
            }
            let properties = try #require(contents["properties"] as? [String: Any])
            #expect(properties["template-rendering-intent"] as? String == (template ? "template" : "original"))
            #expect(properties["preserves-vector-representation"] == nil)
            // Nothing in the folder that Contents.json does not list.
            let listed = Set(images.compactMap { $0["filename"] as? String } + ["Contents.json"])
            #expect(Set(try FileManager.default.contentsOfDirectory(atPath: dir.path)) == listed, "\(name)")
        }
    }

    @Test("the any image is the default theme, the dark image the inverse theme, each the glyph alone")
    func appearances() throws {
        let folder = TempFolder()
        let spec = try Presets.load("design-system-checkbox")
        var filter = VariantFilter()
        try filter.add("shape=square")
        try filter.add("size=md")
        try filter.add("state=checked")
        let (root, _, _) = try export([spec], filter: filter, into: folder)
        let dir = root.appendingPathComponent("design-system-checkbox/square-md-checked.imageset")
        let theme = { (name: String) in spec.theme(named: name)!.color(.fill, state: .checked)!.rgba }
        for (file, fill) in [("square-md-checked@2x.png", theme("default")), ("square-md-checked-dark@2x.png", theme("inverse"))] {
            let r = try Raster(contentsOfPNG: dir.appendingPathComponent(file))
            #expect(r.width == 40 && r.height == 40)
            // The middle of the left edge is fill colour; the corner outside the rounded box is transparent.
            let c = r.color(1, 20)
            #expect(abs(c.r - fill.r) < 0.01 && abs(c.g - fill.g) < 0.01 && abs(c.b - fill.b) < 0.01, "\(file)")
            #expect(r.pixel(0, 0).a < 128)
        }
    }

    @Test("a glyph-only image equals the glyph cut out of the full canvas, for every image of the built-in presets")
    func glyphOnlyMatchesCrop() throws {
        let catalog = try AssetCatalog(specs: Self.builtins)
        for set in catalog.imageSets {
            for image in set.images {
                let scale = try #require(image.scale)
                let own = Renderer.raster(image.layout, spec: image.spec, parts: [.glyph])
                // The same variant laid out on its full canvas, drawn alone, cut at the glyph's pixel box.
                let spec = image.spec
                let full = try Layout(spec: spec, variant: image.layout.variant)
                #expect(image.layout.variant.scale == scale && image.layout.variant.dynamicType == .large)
                let whole = Renderer.raster(full, spec: spec, parts: [.glyph])
                let x0 = Int((full.glyph.x * Double(scale)).rounded()), y0 = Int((full.glyph.y * Double(scale)).rounded())
                #expect(own.width == Int((full.glyph.width * Double(scale)).rounded(.up)))
                var same = true
                for y in 0..<own.height {
                    for x in 0..<own.width where own.pixel(x, y) != whole.pixel(x0 + x, y0 + y) { same = false }
                }
                #expect(same, "\(set.path)/\(image.filename)")
                // Nothing drawn outside the glyph's box.
                var ink = 0
                for y in 0..<whole.height {
                    for x in 0..<whole.width where whole.pixel(x, y).a > 0 {
                        if x < x0 || y < y0 || x >= x0 + own.width || y >= y0 + own.height { ink += 1 }
                    }
                }
                #expect(ink == 0, "\(set.path)/\(image.filename): \(ink) px of ink outside the glyph")
            }
        }
    }

    @Test("a switch knob taller than its track is exported whole: the image is the track and the knob")
    func tallKnob() throws {
        let spec = try loadSpec("""
        {"name": "m2", "control": "switch", "sizes": {"md": {"trackWidth": 36, "trackHeight": 14, "knobDiameter": 20, "knobInset": 0}},
         "states": ["off", "on"], "scales": [2], "dynamicTypeSizes": ["L"],
         "themes": {"default": {"surface": "#FFFFFF", "trackOff": "#9E9E9E", "trackOn": "#9E9E9E", "knob": "#000000"}}}
        """).get()
        let catalog = try AssetCatalog(specs: [spec])
        let images = catalog.imageSets.flatMap(\.images)
        #expect(!images.isEmpty)
        for image in images {
            let r = Renderer.raster(image.layout, spec: image.spec, parts: [.glyph])
            let s = image.layout.variant.scale
            // 36 × 20 pt at its scale; the knob's top and bottom rows (3 pt above and below the track) are drawn.
            #expect(r.width == 36 * s && r.height == 20 * s, "\(r.width) × \(r.height) @\(s)x")
            let knob = try #require(image.layout.knob)
            #expect(knob.minY == 0 && knob.height == 20)
            #expect(r.pixel(Int(knob.midX) * s, 0).a > 200 && r.pixel(Int(knob.midX) * s, 20 * s - 1).a > 200)
        }
    }

    @Test("template images are one colour (black, coverage in alpha) with no dark variant")
    func templateImages() throws {
        let catalog = try AssetCatalog(specs: [try Presets.load("rvs-checkbox")])
        #expect(catalog.imageSets.count == 3)
        for set in catalog.imageSets {
            #expect(set.template)
            #expect(set.images.allSatisfy { $0.appearance == .any })
            for image in set.images {
                let r = Renderer.raster(image.layout, spec: image.spec, parts: [.glyph])
                var opaque = 0
                for y in 0..<r.height {
                    for x in 0..<r.width {
                        let p = r.pixel(x, y)
                        if p.a > 0 { #expect(p.r == 0 && p.g == 0 && p.b == 0, "\(image.filename) at \(x),\(y)") }
                        if p.a == 255 { opaque += 1 }
                    }
                }
                #expect(opaque > r.width * r.height / 10, "\(image.filename): drawn at full strength")
            }
        }
        // A non-template image checkbox keeps its colours and gets a dark variant.
        let folder = TempFolder()
        folder.write("on.svg", ##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" fill="#0A0"/></svg>"##)
        folder.write("off.svg", ##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" fill="#A00"/></svg>"##)
        let spec = try loadSpec("""
        { "name": "img", "control": "checkbox", "sizes": { "md": { "size": 24 } }, "states": ["unchecked", "checked"],
          "images": { "on": "on.svg", "off": "off.svg", "template": false },
          "themes": { "default": { "surface": "#FFFFFF" }, "inverse": { "surface": "#000000" } } }
        """, in: folder).get()
        let original = try AssetCatalog(specs: [spec])
        #expect(original.imageSets.allSatisfy { !$0.template && $0.images.count == 6 })
        #expect(original.imageSets[0].contents.formatted().contains(#""template-rendering-intent" : "original""#))
    }

    // MARK: Re-export

    @Test("a second export changes no byte and no modification time")
    func reexport() throws {
        let folder = TempFolder()
        for format in AssetCatalog.Format.allCases {
            let (root, _, first) = try export(format: format, into: folder)
            #expect(!first.written.isEmpty)
            // Age every file, so a rewrite would show even within the file system's timestamp resolution.
            let old = Date(timeIntervalSince1970: 946_684_800)
            for path in try snapshot(root).keys {
                try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: root.appendingPathComponent(path).path)
            }
            let before = try snapshot(root)
            let (_, _, second) = try export(format: format, into: folder)
            #expect(second.written.isEmpty, "\(format): rewrote \(second.written.prefix(3))")
            #expect(second.removed.isEmpty)
            let after = try snapshot(root)
            #expect(after.keys.sorted() == before.keys.sorted())
            for (path, (data, date)) in after {
                #expect(data == before[path]!.0, "\(format): \(path) changed")
                #expect(date == old, "\(format): \(path) was rewritten")
            }
        }
    }

    @Test("switching to --vector removes the PNGs from the image sets it rewrites, and nothing else")
    func staleFiles() throws {
        let folder = TempFolder()
        let spec = try Presets.load("swiftui-switch")
        let (root, _, _) = try export([spec], into: folder)
        let set = root.appendingPathComponent("swiftui-switch/switch-md-on.imageset")
        try Data("mine".utf8).write(to: set.appendingPathComponent(".keep"))
        try Data("mine".utf8).write(to: root.appendingPathComponent("swiftui-switch/notes.txt"))
        let (_, _, summary) = try export([spec], format: .pdf, into: folder)
        #expect(summary.removed.count == 2 * 6)
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: set.path))
            == ["Contents.json", "switch-md-on.pdf", "switch-md-on-dark.pdf", ".keep"])
        #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("swiftui-switch/notes.txt").path))
    }

    @Test("a catalog's own top-level Contents.json is kept")
    func keepsCatalogContents() throws {
        let folder = TempFolder()
        let own = #"{"info":{"author":"someone","version":1}}"#
        folder.write("Glyphs.xcassets/Contents.json", own)
        let (root, _, summary) = try export([try Presets.load("swiftui-switch")], into: folder)
        #expect(try String(contentsOf: root.appendingPathComponent("Contents.json"), encoding: .utf8) == own)
        #expect(summary.unchanged == ["Contents.json"])
    }

    // MARK: Vector

    @Test("--vector: one PDF or SVG per appearance, sized in points, with preserves-vector-representation")
    func vector() throws {
        let folder = TempFolder()
        let spec = try Presets.load("swiftui-switch")
        for format in [AssetCatalog.Format.pdf, .svg] {
            let (root, catalog, _) = try export([spec], format: format, into: folder)
            #expect(catalog.imageSets.count == 2)
            let dir = root.appendingPathComponent("swiftui-switch/switch-md-on.imageset")
            let contents = try json(dir.appendingPathComponent("Contents.json"))
            let images = try #require(contents["images"] as? [[String: Any]])
            #expect(images.map { $0["filename"] as? String } == ["switch-md-on.\(format)", "switch-md-on-dark.\(format)"])
            #expect(images.allSatisfy { $0["scale"] == nil })
            #expect((contents["properties"] as? [String: Any])?["preserves-vector-representation"] as? Bool == true)
            let data = try Data(contentsOf: dir.appendingPathComponent("switch-md-on.\(format)"))
            let text = String(decoding: data, as: UTF8.self)
            if format == .pdf {
                #expect(text.hasPrefix("%PDF-"))
                #expect(text.contains("/MediaBox [ 0 0 51 31 ]"))
            } else {
                #expect(text.contains(#"width="51" height="31" viewBox="0 0 51 31""#))
            }
        }
        // The SVG draws the same glyph as the PNG: librsvg reads it back to the same pixels, nearly.
        let catalog = try AssetCatalog(specs: [spec], format: .svg)
        let image = catalog.imageSets[1].images[0]
        let svg = try SVGDocument(data: try AssetCatalog.render(image, format: .svg), name: "switch.svg", base: nil)
        let fromSVG = Renderer.raster(svg: svg, width: 153, height: 93)
        var png = image.layout
        png.variant.scale = 3
        let direct = Renderer.raster(png, spec: image.spec, parts: [.glyph])
        #expect(fromSVG.width == direct.width && fromSVG.height == direct.height)
        var far = 0
        for y in 0..<93 {
            for x in 0..<153 {
                let a = fromSVG.pixel(x, y), b = direct.pixel(x, y)
                if abs(Int(a.a) - Int(b.a)) > 8 { far += 1 }
            }
        }
        #expect(far < 153 * 93 / 100, "\(far) px differ")
    }

    @Test("--vector svg: template images are the image's own paths in black, without <mask> or filter, at the PNG's coverage")
    func templateSVG() throws {
        let catalog = try AssetCatalog(specs: [try Presets.load("rvs-checkbox")], format: .svg)
        #expect(catalog.imageSets.count == 3)
        for set in catalog.imageSets {
            #expect(set.template)
            let image = try #require(set.images.first)
            let data = try AssetCatalog.render(image, format: .svg)
            let text = String(decoding: data, as: UTF8.self)
            for banned in ["<mask", "<filter", "mask=", "filter=", "<image"] {
                #expect(!text.contains(banned), "\(image.filename) has \(banned)")
            }
            #expect(text.contains("<path"), "\(image.filename): plain paths")
            let colours = text.matches(of: /rgb\([^)]*\)/).map { String($0.output) }
            #expect(!colours.isEmpty && colours.allSatisfy { $0 == "rgb(0%,0%,0%)" }, "\(image.filename): \(Set(colours))")
            #expect(text.contains(#"width="44" height="44" viewBox="0 0 44 44""#))

            // librsvg reads it back to the coverage the tinted PNG export has, at 3x.
            let svg = try SVGDocument(data: data, name: image.filename, base: nil)
            let fromSVG = Renderer.raster(svg: svg, width: 132, height: 132)
            var layout = image.layout
            layout.variant.scale = 3
            let direct = Renderer.raster(layout, spec: image.spec, parts: [.glyph])
            #expect(fromSVG.width == direct.width && fromSVG.height == direct.height)
            var far = 0, inked = 0
            for y in 0..<direct.height {
                for x in 0..<direct.width {
                    let a = fromSVG.pixel(x, y), b = direct.pixel(x, y)
                    if abs(Int(a.a) - Int(b.a)) > 8 { far += 1 }
                    if b.a > 0 { inked += 1 }
                    if a.a > 0 { #expect(a.r == 0 && a.g == 0 && a.b == 0, "\(image.filename) at \(x),\(y)") }
                }
            }
            #expect(inked > 132 * 132 / 20, "\(image.filename): something is drawn")
            #expect(far == 0, "\(image.filename): \(far) px of coverage differ")
        }
        // A coloured, half-transparent template image: black, with its opacity kept.
        let folder = TempFolder()
        folder.write("on.svg", ##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" fill="#0A0" fill-opacity="0.5"/></svg>"##)
        folder.write("off.svg", ##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="4" fill="none" stroke="#A00" stroke-width="2"/></svg>"##)
        let spec = try loadSpec("""
        { "name": "tpl", "control": "checkbox", "sizes": { "md": { "size": 24 } }, "states": ["unchecked", "checked"],
          "images": { "on": "on.svg", "off": "off.svg", "template": true },
          "themes": { "default": { "surface": "#FFFFFF", "tint": "#FF0000" } } }
        """, in: folder).get()
        for set in try AssetCatalog(specs: [spec], format: .svg).imageSets {
            let text = String(decoding: try AssetCatalog.render(set.images[0], format: .svg), as: UTF8.self)
            let colours = Set(text.matches(of: /rgb\([^)]*\)/).map { String($0.output) })
            #expect(colours == ["rgb(0%,0%,0%)"], "\(set.name): \(colours)")
            #expect(!text.contains("<mask"))
            if set.name.hasSuffix("checked") && !set.name.hasSuffix("unchecked") { #expect(text.contains("fill-opacity:0.5"), "\(text)") }
        }
        // A non-template SVG keeps its colours (only templates are painted black).
        let switchSVG = try AssetCatalog(specs: [try Presets.load("swiftui-switch")], format: .svg)
        let text = String(decoding: try AssetCatalog.render(switchSVG.imageSets[1].images[0], format: .svg), as: UTF8.self)
        #expect(text.matches(of: /rgb\([^)]*\)/).contains { $0.output != "rgb(0%,0%,0%)" })
    }

    // MARK: Bad input

    @Test("bad input fails before anything is written")
    func badInput() throws {
        var theme = VariantFilter()
        try theme.add("theme=inverse")
        #expect(throws: InputError.self) { try AssetCatalog(specs: Self.builtins, filter: theme) }
        var dt = VariantFilter()
        try dt.add("dynamic-type=AX5")
        #expect(throws: InputError.self) { try AssetCatalog(specs: Self.builtins, filter: dt) }
        var none = VariantFilter()
        try none.add("state=plaid")
        #expect(throws: InputError.self) { try AssetCatalog(specs: Self.builtins, filter: none) }
        #expect(throws: InputError.self) { try AssetCatalog(specs: [Self.builtins[0], Self.builtins[0]]) }

        // No default theme, none declared light, and no light surface (a theme named light over a
        // light surface is the any appearance: ThemeAppearanceTests.bySurface).
        let noDefault = try loadSpec(checkboxSpec(themes: ##"{ "night": { "surface": "#000000", "border": "#767676", "fill": "#E00800", "mark": "#FFFFFF" } }"##)).get()
        do {
            _ = try AssetCatalog(specs: [noDefault])
            Issue.record("a spec without a light theme was accepted")
        } catch {
            #expect(error.keyPath == "themes")
            #expect(error.message.contains("\"default\""))
        }

        let folder = TempFolder()
        let files = try AssetCatalog(specs: [Self.builtins[1]]).files(jobs: 1)
        #expect(throws: InputError.self) { try AssetCatalog.write(files, to: folder.url.appendingPathComponent("Glyphs")) }
        folder.write("File.xcassets", "not a folder")
        #expect(throws: InputError.self) { try AssetCatalog.write(files, to: folder.url.appendingPathComponent("File.xcassets")) }
        // A file where a namespace folder must go: checked before the first write.
        let root = folder.url.appendingPathComponent("Blocked.xcassets")
        folder.write("Blocked.xcassets/\(files[0].path.split(separator: "/")[0])", "in the way")
        #expect(throws: InputError.self) { try AssetCatalog.write(files, to: root) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path).count == 1)
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("Glyphs").path))
    }
}
