// The colour spaces of the W3C Design Tokens colour module (2025.10), converted to sRGB with the
// formulas and matrices of CSS Color 4 §18 ("Sample code for color conversions"): each space to
// CIE XYZ (D65; the D50 spaces through the Bradford adaptation CSS Color 4 gives), XYZ to linear
// sRGB, and the sRGB transfer function, all extended to negative values by symmetry as CSS does.
// A colour outside sRGB is brought in with the CSS Color 4 gamut-mapping algorithm
// (`OKLCH.gamutMapped`); the per-channel clip is kept too, so a caller can say what mapping changed.

import Foundation

/// A 3 × 3 matrix, row-major, applied to a column vector.
typealias Matrix3 = [[Double]]

@inline(__always)
func multiply(_ m: Matrix3, _ v: [Double]) -> [Double] {
    [m[0][0] * v[0] + m[0][1] * v[1] + m[0][2] * v[2],
     m[1][0] * v[0] + m[1][1] * v[1] + m[1][2] * v[2],
     m[2][0] * v[0] + m[2][1] * v[1] + m[2][2] * v[2]]
}

/// CSS Color 4's conversion constants and formulas.
public enum CSSColor {
    // MARK: Matrices (CSS Color 4 §18, as published)

    static let linSRGBToXYZ: Matrix3 = [
        [506752.0 / 1228815, 87881.0 / 245763, 12673.0 / 70218],
        [87098.0 / 409605, 175762.0 / 245763, 12673.0 / 175545],
        [7918.0 / 409605, 87881.0 / 737289, 1001167.0 / 1053270],
    ]
    static let xyzToLinSRGB: Matrix3 = [
        [12831.0 / 3959, -329.0 / 214, -1974.0 / 3959],
        [-851781.0 / 878810, 1648619.0 / 878810, 36519.0 / 878810],
        [705.0 / 12673, -2585.0 / 12673, 705.0 / 667],
    ]
    static let linP3ToXYZ: Matrix3 = [
        [608311.0 / 1250200, 189793.0 / 714400, 198249.0 / 1000160],
        [35783.0 / 156275, 247089.0 / 357200, 198249.0 / 2500400],
        [0.0, 32229.0 / 714400, 5220557.0 / 5000800],
    ]
    static let xyzToLinP3: Matrix3 = [
        [446124.0 / 178915, -333277.0 / 357830, -72051.0 / 178915],
        [-14852.0 / 17905, 63121.0 / 35810, 423.0 / 17905],
        [11844.0 / 330415, -50337.0 / 660830, 316169.0 / 330415],
    ]
    static let linA98ToXYZ: Matrix3 = [
        [573536.0 / 994567, 263643.0 / 1420810, 187206.0 / 994567],
        [591459.0 / 1989134, 6239551.0 / 9945670, 374412.0 / 4972835],
        [53769.0 / 1989134, 351524.0 / 4972835, 4929758.0 / 4972835],
    ]
    /// ProPhoto is D50.
    static let linProPhotoToXYZD50: Matrix3 = [
        [0.7977666449006423, 0.13518129740053308, 0.0313477341283922],
        [0.2880748288194013, 0.711835234241873, 0.00008993693872564],
        [0.0, 0.0, 0.8251046025104602],
    ]
    static let linRec2020ToXYZ: Matrix3 = [
        [63426534.0 / 99577255, 20160776.0 / 139408157, 47086771.0 / 278816314],
        [26158966.0 / 99577255, 472592308.0 / 697040785, 8267143.0 / 139408157],
        [0.0, 19567812.0 / 697040785, 295819943.0 / 278816314],
    ]
    /// Bradford chromatic adaptation.
    static let d50ToD65: Matrix3 = [
        [0.955473421488075, -0.02309845494876471, 0.06325924320057072],
        [-0.0283697093338637, 1.0099953980813041, 0.021041441191917323],
        [0.012314014864481998, -0.020507649298898964, 1.330365926242124],
    ]
    static let d65ToD50: Matrix3 = [
        [1.0479297925449969, 0.022946870601609652, -0.05019226628920524],
        [0.02962780877005599, 0.9904344267538799, -0.017073799063418826],
        [-0.009243040646204504, 0.015055191490298152, 0.7518742814281371],
    ]
    static let okLabToLMS: Matrix3 = [
        [1.0, 0.3963377773761749, 0.2158037573099136],
        [1.0, -0.1055613458156586, -0.0638541728258133],
        [1.0, -0.0894841775298119, -1.2914855480194092],
    ]
    static let lmsToXYZ: Matrix3 = [
        [1.2268798758459243, -0.5578149944602171, 0.2813910456659647],
        [-0.0405757452148008, 1.1122868032803170, -0.0717110580655164],
        [-0.0763729366746601, -0.4214933324022432, 1.5869240198367816],
    ]
    /// The D50 white of CIE Lab, from its four-figure chromaticity.
    static let d50White: [Double] = [0.3457 / 0.3585, 1.0, (1.0 - 0.3457 - 0.3585) / 0.3585]
    static let kappa = 24389.0 / 27
    static let epsilon = 216.0 / 24389

