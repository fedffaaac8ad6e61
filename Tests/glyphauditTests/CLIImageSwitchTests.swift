import Foundation
import Testing
import GlyphTestSupport

// An image switch (toggle icons) end to end: lucide's real toggle-left / toggle-right
// (Tests/Fixtures/icons/lucide/toggle) as `"control": "switch"`, run as the built binary.

@Suite("glyphaudit with an image switch")
struct CLIImageSwitchTests {
    static let lucide = TestPaths.fixture("icons/lucide/toggle")

    /// A folder with lucide's toggle pair and `toggle.json` naming them.
    static func folder(images: String = #""off": "off.svg", "on": "on.svg""#) throws -> TempFolder {
        let dir = TempFolder()
        for name in ["off.svg", "on.svg"] {
            dir.write(name, try String(contentsOf: lucide.appendingPathComponent(name), encoding: .utf8))
        }
        dir.write("toggle.json", """
        {
          "name": "lucide-toggle",
          "control": "switch",
          "sizes": { "s16": { "size": 16 }, "s24": { "size": 24 } },
          "images": { \(images) },
          "states": ["off", "on"],
          "scales": [1, 2],
          "dynamicTypeSizes": ["L"],
          "themes": {
            "default": { "surface": "#FFFFFF", "tint": "#1A1A1A" },
            "inverse": { "surface": "#000000", "tint": "#F2F2F2" }
          }
        }
        """)
        return dir
    }

    @Test("audit --spec toggle.json: audited as a switch; only the 16 pt and 24 pt image boxes are too small to hit")
    func audit() throws {
        let dir = try Self.folder()
        let r = try CLI.run(["audit", "--spec", "toggle.json", "--json"], in: dir.url)
        #expect(r.status == 1, "the 16 pt hit area is an error: \(r.stderr)")
        #expect(r.stderr.contains("audited 16 variants of 1 preset with 7 rules"), "2 sizes × 2 themes × 2 states × 2 scales: \(r.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let findings = try #require(object["findings"] as? [[String: Any]])
        // The knob moves (state-shape passes), #1A1A1A on white and #F2F2F2 on black reach 3:1: only target size.
        #expect(findings.map { $0["rule"] as? String } == ["target-size", "target-size"], "\(findings)")
        let error = try #require(findings.first { $0["severity"] as? String == "error" })
        #expect(error["variant"] as? String == "lucide-toggle/switch-s16/L/*/*@*x")
        #expect(error["criterion"] as? String == "2.5.8")
        let numbers = try #require(error["numbers"] as? [String: Double])
        #expect(numbers["width"] == 16 && numbers["height"] == 16 && numbers["minimum"] == 24)
        let warning = try #require(findings.first { $0["severity"] as? String == "warning" })
        #expect(warning["variant"] as? String == "lucide-toggle/switch-s24/L/*/*@*x")
        #expect((warning["numbers"] as? [String: Double])?["width"] == 24)
        let summary = try #require(object["summary"] as? [String: Any])
        #expect(summary["error"] as? Int == 1 && summary["warning"] as? Int == 1)

        // Rendered under switch ids, and exported as switch image sets.
        #expect(try CLI.run(["render", "--spec", "toggle.json", "--out", "out", "--quiet"], in: dir.url).status == 0)
        #expect(dir.files("out").filter { $0.hasSuffix(".png") }.contains("lucide-toggle/switch-s24/L/default/on@2x.png"))
        let export = try CLI.run(["export", "--xcassets", "T.xcassets", "--spec", "toggle.json", "--quiet"], in: dir.url)
        #expect(export.status == 0, "\(export.stderr)")
        #expect(dir.files("T.xcassets").contains("lucide-toggle/switch-s16-off.imageset/Contents.json"))
    }

    @Test("clear, threeState or useOffImageForClear on a switch: exit 2, the key and its line named, no output",
          arguments: [#""clear": "on.svg""#, #""threeState": true"#, #""useOffImageForClear": false"#])
    func threeStateKeyRefused(_ extra: String) throws {
        let dir = try Self.folder(images: #""off": "off.svg", "on": "on.svg", "# + extra)
        let key = String(extra.split(separator: "\"")[0])
        let r = try CLI.run(["audit", "--spec", "toggle.json", "--json"], in: dir.url)
        #expect(r.status == 2)
        #expect(r.stdout.isEmpty, "no partial output: \(r.stdout)")
        #expect(r.stderr.contains("toggle.json:5:"), "\(r.stderr)")
        #expect(r.stderr.contains("images.\(key): \"\(key)\" is for a three-state image checkbox; a switch has the states off and on"),
                "\(r.stderr)")
        let render = try CLI.run(["render", "--spec", "toggle.json", "--out", "out"], in: dir.url)
        #expect(render.status == 2 && !dir.files().contains { $0.hasPrefix("out/") })
    }
}
