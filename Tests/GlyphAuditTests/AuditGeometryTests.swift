import Foundation
import Testing
import GlyphAudit
import GlyphCore
import GlyphRenderTestSupport

// Rules on layout geometry: clipping (known geometry → known overflow per side), Dynamic Type
// scaling, and target size with 2.5.8's spacing exception. (image-aspect measures pixels: ImageAspectTests.swift.)

@Suite("Audit: clipping, Dynamic Type scaling, target size")
struct AuditGeometryTests {
    // MARK: clipping

    /// A 17 pt glyph that scales with body (17 pt at L) in a fixed 33 × 33 pt frame: at AX2 (33 pt) it just
    /// fits; at AX3 (40 pt) it overflows 3.5 pt on every side, at AX5 (53 pt) 10 pt. At @2x every edge lands
    /// on the pixel grid.
    static let overflowing = """
    { "name": "clip", "control": "checkbox", "sizes": { "md": { "size": 17 } }, "frame": { "width": 33, "height": 33 },
      "glyph": { "textStyle": "body", "scalesWithDynamicType": true },
      "states": ["unchecked", "checked"], "scales": [2],
      "themes": { "default": { "surface": "#FFFFFF", "border": "#000000", "fill": "#000000", "mark": "#FFFFFF" },
                  "inverse": { "surface": "#000000", "border": "#FFFFFF", "fill": "#FFFFFF", "mark": "#000000" } } }
    """

