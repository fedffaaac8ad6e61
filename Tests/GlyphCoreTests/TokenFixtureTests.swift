import Foundation
import Testing
@testable import GlyphAudit
@testable import GlyphColor
@testable import GlyphCore
@testable import GlyphRaster
import GlyphTestSupport
import GlyphRenderTestSupport

// The real token files in Tests/Fixtures/tokens/ against its expected.json (computed
// independently with coloraide 8.13.1; see its README): every `value` reached to the 8-bit channel
// or the px, every `error` refused with a message that names the construct, every `tokens_studio`
// value reached when the file is read as Tokens Studio (or refused loudly: math). Colours are read
// through a real spec (its fill aliases the token); lengths through the spec reader's length.

/// One entry of expected.json.
struct ExpectedToken: CustomStringConvertible {
    var file: String
    var path: String
    var type: String?
    var value: Any?
    var valueClip: String?
    var outOfGamut: Bool
    var error: String?
    var tokensStudio: Any?

    var description: String { "\(file): \(path)" }

    static let folder = TestPaths.fixture("tokens")

    static func all() throws -> [ExpectedToken] {
        let data = try Data(contentsOf: folder.appendingPathComponent("expected.json"))
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let files = try #require(root["files"] as? [String: [String: [String: Any]]])
        var out: [ExpectedToken] = []
        for (file, entries) in files.sorted(by: { $0.key < $1.key }) {
            for (path, e) in entries.sorted(by: { $0.key < $1.key }) {
                out.append(ExpectedToken(file: file, path: path, type: e["type"] as? String, value: e["value"],
                                         valueClip: e["value_clip"] as? String, outOfGamut: e["out_of_srgb_gamut"] as? Bool ?? false,
                                         error: e["error"] as? String, tokensStudio: e["tokens_studio"]))
            }
        }
        return out
    }
}

/// Reads fixture tokens the way a spec does.
enum FixtureReader {
    static func text(_ file: String) throws -> String {
        try String(contentsOf: ExpectedToken.folder.appendingPathComponent(file), encoding: .utf8)
    }

    /// A spec whose fill is `{path}` from the fixture, loaded (its tokens read as `format`).
    static func spec(_ file: String, fill path: String, format: String?) -> Result<Spec, InputError> {
        let formatKey = format.map { "\"tokensFormat\": \"\($0)\"," } ?? ""
        let json = checkboxSpec(##""tokens": "fixture.tokens.json", \##(formatKey)"##,
                                themes: ##"{ "default": { "surface": "#FFFFFF", "border": "#767676", "fill": "{\##(path)}", "mark": "#FFFFFF" } }"##)
        guard let tokens = try? text(file) else { return .failure(InputError(file: file, message: "fixture missing")) }
        return loadSpec(json, files: ["fixture.tokens.json": tokens])
    }

    static func color(_ file: String, _ path: String, format: String?) -> Result<AuthoredColor, InputError> {
        spec(file, fill: path, format: format).map { $0.themes[0].colors[.fill]! }
    }

    /// A length from the fixture through `SpecReader.length` (the function every length key uses),
    /// with bounds wide enough for -4 px and 9999 px.
    static func length(_ file: String, _ path: String, format: TokenSet.Format) -> Result<Double, InputError> {
        do {
            let root = try JSONReader.parse(Data(text(file).utf8))
            var r = SpecReader(file: "spec.json", tokens: try TokenSet(file: file, root: root, format: format))
            return .success(try r.length(JSONNode(value: .string("{\(path)}"), line: 1, column: 1), "sizes.md.size",
                                         min: -100_000, max: 100_000))
        } catch let e as InputError {
            return .failure(e)
        } catch {
            return .failure(InputError(file: file, message: "\(error)"))
        }
    }

    static func isColor(_ e: ExpectedToken) -> Bool {
        (e.value as? String ?? e.tokensStudio as? String)?.hasPrefix("#") == true || e.type == "color"
    }
}

@Suite("Token files: Tests/Fixtures/tokens resolve to expected.json")
struct TokenFixtureTests {
    /// Tokens whose expected `value` is what a reader that ignores `$extensions["studio.tokens"].modify`
    /// gives. glyphaudit never draws that unmodified colour: a strict DTCG read refuses the token
    /// (naming the modifier), a Tokens Studio read applies it (`tokens_studio`).
    static let modified: Set<String> = ["colors.red.400", "colors.red.600"]

