// Tokens Studio's colour modifiers (`$extensions["studio.tokens"].modify`) as
// tokens-studio/sd-transforms v2.0.3 applies them (src/color-modifiers/: modifyColor.ts, lighten.ts,
// darken.ts, mix.ts, transparentize.ts) on colorjs.io 0.5, with its output format "hex":
//
// - lighten / darken in `srgb` and `p3` move each channel toward 1 / 0 by the amount
//   (`c + amount·(1 − c)`, `c − amount·c`, clamped); in `hsl` they do that to HSL lightness; in
//   `lch` to LCH lightness, and reduce LCH chroma by the amount as well;
// - alpha sets the alpha to the amount (clamped to 0…1);
// - mix interpolates toward the mix colour in the space (hues the shorter way; a missing hue takes
//   the other colour's), then prints the result in the space's default CSS form with 5 significant
//   digits and reads it back — as colorjs.io's `toString()` and `new Color()` do in mix.ts;
// - the result is converted to the space and then to sRGB, gamut-mapped (CSS Color 4) when outside
//   it, and each channel (and alpha below 1) becomes `Math.round(c · 255)`.
//
// The conversions use colorjs.io's own decimal matrices (`ColorJS`), so that an exact tie rounds as
// it does there. Gamut mapping at the end uses `OKLCH.gamutMapped` (the CSS Color 4 algorithm, as
// colorjs.io's `toGamutCSS`), whose OKLab matrices differ from colorjs.io's by about 1e-9.

import Foundation

/// One Tokens Studio colour modifier.
public enum StudioColorModifier {
    public enum Kind: String, Sendable, CaseIterable {
        case lighten, darken, alpha, mix
    }

    /// The colour spaces sd-transforms' modifiers take (`p3` is Display P3).
    public enum Space: String, Sendable, CaseIterable {
        case srgb, hsl, lch, p3
    }

    /// `base` modified as sd-transforms does, to 8 bits per channel. `mixColor` is needed for `mix`.
    public static func apply(_ kind: Kind, amount: Double, space: Space, to base: RGBA, mixColor: RGBA? = nil) -> RGBA {
        var color = JSColor(space: .srgb, coords: [base.r, base.g, base.b], alpha: base.a)
        switch kind {
        case .lighten:
            color = lighten(color, space, amount)
        case .darken:
            color = darken(color, space, amount)
        case .alpha:
            color.alpha = max(0, min(1, amount))
        case .mix:
            let other = mixColor ?? base
            color = mix(color, JSColor(space: .srgb, coords: [other.r, other.g, other.b], alpha: other.a),
                        max(0, min(1, amount)), space)
        }
        // modifyColor.ts: `.to(space)`, then (format "hex") `.to("srgb")` and serialize as hex.
        return hex(color.to(space).to(.srgb))
    }

    // MARK: The modifiers (lighten.ts, darken.ts, mix.ts)

    static func lighten(_ color: JSColor, _ space: Space, _ amount: Double) -> JSColor {
        var color = color
        switch space {
        case .lch:
            let lch = color.get(.lch)
            let chroma = max(0, lch[1] - amount * lch[1])
            color.set(.lch, 0, min(100, lch[0] + (100 - lch[0]) * amount))
            color.set(.lch, 1, chroma)
        case .hsl:
            let l = color.get(.hsl)[2]
            color.set(.hsl, 2, min(100, l + (100 - l) * amount))
        case .p3, .srgb:
            if space == .p3 { color = color.to(.p3) }
            color.coords = color.coords.map { min(1, $0 + amount * (1 - $0)) }
        }
        return color
    }

    static func darken(_ color: JSColor, _ space: Space, _ amount: Double) -> JSColor {
        var color = color
        switch space {
        case .lch:
            let lch = color.get(.lch)
            let chroma = max(0, lch[1] - amount * lch[1])
            color.set(.lch, 0, max(0, lch[0] - lch[0] * amount))
            color.set(.lch, 1, chroma)
        case .hsl:
            let l = color.get(.hsl)[2]
            color.set(.hsl, 2, max(0, l - l * amount))
        case .p3, .srgb:
            if space == .p3 { color = color.to(.p3) }
            color.coords = color.coords.map { max(0, $0 - amount * $0) }
        }
        return color
    }