    @Test("a fixed frame smaller than a scaling glyph: first clipped at AX3 by 3.5 pt per side, 10 pt at AX5")
    func fixedFrameOverflow() throws {
        let s = try AuditScene(Self.overflowing)
        let findings = s.run(ClippingRule())
        #expect(findings.count == 1, "both states overflow alike: one finding")
        let f = try #require(findings.first)
        #expect(f.rule == "clipping" && f.severity == .error && f.subject == "glyph")
        #expect(f.values["firstSize"] == "AX3")
        #expect(f.values["sizes"] == "AX3–AX5")
        #expect(f.variant == "clip/square-md/*/*/*@2x", "AX3–AX5: every size of the run")
        for side in ["top", "right", "bottom", "left"] {
            #expect(f.numbers[side] == 3.5, "\(side)")
            #expect(f.numbers["worst.\(side)"] == 10, "\(side) at AX5")
        }
        #expect(f.message == "glyph ink reaches outside its 33.0 × 33.0 pt frame from AX3 (top 3.5, right 3.5, bottom 3.5, left 3.5 pt); "
                + "at AX5: top 10.0, right 10.0, bottom 10.0, left 10.0 pt; clipped at AX3–AX5")
        #expect(f.location?.keyPath == "frame")
        if case let .overflow(v, frame, ink) = f.picture {
            #expect(v.dynamicType == .accessibility5)
            #expect(ink.width == 53 && frame.width == 33)
        } else {
            Issue.record("no overflow picture")
        }
    }

    @Test("a glyph that hugs its frame, and the built-in presets, are not clipped")
    func noClipping() throws {
        for preset in Presets.names {
            let s = try AuditScene(preset: preset, filter: ["scale=1"])
            #expect(s.run(ClippingRule()).isEmpty, "\(preset)")
        }
    }

    @Test("a label wider than its maximum width is clipped on the right")
    func labelMaxWidth() throws {
        let s = try AuditScene("""
        { "name": "lbl", "control": "checkbox", "sizes": { "md": { "size": 20 } },
          "label": { "text": "A label much wider than sixty points", "maxWidth": 60 },
          "states": ["unchecked"], "scales": [1], "dynamicTypeSizes": ["L", "AX5"],
          "themes": { "default": { "surface": "#FFFFFF", "border": "#000000", "label": "#000000" } } }
        """)
        let f = try #require(s.run(ClippingRule()).first)
        #expect(f.subject == "label")
        #expect(f.values["firstSize"] == "L")
        let layout = s.plan.items[0].layout
        let label = try #require(layout.label)
        #expect(abs(f.numbers["right"]! - (label.ink.maxX - (label.box.x + 60))) < 1e-9)
        #expect(f.numbers["right"]! > 100)
        #expect(f.message.contains("its 60.0 pt maximum width"))
        #expect(f.location?.keyPath == "label.maxWidth")
    }

    // MARK: dynamic-type-scaling

    @Test("the design system's fixed 20 pt box beside a body/md label drifts; the SwiftUI checkbox does not")
    func designSystemDrifts() throws {
        let ds = try AuditScene(preset: "design-system-checkbox", filter: ["theme=default", "state=checked", "scale=1"])
        let findings = ds.run(DynamicTypeScalingRule())
        #expect(findings.count == 4)  // square and circle, md and sm
        for f in findings {
            #expect(f.severity == .error && f.criterion == nil)
            // Body grows 53/17 from L to AX5 while the box stays: the ratio is 17/53 of its value at L.
            #expect(abs(f.numbers["drift"]! - 17.0 / 53.0) < 1e-12)
            // xS: 17/14 = 1.21 > 1.2 drifts; S (1.13) … xL (0.89) do not; xxL (0.81) … AX5 drift.
            #expect(f.values["sizes"] == "xS xxL–AX5")
            #expect(f.message.contains("stays"))
        }
        #expect(findings.contains { $0.variant == "design-system-checkbox/square-md/*/default/checked@1x" })

        let swiftui = try AuditScene(preset: "swiftui-checkbox", filter: ["scale=1"])
        #expect(swiftui.run(DynamicTypeScalingRule()).isEmpty)
    }

    @Test("the tolerance is configurable")
    func tolerance() throws {
        let ds = try AuditScene(preset: "design-system-checkbox", filter: ["theme=default", "state=checked", "scale=1"])
        #expect(ds.run(DynamicTypeScalingRule(), ["tolerance": 3.2]).isEmpty)  // 1/4.2 = 0.238 < 17/53
        let loose = ds.run(DynamicTypeScalingRule(), ["tolerance": 2])  // 1/3 = 0.333 > 17/53: AX5 only
        #expect(loose.count == 4 && loose.allSatisfy { $0.values["sizes"] == "AX5" })
    }

    @Test("a platform switch that keeps its size is reported as info, not an error")
    func switchIsInfo() throws {
        let s = try AuditScene(preset: "swiftui-switch", filter: ["scale=1"])
        let f = try #require(s.run(DynamicTypeScalingRule()).first)
        #expect(f.severity == .info)
        #expect(f.message.contains("platform switch"))
        // A switch that says it follows a text style is held to it.
        let declared = try AuditScene("""
        { "name": "sw", "control": "switch", "sizes": { "md": { "trackWidth": 51, "trackHeight": 31 } },
          "glyph": { "textStyle": "body", "scalesWithDynamicType": false }, "label": { "text": "Wi-Fi" },
          "states": ["off"], "scales": [1], "dynamicTypeSizes": ["L", "AX5"],
          "themes": { "default": { "surface": "#FFFFFF", "trackOff": "#767676", "trackOn": "#34C759", "knob": "#FFFFFF", "label": "#000000" } } }
        """)
        #expect(declared.run(DynamicTypeScalingRule()).first?.severity == .error)
    }

    // MARK: target-size

    static func target(_ hit: String, spacing: Double? = nil) -> String {
        """
        { "name": "ts", "control": "checkbox", "sizes": { "md": { "size": 16 } }, "hitArea": \(hit),
          \(spacing.map { "\"targetSpacing\": \($0)," } ?? "")
          "states": ["unchecked"], "scales": [1], "dynamicTypeSizes": ["L"],
          "themes": { "default": { "surface": "#FFFFFF", "border": "#000000" } } }
        """
    }

    @Test("a 20 × 20 pt hit area is an error; with 4 pt spacing 2.5.8's exception turns it into a warning; 3 pt is not enough")
    func targetSize() throws {
        let bare = try AuditScene(Self.target(#"{ "width": 20, "height": 20 }"#)).run(TargetSizeRule())
        let error = try #require(bare.first { $0.severity == .error })
        #expect(error.criterion == "2.5.8")
        #expect(error.message == "hit area 20.0 × 20.0 pt at L is under 24 × 24 pt; no targetSpacing is declared for the spacing exception")
        #expect(bare.count == 1, "an error is not also a warning")

        let spaced = try AuditScene(Self.target(#"{ "width": 20, "height": 20 }"#, spacing: 4)).run(TargetSizeRule())
        #expect(!spaced.contains { $0.severity == .error })
        let warning = try #require(spaced.first)
        #expect(warning.severity == .warning && warning.criterion == "2.5.8")
        #expect(warning.message.contains("spacing exception applies (targetSpacing 4.0 pt)"))

        let tight = try AuditScene(Self.target(#"{ "width": 20, "height": 20 }"#, spacing: 3)).run(TargetSizeRule())
        let e = try #require(tight.first { $0.severity == .error })
        #expect(e.message.contains("targetSpacing 3.0 pt does not earn the spacing exception (needs 4.0 pt)"))
    }

    @Test("44 × 44 pt passes; 30 × 60 pt is a warning (HIG)")
    func recommended() throws {
        #expect(try AuditScene(Self.target(#"{ "width": 44, "height": 44 }"#)).run(TargetSizeRule()).isEmpty)
        let f = try #require(try AuditScene(Self.target(#"{ "width": 30, "height": 60 }"#)).run(TargetSizeRule()).first)
        #expect(f.severity == .warning && f.criterion == "2.5.5")
        #expect(f.numbers["width"] == 30)
    }
}
