import Foundation
import Testing
@testable import GlyphColor
@testable import GlyphCore
@testable import GlyphRaster
@testable import GlyphRender
import GlyphTestSupport
import GlyphRenderTestSupport

@Suite("Spec and tokens")
struct SpecTests {
    @Test("a minimal spec loads with its defaults")
    func minimal() throws {
        let spec = try loadSpec(checkboxSpec()).get()
        #expect(spec.name == "t")
        #expect(spec.sizes.first?.size == 20)
        #expect(spec.scales == [1, 2, 3])
        #expect(spec.dynamicTypeSizes.count == 12)
        #expect(spec.variants().count == 1 * 1 * 12 * 1 * 2 * 3)
    }

    @Test("DTCG tokens: inherited $type, alias chains, colour objects, legacy hex, dimensions")
    func tokens() throws {
        let tokens = """
        {
          "color": {
            "$type": "color",
            "red": { "$value": { "colorSpace": "srgb", "components": [1, 0, 0], "alpha": 0.5, "hex": "#FF0000" } },
            "ink": { "$value": "#112233" },
            "alias": { "$value": "{color.ink}" },
            "alias2": { "$value": "{color.alias}" }
          },
          "size": { "$type": "dimension", "box": { "$value": { "value": 18, "unit": "px" } }, "ring": { "$value": "2px" },
                    "big": { "$value": { "value": 1.5, "unit": "rem" } } }
        }
        """
        let json = """
        {
          "name": "t", "control": "checkbox", "tokens": "tokens.json",
          "sizes": { "md": { "size": "{size.box}", "borderWidth": "{size.ring}", "markSize": "{size.box}", "cornerRadius": 3 },
                     "lg": { "size": "{size.big}" } },
          "states": ["unchecked"],
          "themes": { "default": { "surface": "{color.alias2}", "border": "{color.red}" } }
        }
        """
        let spec = try loadSpec(json, files: ["tokens.json": tokens]).get()
        #expect(spec.sizes[0].size == 18)
        #expect(spec.sizes[0].borderWidth == 2)
        #expect(spec.sizes[1].size == 24)  // 1.5 rem × 16 px
        let theme = try #require(spec.themes.first)
        #expect(theme.colors[.surface]?.rgba.hex == "#112233")
        #expect(theme.colors[.surface]?.token == "{color.alias2}")
        // Drawn at 8 bits per channel: alpha 0.5 → 127.5 → 0x80 (rounded half up).
        #expect(theme.colors[.border]?.rgba == RGBA(r8: 255, g8: 0, b8: 0, a8: 128))
    }

    @Test("the four presets load from the tool itself, and what is compiled in equals Assets/")
    func presets() throws {
        for name in Presets.names {
            let spec = try Presets.load(name)
            #expect(spec.name == name)
        }
        var onDisk: [String: String] = [:]
        let assets = TestPaths.packageRoot.appendingPathComponent("Assets")
        let walker = FileManager.default.enumerator(at: assets, includingPropertiesForKeys: nil)!
        for case let file as URL in walker where ["json", "svg"].contains(file.pathExtension) {
            let rel = "Assets" + file.path.dropFirst(assets.path.count)
            onDisk[rel] = try String(contentsOf: file, encoding: .utf8)
        }
        #expect(onDisk.count == EmbeddedAssets.files.count, "run scripts/embed-assets after changing Assets/")
        for (path, text) in onDisk {
            #expect(EmbeddedAssets.files[path] == text, "\(path) differs from the compiled-in copy; run scripts/embed-assets")
        }
    }

    @Test("the built-in matrix counts")
    func matrix() throws {
        let counts = try Presets.names.map { try Presets.load($0).variants().count }
        // sizes × shapes × 12 Dynamic Type sizes × themes × states (× 2 unfocused and focused, for the
        // SwiftUI presets' `focus`) × 3 scales
        #expect(counts == [1 * 1 * 12 * 3 * 2 * 2 * 3, 1 * 12 * 3 * 2 * 2 * 3, 2 * 2 * 12 * 4 * 2 * 3, 1 * 1 * 12 * 3 * 3 * 3])
        #expect(try Presets.names.map { try Presets.load($0).variantCount } == counts, "variantCount counts what variants() makes")
        let ids = try Presets.names.flatMap { try Presets.load($0).variants().map(\.id) }
        #expect(Set(ids).count == ids.count, "variant ids are unique")
        #expect(ids.contains("design-system-checkbox/square-md/AX5/inverse/checked@3x"))
    }

