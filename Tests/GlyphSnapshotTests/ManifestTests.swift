import Foundation
import Testing
@testable import GlyphCore
@testable import GlyphPipeline
@testable import GlyphRaster
@testable import GlyphRender
@testable import GlyphSnapshot
import GlyphTestSupport
import GlyphSnapshotTestSupport

// The snapshot manifest (docs/snapshots.md, "The manifest"): what fed each baseline, the changes
// grouped by cause, stale baselines, and the input digest's reach (every kind of input changes it).

/// design-system-checkbox written out as its own folder (spec + token file), at Dynamic Type L and
/// @1x: 32 variants (2 shapes × 2 sizes × 4 themes × 2 states).
private struct DesignSystemScene {
    let folder = TempFolder()
    var spec: URL { folder.url.appendingPathComponent("ds/design-system-checkbox.json") }
    var snapshots: URL { folder.url.appendingPathComponent("snapshots") }

    init() throws {
        for file in try Presets.standalone("design-system-checkbox") { folder.write("ds/" + file.path, file.text) }
    }

    func plan() throws -> Plan {
        var filter = VariantFilter()
        try filter.add("dynamic-type=L")
        try filter.add("scale=1")
        return try Plan(specs: [try Spec.load(contentsOf: spec)], filter: filter)
    }

    func check(_ writes: SnapshotWrites = [], renderer: [String: String]? = nil) throws -> SnapshotReport {
        var checker = try SnapshotChecker.fingerprinted(store: SnapshotStore(root: snapshots), output: nil, options: .init(),
                                                        writes: writes, staleScope: .specFolders, newSnapshots: nil, cwd: folder.url)
        if let renderer { checker.manifestInputs = ManifestInputs(renderer: renderer) }
        return checker.run(try plan(), jobs: 2)
    }

    func edit(_ from: String, _ to: String) throws {
        let text = try String(contentsOf: spec, encoding: .utf8)
        #expect(text.contains(from), "the spec holds \(from)")
        try Data(text.replacingOccurrences(of: from, with: to).utf8).write(to: spec)
    }
}

@Suite("Snapshot manifest: input digests, changes by cause, stale baselines")
struct ManifestTests {
    @Test("--record writes manifest.json: one entry per variant, the spec's keys, the renderer; the same bytes again")
    func recordWritesManifest() throws {
        let s = try DesignSystemScene()
        let report = try s.check(.record)
        #expect(report.manifestWritten == s.snapshots.appendingPathComponent("manifest.json").path)
        let bytes = try Data(contentsOf: s.snapshots.appendingPathComponent("manifest.json"))
        let manifest = try #require(try SnapshotManifest.read(in: s.snapshots))
        #expect(manifest.variants.count == 32)
        let keys = try #require(manifest.keys["design-system-checkbox"])
        // The spec writes "markWeight": 1.5 for sm; the token file gives sm's size as {checkbox.sm} = 16.
        #expect(keys["sizes.sm.markWeight"] == "1.5")
        #expect(keys["sizes.sm.size"] == "{checkbox.sm} 16")
        #expect(manifest.renderers.count == 1)
        #expect(manifest.renderers.values.first == RendererFingerprint.current.components)
        // One variant per line.
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n")
        #expect(lines.filter { $0.contains("\"digest\":") }.count == 32)

        // A check that changes nothing writes nothing, and groups nothing.
        let again = try s.check([.record, .update])
        #expect(again.manifestWritten == nil)
        #expect(again.groups == [])
        #expect(try Data(contentsOf: s.snapshots.appendingPathComponent("manifest.json")) == bytes)
        // Written from scratch on other threads: the same bytes.
        try FileManager.default.removeItem(at: s.snapshots.appendingPathComponent("manifest.json"))
        _ = try s.check(.update)
        #expect(try Data(contentsOf: s.snapshots.appendingPathComponent("manifest.json")) == bytes)
    }

    @Test("sm's markWeight 1.5 → 2.25: the 8 changed variants in one group naming the key, the other 8 sm variants stale")
    func markWeightGroup() throws {
        let s = try DesignSystemScene()
        _ = try s.check(.record)
        try s.edit("\"markWeight\": 1.5", "\"markWeight\": 2.25")
        let report = try s.check()
        #expect(report.counts.mismatch == 8)
        let groups = try #require(report.groups)
        #expect(groups.count == 2)
        let changed = try #require(groups.first { $0.kind == .inputs })
        #expect(changed.cause == "sizes.sm.markWeight 1.5 → 2.25")
        #expect(changed.changes == [.init(key: "sizes.sm.markWeight", before: "1.5", after: "2.25")])
        #expect(changed.count == 8)
        // checked: 2 shapes × 4 themes, sm only.
        #expect(changed.variants.allSatisfy { $0.contains("-sm/") && $0.contains("/checked@") })
        #expect(changed.summary == "8 variants: sizes.sm.markWeight 1.5 → 2.25")
        let stale = try #require(groups.first { $0.kind == .stale })
        #expect(stale.count == 8)
        #expect(stale.variants.allSatisfy { $0.contains("-sm/") && $0.contains("/unchecked@") })
        // The same cause has the same id in another run.
        #expect(try s.check().groups?.map(\.id) == groups.map(\.id))

        // --update rewrites the baselines and the manifest: nothing left to group.
        _ = try s.check(.update)
        #expect(try s.check().groups == [])
    }

