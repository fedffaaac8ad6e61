import Foundation
import Testing
import GlyphTestSupport

@Suite("CLI: focus")
struct CLIFocusTests {
    static func spec(_ focus: String) -> String {
        """
        {"name": "f", "control": "checkbox",
         "sizes": {"md": {"size": 20, "cornerRadius": 4, "borderWidth": 2}},
         "states": ["unchecked", "checked"], "scales": [1], "dynamicTypeSizes": ["L"],
         "focus": \(focus),
         "themes": {"default": {"surface": "#FFFFFF", "border": "#000000", "fill": "#0055CC", "mark": "#FFFFFF"}}}
        """
    }

    @Test("a negative focus width is bad input: exit 2, file, line and key path, nothing written")
    func negativeWidth() throws {
        let dir = TempFolder()
        dir.write("spec.json", Self.spec(#"{"width": -1}"#))
        let r = try CLI.run(["render", "--spec", "spec.json", "--out", "out"], in: dir.url)
        #expect(r.status == 2)
        #expect(r.stderr.contains("spec.json:4:") && r.stderr.contains("focus.width"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.url.appendingPathComponent("out").path))
    }

    @Test("an unknown `around` names the valid values; exit 2, nothing written")
    func unknownAround() throws {
        let dir = TempFolder()
        dir.write("spec.json", Self.spec(#"{"around": "box"}"#))
        let r = try CLI.run(["render", "--spec", "spec.json", "--out", "out"], in: dir.url)
        #expect(r.status == 2)
        #expect(r.stderr.contains("focus.around") && r.stderr.contains("glyph, frame"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.url.appendingPathComponent("out").path))
    }

    @Test("--only focus=focused renders the focused variants alone; `rules explain focus-indicator` explains the rule")
    func onlyFocused() throws {
        let dir = TempFolder()
        dir.write("spec.json", Self.spec("true"))
        let r = try CLI.run(["render", "--spec", "spec.json", "--out", "out", "--only", "focus=focused"], in: dir.url)
        #expect(r.status == 0, "\(r.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.url.appendingPathComponent("out/f/square-md/L/default").path).sorted()
        #expect(files == ["checked+focused@1x.png", "unchecked+focused@1x.png"])
        let e = try CLI.run(["rules", "explain", "focus-indicator"], in: dir.url)
        #expect(e.status == 0 && e.stdout.contains("2.4.13"), "\(e.stderr)")
    }
}