    /// colorjs.io `mix(c1, c2, p, {space})`, then mix.ts's `new Color(result.toString({precision: 5}))`.
    static func mix(_ c1: JSColor, _ c2: JSColor, _ p: Double, _ space: Space) -> JSColor {
        var a = c1.to(space), b = c2.to(space)
        if space == .hsl || space == .lch {
            let i = space == .hsl ? 0 : 2
            var h1 = a.coords[i], h2 = b.coords[i]
            if h1.isNaN && !h2.isNaN { h1 = h2 } else if h2.isNaN && !h1.isNaN { h2 = h1 }
            // Hue fix-up "shorter".
            func constrain(_ x: Double) -> Double {
                (x.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360)
            }
            h1 = constrain(h1)
            h2 = constrain(h2)
            let diff = h2 - h1
            if diff > 180 { h1 += 360 } else if diff < -180 { h2 += 360 }
            a.coords[i] = h1
            b.coords[i] = h2
        }
        func interpolate(_ s: Double, _ e: Double) -> Double {
            if s.isNaN { return e }
            if e.isNaN { return s }
            return s + (e - s) * p
        }
        let mixed = JSColor(space: space, coords: (0..<3).map { interpolate(a.coords[$0], b.coords[$0]) },
                            alpha: interpolate(a.alpha, b.alpha))
        return printedAndRead(mixed)
    }

    // MARK: colorjs.io's number printing

    /// colorjs.io `toPrecision(n, precision)`: `precision` significant digits, half up.
    static func toPrecision(_ n: Double, _ precision: Int = 5) -> Double {
        if n == 0 || n.isNaN { return n }
        let integer = n.rounded(.towardZero)
        var digits = 0
        if integer != 0 { digits = Int(log10(abs(integer)).rounded(.towardZero)) + 1 }
        let multiplier = pow(10.0, Double(precision - digits))
        return (n * multiplier + 0.5).rounded(.down) / multiplier
    }

    /// The colour as colorjs.io prints it in its space's default form with 5 significant digits,
    /// read back: `rgb(r% g% b%)`, `hsl(h s% l%)`, `lch(l c h)`, `color(display-p3 r g b)`.
    static func printedAndRead(_ c: JSColor) -> JSColor {
        var out = c
        switch c.space {
        case .srgb:
            out.coords = c.coords.map { toPrecision(100 * $0) / 100 }
        case .hsl:
            out.coords = [toPrecision(c.coords[0]),
                          100 * (toPrecision(100 * (c.coords[1] / 100)) / 100),
                          100 * (toPrecision(100 * (c.coords[2] / 100)) / 100)]
        case .lch, .p3:
            out.coords = c.coords.map { toPrecision($0) }
        }
        if c.alpha < 1 { out.alpha = toPrecision(c.alpha) }
        return out
    }

    /// colorjs.io's hex serializer on an sRGB colour: gamut-mapped (CSS Color 4) when outside sRGB
    /// by more than its tolerance (0.000075), then `Math.round(c · 255)`.
    static func hex(_ c: JSColor) -> RGBA {
        var rgb = c.coords
        let tolerance = 0.000075
        if rgb.contains(where: { $0 < -tolerance || $0 > 1 + tolerance }) {
            let lin = rgb.map(CSSColor.srgbToLinear)
            let m = OKLCH(linearR: lin[0], g: lin[1], b: lin[2]).gamutMapped
            rgb = [m.r, m.g, m.b]
        }
        func round255(_ v: Double) -> UInt8 {
            // JavaScript Math.round: the nearest integer, ties toward +∞.
            let x = v * 255, f = x.rounded(.down)
            return UInt8(max(0, min(255, x - f >= 0.5 ? f + 1 : f)))
        }
        return RGBA(r8: round255(rgb[0]), g8: round255(rgb[1]), b8: round255(rgb[2]),
                    a8: c.alpha < 1 ? round255(c.alpha) : 255)
    }
}

/// A colour as colorjs.io holds it: coordinates in one space, and alpha.
struct JSColor {
    var space: StudioColorModifier.Space
    var coords: [Double]
    var alpha: Double

    /// colorjs.io `to(space)`: missing (NaN) coordinates count as 0 when converting.
    func to(_ target: StudioColorModifier.Space) -> JSColor {
        if target == space { return self }
        let c = coords.map { $0.isNaN ? 0 : $0 }
        return JSColor(space: target, coords: Self.fromSRGB(Self.toSRGB(c, space), target), alpha: alpha)
    }

    /// colorjs.io `get(color, "space.*")`: all coordinates in `target`.
    func get(_ target: StudioColorModifier.Space) -> [Double] { to(target).coords }

