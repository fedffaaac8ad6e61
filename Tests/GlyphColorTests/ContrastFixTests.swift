import Foundation
import Testing
@testable import GlyphAudit
@testable import GlyphColor
@testable import GlyphCore
import GlyphTestSupport
import GlyphRenderTestSupport

// The colour a contrast finding suggests: checked with a WCAG 2 ratio written here from the
// reference README's formula (not the library's), against the reference vectors, against a brute
// force over every 8-bit grey, and by applying each suggestion to the spec and auditing again.

/// The WCAG 2 ratio of two opaque 8-bit `#RRGGBB` colours, as Tests/Fixtures/reference/README.md writes it.
private func referenceRatio(_ a: String, _ b: String) -> Double {
    func lum(_ hex: String) -> Double {
        let v = Int(hex.dropFirst().prefix(6), radix: 16)!
        func lin(_ c: Int) -> Double {
            let s = Double(c) / 255
            return s <= 0.04045 ? s / 12.92 : pow((s + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * lin(v >> 16 & 255) + 0.7152 * lin(v >> 8 & 255) + 0.0722 * lin(v & 255)
    }
    let x = lum(a), y = lum(b)
    return (max(x, y) + 0.05) / (min(x, y) + 0.05)
}

private func grey(_ v: Int) -> String { String(format: "#%02X%02X%02X", v, v, v) }

@Suite("Contrast: suggested colours")
struct ContrastFixTests {
    @Test("OKLab: sRGB red is oklab(0.62796 0.22486 0.12585) (Ottosson), and every 17th 8-bit colour round-trips")
    // The published matrices carry ten decimals: a round trip is exact to about 3e-7.
    func oklabInverse() {
        let red = RGBA(hex: "#FF0000")!.oklab
        #expect(abs(red.L - 0.627955) < 1e-5 && abs(red.a - 0.224863) < 1e-5 && abs(red.b - 0.125846) < 1e-5)
        for r in stride(from: 0, through: 255, by: 17) {
            for g in stride(from: 0, through: 255, by: 17) {
                for b in stride(from: 0, through: 255, by: 17) {
                    let c = RGBA(r8: UInt8(r), g8: UInt8(g), b8: UInt8(b))
                    let lab = c.oklab
                    let back = OKLab.toLinearSRGB(L: lab.L, a: lab.a, b: lab.b)
                    #expect(abs(back.r - SRGB.toLinear(c.r)) < 1e-6 && abs(back.g - SRGB.toLinear(c.g)) < 1e-6
                        && abs(back.b - SRGB.toLinear(c.b)) < 1e-6)
                    // OKLCH and back, through the gamut mapping (an in-gamut colour is kept).
                    let again = OKLCH(c).gamutMapped
                    #expect(again.hex == c.hex)
                }
            }
        }
    }

    @Test("CSS Color 4 gamut mapping: an out-of-gamut OKLCH colour lands in sRGB with its lightness and hue kept")
    func gamutMapping() {
        #expect(OKLCH(L: 1.2, C: 0.3, h: 40).gamutMapped == RGBA(r: 1, g: 1, b: 1))
        #expect(OKLCH(L: -0.1, C: 0.3, h: 40).gamutMapped == RGBA(r: 0, g: 0, b: 0))
        for h in stride(from: 0.0, to: 360, by: 30) {
            for L in [0.3, 0.5, 0.7, 0.9] {
                let wild = OKLCH(L: L, C: 0.4, h: h)
                #expect(!wild.inGamut)
                let mapped = wild.gamutMapped
                for v in [mapped.r, mapped.g, mapped.b] { #expect(v >= 0 && v <= 1) }
                let back = OKLCH(mapped)
                // The search ends within a just-noticeable difference (ΔE_OK 0.02) of a colour with
                // the same L and h; the clip moves L by at most that.
                #expect(abs(back.L - L) <= 0.02, "h \(h) L \(L): \(back)")
                #expect(back.C < 0.4)
                // The final clip is within 0.02 of a colour on the hue line: its distance from that
                // line (C sin Δh) is at most the JND.
                let dh = (back.h - h) * .pi / 180
                #expect(back.C * abs(sin(dh)) <= 0.02 + 1e-9, "h \(h) L \(L): \(back)")
            }
        }
    }

    @Test("a grey on white or black: the suggestion is as near as the nearest 8-bit grey that reaches ratio + 0.05")
    func greysAgainstBruteForce() {
        for required in [3.0, 4.5] {
            let target = required + ColorFix.margin
            for bg in ["#FFFFFF", "#000000"] {
                for v in stride(from: 0, through: 255, by: 5) {
                    let start = grey(v)
                    guard referenceRatio(start, bg) < required else { continue }
                    let s = ContrastSuggestion.nearest(to: RGBA(hex: start)!, on: RGBA(hex: bg)!, reaching: target)
                    guard let s else { Issue.record("no suggestion for \(start) on \(bg)"); continue }
                    let ratio = referenceRatio(s.color.hex, bg)
                    #expect(ratio >= target, "\(start) on \(bg) → \(s.color.hex) is \(ratio)")
                    #expect(abs(ratio - s.ratio) < 1e-9)
                    // Brute force: the grey nearest `start` (in 8-bit steps) that reaches the target.
                    let nearest = (0...255).filter { referenceRatio(grey($0), bg) >= target }.min { abs($0 - v) < abs($1 - v) }!
                    // A grey stays grey, and it is the brute-force grey: no nearer grey reaches.
                    #expect(s.color.hex == grey(nearest), "\(start) on \(bg): \(s.color.hex), brute force \(grey(nearest))")
                }
            }
        }
    }

    @Test("every failing reference vector gets a colour reaching 3.05:1 and 4.55:1, with its OKLCH hue kept")
    func referenceVectors() throws {
        var checked = 0
        for v in try ReferenceData.contrastVectors() where !v.meets_4_5 {
            let fg = RGBA(hex: v.fg)!, bg = RGBA(hex: v.bg)!
            for required in [3.0, 4.5] where v.wcag2_ratio < required {
                let s = try #require(ContrastSuggestion.nearest(to: fg, on: bg, reaching: required + ColorFix.margin),
                                     "\(v.fg) on \(v.bg)")
                #expect(referenceRatio(s.color.hex, v.bg) >= required + ColorFix.margin, "\(v.fg) on \(v.bg) → \(s.color.hex)")
                let a = OKLCH(fg), b = OKLCH(s.color)
                if a.C > 0.05 && b.C > 0.05 {
                    let dh = abs(a.h - b.h)
                    #expect(min(dh, 360 - dh) < 8, "\(v.fg) → \(s.color.hex): hue \(a.h) → \(b.h)")
                }
                checked += 1
            }
        }
        #expect(checked > 10)
    }

    @Test("a translucent colour keeps its alpha when one reaches the ratio, and is made opaque when none does")
    func translucent() {
        // #0000FF at 80 % on white: a lighter or darker blue at 80 % reaches 4.55:1.
        let kept = ContrastSuggestion.nearest(to: RGBA(hex: "#8080FFCC")!, on: .white, reaching: 4.55)!
        #expect(kept.color.hex.hasSuffix("CC"))
        #expect(referenceRatio(kept.seen.hex, "#FFFFFF") >= 4.55)
        // #3C3C434C (30 %) on white: even black at 30 % is 2.2:1, so the suggestion is opaque.
        let opaque = ContrastSuggestion.nearest(to: RGBA(hex: "#3C3C434C")!, on: .white, reaching: 3.05)!
        #expect(opaque.color.a == 1)
        #expect(referenceRatio(opaque.color.hex, "#FFFFFF") >= 3.05)
    }

    /// The spec with one colour replaced, audited again with the same rule.
    static func reaudit(_ s: AuditScene, _ spec: String, replacing from: String, with to: String) throws -> [Finding] {
        try AuditScene(spec.replacingOccurrences(of: "\"\(from)\"", with: "\"\(to)\"")).run(NonTextContrastRule())
    }

    @Test("the off track and knob of the built-in switch: each suggestion, applied, clears its finding")
    func switchSuggestionsApplied() throws {
        let s = try AuditScene(preset: "swiftui-switch", filter: ["theme=default", "dynamic-type=L", "scale=2"])
        let findings = s.run(NonTextContrastRule()).filter { $0.severity == .error }
        #expect(findings.count == 4)  // off track, knob on off track, on track, knob on on track
        let source = try #require(Presets.source("swiftui-switch"))
        for f in findings {
            let fix = try #require(f.suggestion, "\(f.subject)")
            #expect(fix.from == f.values["foreground"])
            #expect(referenceRatio(fix.to, fix.background) >= f.numbers["required"]! + ColorFix.margin)
            #expect(fix.text == "use \(fix.to) (\(Format.ratio(fix.ratio)))")
            // Apply it to the theme key the finding points at, and audit again.
            let key = try #require(fix.keyPath?.split(separator: ".").last.map(String.init))
            let theme = try #require(source.range(of: "\"default\": {"))
            var edited = source
            let line = source[theme.upperBound...].range(of: "\"\(key)\": \"\(fix.from)\"")!
            edited.replaceSubrange(line, with: "\"\(key)\": \"\(fix.to)\"")
            let again = try AuditScene(edited, filter: ["theme=default", "dynamic-type=L", "scale=2"])
            #expect(!again.run(NonTextContrastRule()).contains { $0.subject == f.subject && $0.severity == .error },
                    "\(f.subject): \(fix.from) → \(fix.to)")
        }
    }

    @Test("a colour from a token: the suggestion names the token the spec used")
    func tokenSuggestion() throws {
        let s = try AuditScene(preset: "design-system-checkbox", filter: ["theme=inverse-brand", "dynamic-type=L", "scale=1"])
        let label = try #require(s.run(TextContrastRule()).first { $0.subject == "label" && $0.severity == .error })
        let fix = try #require(label.suggestion)
        #expect(fix.token == "{text.default.inverse-subtle}")
        #expect(fix.text.hasPrefix("set {text.default.inverse-subtle} to #"))
        #expect(referenceRatio(fix.to, fix.background) >= 4.55)
        #expect(fix.from == "#C9CCD9" && fix.background == "#E00800")
    }

    @Test("a 0.5 pt ring whose pixels never reach 3:1 at @1x: the suggested colour's pixels do")
    func thinStrokeSuggestion() throws {
        func spec(_ border: String) -> String {
            SpecText.checkbox(
                states: ["unchecked"], appearance: ##"{ "unchecked": { "ring": true, "fill": false, "mark": "none" } }"##,
                theme: "{ \"surface\": \"#FFFFFF\", \"border\": \"\(border)\" }",
                size: ##"{ "size": 20, "cornerRadius": 4, "borderWidth": 0.5 }"##, scales: [1], sizes: ["L"])
        }
        let s = try AuditScene(spec("#767676"))
        let f = try #require(s.run(NonTextContrastRule()).first)
        #expect(f.subject == "ring pixels")
        let fix = try #require(f.suggestion)
        let coverage = try #require(fix.coverage)
        #expect(coverage > 0 && coverage < 1)
        #expect(fix.text.hasSuffix("at its best pixel)"))
        let again = try AuditScene(spec(fix.to))
        #expect(again.run(NonTextContrastRule()).isEmpty, "\(fix.to): \(again.run(NonTextContrastRule()).map(\.message))")
    }

    @Test("the suggestion is in report.json's findings and audit --json")
    func encoded() throws {
        let s = try AuditScene(preset: "swiftui-switch", filter: ["theme=default", "dynamic-type=L", "scale=2"])
        let f = try #require(s.run(NonTextContrastRule()).first { $0.suggestion != nil })
        let decoded = try JSONDecoder().decode(Finding.self, from: JSONEncoder().encode(f))
        #expect(decoded.suggestion == f.suggestion)
        let result = AuditResult(findings: [f], unusedAccepted: [], rules: [f.rule], presets: [f.preset], variants: 1)
        let audit = try #require(try JSONSerialization.jsonObject(with: result.jsonData()) as? [String: Any])
        let object = try #require(((audit["findings"] as? [[String: Any]])?.first)?["suggestion"] as? [String: Any])
        #expect(object["to"] as? String == f.suggestion?.to)
    }
}
