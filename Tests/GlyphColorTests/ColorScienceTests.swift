import Foundation
import Testing
import GlyphColor
import GlyphTestSupport

// Every expected number in this file comes either from the reference data in
// Tests/Fixtures/reference (read at test time, never copied into the product) or
// from an independent published / hand-computed value noted next to it.

// MARK: - Reference data

private enum Reference {
    /// `Tests/Fixtures/reference/<name>`.
    static func url(_ name: String) -> URL {
        TestPaths.reference.appendingPathComponent(name)
    }

    static func load<T: Decodable>(_ type: T.Type, _ name: String) throws -> T {
        let data = try Data(contentsOf: url(name))
        return try JSONDecoder().decode(T.self, from: data)
    }
}

private struct ContrastFile: Decodable {
    struct Vector: Decodable {
        let fg: String
        let bg: String
        let note: String?
        let wcag2Ratio: Double
        let meets3: Bool
        let meets45: Bool
        let meets7: Bool
        let fgLuminance: Double
        let bgLuminance: Double

        enum CodingKeys: String, CodingKey {
            case fg, bg, note
            case wcag2Ratio = "wcag2_ratio"
            case meets3 = "meets_3_0"
            case meets45 = "meets_4_5"
            case meets7 = "meets_7_0"
            case fgLuminance = "fg_relative_luminance"
            case bgLuminance = "bg_relative_luminance"
        }
    }
    let vectors: [Vector]
}

private struct CVDFile: Decodable {
    struct Result: Decodable {
        let srgbHex: String
        let linearUnclipped: [Double]
        enum CodingKeys: String, CodingKey {
            case srgbHex = "srgb_hex"
            case linearUnclipped = "linear_rgb_unclipped"
        }
    }
    struct Vector: Decodable {
        let input: String
        let machado: [String: Result]
        enum CodingKeys: String, CodingKey {
            case input
            case machado = "machado2009_severity_1_0"
        }
    }
    struct Simulation: Decodable {
        let vectors: [Vector]
    }
    /// matrices[deficiency][severity] = row-major 3x3
    let matrices: [String: [String: [[Double]]]]
    let simulationVectors: Simulation
    enum CodingKeys: String, CodingKey {
        case matrices
        case simulationVectors = "simulation_vectors"
    }
}

/// The reference file's deficiency keys.
private func referenceKey(_ kind: CVDKind) -> String {
    switch kind {
    case .protanopia: return "protan"
    case .deuteranopia: return "deutan"
    case .tritanopia: return "tritan"
    }
}

/// Independent `#RRGGBB` parser (does not go through `RGBA(hex:)`).
private func bytes(_ hex: String) -> (Int, Int, Int)? {
    guard hex.count == 7, hex.first == "#", let v = Int(hex.dropFirst(), radix: 16) else { return nil }
    return ((v >> 16) & 0xFF, (v >> 8) & 0xFF, v & 0xFF)
}

private func colour(_ hex: String) -> RGBA? {
    guard let (r, g, b) = bytes(hex) else { return nil }
    return RGBA(r: Double(r) / 255, g: Double(g) / 255, b: Double(b) / 255)
}

// The reference file stores ratios rounded to 6 decimal places and luminances
// rounded to 8, so the tightest meaningful tolerance is half a unit in that
// last place (plus a hair for floating-point noise). Where the reference value
// is exact (21, 1, 0.2126, ...) that is still far tighter than any plausible bug.
private let ratioTolerance = 0.5e-6 + 1e-12
private let luminanceTolerance = 0.5e-8 + 1e-12

@Suite("ColorScience")
struct ColorScienceTests {

    // MARK: WCAG 2 contrast