    /// colorjs.io `set(color, "space.coord", value)`: converted to `target`, one coordinate set,
    /// converted back.
    mutating func set(_ target: StudioColorModifier.Space, _ index: Int, _ value: Double) {
        var c = get(target)
        c[index] = value
        coords = JSColor(space: target, coords: c, alpha: alpha).to(space).coords
    }

    static func toSRGB(_ c: [Double], _ space: StudioColorModifier.Space) -> [Double] {
        switch space {
        case .srgb: return c
        case .hsl: return CSSColor.hslToSRGB(c[0], c[1], c[2])
        case .lch:
            let h = c[2].isNaN ? 0 : c[2], chroma = max(c[1], 0)
            let lab = [c[0], chroma * cos(h * .pi / 180), chroma * sin(h * .pi / 180)]
            let f1 = (lab[0] + 16) / 116, f0 = lab[1] / 500 + f1, f2 = f1 - lab[2] / 200
            let e = 24.0 / 116, kappa = CSSColor.kappa
            let xyz50 = [f0 > e ? pow(f0, 3) : (116 * f0 - 16) / kappa,
                         lab[0] > 8 ? pow((lab[0] + 16) / 116, 3) : lab[0] / kappa,
                         f2 > e ? pow(f2, 3) : (116 * f2 - 16) / kappa]
            let xyz = multiply(CSSColor.d50ToD65, (0..<3).map { xyz50[$0] * CSSColor.d50White[$0] })
            return multiply(ColorJS.xyzToLinSRGB, xyz).map(CSSColor.srgbFromLinear)
        case .p3:
            return multiply(ColorJS.xyzToLinSRGB, multiply(ColorJS.linP3ToXYZ, c.map(CSSColor.srgbToLinear))).map(CSSColor.srgbFromLinear)
        }
    }

    static func fromSRGB(_ rgb: [Double], _ space: StudioColorModifier.Space) -> [Double] {
        switch space {
        case .srgb: return rgb
        case .hsl: return CSSColor.srgbToHSL(rgb)
        case .lch:
            let xyz50 = multiply(CSSColor.d65ToD50, multiply(ColorJS.linSRGBToXYZ, rgb.map(CSSColor.srgbToLinear)))
            let lab = CSSColor.xyzD50ToLab(xyz50)
            // colorjs.io's LCH: no hue below 0.02 in a and b.
            let hue = abs(lab[1]) < 0.02 && abs(lab[2]) < 0.02 ? Double.nan : atan2(lab[2], lab[1]) * 180 / .pi
            let h = (hue.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360)
            return [lab[0], (lab[1] * lab[1] + lab[2] * lab[2]).squareRoot(), h]
        case .p3:
            return multiply(ColorJS.xyzToLinP3, multiply(ColorJS.linSRGBToXYZ, rgb.map(CSSColor.srgbToLinear))).map(CSSColor.srgbFromLinear)
        }
    }
}

/// colorjs.io 0.5's own matrices (src/spaces/srgb-linear.js, p3-linear.js): the CSS Color 4 ones
/// written as decimals. They differ from the rational ones in the last bit, and on an exact tie
/// that bit decides the 8-bit value (Display P3 grey 0.5 gives sRGB 0.5000000000000001 here and
/// 0.49999999999999994 with the rationals: 128, not 127), so the modifiers use them.
enum ColorJS {
    static let linSRGBToXYZ: Matrix3 = [
        [0.41239079926595934, 0.357584339383878, 0.1804807884018343],
        [0.21263900587151027, 0.715168678767756, 0.07219231536073371],
        [0.01933081871559182, 0.11919477979462598, 0.9505321522496607],
    ]
    static let xyzToLinSRGB: Matrix3 = [
        [3.2409699419045226, -1.537383177570094, -0.4986107602930034],
        [-0.9692436362808796, 1.8759675015077202, 0.04155505740717559],
        [0.05563007969699366, -0.20397695888897652, 1.0569715142428786],
    ]
    static let linP3ToXYZ: Matrix3 = [
        [0.4865709486482162, 0.26566769316909306, 0.1982172852343625],
        [0.2289745640697488, 0.6917385218365064, 0.079286914093745],
        [0, 0.04511338185890264, 1.043944368900976],
    ]
    static let xyzToLinP3: Matrix3 = [
        [2.493496911941425, -0.9313836179191239, -0.40271078445071684],
        [-0.8294889695615747, 1.7626640603183463, 0.023624685841943577],
        [0.03584583024378447, -0.07617238926804182, 0.9568845240076872],
    ]
}