    // MARK: Transfer functions (extended to negative values by symmetry)

    /// sRGB (and Display P3) encoded → linear, extended to negative values by symmetry.
    public static func srgbToLinear(_ c: Double) -> Double { (c < 0 ? -1 : 1) * SRGB.toLinear(abs(c)) }

    /// sRGB (and Display P3) linear → encoded, extended to negative values by symmetry.
    public static func srgbFromLinear(_ c: Double) -> Double { (c < 0 ? -1 : 1) * SRGB.fromLinear(abs(c)) }

    static func a98ToLinear(_ c: Double) -> Double { (c < 0 ? -1 : 1) * pow(abs(c), 563.0 / 256) }

    static func proPhotoToLinear(_ c: Double) -> Double {
        let a = abs(c)
        return a <= 16.0 / 512 ? c / 16 : (c < 0 ? -1 : 1) * pow(a, 1.8)
    }

    static func rec2020ToLinear(_ c: Double) -> Double {
        let alpha = 1.09929682680944, beta = 0.018053968510807
        let a = abs(c)
        return a < beta * 4.5 ? c / 4.5 : (c < 0 ? -1 : 1) * pow((a + alpha - 1) / alpha, 1 / 0.45)
    }

    // MARK: Cylindrical and perceptual models

    /// CSS Color 4 `hslToRgb`: hue in degrees, saturation and lightness in 0…100; encoded sRGB.
    public static func hslToSRGB(_ hue: Double, _ sat: Double, _ light: Double) -> [Double] {
        var h = hue.truncatingRemainder(dividingBy: 360)
        if h < 0 { h += 360 }
        let s = sat / 100, l = light / 100
        func f(_ n: Double) -> Double {
            let k = (n + h / 30).truncatingRemainder(dividingBy: 12)
            let a = s * min(l, 1 - l)
            return l - a * max(-1, min(k - 3, 9 - k, 1))
        }
        return [f(0), f(8), f(4)]
    }

    /// CSS Color 4 `rgbToHsl` (the version that keeps out-of-gamut colours): hue NaN when the
    /// colour is achromatic; saturation and lightness in 0…100.
    public static func srgbToHSL(_ rgb: [Double]) -> [Double] {
        let (r, g, b) = (rgb[0], rgb[1], rgb[2])
        let mx = max(r, g, b), mn = min(r, g, b)
        var h = Double.nan, s = 0.0
        let l = (mn + mx) / 2
        let d = mx - mn
        if d != 0 {
            s = (l == 0 || l == 1) ? 0 : (mx - l) / min(l, 1 - l)
            switch mx {
            case r: h = (g - b) / d + (g < b ? 6 : 0)
            case g: h = (b - r) / d + 2
            default: h = (r - g) / d + 4
            }
            h *= 60
        }
        if s < 0 {
            h += 180
            s = abs(s)
        }
        if h >= 360 { h -= 360 }
        return [h, s * 100, l * 100]
    }

    /// CSS Color 4 `hwbToRgb`: hue in degrees, whiteness and blackness in 0…100; encoded sRGB.
    static func hwbToSRGB(_ hue: Double, _ white: Double, _ black: Double) -> [Double] {
        let w = white / 100, b = black / 100
        if w + b >= 1 {
            let grey = w / (w + b)
            return [grey, grey, grey]
        }
        return hslToSRGB(hue, 100, 50).map { $0 * (1 - w - b) + w }
    }

