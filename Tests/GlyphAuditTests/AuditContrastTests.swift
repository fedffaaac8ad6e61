import Foundation
import Testing
@testable import GlyphAudit
@testable import GlyphColor
@testable import GlyphCore
import GlyphTestSupport
import GlyphRenderTestSupport

// `nontext-contrast` and `text-contrast`: ratios from authored colours compared with the reference
// vectors in Tests/Fixtures/reference/contrast-vectors.json (never rounded), the large-text rule, the
// disabled exemption, translucent colours, source locations, and the rendered-pixel warning.

@Suite("Audit: contrast")
struct AuditContrastTests {
    /// The reference file gives ratios to six decimal places.
    static func sixPlaces(_ v: Double) -> Double { (v * 1e6).rounded() / 1e6 }

    /// One theme per reference vector: the ring (border) and the label in `fg` on a `bg` surface.
    static func vectorScene(_ vectors: [ReferenceData.ContrastVector], sizes: [String] = ["L"]) throws -> AuditScene {
        let themes = vectors.enumerated().map { i, v in
            "\"v\(i)\": { \"surface\": \"\(v.bg)\", \"border\": \"\(v.fg)\", \"label\": \"\(v.fg)\" }"
        }.joined(separator: ",\n")
        return try AuditScene("""
        { "name": "vectors", "control": "checkbox", "sizes": { "md": { "size": 20 } },
          "label": { "text": "Label" }, "states": ["unchecked"], "scales": [1],
          "dynamicTypeSizes": [\(sizes.map { "\"\($0)\"" }.joined(separator: ", "))],
          "themes": { \(themes) } }
        """)
    }

    @Test("the ring's ratio equals wcag2_ratio of every reference vector, and fails 3:1 exactly when the vector does")
    func nonTextAgainstVectors() throws {
        let vectors = try ReferenceData.contrastVectors()
        #expect(vectors.count == 43)
        let s = try Self.vectorScene(vectors)
        let rule = NonTextContrastRule()
        // Measured: with a threshold of 21 every ring under 21:1 is reported with its ratio.
        let all = s.run(rule, ["minimumRatio": 21])
        let defaults = s.run(rule)
        for (i, v) in vectors.enumerated() {
            let theme = "v\(i)"
            let found = all.filter { $0.values["theme"] == theme && $0.subject == "ring" }
            if v.wcag2_ratio >= 21 {
                #expect(found.isEmpty)
            } else {
                let f = try #require(found.first, "\(v.fg) on \(v.bg)")
                #expect(Self.sixPlaces(f.numbers["ratio"]!) == v.wcag2_ratio, "\(v.fg) on \(v.bg): \(f.numbers["ratio"]!) vs \(v.wcag2_ratio)")
            }
            let fails = defaults.contains { $0.values["theme"] == theme && $0.subject == "ring" }
            #expect(fails == !v.meets_3_0, "\(v.fg) on \(v.bg) \(v.wcag2_ratio)")
        }
    }

    @Test("the label's ratio equals wcag2_ratio and fails 4.5:1 at body size exactly when the vector does")
    func textAgainstVectors() throws {
        let vectors = try ReferenceData.contrastVectors()
        let s = try Self.vectorScene(vectors)
        let findings = s.run(TextContrastRule())
        for (i, v) in vectors.enumerated() {
            let found = findings.filter { $0.values["theme"] == nil && $0.variant.description.contains("/v\(i)/") }
            #expect(found.isEmpty == v.meets_4_5, "\(v.fg) on \(v.bg) \(v.wcag2_ratio)")
            if let f = found.first {
                #expect(Self.sixPlaces(f.numbers["ratio"]!) == v.wcag2_ratio)
                #expect(f.numbers["required"] == 4.5)
                #expect(f.severity == .error && f.criterion == "1.4.3")
            }
        }
    }

