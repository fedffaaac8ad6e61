import Foundation
import Testing
@testable import GlyphCore
import GlyphColor
import GlyphRender
import GlyphTestSupport

// DTCG 2025.10 Resolver files. The fixture `Tests/Fixtures/tokens/resolver/` is built from a real
// token file, Terrazzo's `mode-type-color` (Primer's blues, verbatim in `tokens/`): the resolver's
// base set is that file, its `theme` modifier has one context per mode the file gives in
// `$extensions.mode`, each a token file holding those per-mode values as written (see
// tokens/resolver/README.md). The expected colours are the file's own: `expected.json`'s values for the
// default (light) mode, and the `hex` each mode's colour object carries in the source for the others.

@Suite("Tokens: DTCG resolver files")
struct TokenResolverTests {
    static let fixture = TestPaths.fixture("tokens")

    /// A folder holding the fixture (`tokens/…`, as in the repository) and `spec/spec.json`.
    func folder(spec: String, extra: [String: String] = [:]) -> TempFolder {
        let f = TempFolder()
        for name in ["terrazzo-mode-type-color.tokens.json", "resolver/primer.resolver.json", "resolver/primer-light.tokens.json",
                     "resolver/primer-dark.tokens.json", "resolver/primer-light-high-contrast.tokens.json",
                     "resolver/primer-dark-high-contrast.tokens.json"] {
            f.write("tokens/" + name, try! Data(contentsOf: Self.fixture.appendingPathComponent(name)))
        }
        for (name, text) in extra { f.write(name, text) }
        f.write("spec/spec.json", spec)
        return f
    }

    func spec(tokens: String = "../tokens/resolver/primer.resolver.json", themes: String) -> String {
        """
        {
          "name": "primer-blue",
          "control": "checkbox",
          "tokens": "\(tokens)",
          "sizes": { "md": { "size": 16, "cornerRadius": 4, "borderWidth": 1, "markSize": 10, "markWeight": 2 } },
          "states": ["unchecked", "checked"],
          "themes": \(themes)
        }
        """
    }

    func load(_ f: TempFolder) throws(InputError) -> Spec { try Spec.load(contentsOf: f.url.appendingPathComponent("spec/spec.json")) }

    func hex(_ c: AuthoredColor?) -> String {
        guard let c else { return "none" }
        return c.rgba.hex.lowercased()
    }