    /// CIE Lab (D50) → XYZ (D50).
    static func labToXYZD50(_ lab: [Double]) -> [Double] {
        let f1 = (lab[0] + 16) / 116
        let f0 = lab[1] / 500 + f1
        let f2 = f1 - lab[2] / 200
        let x = pow(f0, 3) > epsilon ? pow(f0, 3) : (116 * f0 - 16) / kappa
        let y = lab[0] > kappa * epsilon ? pow((lab[0] + 16) / 116, 3) : lab[0] / kappa
        let z = pow(f2, 3) > epsilon ? pow(f2, 3) : (116 * f2 - 16) / kappa
        return [x * d50White[0], y * d50White[1], z * d50White[2]]
    }

    /// XYZ (D50) → CIE Lab (D50).
    static func xyzD50ToLab(_ xyz: [Double]) -> [Double] {
        let f = (0..<3).map { i -> Double in
            let v = xyz[i] / d50White[i]
            return v > epsilon ? cbrt(v) : (kappa * v + 16) / 116
        }
        return [116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])]
    }

    /// Polar (lightness, chroma, hue in degrees) → rectangular; a NaN hue counts as 0.
    static func polarToRect(_ lch: [Double]) -> [Double] {
        let h = lch[2].isNaN ? 0 : lch[2] * .pi / 180
        let c = max(lch[1], 0)
        return [lch[0], c * cos(h), c * sin(h)]
    }

    /// OKLab → XYZ (D65).
    static func okLabToXYZ(_ lab: [Double]) -> [Double] {
        multiply(lmsToXYZ, multiply(okLabToLMS, lab).map { $0 * $0 * $0 })
    }

    static func linearSRGBToXYZ(_ rgb: [Double]) -> [Double] { multiply(linSRGBToXYZ, rgb) }
    static func xyzToLinearSRGB(_ xyz: [Double]) -> [Double] { multiply(xyzToLinSRGB, xyz) }
}

/// The colour spaces a DTCG 2025.10 colour may name in `colorSpace`, with the component ranges
/// the colour module gives.
public enum CSSColorSpace: String, Sendable, CaseIterable {
    case srgb, srgbLinear = "srgb-linear", hsl, hwb, lab, lch, oklab, oklch, displayP3 = "display-p3"
    case a98RGB = "a98-rgb", proPhotoRGB = "prophoto-rgb", rec2020, xyzD50 = "xyz-d50", xyzD65 = "xyz-d65"

    /// Per component: its name and the range the colour module allows (nil: any number). Hues
    /// take any angle and are reduced modulo 360.
    public var components: [(name: String, range: ClosedRange<Double>?)] {
        switch self {
        case .srgb, .srgbLinear, .displayP3, .a98RGB, .proPhotoRGB, .rec2020:
            return [("red", 0...1), ("green", 0...1), ("blue", 0...1)]
        case .hsl: return [("hue", nil), ("saturation", 0...100), ("lightness", 0...100)]
        case .hwb: return [("hue", nil), ("whiteness", 0...100), ("blackness", 0...100)]
        case .lab: return [("lightness", 0...100), ("a", nil), ("b", nil)]
        case .lch: return [("lightness", 0...100), ("chroma", 0...Double.greatestFiniteMagnitude), ("hue", nil)]
        case .oklab: return [("lightness", 0...1), ("a", nil), ("b", nil)]
        case .oklch: return [("lightness", 0...1), ("chroma", 0...Double.greatestFiniteMagnitude), ("hue", nil)]
        case .xyzD50, .xyzD65: return [("X", nil), ("Y", nil), ("Z", nil)]
        }
    }

