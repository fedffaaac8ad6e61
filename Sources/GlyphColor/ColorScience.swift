// Colour science used by the audits: the sRGB transfer function, WCAG 2
// relative luminance and contrast ratio, alpha compositing, and OKLab.
//
// Every formula here is the literal published one. In particular the WCAG
// luminance uses the coefficients 0.2126 / 0.7152 / 0.0722 exactly as written
// in WCAG 2 (not CIE Y from an exact sRGB->XYZ matrix), and contrast ratios are
// never rounded: 4.499:1 does not meet 4.5:1 and 2.999:1 does not meet 3:1.

import Foundation

// MARK: - sRGB transfer function

/// The sRGB (IEC 61966-2-1) transfer function, in the form WCAG 2 writes it.
public enum SRGB {
    /// Decodes one sRGB-encoded channel (0...1) to linear light.
    ///
    /// `c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055)^2.4`. WCAG 2 used the
    /// threshold 0.03928 until May 2021; no 8-bit value lies between the two
    /// (10/255 = 0.03922, 11/255 = 0.04314), so 8-bit results are identical.
    @inlinable
    public static func toLinear(_ c: Double) -> Double {
        c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
    }

    /// Encodes one linear-light channel (0...1) back to sRGB.
    ///
    /// `c <= 0.0031308 ? 12.92 c : 1.055 c^(1/2.4) - 0.055`.
    @inlinable
    public static func fromLinear(_ c: Double) -> Double {
        c <= 0.0031308 ? c * 12.92 : 1.055 * pow(c, 1.0 / 2.4) - 0.055
    }

    /// `linearTable[v] == toLinear(Double(v) / 255)` for every 8-bit value `v`.
    /// Use it to decode 8-bit pixel buffers without calling `pow` per pixel.
    public static let linearTable: [Double] = (0...255).map { toLinear(Double($0) / 255) }

    /// Encodes a linear-light value to the nearest 8-bit sRGB code value.
    /// The input is clipped to [0, 1] first.
    @inlinable
    public static func fromLinear8(_ c: Double) -> UInt8 {
        let e = fromLinear(min(max(c, 0), 1)) * 255
        return UInt8(min(max(e.rounded(), 0), 255))
    }
}

// MARK: - WCAG 2 luminance and contrast

/// WCAG 2 relative luminance from linear-light channels:
/// `0.2126 R + 0.7152 G + 0.0722 B` (the literal WCAG 2 coefficients).
/// Pair with `SRGB.linearTable` for fast 8-bit pixel work.
@inlinable
public func relativeLuminance(linearR r: Double, linearG g: Double, linearB b: Double) -> Double {
    0.2126 * r + 0.7152 * g + 0.0722 * b
}

/// WCAG 2 contrast ratio of two relative luminances, in either order:
/// `(lighter + 0.05) / (darker + 0.05)`, never rounded.
@inlinable
public func contrastRatio(luminance l1: Double, _ l2: Double) -> Double {
    let hi = max(l1, l2)
    let lo = min(l1, l2)
    return (hi + 0.05) / (lo + 0.05)
}

extension RGBA {
    /// WCAG 2 relative luminance: `0.2126 R + 0.7152 G + 0.0722 B` on the
    /// linearised channels. Alpha is ignored; composite translucent colours
    /// over their backdrop first (see `composited(over:)`).
    @inlinable
    public var relativeLuminance: Double {
        GlyphColor.relativeLuminance(linearR: SRGB.toLinear(r), linearG: SRGB.toLinear(g), linearB: SRGB.toLinear(b))
    }
}

/// WCAG 2 contrast ratio `(L1 + 0.05) / (L2 + 0.05)`, lighter over darker
/// (argument order does not matter). The result is in 1...21 and is **never
/// rounded**: compare it to a threshold with `>=` directly, so 4.499 fails 4.5.
///
/// Both colours are treated as opaque (alpha is ignored). Callers must
/// composite translucent colours over what is behind them first, e.g.
/// `contrastRatio(fg.composited(over: bg), bg)`.
@inlinable
public func contrastRatio(_ a: RGBA, _ b: RGBA) -> Double {
    contrastRatio(luminance: a.relativeLuminance, b.relativeLuminance)
}

// MARK: - Compositing

extension RGBA {
    /// Porter-Duff "source over" with straight (non-premultiplied) alpha,
    /// computed on the sRGB-encoded channel values, which is what browsers and
    /// UIKit/Core Animation do for ordinary blending.
    ///
    /// `a_out = a_s + a_b (1 - a_s)`,
    /// `c_out = (c_s a_s + c_b a_b (1 - a_s)) / a_out`.
    /// When the background is opaque the result is exactly opaque. When both
    /// are fully transparent the result is transparent black.
    @inlinable
    public func composited(over background: RGBA) -> RGBA {
        let sa = min(max(a, 0), 1)
        let ba = min(max(background.a, 0), 1)
        if sa >= 1 { return RGBA(r: r, g: g, b: b, a: 1) }
        let bw = ba * (1 - sa)           // weight of the background
        let outA = ba >= 1 ? 1 : sa + bw
        guard outA > 0 else { return RGBA(r: 0, g: 0, b: 0, a: 0) }
        func mix(_ s: Double, _ d: Double) -> Double {
            let v = (s * sa + d * bw) / outA
            return min(max(v, 0), 1)
        }
        return RGBA(r: mix(r, background.r),
                    g: mix(g, background.g),
                    b: mix(b, background.b),
                    a: outA)
    }
}

// MARK: - OKLab

/// Björn Ottosson's OKLab (2020, https://bottosson.github.io/posts/oklab/),
/// from linear sRGB (D65).
public enum OKLab {
    /// Converts linear-light sRGB channels to OKLab `(L, a, b)`.
    /// For sRGB white, L = 1 and a = b = 0 (to about 1e-8).
    @inlinable
    public static func fromLinearSRGB(r: Double, g: Double, b: Double) -> (L: Double, a: Double, b: Double) {
        let l = 0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b
        let m = 0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b
        let s = 0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b
        let l_ = cbrt(l), m_ = cbrt(m), s_ = cbrt(s)
        return (L: 0.2104542553 * l_ + 0.7936177850 * m_ - 0.0040720468 * s_,
                a: 1.9779984951 * l_ - 2.4285922050 * m_ + 0.4505937099 * s_,
                b: 0.0259040371 * l_ + 0.7827717662 * m_ - 0.8086757660 * s_)
    }
}

extension RGBA {
    /// The colour in OKLab `(L, a, b)`. Alpha is ignored (composite first).
    @inlinable
    public var oklab: (L: Double, a: Double, b: Double) {
        OKLab.fromLinearSRGB(r: SRGB.toLinear(r), g: SRGB.toLinear(g), b: SRGB.toLinear(b))
    }
}

/// Euclidean distance between two colours in OKLab (often called ΔE_OK).
/// Alpha is ignored; composite translucent colours first.
@inlinable
public func oklabDistance(_ x: RGBA, _ y: RGBA) -> Double {
    let p = x.oklab, q = y.oklab
    let dL = p.L - q.L, da = p.a - q.a, db = p.b - q.b
    return (dL * dL + da * da + db * db).squareRoot()
}
