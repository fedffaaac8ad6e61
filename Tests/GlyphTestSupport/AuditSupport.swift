import Foundation
import Testing
@testable import GlyphAudit
@testable import GlyphColor
@testable import GlyphCore
@testable import GlyphExport
@testable import GlyphPipeline
@testable import GlyphRaster
@testable import GlyphRender
@testable import GlyphReport
@testable import GlyphSnapshot

/// A small spec written to a fresh temporary folder (with SVG images beside it when given), loaded,
/// laid out, rendered and ready to audit.
public final class AuditScene {
    public let folder: URL
    public let spec: Spec
    public let plan: Plan
    public let input: AuditInput

    public init(_ json: String, files: [String: String] = [:], filter: [String] = []) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("glyphaudit-audit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, text) in files { try Data(text.utf8).write(to: folder.appendingPathComponent(name)) }
        let file = folder.appendingPathComponent("spec.json")
        try Data(json.utf8).write(to: file)
        spec = try Spec.load(contentsOf: file)
        var f = VariantFilter()
        for only in filter { try f.add(only) }
        plan = try Plan(specs: [spec], filter: f)
        input = AuditInput(plan: plan, rasters: plan.renderAll(jobs: 2), jobs: 2)
    }

    /// A built-in preset, optionally filtered.
    public init(preset: String, filter: [String] = []) throws {
        folder = FileManager.default.temporaryDirectory
        spec = try Presets.load(preset)
        var f = VariantFilter()
        for only in filter { try f.add(only) }
        plan = try Plan(specs: [spec], filter: f)
        input = AuditInput(plan: plan, rasters: plan.renderAll(jobs: 2), jobs: 2)
    }

    deinit {
        if folder != FileManager.default.temporaryDirectory { try? FileManager.default.removeItem(at: folder) }
    }

    public func run<R: AuditRule>(_ rule: R, _ values: [String: Double] = [:]) -> [Finding] {
        rule.checkWhole(input, RuleOptions(parameters: rule.parameters, values: values))
    }

    /// The index of the variant with this id.
    public func index(_ id: String) throws -> Int {
        try #require(plan.items.firstIndex { $0.variant.id == id }, "no variant \(id)")
    }
}

/// Spec text for a drawn checkbox with two states and per-state appearance and colours.
public enum SpecText {
    /// `appearance` and `themes` are JSON fragments.
    public static func checkbox(name: String = "t", states: [String] = ["unchecked", "checked"], appearance: String,
                         theme: String, size: String = ##"{ "size": 22, "cornerRadius": 4.5, "borderWidth": 1.7, "markSize": 12, "markWeight": 1.9 }"##,
                         scales: [Int] = [1, 2, 3], sizes: [String] = ["xS", "L", "AX5"], extra: String = "") -> String {
        """
        { "name": "\(name)", "control": "checkbox",
          "sizes": { "md": \(size) },
          "glyph": { "textStyle": "body", "scalesWithDynamicType": true },
          "states": [\(states.map { "\"\($0)\"" }.joined(separator: ", "))],
          "appearance": \(appearance),
          "themes": { "default": \(theme) },
          "scales": [\(scales.map(String.init).joined(separator: ", "))],
          "dynamicTypeSizes": [\(sizes.map { "\"\($0)\"" }.joined(separator: ", "))]\(extra.isEmpty ? "" : ",\n  " + extra)
        }
        """
    }
}

/// `Tests/Fixtures/reference/<name>`.
public enum ReferenceData {
    public static func url(_ name: String) -> URL {
        TestPaths.reference.appendingPathComponent(name)
    }

    public struct ContrastVector: Decodable {
        public let fg: String
        public let bg: String
        public let wcag2_ratio: Double
        public let meets_3_0: Bool
        public let meets_4_5: Bool
    }

    public static func contrastVectors() throws -> [ContrastVector] {
        struct File: Decodable { let vectors: [ContrastVector] }
        return try JSONDecoder().decode(File.self, from: Data(contentsOf: url("contrast-vectors.json"))).vectors
    }
}
