import Foundation
import Testing
import GlyphAudit
import GlyphCore
import GlyphExport
import GlyphPipeline
import GlyphRaster
import GlyphRender
import GlyphTestSupport

extension TempFolder {
    func link(_ name: String, to target: String) throws {
        let file = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: file.path, withDestinationPath: target)
    }
}

/// Image files a spec names: PNGs with their scales, asset catalog image sets, dark appearances,
/// and the folders they may come from.
@Suite("PNG images, asset catalogs and asset roots")
struct ImageAssetTests {
    /// A `w` × `h` PNG of one colour.
    static func solid(_ w: Int, _ h: Int, _ rgba: [Int]) -> Data {
        TinyPNG.encode(width: w, height: h, colorType: .rgba, bitDepth: 8,
                       samples: Array(repeating: Array(repeating: rgba, count: w), count: h))
    }

    static let red = [255, 0, 0, 255], green = [0, 255, 0, 255], blue = [0, 0, 255, 255], grey = [128, 128, 128, 255]

    /// An image checkbox spec (size 20, original colours unless `template`) with `extra` top-level keys.
    static func spec(on: String = "on.png", off: String = "off.png", template: Bool? = false, scales: [Int] = [1, 2, 3],
                     themes: String = ##"{ "default": { "surface": "#FFFFFF" } }"##, extra: String = "") -> String {
        """
        {
          "name": "t",
          "control": "checkbox",
          "sizes": { "md": { "size": 20 } },
          "images": { "on": "\(on)", "off": "\(off)"\(template.map { ", \"template\": \($0)" } ?? "") },
          \(extra)
          "states": ["unchecked", "checked"],
          "scales": [\(scales.map(String.init).joined(separator: ", "))],
          "dynamicTypeSizes": ["large"],
          "themes": \(themes)
        }
        """
    }

    func load(_ json: String, _ folder: TempFolder, at name: String = "spec.json") throws -> Spec {
        let url = folder.write(name, json)
        return try Spec.load(contentsOf: url)
    }

    func failure(_ json: String, _ folder: TempFolder, at name: String = "spec.json") -> InputError? {
        let url = folder.write(name, json)
        do { _ = try Spec.load(contentsOf: url); return nil } catch { return error }
    }

    /// The colour at the centre of the image as drawn (glyph only, on transparency) for a state,
    /// theme and scale.
    func centre(_ spec: Spec, state: ControlState, theme: String = "default", scale: Int) throws -> [UInt8] {
        let plan = try Plan(specs: [spec])
        let item = try #require(plan.items.first { $0.variant.state == state && $0.variant.theme == theme && $0.variant.scale == scale })
        let r = Renderer.raster(item.layout, spec: item.spec, parts: [.glyph])
        let rect = try #require(item.layout.image)
        let p = r.pixel(Int(rect.midX * Double(scale)), Int(rect.midY * Double(scale)))
        return [p.r, p.g, p.b, p.a]
    }

    // MARK: - PNG and its scales

    @Test("a PNG's size in points is its pixels over its scale")
    func pointSize() throws {
        let s = TinyPNG.samples(width: 6, height: 9, channels: 4, bits: 8, seed: 1)
        let png = TinyPNG.encode(width: 6, height: 9, colorType: .rgba, bitDepth: 8, samples: s)
        for scale in [1, 2, 3] {
            let image = try PNGImage(data: png, name: "x.png", scale: scale)
            #expect(image.width == 6 / Double(scale) && image.height == 9 / Double(scale))
        }
    }

    @Test("a broken PNG is bad input naming the file")
    func broken() throws {
        let good = TinyPNG.encode(width: 4, height: 4, colorType: .rgb, bitDepth: 8,
                                  samples: TinyPNG.samples(width: 4, height: 4, channels: 3, bits: 8, seed: 2))
        var badCRC = good
        badCRC[good.count - 20] ^= 0xFF // inside IDAT: its CRC no longer matches
        let cases: [(Data, String)] = [
            (Data(), "the PNG file is empty"),
            (Data("<svg/>".utf8), "not a PNG file"),
            (good.prefix(good.count - 30), "more than the file holds"),
            (badCRC, "cannot read this PNG"),
        ]
        for (data, words) in cases {
            #expect(throws: InputError.self) { try PNGImage(data: data, name: "img/on.png", scale: 1) }
            do { _ = try PNGImage(data: data, name: "img/on.png", scale: 1) } catch {
                #expect(error.file == "img/on.png" && error.message.contains(words), "\(error)")
            }
        }
    }


