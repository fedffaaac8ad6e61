// The nearest colour that reaches a contrast ratio: what a contrast finding suggests instead.
//
// The colour keeps its OKLCH hue and chroma and its alpha; only its OKLCH lightness moves, toward
// black or white, whichever reaches the ratio with the smaller move. Each candidate is mapped into
// sRGB with the CSS Color 4 gamut-mapping algorithm (chroma reduced at constant lightness and hue
// until a clip is within a just-noticeable difference) and rounded to 8 bits per channel; the
// ratio is measured on exactly that 8-bit colour, composited over the background as drawn.

import Foundation

// MARK: - OKLab / OKLCH

extension OKLab {
    /// OKLab `(L, a, b)` to linear-light sRGB (Ottosson 2020), the inverse of `fromLinearSRGB`.
    /// The result may lie outside [0, 1] (out of the sRGB gamut).
    public static func toLinearSRGB(L: Double, a: Double, b: Double) -> (r: Double, g: Double, b: Double) {
        let l_ = L + 0.3963377774 * a + 0.2158037573 * b
        let m_ = L - 0.1055613458 * a - 0.0638541728 * b
        let s_ = L - 0.0894841775 * a - 1.2914855480 * b
        let l = l_ * l_ * l_, m = m_ * m_ * m_, s = s_ * s_ * s_
        return (r: 4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s,
                g: -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s,
                b: -0.0041960863 * l - 0.7034186147 * m + 1.7076147010 * s)
    }
}

/// A colour in OKLCH: OKLab lightness, chroma and hue angle (degrees).
public struct OKLCH: Sendable, Equatable {
    public var L: Double
    public var C: Double
    public var h: Double

    public init(L: Double, C: Double, h: Double) {
        self.L = L
        self.C = C
        self.h = h
    }

    /// The colour of an sRGB value (alpha ignored).
    public init(_ c: RGBA) {
        self.init(lab: c.oklab)
    }

    /// The colour of linear-light sRGB channels, which may lie outside [0, 1] (a wide-gamut colour
    /// converted to sRGB, before gamut mapping).
    public init(linearR r: Double, g: Double, b: Double) {
        self.init(lab: OKLab.fromLinearSRGB(r: r, g: g, b: b))
    }

    private init(lab: (L: Double, a: Double, b: Double)) {
        L = lab.L
        C = (lab.a * lab.a + lab.b * lab.b).squareRoot()
        let deg = atan2(lab.b, lab.a) * 180 / .pi
        h = deg < 0 ? deg + 360 : deg
    }

    var lab: (L: Double, a: Double, b: Double) {
        let rad = h * .pi / 180
        return (L, C * cos(rad), C * sin(rad))
    }

    /// Gamma-encoded sRGB channels, unclipped (outside [0, 1] when out of gamut).
    var srgb: (r: Double, g: Double, b: Double) {
        let p = lab
        let lin = OKLab.toLinearSRGB(L: p.L, a: p.a, b: p.b)
        func enc(_ v: Double) -> Double { v < 0 ? -SRGB.fromLinear(-v) : SRGB.fromLinear(v) }
        return (enc(lin.r), enc(lin.g), enc(lin.b))
    }

    /// In the sRGB gamut, with the tolerance CSS Color 4 allows for rounding.
    var inGamut: Bool {
        let c = srgb
        let e = 1e-6
        return [c.r, c.g, c.b].allSatisfy { $0 >= -e && $0 <= 1 + e }
    }

    /// Each channel clipped to [0, 1].
    public var clipped: RGBA {
        let c = srgb
        func clip(_ v: Double) -> Double { min(max(v, 0), 1) }
        return RGBA(r: clip(c.r), g: clip(c.g), b: clip(c.b))
    }

    /// CSS Color 4 §13.2 "binary search gamut mapping with local MINDE" into sRGB: lightness and hue
    /// kept, chroma reduced until clipping the colour moves it less than a just-noticeable
    /// difference (ΔE_OK 0.02).
    public var gamutMapped: RGBA {
        if L >= 1 { return RGBA(r: 1, g: 1, b: 1) }
        if L <= 0 { return RGBA(r: 0, g: 0, b: 0) }
        if inGamut { return clipped }
        let jnd = 0.02, epsilon = 0.0001
        var current = self
        var clip = current.clipped
        if oklabDistance(clip, current) < jnd { return clip }
        var lo = 0.0, hi = C
        var loInGamut = true
        while hi - lo > epsilon {
            current.C = (lo + hi) / 2
            if loInGamut && current.inGamut {
                lo = current.C
                continue
            }
            clip = current.clipped
            let e = oklabDistance(clip, current)
            if e < jnd {
                if jnd - e < epsilon { return clip }
                loInGamut = false
                lo = current.C
            } else {
                hi = current.C
            }
        }
        return clip
    }
}

/// ΔE_OK between an sRGB colour and an OKLCH one (which may be out of gamut).
private func oklabDistance(_ x: RGBA, _ y: OKLCH) -> Double {
    let p = x.oklab, q = y.lab
    let dL = p.L - q.L, da = p.a - q.a, db = p.b - q.b
    return (dL * dL + da * da + db * db).squareRoot()
}

