import Foundation
import Testing
@testable import GlyphCore
import GlyphTestSupport
import GlyphRenderTestSupport

// "Did you mean …?": unknown keys and values in specs, token files and configs name the nearest valid one.

@Suite("Did you mean: the nearest valid key or value")
struct SuggestTests {
    @Test("Damerau-Levenshtein distance: an adjacent swap is one edit")
    func distance() {
        func d(_ a: String, _ b: String) -> Int { Suggest.distance(Array(a), Array(b)) }
        #expect(d("checked", "checked") == 0)
        #expect(d("chekced", "checked") == 1, "kc/ck swapped")
        #expect(d("bordr", "border") == 1, "one letter left out")
        #expect(d("colour", "color") == 1)
        #expect(d("", "mark") == 4 && d("mark", "") == 4)
        #expect(d("kitten", "sitting") == 3)
    }

    @Test("the nearest valid word, or none when nothing is close", arguments: [
        ("markImage", ["ring", "fill", "mark"], "mark"),          // a valid key inside the one written
        ("trackWidth", ["size", "width", "height"], "width"),
        ("Mark", ["ring", "fill", "mark"], "mark"),                // case only
        ("chekced", ["unchecked", "checked", "mixed"], "checked"), // a swap
        ("bordr", ["surface", "border", "fill", "mark"], "border"),
        ("minimumAera", ["severity", "minimumArea", "greyscaleRatio"], "minimumArea"),
        ("srbg", ["srgb", "srgb-linear", "hsl"], "srgb"),
        ("state-shap", ["state-shape", "nontext-contrast", "clipping"], "state-shape"),
        ("scaleToFil", ["aspectFit", "scaleToFill"], "scaleToFill"),
        ("dynamicType", ["dynamicTypeSizes", "scales"], "dynamicTypeSizes"), // the start of a valid key
    ] as [(String, [String], String)])
    func nearest(_ word: String, _ valid: [String], _ expected: String) {
        #expect(Suggest.nearest(word, in: valid) == expected)
    }

    @Test("nothing close: no suggestion", arguments: [
        ("colour", ["name", "control", "sizes", "themes"]),
        ("k0", ["name", "control", "sizes", "themes"]),
        ("zzz", ["ring", "fill", "mark"]),
        ("minShare", ["severity", "minimumArea", "greyscaleRatio", "colorDistance"]),
        ("x", ["xS", "S"]),
    ] as [(String, [String])])
    func none(_ word: String, _ valid: [String]) {
        #expect(Suggest.nearest(word, in: valid) == nil)
    }

    func failure(_ json: String) -> InputError? {
        if case let .failure(e) = loadSpec(json) { return e }
        return nil
    }

    @Test("a spec's unknown key says the one meant and keeps the list of valid keys")
    func specKey() throws {
        let e = try #require(failure(checkboxSpec(##""appearance": { "checked": { "markImage": "check" } },"##)))
        #expect(e.keyPath == "appearance.checked.markImage")
        #expect(e.message == #"unknown key "markImage"; did you mean "mark"? valid keys here: ring, fill, mark"#, "\(e.message)")
        #expect(e.line == 6)
        let far = try #require(failure(checkboxSpec(##""colour": "red","##)))
        #expect(far.message.hasPrefix(#"unknown key "colour"; valid keys here: "#), "no suggestion when none is close: \(far.message)")
    }

    @Test("unknown values: an enumerated value, a state, a Dynamic Type size, the frame, a colour space")
    func specValues() throws {
        let control = try #require(failure(checkboxSpec().replacingOccurrences(of: #""control": "checkbox""#, with: #""control": "chekbox""#)))
        #expect(control.keyPath == "control")
        #expect(control.message == #"unknown value "chekbox"; did you mean "checkbox"? expected one of: checkbox, switch"#, "\(control.message)")
        let state = try #require(failure(checkboxSpec(themes: ##"{ "default": { "surface": "#FFFFFF", "states": { "chekced": { "fill": "#000000" } } } }"##)))
        #expect(state.keyPath == "themes.default.states.chekced")
        #expect(state.message == #"unknown state "chekced"; did you mean "checked"? this spec's states: unchecked, checked"#, "\(state.message)")
        let size = try #require(failure(checkboxSpec(##""dynamicTypeSizes": ["xLarge", "acessibility5"],"##)))
        #expect(size.keyPath == "dynamicTypeSizes[1]")
        #expect(size.message.hasPrefix(#"unknown Dynamic Type size "acessibility5"; did you mean "accessibility5"? expected one of: xSmall, "#), "\(size.message)")
        let frame = try #require(failure(checkboxSpec(##""frame": "hugs","##)))
        #expect(frame.message == #"expected "hug", "size" or {"width", "height"}, found "hugs"; did you mean "hug"?"#, "\(frame.message)")
        let space = try #require(failure(checkboxSpec(themes: ##"{ "default": { "surface": { "colorSpace": "srbg", "components": [1, 1, 1] } } }"##)))
        #expect(space.keyPath == "themes.default.surface")
        #expect(space.message.hasPrefix(#"unknown colour space "srbg"; did you mean "srgb"? the 2025.10 colour module has srgb, "#), "\(space.message)")
    }
}