    @Test("a variant's kept id follows every field it is built from")
    func idFollowsFields() {
        var v = Variant(preset: "p", control: .checkbox, shape: .square, size: "md", dynamicType: .large, theme: "default",
                        state: .checked, scale: 2)
        #expect(v.id == "p/square-md/L/default/checked@2x")
        v.preset = "q"; v.shape = .circle; v.size = "sm"; v.dynamicType = .accessibility5
        v.theme = "inverse"; v.state = .mixed; v.scale = 3; v.focused = true; v.setting = .boldText
        #expect(v.id == "q/circle-sm/AX5/inverse+boldText/mixed+focused@3x")
        v.control = .switch
        #expect(v.id == "q/switch-sm/AX5/inverse+boldText/mixed+focused@3x")
        let decoded = try? JSONDecoder().decode(Variant.self, from: JSONEncoder().encode(v))
        #expect(decoded?.id == v.id && decoded == v)
    }

    @Test("--only filters: alternatives within a key, all keys must match, long and short names")
    func filters() throws {
        var f = VariantFilter()
        try f.add("dynamic-type=accessibility5,L")
        try f.add("theme=inverse")
        try f.add("scale=2x")
        let spec = try Presets.load("design-system-checkbox")
        let kept = spec.variants().filter(f.matches)
        #expect(kept.count == 2 * 2 * 2 * 1 * 2 * 1)
        #expect(kept.allSatisfy { ($0.dynamicType == .accessibility5 || $0.dynamicType == .large) && $0.theme == "inverse" && $0.scale == 2 })
        #expect(throws: FilterError.self) { try f.add("colour=red") }
        #expect(throws: FilterError.self) { try f.add("dt=AX9") }
    }
}

@Suite("Bad input: one clear message naming the file and the key path")
struct BadInputTests {
    func failure(_ json: String, files: [String: String] = [:]) -> InputError? {
        if case let .failure(e) = loadSpec(json, files: files) { return e }
        return nil
    }

    @Test("malformed JSON says where")
    func malformed() throws {
        let e = try #require(failure("{\n  \"name\": \"t\",\n  \"control\" \"checkbox\"\n}"))
        #expect(e.file.hasSuffix("spec.json"))
        #expect(e.line == 3)
        #expect(e.message.contains("malformed JSON"))
        #expect(e.description.contains("spec.json:3:"))
    }

    @Test("unknown key lists the valid ones")
    func unknownKey() throws {
        let e = try #require(failure(checkboxSpec(##""colour": "red","##)))
        #expect(e.keyPath == "colour")
        #expect(e.message.contains("unknown key"))
        #expect(e.message.contains("themes") && e.message.contains("sizes"))
        let nested = try #require(failure(checkboxSpec(themes: ##"{ "default": { "surface": "#FFFFFF", "bordr": "#000000" } }"##)))
        #expect(nested.keyPath == "themes.default.bordr")
    }

    @Test("wrong type")
    func wrongType() throws {
        let e = try #require(failure(checkboxSpec(##""scales": "2","##)))
        #expect(e.keyPath == "scales")
        #expect(e.message.contains("expected an array"))
        let size = try #require(failure(checkboxSpec().replacingOccurrences(of: ##""size": 20"##, with: ##""size": true"##)))
        #expect(size.keyPath == "sizes.md.size")
    }

