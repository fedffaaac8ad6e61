import Foundation
import Testing
@testable import GlyphAudit
@testable import GlyphCore
import GlyphColor
import GlyphTestSupport
import GlyphRenderTestSupport

// clipping of image glyphs, measured in the pixels with the anti-aliasing of a fractional frame
// accounted for, and one finding per run of Dynamic Type sizes.

@Suite("Audit: clipping of images at fractional frames, and runs of sizes")
struct ClippingImageTests {
    /// A 16 × 16 document filled edge to edge.
    static let filled = ##"<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16"><rect width="16" height="16" fill="#000"/></svg>"##
    /// Primer's unchecked box: a 1-unit ring whose outer edge is the document's edge.
    static let ring = ##"<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16"><rect x="0.5" y="0.5" width="15" height="15" rx="2.5" fill="none" stroke="#000" stroke-width="1"/></svg>"##

    /// An image checkbox of `size` pt in a fixed 13.2 × 13.2 pt frame, at one display scale. The
    /// layout centres the image and snaps its origin to the pixel grid; for a size up to 13.45 pt the
    /// snap puts it at the frame's origin at @1x, @2x and @3x (13.45 − 13.2 = 0.25: half a pixel at
    /// @2x, rounded back), so it overflows right and bottom by `size` − 13.2 pt and not at all top
    /// and left.
    static func fixed(size: Double, scale: Int, template: Bool = true, image: String = "i.svg") -> String {
        """
        { "name": "fill", "control": "checkbox", "sizes": { "md": { "size": \(size) } }, "frame": { "width": 13.2, "height": 13.2 },
          "images": { "on": "\(image)", "off": "\(image)", "template": \(template) },
          "states": ["unchecked", "checked"], "scales": [\(scale)], "dynamicTypeSizes": ["L"],
          "themes": { "default": { "surface": "#FFFFFF", "tint": "#0969DA" }, "dark": { "surface": "#0D1117", "tint": "#1F6FEB" } } }
        """
    }

