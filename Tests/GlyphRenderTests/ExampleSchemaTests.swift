import Foundation
import Testing
import GlyphCore
import GlyphRender
import GlyphTestSupport

/// Every example spec the docs point users at — docs/examples/rules and docs/examples/designsystems —
/// is valid against docs/spec.schema.json, which editors use, and loads: the schema and the loader
/// agree on every key the examples use (per-state switch lengths, image marks, appearances, …).
@Suite("docs/examples: every spec is valid against docs/spec.schema.json and loads")
struct ExampleSchemaTests {
    static var examples: [URL] {
        let root = TestPaths.packageRoot.appendingPathComponent("docs/examples")
        guard let e = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [] }
        return e.compactMap { $0 as? URL }.filter { $0.lastPathComponent == "spec.json" }
            .sorted { $0.path < $1.path }
    }

    @Test("schema and loader", .enabled(if: SchemaValidation.jsonschemaPython != nil, "python3 with the jsonschema module is not installed"))
    func all() throws {
        let specs = Self.examples
        // 16 rule cases and 10 design-system controls at the time of writing; fewer means a folder was lost.
        #expect(specs.count >= 26, "\(specs.count) example specs")
        let schema = TestPaths.packageRoot.appendingPathComponent("docs/spec.schema.json")
        for url in specs {
            let outcome = try SchemaValidation.validateJSON(try Data(contentsOf: url), schema: schema)
            #expect(outcome.valid, "\(url.path): \(outcome.output)")
            #expect(throws: Never.self, "\(url.path)") { try Spec.load(contentsOf: url) }
        }
    }
}