    @Test("unresolved token alias and alias cycle")
    func aliases() throws {
        let tokens = ##"{ "c": { "$type": "color", "a": { "$value": "{c.b}" }, "b": { "$value": "{c.a}" }, "ok": { "$value": "#000000" } } }"##
        func spec(_ surface: String) -> String {
            checkboxSpec(##""tokens": "tokens.json","##, themes: ##"{ "default": { "surface": "\##(surface)", "border": "#000000", "fill": "#000000", "mark": "#FFFFFF" } }"##)
        }
        let missing = try #require(failure(spec("{c.nope}"), files: ["tokens.json": tokens]))
        #expect(missing.keyPath == "themes.default.surface")
        #expect(missing.message.contains("unresolved token alias {c.nope}"))
        let cycle = try #require(failure(spec("{c.a}"), files: ["tokens.json": tokens]))
        #expect(cycle.message.contains("cycle"))
        #expect(cycle.message.contains("{c.a} → {c.b} → {c.a}"))
        let noTokens = try #require(failure(checkboxSpec(themes: ##"{ "default": { "surface": "{c.ok}" } }"##)))
        #expect(noTokens.message.contains("no token file"))
    }

    @Test("a token's $type must fit the key: a dimension is not a colour, a colour is not a length")
    func tokenTypes() throws {
        // Values that would pass as the other kind: a "#hex" string typed dimension, a bare number typed colour.
        let tokens = """
        {
          "size": { "$type": "dimension", "box": { "$value": "20px" }, "odd": { "$value": "#112233" } },
          "color": { "$type": "color", "ink": { "$value": "#112233" }, "twenty": { "$value": 20 },
                     "alias": { "$value": "{size.odd}" } },
          "plain": { "$value": 18 },
          "count": { "$type": "number", "$value": 16 }
        }
        """
        let files = ["tokens.json": tokens]
        func spec(size: String = "20", border: String = "#767676") -> String {
            checkboxSpec(##""tokens": "tokens.json","##, themes: ##"{ "default": { "surface": "#FFFFFF", "border": "\##(border)", "fill": "#E00800", "mark": "#FFFFFF" } }"##)
                .replacingOccurrences(of: ##""size": 20"##, with: ##""size": \##(size)"##)
        }
        let dimensionAsColour = try #require(failure(spec(border: "{size.odd}"), files: files))
        #expect(dimensionAsColour.file.hasSuffix("spec.json"))
        #expect(dimensionAsColour.keyPath == "themes.default.border")
        #expect(dimensionAsColour.message.contains("token size.odd in "))
        #expect(dimensionAsColour.message.contains("tokens.json:2 has $type \"dimension\", but this key takes a colour"),
                "\(dimensionAsColour.message)")
        let colourAsLength = try #require(failure(spec(size: ##""{color.twenty}""##), files: files))
        #expect(colourAsLength.keyPath == "sizes.md.size")
        #expect(colourAsLength.message.contains("token color.twenty in "))
        #expect(colourAsLength.message.contains("tokens.json:3 has $type \"color\", but this key takes a length"))
        // Through an alias: the final token's type counts, and the message says how it got there.
        let viaAlias = try #require(failure(spec(border: "{color.alias}"), files: files))
        #expect(viaAlias.message.contains("token size.odd in ") && viaAlias.message.contains("(via {color.alias})"), "\(viaAlias.message)")
        // Matching and untyped tokens load; a number token is a length.
        let ok = try loadSpec(spec(size: ##""{plain}""##, border: "{color.ink}"), files: files).get()
        #expect(ok.sizes[0].size == 18)
        let number = try loadSpec(spec(size: ##""{count}""##), files: files).get()
        #expect(number.sizes[0].size == 16)
        #expect(try loadSpec(spec(size: ##""{size.box}""##), files: files).get().sizes[0].size == 20)
    }

    @Test("empty state list, unknown state, missing colour")
    func states() throws {
        let empty = try #require(failure(checkboxSpec().replacingOccurrences(of: ##"["unchecked", "checked"]"##, with: "[]")))
        #expect(empty.keyPath == "states")
        #expect(empty.message.contains("empty"))
        let wrong = try #require(failure(checkboxSpec().replacingOccurrences(of: ##""checked"]"##, with: ##""on"]"##)))
        #expect(wrong.keyPath == "states[1]")
        let colour = try #require(failure(checkboxSpec(themes: ##"{ "default": { "surface": "#FFFFFF", "border": "#000000" } }"##)))
        #expect(colour.keyPath == "themes.default")
        #expect(colour.message.contains("fill"))
    }

    @Test("a switch with a ring (borderWidth > 0) needs a border colour in every theme")
    func switchRing() throws {
        func spec(_ theme: String) -> String {
            """
            { "name": "sw", "control": "switch", "sizes": { "md": { "trackWidth": 51, "trackHeight": 31, "borderWidth": 2 } },
              "states": ["off", "on"],
              "themes": { "default": { "surface": "#FFFFFF", "trackOff": "#FFFFFF", "trackOn": "#34C759", "knob": "#FFFFFF"\(theme) } } }
            """
        }
        let e = try #require(failure(spec("")))
        #expect(e.keyPath == "themes.default")
        #expect(e.line == 3)
        #expect(e.message == "missing colour \"border\" (sizes.md.borderWidth is 2 pt: the track has a ring in that colour)")
        // A state override alone is not enough when the other state has none.
        let half = try #require(failure(spec(##", "states": { "off": { "border": "#8E8E93" } }"##)))
        #expect(half.message.contains("missing colour \"border\""))
        #expect(throws: Never.self) { try loadSpec(spec(##", "border": "#8E8E93""##)).get() }
        // Without a ring no border colour is needed.
        #expect(throws: Never.self) { try loadSpec(spec("").replacingOccurrences(of: #", "borderWidth": 2"#, with: "")).get() }
    }

    func imageSpec(_ on: String = "on.svg", off: String = "off.svg") -> String {
        """
        { "name": "img", "control": "checkbox", "sizes": { "md": { "size": 44 } }, "frame": { "width": 44, "height": 44 },
          "images": { "on": "\(on)", "off": "\(off)" }, "states": ["unchecked", "checked"],
          "themes": { "default": { "surface": "#FFFFFF", "tint": "#007AFF" } } }
        """
    }
    let square = ##"<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24"><rect width="24" height="24"/></svg>"##

    @Test("missing SVG file, broken SVG")
    func svgFiles() throws {
        let missing = try #require(failure(imageSpec(off: "nope.svg"), files: ["on.svg": square]))
        #expect(missing.keyPath == "images.off")
        #expect(missing.message.contains("nope.svg"))
        // What is wrong inside an SVG is reported at the spec key that loads it, naming the SVG too.
        let broken = try #require(failure(imageSpec(), files: ["on.svg": square, "off.svg": "<svg xmlns=\"http://www.w3.org/2000/svg\"><rect"]))
        #expect(broken.file.hasSuffix("spec.json"))
        #expect(broken.keyPath == "images.off")
        #expect(broken.line == 2)
        #expect(broken.message.contains("off.svg"))
        #expect(broken.message.contains("librsvg cannot read this SVG"))
        #expect(!broken.message.contains("\n"), "librsvg's trailing newline is stripped: \(broken.message)")
        let notSVG = try #require(failure(imageSpec(), files: ["on.svg": square, "off.svg": "<html/>"]))
        #expect(notSVG.file.hasSuffix("spec.json") && notSVG.keyPath == "images.off")
        #expect(notSVG.message.contains("off.svg: not an SVG"))
        let empty = try #require(failure(imageSpec(), files: ["on.svg": square, "off.svg": ""]))
        #expect(empty.keyPath == "images.off")
        #expect(empty.message.contains("off.svg: the SVG file is empty"))
        let onBroken = try #require(failure(imageSpec(), files: ["on.svg": "<svg", "off.svg": square]))
        #expect(onBroken.keyPath == "images.on" && onBroken.message.contains("on.svg"))
    }

    @Test("an SVG that reaches outside its folder or names a URL is refused, and nothing is read")
    func svgReferences() throws {
        let folder = TempFolder()
        // A real file elsewhere on disk that the SVG points at.
        let outside = TempFolder()
        let secret = outside.write("secret.svg", square)
        let cases = [
            "../\(outside.url.lastPathComponent)/secret.svg",
            secret.path,
            "file://\(secret.path)",
            "https://example.com/x.png",
        ]
        for target in cases {
            let svg = ##"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="24" height="24"><image xlink:href="\##(target)" width="24" height="24"/></svg>"##
            folder.write("on.svg", square)
            folder.write("off.svg", svg)
            guard case let .failure(e) = loadSpec(imageSpec(), in: folder) else {
                Issue.record("\(target) was accepted")
                continue
            }
            #expect(e.file.hasSuffix("spec.json") && e.keyPath == "images.off", "\(target)")
            #expect(e.message.contains("off.svg"), "\(target): \(e.message)")
            #expect(e.message.contains("outside its own folder") || e.message.contains("URL"), "\(target): \(e.message)")
        }
        // url(...) in a style attribute and in a style sheet.
        folder.write("off.svg", ##"<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24"><rect style="fill:url(../x.svg#p)" width="1" height="1"/></svg>"##)
        guard case .failure = loadSpec(imageSpec(), in: folder) else { Issue.record("style url accepted"); return }
        folder.write("off.svg", ##"<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24"><style>@import "/etc/x.css";</style></svg>"##)
        guard case .failure = loadSpec(imageSpec(), in: folder) else { Issue.record("@import accepted"); return }
    }

    @Test("any xml:base, and a symbolic link out of the folder, are refused")
    func svgEscapes() throws {
        let root = TempFolder()
        let secret = root.write("secret/s.svg", ##"<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24"><rect width="24" height="24" fill="#D32F2F"/></svg>"##)
        root.write("spec/parts/dot.svg", square)
        root.write("spec/on.svg", square)
        try FileManager.default.createSymbolicLink(atPath: root.url.appendingPathComponent("spec/link").path,
                                                   withDestinationPath: secret.deletingLastPathComponent().path)
        try FileManager.default.createSymbolicLink(atPath: root.url.appendingPathComponent("spec/parts/s.svg").path,
                                                   withDestinationPath: secret.path)
        func svg(_ inner: String, base: String? = nil) -> String {
            ##"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="24" height="24""##
                + (base.map { " xml:base=\"\($0)\"" } ?? "") + ">\(inner)</svg>"
        }
        let image = { (href: String) in ##"<image xlink:href="\##(href)" width="24" height="24"/>"## }
        let refused: [(svg: String, message: String)] = [
            (svg(image("s.svg"), base: "../../secret/"), #"sets xml:base="../../secret/"; xml:base is not supported"#),
            (svg(image("s.svg"), base: "file://\(secret.deletingLastPathComponent().path)/"), "xml:base is not supported"),
            (svg(##"<g xml:base="../secret/">"## + image("s.svg") + "</g>"), #"sets xml:base="../secret/""#),
            // Even one that stays in the folder: librsvg versions differ in whether they follow it.
            (svg(image("dot.svg"), base: "parts/"), "xml:base is not supported"),
            // A subfolder that is a symbolic link to elsewhere, and a file that is one.
            (svg(image("link/s.svg")), #"references "link/s.svg", which a symbolic link leads outside its own folder"#),
            (svg(image("parts/s.svg")), #"references "parts/s.svg", which a symbolic link leads outside its own folder"#),
            (svg(##"<rect width="1" height="1" style="fill:url(link/s.svg#p)"/>"##), "which a symbolic link leads outside"),
        ]
        let specFile = root.write("spec/spec.json", imageSpec())
        for (text, message) in refused {
            root.write("spec/off.svg", text)
            do {
                _ = try Spec.load(contentsOf: specFile)
                Issue.record("accepted: \(text)")
            } catch {
                #expect(error.file.hasSuffix("spec.json") && error.keyPath == "images.off", "\(text)")
                #expect(error.message.contains("off.svg: "), "\(error.message)")
                #expect(error.message.contains(message), "\(text): \(error.message)")
            }
        }
        // A link that stays inside the folder is fine, and librsvg draws through it.
        try FileManager.default.createSymbolicLink(atPath: root.url.appendingPathComponent("spec/inner").path,
                                                   withDestinationPath: root.url.appendingPathComponent("spec/parts").path)
        root.write("spec/off.svg", svg(image("inner/dot.svg")))
        let spec = try Spec.load(contentsOf: specFile)
        let drawn = Renderer.raster(svg: SVGDocument.of(try #require(spec.images?.off)), width: 24, height: 24)
        #expect(drawn.color(12, 12).a == 1, "the image in the linked subfolder is drawn")
    }

    @Test("an SVG may use a file in its own folder, and in-document references")
    func svgOwnFolder() throws {
        let folder = TempFolder()
        folder.write("parts/dot.svg", square)
        folder.write("on.svg", ##"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="24" height="24"><defs><rect id="r" width="24" height="24"/></defs><use xlink:href="#r"/><image href="parts/dot.svg" width="24" height="24"/></svg>"##)
        folder.write("off.svg", square)
        let spec = try loadSpec(imageSpec(), in: folder).get()
        #expect(spec.images?.on.width == 24)
    }

    @Test("a canvas over 4096 px on a side is refused before anything renders")
    func absurdSize() throws {
        let spec = try loadSpec(checkboxSpec(##""glyph": { "textStyle": "body", "scalesWithDynamicType": true },"##)
            .replacingOccurrences(of: ##""size": 20"##, with: ##""size": 500"##)).get()
        do {
            _ = try Plan(specs: [spec])
            Issue.record("no error")
        } catch {
            #expect(error.keyPath == "sizes.md.size")
            #expect(error.line == spec.lines["sizes.md.size"] && error.line != nil)
            #expect(error.message.contains("4096"))
            // The first variant too large: 500 pt grows with body to 500 × 47 / 17 = 1382.4 pt at AX4; at @3x
            // that is 4173 px with the margins.
            #expect(error.message.contains("4173 × 4173 px"))
            #expect(error.message.contains("the glyph is 1382.4 pt wide at AX4 @3x, growing with Dynamic Type"), "\(error.message)")
        }
    }

    @Test("a canvas made too large by the label names the label's key and line, not the size")
    func absurdLabel() throws {
        let themes = ##"{ "default": { "surface": "#FFFFFF", "border": "#767676", "fill": "#E00800", "mark": "#FFFFFF", "label": "#000000" } }"##
        func error(_ label: String, scales: String = "[1, 2, 3]") throws -> InputError {
            let spec = try loadSpec(checkboxSpec(##""label": \##(label),\##n  "scales": \##(scales),"##, themes: themes)).get()
            do {
                _ = try Plan(specs: [spec])
            } catch {
                #expect(error.line == spec.lines[error.keyPath ?? ""] && error.line != nil, "\(error)")
                return error
            }
            Issue.record("no error for \(label)")
            throw InputError(file: "", message: "")
        }
        // A long text: too wide.
        let long = String(repeating: "Accept the terms ", count: 12)
        let text = try error(##"{ "text": "\##(long)" }"##)
        #expect(text.keyPath == "label.text")
        #expect(text.message.contains("the label \"Accept the terms Accept …\" is 1418.7 pt wide at xS @3x in 14.0 pt text"), "\(text.message)")
        #expect(text.message.contains("@3x") && text.message.contains("maxWidth"))
        // The same text with a maxWidth is drawn cut to it, so it fits.
        let cut = try loadSpec(checkboxSpec(##""label": { "text": "\##(long)", "maxWidth": 300 },"##, themes: themes)).get()
        #expect(throws: Never.self) { try Plan(specs: [cut]) }
        // A short text in a custom size that would fit at the style's own size: the size is to blame.
        let big = try error(##"{ "text": "Accept Terms", "size": 400 }"##, scales: "[1]")
        #expect(big.keyPath == "label.size")
        #expect(big.message.contains("at its text style's own"), "\(big.message)")
        // One narrow letter so large that only its height is too much.
        let tall = try error(##"{ "text": "i", "size": 500 }"##, scales: "[3]")
        #expect(tall.keyPath == "label.size")
        #expect(tall.message.contains("tall at AX"), "\(tall.message)")
    }

    @Test("two specs with one name")
    func duplicateNames() throws {
        let a = try loadSpec(checkboxSpec()).get()
        #expect(throws: InputError.self) { try Plan(specs: [a, a]) }
    }
}

@Suite("docs/spec.schema.json stays true to the loader")
struct SchemaTests {
    @Test("the schema lists exactly the keys the loader accepts")
    func keys() throws {
        let url = TestPaths.packageRoot.appendingPathComponent("docs/spec.schema.json")
        let schema = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        let props = try #require(schema["properties"] as? [String: Any])
        #expect(Set(props.keys) == Set(Spec.topKeys))
        let themes = try #require((props["themes"] as? [String: Any])?["additionalProperties"] as? [String: Any])
        let themeKeys = try #require(themes["properties"] as? [String: Any]).keys
        #expect(Set(themeKeys) == Set(ColorRole.allCases.map(\.rawValue) + ["states", "imageOpacity", "appearance", "tokensTheme", "tokenSets", "tokensContext"]))
        let label = try #require((props["label"] as? [String: Any])?["properties"] as? [String: Any])
        #expect(Set(label.keys) == ["text", "textStyle", "size", "spacing", "maxWidth", "position"])
        let images = try #require((props["images"] as? [String: Any])?["properties"] as? [String: Any])
        #expect(Set(images.keys) == ["on", "off", "clear", "template", "threeState", "useOffImageForClear", "contentMode"])
        let modes = try #require((images["contentMode"] as? [String: Any])?["enum"] as? [String])
        #expect(modes == ImageContentMode.allCases.map(\.rawValue))
        let styles = try #require(((schema["$defs"] as? [String: Any])?["textStyle"] as? [String: Any])?["enum"] as? [String])
        #expect(styles == TextStyle.allCases.map(\.rawValue))
    }
}