    @Test("each theme picks a context: one token set gives light, dark and both high-contrast themes, as the file's modes say")
    func contexts() throws {
        let themes = ##"""
        {
          "default": { "surface": "#FFFFFF", "border": "{color.blue.7}", "fill": "{accent}", "mark": "{color.text-action}" },
          "dark": { "appearance": "dark", "tokensContext": { "theme": "dark" },
                    "surface": "#0D1117", "border": "{color.blue.7}", "fill": "{accent}", "mark": "{color.text-action}" },
          "light-hc": { "appearance": "light-high-contrast", "tokensContext": { "theme": "light-high-contrast" },
                        "surface": "#FFFFFF", "border": "{color.blue.7}", "fill": "{accent}", "mark": "{focus}" },
          "dark-hc": { "appearance": "dark-high-contrast", "tokensContext": { "theme": "dark-high-contrast" },
                       "surface": "#010409", "border": "{color.blue.7}", "fill": "{accent}", "mark": "{focus}" }
        }
        """##
        let f = folder(spec: spec(themes: themes))
        let s = try load(f)
        func colour(_ theme: String, _ role: ColorRole) -> String { hex(s.theme(named: theme)?.colors[role]) }
        // color.blue.5 (through {accent}, an inline source after the modifier): the light value is
        // expected.json's; dark #1f6feb, light-high-contrast #0349b4, dark-high-contrast #409eff are
        // the hex of the source's $extensions.mode entries.
        #expect(colour("default", .fill) == "#0969da")
        #expect(colour("dark", .fill) == "#1f6feb")
        #expect(colour("light-hc", .fill) == "#0349b4")
        #expect(colour("dark-hc", .fill) == "#409eff")
        // color.blue.7 per mode: #033d8b, #0d419d, #022f7a, #2672f3.
        #expect(colour("default", .border) == "#033d8b")
        #expect(colour("dark", .border) == "#0d419d")
        #expect(colour("light-hc", .border) == "#022f7a")
        #expect(colour("dark-hc", .border) == "#2672f3")
        // An alias whose target changes with the mode: color.text-action is {color.blue.6} in light
        // (expected.json: #0550ae) and {color.blue.5} in dark (#1f6feb there).
        #expect(colour("default", .mark) == "#0550ae")
        #expect(colour("dark", .mark) == "#1f6feb")
        // {focus} → color.control.border-focus: light {color.blue.7} → light-high-contrast's #022f7a;
        // dark {color.blue.6} → dark-high-contrast's #318bf8.
        #expect(colour("light-hc", .mark) == "#022f7a")
        #expect(colour("dark-hc", .mark) == "#318bf8")
        // The finding's location names the token the spec names, in the file that declares it:
        // `accent` is an inline source of the resolver itself, in every context.
        let dark = try #require(s.theme(named: "dark")?.colors[.fill])
        #expect(dark.tokenFile?.hasSuffix("tokens/resolver/primer.resolver.json") == true, "\(String(describing: dark.tokenFile))")
        #expect(dark.aliasChain == ["accent", "color.blue.5"])
        let light = try #require(s.theme(named: "default")?.colors[.fill])
        #expect(light.tokenFile?.hasSuffix("tokens/resolver/primer.resolver.json") == true)
        // Keys outside themes and a theme without tokensContext read the default context (light);
        // the five-step alias chain of the base file still resolves (expected.json: #0550ae).
        let s2 = try load(folder(spec: spec(themes: ##"{ "default": { "surface": "#FFFFFF", "border": "{color.alias-5}", "fill": "{accent}", "mark": "#FFFFFF" } }"##)))
        #expect(hex(s2.theme(named: "default")?.colors[.border]) == "#0550ae")
        // The chain starts in the base file (the token the spec names, so the location) and ends at
        // color.blue.6, which the light context's file declares again (later sources win).
        #expect(s2.theme(named: "default")?.colors[.border]?.aliasChain.first == "color.alias-5")
        #expect(s2.theme(named: "default")?.colors[.border]?.tokenFile?.hasSuffix("tokens/terrazzo-mode-type-color.tokens.json") == true,
                "\(String(describing: s2.theme(named: "default")?.colors[.border]?.tokenFile))")
    }

    /// The error loading `spec` (with `extra` files) gives.
    func failure(_ spec: String, extra: [String: String] = [:]) -> InputError? {
        do { _ = try load(folder(spec: spec, extra: extra)); return nil } catch { return error }
    }

    static let okTheme = ##"{ "default": { "surface": "#FFFFFF", "border": "#767676", "fill": "{accent}", "mark": "#FFFFFF" } }"##

    @Test("bad resolver input: a cycle, a missing file or set, an unknown modifier or context, a context without a resolver")
    func badInput() throws {
        func resolver(_ body: String) -> [String: String] { ["tokens/bad.resolver.json": body] }
        let bad = spec(tokens: "../tokens/bad.resolver.json", themes: Self.okTheme)

        let cycle = try #require(failure(bad, extra: resolver("""
        {
          "version": "2025.10",
          "sets": {
            "a": { "sources": [ { "$ref": "#/sets/b" } ] },
            "b": { "sources": [ { "$ref": "#/sets/a" } ] }
          },
          "resolutionOrder": [ { "$ref": "#/sets/a" } ]
        }
        """)))
        #expect(cycle.file.hasSuffix("tokens/bad.resolver.json") && cycle.line == 5, "\(cycle)")
        #expect(cycle.keyPath == "sets.b.sources[0].$ref" && cycle.message.contains("circular reference: #/sets/a → #/sets/b → #/sets/a"), "\(cycle)")

        let missingFile = try #require(failure(bad, extra: resolver("""
        {
          "version": "2025.10",
          "resolutionOrder": [
            { "type": "set", "name": "base", "sources": [ { "$ref": "nowhere.tokens.json" } ] }
          ]
        }
        """)))
        #expect(missingFile.file.hasSuffix("tokens/bad.resolver.json") && missingFile.line == 4, "\(missingFile)")
        #expect(missingFile.keyPath == "resolutionOrder[0].sources[0].$ref" && missingFile.message.contains("nowhere.tokens.json not found"), "\(missingFile)")

        let missingSet = try #require(failure(bad, extra: resolver("""
        {
          "version": "2025.10",
          "sets": { "base": { "sources": [] } },
          "resolutionOrder": [ { "$ref": "#/sets/base" }, { "$ref": "#/sets/brand" } ]
        }
        """)))
        #expect(missingSet.line == 4 && missingSet.keyPath == "resolutionOrder[1].$ref", "\(missingSet)")
        #expect(missingSet.message.contains("\"#/sets/brand\" points at nothing"), "\(missingSet)")

        let modifierInSet = try #require(failure(bad, extra: resolver("""
        {
          "version": "2025.10",
          "sets": { "base": { "sources": [ { "$ref": "#/modifiers/theme" } ] } },
          "modifiers": { "theme": { "contexts": { "light": [] } } },
          "resolutionOrder": [ { "$ref": "#/sets/base" } ]
        }
        """)))
        #expect(modifierInSet.message.contains("only resolutionOrder may name one"), "\(modifierInSet)")

        let badDefault = try #require(failure(bad, extra: resolver("""
        {
          "version": "2025.10",
          "modifiers": { "theme": { "contexts": { "light": [], "dark": [] }, "default": "dim" } },
          "resolutionOrder": [ { "$ref": "#/modifiers/theme" } ]
        }
        """)))
        #expect(badDefault.keyPath == "modifiers.theme.default" && badDefault.message.contains("unknown context \"dim\""), "\(badDefault)")

        // The spec's side: file, line and key of the spec.
        func theme(_ t: String) -> String { spec(themes: ##"{ "default": { "surface": "#FFFFFF", "border": "#767676", "fill": "{accent}", "mark": "#FFFFFF", "tokensContext": \##(t) } }"##) }
        let unknownModifier = try #require(failure(theme(##"{ "mode": "dark" }"##)))
        #expect(unknownModifier.file.hasSuffix("spec/spec.json") && unknownModifier.keyPath == "themes.default.tokensContext.mode", "\(unknownModifier)")
        #expect(unknownModifier.line == 7 && unknownModifier.message.contains("unknown modifier \"mode\"") && unknownModifier.message.contains("\"theme\""),
                "\(unknownModifier)")
        let unknownContext = try #require(failure(theme(##"{ "theme": "dim" }"##)))
        #expect(unknownContext.keyPath == "themes.default.tokensContext.theme", "\(unknownContext)")
        #expect(unknownContext.message.contains("unknown context \"dim\"") && unknownContext.message.contains("\"dark-high-contrast\""), "\(unknownContext)")

        let plain = spec(tokens: "../tokens/terrazzo-mode-type-color.tokens.json",
                         themes: ##"{ "default": { "surface": "#FFFFFF", "border": "#767676", "fill": "{color.blue.5}", "mark": "#FFFFFF", "tokensContext": { "theme": "dark" } } }"##)
        let noResolver = try #require(failure(plain))
        #expect(noResolver.keyPath == "themes.default.tokensContext" && noResolver.message.contains("is not one"), "\(noResolver)")

        // A modifier without a default: a theme must pick its context.
        let noDefault = try #require(failure(bad, extra: resolver("""
        {
          "version": "2025.10",
          "sets": { "s": { "sources": [ { "accent": { "$type": "color", "$value": "#0969da" } } ] } },
          "modifiers": { "theme": { "contexts": { "light": [], "dark": [] } } },
          "resolutionOrder": [ { "$ref": "#/sets/s" }, { "$ref": "#/modifiers/theme" } ]
        }
        """)))
        #expect(noDefault.keyPath == "themes.default" && noDefault.message.contains("has no default"), "\(noDefault)")
    }
}
