import Foundation
import Testing
import GlyphAudit
import GlyphCore
import GlyphPipeline
import GlyphRender
import GlyphTestSupport

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
        // As the Auditor runs them: only focus-indicator sees the focused variants.
        rule.checkWhole(rule is FocusIndicatorRule ? input : input.withoutFocused(), RuleOptions(parameters: rule.parameters, values: values))
    }

    /// The index of the variant with this id.
    public func index(_ id: String) throws -> Int {
        try #require(plan.items.firstIndex { $0.variant.id == id }, "no variant \(id)")
    }
}

/// Spec text for a drawn checkbox with two states and per-state appearance and colours.

/// Loads a spec written into a temp folder; returns the error when loading fails.
public func loadSpec(_ json: String, files: [String: String] = [:], in folder: TempFolder = TempFolder()) -> Result<Spec, InputError> {
    for (name, text) in files { folder.write(name, text) }
    let url = folder.write("spec.json", json)
    do { return .success(try Spec.load(contentsOf: url)) } catch { return .failure(error) }
}
