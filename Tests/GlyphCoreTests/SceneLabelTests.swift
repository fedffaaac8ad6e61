import Foundation
import Testing
import GlyphCore
import GlyphRender
import GlyphTestSupport

// `Scene.label(spec:layout:)` (the pass across components reads every variant's label without
// resolving its scene) must be the label part of the whole scene, field for field.
@Suite("A scene's label part alone")
struct SceneLabelTests {
    static func expectSameLabels(_ spec: Spec) throws -> Int {
        var labelled = 0
        for item in try Plan(specs: [spec]).items {
            let whole = Scene(spec: item.spec, layout: item.layout).label
            let alone = Scene.label(spec: item.spec, layout: item.layout)
            // (ScenePart is not Equatable: its description lists every stored field, numbers in full.)
            #expect(String(describing: alone) == String(describing: whole), "\(item.variant.id)")
            #expect(String(describing: item.label) == String(describing: whole), "\(item.variant.id)")
            if whole != nil { labelled += 1 }
        }
        return labelled
    }

    @Test("every variant of the built-in presets: the same label part as the whole scene's")
    func presets() throws {
        var labelled = 0
        for name in Presets.names { labelled += try Self.expectSameLabels(try Presets.load(name)) }
        // Labelled presets exist, so the comparison is not of nils only; and unlabelled ones (nil = nil).
        #expect(labelled > 0)
        #expect(try Presets.names.contains { try Presets.load($0).label == nil })
    }

    @Test("load-10x18.json (18 themes, a label on every variant) at L and AX5")
    func load() throws {
        var spec = try Spec.load(contentsOf: TestPaths.fixture("bench/load-10x18.json"))
        spec.dynamicTypeSizes = [.large, .accessibility5]
        #expect(try Self.expectSameLabels(spec) == 8640)
    }
}