    @Test("every fixture file is read in its detected format: the two sd-transforms files as Tokens Studio, the rest as DTCG")
    func detection() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: ExpectedToken.folder.path).filter { $0.hasSuffix(".tokens.json") }
        #expect(names.count == 15)
        for name in names {
            let root = try JSONReader.parse(Data(FixtureReader.text(name).utf8))
            let set = try TokenSet(file: name, root: root)
            #expect(set.format == (name.hasPrefix("sd-transforms-") ? .tokensStudio : .dtcg), "\(name): \(set.detectedAs ?? "-")")
        }
    }

    @Test("every `value` is reached: colours to the 8-bit channel through a spec's fill, lengths to the px")
    func values() throws {
        var checked = 0
        for e in try ExpectedToken.all() where e.value != nil && e.error == nil && !Self.modified.contains(e.path) {
            if let hex = e.value as? String {
                let c = try FixtureReader.color(e.file, e.path, format: "dtcg").get()
                #expect(c.rgba.hex.lowercased() == hex, "\(e)")
                #expect(c.token == "{\(e.path)}")
                // Out of sRGB: the note says it was gamut-mapped, and to what (and what clipping gives).
                if e.outOfGamut {
                    let note = try #require(c.note, "\(e): no gamut-mapping note")
                    #expect(note.contains("is outside sRGB; gamut-mapped (CSS Color 4) to \(hex.uppercased())"), "\(note)")
                    if let clip = e.valueClip {
                        #expect(note.contains("clipping each channel would give \(clip.uppercased())"), "\(note)")
                    }
                } else {
                    #expect(c.note == nil, "\(e): \(c.note ?? "")")
                }
            } else {
                let px = try #require(e.value as? Double, "\(e)")
                #expect(try FixtureReader.length(e.file, e.path, format: .dtcg).get() == px, "\(e)")
            }
            checked += 1
        }
        #expect(checked == 65)
    }

    @Test("the same values are reached when the files are read as Tokens Studio (its reader is a superset)")
    func valuesInTokensStudioMode() throws {
        for e in try ExpectedToken.all() where e.value != nil && e.error == nil && !Self.modified.contains(e.path) {
            if let hex = e.value as? String {
                #expect(try FixtureReader.color(e.file, e.path, format: "tokens-studio").get().rgba.hex.lowercased() == hex, "\(e)")
            } else if let px = e.value as? Double {
                #expect(try FixtureReader.length(e.file, e.path, format: .tokensStudio).get() == px, "\(e)")
            }
        }
    }

    @Test("every `error` is refused by a strict DTCG read, and the message names the construct")
    func errors() throws {
        var checked = 0
        for e in try ExpectedToken.all() {
            guard let expected = e.error else { continue }
            let result: Result<Void, InputError> = FixtureReader.isColor(e)
                ? FixtureReader.color(e.file, e.path, format: "dtcg").map { _ in }
                : FixtureReader.length(e.file, e.path, format: .dtcg).map { _ in }
            guard case let .failure(error) = result else {
                Issue.record("\(e) was accepted; expected.json: \(expected)")
                continue
            }
            let m = error.message
            if expected.hasPrefix("unknown $type") || expected.hasPrefix("value is not a") {
                // The expected text itself: `unknown $type "fontSize"`, `value is not a dimension: "…"`.
                #expect(m.contains(expected), "\(e): \(m)")
            } else if expected.contains("is a group, not a token") {
                #expect(m.contains("{\(e.path)} is a group, not a token") && m.contains("its root token is {\(e.path).$root}"), "\(m)")
            } else if expected.hasPrefix("Tokens Studio legacy format") {
                #expect(m.contains("Tokens Studio legacy format") && m.contains("\"tokensFormat\": \"tokens-studio\""), "\(m)")
                #expect(m.contains("This looks like a Tokens Studio file"), "\(m)")
                #expect(error.file.hasSuffix("/fixture.tokens.json") && error.keyPath == "color.red", "the token file and its first legacy token: \(error)")
            } else {
                Issue.record("\(e): no check for \(expected)")
            }
            checked += 1
        }
        #expect(checked == 10)
    }

    @Test("every `tokens_studio` value is reached when the file is read as Tokens Studio; math is refused loudly")
    func tokensStudio() throws {
        var reached = 0, refused = 0
        for e in try ExpectedToken.all() {
            guard let expected = e.tokensStudio else { continue }
            if let hex = expected as? String {
                let c = try FixtureReader.color(e.file, e.path, format: "tokens-studio").get()
                #expect(c.rgba.hex.lowercased() == hex, "\(e)")
                // The same without a tokensFormat: both files are detected as Tokens Studio.
                #expect(try FixtureReader.color(e.file, e.path, format: nil).get().rgba.hex.lowercased() == hex, "\(e)")
                reached += 1
            } else {
                // Tokens Studio math ({dimension.xs} * {dimension.scale}) is not evaluated: refused, never 4 px.
                guard case let .failure(error) = FixtureReader.length(e.file, e.path, format: .tokensStudio) else {
                    Issue.record("\(e): math accepted")
                    continue
                }
                #expect(error.message.contains("Tokens Studio math expression \"{dimension.xs} * {dimension.scale}\" is not supported"),
                        "\(error.message)")
                refused += 1
            }
        }
        #expect(reached == 7 && refused == 2)
    }

    @Test("a strict DTCG read refuses a token carrying a Tokens Studio modify, naming the modifier, rather than draw it unmodified")
    func modifyNeverIgnored() throws {
        for path in Self.modified {
            guard case let .failure(e) = FixtureReader.color("sd-transforms-w3c-spec-compliance.tokens.json", path, format: "dtcg") else {
                Issue.record("\(path) accepted in a strict read")
                continue
            }
            #expect(e.keyPath == "themes.default.fill")
            #expect(e.message.contains("token \(path) in ") && e.message.contains("carries a Tokens Studio modify"), "\(e.message)")
            #expect(e.message.contains(path == "colors.red.400" ? "(lighten 0.1 in srgb)" : "(darken 0.1 in srgb)"), "\(e.message)")
            #expect(e.message.contains("\"tokensFormat\": \"tokens-studio\""))
        }
    }

    @Test("a spec whose fill is a Tokens Studio modify token draws the modified colour, never the unmodified one")
    func modifyRendered() throws {
        let tokens = try FixtureReader.text("sd-transforms-w3c-spec-compliance.tokens.json")
        let scene = try AuditScene(checkboxSpec(##""tokens": "w3c.tokens.json", "scales": [1], "dynamicTypeSizes": ["large"],"##,
                                                themes: ##"{ "default": { "surface": "#FFFFFF", "border": "#767676", "fill": "{colors.red.400}", "mark": "#FFFFFF" } }"##),
                                   files: ["w3c.tokens.json": tokens])
        let lifted = RGBA(r8: 0xF6, g8: 0x74, b8: 0x74), original = RGBA(r8: 0xF5, g8: 0x65, b8: 0x65)
        #expect(scene.spec.themes[0].colors[.fill]?.rgba == lifted)
        let checked = try scene.index("t/square-md/L/default/checked@1x")
        let raster = scene.input.raster(checked)
        var fill = 0, unmodified = 0
        for y in 0..<raster.height {
            for x in 0..<raster.width {
                let c = raster.color(x, y)
                if c == lifted { fill += 1 }
                if c == original { unmodified += 1 }
            }
        }
        #expect(fill > 50, "the fill is drawn in #F67474")
        #expect(unmodified == 0, "#F56565 (the colour before lighten 0.1) is drawn nowhere")
    }
}
