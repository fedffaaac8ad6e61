import Foundation
import Testing
import GlyphAudit
import GlyphCore
import GlyphRender
import GlyphTestSupport
import GlyphRenderTestSupport

// Image switches (`"control": "switch"` with `images.off` / `images.on`): the toggle icons of the
// real icon sets in Tests/Fixtures/icons (material, bootstrap, lucide, fluent), audited as a
// switch. The corpus wraps them as two-state image checkboxes; here the same spec, the same SVGs,
// become a switch (states off/on). Ground truth is the corpus README's: a real toggle pair differs in
// shape (the knob moves), a pair that only changes its tint does not.

/// The toggle families of the icon corpus and their specs made image switches.
enum ToggleCorpus {
    static let root = TestPaths.fixture("icons").standardizedFileURL

    /// Every `<set>/toggle*` folder of the corpus with an off and an on image.
    static let families: [String] = {
        let fm = FileManager.default
        var out: [String] = []
        for set in ((try? fm.contentsOfDirectory(atPath: root.path)) ?? []).sorted() {
            let dir = root.appendingPathComponent(set)
            for family in ((try? fm.contentsOfDirectory(atPath: dir.path)) ?? []).sorted() where family.hasPrefix("toggle") {
                let f = dir.appendingPathComponent(family)
                if ["off.svg", "on.svg", "spec.json"].allSatisfy({ fm.fileExists(atPath: f.appendingPathComponent($0).path) }) {
                    out.append("\(set)/\(family)")
                }
            }
        }
        return out
    }()

    static func svg(_ family: String, _ name: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent("\(family)/\(name)"), encoding: .utf8)
    }

    /// The corpus's spec of `family` (a two-state image checkbox: unchecked = off) as an image switch:
    /// `control` switch, states off and on, no three-state keys; `edit` changes it further.
    static func switchSpec(_ family: String, scales: [Int] = [1, 2, 3],
                           edit: (inout [String: Any]) -> Void = { _ in }) throws -> String {
        let data = try Data(contentsOf: root.appendingPathComponent("\(family)/spec.json"))
        var spec = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        spec["control"] = "switch"
        spec["states"] = ["off", "on"]
        var images = try #require(spec["images"] as? [String: Any])
        for key in ["clear", "threeState", "useOffImageForClear"] { images[key] = nil }
        spec["images"] = images
        spec["scales"] = scales
        edit(&spec)
        return String(decoding: try JSONSerialization.data(withJSONObject: spec, options: [.sortedKeys, .prettyPrinted]), as: UTF8.self)
    }

    /// The off and on images of `family`, as the spec names them.
    static func files(_ family: String) throws -> [String: String] {
        ["off.svg": try svg(family, "off.svg"), "on.svg": try svg(family, "on.svg")]
    }
}

@Suite("Image switches (toggle icons)")
struct ImageSwitchTests {
    static let views = ["greyscale", "protanopia", "deuteranopia", "tritanopia"]

    @Test("the corpus has the five toggle families its README lists")
    func corpusFamilies() {
        #expect(ToggleCorpus.families == ["bootstrap/toggle", "bootstrap/toggle2", "fluent/toggle", "lucide/toggle", "material/toggle"])
    }

