import Foundation
import Testing
@testable import GlyphAudit
@testable import GlyphColor
import GlyphRenderTestSupport

// nontext-contrast for original-colour images: the pixels that change between two states (the
// tick, the dot, the fill) must reach 3:1 against the colours next to them, not only the image's
// outline against the surface.

@Suite("Audit: nontext-contrast of what changes between image states")
struct AuditIndicatorTests {
    let rule = NonTextContrastRule()

    static func box(_ fill: String, tick: String?) -> String {
        let mark = tick.map {
            ##"<path d="M7 12.4l3.3 3.3L17.2 8.4" fill="none" stroke="\##($0)" stroke-width="2.3" stroke-linecap="round" stroke-linejoin="round"/>"##
        } ?? ""
        return ##"<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24"><rect x="2" y="2" width="20" height="20" rx="3" fill="\##(fill)"/>\##(mark)</svg>"##
    }

    static let ring = ##"<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24"><rect x="2.9" y="2.9" width="18.2" height="18.2" rx="3" fill="none" stroke="#1565C0" stroke-width="1.8"/></svg>"##

    static func scene(off: String, on: String) throws -> AuditScene {
        try AuditScene("""
        { "name": "img", "control": "checkbox", "sizes": { "md": { "size": 24 } }, "frame": { "width": 44, "height": 44 },
          "images": { "on": "on.svg", "off": "off.svg", "template": false },
          "states": ["unchecked", "checked"], "scales": [1, 2, 3], "dynamicTypeSizes": ["L"],
          "themes": { "default": { "surface": "#FFFFFF" } } }
        """, files: ["off.svg": off, "on.svg": on])
    }

    static func ratio(_ a: String, _ b: String) -> Double {
        contrastRatio(RGBA(hex: a)!, RGBA(hex: b)!)
    }

    /// The highest ratio between any two blends of `a` and `b` in 8-bit sRGB, as cairo draws an
    /// anti-aliased edge between them (a blend can be darker than both).
    static func blendBound(_ a: String, _ b: String) -> Double {
        let x = RGBA(hex: a)!, y = RGBA(hex: b)!
        let ls = (0...255).map { k -> Double in
            let t = Double(k) / 255
            func mix(_ u: Double, _ v: Double) -> Double { ((u + t * (v - u)) * 255).rounded() / 255 }
            return RGBA(r: mix(x.r, y.r), g: mix(x.g, y.g), b: mix(x.b, y.b)).relativeLuminance
        }
        return contrastRatio(luminance: ls.max()!, ls.min()!)
    }

    func indicator(_ s: AuditScene) -> [Finding] { s.run(rule).filter { $0.subject == "unchecked vs checked indicator" } }

    @Test("a #1A6FD0 tick on a #1565C0 fill (1.16:1) fails; no edge of it reaches more than the two colours do")
    func faintTick() throws {
        let s = try Self.scene(off: Self.box("#1565C0", tick: nil), on: Self.box("#1565C0", tick: "#1A6FD0"))
        let pure = Self.ratio("#1A6FD0", "#1565C0")
        #expect(pure > 1.15 && pure < 1.16)
        let f = try #require(indicator(s).first)
        #expect(indicator(s).count == 1)
        #expect(f.severity == .error && f.criterion == "1.4.11")
        #expect(f.numbers["edgeShare"] == 0)
        #expect(f.numbers["highestRatio"]! < 1.5)
        #expect(f.numbers["scale"] == 3)
        #expect(f.location?.keyPath == "images.on")
        #expect(f.message.hasPrefix("unchecked vs checked (off image → on image, own colours): what changes reaches 3:1 against the colours next to it along 0% of its edges"), "\(f.message)")
        // The image's outline against the surface is fine: #1565C0 on white.
        #expect(s.run(rule).filter { $0.subject.hasSuffix("image") }.isEmpty)
    }

    @Test("a teal tick on an orange fill of the same luminance (1.07:1) fails")
    func isoLuminantTick() throws {
        let s = try Self.scene(off: Self.box("#E67E22", tick: nil), on: Self.box("#E67E22", tick: "#00A5A0"))
        let pure = Self.ratio("#00A5A0", "#E67E22")  // the colours as authored
        #expect(pure > 1.06 && pure < 1.08)
        let f = try #require(indicator(s).first)
        #expect(f.numbers["edgeShare"] == 0)
        // The anti-aliased blends of teal and orange are darker than either (up to 1.24:1 between
        // blends, in 8-bit sRGB); still far under 3:1.
        #expect(Self.blendBound("#00A5A0", "#E67E22") < 1.25)
        #expect(f.numbers["highestRatio"]! < 1.5)
    }