    @Test("the switch seed's light-grey off track: \"off track #E9E9EA on #FFFFFF is 1.21:1, needs 3:1\"")
    func switchOffTrack() throws {
        let s = try AuditScene(preset: "swiftui-switch")
        let findings = s.run(NonTextContrastRule())
        let f = try #require(findings.first { $0.subject == "off track" && $0.variant.description.contains("/default/") })
        #expect(f.message == "off track #E9E9EA on #FFFFFF is 1.21:1, needs 3:1")
        #expect(f.variant == "swiftui-switch/switch-md/*/default/off@*x")
        #expect(f.severity == .error && f.criterion == "1.4.11")
        #expect(f.numbers["ratio"] == contrastRatio(RGBA(hex: "#E9E9EA")!, .white))
        #expect(f.location?.file == "Assets/presets/swiftui-switch.json")
        #expect(f.location?.keyPath == "themes.default.trackOff")
        let specLines = try #require(Presets.source("swiftui-switch")).components(separatedBy: "\n")
        let line = try #require(f.location?.line)
        #expect(specLines[line - 1].contains("\"trackOff\": \"#E9E9EA\""))
        // The disabled theme is reported, as info only.
        let disabled = findings.filter { $0.variant.description.contains("/disabled/") }
        #expect(!disabled.isEmpty && disabled.allSatisfy { $0.severity == .info })
    }

    @Test("large text needs 3:1: #777777 (4.478:1) fails at 17 pt and passes at 21 pt; 2.995 fails 3")
    func largeText() throws {
        let grey = try AuditScene("""
        { "name": "g", "control": "checkbox", "sizes": { "md": { "size": 20 } }, "label": { "text": "Label" },
          "states": ["unchecked"], "scales": [1], "dynamicTypeSizes": ["L", "xxL"],
          "themes": { "default": { "surface": "#FFFFFF", "border": "#000000", "label": "#777777" } } }
        """)
        let f = try #require(grey.run(TextContrastRule()).first)
        #expect(f.values["sizes"] == "L")
        #expect(f.message.contains("is 4.47:1, needs 4.5:1 at L"))
        #expect(f.message.contains("passes 3:1 as large text at xxL"))
        #expect(f.variant == "g/square-md/L/default/unchecked@1x")

        // headline at xL is 19 pt, large by size: 3:1. #959595 is 2.995:1 (fails), #949494 3.033:1 (passes).
        for (colour, fails) in [("#959595", true), ("#949494", false)] {
            let fs = try Self.headline(colour, size: "xL").run(TextContrastRule())
            #expect(fs.isEmpty == !fails, "\(colour)")
            if let f = fs.first {
                #expect(f.numbers["required"] == 3)
                #expect(f.message.contains("is 2.99:1, needs 3:1"), "shown truncated, never rounded up: \(f.message)")
            }
        }
    }

    static func headline(_ colour: String, size: String) throws -> AuditScene {
        try AuditScene("""
        { "name": "b", "control": "checkbox", "sizes": { "md": { "size": 20 } }, "label": { "text": "Label", "textStyle": "headline" },
          "states": ["unchecked"], "scales": [1], "dynamicTypeSizes": ["\(size)"],
          "themes": { "default": { "surface": "#FFFFFF", "border": "#000000", "label": "\(colour)" } } }
        """)
    }