    @Test("every contrast vector: ratio, luminances and pass/fail flags")
    func contrastVectors() throws {
        let file = try Reference.load(ContrastFile.self, "contrast-vectors.json")
        // README: "43 opaque sRGB colour pairs" - guards against reading nothing.
        #expect(file.vectors.count == 43)
        for v in file.vectors {
            let label = "\(v.fg) on \(v.bg) (\(v.note ?? ""))"
            let fg = try #require(colour(v.fg), "bad hex \(v.fg)")
            let bg = try #require(colour(v.bg), "bad hex \(v.bg)")

            #expect(abs(fg.relativeLuminance - v.fgLuminance) <= luminanceTolerance, "fg luminance: \(label)")
            #expect(abs(bg.relativeLuminance - v.bgLuminance) <= luminanceTolerance, "bg luminance: \(label)")

            let ratio = contrastRatio(fg, bg)
            #expect(abs(ratio - v.wcag2Ratio) <= ratioTolerance, "ratio \(ratio) vs \(v.wcag2Ratio): \(label)")
            // Argument order must not matter.
            #expect(contrastRatio(bg, fg) == ratio, "symmetry: \(label)")

            // Unrounded threshold comparison.
            #expect((ratio >= 3.0) == v.meets3, "3:1 flag: \(label)")
            #expect((ratio >= 4.5) == v.meets45, "4.5:1 flag: \(label)")
            #expect((ratio >= 7.0) == v.meets7, "7:1 flag: \(label)")
        }
    }