    @Test("a white tick on a dark fill passes, and so does a ring that becomes a filled box with a white tick")
    func whiteTick() throws {
        let dark = try Self.scene(off: Self.box("#1565C0", tick: nil), on: Self.box("#1565C0", tick: "#FFFFFF"))
        #expect(indicator(dark).isEmpty)
        let filling = try Self.scene(off: Self.ring, on: Self.box("#1565C0", tick: "#FFFFFF"))
        #expect(indicator(filling).isEmpty)
        for s in [dark, filling] {
            for g in s.input.stateGroups() {
                let m = NonTextContrastRule.measureIndicator(s.input.glyphs[g[0]], s.input.glyphs[g[1]], required: 3)
                // The highest ratio across an edge is white against #1565C0.
                #expect(abs(m.highest - Self.ratio("#FFFFFF", "#1565C0")) < 1e-9)
                #expect(m.share >= 0.5, "\(m)")
            }
        }
    }

    @Test("template images are judged by their tint, not by this check")
    func templateImages() throws {
        let s = try AuditScene("""
        { "name": "img", "control": "checkbox", "sizes": { "md": { "size": 24 } }, "frame": { "width": 44, "height": 44 },
          "images": { "on": "on.svg", "off": "off.svg", "template": true },
          "states": ["unchecked", "checked"], "scales": [2], "dynamicTypeSizes": ["L"],
          "themes": { "default": { "surface": "#FFFFFF", "tint": "#000000" } } }
        """, files: ["off.svg": Self.ring, "on.svg": Self.box("#1565C0", tick: "#FFFFFF")])
        #expect(indicator(s).isEmpty)
    }

    /// A 24 × 24 px glyph on white; with `ring`, a 2 px square ring (outer 2…21 px) in `ring`, its
    /// inside (4…19 px) filled with `dot` (white without one), the dot touching the ring.
    static func ringPixels(ring: String?, dot: String?) -> GlyphPixels {
        func pack(_ hex: String) -> UInt32 {
            let c = RGBA(hex: hex)!
            func b(_ v: Double) -> UInt32 { UInt32((v * 255).rounded()) }
            return b(c.r) | b(c.g) << 8 | b(c.b) << 16 | 255 << 24
        }
        var px = [UInt32](repeating: pack("#FFFFFF"), count: 24 * 24)
        for y in 0..<24 {
            for x in 0..<24 {
                let inRing = (2...21).contains(x) && (2...21).contains(y)
                let inDot = (4...19).contains(x) && (4...19).contains(y)
                if inDot {
                    if let dot { px[y * 24 + x] = pack(dot) }
                } else if inRing, let ring {
                    px[y * 24 + x] = pack(ring)
                }
            }
        }
        return GlyphPixels(x0: 0, y0: 0, width: 24, height: 24, scale: 1, pixels: px, redrawn: false, digest: 0)
    }

    @Test("a ring that appears with a dot inside it: the ring/dot edge (1.16:1) is inside the indicator and does not count")
    func dotInsideAppearingRing() {
        let off = Self.ringPixels(ring: nil, dot: nil)
        let on = Self.ringPixels(ring: "#1565C0", dot: "#1A6FD0")
        let m = NonTextContrastRule.measureIndicator(off, on, required: 3)
        // Only the ring's outer boundary against the unchanged surface: 4 × 20 edges, each #1565C0
        // against white. The 4 × 16 ring/dot edges (both pixels change) are not measured.
        #expect(m.edges == 80)
        #expect(m.covered == 80 && m.share == 1)
        #expect(abs(m.lowest - Self.ratio("#1565C0", "#FFFFFF")) < 1e-9)
        #expect(m.lowest > 3 && Self.ratio("#1565C0", "#1A6FD0") < 1.2)
    }

    @Test("a low-contrast ring that appears against the unchanged surface still fails, however dark its dot")
    func faintRingStillFails() {
        let off = Self.ringPixels(ring: nil, dot: nil)
        let on = Self.ringPixels(ring: "#D0D0D0", dot: "#000000")
        let m = NonTextContrastRule.measureIndicator(off, on, required: 3)
        #expect(m.edges == 80)
        // #D0D0D0 on white is 1.55:1; the black dot is two pixels in from the boundary, beyond the
        // one pixel further out that an edge is judged by.
        #expect(m.covered == 0 && m.share == 0)
        #expect(abs(m.highest - Self.ratio("#D0D0D0", "#FFFFFF")) < 1e-9)
        // A dot that appears inside a ring that was already there is measured against the ring:
        // its 64 edges in each state, white against the ring (passes) and the dot against it (1.16:1).
        let ringOnly = Self.ringPixels(ring: "#1565C0", dot: nil)
        let withDot = Self.ringPixels(ring: "#1565C0", dot: "#1A6FD0")
        let d = NonTextContrastRule.measureIndicator(ringOnly, withDot, required: 3)
        #expect(d.edges == 128 && d.covered == 64)
        #expect(abs(d.lowest - Self.ratio("#1565C0", "#1A6FD0")) < 1e-9)
    }
}
