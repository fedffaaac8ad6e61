import Foundation
import Testing
import GlyphAudit
import GlyphColor
import GlyphCore
import GlyphRaster
import GlyphRender
import GlyphTestSupport
import GlyphRenderTestSupport

@Suite("Scene: what a variant draws, resolved once")
struct SceneTests {
    static func scene(_ spec: Spec, _ id: String) throws -> Scene {
        let item = try #require(try Plan(specs: [spec]).items.first { $0.variant.id == id }, "no variant \(id)")
        return item.scene
    }

    @Test("a preset's token colour carries its key path, spec line, alias chain and token line")
    func tokenSource() throws {
        let spec = try Presets.load("design-system-checkbox")
        let scene = try Self.scene(spec, "design-system-checkbox/square-md/L/default/checked@2x")
        #expect(scene.parts.map(\.kind) == [.surface, .fill, .mark, .label])
        let fill = try #require(scene.part(.fill)?.color)
        #expect(fill.authored.hex == "#E00800")
        #expect(fill.source.keyPath == "themes.default.fill")
        #expect(fill.source.file == spec.sourceFile ?? spec.name)
        // Assets/presets/design-system-checkbox.json:21, via {mark.default.surface.selected} → {color.brand.red},
        // whose value is on line 7 of Assets/tokens/design-system.tokens.json.
        #expect(fill.source.line == 21)
        #expect(fill.source.token == "{mark.default.surface.selected}")
        #expect(fill.source.aliasChain == ["mark.default.surface.selected", "color.brand.red"])
        #expect(fill.source.tokenFile == spec.tokenFile)
        #expect(fill.source.tokenLine == 7)
        #expect(fill.source.aliasLines == [22, 7], "mark.default.surface.selected on line 22 names color.brand.red on line 7")
        #expect(fill.source.value == "#E00800")
        let surface = try #require(scene.surface?.color)
        #expect(surface.source.keyPath == "themes.default.surface" && surface.source.line == 19)
        #expect(surface.source.aliasChain == ["color.white"])
        // The tick is drawn on the fill: seen over it.
        #expect(scene.part(.mark)?.beneath == .fill && scene.part(.mark)?.name == "tick")
        // A finding's location is the part's source, at the token the spec names (line 22), with the chain.
        let location = FindingLocation(fill.source)
        #expect(location.keyPath == "themes.default.fill" && location.line == 21 && location.tokenLine == 22)
        #expect(location.aliasChain == [.init(token: "{mark.default.surface.selected}", line: 22), .init(token: "{color.brand.red}", line: 7)])
        #expect(location.aliasValue == "#E00800")
    }

    @Test("a literal colour and a state's override: key path and line as written, no token")
    func literalSource() throws {
        let themes = ##"{ "default": { "surface": "#FFFFFF", "border": "#767676", "fill": "#E00800", "mark": "#FFFFFF",\##n"states": { "checked": { "fill": "#0000FF" } } } }"##
        let spec = try loadSpec(checkboxSpec(themes: themes)).get()
        let checked = try Self.scene(spec, "t/square-md/L/default/checked@1x")
        let fill = try #require(checked.part(.fill)?.color)
        #expect(fill.authored.hex == "#0000FF")
        #expect(fill.source.keyPath == "themes.default.states.checked.fill")
        #expect(fill.source.line == spec.lines["themes.default.states.checked.fill"])
        #expect(fill.source.line != nil && fill.source.token == nil && fill.source.aliasChain.isEmpty && fill.source.tokenFile == nil)
        let unchecked = try Self.scene(spec, "t/square-md/L/default/unchecked@1x")
        #expect(unchecked.parts.map(\.kind) == [.surface, .ring])
        let ring = try #require(unchecked.part(.ring))
        #expect(ring.color?.source.keyPath == "themes.default.border" && ring.lineWidth == 1.5 && ring.cornerRadius == 4)
    }

