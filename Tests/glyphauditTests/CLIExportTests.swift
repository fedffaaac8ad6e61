import Foundation
import GlyphRaster
import Testing
import GlyphTestSupport

@Suite("glyphaudit export --xcassets: the catalog read back")
struct CLIExportTests {
    func json(_ url: URL) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any], "\(url.path)")
    }

    /// Relative path → (bytes, modification date) of every file below `root`.
    func state(_ dir: TempFolder, _ sub: String) throws -> [String: (Data, Date)] {
        var out: [String: (Data, Date)] = [:]
        for path in dir.files(sub) {
            let url = dir.url.appendingPathComponent(sub).appendingPathComponent(path)
            let date = try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date)
            out[path] = (try Data(contentsOf: url), date)
        }
        return out
    }

    @Test("all built-in presets: image sets, dark appearances, template intent, pixel sizes; a re-export touches nothing")
    func builtins() throws {
        let dir = TempFolder()
        let r = try CLI.run(["export", "--xcassets", "App.xcassets"], in: dir.url)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.contains("exported 15 of 15 image sets"))
        let root = dir.url.appendingPathComponent("App.xcassets")
        let files = dir.files("App.xcassets")
        #expect(files.count == 8 * 7 + 2 * 7 + 2 * 7 + 3 * 4 + 4 + 1)
        #expect(files.contains("Contents.json"))

        let sizes = ["design-system-checkbox/square-md-checked": (20, 20), "design-system-checkbox/circle-sm-unchecked": (16, 16),
                     "swiftui-checkbox/square-md-checked": (22, 22), "swiftui-switch/switch-md-off": (51, 31),
                     "rvs-checkbox/square-md-mixed": (44, 44)]
        for (name, size) in sizes {
            let set = root.appendingPathComponent("\(name).imageset")
            let contents = try json(set.appendingPathComponent("Contents.json"))
            let images = try #require(contents["images"] as? [[String: Any]])
            let template = name.hasPrefix("rvs-checkbox")
            let intent = (contents["properties"] as? [String: Any])?["template-rendering-intent"] as? String
            #expect(intent == (template ? "template" : "original"), "\(name)")
            let dark = images.filter { $0["appearances"] != nil }
            #expect(dark.count == (template ? 0 : 3), "\(name)")
            for entry in dark {
                #expect(entry["appearances"] as? [[String: String]] == [["appearance": "luminosity", "value": "dark"]])
            }
            for entry in images {
                let file = try #require(entry["filename"] as? String)
                let scaleText = try #require(entry["scale"] as? String)
                let scale = try #require(Int(scaleText.dropLast()))
                let raster = try Raster(contentsOfPNG: set.appendingPathComponent(file))
                #expect(raster.width == size.0 * scale && raster.height == size.1 * scale, "\(name)/\(file)")
            }
        }

        // A second export: no byte and no modification time changes.
        let old = Date(timeIntervalSince1970: 946_684_800)
        for path in files {
            try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: root.appendingPathComponent(path).path)
        }
        let before = try state(dir, "App.xcassets")
        let again = try CLI.run(["export", "--xcassets", "App.xcassets", "--jobs", "1"], in: dir.url)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains("0 files written, \(files.count) unchanged"))
        let after = try state(dir, "App.xcassets")
        #expect(after.keys.sorted() == before.keys.sorted())
        for (path, (data, date)) in after {
            #expect(data == before[path]?.0, "\(path) changed")
            #expect(date == old, "\(path) was rewritten")
        }
    }

    @Test("Contents.json of one small image set is byte for byte what Xcode writes")
    func xcodeFormatting() throws {
        let dir = TempFolder()
        let r = try CLI.run(["export", "--xcassets", "A.xcassets", "--preset", "rvs-checkbox", "--only", "state=checked", "--quiet"],
                            in: dir.url)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.isEmpty)
        #expect(dir.files("A.xcassets") == [
            "Contents.json", "rvs-checkbox/Contents.json", "rvs-checkbox/square-md-checked.imageset/Contents.json",
            "rvs-checkbox/square-md-checked.imageset/square-md-checked.png",
            "rvs-checkbox/square-md-checked.imageset/square-md-checked@2x.png",
            "rvs-checkbox/square-md-checked.imageset/square-md-checked@3x.png",
        ])
        func text(_ path: String) throws -> String {
            try String(contentsOf: dir.url.appendingPathComponent("A.xcassets/\(path)"), encoding: .utf8)
        }
        #expect(try text("rvs-checkbox/square-md-checked.imageset/Contents.json") == """
        {
          "images" : [
            {
              "filename" : "square-md-checked.png",
              "idiom" : "universal",
              "scale" : "1x"
            },
            {
              "filename" : "square-md-checked@2x.png",
              "idiom" : "universal",
              "scale" : "2x"
            },
            {
              "filename" : "square-md-checked@3x.png",
              "idiom" : "universal",
              "scale" : "3x"
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
        #expect(try text("rvs-checkbox/Contents.json") == """
        {
          "info" : {
            "author" : "xcode",
            "version" : 1
          },
          "properties" : {
            "provides-namespace" : true
          }
        }

        """)
        #expect(try text("Contents.json") == """
        {
          "info" : {
            "author" : "xcode",
            "version" : 1
          }
        }

        """)
    }

    @Test("--vector gives one PDF per appearance, --vector svg one SVG, with preserves-vector-representation")
    func vector() throws {
        let dir = TempFolder()
        for (args, ext) in [(["--vector"], "pdf"), (["--vector", "svg"], "svg"), (["--vector", "pdf"], "pdf")] {
            let out = "V-\(ext)-\(args.count).xcassets"
            let r = try CLI.run(["export", "--preset", "design-system-checkbox"] + args + ["--xcassets", out], in: dir.url)
            #expect(r.status == 0, "\(r.stderr)")
            let set = dir.url.appendingPathComponent("\(out)/design-system-checkbox/square-sm-checked.imageset")
            let contents = try json(set.appendingPathComponent("Contents.json"))
            let images = try #require(contents["images"] as? [[String: Any]])
            #expect(images.compactMap { $0["filename"] as? String } == ["square-sm-checked.\(ext)", "square-sm-checked-dark.\(ext)"])
            #expect((contents["properties"] as? [String: Any])?["preserves-vector-representation"] as? Bool == true)
            let data = try Data(contentsOf: set.appendingPathComponent("square-sm-checked.\(ext)"))
            let text = String(decoding: data, as: UTF8.self)
            #expect(ext == "pdf" ? text.contains("/MediaBox [ 0 0 16 16 ]") : text.contains(#"width="16" height="16""#))
            #expect(dir.files(out).count == 8 * 3 + 2)
        }
    }

    @Test("A spec named with one character exports (Foundation's deletingLastPathComponent crashed on its folder \"t\")")
    func oneCharacterName() throws {
        let dir = TempFolder()
        dir.write("t.json", """
        {"name": "t", "control": "checkbox", "sizes": {"md": {"size": 16}}, "states": ["unchecked", "checked"],
         "themes": {"default": {"surface": "#FFFFFF", "border": "#000000", "fill": "#000000", "mark": "#FFFFFF"}}}
        """)
        let r = try CLI.run(["export", "--spec", "t.json", "--xcassets", "T.xcassets"], in: dir.url)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(dir.files("T.xcassets").contains("t/square-md-checked.imageset/Contents.json"), "\(dir.files("T.xcassets"))")
    }

    @Test("bad input exits 2 and leaves no catalog; usage errors exit 64")
    func badInput() throws {
        let dir = TempFolder()
        dir.write("bad.json", #"{ "name": "x", "control": "checkbox", "sizes": { "md": { "size": 20, "colour": 1 } }, "states": ["checked"], "themes": {} }"#)
        dir.write("light.json", """
        { "name": "light", "control": "switch", "sizes": { "md": { "trackWidth": 40, "trackHeight": 24 } }, "states": ["off", "on"],
          "themes": { "night": { "surface": "#000000", "trackOff": "#8E8E93", "trackOn": "#34C759", "knob": "#FFFFFF" } } }
        """)
        let cases: [([String], String)] = [
            (["--spec", "bad.json"], "sizes.md.colour"),
            (["--spec", "nope.json"], "no such file"),
            (["--spec", "light.json"], "needs a light theme for the any appearance: one named \"default\""),
            (["--only", "theme=inverse"], "cannot filter by theme"),
            (["--only", "scale=2"], "cannot filter by scale"),
            (["--only", "state=plaid"], "no image set matches"),
            (["--preset", "rvs-checkbox", "--preset", "rvs-checkbox"], "two specs are named"),
        ]
        for (args, message) in cases {
            let r = try CLI.run(["export", "--xcassets", "Out.xcassets"] + args, in: dir.url)
            #expect(r.status == 2, "\(args)")
            #expect(r.stderr.contains(message), "\(args): \(r.stderr)")
        }
        // A preset name the tool does not know is a command-line error.
        let preset = try CLI.run(["export", "--xcassets", "Out.xcassets", "--preset", "nope"], in: dir.url)
        #expect(preset.status == 64 && preset.stderr.contains("unknown preset \"nope\""), "\(preset.stderr)")
        let notCatalog = try CLI.run(["export", "--xcassets", "Out"], in: dir.url)
        #expect(notCatalog.status == 2)
        #expect(notCatalog.stderr.contains(".xcassets"))
        #expect(dir.files() == ["bad.json", "light.json"], "nothing written")

        for args in [["export"], ["export", "--xcassets", "O.xcassets", "--vector", "png"],
                     ["export", "--xcassets", "O.xcassets", "stray"], ["export", "--xcassets", "O.xcassets", "--jobs", "0"],
                     ["export", "--xcassets", "O.xcassets", "--format", "png"]] {
            #expect(try CLI.run(args, in: dir.url).status == 64, "\(args)")
        }
        #expect(dir.files() == ["bad.json", "light.json"], "nothing written")
        let help = try CLI.run(["export", "--help"], in: dir.url)
        #expect(help.status == 0 && help.stdout.contains("--xcassets DIR") && help.stdout.contains("--vector"))
    }
}