    @Test("a token change is named by the keys that use it")
    func tokenChange() throws {
        let s = try DesignSystemScene()
        _ = try s.check(.record)
        let tokens = s.folder.url.appendingPathComponent("ds/tokens/design-system.tokens.json")
        let text = try String(contentsOf: tokens, encoding: .utf8)
        // The sm box's size token: 16 → 18.
        let range = try #require(text.range(of: ##""sm": { "$value": "16px""##) ?? text.range(of: ##""sm": { "$value": 16"##),
                                 "the token file's checkbox.sm")
        let edited = text.replacingCharacters(in: range, with: text[range].replacingOccurrences(of: "16", with: "18"))
        try Data(edited.utf8).write(to: tokens)
        let groups = try #require(try s.check().groups)
        let changed = try #require(groups.first { $0.kind == .inputs })
        #expect(changed.cause.hasPrefix("sizes.sm.size {checkbox.sm} 16 → {checkbox.sm} 18"), "\(changed.cause)")
        #expect(changed.count == 16, "every sm variant changes size")
    }

    @Test("pixels that change while every input is the same: the renderer drew the same inputs differently")
    func unexplained() throws {
        let s = try DesignSystemScene()
        _ = try s.check(.record)
        let plan = try s.plan()
        let variant = plan.items[5].variant
        let file = s.snapshots.appendingPathComponent(variant.fileName("png"))
        var baseline = try Raster(contentsOfPNG: file)
        let (x, y) = try #require(centralFlatPixel(baseline))
        baseline.setContrasting(x, y)
        try baseline.pngData().write(to: file)
        let groups = try #require(try s.check().groups)
        #expect(groups.count == 1)
        #expect(groups[0].kind == .unexplained)
        #expect(groups[0].cause == "renderer drew the same inputs differently")
        #expect(groups[0].variants == [variant.id])
    }

    @Test("a renderer change is a group of its own, naming the component")
    func rendererGroup() throws {
        let s = try DesignSystemScene()
        var old = RendererFingerprint.current.components
        old["cairo"] = "1.0.0"
        _ = try s.check(.record, renderer: old)
        let plan = try s.plan()
        let variant = plan.items[3].variant
        let file = s.snapshots.appendingPathComponent(variant.fileName("png"))
        var baseline = try Raster(contentsOfPNG: file)
        let (x, y) = try #require(centralFlatPixel(baseline))
        baseline.setContrasting(x, y)
        try baseline.pngData().write(to: file)
        let groups = try #require(try s.check().groups)
        let renderer = try #require(groups.first { $0.kind == .renderer })
        #expect(renderer.cause == "renderer: cairo 1.0.0 → \(RendererVersions.cairo)")
        #expect(renderer.variants == [variant.id])
        // The other 31 drew the same pixels with the new renderer: stale, not re-recorded.
        #expect(groups.first { $0.kind == .stale }?.count == 31)
    }

    @Test("identical diffs are folded within a group")
    func folds() throws {
        let inputs = ManifestInputs(renderer: ["cairo": "1"])
        let spec = try specFrom(SmallSpec.json).get()
        let plan = try Plan(specs: [spec])
        var manifest = SnapshotManifest()
        var byID: [String: VariantInput] = [:]
        var results: [SnapshotResult] = []
        for (i, item) in plan.items.prefix(3).enumerated() {
            let input = inputs.input(item)
            byID[item.variant.id] = input
            manifest.variants[item.variant.id] = .init(digest: input.digest, keys: input.keysDigest, renderer: inputs.rendererID)
            var r = SnapshotResult(id: item.variant.variantID, status: .mismatch, baseline: "b")
            r.changeDigest = i < 2 ? "same" : "other"
            results.append(r)
        }
        let groups = SnapshotGroup.group(results, inputs: byID, manifest: manifest, current: inputs, refreshed: false)
        #expect(groups.count == 1)
        #expect(groups[0].count == 3)
        #expect(groups[0].diffs?.map(\.variants.count) == [2, 1])
        #expect(groups[0].summary == "3 variants: renderer drew the same inputs differently (2 distinct diffs)")
    }

    @Test("the fold key of a change: equal for equal pixels, different for any one byte or size changed")
    func changeKey() {
        // 9×3 RGBA: rows of one 32-byte block and one pixel, so every path of the hash is hit.
        let base = (0..<108).map { UInt8($0 * 7 % 256) }
        let expected = Raster(width: 9, height: 3, pixels: base)
        let actual = Raster(width: 9, height: 3, pixels: base.map { 255 - $0 })
        func change(_ e: Raster, _ a: Raster) -> String {
            let key = ImageComparator.changeKey(expected: e, actual: a, rows: nil)
            // The key from the comparison's own rows is the same.
            if e.width == a.width && e.height == a.height {
                let c = ImageComparator.compared(expected: e, actual: a, options: .init(), diffImage: false)
                #expect(ImageComparator.changeKey(expected: e, actual: a, rows: c.rows) == key)
            }
            return key
        }
        let key = change(expected, actual)
        #expect(change(Raster(width: 9, height: 3, pixels: base), actual) == key)
        var keys: Set<String> = [key]
        for i in base.indices {
            var e = base
            e[i] ^= 1
            keys.insert(change(Raster(width: 9, height: 3, pixels: e), actual))
            var a = actual.pixels
            a[i] ^= 0x80
            keys.insert(change(expected, Raster(width: 9, height: 3, pixels: a)))
        }
        // The same bytes as another size (both, and the render only), and baseline and render swapped.
        keys.insert(change(Raster(width: 3, height: 9, pixels: base), Raster(width: 3, height: 9, pixels: actual.pixels)))
        keys.insert(change(expected, Raster(width: 3, height: 9, pixels: actual.pixels)))
        keys.insert(change(actual, expected))
        #expect(keys.count == 1 + 2 * 108 + 3)
    }

    @Test("a manifest that is not one is bad input naming the file")
    func badManifest() throws {
        let s = try DesignSystemScene()
        s.folder.write("snapshots/manifest.json", "{\"format\": 1, \"variants\": 3}")
        #expect(throws: InputError.self) { try s.check() }
        do { _ = try s.check() } catch let e as InputError {
            #expect(e.file.hasSuffix("snapshots/manifest.json"))
            #expect(e.message.hasPrefix("not a snapshot manifest"))
        }
    }
}