    @Test("@2x and @3x siblings are drawn at their display scale; the size in points is pixels / scale")
    func siblings() throws {
        let f = TempFolder()
        f.write("on.png", Self.solid(20, 20, Self.red))
        f.write("on@2x.png", Self.solid(40, 40, Self.green))
        f.write("on@3x.png", Self.solid(60, 60, Self.blue))
        for (name, w) in [("off.png", 20), ("off@2x.png", 40), ("off@3x.png", 60)] { f.write(name, Self.solid(w, w, Self.grey)) }
        let spec = try load(Self.spec(), f)
        #expect(spec.warnings.isEmpty, "\(spec.warnings)")
        let on = try #require(spec.images?.on as? ImageAsset)
        #expect(on.width == 20 && on.height == 20 && on.renditions.map(\.scale) == [1, 2, 3])
        #expect(try centre(spec, state: .checked, scale: 1) == [255, 0, 0, 255])
        #expect(try centre(spec, state: .checked, scale: 2) == [0, 255, 0, 255])
        #expect(try centre(spec, state: .checked, scale: 3) == [0, 0, 255, 255])
        // Naming the @2x file finds the same set.
        let same = try load(Self.spec(on: "on@2x.png"), f)
        #expect(same.warnings.isEmpty)
        #expect(try centre(same, state: .checked, scale: 1) == [255, 0, 0, 255])
        #expect(try centre(same, state: .checked, scale: 3) == [0, 0, 255, 255])
    }