    @Test("seen colours are composited over the seen colour beneath: a translucent label, a knob on its track")
    func seenColours() throws {
        let spec = try Presets.load("swiftui-switch")
        let scene = try Self.scene(spec, "swiftui-switch/switch-md/L/disabled/off@1x")
        #expect(scene.parts.map(\.kind) == [.surface, .track, .knob, .label])
        let label = try #require(scene.label?.color)
        #expect(label.authored.hex == "#3C3C434C")
        // #3C3C43 at alpha 0x4C over white: c · a + 1 · (1 − a) per channel.
        let a = 0x4C / 255.0
        func over(_ c: Int) -> Double { Double(c) / 255 * a + (1 - a) }
        #expect(abs(label.seen.r - over(0x3C)) < 1e-9 && abs(label.seen.b - over(0x43)) < 1e-9 && label.seen.a == 1)
        #expect(label.seen.hex == "#C5C5C7")
        let knob = try #require(scene.part(.knob))
        #expect(knob.beneath == .track && knob.shape == .circle && knob.color?.authored.hex == "#FFFFFF")
        #expect(scene.part(.track)?.name == "off track" && scene.part(.track)?.color?.source.keyPath == "themes.disabled.trackOff")
    }

    @Test("the renderer draws the scene's parts in their colours: a part recoloured in the scene is drawn so")
    func rendersScene() throws {
        let spec = try Presets.load("design-system-checkbox")
        var scene = try Self.scene(spec, "design-system-checkbox/square-md/L/default/checked@2x")
        let i = try #require(scene.parts.firstIndex { $0.kind == .fill })
        let fill = scene.parts[i].rect
        // Inside the 20 pt box, 2 pt from its left side: the 12 pt tick's square starts 4 pt in.
        let x = Int((fill.minX + 2) * 2), y = Int(fill.midY * 2)
        #expect(Renderer.raster(scene).color(x, y).hex == "#E00800")
        scene.parts[i].color?.authored = RGBA(r: 0, g: 0, b: 1)
        #expect(Renderer.raster(scene).color(x, y).hex == "#0000FF")
        // The label and the surface are not where the fill is: the canvas corner keeps the surface.
        #expect(Renderer.raster(scene).color(0, 0).hex == "#FFFFFF")
    }

    @Test("an image part and the theme carry where they were written: images.KEY and themes.NAME with their lines")
    func imageAndThemeSource() throws {
        let spec = try Presets.load("rvs-checkbox")
        let scene = try Self.scene(spec, "rvs-checkbox/square-md/L/default/checked@1x")
        let image = try #require(scene.image?.image)
        #expect(image.key == "on" && image.source.keyPath == "images.on")
        // Assets/presets/rvs-checkbox.json: "on" on line 10, the default theme on line 19.
        #expect(image.source.line == 10)
        #expect(scene.themeSource.keyPath == "themes.default" && scene.themeSource.line == 19)
        #expect(scene.themeSource.file == spec.sourceFile ?? spec.name)
    }
}

@Suite("Finding.variant is a VariantID")
struct FindingVariantTests {
    @Test("written as the same text: a group id, a complete id, and an incomplete one read back as it was")
    func roundTrip() throws {
        for text in ["swiftui-switch/switch-md/*/default/off@*x", "t/square-md/L/default/checked@2x", "stale/file", ""] {
            let f = Finding(rule: "r", severity: .error, criterion: nil, variant: VariantID(parsing: text), subject: "s", message: "m")
            let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(f)) as? [String: Any]
            #expect(json?["variant"] as? String == text)
            let back = try JSONDecoder().decode(Finding.self, from: JSONEncoder().encode(f))
            #expect(back.variant == f.variant && back.variant.description == text)
        }
        let group: VariantID = "swiftui-switch/switch-md/*/default/off@*x"
        #expect(group.hasWildcard && group.isComplete && group.dynamicType == VariantID.any)
        #expect(!VariantID(parsing: "t/square-md/L/default/checked@2x").hasWildcard)
    }
}