/// Loads a spec written into a temp folder (with the files it reads); the error when loading fails.
private func specFrom(_ json: String, files: [String: String] = [:]) -> Result<Spec, InputError> {
    let folder = TempFolder()
    for (name, text) in files { folder.write(name, text) }
    let url = folder.write("spec.json", json)
    do { return .success(try Spec.load(contentsOf: url)) } catch { return .failure(error) }
}

@Suite("Input digest: every kind of input changes it")
struct InputDigestTests {
    static let spec = """
    {
      "name": "t", "description": "d", "control": "checkbox",
      "shapes": ["square"],
      "sizes": { "md": { "size": 20, "cornerRadius": 4, "borderWidth": 1.5, "markSize": 12, "markWeight": 2 } },
      "glyph": { "textStyle": "body", "scalesWithDynamicType": true },
      "frame": "hug", "hitArea": "row", "targetSpacing": 8,
      "label": { "text": "Remember me", "textStyle": "body", "spacing": 8 },
      "states": ["unchecked", "checked"],
      "scales": [1, 2],
      "dynamicTypeSizes": ["large", "accessibility5"],
      "themes": { "default": { "surface": "#FFFFFF", "border": "#767676", "fill": "#E00800", "mark": "#FFFFFF", "label": "#111111" } }
    }
    """

    static func digests(_ spec: Spec, renderer: [String: String] = RendererFingerprint.current.components) throws -> [String: String] {
        let inputs = ManifestInputs(renderer: renderer)
        return Dictionary(uniqueKeysWithValues: try Plan(specs: [spec]).items.map { ($0.variant.id, inputs.input($0).digest) })
    }

    /// Values a mutated key may take, tried in order until the spec loads and differs.
    static func candidates(_ value: String) -> [String] {
        if value.hasPrefix("#") { return [value == "#111111" ? "\"#222222\"" : "\"#123456\""] }
        if let n = Double(value) { return [n + 1, n * 2, n + 0.5].map { "\(SpecInputs.number($0))" } }
        if value == "true" || value == "false" { return [value == "true" ? "false" : "true"] }
        return ["title1", "size", "frame", "circle", "mixed", "accessibility1", "Other text"].filter { $0 != value }.map { "\"\($0)\"" }
    }

