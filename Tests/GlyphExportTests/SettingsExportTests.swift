import Foundation
import Testing
import GlyphColor
import GlyphCore
import GlyphExport
import GlyphPipeline
import GlyphRender
import GlyphTestSupport

/// Increase Contrast in the asset catalog (issue 21 item 3): a spec whose `settings` names
/// `increaseContrast` fills the high-contrast appearance with its light theme drawn under the setting.
@Suite("Export: Increase Contrast fills the high-contrast appearances")
struct SettingsExportTests {
    static func spec(_ settings: String) -> String {
        """
        {"name": "sw", "control": "switch",
         "sizes": {"md": {"trackWidth": 51, "trackHeight": 31, "knobDiameter": 27, "knobInset": 2}},
         "states": ["off", "on"],
         "themes": {"default": {"surface": "#FFFFFF", "trackOff": "#767676", "trackOn": "#248A3D", "knob": "#FFFFFF"}}\(settings)}
        """
    }

    static func load(_ json: String) throws -> Spec {
        let folder = TempFolder()
        return try Spec.load(contentsOf: folder.write("spec.json", json))
    }

    @Test("any ← default; high contrast ← default under Increase Contrast (its patched #595959 track); none without settings")
    func highContrast() throws {
        let plain = try Self.load(Self.spec(""))
        let p = try AssetCatalog(specs: [plain])
        #expect(p.imageSets.allSatisfy { $0.images.allSatisfy { $0.appearance == AssetCatalog.Appearance.any } })
        let spec = try Self.load(Self.spec(##", "settings": {"increaseContrast": {"themes": {"default": {"trackOff": "#595959"}}}}"##))
        let catalog = try AssetCatalog(specs: [spec])
        let off = try #require(catalog.imageSets.first { $0.name == "switch-md-off" })
        #expect(off.images.map { $0.appearance } == [AssetCatalog.Appearance.any, .highContrast, .any, .highContrast, .any, .highContrast])
        let high = try #require(off.images.first { $0.appearance == .highContrast })
        #expect(high.layout.variant.setting == .increaseContrast)
        #expect(high.spec.theme(named: "default")?.colors[.trackOff]?.rgba.hex == "#595959")
        #expect(off.images.first?.spec.theme(named: "default")?.colors[.trackOff]?.rgba.hex == "#767676")
    }
}
