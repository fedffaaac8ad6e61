import Foundation
import Testing
import GlyphTestSupport

/// A resolver file through the binary: a cycle or an unknown context exits 2 with one message naming
/// file, line and key, and writes nothing; a good one exports one image per theme appearance.
@Suite("glyphaudit: DTCG resolver files")
struct CLIResolverTests {
    static let spec = """
    {
      "name": "resolved", "control": "checkbox",
      "sizes": { "md": { "size": 16, "cornerRadius": 4, "borderWidth": 1, "markSize": 10, "markWeight": 2 } },
      "states": ["unchecked", "checked"],
      "tokens": "RESOLVER",
      "themes": {
        "light": { "appearance": "light", "surface": "#FFFFFF", "border": "#6E7781", "fill": "{accent}", "mark": "#FFFFFF" },
        "dark": { "appearance": "dark", "tokensContext": { "theme": "CONTEXT" }, "surface": "#0D1117", "border": "#8B949E", "fill": "{accent}", "mark": "#FFFFFF" }
      }
    }
    """

    static let resolver = """
    {
      "version": "2025.10",
      "modifiers": { "theme": { "contexts": {
        "light": [ { "accent": { "$type": "color", "$value": "#0969da" } } ],
        "dark": [ { "accent": { "$type": "color", "$value": "#1f6feb" } } ] }, "default": "light" } },
      "resolutionOrder": [ { "$ref": "#/modifiers/theme" } ]
    }
    """

    @Test("bad resolver input exits 2, names file, line and key, writes nothing; a good one exports by appearance")
    func resolver() throws {
        let dir = TempFolder()
        dir.write("t.resolver.json", Self.resolver)
        dir.write("cycle.resolver.json", """
        {
          "version": "2025.10",
          "sets": { "a": { "sources": [ { "$ref": "#/sets/a" } ] } },
          "resolutionOrder": [ { "$ref": "#/sets/a" } ]
        }
        """)
        func spec(_ resolver: String, _ context: String) -> String {
            Self.spec.replacingOccurrences(of: "RESOLVER", with: resolver).replacingOccurrences(of: "CONTEXT", with: context)
        }
        dir.write("cycle.json", spec("cycle.resolver.json", "dark"))
        dir.write("dim.json", spec("t.resolver.json", "dim"))
        dir.write("good.json", spec("t.resolver.json", "dark"))
        let before = dir.files()
        let cycle = try CLI.run(["export", "--spec", "cycle.json", "--xcassets", "Out.xcassets"], in: dir.url)
        #expect(cycle.status == 2)
        #expect(cycle.stderr.contains("cycle.resolver.json:3:") && cycle.stderr.contains("sets.a.sources[0].$ref: circular reference: #/sets/a → #/sets/a"),
                "\(cycle.stderr)")
        let dim = try CLI.run(["render", "--spec", "dim.json", "--out", "renders"], in: dir.url)
        #expect(dim.status == 2)
        #expect(dim.stderr.contains("dim.json:8:") && dim.stderr.contains("themes.dark.tokensContext.theme: unknown context \"dim\""), "\(dim.stderr)")
        #expect(dir.files() == before, "nothing written")

        let good = try CLI.run(["export", "--spec", "good.json", "--xcassets", "Out.xcassets", "--only", "state=checked"], in: dir.url)
        #expect(good.status == 0, "\(good.stderr)")
        let set = dir.url.appendingPathComponent("Out.xcassets/resolved/square-md-checked.imageset")
        let names = try FileManager.default.contentsOfDirectory(atPath: set.path).sorted()
        #expect(names == ["Contents.json", "square-md-checked-dark.png", "square-md-checked-dark@2x.png", "square-md-checked-dark@3x.png",
                          "square-md-checked.png", "square-md-checked@2x.png", "square-md-checked@3x.png"])
    }
}