    @Test("a missing scale draws the nearest larger one scaled down, else the largest smaller scaled up, with a warning")
    func missingScale() throws {
        let f = TempFolder()
        f.write("on.png", Self.solid(20, 20, Self.red))
        f.write("on@3x.png", Self.solid(60, 60, Self.blue))
        for (name, w) in [("off.png", 20), ("off@2x.png", 40), ("off@3x.png", 60)] { f.write(name, Self.solid(w, w, Self.grey)) }
        let spec = try load(Self.spec(), f)
        #expect(spec.warnings.count == 1)
        let w = try #require(spec.warnings.first)
        #expect(w.keyPath == "images.on" && w.line == 5 && w.file.hasSuffix("spec.json"))
        #expect(w.message == "no on@2x.png next to on.png: @2x draws on@3x.png scaled down 1.5×", "\(w.message)")
        #expect(try centre(spec, state: .checked, scale: 2) == [0, 0, 255, 255])
        #expect(try centre(spec, state: .checked, scale: 1) == [255, 0, 0, 255])

        // Nothing larger: the largest smaller one, scaled up.
        let g = TempFolder()
        g.write("on.png", Self.solid(20, 20, Self.red))
        g.write("on@2x.png", Self.solid(40, 40, Self.green))
        g.write("off@2x.png", Self.solid(40, 40, Self.grey))
        let up = try load(Self.spec(off: "off@2x.png"), g)
        let messages = up.warnings.map { "\($0.keyPath ?? ""): \($0.message)" }
        #expect(messages == ["images.on: no on@3x.png next to on.png: @3x draws on@2x.png scaled up 1.5×",
                             "images.off: no off.png, off@3x.png next to off@2x.png: @1x draws off@2x.png scaled down 2×; "
                                 + "@3x draws off@2x.png scaled up 1.5×"], "\(messages)")
        #expect(try centre(up, state: .checked, scale: 3) == [0, 255, 0, 255])
        // off@2x.png alone is a 20 pt image.
        #expect(up.images?.off.width == 20)
        // Only the scales the spec renders count.
        let one = try load(Self.spec(off: "off@2x.png", scales: [1, 2]), g)
        #expect(one.warnings.map(\.keyPath) == ["images.off"])
    }

    @Test("files of one image that disagree on their size in points are a warning")
    func sizeMismatch() throws {
        let f = TempFolder()
        f.write("on.png", Self.solid(20, 20, Self.red))
        f.write("on@2x.png", Self.solid(44, 40, Self.green))
        f.write("off.png", Self.solid(20, 20, Self.grey))
        let spec = try load(Self.spec(scales: [1, 2]), f)
        let messages = spec.warnings.filter { $0.keyPath == "images.on" }.map(\.message)
        #expect(messages == ["on.png is 20 × 20 px, 20 × 20 pt at @1x, but on@2x.png is 22 × 20 pt: the files of one image should "
                             + "be one size in points (it is laid out at 22 × 20 pt)"], "\(messages)")
    }

    /// A 20 × 20 PNG whose colour channels are noise and whose alpha is `(13x + 7y) mod 256`.
    static func noiseWithAlpha() -> (Data, [[[Int]]]) {
        var state: UInt32 = 12345
        let s: [[[Int]]] = (0..<20).map { y in
            (0..<20).map { x in
                (0..<3).map { _ in state = state &* 1_103_515_245 &+ 12345; return Int(state >> 16) % 256 } + [(13 * x + 7 * y) % 256]
            }
        }
        return (TinyPNG.encode(width: 20, height: 20, colorType: .rgba, bitDepth: 8, samples: s), s)
    }

    @Test("template mode paints the tint through the PNG's alpha; its colours do not count")
    func templateCoverage() throws {
        let f = TempFolder()
        let (png, s) = Self.noiseWithAlpha()
        f.write("on.png", png)
        f.write("off.png", png)
        let spec = try load(Self.spec(template: true, scales: [1], themes: ##"{ "default": { "surface": "#FFFFFF", "tint": "#0000FF" } }"##), f)
        let plan = try Plan(specs: [spec])
        let item = try #require(plan.items.first { $0.variant.state == .checked })
        let rect = try #require(item.layout.image)
        #expect(rect.width == 20 && rect.x == rect.x.rounded() && rect.y == rect.y.rounded())
        let r = Renderer.raster(item.layout, spec: item.spec)
        // Blue at coverage a over white: red and green 255 × (1 − a/255) = 255 − a, blue 255.
        var wrong = 0
        for y in 0..<20 {
            for x in 0..<20 {
                let a = s[y][x][3]
                let p = r.pixel(Int(rect.x) + x, Int(rect.y) + y)
                if [Int(p.r), Int(p.g), Int(p.b), Int(p.a)] != [255 - a, 255 - a, 255, 255] { wrong += 1 }
            }
        }
        #expect(wrong == 0)
    }

    @Test("original-colour mode draws the PNG's pixels")
    func originalPixels() throws {
        let f = TempFolder()
        let (png, s) = Self.noiseWithAlpha()
        f.write("on.png", png)
        f.write("off.png", png)
        let spec = try load(Self.spec(template: false, scales: [1]), f)
        let item = try #require(try Plan(specs: [spec]).items.first { $0.variant.state == .checked })
        let rect = try #require(item.layout.image)
        let r = Renderer.raster(item.layout, spec: item.spec, parts: [.glyph])
        // What 8-bit premultiplied colour (cairo's) holds of a straight pixel: c → round(c·a/255) → round(p·255/a).
        func held(_ c: Int, _ a: Int) -> Int {
            if a == 0 { return 0 }
            let p = (c * a + 127) / 255
            return (p * 255 + a / 2) / a
        }
        var wrong = 0
        for y in 0..<20 {
            for x in 0..<20 {
                let v = s[y][x], a = v[3]
                let p = r.pixel(Int(rect.x) + x, Int(rect.y) + y)
                if [Int(p.r), Int(p.g), Int(p.b), Int(p.a)] != [held(v[0], a), held(v[1], a), held(v[2], a), a] { wrong += 1 }
            }
        }
        #expect(wrong == 0)
    }

    @Test("a PNG image set rendered from a preset's SVGs renders and audits as the SVGs do")
    func pngLikeSVG() throws {
        let f = TempFolder()
        for file in try Presets.standalone("rvs-checkbox") { f.write(file.path, file.text) }
        let svgSpec = try Spec.load(contentsOf: f.url.appendingPathComponent("rvs-checkbox.json"))
        let images = try #require(svgSpec.images)
        // Each image as drawn in its 44 pt box: the SVG alone at 44, 88 and 132 px.
        let box = try #require(svgSpec.sizes.first?.size)
        #expect(box == 44)
        for (key, doc) in [("on", images.on), ("off", images.off), ("clear", try #require(images.clear))] {
            for scale in [1, 2, 3] {
                let px = Int(box) * scale
                let png = try Renderer.raster(svg: SVGDocument.of(doc), width: px, height: px).pngData()
                f.write("images/rvs-checkbox/\(key)\(scale == 1 ? "" : "@\(scale)x").png", png)
            }
        }
        let text = try String(contentsOf: f.url.appendingPathComponent("rvs-checkbox.json"), encoding: .utf8)
        let pngText = text.replacingOccurrences(of: ".svg\"", with: ".png\"")
        #expect(pngText != text)
        let pngSpec = try load(pngText, f, at: "png.json")
        #expect(pngSpec.warnings.isEmpty)
        #expect(pngSpec.images?.on is ImageAsset)

        let svgPlan = try Plan(specs: [svgSpec]), pngPlan = try Plan(specs: [pngSpec])
        #expect(svgPlan.items.count == 324 && pngPlan.items.count == 324)
        let svgRasters = svgPlan.renderAll(jobs: 2), pngRasters = pngPlan.renderAll(jobs: 2)
        let differing = zip(svgRasters, pngRasters).enumerated().filter { $0.element.0 != $0.element.1 }.map { svgPlan.items[$0.offset].variant.id }
        #expect(differing.isEmpty, "\(differing.count) renders differ, e.g. \(differing.prefix(3))")

        func byRule(_ r: AuditResult) -> [String: [String]] {
            Dictionary(grouping: r.findings, by: \.rule).mapValues { $0.map { "\($0.severity) \($0.variant) \($0.subject)" }.sorted() }
        }
        let svgAudit = Auditor().run(plan: svgPlan, rasters: svgRasters, jobs: 2)
        let pngAudit = Auditor().run(plan: pngPlan, rasters: pngRasters, jobs: 2)
        #expect(svgAudit.findings.count == 111) // the preset's 108 state-shape errors and 3 infos
        #expect(byRule(svgAudit) == byRule(pngAudit))
        #expect(svgAudit.findings.map(\.message).sorted() == pngAudit.findings.map(\.message).sorted())
    }

    // MARK: - Asset catalogs

    /// An image set's Contents.json with `entries` (JSON objects) and `properties`.
    static func contents(_ entries: [String], properties: String = "") -> String {
        """
        {
          "images" : [
            \(entries.joined(separator: ",\n    "))
          ],
          "info" : { "author" : "xcode", "version" : 1 }\(properties.isEmpty ? "" : ",\n  \"properties\" : { \(properties) }")
        }
        """
    }

    static func entry(_ file: String?, scale: String? = nil, dark: Bool = false, idiom: String = "universal") -> String {
        var parts = ["\"idiom\" : \"\(idiom)\""]
        if let file { parts.append("\"filename\" : \"\(file)\"") }
        if let scale { parts.append("\"scale\" : \"\(scale)\"") }
        if dark { parts.append(#""appearances" : [ { "appearance" : "luminosity", "value" : "dark" } ]"#) }
        return "{ " + parts.joined(separator: ", ") + " }"
    }

    /// `A.xcassets/NAME.imageset` with PNGs of `colour` (and `dark` for the dark appearance) at 1x, 2x, 3x.
    static func imageSet(_ f: TempFolder, _ name: String, _ colour: [Int], dark: [Int]? = nil, properties: String = "") {
        var entries: [String] = []
        for s in 1...3 {
            let file = "\(name)\(s == 1 ? "" : "@\(s)x").png"
            f.write("A.xcassets/\(name).imageset/\(file)", solid(20 * s, 20 * s, colour))
            entries.append(entry(file, scale: "\(s)x"))
            if let dark {
                let d = "\(name)-dark\(s == 1 ? "" : "@\(s)x").png"
                f.write("A.xcassets/\(name).imageset/\(d)", solid(20 * s, 20 * s, dark))
                entries.append(entry(d, scale: "\(s)x", dark: true))
            }
        }
        f.write("A.xcassets/\(name).imageset/Contents.json", contents(entries, properties: properties))
    }

    @Test("an image set's files are picked per scale; its dark appearance is drawn in a dark theme")
    func imageSetAppearances() throws {
        let f = TempFolder()
        Self.imageSet(f, "on", Self.red, dark: Self.green)
        Self.imageSet(f, "off", Self.grey)
        let themes = ##"""
        { "day": { "surface": "#FFFFFF" }, "night": { "surface": "#000000" },
          "dimmed": { "surface": "#000000", "appearance": "light" }, "forced": { "surface": "#FFFFFF", "appearance": "dark" },
          "grey76": { "surface": "#767676" }, "grey75": { "surface": "#757575" } }
        """##
        let spec = try load(Self.spec(on: "A.xcassets/on.imageset", off: "A.xcassets/off.imageset", template: false, themes: themes), f)
        #expect(spec.warnings.isEmpty, "\(spec.warnings)")
        // #767676 is 4.54:1 on white and 4.62:1 on black (a light surface); #757575 4.61:1 on white, 4.56:1 on black (dark).
        let expected: [(String, [UInt8])] = [("day", [255, 0, 0, 255]), ("night", [0, 255, 0, 255]), ("dimmed", [255, 0, 0, 255]),
                                             ("forced", [0, 255, 0, 255]), ("grey76", [255, 0, 0, 255]), ("grey75", [0, 255, 0, 255])]
        for (theme, colour) in expected {
            for scale in [1, 2, 3] {
                #expect(try centre(spec, state: .checked, theme: theme, scale: scale) == colour, "\(theme) @\(scale)x")
            }
        }
        let bad = try #require(failure(Self.spec(on: "A.xcassets/on.imageset", off: "A.xcassets/off.imageset", template: false,
                                                 themes: ##"{ "default": { "surface": "#FFFFFF", "appearance": "dim" } }"##), f))
        #expect(bad.keyPath == "themes.default.appearance" && bad.message.contains("expected one of: light, dark"), "\(bad)")
        // A dark theme missing a scale of the dark files: a warning naming the dark appearance.
        try FileManager.default.removeItem(at: f.url.appendingPathComponent("A.xcassets/on.imageset/on-dark@3x.png"))
        let contentsURL = f.url.appendingPathComponent("A.xcassets/on.imageset/Contents.json")
        let text = try String(contentsOf: contentsURL, encoding: .utf8)
        f.write("A.xcassets/on.imageset/Contents.json", text.replacingOccurrences(of: #""filename" : "on-dark@3x.png", "#, with: ""))
        let missing = try load(Self.spec(on: "A.xcassets/on.imageset", off: "A.xcassets/off.imageset", template: false, themes: themes), f)
        #expect(missing.warnings.map(\.message) == ["\(f.url.path)/A.xcassets/on.imageset has no dark image at 3x: @3x draws on-dark@2x.png scaled up 1.5×"],
                "\(missing.warnings)")
        // The any image serves a dark theme when there is no dark one.
        #expect(try centre(spec, state: .unchecked, theme: "night", scale: 2) == [128, 128, 128, 255])
    }

    @Test("template-rendering-intent sets template mode; images.template wins with a warning; image sets that disagree are refused")
    func renderingIntent() throws {
        let f = TempFolder()
        Self.imageSet(f, "on", Self.red, properties: #""template-rendering-intent" : "template""#)
        Self.imageSet(f, "off", Self.grey, properties: #""template-rendering-intent" : "template""#)
        Self.imageSet(f, "orig", Self.grey, properties: #""template-rendering-intent" : "original""#)
        let sets = (on: "A.xcassets/on.imageset", off: "A.xcassets/off.imageset")
        // Template from the catalog: the theme must give a tint.
        let noTint = try #require(failure(Self.spec(on: sets.on, off: sets.off, template: nil), f))
        #expect(noTint.message == "missing colour \"tint\" (this control draws it)", "\(noTint)")
        let tinted = try load(Self.spec(on: sets.on, off: sets.off, template: nil,
                                        themes: ##"{ "default": { "surface": "#FFFFFF", "tint": "#0000FF" } }"##), f)
        #expect(tinted.images?.template == true && tinted.warnings.isEmpty)
        #expect(try centre(tinted, state: .checked, scale: 2) == [0, 0, 255, 255])
        // The spec says otherwise: it wins, and each image set that disagrees is a warning.
        let overridden = try load(Self.spec(on: sets.on, off: sets.off, template: false), f)
        #expect(overridden.images?.template == false)
        #expect(overridden.warnings.map(\.keyPath) == ["images.on", "images.off"])
        #expect(overridden.warnings.first?.message.hasSuffix("A.xcassets/on.imageset says template-rendering-intent \"template\", "
                                                             + "but images.template is false: drawn as original colours, as images.template says") == true,
                "\(overridden.warnings)")
        #expect(try centre(overridden, state: .checked, scale: 1) == [255, 0, 0, 255])
        // Two image sets that disagree, and no images.template: bad input at the second.
        let mixed = try #require(failure(Self.spec(on: sets.on, off: "A.xcassets/orig.imageset", template: nil), f))
        #expect(mixed.keyPath == "images.off" && mixed.message.contains("orig.imageset says template-rendering-intent \"original\"")
                && mixed.message.contains("on.imageset (images.on) says \"template\"") && mixed.message.contains("set images.template"), "\(mixed)")
    }

    static let svg24 = ##"<svg xmlns="http://www.w3.org/2000/svg" width="24" height="12"><rect width="24" height="12" fill="#0000FF"/></svg>"##

    @Test("a vector image set draws its SVG at every scale")
    func vectorSVG() throws {
        let f = TempFolder()
        f.write("A.xcassets/v.imageset/v.svg", Self.svg24)
        f.write("A.xcassets/v.imageset/Contents.json", Self.contents([Self.entry("v.svg")], properties: #""preserves-vector-representation" : true"#))
        Self.imageSet(f, "off", Self.grey)
        let spec = try load(Self.spec(on: "A.xcassets/v.imageset", off: "A.xcassets/off.imageset"), f)
        #expect(spec.warnings.isEmpty, "\(spec.warnings)")
        let v = try #require(spec.images?.on as? ImageAsset)
        #expect(v.renditions.count == 1 && v.renditions[0].scale == nil && v.width == 24 && v.height == 12)
        for scale in [1, 2, 3] { #expect(try centre(spec, state: .checked, scale: scale) == [0, 0, 255, 255]) }

        // PDFs: PDFImageTests.
    }

    @Test("an iphone entry is preferred to a universal one; other idioms are left out")
    func idioms() throws {
        let f = TempFolder()
        f.write("A.xcassets/i.imageset/u.png", Self.solid(20, 20, Self.red))
        f.write("A.xcassets/i.imageset/p.png", Self.solid(20, 20, Self.green))
        f.write("A.xcassets/i.imageset/pad.png", Self.solid(20, 20, Self.blue))
        f.write("A.xcassets/i.imageset/Contents.json", Self.contents([Self.entry("u.png", scale: "1x"), Self.entry("pad.png", scale: "1x", idiom: "ipad"),
                                                                      Self.entry("p.png", scale: "1x", idiom: "iphone"), Self.entry(nil, scale: "2x")]))
        Self.imageSet(f, "off", Self.grey)
        let spec = try load(Self.spec(on: "A.xcassets/i.imageset", off: "A.xcassets/off.imageset", scales: [1]), f)
        #expect(try centre(spec, state: .checked, scale: 1) == [0, 255, 0, 255])
        f.write("A.xcassets/ipad.imageset/pad.png", Self.solid(20, 20, Self.blue))
        f.write("A.xcassets/ipad.imageset/Contents.json", Self.contents([Self.entry("pad.png", scale: "1x", idiom: "ipad")]))
        let none = try #require(failure(Self.spec(on: "A.xcassets/ipad.imageset", off: "A.xcassets/off.imageset", scales: [1]), f))
        #expect(none.message.hasSuffix("ipad.imageset/Contents.json: no file for iPhone: no universal or iphone entry names a file "
                                       + "(its entries are for ipad)"), "\(none)")
    }

    @Test("a malformed or unknown Contents.json is bad input naming the file, its key and the spec key")
    func badContents() throws {
        let f = TempFolder()
        Self.imageSet(f, "off", Self.grey)
        f.write("A.xcassets/x.imageset/a.png", Self.solid(20, 20, Self.red))
        let cases: [(String, String)] = [
            (Self.contents([Self.entry("a.png", scale: "4x")]), #"Contents.json:3: images[0].scale: unknown scale "4x"; expected "1x", "2x" or "3x""#),
            (#"{ "colors" : [ ], "info" : { } }"#, #"Contents.json:1: colors: unknown key "colors"; valid keys here: images, info, properties"#),
            (#"{ "images" : "#, "Contents.json:1:"),
            (#"{ "images" : "#, "malformed JSON"),
            (#"{ "images" : { } }"#, "Contents.json:1: images: expected an array, found an object"),
            (Self.contents([Self.entry("missing.png", scale: "1x")]), "Contents.json:3: images[0].filename: missing.png not found in the image set"),
            (Self.contents([Self.entry("../a.png", scale: "1x")]), #"images[0].filename: "../a.png" is not a file name in the image set's own folder"#),
            (Self.contents([Self.entry("a.jpg", scale: "1x")]), "images[0].filename: a.jpg: only PNG, SVG and PDF images are read"),
            (Self.contents(["{ \"idiom\" : \"universal\", \"filename\" : \"a.png\", \"appearances\" : [ { \"appearance\" : \"luminosity\", \"value\" : \"dim\" } ] }"]),
             #"images[0].appearances[0].value: unknown luminosity "dim"; expected "light" or "dark""#),
            (Self.contents([Self.entry("a.png", scale: "1x")], properties: #""template-rendering-intent" : "automatic""#),
             #"properties.template-rendering-intent: unknown value "automatic"; expected "template" or "original""#),
            // Xcode's slicing and alignment insets: named, not "unknown key".
            (Self.contents(["{ \"idiom\" : \"universal\", \"filename\" : \"a.png\", \"scale\" : \"1x\", \"resizing\" : { \"mode\" : \"9-part\" } }"]),
             #"images[0].resizing: slicing ("resizing", Xcode's Slicing inspector) is not modelled"#),
            (Self.contents(["{ \"idiom\" : \"universal\", \"filename\" : \"a.png\", \"scale\" : \"1x\", \"alignment-insets\" : { \"top\" : 1 } }"]),
             "images[0].alignment-insets: alignment insets are not modelled"),
        ]
        for (text, words) in cases {
            f.write("A.xcassets/x.imageset/Contents.json", text)
            guard let e = failure(Self.spec(on: "A.xcassets/x.imageset", off: "A.xcassets/off.imageset", scales: [1]), f) else {
                Issue.record("accepted: \(text)")
                continue
            }
            #expect(e.file.hasSuffix("spec.json") && e.keyPath == "images.on" && e.line == 5, "\(e)")
            #expect(e.message.contains("A.xcassets/x.imageset/Contents.json") && e.message.contains(words), "\(e.message)\nexpected: \(words)")
        }
        let missing = try #require(failure(Self.spec(on: "A.xcassets/nope.imageset", off: "A.xcassets/off.imageset"), f))
        #expect(missing.message.contains("image set") && missing.message.contains("nope.imageset not found"), "\(missing)")
        f.write("A.xcassets/empty.imageset/.keep", "")
        let noContents = try #require(failure(Self.spec(on: "A.xcassets/empty.imageset", off: "A.xcassets/off.imageset"), f))
        #expect(noContents.message.hasSuffix("empty.imageset has no Contents.json; it is not an image set"), "\(noContents)")
    }

    @Test("export --xcassets read back as images renders the same pixels (original colours with a dark appearance, and a template)")
    func exportRoundTrip() throws {
        let f = TempFolder()
        // design-system-checkbox: original colours, default → any, inverse → dark.
        let original = try Presets.load("design-system-checkbox")
        let catalog = try AssetCatalog(specs: [original, try Presets.load("rvs-checkbox")])
        let files = try catalog.files(jobs: 2)
        try AssetCatalog.write(files, to: f.url.appendingPathComponent("G.xcassets"))
        let back = designSystemReadBack(catalog: "G.xcassets")
        let spec = try load(back, f, at: "spec/back.json")
        #expect(spec.warnings.isEmpty, "\(spec.warnings)")
        #expect(spec.images?.template == false)
        #expect(try #require(spec.images?.on as? ImageAsset).hasDark)
        // Exported again, its square images are the original's, pixel for pixel.
        let again = try AssetCatalog(specs: [spec]).files(jobs: 2)
        let originals = Dictionary(files.map { ($0.path, $0.data) }, uniquingKeysWith: { a, _ in a })
        var compared = 0
        for file in again where file.path.hasSuffix(".png") {
            let before = try Raster(pngData: try #require(originals[file.path], "\(file.path) not in the original export"))
            #expect(try Raster(pngData: file.data) == before, "\(file.path)")
            compared += 1
        }
        #expect(compared == 12) // 2 states × 3 scales × any and dark

        // rvs-checkbox: template images (black, alpha as coverage, "template"), read back with the preset's
        // tints, render every variant as the preset does.
        let preset = try Presets.load("rvs-checkbox")
        let rvsText = try #require(Presets.source("rvs-checkbox"))
        let rvs = rvsText.replacing(/"on": "[^"]*",\s*"off": "[^"]*",\s*"clear": "[^"]*",\s*"template": true,/,
                                        with: #""on": "../G.xcassets/rvs-checkbox/square-md-checked.imageset", "off": "../G.xcassets/rvs-checkbox/square-md-unchecked.imageset", "clear": "../G.xcassets/rvs-checkbox/square-md-mixed.imageset","#)
            .replacingOccurrences(of: #""control": "checkbox","#, with: #""control": "checkbox", "assets": "../G.xcassets","#)
        #expect(rvs != rvsText)
        let rvsBack = try load(rvs, f, at: "spec/rvs.json")
        #expect(rvsBack.images?.template == true && rvsBack.warnings.isEmpty)
        // The mixed image set is the off image (useOffImageForClear), so the spec's own fallback draws what the preset drew.
        let a = try Plan(specs: [preset]), b = try Plan(specs: [rvsBack])
        #expect(a.items.count == b.items.count)
        let ra = a.renderAll(jobs: 2), rb = b.renderAll(jobs: 2)
        let differing = (0..<ra.count).filter { ra[$0] != rb[$0] }.map { a.items[$0].variant.id }
        #expect(differing.isEmpty, "\(differing.count) of \(ra.count) renders differ, e.g. \(differing.prefix(3))")
    }

    // MARK: - Where images may come from

    @Test("an image outside the spec's folder and its asset roots is refused, also through a symbolic link")
    func escapes() throws {
        let root = TempFolder()
        root.write("icons/on.png", Self.solid(20, 20, Self.red))
        root.write("icons/off.png", Self.solid(20, 20, Self.grey))
        root.write("secret/x.png", Self.solid(20, 20, Self.blue))
        let specFolder = root.url.appendingPathComponent("spec").path
        let icons = root.url.appendingPathComponent("icons").path

        let outside = try #require(failure(Self.spec(on: "../icons/on.png", off: "../icons/off.png"), root, at: "spec/spec.json"))
        #expect(outside.keyPath == "images.on" && outside.line == 5)
        #expect(outside.message == "\"../icons/on.png\" (\(icons)/on.png) lies outside the spec's folder \(specFolder); it is not read "
                + "(a spec's images lie in its own folder, or in the folders its \"assets\" names)", "\(outside.message)")

        let shared = try load(Self.spec(on: "../icons/on.png", off: "../icons/off.png", scales: [1], extra: #""assets": "../icons","#), root, at: "spec/spec.json")
        #expect(try centre(shared, state: .checked, scale: 1) == [255, 0, 0, 255])
        // An absolute path inside a root is fine; a list of roots too.
        _ = try load(Self.spec(on: "\(icons)/on.png", off: "../icons/off.png", scales: [1], extra: #""assets": ["../icons", "../icons"],"#),
                     root, at: "spec/spec.json")

        let secret = try #require(failure(Self.spec(on: "../secret/x.png", off: "../icons/off.png", extra: #""assets": ["../icons"],"#),
                                          root, at: "spec/spec.json"))
        #expect(secret.keyPath == "images.on" && secret.message.contains("lies outside the spec's folder \(specFolder) and its asset roots \(icons); it is not read"),
                "\(secret.message)")

        // A link in the spec's folder, a link in a root, and a link as a PNG's @2x sibling.
        try root.link("spec/link", to: root.url.appendingPathComponent("secret").path)
        let viaLink = try #require(failure(Self.spec(on: "link/x.png", off: "../icons/off.png", extra: #""assets": "../icons","#), root, at: "spec/spec.json"))
        #expect(viaLink.keyPath == "images.on" && viaLink.message.hasPrefix("\"link/x.png\" leads through a symbolic link to ")
                && viaLink.message.contains("/secret/x.png, outside the spec's folder"), "\(viaLink.message)")
        try root.link("icons/evil.png", to: root.url.appendingPathComponent("secret/x.png").path)
        let inRoot = try #require(failure(Self.spec(on: "../icons/evil.png", off: "../icons/off.png", extra: #""assets": "../icons","#), root, at: "spec/spec.json"))
        #expect(inRoot.message.contains("leads through a symbolic link"), "\(inRoot.message)")
        try root.link("icons/on@2x.png", to: root.url.appendingPathComponent("secret/x.png").path)
        let sibling = try #require(failure(Self.spec(on: "../icons/on.png", off: "../icons/off.png", extra: #""assets": "../icons","#), root, at: "spec/spec.json"))
        #expect(sibling.message.contains("icons/on@2x.png (the @2x of on.png) leads through a symbolic link"), "\(sibling.message)")
        // An SVG in a root may still reference only its own folder.
        root.write("icons/ref.svg", ##"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="24" height="24"><image xlink:href="../secret/x.png" width="24" height="24"/></svg>"##)
        let svgRef = try #require(failure(Self.spec(on: "../icons/ref.svg", off: "../icons/off.png", extra: #""assets": "../icons","#), root, at: "spec/spec.json"))
        #expect(svgRef.message.contains("references \"../secret/x.png\", outside its own folder"), "\(svgRef.message)")

        // A root that is itself a link (inside the spec's folder) is a root where it leads.
        try root.link("spec/shared", to: icons)
        let linkedRoot = try load(Self.spec(on: "shared/off.png", off: "shared/off.png", scales: [1], extra: #""assets": "shared","#), root, at: "spec/spec.json")
        #expect(try centre(linkedRoot, state: .checked, scale: 1) == [128, 128, 128, 255])
        let noRoot = try #require(failure(Self.spec(on: "shared/off.png", off: "shared/off.png", scales: [1]), root, at: "spec/spec.json"))
        #expect(noRoot.message.contains("leads through a symbolic link"), "\(noRoot.message)")

        let missingRoot = try #require(failure(Self.spec(extra: #""assets": ["../icons", "../nope"],"#), root, at: "spec/spec.json"))
        #expect(missingRoot.keyPath == "assets[1]" && missingRoot.message.contains("no folder \(root.url.path)/nope"), "\(missingRoot)")
        let noImages = try #require(failure(checkboxSpec(#""assets": "../icons","#), root, at: "spec/spec.json"))
        #expect(noImages.keyPath == "assets" && noImages.message.contains("this spec has no \"images\""), "\(noImages)")
    }
}
