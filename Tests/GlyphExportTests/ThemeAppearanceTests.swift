import Foundation
import Testing
import GlyphColor
import GlyphCore
import GlyphExport
import GlyphPipeline
import GlyphRaster
import GlyphRender
import GlyphTestSupport

// Themes named freely, filled into an asset catalog's appearances by what their `appearance` says,
// checked against Apple's asset catalog format: an image entry's `appearances` is an array of
// `{"appearance": "luminosity", "value": "light" | "dark"}` and `{"appearance": "contrast",
// "value": "high"}` (Asset Catalog Format Reference, "Image Set Type", appearances). The colours are
// Primer's blue 5 per mode (Tests/Fixtures/tokens/terrazzo-mode-type-color.tokens.json:
// light #0969DA, dark #1F6FEB, light high contrast #0349B4, dark high contrast #409EFF).

@Suite("Export: themes by appearance (luminosity and contrast)")
struct ThemeAppearanceTests {
    static let fills: [(theme: String, hex: String)] = [("light", "#0969DA"), ("dark", "#1F6FEB"), ("light-hc", "#0349B4"), ("dark-hc", "#409EFF")]

    /// A checkbox whose checked state is its fill alone (no ring, no mark): the whole box is the fill.
    /// Themes in an order that is not the catalog's, and names that are not `default` / `inverse`.
    static let spec = """
    {
      "name": "looks",
      "control": "checkbox",
      "sizes": { "md": { "size": 20, "cornerRadius": 0, "borderWidth": 2, "markSize": 12, "markWeight": 2 } },
      "states": ["unchecked", "checked"],
      "appearance": { "checked": { "ring": false, "fill": true, "mark": "none" } },
      "themes": {
        "dark-hc": { "appearance": "dark-high-contrast", "surface": "#010409", "border": "#B7BDC8", "fill": "#409EFF" },
        "dark": { "appearance": "dark", "surface": "#0D1117", "border": "#8B949E", "fill": "#1F6FEB" },
        "disabled": { "appearance": "light", "surface": "#FFFFFF", "border": "#8C959F", "fill": "#8C959F" },
        "light": { "appearance": "light", "surface": "#FFFFFF", "border": "#6E7781", "fill": "#0969DA" },
        "light-hc": { "appearance": "light-high-contrast", "surface": "#FFFFFF", "border": "#20252C", "fill": "#0349B4" }
      }
    }
    """