// MARK: - The suggestion

/// A colour that reaches a contrast ratio against a background, found by moving OKLCH lightness.
public struct ContrastSuggestion: Sendable, Equatable {
    /// The suggested colour, 8 bits per channel, with the original alpha (or opaque, when no colour
    /// with that alpha reaches the ratio).
    public var color: RGBA
    /// `color` composited over the background (at the coverage asked): what is drawn.
    public var seen: RGBA
    /// The WCAG 2 ratio of `seen` against the background, never rounded.
    public var ratio: Double
    /// The OKLCH lightness moved by (negative: darker).
    public var lightnessChange: Double

    /// The colour nearest `color` in OKLCH lightness (same hue and chroma, same alpha) whose
    /// 8-bit value, composited over `background`, reaches `target` against it. When no colour with
    /// that alpha does, the search starts again from the colour as drawn (composited), opaque. Nil
    /// when neither black nor white reaches `target`. `background` is taken as opaque.
    ///
    /// Of the two directions the one that needs the smaller lightness change wins. Within a
    /// direction the lightness is found by bisection and then stepped by 0.0005 until the rounded
    /// colour reaches the ratio, so the result is within 0.0005 of the smallest move in OKLCH
    /// lightness that reaches it.
    ///
    /// `coverage` (0...1] is the share of a pixel the colour covers (an anti-aliased edge): the
    /// ratio is then that pixel's, the colour at `coverage` times its alpha over the background.
    public static func nearest(to color: RGBA, on background: RGBA, reaching target: Double,
                               coverage: Double = 1) -> ContrastSuggestion? {
        let bg = RGBA(r: background.r, g: background.g, b: background.b)
        if let s = search(color, bg, target, coverage) { return s }
        // No colour with this alpha reaches the ratio: move from what is drawn, made opaque.
        if color.a < 1 { return search(color.composited(over: bg), bg, target, coverage) }
        return nil
    }

    /// The share of a pixel `color` covers when a pixel of it, drawn over `background`, has
    /// `drawnRatio` against the background (compositing in sRGB values, as cairo does): 1 when even
    /// full coverage does not reach `drawnRatio`.
    public static func coverage(of color: RGBA, on background: RGBA, drawnRatio: Double) -> Double {
        let bg = RGBA(r: background.r, g: background.g, b: background.b)
        func ratio(_ k: Double) -> Double { contrastRatio(color.scaledAlpha(k).composited(over: bg), bg) }
        if ratio(1) <= drawnRatio { return 1 }
        var lo = 0.0, hi = 1.0
        for _ in 0..<50 {
            let mid = (lo + hi) / 2
            if ratio(mid) < drawnRatio { lo = mid } else { hi = mid }
        }
        return hi
    }

    private static func search(_ color: RGBA, _ bg: RGBA, _ target: Double, _ coverage: Double) -> ContrastSuggestion? {
        let start = OKLCH(color)
        // A grey's hue is noise (its chroma is ~1e-8 from the published matrices' rounding): keep
        // it grey, so no channel rounds apart from the others.
        let chroma = start.C < 1e-5 ? 0 : start.C
        func candidate(_ L: Double) -> ContrastSuggestion {
            var c = OKLCH(L: L, C: chroma, h: start.h).gamutMapped
            c = RGBA(r8: RGBA.byte(c.r), g8: RGBA.byte(c.g), b8: RGBA.byte(c.b), a8: RGBA.byte(color.a))
            let seen = c.scaledAlpha(coverage).composited(over: bg)
            return ContrastSuggestion(color: c, seen: seen, ratio: contrastRatio(seen, bg), lightnessChange: L - start.L)
        }
        var best: ContrastSuggestion?
        for end in [0.0, 1.0] {
            guard candidate(end).ratio >= target else { continue }
            var near = start.L, far = end
            // Bisection: `far` always reaches, `near` does not (or is the start).
            // 24 halvings of at most 1 in lightness: within 6e-8, far below one 8-bit step.
            for _ in 0..<24 {
                let mid = (near + far) / 2
                if candidate(mid).ratio >= target { far = mid } else { near = mid }
            }
            // Rounding to 8 bits can lose what the bisection found: step on until the rounded colour
            // reaches too, then take the first lightness that does.
            var L = far
            var found = candidate(L)
            let step = end > start.L ? 0.0005 : -0.0005
            while found.ratio < target && (step > 0 ? L < end : L > end) {
                L = step > 0 ? min(L + step, end) : max(L + step, end)
                found = candidate(L)
            }
            guard found.ratio >= target else { continue }
            if best == nil || abs(found.lightnessChange) < abs(best!.lightnessChange) { best = found }
        }
        return best
    }
}

extension RGBA {
    /// The colour with its alpha multiplied by `k` (drawn at that coverage).
    func scaledAlpha(_ k: Double) -> RGBA { RGBA(r: r, g: g, b: b, a: a * k) }
}
