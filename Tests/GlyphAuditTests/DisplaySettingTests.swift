import Foundation
import Testing
@testable import GlyphAudit
@testable import GlyphCore
import GlyphRaster
import GlyphRender
import GlyphTestSupport
import GlyphRenderTestSupport

/// Display settings as an axis of the matrix (issue 21 items 3–4): the `settings` key, the derived
/// spec of each setting, what each setting draws, the bad input, and the audits across settings.
@Suite("Display settings: the axis, derived specs, rendering, setting-regression")
struct DisplaySettingTests {
    /// WCAG 2.2 relative luminance and contrast ratio, by hand.
    static func luminance(_ hex: String) -> Double {
        let v = Array(hex.dropFirst())
        func ch(_ i: Int) -> Double {
            let c = Double(Int(String(v[i...i + 1]), radix: 16)!) / 255
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * ch(0) + 0.7152 * ch(2) + 0.0722 * ch(4)
    }
    static func ratio(_ a: String, _ b: String) -> Double {
        let (x, y) = (luminance(a), luminance(b))
        return (max(x, y) + 0.05) / (min(x, y) + 0.05)
    }

    static func checkbox(_ settings: String, label: String = #""label": {"text": "Remember me", "textStyle": "body", "spacing": 8}"#) -> String {
        """
        {"name": "cb", "control": "checkbox",
         "sizes": {"md": {"size": 20, "cornerRadius": 4, "borderWidth": 2, "markSize": 14, "markWeight": 2}},
         \(label),
         "states": ["unchecked", "checked"], "scales": [1, 2], "dynamicTypeSizes": ["L", "AX1"],
         "themes": {"default": {"surface": "#FFFFFF", "border": "#595959", "fill": "#0A66C2", "mark": "#FFFFFF", "label": "#000000"}}\(settings)}
        """
    }

    static func switchSpec(_ settings: String) -> String {
        """
        {"name": "sw", "control": "switch",
         "sizes": {"md": {"trackWidth": 51, "trackHeight": 31, "knobDiameter": 27, "knobInset": 2}},
         "states": ["off", "on"], "scales": [2], "dynamicTypeSizes": ["L"],
         "themes": {"default": {"surface": "#FFFFFF", "trackOff": "#767676", "trackOn": "#248A3D", "knob": "#FFFFFF"}}\(settings)}
        """
    }

    static func failure(_ json: String) -> InputError? {
        if case let .failure(e) = loadSpec(json) { return e }
        return nil
    }

    @Test("Without settings the matrix is as before; with them each setting adds a whole matrix after the default, ids carry +setting")
    func axis() throws {
        let plain = try loadSpec(Self.checkbox("")).get()
        // 1 shape × 1 size × 2 sizes × 1 theme × 2 states × 2 scales.
        #expect(plain.variants().count == 8 && plain.variants().allSatisfy { $0.setting == nil })
        let spec = try loadSpec(Self.checkbox(#", "settings": ["boldText", "rightToLeft"]"#)).get()
        let vs = spec.variants()
        #expect(vs.count == 24 && spec.variantCount == 24 && plain.variantCount == 8)
        #expect(Array(vs.prefix(8)) == plain.variants())
        #expect(vs[8].id == "cb/square-md/L/default+boldText/unchecked@1x")
        #expect(vs[8].pictureID == "cb/square-md/L/default+boldText/unchecked")
        #expect(vs[8].fileName("png") == "cb/square-md/L/default+boldText/unchecked@1x.png")
        #expect(vs[16].setting == .rightToLeft)
        #expect(VariantID(vs[8]).theme == "default+boldText")
        var only = VariantFilter()
        try only.add("setting=boldText")
        #expect(vs.filter(only.matches).count == 8 && vs.filter(only.matches).allSatisfy { $0.setting == .boldText })
        var none = VariantFilter()
        try none.add("setting=none")
        #expect(vs.filter(none.matches) == plain.variants())
        var bad = VariantFilter()
        #expect(throws: FilterError.self) { try bad.add("setting=boldtext") }
        do { try bad.add("setting=boldtext") } catch { #expect(error.message.contains("did you mean \"boldText\"")) }
    }

    @Test("A Variant without a setting encodes without the key (old JSON stays byte-identical) and old JSON decodes")
    func codable() throws {
        let v = Variant(preset: "p", control: .checkbox, shape: .square, size: "md", dynamicType: .large, theme: "default",
                        state: .checked, scale: 2)
        let enc = JSONEncoder()
        enc.outputFormatting = .sortedKeys
        let text = String(decoding: try enc.encode(v), as: UTF8.self)
        #expect(!text.contains("setting"))
        #expect(try JSONDecoder().decode(Variant.self, from: Data(text.utf8)) == v)
        var b = v
        b.setting = .boldText
        let bold = String(decoding: try enc.encode(b), as: UTF8.self)
        #expect(bold.contains(#""setting":"boldText""#))
        #expect(try JSONDecoder().decode(Variant.self, from: Data(bold.utf8)) == b)
    }

    @Test("JSON Merge Patch as RFC 7386 appendix A gives it")
    func mergePatch() throws {
        func node(_ s: String) throws -> JSONNode { try JSONReader.parse(Data(s.utf8)) }
        let cases: [(String, String, String)] = [
            (#"{"a":"b"}"#, #"{"a":"c"}"#, #"{"a":"c"}"#),
            (#"{"a":"b"}"#, #"{"b":"c"}"#, #"{"a":"b","b":"c"}"#),
            (#"{"a":"b"}"#, #"{"a":null}"#, #"{}"#),
            (#"{"a":"b","b":"c"}"#, #"{"a":null}"#, #"{"b":"c"}"#),
            (#"{"a":["b"]}"#, #"{"a":"c"}"#, #"{"a":"c"}"#),
            (#"{"a":{"b":"c"}}"#, #"{"a":{"b":"d","c":null}}"#, #"{"a":{"b":"d"}}"#),
            (#"{"a":[{"b":"c"}]}"#, #"{"a":[1]}"#, #"{"a":[1]}"#),
            (#"["a","b"]"#, #"["c","d"]"#, #"["c","d"]"#),
            (#"{"e":null}"#, #"{"a":1}"#, #"{"e":null,"a":1}"#),
            (#"[1,2]"#, #"{"a":"b","c":null}"#, #"{"a":"b"}"#),
            (#"{}"#, #"{"a":{"bb":{"ccc":null}}}"#, #"{"a":{"bb":{}}}"#),
        ]
        for (target, patch, result) in cases {
            #expect(try node(target).merged(with: try node(patch)) == (try node(result)), "\(target) + \(patch)")
        }
    }

    @Test("Bad settings: an unknown name (did you mean), On/Off Labels on a checkbox, a bad value in a patch — file, line, key")
    func badInput() throws {
        let unknown = try #require(Self.failure(Self.checkbox(",\n \"settings\": [\"boldtext\"]")))
        #expect(unknown.keyPath == "settings[0]" && unknown.line == 6)
        #expect(unknown.message.contains("did you mean \"boldText\"") && unknown.message.contains("increaseContrast, boldText"))
        let onOff = try #require(Self.failure(Self.checkbox(",\n \"settings\": {\"onOffLabels\": {}}")))
        #expect(onOff.keyPath == "settings.onOffLabels" && onOff.line == 6)
        #expect(onOff.message.contains("a checkbox can have: increaseContrast, boldText, differentiateWithoutColor, rightToLeft"))
        let patch = try #require(Self.failure(Self.checkbox(",\n \"settings\": {\"increaseContrast\":\n {\"themes\": {\"default\": {\"border\": \"#GG0000\"}}}}")))
        #expect(patch.keyPath == "themes.default.border" && patch.line == 7)
        #expect(patch.message.contains("display setting \"increaseContrast\""))
        let notObject = try #require(Self.failure(Self.checkbox(",\n \"settings\": {\"boldText\": true}")))
        #expect(notObject.keyPath == "settings.boldText")
        let name = try #require(Self.failure(Self.checkbox(",\n \"settings\": {\"boldText\": {\"name\": \"x\"}}")))
        #expect(name.keyPath == "settings.boldText.name")
    }

    @Test("Bold Text sets the label in bold (as wide as the bold face measures); right-to-left puts a trailing label before the glyph")
    func boldAndRightToLeft() throws {
        let spec = try loadSpec(Self.checkbox(#", "settings": ["boldText", "rightToLeft"]"#)).get()
        let plan = try Plan(specs: [spec])
        func item(_ id: String) throws -> PlannedVariant { try #require(plan.items.first { $0.variant.id == id }) }
        let plain = try item("cb/square-md/L/default/checked@1x").layout
        let bold = try item("cb/square-md/L/default+boldText/checked@1x").layout
        let rtl = try item("cb/square-md/L/default+rightToLeft/checked@1x").layout
        let regular = PangoText.measure("Remember me", points: 17, bold: false)
        let heavy = PangoText.measure("Remember me", points: 17, bold: true)
        #expect(plain.label?.bold == false && bold.label?.bold == true)
        #expect(heavy.width > regular.width)
        #expect(abs(bold.label!.box.width - heavy.width) < 1e-9 && abs(plain.label!.box.width - regular.width) < 1e-9)
        // Left to right: glyph at the margin, label 20 + 8 pt after it. Right to left: the label at the margin, the glyph after it.
        #expect(plain.frame.x == 4 && plain.label!.box.x == 32)
        #expect(rtl.label!.box.x == 4 && abs(rtl.frame.x - (4 + regular.width + 8).rounded()) <= 1)
        #expect(rtl.frame.width == 20 && rtl.canvas.width == plain.canvas.width)
    }

    @Test("A switch mirrors right to left as UISwitch does: on, the 27 pt knob sits 2 pt from the track's left end; the On/Off Labels mirror with it")
    func switchRightToLeft() throws {
        let spec = try loadSpec(Self.switchSpec(#", "settings": ["rightToLeft", "onOffLabels"]"#)).get()
        let plan = try Plan(specs: [spec])
        func item(_ id: String) throws -> PlannedVariant { try #require(plan.items.first { $0.variant.id == id }) }
        for state in ["on", "off"] {
            let ltr = try item("sw/switch-md/L/default/\(state)@2x").layout
            let rtl = try item("sw/switch-md/L/default+rightToLeft/\(state)@2x").layout
            let track = rtl.glyph, knob = try #require(rtl.knob)
            #expect(knob.width == 27)
            // Mirrored about the track's middle: on at the left end (2 pt inset), off at the right end.
            if state == "on" { #expect(abs(knob.minX - (track.minX + 2)) < 1e-9) } else { #expect(abs(knob.maxX - (track.maxX - 2)) < 1e-9) }
            let l = try #require(ltr.knob)
            #expect(abs((knob.minX - track.minX) - (ltr.glyph.maxX - l.maxX)) < 1e-9)
        }
        // `|` (on) 11 pt from the track's leading end: the right end, right to left.
        let track = Rect(x: 0, y: 0, width: 51, height: 31)
        let bar = Scene.onOffLabelRect(track: track, on: true, rightToLeft: true)
        #expect(abs(bar.midX - (51 - 11)) < 1e-9)
        #expect(abs(Scene.onOffLabelRect(track: track, on: false, rightToLeft: true).midX - 12) < 1e-9)
    }

    @Test("Marks are not mirrored right to left unless mirrorsInRightToLeft; On/Off Labels draw iOS's | and ○")
    func mirroringAndLabels() throws {
        let spec = try loadSpec(Self.checkbox(#", "settings": ["rightToLeft"]"#)).get()
        let plan = try Plan(specs: [spec])
        #expect(plan.items.allSatisfy { $0.scene.parts.allSatisfy { !$0.mirrored } })
        let mirrored = try loadSpec(Self.checkbox(#", "settings": ["rightToLeft"], "mirrorsInRightToLeft": true"#)).get()
        let mplan = try Plan(specs: [mirrored])
        let ticks = mplan.items.flatMap { $0.scene.parts.filter { $0.kind == .mark } }
        #expect(ticks.count == 8)
        #expect(ticks.filter(\.mirrored).count == 4)
        // The mirrored tick's pixels are the unmirrored ones flipped about the mark square's centre.
        let a = try #require(mplan.items.first { $0.variant.id == "cb/square-md/L/default/checked@2x" })
        let b = try #require(mplan.items.first { $0.variant.id == "cb/square-md/L/default+rightToLeft/checked@2x" })
        let ra = Renderer.raster(a.scene), rb = Renderer.raster(b.scene)
        let ma = try #require(a.scene.parts.first { $0.kind == .mark }).rect, mb = try #require(b.scene.parts.first { $0.kind == .mark }).rect
        let (x0, y0, x1, y1) = (Int(ma.minX * 2), Int(ma.minY * 2), Int(ma.maxX * 2), Int(ma.maxY * 2))
        let bx0 = Int(mb.minX * 2), by0 = Int(mb.minY * 2)
        // Cairo's anti-aliasing is not exactly symmetric: flipped, the pixels agree within a few levels;
        // unflipped, the tick's two arms fall on different pixels.
        func worst(_ flip: Bool) -> Int {
            var out = 0
            for y in y0..<y1 {
                for x in x0..<x1 {
                    let p = ra.pixel(x, y), q = rb.pixel(bx0 + (flip ? x1 - 1 - x : x - x0), by0 + (y - y0))
                    out = max(out, abs(Int(p.r) - Int(q.r)), abs(Int(p.g) - Int(q.g)), abs(Int(p.b) - Int(q.b)))
                }
            }
            return out
        }
        #expect(worst(true) <= 24 && worst(false) > 128, "\(worst(true)) \(worst(false))")
        let sw = try loadSpec(Self.switchSpec(#", "settings": ["onOffLabels"]"#)).get()
        let splan = try Plan(specs: [sw])
        #expect(splan.items.filter { $0.variant.setting == nil }.allSatisfy { $0.scene.parts.allSatisfy { !$0.name.hasSuffix(" label") } })
        let labels = splan.items.filter { $0.variant.setting == .onOffLabels }.map { $0.scene.parts.last { $0.kind == .mark }?.name }
        #expect(labels == ["off label", "on label"])
    }

    @Test("Increase Contrast that lowers the off track's contrast is an error naming the setting and both ratios")
    func increaseContrastRegression() throws {
        let s = try AuditScene(Self.switchSpec(##", "settings": {"increaseContrast": {"themes": {"default": {"trackOff": "#8E8E93", "trackOn": "#1E6B30"}}}}"##))
        let found = s.run(SettingRegressionRule())
        // The off track, and the white knob on it: both 3.26:1 instead of 4.54:1.
        #expect(found.map(\.subject) == ["off track", "knob on off track"])
        let f = try #require(found.first)
        #expect(abs(found[1].numbers["ratio"]! - 3.2605) < 1e-3 && abs(found[1].numbers["ratio.without"]! - 4.5422) < 1e-3)
        #expect(f.severity == .error && f.subject == "off track" && f.variant.description == "sw/switch-md/L/default+increaseContrast/off@2x")
        // #8E8E93 on white 3.26:1 (3.2605 by hand), #767676 on white 4.54:1 (4.5422).
        #expect(abs(f.numbers["ratio"]! - Self.ratio("#8E8E93", "#FFFFFF")) < 1e-3 && abs(f.numbers["ratio"]! - 3.2605) < 1e-3)
        #expect(abs(f.numbers["ratio.without"]! - 4.5422) < 1e-3)
        #expect(f.message.hasPrefix("under Increase Contrast, off track #8E8E93 on #FFFFFF is 3.26:1 — lower than 4.54:1 without it"))
        #expect(f.location?.keyPath == "themes.default.trackOff")
        // The on track went darker (#1E6B30 is higher than #248A3D's 4.40:1): no finding.
        #expect(Self.ratio("#1E6B30", "#FFFFFF") > Self.ratio("#248A3D", "#FFFFFF"))
    }

    @Test("Every rule runs on setting variants and names the setting: On/Off Labels' ○ at 2.17:1 on its track")
    func onOffLabelsNamed() throws {
        let s = try AuditScene(Self.switchSpec(#", "settings": ["onOffLabels"]"#), filter: ["setting=onOffLabels"])
        let auditor = Auditor(rules: [NonTextContrastRule()])
        let found = auditor.findings(s.input, pass: .acrossComponents) + auditor.findings(s.input, pass: .components)
        let off = try #require(found.first { $0.subject == "off label" })
        // iOS's off label #B3B3B3 on the #767676 track: 2.17:1 by hand (2.1664).
        #expect(abs(off.numbers["ratio"]! - 2.1664) < 1e-3)
        #expect(off.message.hasPrefix("under On/Off Labels: "))
        #expect(off.variant.theme == "default+onOffLabels")
    }

    @Test("States told apart by more than colour only under Differentiate Without Color: a warning saying so")
    func differentiateOnly() throws {
        let json = """
        {"name": "dwc", "control": "checkbox",
         "sizes": {"md": {"size": 20, "cornerRadius": 4, "borderWidth": 2, "markSize": 14, "markWeight": 2}},
         "states": ["unchecked", "checked"], "scales": [1], "dynamicTypeSizes": ["L"],
         "appearance": {"unchecked": {"ring": false, "fill": true, "mark": "none"}, "checked": {"ring": false, "fill": true, "mark": "none"}},
         "themes": {"default": {"surface": "#FFFFFF", "fill": "#595959", "mark": "#FFFFFF", "states": {"checked": {"fill": "#0A66C2"}}}},
         "settings": {"differentiateWithoutColor": {"appearance": {"checked": {"mark": "check"}}}}}
        """
        let s = try AuditScene(json)
        let found = s.run(SettingRegressionRule())
        #expect(found.count == 1)
        let f = try #require(found.first)
        #expect(f.severity == .warning && f.criterion == "1.4.1")
        #expect(f.message.contains("only under Differentiate Without Color") && f.variant.theme == "default+differentiateWithoutColor")
        // A patch that changes nothing the states show: no finding.
        let same = try AuditScene(json.replacingOccurrences(of: #"{"appearance": {"checked": {"mark": "check"}}}"#, with: "{}"))
        #expect(same.run(SettingRegressionRule()).isEmpty)
    }
}