    @Test("a real toggle pair audits as a switch: switch ids, no track or knob, the knob's move changes the shape in every view",
          arguments: ToggleCorpus.families)
    func realPairPasses(_ family: String) throws {
        let s = try AuditScene(try ToggleCorpus.switchSpec(family), files: try ToggleCorpus.files(family))
        #expect(s.spec.control == .switch && s.spec.states == [.off, .on])
        // 3 sizes (16, 20, 24 pt) × 2 themes × 2 states × 3 scales at L.
        #expect(s.plan.items.count == 36)
        for item in s.plan.items {
            let v = item.variant
            #expect(v.component == "switch-\(v.size)", "\(v.id)")
            let side = try #require(s.spec.size(named: v.size)).trackWidth
            #expect(item.layout.knob == nil && item.layout.mark == nil)
            #expect(item.layout.glyph.width == side && item.layout.glyph.height == side, "\(v.id): the image box is size × size")
            // The corpus's 44 × 44 pt frame, centred on the image box.
            #expect(item.layout.frame.width == 44 && item.layout.hitArea == item.layout.frame)
            let image = try #require(item.layout.image)
            #expect(image.minX >= item.layout.glyph.minX - 1e-9 && image.maxX <= item.layout.glyph.maxX + 1e-9)
        }
        // The README's ground truth: every pair passes state-shape, at every size and scale, @1x included.
        #expect(s.run(StateShapeRule()).isEmpty)
        for g in s.input.stateGroups() where g.count == 2 {
            for (view, area) in StateShapeRule.areas(s.input, g[0], g[1]) {
                #expect(area >= 1, "\(s.plan.items[g[1]].variant.id) \(view): \(area) pt²")
            }
        }
        // Near-black on white and near-white on black; nothing stretched or clipped; a 44 pt frame.
        #expect(s.run(NonTextContrastRule()).filter { $0.severity != .info }.isEmpty)
        #expect(s.run(ImageAspectRule()).isEmpty)
        #expect(s.run(ClippingRule()).isEmpty)
        #expect(s.run(TargetSizeRule()).isEmpty)
    }