    @Test("only bold (700+) makes 14 pt text large: headline is Semibold (600), so at 14 pt it needs 4.5:1")
    func semiboldIsNotBold() throws {
        // headline at xS is 14 pt. #949494 (3.033:1) would pass as 14 pt bold; as semibold it fails 4.5:1.
        let fs = try Self.headline("#949494", size: "xS").run(TextContrastRule())
        let f = try #require(fs.first)
        #expect(fs.count == 1)
        #expect(f.numbers["required"] == 4.5)
        #expect(f.message.contains("is 3.03:1, needs 4.5:1 at xS (14.0 pt)"), "\(f.message)")
        // #767676 (4.542:1) passes 4.5:1 at 14 pt; #777777 (4.478:1) does not.
        #expect(try Self.headline("#767676", size: "xS").run(TextContrastRule()).isEmpty)
        #expect(try Self.headline("#777777", size: "xS").run(TextContrastRule()).first?.numbers["required"] == 4.5)
        #expect(TextContrastRule.weight(.headline) == 600 && !TextContrastRule.isBold(.headline))
        #expect(TextStyle.allCases.allSatisfy { !TextContrastRule.isBold($0) })
        // Text that is bold (700) does count as large from 14 pt; 13.9 pt does not.
        let o = TextContrastRule().defaultOptions
        #expect(TextContrastRule.required(points: 14, bold: true, o) == 3)
        #expect(TextContrastRule.required(points: 13.9, bold: true, o) == 4.5)
        #expect(TextContrastRule.required(points: 17.9, bold: false, o) == 4.5)
        #expect(TextContrastRule.required(points: 18, bold: false, o) == 3)
    }

    @Test("the disabled theme is exempt: its ratios are info, never errors")
    func disabledExempt() throws {
        let s = try AuditScene("""
        { "name": "d", "control": "checkbox", "sizes": { "md": { "size": 20 } }, "label": { "text": "Label" },
          "states": ["unchecked", "checked"], "scales": [1], "dynamicTypeSizes": ["L"],
          "themes": {
            "default": { "surface": "#FFFFFF", "border": "#C7C7CC", "fill": "#C7C7CC", "mark": "#FFFFFF", "label": "#C7C7CC" },
            "disabled": { "surface": "#FFFFFF", "border": "#C7C7CC", "fill": "#C7C7CC", "mark": "#FFFFFF", "label": "#C7C7CC" } } }
        """)
        let findings = s.run(NonTextContrastRule()) + s.run(TextContrastRule())
        let byTheme = Dictionary(grouping: findings) { $0.variant.description.split(separator: "/")[3] }
        let active = try #require(byTheme["default"]), inactive = try #require(byTheme["disabled"])
        #expect(active.allSatisfy { $0.severity == .error })
        #expect(inactive.allSatisfy { $0.severity == .info })
        #expect(Set(active.map(\.subject)) == Set(inactive.map(\.subject)))
        #expect(Set(active.map(\.subject)) == ["ring", "fill", "tick on fill", "label"])
        let ring = try #require(inactive.first { $0.subject == "ring" })
        #expect(Self.sixPlaces(ring.numbers["ratio"]!) == 1.68408)  // reference vector #C7C7CC on #FFFFFF
        #expect(ring.message.contains("inactive components are exempt"))
    }

    @Test("translucent colours are composited over what lies under them before the ratio is taken")
    func translucent() throws {
        let s = try AuditScene(preset: "swiftui-checkbox", filter: ["theme=disabled", "dynamic-type=L", "scale=1"])
        let ring = try #require(s.run(NonTextContrastRule()).first { $0.subject == "ring" })
        let seen = RGBA(hex: "#3C3C434C")!.composited(over: .white)
        #expect(ring.numbers["ratio"] == contrastRatio(seen, .white))
        #expect(ring.message.hasPrefix("ring #3C3C434C (\(seen.hex) as seen) on #FFFFFF is 1.72:1"))
    }

