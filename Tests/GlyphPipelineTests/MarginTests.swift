import Foundation
import Testing
@testable import GlyphAudit
@testable import GlyphCore
@testable import GlyphPipeline
@testable import GlyphReport
@testable import GlyphSnapshot
import GlyphRender
import GlyphTestSupport

// Audit margins kept with the pixels (docs/snapshots.md, "Audit margins").

@Suite("Audit margins in the manifest")
struct MarginTests {
    /// 1 size × 2 Dynamic Type sizes × 1 theme × 2 states × 1 scale = 4 variants, a fixed hit area.
    static func spec(hit: Int) -> String {
        SmallSpec.json.replacingOccurrences(of: #""scales": [1, 2],"#, with: #""scales": [1], "hitArea": { "width": \#(hit), "height": \#(hit) },"#)
    }

    static func run(_ folder: TempFolder, _ text: String, writes: SnapshotWrites = [], tolerance: Double = 0.25) throws -> RunOutcome {
        let url = folder.write("spec.json", text)
        var job = RunJob(jobs: 2, report: folder.url.appendingPathComponent("report"), formats: [.json],
                         snapshots: folder.url.appendingPathComponent("snapshots"), snapshotWrites: writes, cwd: folder.url, tool: "t")
        job.marginTolerance = tolerance
        return try Pipeline.run(try Plan(specs: [try Spec.load(contentsOf: url)]), job)
    }

    @Test("recorded with the baselines; a loss beyond the tolerance is a margin warning with both numbers; --update takes the new numbers")
    func marginLoss() throws {
        let folder = TempFolder()
        let first = try Self.run(folder, Self.spec(hit: 48), writes: .record)
        // No manifest yet, nothing compared: margin is not a rule of that run.
        #expect(!first.report.rules.map(\.id).contains("margin"))
        let manifest = try #require(try SnapshotManifest.read(in: folder.url.appendingPathComponent("snapshots")))
        let entry = try #require(manifest.variants["t/square-md/L/default/checked@1x"]?.margins)
        // The fixed hit area's shorter side, and the state change measured against unchecked in each view.
        #expect(entry["target-size"] == 48)
        #expect((entry["state-change.unchecked.greyscale"] ?? 0) > 0)
        #expect(Set(entry.names) == Set(["target-size", "contrast.fill", "contrast.tick on fill", "clipping.glyph.room"]
                                       + ["greyscale", "protanopia", "deuteranopia", "tritanopia"].map { "state-change.unchecked.\($0)" }))

        // 48 → 40 pt: 17 % lost, within the tolerance (25 %); 48 → 30 pt: 37.5 % lost.
        #expect(try Self.run(folder, Self.spec(hit: 40)).report.findings.filter { $0.rule == "margin" }.isEmpty)
        let lostRun = try Self.run(folder, Self.spec(hit: 30))
        let lost = lostRun.report.findings.filter { $0.rule == "margin" }
        // Compared with the manifest's numbers: margin is a rule of the run (its counts, JUnit cases, SARIF rule).
        #expect(lostRun.report.rules.last?.id == "margin")
        #expect(lostRun.report.counts.byRule["margin"]?["warning"] == 1)
        #expect(lost.count == 1, "one finding for the component's 4 variants, as the other rules fold theirs")
        #expect(lost.allSatisfy { $0.severity == .warning && $0.subject == "target-size" })
        #expect(lost.first?.numbers == ["before": 48, "after": 30, "tolerance": 0.25, "variants": 4])
        #expect(lost.first?.message == "target-size fell from 48 to 30 in 4 variants (38 % of its margin gone; the tolerance is 25 %)")
        // The pixels are the same (the hit area is not drawn): reported all the same.
        #expect(try Self.run(folder, Self.spec(hit: 30)).snapshots?.counts.mismatch == 0)
        // A stricter tolerance reports the smaller loss too.
        #expect(try Self.run(folder, Self.spec(hit: 40), tolerance: 0.1).report.findings.contains { $0.rule == "margin" })