    @Test("an image that exactly fills its 13.2 pt frame is not clipped, at @1x, @2x and @3x, template or not, filled or a ring",
          arguments: [1, 2, 3])
    func exactFill(scale: Int) throws {
        for (image, template) in [(Self.filled, true), (Self.filled, false), (Self.ring, true)] {
            let s = try AuditScene(Self.fixed(size: 13.2, scale: scale, template: template), files: ["i.svg": image])
            #expect(s.run(ClippingRule()).isEmpty, "@\(scale)x template \(template)")
            // What it measured: a filled image's ink ends at the frame's edge, within what the pixels
            // can tell. A ring thinner than a pixel (1/16 of 13.2 pt: 0.83 px at @1x) covers its edge
            // pixels only partly, and is taken to lie on their inner side: its ink may be measured
            // inside the frame, never outside it.
            for (i, item) in s.plan.items.enumerated() {
                let ink = try #require(ClippingRule.glyphInk(item, s.input.glyphs[i]))
                let frame = item.layout.frame
                #expect(frame.width == 13.2)
                let slack = ClippingRule.antiAliasing / Double(scale)
                if image == Self.filled {
                    for (a, b) in [(ink.minX, frame.minX), (ink.maxX, frame.maxX), (ink.minY, frame.minY), (ink.maxY, frame.maxY)] {
                        #expect(abs(a - b) <= slack, "\(item.variant.id): ink \(ink) frame \(frame)")
                    }
                } else {
                    #expect(ink.minX >= frame.minX - slack && ink.maxX <= frame.maxX + slack
                            && ink.minY >= frame.minY - slack && ink.maxY <= frame.maxY + slack, "\(item.variant.id): ink \(ink) frame \(frame)")
                }
            }
        }
    }

    @Test("an image a quarter point larger than its 13.2 pt frame is clipped by 0.25 pt right and bottom, at @1x, @2x and @3x",
          arguments: [1, 2, 3])
    func quarterPointOver(scale: Int) throws {
        let s = try AuditScene(Self.fixed(size: 13.45, scale: scale), files: ["i.svg": Self.filled])
        let layout = s.plan.items[0].layout
        #expect(layout.glyph.minX == layout.frame.minX && layout.glyph.minY == layout.frame.minY)
        let findings = s.run(ClippingRule())
        #expect(findings.count == 1, "both states alike: one finding")
        let f = try #require(findings.first)
        #expect(f.subject == "glyph" && f.severity == .error)
        let slack = ClippingRule.antiAliasing / Double(scale)
        #expect(abs(f.numbers["right"]! - 0.25) <= slack && abs(f.numbers["bottom"]! - 0.25) <= slack, "\(f.numbers)")
        #expect(f.numbers["top"] == 0 && f.numbers["left"] == 0)
        #expect(f.message == "glyph ink reaches outside its 13.2 × 13.2 pt frame from L (right 0.3, bottom 0.3 pt); clipped at L"
                || f.message == "glyph ink reaches outside its 13.2 × 13.2 pt frame from L (right 0.2, bottom 0.2 pt); clipped at L", "\(f.message)")
    }

    @Test("Primer's box, 16 pt at L and scaling with body (13.2 pt at xS), hugging its frame: not clipped at any size")
    func primerGeometry() throws {
        let spec = """
        { "name": "primer", "control": "checkbox", "sizes": { "md": { "size": 16 } }, "frame": "hug",
          "glyph": { "textStyle": "body", "scalesWithDynamicType": true },
          "images": { "on": "i.svg", "off": "i.svg", "template": true },
          "states": ["unchecked", "checked"],
          "themes": { "default": { "surface": "#FFFFFF", "tint": "#59636E" } } }
        """
        let s = try AuditScene(spec, files: ["i.svg": Self.ring])
        let xS = try #require(s.plan.items.first { $0.variant.dynamicType == .xSmall })
        #expect(abs(xS.layout.frame.width - 16 * 14 / 17) < 1e-9, "13.18 pt at xS")
        #expect(s.run(ClippingRule()).isEmpty)
    }

    @Test("runs of sizes: consecutive overflowing sizes make one run; the sizes that fit in between are named")
    func runs() {
        let sizes: [DynamicTypeSize] = [.xSmall, .small, .medium, .large, .xLarge, .accessibility5]
        let clipped: Set<DynamicTypeSize> = [.xSmall, .small, .medium, .xLarge, .accessibility5]
        let measured: [(DynamicTypeSize, DynamicTypeSize?)] = sizes.map { ($0, clipped.contains($0) ? $0 : nil) }
        let (runs, gaps) = ClippingRule.runs(measured)
        #expect(runs == [[.xSmall, .small, .medium], [.xLarge, .accessibility5]])
        #expect(gaps == [.large])
        let large: [(DynamicTypeSize, DynamicTypeSize?)] = sizes.map { ($0, $0 >= .large ? $0 : nil) }
        let one = ClippingRule.runs(large)
        #expect(one.runs == [[.large, .xLarge, .accessibility5]] && one.gaps.isEmpty)
        let none: [(DynamicTypeSize, DynamicTypeSize?)] = sizes.map { ($0, nil) }
        #expect(ClippingRule.runs(none).runs.isEmpty)
    }

    @Test("a finding over a run of sizes has * for the size in its id and names that run, as the report's sizes do")
    func runFinding() throws {
        let s = try AuditScene(AuditGeometryTests.overflowing)
        let f = try #require(s.run(ClippingRule()).first)
        #expect(f.variant == "clip/square-md/*/*/*@2x")
        #expect(f.dynamicTypeSizes == [.accessibility3, .accessibility4, .accessibility5])
        #expect(f.values["sizes"] == "AX3–AX5" && f.message.hasSuffix("clipped at AX3–AX5"))
    }
}