    @Test("ratios are not rounded: 2.998 fails 3, 4.4989 fails 4.5")
    func ratiosAreNotRounded() throws {
        // Reference vectors: #595959 on black = 2.997975, white on #0078D7 = 4.498861.
        let nearly3 = contrastRatio(try #require(colour("#595959")), .black)
        #expect(nearly3 < 3.0)
        #expect((nearly3 * 100).rounded() / 100 == 3.0)   // would pass if rounded to 2 dp
        let nearly45 = contrastRatio(.white, try #require(colour("#0078D7")))
        #expect(nearly45 < 4.5)
        #expect((nearly45 * 100).rounded() / 100 == 4.5)
    }

    @Test("extremes and primaries (hand-computed)")
    func extremes() {
        // (1 + 0.05) / (0 + 0.05) = 21 exactly; identical colours = 1.
        #expect(abs(contrastRatio(.black, .white) - 21) <= 1e-12)
        #expect(contrastRatio(.white, .white) == 1)
        // toLinear(1) = 1 and toLinear(0) = 0, so primaries give the coefficients.
        #expect(abs(RGBA(r: 1, g: 0, b: 0).relativeLuminance - 0.2126) <= 1e-15)
        #expect(abs(RGBA(r: 0, g: 1, b: 0).relativeLuminance - 0.7152) <= 1e-15)
        #expect(abs(RGBA(r: 0, g: 0, b: 1).relativeLuminance - 0.0722) <= 1e-15)
        // Alpha is ignored by luminance.
        #expect(RGBA(r: 1, g: 0, b: 0, a: 0.3).relativeLuminance == RGBA(r: 1, g: 0, b: 0).relativeLuminance)
    }

    // MARK: sRGB transfer and lookup table

    @Test("sRGB transfer function and 8-bit lookup table")
    func srgbTransfer() {
        #expect(SRGB.linearTable.count == 256)
        #expect(SRGB.linearTable[0] == 0)
        #expect(abs(SRGB.linearTable[255] - 1) <= 1e-15)
        // 10/255 = 0.0392 is on the linear segment: (10/255) / 12.92.
        #expect(abs(SRGB.linearTable[10] - (10.0 / 255.0) / 12.92) <= 1e-15)
        // 128/255: the reference gives #808080 a luminance of 0.2158605 (grey, so Y = channel).
        #expect(abs(SRGB.linearTable[128] - 0.2158605) <= luminanceTolerance)
        // Linear segment of the encoder: 0.001 * 12.92.
        #expect(abs(SRGB.fromLinear(0.001) - 0.01292) <= 1e-15)
        // Every 8-bit code value survives decode -> encode.
        for i in 0...255 {
            #expect(abs(SRGB.fromLinear(SRGB.linearTable[i]) * 255 - Double(i)) <= 1e-9, "code \(i)")
            #expect(SRGB.fromLinear8(SRGB.linearTable[i]) == UInt8(i), "code \(i)")
        }
        #expect(SRGB.fromLinear8(-0.5) == 0)
        #expect(SRGB.fromLinear8(2) == 255)
    }

    // MARK: CVD

    @Test("Machado 2009 constants equal the severity-1.0 reference matrices")
    func machadoConstants() throws {
        let file = try Reference.load(CVDFile.self, "cvd-matrices.json")
        for kind in CVDKind.allCases {
            let expected = try #require(file.matrices[referenceKey(kind)]?["1.0"], "no 1.0 matrix for \(kind)")
            let actual = Machado2009.matrix(kind).rows
            #expect(expected.count == 3)
            for i in 0..<3 {
                #expect(expected[i].count == 3)
                for j in 0..<3 {
                    #expect(abs(actual[i][j] - expected[i][j]) <= 1e-12, "\(kind) m\(i)\(j)")
                }
            }
        }
    }

    @Test("every simulation vector: simulated sRGB within 1/255 per channel")
    func simulationVectors() throws {
        let file = try Reference.load(CVDFile.self, "cvd-matrices.json")
        // README: "14 input colours".
        #expect(file.simulationVectors.vectors.count == 14)
        for v in file.simulationVectors.vectors {
            let input = try #require(colour(v.input), "bad hex \(v.input)")
            for kind in CVDKind.allCases {
                let ref = try #require(v.machado[referenceKey(kind)], "\(v.input) has no \(kind)")
                let (er, eg, eb) = try #require(bytes(ref.srgbHex))
                let out = input.simulated(kind)
                let label = "\(v.input) \(kind): got \(out.hex), want \(ref.srgbHex)"
                #expect(abs(out.r * 255 - Double(er)) <= 1.0, "\(label)")
                #expect(abs(out.g * 255 - Double(eg)) <= 1.0, "\(label)")
                #expect(abs(out.b * 255 - Double(eb)) <= 1.0, "\(label)")
                #expect(out.a == 1, "\(label)")
            }
        }
    }

    @Test("fast linear path matches the reference's linear values (clipped)")
    func simulateLinearVectors() throws {
        let file = try Reference.load(CVDFile.self, "cvd-matrices.json")
        for v in file.simulationVectors.vectors {
            let (r8, g8, b8) = try #require(bytes(v.input))
            let (r, g, b) = (SRGB.linearTable[r8], SRGB.linearTable[g8], SRGB.linearTable[b8])
            for kind in CVDKind.allCases {
                let ref = try #require(v.machado[referenceKey(kind)])
                let want = ref.linearUnclipped.map { min(max($0, 0), 1) }
                try #require(want.count == 3)
                let got = simulateLinear(kind, r: r, g: g, b: b)
                // Reference linear values are rounded to 6 dp.
                #expect(abs(got.0 - want[0]) <= 0.5e-6 + 1e-12, "\(v.input) \(kind) r")
                #expect(abs(got.1 - want[1]) <= 0.5e-6 + 1e-12, "\(v.input) \(kind) g")
                #expect(abs(got.2 - want[2]) <= 0.5e-6 + 1e-12, "\(v.input) \(kind) b")
            }
        }
    }

    @Test("simulation keeps alpha; views and kinds")
    func simulationAlphaAndViews() {
        let c = RGBA(r: 0.8, g: 0.2, b: 0.1, a: 0.5)
        for kind in CVDKind.allCases {
            #expect(c.simulated(kind).a == 0.5)
        }
        #expect(c.greyscale.a == 0.5)
        #expect(CVDKind.allCases.map(\.rawValue) == ["protanopia", "deuteranopia", "tritanopia"])
        #expect(ColorView.allCases.map(\.rawValue) == ["greyscale", "protanopia", "deuteranopia", "tritanopia"])
        #expect(ColorView.greyscale.cvdKind == nil)
        #expect(ColorView.protanopia.cvdKind == .protanopia)
        #expect(ColorView.deuteranopia.cvdKind == .deuteranopia)
        #expect(ColorView.tritanopia.cvdKind == .tritanopia)
    }

    @Test("greyscale puts linear Y in every channel")
    func greyscale() throws {
        // Pure red: Y = 0.2126; encoded 1.055 * 0.2126^(1/2.4) - 0.055 = 0.4984399235922749
        // (computed independently in Python).
        let red = RGBA(r: 1, g: 0, b: 0).greyscale
        for ch in [red.r, red.g, red.b] {
            #expect(abs(ch - 0.4984399235922749) <= 1e-9)
        }
        // A grey is its own greyscale (coefficients sum to 1).
        let grey = try #require(colour("#808080")).greyscale
        for ch in [grey.r, grey.g, grey.b] {
            #expect(abs(ch - 128.0 / 255.0) <= 1e-9)
        }
        #expect(abs(RGBA.white.greyscale.r - 1) <= 1e-12)
        #expect(RGBA.black.greyscale.r == 0)
    }

    // MARK: Compositing

    @Test("compositing: hand-computed cases")
    func compositing() {
        // 50% black over white: 0.5 * 0 + 0.5 * 1 = 0.5 = 127.5/255 per channel, opaque.
        let mid = RGBA(r: 0, g: 0, b: 0, a: 0.5).composited(over: .white)
        #expect(abs(mid.r - 127.5 / 255) <= 1e-12)
        #expect(abs(mid.g - 127.5 / 255) <= 1e-12)
        #expect(abs(mid.b - 127.5 / 255) <= 1e-12)
        #expect(mid.a == 1)

        // 25% white over black: 0.25 * 1 + 0.75 * 0 = 0.25.
        let dark = RGBA(r: 1, g: 1, b: 1, a: 0.25).composited(over: .black)
        #expect(abs(dark.r - 0.25) <= 1e-12)
        #expect(dark.a == 1)

        // Sum of weights is exactly opaque for awkward alphas over an opaque backdrop.
        for alpha in [0.1, 0.3, 0.7, 1.0 / 3.0, 0.999] {
            #expect(RGBA(r: 0.2, g: 0.4, b: 0.6, a: alpha).composited(over: RGBA(r: 0.9, g: 0.1, b: 0.5)).a == 1)
        }

        // White at 50% over black at 50%: a = 0.5 + 0.5 * 0.5 = 0.75,
        // c = (1 * 0.5 + 0 * 0.25) / 0.75 = 2/3.
        let both = RGBA(r: 1, g: 1, b: 1, a: 0.5).composited(over: RGBA(r: 0, g: 0, b: 0, a: 0.5))
        #expect(abs(both.a - 0.75) <= 1e-12)
        #expect(abs(both.r - 2.0 / 3.0) <= 1e-12)

        // Translucent over fully transparent is itself.
        let t = RGBA(r: 0.3, g: 0.6, b: 0.9, a: 0.4).composited(over: .clear)
        #expect(abs(t.r - 0.3) <= 1e-12 && abs(t.g - 0.6) <= 1e-12 && abs(t.b - 0.9) <= 1e-12)
        #expect(abs(t.a - 0.4) <= 1e-12)

        // Nothing over nothing stays transparent.
        #expect(RGBA.clear.composited(over: .clear).a == 0)
    }

    @Test("compositing: an opaque colour over anything is itself")
    func opaqueOverAnything() {
        let fgs = [RGBA(r: 0.1, g: 0.5, b: 0.9), .white, .black, RGBA(r: 0.88, g: 0.03, b: 0)]
        let bgs = [RGBA.white, .black, .clear, RGBA(r: 0.2, g: 0.7, b: 0.3, a: 0.5), RGBA(r: 1, g: 0, b: 1)]
        for fg in fgs {
            for bg in bgs {
                let out = fg.composited(over: bg)
                #expect(out == fg, "\(fg.hex) over \(bg.hex)")
            }
        }
    }

    // MARK: OKLab

    @Test("OKLab: white, black and published sRGB red")
    func oklab() {
        let w = RGBA.white.oklab
        #expect(abs(w.L - 1) <= 1e-4)
        #expect(abs(w.a) <= 1e-4)
        #expect(abs(w.b) <= 1e-4)

        let k = RGBA.black.oklab
        #expect(abs(k.L) <= 1e-4)
        #expect(abs(k.a) <= 1e-4)
        #expect(abs(k.b) <= 1e-4)

        // Published OKLab of sRGB #FF0000: (0.62796, 0.22486, 0.12585).
        let red = RGBA(r: 1, g: 0, b: 0).oklab
        #expect(abs(red.L - 0.62796) <= 1e-4)
        #expect(abs(red.a - 0.22486) <= 1e-4)
        #expect(abs(red.b - 0.12585) <= 1e-4)
    }

    @Test("OKLab distance is Euclidean")
    func oklabDistanceTest() {
        // White (1, 0, 0) to black (0, 0, 0): 1.
        #expect(abs(oklabDistance(.white, .black) - 1) <= 1e-4)
        #expect(oklabDistance(.white, .white) == 0)
        // Red to black: sqrt(0.62796^2 + 0.22486^2 + 0.12585^2) = 0.67870 from the published values.
        let expected = (0.62796 * 0.62796 + 0.22486 * 0.22486 + 0.12585 * 0.12585).squareRoot()
        let red = RGBA(r: 1, g: 0, b: 0)
        #expect(abs(oklabDistance(red, .black) - expected) <= 2e-4)
        #expect(oklabDistance(red, .white) == oklabDistance(.white, red))
    }
}
