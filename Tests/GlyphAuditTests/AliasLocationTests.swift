import Foundation
import Testing
@testable import GlyphAudit
@testable import GlyphCore
import GlyphColor
import GlyphTestSupport
import GlyphRenderTestSupport

// A finding whose colour came through token aliases points at the token the spec names and keeps
// the chain, each token with the line of its value.

@Suite("Finding locations through token alias chains")
struct AliasLocationTests {
    /// Lines: `base.grey` holds the value on line 3, `ring` names it on line 4, `control.border`
    /// names `ring` on line 5; `plain` holds a value itself on line 6.
    static let tokens = """
    {
      "base": { "$type": "color",
        "grey": { "$value": "#C4C4C4" } },
      "ring": { "$value": "{base.grey}", "$type": "color" },
      "control": { "border": { "$value": "{ring}" } },
      "plain": { "$value": "#D0D0D0", "$type": "color" }
    }
    """

    static func spec(border: String) -> String {
        """
        { "name": "chain", "control": "checkbox", "tokens": "t.tokens.json",
          "sizes": { "md": { "size": 20, "borderWidth": 2 } },
          "states": ["unchecked", "checked"], "scales": [1], "dynamicTypeSizes": ["L"],
          "themes": { "default": { "surface": "#FFFFFF", "border": "\(border)", "fill": "#000000", "mark": "#FFFFFF" } } }
        """
    }

    @Test("the loader records each token of the chain with its line")
    func recorded() throws {
        let spec = try loadSpec(Self.spec(border: "{control.border}"), files: ["t.tokens.json": Self.tokens]).get()
        let border = try #require(spec.themes.first?.colors[.border])
        #expect(border.token == "{control.border}")
        #expect(border.aliasChain == ["control.border", "ring", "base.grey"])
        #expect(border.aliasLines == [5, 4, 3])
        #expect(border.rgba.hex == "#C4C4C4")
    }

    @Test("a contrast finding through a chain points at the token the spec names, with the chain and the value")
    func chained() throws {
        let s = try AuditScene(Self.spec(border: "{control.border}"), files: ["t.tokens.json": Self.tokens])
        let f = try #require(s.run(NonTextContrastRule()).first { $0.location?.token != nil })
        let l = try #require(f.location)
        #expect(l.keyPath == "themes.default.border" && l.line == 4)
        #expect(l.token == "{control.border}" && l.tokenFile?.hasSuffix("t.tokens.json") == true)
        #expect(l.tokenLine == 5, "the token the spec names, not base.grey's line 3")
        #expect(l.aliasChain == [.init(token: "{control.border}", line: 5), .init(token: "{ring}", line: 4), .init(token: "{base.grey}", line: 3)])
        #expect(l.aliasValue == "#C4C4C4")
        #expect(l.description.hasSuffix("t.tokens.json:5 → {ring} (t.tokens.json:4) → {base.grey} (t.tokens.json:3) → #C4C4C4"), "\(l.description)")
        #expect(f.suggestion?.token == "{control.border}")
    }

    @Test("a token that holds its value itself: located as before, no chain")
    func direct() throws {
        let s = try AuditScene(Self.spec(border: "{plain}"), files: ["t.tokens.json": Self.tokens])
        let f = try #require(s.run(NonTextContrastRule()).first { $0.location?.token != nil })
        let l = try #require(f.location)
        #expect(l.tokenLine == 6 && l.aliasChain == nil && l.aliasValue == nil)
        #expect(l.description.hasSuffix("via {plain} in \(l.tokenFile!):6"), "\(l.description)")
        #expect(l.chainText == "")
    }

    @Test("JSON: the chain is written only when there is one")
    func json() throws {
        let chained = FindingLocation(file: "s.json", line: 5, keyPath: "themes.default.border", token: "{a}", tokenFile: "t.json", tokenLine: 9,
                                      aliasChain: [.init(token: "{a}", line: 9), .init(token: "{b}", line: 2)], aliasValue: "#C4C4C4")
        let back = try JSONDecoder().decode(FindingLocation.self, from: JSONEncoder().encode(chained))
        #expect(back == chained)
        let plain = FindingLocation(file: "s.json", line: 5, keyPath: "themes.default.border")
        let text = String(decoding: try JSONEncoder().encode(plain), as: UTF8.self)
        #expect(!text.contains("aliasChain") && !text.contains("aliasValue"))
    }
}