    @Test("the on image of a real toggle in both states, only the tint changing, fails state-shape in every view",
          arguments: ToggleCorpus.families)
    func tintOnlyFails(_ family: String) throws {
        // The corpus's neg-tint-only construction: grey → blue, and an equal-luminance blue → red.
        let json = try ToggleCorpus.switchSpec(family) { spec in
            spec["images"] = ["off": "off.svg", "on": "on.svg", "template": true]
            spec["themes"] = [
                "greyblue": ["surface": "#FFFFFF", "tint": "#8E8E93", "states": ["on": ["tint": "#007AFF"]]],
                "equallum": ["surface": "#FFFFFF", "tint": "#0060DF", "states": ["on": ["tint": "#D70015"]]],
            ]
        }
        let on = try ToggleCorpus.svg(family, "on.svg")
        let s = try AuditScene(json, files: ["off.svg": on, "on.svg": on])
        var pairs = 0
        for g in s.input.stateGroups() where g.count == 2 {
            pairs += 1
            for (view, area) in StateShapeRule.areas(s.input, g[0], g[1]) {
                #expect(area == 0, "a recolouring changes nothing: \(s.plan.items[g[1]].variant.id) \(view): \(area) pt²")
            }
        }
        #expect(pairs == 18, "3 sizes × 2 themes × 3 scales")
        let findings = s.run(StateShapeRule())
        #expect(!findings.isEmpty)
        var failed = Set<String>()
        for f in findings {
            #expect(f.severity == .error && f.subject == "off vs on")
            #expect(Set((f.values["failingViews"] ?? "").split(separator: ",").map(String.init)) == Set(Self.views),
                    "including the colour-vision views: \(f.values)")
            #expect(f.message.hasPrefix("off vs on (off image → on image): only the colours change"), "\(f.message)")
            #expect(f.message.contains("the on and off images of a switch must differ in shape"), "\(f.message)")
            #expect(f.location?.keyPath == "images")
            // `<preset>/switch-s16/L/greyblue/on@*x`: the scales folded into one finding.
            let parts = f.variant.description.split(separator: "/").map(String.init)
            #expect(parts.count == 5 && parts[4].hasPrefix("on@"), "\(f.variant)")
            if parts.count == 5 { failed.insert("\(parts[1])/\(parts[3])") }
        }
        #expect(failed.count == 6, "every size in both themes fails: \(failed.sorted())")
    }

    @Test("the template tint against the surface is WCAG's ratio: every reference vector, passing or failing 3:1")
    func tintContrastIsWCAG() throws {
        let vectors = try ReferenceData.contrastVectors()
        var themes: [String: Any] = [:]
        for (i, v) in vectors.enumerated() { themes["v\(i)"] = ["surface": v.bg, "tint": v.fg] }
        let json = try ToggleCorpus.switchSpec("lucide/toggle", scales: [2]) { spec in
            spec["sizes"] = ["s24": ["size": 24]]
            spec["themes"] = themes
        }
        let s = try AuditScene(json, files: try ToggleCorpus.files("lucide/toggle"))
        let authored = s.run(NonTextContrastRule()).filter { $0.subject == "image (tint)" }
        for (i, v) in vectors.enumerated() {
            let theme = "v\(i)"
            let found = authored.filter { $0.values["theme"] == theme }
            if v.meets_3_0 {
                #expect(found.isEmpty, "\(v.fg) on \(v.bg) is \(v.wcag2_ratio):1")
                continue
            }
            // One per state, each at the vector's ratio, located at the theme's tint.
            #expect(found.count == 2, "\(v.fg) on \(v.bg): \(found.map(\.variant))")
            for f in found {
                #expect(f.severity == .error && f.criterion == "1.4.11")
                let ratio = try #require(f.numbers["ratio"])
                #expect(abs(ratio - v.wcag2_ratio) < 1e-5, "\(v.fg) on \(v.bg): \(ratio), WCAG \(v.wcag2_ratio)")
                #expect(f.values["foreground"] == v.fg.uppercased() && f.values["background"] == v.bg.uppercased())
                #expect(f.location?.keyPath == "themes.\(theme).tint")
            }
        }
    }

    /// WCAG 2's contrast ratio of two opaque `#RRGGBB` colours, written out from its definition.
    static func wcagRatio(_ a: String, _ b: String) -> Double {
        func luminance(_ hex: String) -> Double {
            let v = Int(hex.dropFirst(), radix: 16)!
            let c = [v >> 16, (v >> 8) & 0xFF, v & 0xFF].map { (x: Int) -> Double in
                let s = Double(x) / 255
                return s <= 0.04045 ? s / 12.92 : pow((s + 0.055) / 1.055, 2.4)
            }
            return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]
        }
        let (x, y) = (luminance(a), luminance(b))
        return (max(x, y) + 0.05) / (min(x, y) + 0.05)
    }

    @Test("original-colour toggle images are measured on their pixels: dark ink on a black surface fails, on white passes")
    func originalColourImages() throws {
        // The corpus's SVGs paint black (currentColor without a CSS colour, or no paint at all), or
        // fluent's #212121.
        for family in ToggleCorpus.families {
            let ink = try ToggleCorpus.svg(family, "on.svg").contains("#212121") ? "#212121" : "#000000"
            let json = try ToggleCorpus.switchSpec(family, scales: [1, 2]) { spec in
                spec["images"] = ["off": "off.svg", "on": "on.svg", "template": false]
                spec["sizes"] = ["s24": ["size": 24]]
                spec["themes"] = ["light": ["surface": "#FFFFFF"], "dark": ["surface": "#000000"]]
            }
            let s = try AuditScene(json, files: try ToggleCorpus.files(family))
            let findings = s.run(NonTextContrastRule())
            #expect(!findings.contains { $0.values["theme"] == "light" && $0.severity != .info }, "\(family): \(findings.map(\.message))")
            for key in ["off", "on"] {
                let f = try #require(findings.first { $0.values["theme"] == "dark" && $0.subject == "\(key) image" }, "\(family) \(key)")
                #expect(f.severity == .error)
                if ink == "#000000" {
                    #expect(f.message.contains("the image draws nothing that stands out from the surface"), "\(f.message)")
                } else {
                    let best = String(format: "%.2f", Self.wcagRatio(ink, "#000000"))
                    #expect(f.message.contains("0% of its outline is within a pixel of ink reaching 3:1 (best pixel \(best):1)"),
                            "\(family): \(f.message)")
                }
                #expect(f.location?.keyPath == "images.\(key)")
            }
        }
    }

    @Test("target size: the image box is the frame; under 24 pt an error, under 44 pt a warning (short side)")
    func targetSize() throws {
        let json = try ToggleCorpus.switchSpec("material/toggle", scales: [1]) { spec in
            spec["frame"] = nil
            spec["sizes"] = ["s16": ["size": 16], "s24": ["size": 24], "w20": ["width": 48, "height": 20],
                             "w28": ["width": 48, "height": 28], "s44": ["size": 44]]
        }
        let s = try AuditScene(json, files: try ToggleCorpus.files("material/toggle"))
        let findings = s.run(TargetSizeRule())
        func one(_ size: String) throws -> Finding {
            let fs = findings.filter { $0.variant.description.hasPrefix("material-toggle/switch-\(size)/") }
            #expect(fs.count == 1, "\(size): \(fs.map(\.message))")
            return try #require(fs.first)
        }
        for (size, w, h, severity) in [("s16", 16.0, 16.0, Severity.error), ("w20", 48, 20, .error),
                                       ("s24", 24, 24, .warning), ("w28", 48, 28, .warning)] {
            let f = try one(size)
            #expect(f.severity == severity, "\(size): \(f.message)")
            #expect(f.numbers["width"] == w && f.numbers["height"] == h, "\(size): \(f.numbers)")
        }
        #expect(!findings.contains { $0.variant.description.hasPrefix("material-toggle/switch-s44/") })
    }

    @Test("geometry: `size` is a square image box, `width` × `height` a wide one; the image is fitted in it, no knob")
    func geometry() throws {
        let json = try ToggleCorpus.switchSpec("lucide/toggle", scales: [2]) { spec in
            spec["frame"] = nil
            spec["sizes"] = ["wide": ["width": 48, "height": 20]]
            spec["glyph"] = ["textStyle": "body", "scalesWithDynamicType": true]
            spec["dynamicTypeSizes"] = ["L", "AX5"]
        }
        let s = try AuditScene(json, files: try ToggleCorpus.files("lucide/toggle"))
        for item in s.plan.items {
            // Body text is 17 pt at L and 53 pt at AX5 (Apple's Dynamic Type table), so the box grows 53/17.
            let k = item.variant.dynamicType == .large ? 1 : 53.0 / 17
            let l = item.layout
            #expect(abs(l.glyph.width - 48 * k) < 1e-9 && abs(l.glyph.height - 20 * k) < 1e-9, "\(item.variant.id): \(l.glyph)")
            #expect(l.frame == l.glyph && l.knob == nil)
            // lucide's toggle is 24 × 24: aspect-fit in a 48 × 20 box, a 20 × 20 square in the middle.
            let image = try #require(l.image)
            #expect(abs(image.width - 20 * k) < 1e-9 && abs(image.height - 20 * k) < 1e-9)
            #expect(abs(image.midX - l.glyph.midX) < 1e-9 && abs(image.midY - l.glyph.midY) < 1e-9)
        }
        // Drawn undistorted and inside its hugging frame.
        #expect(s.run(ImageAspectRule()).isEmpty)
        #expect(s.run(ClippingRule()).isEmpty)
    }

    @Test("dynamic-type-scaling: a fixed image switch beside a growing label is an error, as for an image checkbox (a drawn switch: info)")
    func dynamicType() throws {
        let label: [String: Any] = ["text": "Wi-Fi", "textStyle": "body"]
        let json = try ToggleCorpus.switchSpec("fluent/toggle", scales: [1]) { spec in
            spec["frame"] = nil
            spec["sizes"] = ["s24": ["size": 24]]
            spec["label"] = label
            spec["themes"] = ["default": ["surface": "#FFFFFF", "tint": "#1A1A1A", "label": "#000000"]]
            spec["dynamicTypeSizes"] = ["L", "AX5"]
        }
        let s = try AuditScene(json, files: try ToggleCorpus.files("fluent/toggle"))
        let findings = s.run(DynamicTypeScalingRule())
        #expect(findings.count == 1)
        let f = try #require(findings.first)
        #expect(f.severity == .error && f.subject == "glyph", "\(f.message)")
        // The image stays 24 pt while body goes 17 → 53 pt: the ratio drifts to 17/53 of its value at L.
        #expect(abs((f.numbers["drift"] ?? 0) - 17.0 / 53) < 1e-9)
        #expect(f.message.hasPrefix("the glyph stays 24.0 pt while the label goes from 17.0 pt at L to 53.0 pt at AX5"), "\(f.message)")

        // The same switch drawn (a platform switch): info, about its track.
        let drawn = try AuditScene("""
        { "name": "drawn", "control": "switch", "sizes": { "md": { "trackWidth": 51, "trackHeight": 31 } },
          "label": { "text": "Wi-Fi", "textStyle": "body" }, "states": ["off", "on"], "scales": [1], "dynamicTypeSizes": ["L", "AX5"],
          "themes": { "default": { "surface": "#FFFFFF", "trackOff": "#767676", "trackOn": "#000000", "knob": "#FFFFFF", "label": "#000000" } } }
        """)
        let info = drawn.run(DynamicTypeScalingRule())
        #expect(info.count == 1 && info.first?.severity == .info && info.first?.subject == "track")
    }
}