    @Test("light, dark, light-hc, dark-hc fill any, dark, contrast high and dark + contrast high, in Xcode's order")
    func contents() throws {
        let folder = TempFolder()
        let url = folder.write("spec/spec.json", Self.spec)
        let spec = try Spec.load(contentsOf: url)
        let catalog = try AssetCatalog(specs: [spec])
        let root = folder.url.appendingPathComponent("Glyphs.xcassets")
        _ = try AssetCatalog.write(try catalog.files(jobs: 2), to: root)
        let set = root.appendingPathComponent("looks/square-md-checked.imageset")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: set.appendingPathComponent("Contents.json"))) as? [String: Any])
        let images = try #require(json["images"] as? [[String: Any]])
        let dark: [String: String] = ["appearance": "luminosity", "value": "dark"]
        let high: [String: String] = ["appearance": "contrast", "value": "high"]
        var expected: [(String, String, [[String: String]]?)] = []
        for scale in [1, 2, 3] {
            let s = scale == 1 ? "" : "@\(scale)x"
            expected += [("square-md-checked\(s).png", "\(scale)x", nil),
                         ("square-md-checked-dark\(s).png", "\(scale)x", [dark]),
                         ("square-md-checked-hc\(s).png", "\(scale)x", [high]),
                         ("square-md-checked-dark-hc\(s).png", "\(scale)x", [dark, high])]
        }
        #expect(images.count == expected.count)
        for (image, (file, scale, appearances)) in zip(images, expected) {
            #expect(image["filename"] as? String == file)
            #expect(image["scale"] as? String == scale)
            #expect(image["idiom"] as? String == "universal")
            #expect((image["appearances"] as? [[String: String]]) == appearances, "\(file)")
        }
        // Each file is its theme's fill (the disabled theme is not exported, though it says light).
        for ((_, hex), suffix) in zip(Self.fills, ["", "-dark", "-hc", "-dark-hc"]) {
            let r = try Raster(contentsOfPNG: set.appendingPathComponent("square-md-checked\(suffix)@2x.png"))
            let want = try #require(RGBA(hex: hex))
            let c = r.color(20, 20)
            #expect(abs(c.r - want.r) < 0.003 && abs(c.g - want.g) < 0.003 && abs(c.b - want.b) < 0.003, "\(suffix): \(c.hex)")
        }
        #expect(!FileManager.default.fileExists(atPath: set.appendingPathComponent("square-md-checked-disabled.png").path))

        // Read back: each theme draws its own image, by appearance; a theme without appearance and a
        // dark surface draws the dark one (never the high-contrast ones).
        let back = """
        { "name": "back", "control": "checkbox", "assets": "../Glyphs.xcassets",
          "sizes": { "md": { "size": 20 } },
          "images": { "on": "../Glyphs.xcassets/looks/square-md-checked.imageset",
                      "off": "../Glyphs.xcassets/looks/square-md-unchecked.imageset" },
          "states": ["unchecked", "checked"],
          "themes": { "day": { "surface": "#FFFFFF", "appearance": "light" }, "night": { "surface": "#0D1117", "appearance": "dark" },
                      "day-hc": { "surface": "#FFFFFF", "appearance": "light-high-contrast" },
                      "night-hc": { "surface": "#010409", "appearance": "dark-high-contrast" },
                      "plain-dark": { "surface": "#000000" } } }
        """
        let backSpec = try Spec.load(contentsOf: folder.write("spec/back.json", back))
        #expect(backSpec.warnings.isEmpty, "\(backSpec.warnings)")
        let plan = try Plan(specs: [backSpec])
        let want: [String: String] = ["day": "#0969DA", "night": "#1F6FEB", "day-hc": "#0349B4", "night-hc": "#409EFF", "plain-dark": "#1F6FEB"]
        for (theme, hex) in want {
            for scale in [1, 2, 3] {
                let item = try #require(plan.items.first { $0.variant.state == .checked && $0.variant.theme == theme && $0.variant.scale == scale })
                let r = Renderer.raster(item.layout, spec: item.spec, parts: [.glyph])
                let rect = try #require(item.layout.image)
                let c = r.color(Int(rect.midX * Double(scale)), Int(rect.midY * Double(scale)))
                #expect(c.hex == hex, "\(theme) @\(scale)x: \(c.hex)")
            }
        }
    }

    @Test("without appearance, themes count by name as before: default any, inverse dark, the rest not exported")
    func byName() throws {
        let folder = TempFolder()
        let text = Self.spec.replacingOccurrences(of: #""appearance": "light-high-contrast", "#, with: "")
            .replacingOccurrences(of: #""appearance": "dark-high-contrast", "#, with: "")
            .replacingOccurrences(of: #""light": { "appearance": "light", "#, with: #""default": { "#)
            .replacingOccurrences(of: #""dark": { "appearance": "dark", "#, with: #""inverse": { "#)
        let spec = try Spec.load(contentsOf: folder.write("spec.json", text))
        #expect(AssetCatalog.appearanceThemes(spec).map { "\($0.appearance.rawValue)=\($0.theme)" } == ["any=default", "dark=inverse"])
        // inverse (without appearance) is still preferred for dark over a theme that says dark.
        let both = Self.spec.replacingOccurrences(of: #""light-hc": { "appearance": "light-high-contrast", "#, with: #""inverse": { "#)
        let s2 = try Spec.load(contentsOf: folder.write("both.json", both))
        #expect(AssetCatalog.appearanceThemes(s2).map { "\($0.appearance.rawValue)=\($0.theme)" }
                    == ["any=light", "dark=inverse", "dark-high-contrast=dark-hc"])
        // No light theme: refused, naming what the spec has.
        let noLight = Self.spec.replacingOccurrences(of: #""appearance": "light", "#, with: #""appearance": "dark", "#)
        let s3 = try Spec.load(contentsOf: folder.write("nolight.json", noLight))
        do {
            _ = try AssetCatalog(specs: [s3])
            Issue.record("a spec without a light theme was exported")
        } catch {
            #expect(error.keyPath == "themes" && error.message.contains("\"appearance\": \"light\""), "\(error)")
        }
    }

    @Test("with no default theme and no declared light one, themes without appearance count by their surfaces")
    func bySurface() throws {
        let folder = TempFolder()
        // Material 3's light and dark surfaces (#FEF7FF: relative luminance 0.95; #141218: 0.007).
        let text = """
        {"name": "m3", "control": "checkbox", "sizes": {"md": {"size": 18}}, "states": ["unchecked", "checked"],
         "themes": {"light": {"surface": "#FEF7FF", "border": "#49454F", "fill": "#6750A4", "mark": "#FFFFFF"},
                    "disabled": {"surface": "#FEF7FF", "border": "#1D1B20", "fill": "#1D1B20", "mark": "#FEF7FF"},
                    "dark": {"surface": "#141218", "border": "#CAC4D0", "fill": "#D0BCFF", "mark": "#381E72"}}}
        """
        let spec = try Spec.load(contentsOf: folder.write("m3.json", text))
        #expect(AssetCatalog.appearanceThemes(spec).map { "\($0.appearance.rawValue)=\($0.theme)" } == ["any=light", "dark=dark"])
        // A default theme keeps the by-name rule: another dark-surfaced name is not exported.
        let named = text.replacingOccurrences(of: #""light": {"#, with: #""default": {"#)
        let s2 = try Spec.load(contentsOf: folder.write("named.json", named))
        #expect(AssetCatalog.appearanceThemes(s2).map { "\($0.appearance.rawValue)=\($0.theme)" } == ["any=default"])
    }

    @Test("a high-contrast theme draws an image set without high-contrast files as its luminosity says")
    func noHighContrastFiles() throws {
        let folder = TempFolder()
        func solid(_ rgba: [Int], _ side: Int) -> Data {
            TinyPNG.encode(width: side, height: side, colorType: .rgba, bitDepth: 8,
                           samples: Array(repeating: Array(repeating: rgba, count: side), count: side))
        }
        var entries: [String] = []
        for scale in [1, 2, 3] {
            folder.write("A.xcassets/on.imageset/on@\(scale)x.png", solid([255, 0, 0, 255], 20 * scale))
            folder.write("A.xcassets/on.imageset/on-dark@\(scale)x.png", solid([0, 255, 0, 255], 20 * scale))
            entries.append(#"{ "filename": "on@\#(scale)x.png", "idiom": "universal", "scale": "\#(scale)x" }"#)
            entries.append(#"{ "appearances": [ { "appearance": "luminosity", "value": "dark" } ], "filename": "on-dark@\#(scale)x.png", "idiom": "universal", "scale": "\#(scale)x" }"#)
        }
        folder.write("A.xcassets/on.imageset/Contents.json", #"{ "images": [ \#(entries.joined(separator: ", ")) ], "info": { "author": "xcode", "version": 1 } }"#)
        let spec = try Spec.load(contentsOf: folder.write("spec.json", """
        { "name": "t", "control": "checkbox", "sizes": { "md": { "size": 20 } },
          "images": { "on": "A.xcassets/on.imageset", "off": "A.xcassets/on.imageset", "template": false },
          "states": ["unchecked", "checked"], "scales": [2],
          "themes": { "day-hc": { "surface": "#FFFFFF", "appearance": "light-high-contrast" },
                      "night-hc": { "surface": "#000000", "appearance": "dark-high-contrast" } } }
        """))
        let plan = try Plan(specs: [spec])
        for (theme, hex) in [("day-hc", "#FF0000"), ("night-hc", "#00FF00")] {
            let item = try #require(plan.items.first { $0.variant.state == .checked && $0.variant.theme == theme })
            let r = Renderer.raster(item.layout, spec: item.spec, parts: [.glyph])
            let rect = try #require(item.layout.image)
            #expect(r.color(Int(rect.midX * 2), Int(rect.midY * 2)).hex == hex, "\(theme)")
        }
    }
}