    @Test("a tick is measured against the fill it sits on; a filled box passes on its fill or its ring")
    func markOnFill() throws {
        let s = try AuditScene(preset: "design-system-checkbox", filter: ["dynamic-type=L", "scale=1"])
        let findings = s.run(NonTextContrastRule())
        // Brand red #E00800 and white are 4.995:1 (reference vector): no error in any active theme.
        #expect(findings.allSatisfy { $0.severity == .info }, "\(findings.map(\.message))")
        let strict = s.run(NonTextContrastRule(), ["minimumRatio": 5])
        let tick = try #require(strict.first { $0.subject == "tick on fill" && $0.variant.description.contains("/default/") })
        #expect(tick.message == "tick #FFFFFF on fill #E00800 is 4.99:1, needs 5:1")
        #expect(Self.sixPlaces(tick.numbers["ratio"]!) == 4.995015)
        // A filled box whose fill is faint but whose ring is strong passes on the ring.
        let box = try AuditScene(SpecText.checkbox(
            appearance: ##"{ "unchecked": { "ring": true, "fill": false, "mark": "none" }, "checked": { "ring": true, "fill": true, "mark": "none" } }"##,
            theme: ##"{ "surface": "#FFFFFF", "border": "#000000", "fill": "#F4F4F4" }"##, scales: [1], sizes: ["L"]))
        #expect(box.run(NonTextContrastRule()).isEmpty)
    }

    @Test("each size's border is checked: a #E5E5EA ring on the second size fails though the first size has no border")
    func borderPerSize() throws {
        let s = try AuditScene("""
        { "name": "t", "control": "checkbox",
          "sizes": { "flat": { "size": 20, "borderWidth": 0 }, "ringed": { "size": 20, "borderWidth": 1.5 } },
          "states": ["unchecked", "checked"], "scales": [1, 2], "dynamicTypeSizes": ["L", "AX5"],
          "themes": { "default": { "surface": "#FFFFFF", "border": "#E5E5EA", "fill": "#007AFF", "mark": "#FFFFFF" } } }
        """)
        #expect(s.spec.sizes.map(\.name) == ["flat", "ringed"] && s.spec.sizes[0].borderWidth == 0)
        let findings = s.run(NonTextContrastRule())
        let ring = try #require(findings.first { $0.subject == "ring" })
        #expect(findings.filter { $0.subject == "ring" }.count == 1)
        #expect(ring.severity == .error)
        #expect(ring.variant == "t/square-ringed/*/default/unchecked@*x")
        #expect(ring.numbers["ratio"] == contrastRatio(RGBA(hex: "#E5E5EA")!, .white))
        #expect(ring.message == "ring #E5E5EA on #FFFFFF is \(Format.ratio(ring.numbers["ratio"]!)), needs 3:1")
        // The checked box is filled (#007AFF, 4.02:1) in both sizes: nothing to report there.
        #expect(findings.allSatisfy { $0.variant.description.contains("/unchecked@") })
    }

    @Test("sizes that measure the same share one finding")
    func sizesMerge() throws {
        let s = try AuditScene(preset: "design-system-checkbox", filter: ["theme=disabled", "dynamic-type=L", "scale=1"])
        let ring = s.run(NonTextContrastRule()).filter { $0.subject == "ring" }
        #expect(ring.count == 1)
        #expect(ring.first?.variant == "design-system-checkbox/*/L/disabled/unchecked@1x")
    }

    // Original-colour images (`"template": false`): measured on their rendered pixels.
    static func ring(_ colour: String, width: Double = 1.8) -> String {
        ##"<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24"><rect x="2.9" y="2.9" width="18.2" height="18.2" rx="3.7" fill="none" stroke="COLOUR" stroke-width="WIDTH"/></svg>"##
            .replacingOccurrences(of: "COLOUR", with: colour).replacingOccurrences(of: "WIDTH", with: Format.number(width))
    }

    static let darkOn = ##"<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24"><rect x="2" y="2" width="20" height="20" rx="4.5" fill="#1C1C1E"/><path d="M7 12.4l3.3 3.3L17.2 8.4" fill="none" stroke="#FFFFFF" stroke-width="2.3"/></svg>"##

    static func imageScene(off: String, on: String = darkOn, scales: [Int] = [1, 2, 3], disabled: Bool = false) throws -> AuditScene {
        let extra = disabled ? ##", "disabled": { "surface": "#FFFFFF", "imageOpacity": 0.4 }"## : ""
        return try AuditScene("""
        { "name": "img", "control": "checkbox", "sizes": { "md": { "size": 24 } }, "frame": { "width": 24, "height": 24 },
          "images": { "on": "on.svg", "off": "off.svg", "template": false },
          "states": ["unchecked", "checked"], "scales": [\(scales.map(String.init).joined(separator: ", "))],
          "dynamicTypeSizes": ["L"],
          "themes": { "default": { "surface": "#FFFFFF" }\(extra) } }
        """, files: ["off.svg": off, "on.svg": on])
    }

    @Test("an original-colour off image whose ring is #EEEEEE on white fails; a dark ring passes")
    func originalColourImages() throws {
        let faint = try Self.imageScene(off: Self.ring("#EEEEEE"))
        let findings = faint.run(NonTextContrastRule())
        #expect(findings.count == 1, "\(findings.map(\.message))")
        let f = try #require(findings.first)
        #expect(f.severity == .error && f.criterion == "1.4.11")
        #expect(f.subject == "off image")
        #expect(f.variant == "img/square-md/L/default/unchecked@*x")
        #expect(f.numbers["outlineShare"] == 0)
        #expect(f.numbers["requiredShare"] == 0.5)
        // #EEEEEE is 1.16:1 against white (its own pixels can reach no more).
        #expect(abs(f.numbers["bestPixelRatio"]! - contrastRatio(RGBA(hex: "#EEEEEE")!, .white)) < 0.01)
        #expect(f.message.hasPrefix("off image (own colours) on #FFFFFF: 0% of its outline is within a pixel of ink reaching 3:1 (best pixel 1.1"),
                "\(f.message)")
        #expect(f.message.hasSuffix("at @3x, needs 50%"))
        #expect(f.location?.keyPath == "images.off")

        let dark = try Self.imageScene(off: Self.ring("#333333"))
        #expect(dark.run(NonTextContrastRule()).isEmpty)
        for i in dark.plan.items.indices {
            let m = NonTextContrastRule.measureImage(dark.input.glyphs[i], surface: .white, required: 3)
            #expect(m.share > 0.95 && m.best > 10, "\(dark.plan.items[i].variant.id): \(m)")
        }
    }

    @Test("an original-colour image cannot pass on a few dark pixels: a faint ring with one dark dot fails")
    func originalColourImageDot() throws {
        let dotted = ##"<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24"><rect x="2.9" y="2.9" width="18.2" height="18.2" rx="3.7" fill="none" stroke="#EEEEEE" stroke-width="1.8"/><circle cx="12" cy="2.9" r="1.2" fill="#000000"/></svg>"##
        let s = try Self.imageScene(off: dotted, scales: [3])
        let f = try #require(s.run(NonTextContrastRule()).first { $0.subject == "off image" })
        #expect(f.severity == .error)
        #expect(f.numbers["bestPixelRatio"]! > 15)  // the dot reaches 21:1 …
        #expect(f.numbers["outlineShare"]! < 0.1)   // … but the outline does not
    }

    @Test("an original-colour image: a stroke too thin at @1x and @2x only warns there; the disabled theme is info")
    func originalColourImageScales() throws {
        // A 0.5 pt #767676 ring (4.54:1 as authored): 0.5 px at @1x, 1 px at @2x, 1.5 px at @3x.
        let s = try Self.imageScene(off: Self.ring("#767676", width: 0.5), disabled: true)
        let findings = s.run(NonTextContrastRule())
        let warnings = findings.filter { $0.severity == .warning }
        #expect(warnings.map(\.variant) == ["img/square-md/L/default/unchecked@1x", "img/square-md/L/default/unchecked@2x"])
        #expect(warnings.allSatisfy { $0.subject == "off image pixels" && $0.numbers["outlineShare"]! < 0.5 })
        #expect(warnings.map { $0.numbers["scale"] } == [1, 2])
        #expect(warnings.first?.message.contains("stands out at @3x, but at @1x 0% of its outline") == true)
        #expect(!findings.contains { $0.severity == .error })
        let top = try s.index("img/square-md/L/default/unchecked@3x")
        #expect(NonTextContrastRule.measureImage(s.input.glyphs[top], surface: .white, required: 3).share >= 0.5)
        // The disabled theme (the image at 40 % opacity): reported as info for both states, never as an error or warning.
        let disabled = findings.filter { $0.variant.description.contains("/disabled/") }
        // What changes between the states (measured at the highest scale only) is info there too.
        #expect(Set(disabled.map(\.subject)) == ["off image", "on image", "unchecked vs checked indicator"])
        #expect(disabled.allSatisfy { $0.severity == .info && $0.message.contains("inactive components are exempt from 3:1") })
        #expect(disabled.allSatisfy { $0.variant.description.hasSuffix($0.subject.hasSuffix("indicator") ? "@3x" : "@*x") })
    }

    @Test("a token colour's finding points at the spec line and at the token file line of the token the spec names, with the chain to its value")
    func tokenLocation() throws {
        let s = try AuditScene(preset: "design-system-checkbox", filter: ["theme=disabled", "dynamic-type=L", "scale=1"])
        let ring = try #require(s.run(NonTextContrastRule()).first { $0.subject == "ring" })
        let loc = try #require(ring.location)
        #expect(loc.file == "Assets/presets/design-system-checkbox.json")
        #expect(loc.keyPath == "themes.disabled.border")
        #expect(loc.token == "{mark.disabled.border.default}")
        #expect(loc.tokenFile == "Assets/tokens/design-system.tokens.json")
        let tokenLines = try #require(EmbeddedAssets.files["Assets/tokens/design-system.tokens.json"]).components(separatedBy: "\n")
        let tokenLine = try #require(loc.tokenLine)
        // {mark.disabled.border.default} (line 34) names {color.grey.300}, whose value is on line 11.
        #expect(tokenLines[tokenLine - 1].contains("\"border\": { \"default\": { \"$value\": \"{color.grey.300}\" } }"), "\(tokenLines[tokenLine - 1])")
        let chain = try #require(loc.aliasChain)
        #expect(chain.map(\.token) == ["{mark.disabled.border.default}", "{color.grey.300}"] && chain[0].line == tokenLine)
        #expect(tokenLines[try #require(chain[1].line) - 1].contains("\"300\": { \"$value\": \"#C4C4C4\" }"), "\(chain)")
        #expect(loc.aliasValue == "#C4C4C4")
        let specLines = try #require(Presets.source("design-system-checkbox")).components(separatedBy: "\n")
        #expect(specLines[try #require(loc.line) - 1].contains("\"border\": \"{mark.disabled.border.default}\""))
    }

    @Test("a 0.5 pt ring that reaches 4.54:1 as authored never reaches 3:1 in any pixel at @1x: a warning for @1x only")
    func thinStrokePixels() throws {
        let s = try AuditScene(SpecText.checkbox(
            states: ["unchecked"], appearance: ##"{ "unchecked": { "ring": true, "fill": false, "mark": "none" } }"##,
            theme: ##"{ "surface": "#FFFFFF", "border": "#767676" }"##,
            size: ##"{ "size": 20, "cornerRadius": 4, "borderWidth": 0.5 }"##, scales: [1, 2], sizes: ["L"]))
        let findings = s.run(NonTextContrastRule())
        #expect(findings.count == 1)
        let f = try #require(findings.first)
        #expect(f.severity == .warning)
        #expect(f.numbers["scale"] == 1)
        #expect(f.numbers["bestPixelRatio"]! < 3)
        #expect(Self.sixPlaces(f.numbers["ratio"]!) == 4.542225)  // reference vector #767676 on #FFFFFF
        #expect(f.variant == "t/square-md/L/default/unchecked@1x")
        #expect(f.message.contains("at @1x no pixel of it reaches 3:1"))
        // At @2x the half-point ring covers whole pixels.
        let two = try s.index("t/square-md/L/default/unchecked@2x")
        let layout = s.plan.items[two].layout
        let best = NonTextContrastRule.bestPixelRatio(s.input.glyphs[two], region: layout.glyph, exclude: nil, background: .white)
        #expect(best >= 4.5)
    }
}
