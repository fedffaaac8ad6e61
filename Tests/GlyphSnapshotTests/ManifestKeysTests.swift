import Foundation
import Testing
import GlyphCore
import GlyphSnapshot

// The manifest's keys table after a partial write (SnapshotManifest.setKeys): a key keeps its recorded
// value while an entry left as it was was written with it.

@Suite("SnapshotManifest.setKeys: the recorded values entries left as they were still need")
struct ManifestKeysTests {
    /// A variant's keys' digest by its definition (docs/snapshots.md): the SHA-256 of one `key=value`
    /// line per key that feeds it, sorted.
    static func digest(_ lines: [String]) -> String { SHA256.hex(lines.sorted().map { $0 + "\n" }.joined()) }

    static let sm = "p/square-sm/L/default/checked@1x"
    static let md = "p/square-md/L/default/checked@1x"
    static let mdFocused = "p/square-md/L/dark+boldText/checked+focused@2x"

    func manifest() -> SnapshotManifest {
        var m = SnapshotManifest()
        // `g` feeds every variant; `sizes.sm.w` the sm ones; `themes.default.c` those of theme default.
        m.keys["p"] = ["g": "x", "sizes.sm.w": "1", "sizes.md.w": "2", "themes.default.c": "#FFFFFF", "themes.dark.c": "#000000"]
        m.keys["q"] = ["g": "y"]
        m.variants[Self.sm] = .init(digest: "d1", keys: Self.digest(["g=x", "sizes.sm.w=1", "themes.default.c=#FFFFFF"]), renderer: "r")
        m.variants[Self.md] = .init(digest: "d2", keys: Self.digest(["g=x", "sizes.md.w=2", "themes.default.c=#FFFFFF"]), renderer: "r")
        m.variants[Self.mdFocused] = .init(digest: "d3", keys: Self.digest(["g=x", "sizes.md.w=2", "themes.dark.c=#000000"]), renderer: "r")
        return m
    }

    static let now = ["g": "x", "sizes.sm.w": "3", "sizes.md.w": "4", "themes.default.c": "#FFFFFF", "themes.dark.c": "#000000"]

    @Test("sm rewritten, md left: sizes.md.w keeps 2, sizes.sm.w becomes 3; another preset is untouched")
    func partial() {
        var m = manifest()
        m.setKeys(["p": Self.now], rewritten: [Self.sm])
        #expect(m.keys["p"] == ["g": "x", "sizes.sm.w": "3", "sizes.md.w": "2", "themes.default.c": "#FFFFFF", "themes.dark.c": "#000000"])
        #expect(m.keys["q"] == ["g": "y"])
    }

    @Test("every entry rewritten: the values now")
    func whole() {
        var m = manifest()
        m.setKeys(["p": Self.now], rewritten: [Self.sm, Self.md, Self.mdFocused])
        #expect(m.keys["p"] == Self.now)
    }

    @Test("a key that feeds a left entry of a display setting and focus (`dark+boldText`, `checked+focused`) keeps its value")
    func settingAndFocus() {
        var m = manifest()
        var now = Self.now
        now["sizes.md.w"] = "2"
        now["themes.dark.c"] = "#111111"
        m.setKeys(["p": now], rewritten: [Self.sm, Self.md])
        #expect(m.keys["p"]?["themes.dark.c"] == "#000000")
        #expect(m.keys["p"]?["sizes.sm.w"] == "3")
    }

    @Test("a left entry that is not live (a stale baseline), whose digest the table does not explain, or whose id is incomplete keeps no key")
    func nothingKept() {
        var m = manifest()
        m.setKeys(["p": Self.now], rewritten: [Self.sm]) { $0 != Self.md && $0 != Self.mdFocused }
        #expect(m.keys["p"] == Self.now)

        m = manifest()
        m.variants[Self.md]!.keys = Self.digest(["g=x", "sizes.md.w=9", "themes.default.c=#FFFFFF"])
        m.variants[Self.mdFocused] = nil
        m.variants["p/junk"] = .init(digest: "d4", keys: "k", renderer: "r")
        m.setKeys(["p": Self.now], rewritten: [Self.sm])
        #expect(m.keys["p"] == Self.now)
    }

    @Test("a key added since (not in the recorded table) is left out while a left entry was written without it")
    func addedKey() {
        var m = manifest()
        var now = Self.now
        now["sizes.md.extra"] = "5"
        m.setKeys(["p": now], rewritten: [Self.sm])
        #expect(m.keys["p"]?["sizes.md.extra"] == nil && m.keys["p"]?["sizes.md.w"] == "2")
    }
}
