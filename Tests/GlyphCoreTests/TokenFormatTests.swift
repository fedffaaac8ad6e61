import Foundation
import Testing
@testable import GlyphAudit
@testable import GlyphColor
@testable import GlyphCore
import GlyphTestSupport
import GlyphRenderTestSupport

// Token-file constructs beyond the shared fixtures: CSS Color 4 conversions against values worked
// out by hand (or given by the DTCG colour module's own examples), Tokens Studio's colour modifiers
// against the expectations in sd-transforms' own tests, and the DTCG 2025.10 structure ($extends,
// $ref, $deprecated, none, hex forms) with the messages for what is refused.

/// A spec with `fill` (and the other colours) from a token file written inline.
private func tokenSpec(_ tokens: String, fill: String = "{fill}", extra: String = "", label: String? = nil) -> Result<Spec, InputError> {
    let labelKey = label.map { ##""label": { "text": "Label" },"## + $0 } ?? ""
    return loadSpec(checkboxSpec(##""tokens": "t.tokens.json", \##(extra) \##(labelKey)"##,
                                 themes: ##"{ "default": { "surface": "#FFFFFF", "border": "#767676", "fill": "\##(fill)", "mark": "#FFFFFF" } }"##),
                    files: ["t.tokens.json": tokens])
}

private func fillHex(_ tokens: String, _ fill: String = "{fill}", extra: String = "") throws -> String {
    try tokenSpec(tokens, fill: fill, extra: extra).get().themes[0].colors[.fill]!.rgba.hex
}

private func failure(_ r: Result<Spec, InputError>) -> InputError? {
    if case let .failure(e) = r { return e }
    return nil
}

@Suite("Colour spaces: CSS Color 4 conversions to sRGB")
struct ColorSpaceTests {
    static func hex(_ space: CSSColorSpace, _ c: [Double]) -> String { ValueReader.eightBit(space.toSRGB(c).mapped).hex }

    @Test("values worked out by hand from the CSS Color 4 formulas")
    func byHand() {
        // hsl(120 100% 25%): f(0) = 0.25 − 0.25 = 0, f(8) = 0.25 + 0.25 = 0.5 → 127.5 → 128.
        #expect(Self.hex(.hsl, [120, 100, 25]) == "#008000")
        #expect(Self.hex(.hsl, [0, 0, 100]) == "#FFFFFF")
        #expect(Self.hex(.hwb, [0, 0, 0]) == "#FF0000")
        // whiteness + blackness ≥ 100: a grey of w / (w + b) = 0.5.
        #expect(Self.hex(.hwb, [120, 60, 60]) == "#808080")
        // Linear 0.5 encodes to 1.055 · 0.5^(1/2.4) − 0.055 = 0.73536 → 187.5 → 188.
        #expect(Self.hex(.srgbLinear, [0.5, 0.5, 0.5]) == "#BCBCBC")
        // L* 50: Y = (66/116)³ = 0.18419 → 0.46633 → 118.9 → 119; an LCH grey is the same.
        #expect(Self.hex(.lab, [50, 0, 0]) == "#777777")
        #expect(Self.hex(.lch, [50, 0, 30]) == "#777777")
        // rec2020 0.5 → linear ((0.5 + 0.0993) / 1.0993)^(1/0.45) = 0.2598 → 139.4 → 139.
        #expect(Self.hex(.rec2020, [0.5, 0.5, 0.5]) == "#8B8B8B")
        // Each space's white and black: white points map onto white (Bradford for the D50 ones).
        for space in [CSSColorSpace.srgb, .srgbLinear, .displayP3, .a98RGB, .proPhotoRGB, .rec2020] {
            #expect(Self.hex(space, [1, 1, 1]) == "#FFFFFF", "\(space)")
            #expect(Self.hex(space, [0, 0, 0]) == "#000000", "\(space)")
        }
        #expect(Self.hex(.xyzD65, [0.3127 / 0.3290, 1, (1 - 0.3127 - 0.3290) / 0.3290]) == "#FFFFFF")
        #expect(Self.hex(.xyzD50, [0.3457 / 0.3585, 1, (1 - 0.3457 - 0.3585) / 0.3585]) == "#FFFFFF")
        #expect(Self.hex(.oklab, [1, 0, 0]) == "#FFFFFF")
        #expect(Self.hex(.oklch, [0, 0, 0]) == "#000000")
    }

    @Test("srgb, hsl and hwb go to sRGB without a round trip through linear light: a channel half-way between two bytes stays there")
    func halfWayBytes() {
        for k in 0..<255 {
            let v = (Double(k) + 0.5) / 255
            let srgb = CSSColorSpace.srgb.toSRGB([v, v, v])
            #expect(srgb.encoded == [v, v, v] && srgb.mapped.r == v && !srgb.outOfGamut, "\(k)")
            // An hsl grey is its lightness exactly.
            #expect(CSSColorSpace.hsl.toSRGB([0, 0, v * 100]).encoded.allSatisfy { abs($0 - v) < 1e-15 }, "\(k)")
        }
    }

    @Test("the DTCG colour module's own \"Hot pink\" examples, whose hex is #ff00ff")
    func hotPink() {
        // 2025.10 colour module §4.2: components given "to ensure that the fallback color is exactly the
        // same as the defined color when converted to HEX" (its hsl/hwb examples say 330°, #ff0080).
        #expect(Self.hex(.lab, [60.17, 93.54, -60.5]) == "#FF00FF")
        #expect(Self.hex(.lch, [60.17, 111.4, 327.11]) == "#FF00FF")
        #expect(Self.hex(.oklab, [0.701, 0.2746, -0.169]) == "#FF00FF")
        #expect(Self.hex(.oklch, [0.7016, 0.3225, 328.363]) == "#FF00FF")
        #expect(Self.hex(.xyzD65, [0.5929, 0.2848, 0.9699]) == "#FF00FF")
        #expect(Self.hex(.xyzD50, [0.5791, 0.2831, 0.728]) == "#FF00FF")
        #expect(Self.hex(.srgbLinear, [1, 0, 1]) == "#FF00FF")
    }

    @Test("out of sRGB: the unclipped channels as expected.json gives them, the clip, and the CSS Color 4 mapping")
    func gamut() {
        let p3 = CSSColorSpace.displayP3.toSRGB([1, 0, 1])
        #expect(p3.outOfGamut)
        for (got, want) in zip(p3.encoded, [1.0931, -0.2267, 1.0338]) { #expect(abs(got - want) < 1e-4, "\(p3.encoded)") }
        #expect(ValueReader.eightBit(p3.clipped).hex == "#FF00FF")
        #expect(ValueReader.eightBit(p3.mapped).hex == "#FF2BFB")
        let hdr = CSSColorSpace.oklch.toSRGB([0.6412, 0.239, 254.98])
        #expect(abs(hdr.encoded[0] - -0.1695) < 1e-4 && abs(hdr.encoded[2] - 1.0970) < 1e-4, "\(hdr.encoded)")
        #expect(ValueReader.eightBit(hdr.mapped).hex == "#0089FF" && ValueReader.eightBit(hdr.clipped).hex == "#0086FF")
        #expect(!CSSColorSpace.srgb.toSRGB([0.2, 0.533, 0.867]).outOfGamut)
    }
}

@Suite("Tokens Studio colour modifiers: as sd-transforms v2.0.3 applies them")
struct StudioModifierTests {
    static func hex(_ s: String) -> RGBA { RGBA(hex: s)! }

    @Test("darken 0.2 of #C14242 in each space (sd-transforms test/spec/color-modifiers/transformColorModifiers.spec.ts, format hex)")
    func darkenEachSpace() {
        let base = Self.hex("#C14242")
        let want: [StudioColorModifier.Space: String] = [.hsl: "#9C3333", .lch: "#983735", .p3: "#9B3535", .srgb: "#9A3535"]
        for (space, hex) in want {
            #expect(StudioColorModifier.apply(.darken, amount: 0.2, space: space, to: base).hex == hex, "\(space)")
        }
    }

    @Test("mix and alpha (sd-transforms test/integration/color-modifier-references: #a1bbee, #759ae6, #3b64b3, #32528c, #ffffff4d)")
    func mixAndAlpha() {
        let white = Self.hex("#FFFFFF"), mix = Self.hex("#4477DD"), base = Self.hex("#202D3B")
        // 0.5: 161.5 prints as 63.333% and reads back as 161.499 → 161 (0xa1), not 162.
        #expect(StudioColorModifier.apply(.mix, amount: 0.5, space: .srgb, to: white, mixColor: mix).hex == "#A1BBEE")
        #expect(StudioColorModifier.apply(.mix, amount: 0.74, space: .srgb, to: white, mixColor: mix).hex == "#759AE6")
        #expect(StudioColorModifier.apply(.mix, amount: 0.74, space: .srgb, to: base, mixColor: mix).hex == "#3B64B3")
        #expect(StudioColorModifier.apply(.mix, amount: 0.5, space: .srgb, to: base, mixColor: mix).hex == "#32528C")
        #expect(StudioColorModifier.apply(.alpha, amount: 0.3, space: .srgb, to: white).hex == "#FFFFFF4D")
        // Black and white half way in each space: hsl(0 0% 50%), lch(50 0 0) (L* 50 = #777777 by hand),
        // color(display-p3 0.5 0.5 0.5), rgb(50% 50% 50%) (the spec file's printed forms). Grey 0.5 is
        // 127.5: Math.round gives 128; for Display P3 0.5 through colorjs.io's matrices too.
        let black = Self.hex("#000000")
        #expect(StudioColorModifier.apply(.mix, amount: 0.5, space: .hsl, to: black, mixColor: white).hex == "#808080")
        #expect(StudioColorModifier.apply(.mix, amount: 0.5, space: .lch, to: black, mixColor: white).hex == "#777777")
        #expect(StudioColorModifier.apply(.mix, amount: 0.5, space: .p3, to: black, mixColor: white).hex == "#808080")
        #expect(StudioColorModifier.apply(.mix, amount: 0.5, space: .srgb, to: black, mixColor: white).hex == "#808080")
    }

    @Test("colorjs.io's 5-significant-digit printing, rounded half up")
    func precision() {
        #expect(StudioColorModifier.toPrecision(63.33333333333333) == 63.333)
        #expect(StudioColorModifier.toPrecision(0.000012345678) == 0.00001)
        #expect(StudioColorModifier.toPrecision(359.99999) == 360)
        #expect(StudioColorModifier.toPrecision(359.994) == 359.99)
        #expect(StudioColorModifier.toPrecision(12.345649) == 12.346)
    }

    @Test("modifiers in a Tokens Studio file: references in the value, the mix colour and the whole modifier")
    func inAFile() throws {
        // The structure of sd-transforms' color-modifier-references.tokens.json.
        let tokens = """
        {
          "alpha": { "value": 0.3, "type": "other" },
          "treshhold": { "value": 0.5, "type": "number" },
          "baseColor": { "value": "#202D3B", "type": "color" },
          "mixColor": { "value": "#4477DD", "type": "color" },
          "modifier": { "value": { "type": "alpha", "value": "{alpha}", "space": "srgb", "format": "hex" } },
          "color2": { "value": "#000000", "type": "color", "$extensions": { "studio.tokens": { "modify": "{modifier}" } } },
          "color7": { "value": "{baseColor}", "type": "color",
                      "$extensions": { "studio.tokens": { "modify": { "type": "mix", "value": "{treshhold}", "space": "srgb",
                                                                      "color": "{mixColor}", "format": "hex" } } } },
          "color9": { "value": "{color7}", "type": "color",
                      "$extensions": { "studio.tokens": { "modify": { "type": "alpha", "value": "0.5", "space": "srgb" } } } },
          "dim": { "value": "hsl(0, 100%, 0.1%)", "type": "color" },
          "dimmer": { "value": "hsl(0, 100%, 0.1%)", "type": "color",
                      "$extensions": { "studio.tokens": { "modify": { "type": "darken", "value": "0.1", "space": "srgb" } } } }
        }
        """
        #expect(try fillHex(tokens, "{color2}") == "#0000004D")
        #expect(try fillHex(tokens, "{color7}") == "#32528C")
        // A modify on an alias applies to the referenced token's modified colour: #32528C at alpha 0.5.
        #expect(try fillHex(tokens, "{color9}") == "#32528C80")
        // The modifier starts from the value as written, as sd-transforms parses it: red 0.002 is drawn
        // as 0x01 (0.51 → 1), but darkened by 0.1 it is 0.0018 · 255 = 0.459 → 0, not 0.9 → 1.
        #expect(try fillHex(tokens, "{dim}") == "#010000")
        #expect(try fillHex(tokens, "{dimmer}") == "#000000")
    }

    @Test("a modifier Tokens Studio would ignore, or that needs math, is refused loudly, naming the token and the modifier")
    func refusedModifiers() throws {
        func spec(_ modify: String) -> Result<Spec, InputError> {
            tokenSpec(##"{ "red": { "value": "#F56565", "type": "color" }, "fill": { "value": "{red}", "type": "color", "$extensions": { "studio.tokens": { "modify": \##(modify) } } } }"##)
        }
        let space = try #require(failure(spec(##"{ "type": "lighten", "value": "0.1", "space": "oklab" }"##)))
        #expect(space.keyPath == "themes.default.fill")
        #expect(space.message.contains("token fill in ") && space.message.contains("Tokens Studio modify lighten has space \"oklab\"; it takes srgb, hsl, lch or p3"), "\(space.message)")
        // A modifier given as a reference to nothing says which token's modify it is.
        let nowhere = try #require(failure(spec(##""{nowhere}""##)))
        #expect(nowhere.message.contains("token fill in ") && nowhere.message.contains("Tokens Studio modify is {nowhere}: unresolved token alias {nowhere}"),
                "\(nowhere.message)")
        let kind = try #require(failure(spec(##"{ "type": "saturate", "value": "0.1", "space": "srgb" }"##)))
        #expect(kind.message.contains("has type \"saturate\"; Tokens Studio's modifiers are lighten, darken, alpha and mix"), "\(kind.message)")
        let math = try #require(failure(spec(##"{ "type": "mix", "value": "0.5 + 6 * 0.04", "space": "srgb", "color": "#4477DD" }"##)))
        #expect(math.message.contains("mix value \"0.5 + 6 * 0.04\" is not a number (math expressions are not supported)"), "\(math.message)")
        let length = try #require(failure(loadSpec(checkboxSpec(##""tokens": "t.tokens.json","##).replacingOccurrences(of: ##""size": 20"##, with: ##""size": "{box}""##),
            files: ["t.tokens.json": ##"{ "box": { "value": "20", "type": "sizing", "$extensions": { "studio.tokens": { "modify": { "type": "lighten", "value": "0.1", "space": "srgb" } } } } }"##])))
        #expect(length.message.contains("a Tokens Studio modify changes colours, not lengths"), "\(length.message)")
    }
}

@Suite("DTCG 2025.10 and Tokens Studio token files")
struct TokenFileTests {
    @Test("Tokens Studio sets: references without the set's name, the last set wins, its dimension types are lengths")
    func studioSets() throws {
        let tokens = """
        {
          "global": {
            "colors": { "red": { "value": "#F56565", "type": "color" }, "ink": { "value": "#111111", "type": "color" } },
            "space": { "box": { "value": "18", "type": "sizing" }, "ring": { "value": "2px", "type": "borderWidth" } },
            "radius": { "value": "0.25rem", "type": "borderRadius" }
          },
          "light": {
            "colors": { "ink": { "value": "#222222", "type": "color" } },
            "fill": { "value": "{colors.red}", "type": "color" },
            "gap": { "value": "{space.box}", "type": "spacing" }
          },
          "$themes": [],
          "$metadata": { "tokenSetOrder": ["global", "light"] }
        }
        """
        let json = checkboxSpec(##""tokens": "t.tokens.json","##,
                                themes: ##"{ "default": { "surface": "{colors.ink}", "border": "{global.colors.ink}", "fill": "{fill}", "mark": "#FFFFFF" } }"##)
            .replacingOccurrences(of: ##""size": 20, "cornerRadius": 4, "borderWidth": 1.5"##,
                                  with: ##""size": "{gap}", "cornerRadius": "{radius}", "borderWidth": "{space.ring}""##)
        let spec = try loadSpec(json, files: ["t.tokens.json": tokens]).get()
        #expect(spec.themes[0].colors[.fill]?.rgba.hex == "#F56565")
        #expect(spec.themes[0].colors[.surface]?.rgba.hex == "#222222", "light comes after global in tokenSetOrder")
        #expect(spec.themes[0].colors[.border]?.rgba.hex == "#111111", "a reference with the set's name")
        #expect(spec.sizes[0].size == 18 && spec.sizes[0].cornerRadius == 4 && spec.sizes[0].borderWidth == 2)
        // A strict read says what the file is and how to read it.
        let strict = try #require(failure(loadSpec(json.replacingOccurrences(of: ##""tokens": "t.tokens.json","##,
                                                                             with: ##""tokens": "t.tokens.json", "tokensFormat": "dtcg","##),
                                                   files: ["t.tokens.json": tokens])))
        #expect(strict.file.hasSuffix("t.tokens.json") && strict.keyPath == "global.colors.red")
        #expect(strict.message.contains("This looks like a Tokens Studio file: read the file as Tokens Studio with \"tokensFormat\": \"tokens-studio\""))
        // A strict read of sets written with $value: the reference without the set's name is missing, and
        // the message says why it may be.
        let dollar = tokens.replacingOccurrences(of: "\"value\"", with: "\"$value\"").replacingOccurrences(of: "\"type\"", with: "\"$type\"")
        let unprefixed = try #require(failure(loadSpec(checkboxSpec(##""tokens": "t.tokens.json", "tokensFormat": "dtcg","##,
                                                                    themes: ##"{ "default": { "surface": "#FFFFFF", "border": "#767676", "fill": "{fill}", "mark": "#FFFFFF" } }"##),
                                                       files: ["t.tokens.json": dollar])))
        #expect(unprefixed.message.contains("unresolved token alias {fill}") && unprefixed.message.contains("(the file looks like a Tokens Studio file: it has \"$themes\" at the top; read the file as Tokens Studio"),
                "\(unprefixed.message)")
    }

    @Test("$extends: the extended group's tokens under the extending group, local ones win; refused when circular or aimed at a token")
    func extends() throws {
        let groups = """
          "button": { "$type": "color", "background": { "$value": "#0066CC" }, "text": { "$value": "#FFFFFF" },
                      "focus": { "ring": { "$value": "#000000" }, "glow": { "$value": "#111111" } } },
          "button-primary": { "$extends": "{button}", "background": { "$value": "#CC0066" }, "focus": { "ring": { "$value": "#222222" } } },
          "via-ref": { "$ref": "#/button", "text": { "$value": "#333333" } }
        """
        let tokens = "{\n\(groups)\n}"
        func hex(_ path: String) throws -> String { try fillHex(tokens, "{\(path)}") }
        #expect(try hex("button-primary.background") == "#CC0066")
        #expect(try hex("button-primary.text") == "#FFFFFF")
        #expect(try hex("button-primary.focus.ring") == "#222222")
        #expect(try hex("button-primary.focus.glow") == "#111111", "a deep merge keeps the inherited glow")
        #expect(try hex("via-ref.background") == "#0066CC")
        #expect(try hex("via-ref.text") == "#333333")
        let loop = try #require(failure(tokenSpec("{\n\(groups),\n\"loop-a\": { \"$extends\": \"{loop-b}\" }, \"loop-b\": { \"$extends\": \"{loop-a}\" }\n}",
                                                  fill: "{button.text}")))
        #expect(loop.file.hasSuffix("t.tokens.json") && loop.message.contains("circular group extension: {loop-a} → {loop-b} → {loop-a}"), "\(loop)")
        let parent = try #require(failure(tokenSpec("{\n\(groups),\n\"outer\": { \"inner\": { \"$extends\": \"{outer}\" } }\n}", fill: "{button.text}")))
        #expect(parent.message.contains("circular group extension"), "\(parent)")
        let token = try #require(failure(tokenSpec("{\n\(groups),\n\"bad\": { \"$extends\": \"{button.text}\" }\n}", fill: "{button.text}")))
        #expect(token.keyPath == "bad.$extends" && token.message.contains("which is a token; a group can only extend a group"), "\(token)")
        // The extended group's own $type and $deprecated come along (the extending group's own win).
        let typed = ##"{ "base": { "$type": "dimension", "$deprecated": "use new", "a": { "$value": "#248A3D" } }, "ext": { "$extends": "{base}" }, "##
        for path in ["base.a", "ext.a"] {
            let e = try #require(failure(tokenSpec(typed + ##""own": { "$extends": "{base}", "$type": "color" } }"##, fill: "{\(path)}")), "\(path)")
            #expect(e.message.contains("has $type \"dimension\""), "\(path): \(e)")
        }
        let own = try tokenSpec(typed + ##""own": { "$extends": "{base}", "$type": "color", "$deprecated": false } }"##, fill: "{own.a}").get()
        #expect(own.themes[0].colors[.fill]?.rgba.hex == "#248A3D" && own.warnings.isEmpty, "\(own.warnings)")
        let colorBase = ##"{ "base": { "$type": "color", "$deprecated": "use new", "a": { "$value": "#248A3D" } }, "ext": { "$extends": "{base}" } }"##
        #expect(try tokenSpec(colorBase, fill: "{ext.a}").get().warnings.map(\.message).contains { $0.contains("ext.a") && $0.hasSuffix("is deprecated: use new") })
    }

    @Test("tokens and groups a file expands to through $extends are limited: at the limit it loads, one past it is refused")
    func extendsLimit() throws {
        // g1 extends g0 twice, g2 extends g1 twice, …: the tokens double at every step. The limit is
        // Limits.jsonValues (1,000,000; docs/limits.md); here a lower one shows where it bites.
        var groups = [##""g0": { "$type": "color", "a": { "$value": "#000000" }, "b": { "$value": "#FFFFFF" } }"##]
        for k in 1...5 { groups.append(##""g\##(k)": { "x": { "$extends": "{g\##(k - 1)}" }, "y": { "$extends": "{g\##(k - 1)}" } }"##) }
        let root = try JSONReader.parse(Data("{\(groups.joined(separator: ",\n"))}".utf8))
        // The root, g0 and its 2 tokens, then 2^(k+1) − 1 groups and 2^(k+1) tokens under each gk.
        let nodes = 1 + 3 + (1...5).reduce(0) { $0 + (1 << ($1 + 1)) - 1 + (1 << ($1 + 1)) }
        let set = try TokenSet(file: "t.tokens.json", root: root, format: .dtcg, nodeLimit: nodes)
        #expect(set.tokens.count == 2 + (1...5).reduce(0) { $0 + (1 << ($1 + 1)) })
        #expect(set.tokens["g5.x.y.x.y.x.b"]?.value.value == .string("#FFFFFF"))
        #expect(throws: InputError.self) { try TokenSet(file: "t.tokens.json", root: root, format: .dtcg, nodeLimit: nodes - 1) }
        do { _ = try TokenSet(file: "t.tokens.json", root: root, format: .dtcg, nodeLimit: nodes - 1) } catch {
            #expect(error.message == "the token file expands (through \"$extends\") to more than \(nodes - 1) tokens and groups; "
                    + "the limit is \(nodes - 1) (docs/limits.md)")
        }
    }

    @Test("a reference to a group names it as a group, with its root token or the lack of one")
    func groupReference() throws {
        let tokens = ##"{ "c": { "$type": "color", "a": { "$root": { "$value": "#010203" }, "b": { "$value": "#FFFFFF" } }, "g": { "x": { "$value": "#FFFFFF" } } } }"##
        #expect(try fillHex(tokens, "{c.a.$root}") == "#010203")
        let a = try #require(failure(tokenSpec(tokens, fill: "{c.a}")))
        #expect(a.keyPath == "themes.default.fill" && a.message.contains("{c.a} is a group, not a token") && a.message.contains("its root token is {c.a.$root}"))
        let g = try #require(failure(tokenSpec(tokens, fill: "{c.g}")))
        #expect(g.message.contains("{c.g} is a group, not a token") && g.message.contains("it has no root token ($root)"), "\(g.message)")
    }

    @Test("$ref JSON Pointers inside a value (the colour module's component example) and pointing at nothing")
    func pointers() throws {
        let tokens = """
        {
          "base": { "blue": { "$type": "color", "$value": { "colorSpace": "srgb", "components": [0.2, 0.4, 0.9], "hex": "#3366e6" } } },
          "fill": { "$type": "color", "$value": { "colorSpace": "srgb", "components": [
              { "$ref": "#/base/blue/$value/components/0" }, { "$ref": "#/base/blue/$value/components/1" }, 0.7 ], "hex": "#3366b3" } },
          "lost": { "$type": "color", "$value": { "colorSpace": "srgb", "components": [{ "$ref": "#/base/red/$value/components/0" }, 0, 0] } }
        }
        """
        // 0.7 × 255 = 178.5 → 179 (0xb3), as the example's hex says.
        #expect(try fillHex(tokens) == "#3366B3")
        let lost = try #require(failure(tokenSpec(tokens, fill: "{lost}")))
        #expect(lost.message.contains("the JSON Pointer \"#/base/red/$value/components/0\" points at nothing: \"/base/red\" is not in"), "\(lost.message)")
    }

    @Test("$deprecated: a warning naming the token and the reason, from the token or its group; false overrides the group")
    func deprecated() throws {
        let tokens = """
        {
          "old": { "$type": "color", "$deprecated": "use new.ink", "ink": { "$value": "#111111" }, "kept": { "$value": "#222222", "$deprecated": false } },
          "fill": { "$type": "color", "$value": "{old.ink}" },
          "gone": { "$type": "color", "$value": "#333333", "$deprecated": true }
        }
        """
        let spec = try tokenSpec(tokens, extra: "").get()
        #expect(spec.warnings.map(\.message) == ["token old.ink in \(spec.tokenFile!):2 (via {fill}) is deprecated: use new.ink"])
        #expect(spec.warnings.first?.keyPath == "themes.default.fill")
        #expect(try tokenSpec(tokens, fill: "{old.kept}").get().warnings.isEmpty)
        let gone = try tokenSpec(tokens, fill: "{gone}").get()
        #expect(gone.warnings.map(\.message) == ["token gone in \(gone.tokenFile!):4 is deprecated"])
    }

    @Test("colour values: every space with `none`, 3- and 4-digit hex, CSS rgb() and hsl(); refusals say what is wrong")
    func colorValues() throws {
        func hex(_ value: String) throws -> String { try fillHex(##"{ "fill": { "$type": "color", "$value": \##(value) } }"##) }
        #expect(try hex(##"{ "colorSpace": "hsl", "components": ["none", 0, 100], "hex": "#ffffff" }"##) == "#FFFFFF")
        #expect(try hex(##""#f00""##) == "#FF0000")
        #expect(try hex(##""#F008""##) == "#FF000088")
        #expect(try hex(##""rgb(39, 187, 54)""##) == "#27BB36")
        #expect(try hex(##""rgb(100% 0% 0% / 50%)""##) == "#FF000080")
        #expect(try hex(##""hsl(120deg, 100%, 25%)""##) == "#008000")
        // In a spec too.
        #expect(try loadSpec(checkboxSpec(themes: ##"{ "default": { "surface": "#fff", "border": "rgb(118, 118, 118)", "fill": "#E00800", "mark": "#FFF" } }"##))
            .get().themes[0].colors[.border]?.rgba.hex == "#767676")
        func message(_ value: String) -> String {
            failure(tokenSpec(##"{ "fill": { "$type": "color", "$value": \##(value) } }"##))?.message ?? "accepted"
        }
        // Only ASCII hex digits: full-width ones (U+FF26 …) are not a colour, and no crash.
        #expect(message(##""#ＦＦＦ""##).contains("value is not a colour"))
        #expect(failure(loadSpec(checkboxSpec(themes: ##"{ "default": { "surface": "#ＦＦＦ", "border": "#767676", "fill": "#E00800", "mark": "#FFF" } }"##))) != nil)
        #expect(message(##"{ "colorSpace": "cmyk", "components": [0, 0, 0] }"##).contains("unknown colour space \"cmyk\"; the 2025.10 colour module has srgb, srgb-linear, hsl"))
        #expect(message(##"{ "colorSpace": "srgb", "components": [1.2, 0, 0] }"##).contains("srgb red 1.2 is out of range (0…1)"))
        #expect(message(##"{ "hex": "#ff00ff" }"##).contains("\"hex\" is only a fallback"))
        #expect(message(##""#ff00f""##).contains("value is not a colour: \"#ff00f\""))
        // A hex fallback that is not 6-digit warns; the components are what is drawn.
        let spec = try tokenSpec(##"{ "fill": { "$type": "color", "$value": { "colorSpace": "srgb", "components": [1, 0, 0], "hex": "#f00" } } }"##).get()
        #expect(spec.themes[0].colors[.fill]?.rgba.hex == "#FF0000")
        #expect(spec.warnings.first?.message.contains("\"hex\" fallback should be 6-digit") == true)
    }

    @Test("tokensFormat: one of auto, dtcg, tokens-studio, and only with a token file")
    func tokensFormatKey() throws {
        let bad = try #require(failure(tokenSpec(##"{ "fill": { "$type": "color", "$value": "#000000" } }"##, extra: ##""tokensFormat": "figma","##)))
        #expect(bad.keyPath == "tokensFormat" && bad.message.contains("expected one of: auto, dtcg, tokens-studio"))
        let alone = try #require(failure(loadSpec(checkboxSpec(##""tokensFormat": "dtcg","##))))
        #expect(alone.keyPath == "tokensFormat" && alone.message.contains("the spec loads none"))
    }

    @Test("the colour drawn is the 8-bit one: its pixels, its contrast and its findings; a gamut-mapped colour's finding says so")
    func drawnColor() throws {
        // 0.533 × 255 = 135.9 → 0x88; drawn and measured as #3388DD.
        let tokens = """
        {
          "fill": { "$type": "color", "$value": { "colorSpace": "srgb", "components": [0.2, 0.533, 0.867] } },
          "lime": { "$type": "color", "$value": { "colorSpace": "display-p3", "components": [0.5, 1, 0] } }
        }
        """
        let scene = try AuditScene(checkboxSpec(##""tokens": "t.tokens.json", "scales": [1], "dynamicTypeSizes": ["large"], "label": { "text": "Label" },"##,
                                                themes: ##"{ "default": { "surface": "#FFFFFF", "border": "#767676", "fill": "{lime}", "mark": "#FFFFFF", "label": "{lime}" } }"##),
                                   files: ["t.tokens.json": tokens])
        let lime = try #require(scene.spec.themes[0].colors[.fill])
        let converted = CSSColorSpace.displayP3.toSRGB([0.5, 1, 0])
        #expect(converted.outOfGamut)
        #expect(lime.rgba == ValueReader.eightBit(converted.mapped))
        let note = try #require(lime.note)
        #expect(note.hasPrefix("display-p3 (0.5, 1, 0) is outside sRGB; gamut-mapped (CSS Color 4) to \(lime.rgba.hex)"), "\(note)")
        let fill = try #require(scene.run(NonTextContrastRule()).first { $0.subject == "fill" })
        #expect(fill.message.contains("(fill: \(note))"), "\(fill.message)")
        #expect(fill.numbers["ratio"] == contrastRatio(lime.rgba, .white))
        let label = try #require(scene.run(TextContrastRule()).first)
        #expect(label.message.contains("(label: \(note))"), "\(label.message)")

        let plain = try tokenSpec(tokens).get().themes[0].colors[.fill]
        #expect(plain?.rgba == RGBA(r8: 0x33, g8: 0x88, b8: 0xDD) && plain?.note == nil && plain?.tokenLine == 2)
    }
}

@Suite("DTCG dimensions")
struct TokenDimensionTests {
    @Test("a DTCG dimension object's unit is px or rem (2025.10); pt only in a spec's own literal")
    func units() throws {
        let tokens = ##"{ "w": { "$type": "dimension", "$value": { "value": 51, "unit": "pt" } }, "r": { "$type": "dimension", "$value": { "value": 2, "unit": "rem" } } }"##
        var r = SpecReader(file: "spec.json", tokens: try TokenSet(file: "t.tokens.json", root: JSONReader.parse(Data(tokens.utf8)), format: .dtcg))
        func alias(_ s: String) -> JSONNode { JSONNode(value: .string(s), line: 1, column: 1) }
        #expect(try r.length(alias("{r}"), "sizes.md.size") == 32)
        do {
            _ = try r.length(alias("{w}"), "sizes.md.size")
            Issue.record("a pt dimension token was accepted")
        } catch {
            #expect(error.message.contains("\"px\" or \"rem\""), "\(error)")
        }
        let literal = try JSONReader.parse(Data(#"{ "value": 20, "unit": "pt" }"#.utf8))
        #expect(try r.length(literal, "sizes.md.size") == 20)
    }
}

@Suite("Tokens Studio themes: a spec theme reads the token sets of one $themes entry")
struct StudioThemeTests {
    /// Tokens Studio's own layout: sets at the top, `$metadata.tokenSetOrder`, and `$themes` whose
    /// `selectedTokenSets` mark each set enabled, source or disabled.
    static let file = """
    {
      "core": { "palette": { "blue": { "value": "#0A84FF", "type": "color" }, "navy": { "value": "#0040DD", "type": "color" },
                             "white": { "value": "#FFFFFF", "type": "color" }, "black": { "value": "#000000", "type": "color" } } },
      "light": { "accent": { "value": "{palette.navy}", "type": "color" }, "surface": { "value": "{palette.white}", "type": "color" } },
      "dark": { "accent": { "value": "{palette.blue}", "type": "color" }, "surface": { "value": "{palette.black}", "type": "color" } },
      "$themes": [
        { "id": "l", "name": "Light", "group": "Mode", "selectedTokenSets": { "core": "source", "light": "enabled", "dark": "disabled" } },
        { "id": "d", "name": "Dark", "group": "Mode", "selectedTokenSets": { "core": "source", "dark": "enabled" } },
        { "id": "x", "name": "Dark", "group": "Contrast", "selectedTokenSets": { "core": "enabled" } }
      ],
      "$metadata": { "tokenSetOrder": ["core", "light", "dark"] }
    }
    """

    static func spec(_ themes: String) -> Result<Spec, InputError> {
        loadSpec(checkboxSpec(##""tokens": "t.tokens.json","##, themes: themes), files: ["t.tokens.json": file])
    }

    static func theme(_ extra: String) -> String {
        ##"{ "surface": "{surface}", "border": "{accent}", "fill": "{accent}", "mark": "#FFFFFF" \##(extra) }"##
    }

    @Test("tokensTheme and tokenSets pick the sets; without them every set is read and the last wins")
    func picks() throws {
        let spec = try Self.spec(##"{ "default": \##(Self.theme(#", "tokensTheme": "Light""#)), "inverse": \##(Self.theme(#", "tokensTheme": "Mode/Dark""#)), "## +
                                 ##""sets": \##(Self.theme(#", "tokenSets": ["core", "light"]"#)), "all": \##(Self.theme("")) }"##).get()
        func colours(_ name: String) -> [String] {
            let t = spec.themes.first { $0.name == name }!
            return [t.colors[.surface]!.rgba.hex, t.colors[.fill]!.rgba.hex]
        }
        #expect(colours("default") == ["#FFFFFF", "#0040DD"])
        #expect(colours("inverse") == ["#000000", "#0A84FF"])
        #expect(colours("sets") == ["#FFFFFF", "#0040DD"])
        // Every set, in tokenSetOrder: dark is last, so it wins (as Tokens Studio merges sets).
        #expect(colours("all") == ["#000000", "#0A84FF"])
    }

    @Test("an unknown or ambiguous theme, an unknown set, and a file without sets are refused at the key")
    func refused() throws {
        func message(_ extra: String) -> String {
            guard case let .failure(e) = Self.spec(##"{ "default": \##(Self.theme(extra)) }"##) else { return "accepted" }
            return "\(e.keyPath ?? ""): \(e.message)"
        }
        #expect(message(#", "tokensTheme": "Sepia""#).hasPrefix(#"themes.default.tokensTheme: no Tokens Studio theme "Sepia" in "#))
        #expect(message(#", "tokensTheme": "Sepia""#).hasSuffix(#"its themes: "Mode/Light", "Mode/Dark", "Contrast/Dark""#))
        #expect(message(#", "tokensTheme": "Dark""#).contains(#""Dark" names 2 themes"#))
        #expect(message(#", "tokenSets": ["core", "sepia"]"#).hasPrefix(#"themes.default.tokenSets[1]: no token set "sepia""#))
        // Contrast/Dark reads core only: {accent} is in no set it reads.
        #expect(message(#", "tokensTheme": "Contrast/Dark""#).contains("unresolved token alias {surface}"))
        let dtcg = loadSpec(checkboxSpec(##""tokens": "t.tokens.json","##,
                                         themes: ##"{ "default": { "surface": "#FFFFFF", "border": "#767676", "fill": "{f}", "mark": "#FFF", "tokensTheme": "Light" } }"##),
                            files: ["t.tokens.json": ##"{ "f": { "$type": "color", "$value": "#E00800" } }"##])
        guard case let .failure(e) = dtcg else { Issue.record("accepted"); return }
        #expect(e.keyPath == "themes.default.tokensTheme" && e.message.contains("picks token sets of a Tokens Studio file"), "\(e)")
    }
}