@Suite("Image switches: loading")
struct ImageSwitchLoadingTests {
    static let files = ["off.svg": #"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><circle cx="8" cy="12" r="3"/></svg>"#,
                        "on.svg": #"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><circle cx="16" cy="12" r="3"/></svg>"#]

    static func spec(images: String = #"{ "off": "off.svg", "on": "on.svg" }"#, size: String = #"{ "size": 24 }"#,
                     theme: String = ##"{ "surface": "#FFFFFF", "tint": "#000000" }"##) -> String {
        """
        { "name": "t", "control": "switch",
          "sizes": { "md": \(size) },
          "images": \(images),
          "states": ["off", "on"],
          "themes": { "default": \(theme) } }
        """
    }

    @Test("clear, threeState and useOffImageForClear are refused for a switch, naming the key and its line",
          arguments: [("clear", #""on.svg""#), ("threeState", "false"), ("useOffImageForClear", "true")])
    func threeStateKeysRefused(_ key: String, _ value: String) throws {
        let r = loadSpec(Self.spec(images: #"{ "off": "off.svg", "on": "on.svg", "\#(key)": \#(value) }"#), files: Self.files)
        guard case let .failure(e) = r else { Issue.record("\(key) was accepted"); return }
        #expect(e.keyPath == "images.\(key)")
        #expect(e.line == 3)
        #expect(e.message == "\"\(key)\" is for a three-state image checkbox; a switch has the states off and on and takes images.off and images.on only")
    }

    @Test("shapes on a switch is a warning: a switch has no box shape")
    func shapesWarned() throws {
        let spec = try loadSpec(Self.spec().replacingOccurrences(of: #""control": "switch","#, with: #""control": "switch", "shapes": ["circle"],"#),
                                files: Self.files).get()
        #expect(spec.warnings.map { "\($0.keyPath ?? ""):\($0.line ?? 0): \($0.message)" }
                == [#"shapes:1: a switch has no box shape (square or circle): "shapes" is not used"#])
        #expect(spec.shapes == [.square])
        #expect(try loadSpec(Self.spec(), files: Self.files).get().warnings.isEmpty)
    }

    @Test("an image switch needs both images")
    func bothImages() {
        guard case let .failure(e) = loadSpec(Self.spec(images: #"{ "on": "on.svg" }"#), files: Self.files) else {
            Issue.record("accepted without images.off"); return
        }
        #expect(e.keyPath == "images" && e.message == "missing required key \"off\"")
    }

    @Test("sizes: `size`, or `width` and `height`; not both, no track or knob keys")
    func sizes() throws {
        let square = try loadSpec(Self.spec(), files: Self.files).get()
        #expect(square.sizes[0].trackWidth == 24 && square.sizes[0].trackHeight == 24)
        let wide = try loadSpec(Self.spec(size: #"{ "width": "40pt", "height": 24 }"#), files: Self.files).get()
        #expect(wide.sizes[0].trackWidth == 40 && wide.sizes[0].trackHeight == 24 && wide.sizes[0].knobDiameter == 0)

        let refused: [(String, String, String)] = [
            (#"{ "size": 24, "width": 40 }"#, "sizes.md.width",
             "give either \"size\" (a square image box) or \"width\" and \"height\", not both"),
            (#"{ "width": 40 }"#, "sizes.md", "missing required key \"height\""),
            (#"{ }"#, "sizes.md", "missing required key \"size\" (the image box of an image switch; or \"width\" and \"height\")"),
            (#"{ "size": 0.5 }"#, "sizes.md.size", ""),
            (#"{ "trackWidth": 51, "trackHeight": 31 }"#, "sizes.md.trackWidth", "unknown key \"trackWidth\"; did you mean \"width\"? valid keys here: size, width, height"),
        ]
        for (size, keyPath, message) in refused {
            guard case let .failure(e) = loadSpec(Self.spec(size: size), files: Self.files) else {
                Issue.record("\(size) was accepted"); continue
            }
            #expect(e.keyPath == keyPath, "\(size): \(e)")
            if !message.isEmpty { #expect(e.message == message, "\(size): \(e)") }
        }
    }

    @Test("colours: the tint of template images, no track or knob; original-colour images only the surface")
    func colours() throws {
        // A drawn switch needs its tracks and knob; an image switch does not.
        #expect((try? loadSpec(Self.spec(), files: Self.files).get()) != nil)
        guard case let .failure(e) = loadSpec(Self.spec(theme: ##"{ "surface": "#FFFFFF" }"##), files: Self.files) else {
            Issue.record("a template image switch without a tint was accepted"); return
        }
        #expect(e.keyPath == "themes.default" && e.message == "missing colour \"tint\" (this control draws it)")
        let original = Self.spec(images: #"{ "off": "off.svg", "on": "on.svg", "template": false }"#, theme: ##"{ "surface": "#FFFFFF" }"##)
        #expect((try? loadSpec(original, files: Self.files).get()) != nil)
    }

    @Test("docs/spec.schema.json (draft 2020-12) takes the image switch examples and refuses a switch's three-state keys",
          .enabled(if: SchemaValidation.jsonschemaPython != nil, "python3 with the jsonschema module is not installed"))
    func schema() throws {
        let schema = TestPaths.packageRoot.appendingPathComponent("docs/spec.schema.json")
        for example in ["image-switch-pass", "image-switch-fail"] {
            let url = TestPaths.packageRoot.appendingPathComponent("docs/examples/rules/\(example)/spec.json")
            let data = try Data(contentsOf: url)
            let outcome = try SchemaValidation.validateJSON(data, schema: schema)
            #expect(outcome.valid, "\(example): \(outcome.output)")
            // And the loader takes it too.
            #expect(throws: Never.self) { try Spec.load(contentsOf: url) }
            var spec = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            var images = try #require(spec["images"] as? [String: Any])
            for (key, value) in [("clear", "on.svg" as Any), ("threeState", false as Any), ("useOffImageForClear", true as Any)] {
                images[key] = value
                spec["images"] = images
                let refused = try SchemaValidation.validateJSON(try JSONSerialization.data(withJSONObject: spec), schema: schema)
                #expect(!refused.valid, "\(example) with images.\(key)")
                images[key] = nil
            }
        }
    }
}