        // --update re-records the manifest entries (the pixels match) with the new numbers.
        _ = try Self.run(folder, Self.spec(hit: 30), writes: .update)
        #expect(try Self.run(folder, Self.spec(hit: 30)).report.findings.filter { $0.rule == "margin" }.isEmpty)
    }

    /// WCAG 2.2's relative luminance of an sRGB hex colour, computed here from the definition.
    static func luminance(_ hex: String) -> Double {
        let v = Int(hex.dropFirst(), radix: 16)!
        func channel(_ byte: Int) -> Double {
            let c = Double(byte) / 255
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * channel(v >> 16 & 0xFF) + 0.7152 * channel(v >> 8 & 0xFF) + 0.0722 * channel(v & 0xFF)
    }

    /// WCAG 2.2's contrast ratio of two hex colours.
    static func wcag(_ a: String, _ b: String) -> Double {
        let (x, y) = (luminance(a), luminance(b))
        return (max(x, y) + 0.05) / (min(x, y) + 0.05)
    }

    @Test("the contrast of each part against what it sits on, and the room inside the frame, are kept per variant")
    func contrastAndRoom() throws {
        let folder = TempFolder()
        _ = try Self.run(folder, Self.spec(hit: 48), writes: .record)
        let manifest = try #require(try SnapshotManifest.read(in: folder.url.appendingPathComponent("snapshots")))
        let checked = try #require(manifest.variants["t/square-md/AX5/default/checked@1x"]?.margins)
        let unchecked = try #require(manifest.variants["t/square-md/L/default/unchecked@1x"]?.margins)
        // Unchecked: the ring #767676 on the white surface (4.54:1). Checked: the fill #E00800 (4.99:1,
        // stronger than its ring) on white, and the white tick on the fill.
        #expect(abs(unchecked["contrast.ring"]! - Self.wcag("#767676", "#FFFFFF")) < 1e-6)
        #expect(abs(checked["contrast.fill"]! - Self.wcag("#E00800", "#FFFFFF")) < 1e-6)
        #expect(abs(checked["contrast.tick on fill"]! - Self.wcag("#FFFFFF", "#E00800")) < 1e-6)
        #expect(unchecked["contrast.fill"] == nil)
        // The frame hugs the 20 pt box (the hit area reaches past it, not the frame): no room, and none past it.
        #expect(checked["clipping.glyph.room"] == 0)
        #expect(checked["clipping.label.room"] == nil, "no label")
    }

    @Test("the label's contrast and the focus ring's are kept per variant")
    func labelAndFocus() throws {
        let folder = TempFolder()
        let spec = """
        {"name": "m", "control": "checkbox",
         "sizes": {"md": {"size": 20, "cornerRadius": 4, "borderWidth": 2, "markSize": 12, "markWeight": 2}},
         "states": ["unchecked", "checked"], "scales": [3], "dynamicTypeSizes": ["L"],
         "focus": {"color": "focus", "width": 2, "offset": 2}, "label": {"text": "Label"},
         "themes": {"default": {"surface": "#FFFFFF", "border": "#767676", "fill": "#0055CC", "mark": "#FFFFFF",
                                "label": "#595959", "focus": "#005FCC"}}}
        """
        _ = try Self.run(folder, spec, writes: .record)
        let manifest = try #require(try SnapshotManifest.read(in: folder.url.appendingPathComponent("snapshots")))
        let plain = try #require(manifest.variants["m/square-md/L/default/checked@3x"]?.margins)
        let focused = try #require(manifest.variants["m/square-md/L/default/checked+focused@3x"]?.margins)
        // #595959 on white: 7.00:1. The ring #005FCC, 2 pt off the box, only on the white surface: 5.985:1.
        #expect(abs((plain["text-contrast.label"] ?? 0) - Self.wcag("#595959", "#FFFFFF")) < 1e-9, "\(plain)")
        #expect(abs((focused["focus-indicator.ring"] ?? 0) - Self.wcag("#005FCC", "#FFFFFF")) < 0.01, "\(focused)")
        #expect(plain["focus-indicator.ring"] == nil && plain["clipping.label.room"] != nil)
    }
}