    @Test("each key of a spec, changed, changes the digests")
    func everySpecKey() throws {
        let base = try specFrom(Self.spec).get()
        let before = try Self.digests(base)
        let root = try JSONReader.parse(Data(Self.spec.utf8))
        let keys = SpecInputs.flatten(root)
        // name, description, control, shapes[0], sizes.md (5), glyph (2), frame, hitArea, targetSpacing,
        // label (3), states (2), scales (2), dynamicTypeSizes (2), themes.default (5).
        #expect(keys.count == 28, "\(keys.keys.sorted())")
        var untested: [String] = []
        for (key, value) in keys.sorted(by: { $0.key < $1.key }) {
            var changed = false
            for candidate in Self.candidates(value) {
                let text = Self.replace(root, key: key, with: candidate)
                guard case .success(let spec) = specFrom(text) else { continue }
                #expect(spec.writtenKeys[key] != value)
                changed = try Self.digests(spec) != before
                #expect(changed, "\(key): \(value) → \(candidate) leaves every digest as it was")
                break
            }
            if !changed { untested.append(key) }
        }
        // A checkbox spec cannot become a switch by its control alone (a switch needs track sizes).
        #expect(untested == ["control"], "no valid change found for \(untested)")
    }

    /// The spec's JSON with the leaf at `key` replaced by `json`.
    static func replace(_ node: JSONNode, key: String, with json: String) -> String {
        func write(_ node: JSONNode, _ path: String) -> String {
            if path == key { return json }
            switch node.value {
            case .object(let members):
                return "{" + members.map { m in
                    "\(String(decoding: try! JSONEncoder().encode(m.key), as: UTF8.self)): \(write(m.value, path.isEmpty ? m.key : "\(path).\(m.key)"))"
                }.joined(separator: ",") + "}"
            case .array(let items): return "[" + items.enumerated().map { write($1, "\(path)[\($0)]") }.joined(separator: ",") + "]"
            case .string(let s): return String(decoding: try! JSONEncoder().encode(s), as: UTF8.self)
            case .number(let n): return SpecInputs.number(n)
            case .bool(let b): return b ? "true" : "false"
            case .null: return "null"
            }
        }
        return write(node, "")
    }

    @Test("a token's value, one byte of an image, the label font and a library version each change the digests")
    func otherInputs() throws {
        // A token.
        let tokens = ##"{ "color": { "brand": { "$type": "color", "$value": "#E00800" } } }"##
        let withToken = Self.spec.replacingOccurrences(of: ##""fill": "#E00800""##, with: ##""fill": "{color.brand}""##)
            .replacingOccurrences(of: ##""control": "checkbox","##, with: ##""control": "checkbox", "tokens": "tokens.json","##)
        let a = try specFrom(withToken, files: ["tokens.json": tokens]).get()
        let b = try specFrom(withToken, files: ["tokens.json": tokens.replacingOccurrences(of: "#E00800", with: "#E00801")]).get()
        #expect(try Self.digests(a) != Self.digests(b))
        #expect(SpecInputs(a).keys["themes.default.fill"] == "{color.brand} #E00800")

        // One byte of an image.
        let svg = ##"<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20"><rect width="20" height="20" fill="#102030"/></svg>"##
        let imageSpec = """
        { "name": "i", "control": "checkbox", "sizes": { "md": { "size": 20 } },
          "images": { "on": "on.svg", "off": "off.svg" }, "states": ["unchecked", "checked"], "scales": [1],
          "dynamicTypeSizes": ["large"], "themes": { "default": { "surface": "#FFFFFF", "tint": "#000000" } } }
        """
        let c = try specFrom(imageSpec, files: ["on.svg": svg, "off.svg": svg]).get()
        let d = try specFrom(imageSpec, files: ["on.svg": svg.replacingOccurrences(of: "#102030", with: "#102031"), "off.svg": svg]).get()
        let dc = try Self.digests(c), dd = try Self.digests(d)
        #expect(dc["i/square-md/L/default/checked@1x"] != dd["i/square-md/L/default/checked@1x"])
        // The unchecked variant draws the off image, which did not change (its digest changes all the
        // same: the image keys feed every variant).
        let pc = try Plan(specs: [c]), pd = try Plan(specs: [d])
        #expect(pc.items.map(\.scene.inputText).filter { $0.contains("unchecked") }
                == pd.items.map(\.scene.inputText).filter { $0.contains("unchecked") })
        #expect(pc.items.map(\.scene.inputText) != pd.items.map(\.scene.inputText))

        // The label font and a library version (the renderer fingerprint).
        let base = try specFrom(Self.spec).get()
        let current = RendererFingerprint.current.components
        var font = current
        font["font-regular"] = "Inter sha256:0000"
        var library = current
        library["librsvg"] = "9.9.9"
        let digests = try Self.digests(base, renderer: current)
        #expect(try Self.digests(base, renderer: font).allSatisfy { digests[$0.key] != $0.value })
        #expect(try Self.digests(base, renderer: library).allSatisfy { digests[$0.key] != $0.value })
        // And the digest is the same again for the same inputs.
        #expect(try Self.digests(try specFrom(Self.spec).get(), renderer: current) == digests)
    }
}
