import Foundation
import Testing
import GlyphTestSupport

@Suite("glyphaudit render, presets, run: from an empty folder")
struct CLIRenderTests {
    @Test("the built-in presets work from an empty folder with no repository around")
    func presetsFromEmptyFolder() throws {
        let dir = TempFolder()
        let list = try CLI.run(["presets"], in: dir.url)
        #expect(list.status == 0)
        for name in ["swiftui-checkbox", "swiftui-switch", "design-system-checkbox", "rvs-checkbox"] {
            #expect(list.stdout.contains(name))
        }
        // The spec as shipped: its token path is relative to the built-in assets, and stderr says how to get the files.
        let show = try CLI.run(["presets", "show", "design-system-checkbox"], in: dir.url)
        #expect(show.status == 0)
        #expect(show.stdout == String(decoding: try Data(contentsOf: CLI.packageRoot
            .appendingPathComponent("Assets/presets/design-system-checkbox.json")), as: UTF8.self))
        #expect(show.stderr.contains("tokens/design-system.tokens.json"))
        #expect(show.stderr.contains("presets show design-system-checkbox --out DIR"))
        let plain = try CLI.run(["presets", "show", "swiftui-switch"], in: dir.url)
        #expect(plain.status == 0 && plain.stderr.isEmpty, "a preset that reads no other file needs no note")
        let render = try CLI.run(["render", "--preset", "rvs-checkbox", "--only", "dynamic-type=L", "--out", "out",
                                  "--format", "png,svg,pdf"], in: dir.url)
        #expect(render.status == 0, "\(render.stderr)")
        let files = dir.files("out")
        #expect(files.count == 3 * 3 * 3 * 3)  // themes × states × scales × formats
        #expect(files.contains("rvs-checkbox/square-md/L/default/mixed@3x.png"))
        #expect(render.stderr.contains("27 of 324 variants"))
    }

    @Test("presets show NAME --out DIR writes a spec folder that renders exactly like the preset")
    func presetsShowOut() throws {
        let dir = TempFolder()
        for name in ["design-system-checkbox", "rvs-checkbox", "swiftui-checkbox"] {
            let show = try CLI.run(["presets", "show", name, "--out", "mine"], in: dir.url)
            #expect(show.status == 0, "\(show.stderr)")
        }
        #expect(dir.files("mine") == ["design-system-checkbox.json", "images/rvs-checkbox/clear.svg", "images/rvs-checkbox/off.svg",
                                      "images/rvs-checkbox/on.svg", "rvs-checkbox.json", "swiftui-checkbox.json",
                                      "tokens/design-system.tokens.json"])
        let spec = try String(contentsOf: dir.url.appendingPathComponent("mine/rvs-checkbox.json"), encoding: .utf8)
        #expect(spec.contains("\"on\": \"images/rvs-checkbox/on.svg\""))
        #expect(!spec.contains("../") && !spec.contains("$schema"))
        let tokens = try Data(contentsOf: dir.url.appendingPathComponent("mine/tokens/design-system.tokens.json"))
        #expect(tokens == (try Data(contentsOf: CLI.packageRoot.appendingPathComponent("Assets/tokens/design-system.tokens.json"))))

        for name in ["design-system-checkbox", "rvs-checkbox"] {
            let only = ["--only", "dynamic-type=L,AX5", "--format", "png,svg,pdf"]
            let a = try CLI.run(["render", "--preset", name, "--out", "a"] + only, in: dir.url)
            let b = try CLI.run(["render", "--spec", "mine/\(name).json", "--out", "b"] + only, in: dir.url)
            #expect(a.status == 0 && b.status == 0, "\(a.stderr) \(b.stderr)")
            let files = dir.files("a")
            #expect(!files.isEmpty && files == dir.files("b"))
            for f in files {
                let x = try Data(contentsOf: dir.url.appendingPathComponent("a/" + f))
                let y = try Data(contentsOf: dir.url.appendingPathComponent("b/" + f))
                #expect(x == y, "\(f) differs between --preset \(name) and the written spec")
            }
        }

        let unknown = try CLI.run(["presets", "show", "nope", "--out", "x"], in: dir.url)
        #expect(unknown.status == 64 && unknown.stderr.contains("unknown preset \"nope\""))
        #expect(dir.files("x").isEmpty)
        #expect(try CLI.run(["presets", "--out", "x"], in: dir.url).status == 64)
    }

    @Test("a spec file renders, with its tokens and images beside it")
    func specFile() throws {
        let dir = TempFolder()
        dir.write("specs/t.json", """
        { "name": "mine", "control": "switch", "tokens": "t.tokens.json",
          "sizes": { "md": { "trackWidth": 40, "trackHeight": 24 } }, "states": ["off", "on"], "scales": [1],
          "dynamicTypeSizes": ["L", "AX5"],
          "themes": { "default": { "surface": "#FFFFFF", "trackOff": "{c.off}", "trackOn": "#34C759", "knob": "#FFFFFF" } } }
        """)
        dir.write("specs/t.tokens.json", ##"{ "c": { "off": { "$type": "color", "$value": "#8E8E93" } } }"##)
        let r = try CLI.run(["render", "--spec", "specs/t.json", "--out", "o"], in: dir.url)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(dir.files("o") == ["mine/switch-md/AX5/default/off@1x.png", "mine/switch-md/AX5/default/on@1x.png",
                                   "mine/switch-md/L/default/off@1x.png", "mine/switch-md/L/default/on@1x.png"])
    }

    @Test("bad input: exit 2, one message naming the file and key, nothing written")
    func badInput() throws {
        let dir = TempFolder()
        dir.write("bad.json", #"{ "name": "x", "control": "checkbox", "sizes": { "md": { "size": 20, "colour": 1 } }, "states": ["checked"], "themes": {} }"#)
        let r = try CLI.run(["render", "--spec", "bad.json", "--out", "o"], in: dir.url)
        #expect(r.status == 2)
        #expect(r.stderr.contains("bad.json"))
        #expect(r.stderr.contains("sizes.md.colour"))
        #expect(r.stderr.contains("unknown key"))
        #expect(dir.files("o").isEmpty)

        // A broken SVG: one line naming the spec, its key and the SVG, without librsvg's trailing blank line.
        dir.write("img/on.svg", #"<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24"/>"#)
        dir.write("img/off.svg", #"<svg xmlns="http://www.w3.org/2000/svg"><rect"#)
        dir.write("img.json", """
        { "name": "img", "control": "checkbox", "sizes": { "md": { "size": 44 } },
          "images": { "on": "img/on.svg", "off": "img/off.svg" }, "states": ["unchecked", "checked"],
          "themes": { "default": { "surface": "#FFFFFF", "tint": "#007AFF" } } }
        """)
        let svg = try CLI.run(["render", "--spec", "img.json", "--out", "o"], in: dir.url)
        #expect(svg.status == 2)
        #expect(svg.stderr.hasPrefix("glyphaudit: ") && svg.stderr.contains("img.json:2:"), "\(svg.stderr)")
        #expect(svg.stderr.contains(": images.off: ") && svg.stderr.contains("img/off.svg"))
        #expect(svg.stderr.hasSuffix("\n") && svg.stderr.filter { $0 == "\n" }.count == 1, "one line: \(svg.stderr)")
        #expect(dir.files("o").isEmpty)

        let missing = try CLI.run(["render", "--spec", "nope.json", "--out", "o"], in: dir.url)
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("nope.json") && missing.stderr.contains("no such file"))

        let preset = try CLI.run(["render", "--preset", "nope", "--out", "o"], in: dir.url)
        #expect(preset.status == 64)
        #expect(preset.stderr.contains("unknown preset \"nope\""))

        let only = try CLI.run(["render", "--only", "colour=red", "--out", "o"], in: dir.url)
        #expect(only.status == 64)
        #expect(only.stderr.contains("unknown --only key \"colour\""))

        let nothing = try CLI.run(["render", "--only", "theme=plaid", "--out", "o"], in: dir.url)
        #expect(nothing.status == 2)
        #expect(nothing.stderr.contains("no variant matches"))
        #expect(dir.files("o").isEmpty)
    }

    @Test("usage errors exit 64; --help and --version exit 0")
    func usage() throws {
        let dir = TempFolder()
        #expect(try CLI.run(["render", "--bogus"], in: dir.url).status == 64)
        #expect(try CLI.run(["frobnicate"], in: dir.url).status == 64)
        #expect(try CLI.run(["render", "--jobs", "0"], in: dir.url).status == 64)
        #expect(try CLI.run(["render", "--format", "gif"], in: dir.url).status == 64)
        let help = try CLI.run(["render", "--help"], in: dir.url)
        #expect(help.status == 0)
        #expect(help.stdout.contains("--only KEY=VALUE"))
        let top = try CLI.run(["--help"], in: dir.url)
        #expect(top.stdout.contains("render") && top.stdout.contains("presets"))
        let version = try CLI.run(["--version"], in: dir.url)
        #expect(version.status == 0 && version.stdout.hasPrefix("glyphaudit "))
    }

    @Test("render output is identical for --jobs 1 and --jobs 2")
    func jobs() throws {
        let dir = TempFolder()
        let args = ["render", "--only", "dynamic-type=AX3", "--only", "scale=3", "--format", "png,svg,pdf"]
        #expect(try CLI.run(args + ["--jobs", "1", "--out", "a"], in: dir.url).status == 0)
        #expect(try CLI.run(args + ["--jobs", "2", "--out", "b"], in: dir.url).status == 0)
        let a = dir.files("a")
        #expect(a == dir.files("b"))
        // At AX3 @3x: 12 + 12 + 32 + 9 variants (see the matrix counts; the SwiftUI presets' 6 and their
        // focused twins), three formats each.
        #expect(a.count == (12 + 12 + 32 + 9) * 3)
        for f in a {
            let x = try Data(contentsOf: dir.url.appendingPathComponent("a/" + f))
            let y = try Data(contentsOf: dir.url.appendingPathComponent("b/" + f))
            #expect(x == y, "\(f)")
        }
    }
}