    /// Linear-light sRGB of three components in this space (a `none` component given as 0, as CSS
    /// Color 4 converts it). Unclipped: outside [0, 1] when the colour is outside sRGB.
    public func linearSRGB(_ c: [Double]) -> [Double] {
        switch self {
        case .srgb: return c.map(CSSColor.srgbToLinear)
        case .srgbLinear: return c
        case .hsl: return CSSColor.hslToSRGB(c[0], c[1], c[2]).map(CSSColor.srgbToLinear)
        case .hwb: return CSSColor.hwbToSRGB(c[0], c[1], c[2]).map(CSSColor.srgbToLinear)
        case .lab: return CSSColor.xyzToLinearSRGB(multiply(CSSColor.d50ToD65, CSSColor.labToXYZD50(c)))
        case .lch: return CSSColorSpace.lab.linearSRGB(CSSColor.polarToRect(c))
        case .oklab: return CSSColor.xyzToLinearSRGB(CSSColor.okLabToXYZ(c))
        case .oklch: return CSSColorSpace.oklab.linearSRGB(CSSColor.polarToRect(c))
        case .displayP3: return CSSColor.xyzToLinearSRGB(multiply(CSSColor.linP3ToXYZ, c.map(CSSColor.srgbToLinear)))
        case .a98RGB: return CSSColor.xyzToLinearSRGB(multiply(CSSColor.linA98ToXYZ, c.map(CSSColor.a98ToLinear)))
        case .proPhotoRGB:
            let xyz50 = multiply(CSSColor.linProPhotoToXYZD50, c.map(CSSColor.proPhotoToLinear))
            return CSSColor.xyzToLinearSRGB(multiply(CSSColor.d50ToD65, xyz50))
        case .rec2020: return CSSColor.xyzToLinearSRGB(multiply(CSSColor.linRec2020ToXYZ, c.map(CSSColor.rec2020ToLinear)))
        case .xyzD50: return CSSColor.xyzToLinearSRGB(multiply(CSSColor.d50ToD65, c))
        case .xyzD65: return CSSColor.xyzToLinearSRGB(c)
        }
    }

    /// The colour converted to sRGB for drawing: in gamut it is taken as is (each channel clipped to
    /// [0, 1] against rounding noise); outside it is gamut-mapped as CSS Color 4 says.
    /// The gamma-encoded spaces (srgb, hsl, hwb) are taken to sRGB without going through linear
    /// light, so a channel exactly half-way between two bytes stays exactly there.
    public func toSRGB(_ components: [Double], alpha: Double = 1) -> SRGBConversion {
        let c = components
        switch self {
        case .srgb: return SRGBConversion(encoded: c, alpha: alpha)
        case .hsl: return SRGBConversion(encoded: CSSColor.hslToSRGB(c[0], c[1], c[2]), alpha: alpha)
        case .hwb: return SRGBConversion(encoded: CSSColor.hwbToSRGB(c[0], c[1], c[2]), alpha: alpha)
        default: return SRGBConversion(linear: linearSRGB(c), alpha: alpha)
        }
    }
}

/// A colour converted to sRGB: the exact (unclipped) result, whether it lies outside sRGB, and
/// what the per-channel clip and the CSS Color 4 gamut mapping make of it.
public struct SRGBConversion: Sendable, Equatable {
    /// Gamma-encoded sRGB channels, unclipped.
    public var encoded: [Double]
    /// Whether a channel lies outside [0, 1] by more than rounding noise (1e-6).
    public var outOfGamut: Bool
    /// Each channel clipped to [0, 1].
    public var clipped: RGBA
    /// The colour drawn: `clipped` in gamut, else the CSS Color 4 gamut mapping.
    public var mapped: RGBA

    /// From linear-light sRGB (unclipped) and alpha.
    public init(linear: [Double], alpha: Double) {
        self.init(encoded: linear.map(CSSColor.srgbFromLinear), linear: linear, alpha: alpha)
    }

    /// From gamma-encoded sRGB (unclipped) and alpha.
    public init(encoded: [Double], alpha: Double) {
        self.init(encoded: encoded, linear: encoded.map(CSSColor.srgbToLinear), alpha: alpha)
    }

    private init(encoded: [Double], linear: [Double], alpha: Double) {
        self.encoded = encoded
        let tolerance = 1e-6
        outOfGamut = encoded.contains { $0 < -tolerance || $0 > 1 + tolerance }
        func clip(_ v: Double) -> Double { min(max(v, 0), 1) }
        clipped = RGBA(r: clip(encoded[0]), g: clip(encoded[1]), b: clip(encoded[2]), a: alpha)
        if outOfGamut {
            let m = OKLCH(linearR: linear[0], g: linear[1], b: linear[2]).gamutMapped
            mapped = RGBA(r: m.r, g: m.g, b: m.b, a: alpha)
        } else {
            mapped = clipped
        }
    }
}
