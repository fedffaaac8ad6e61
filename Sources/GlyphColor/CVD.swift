// Colour-vision-deficiency (CVD) simulation and greyscale views.
//
// Machado, Oliveira & Fernandes (2009), "A Physiologically-based Model for
// Simulation of Color Vision Deficiency", IEEE TVCG 15(6):1291-1298,
// doi:10.1109/TVCG.2009.113. The matrices are the authors' precomputed
// severity-1.0 matrices (as carried in colour-science 0.4.7,
// CVD_MATRICES_MACHADO2010). They apply to LINEAR sRGB: decode, multiply,
// clip to [0, 1], encode again.
//
// Caveat: Machado's tritan matrix comes from a cone-shift (tritanomaly)
// approximation and is not a validated tritanopia model. It is used here as
// a consistent, cheap stand-in for the audit's "tritanopia" view.

/// The three dichromacies the audit simulates.
public enum CVDKind: String, CaseIterable, Sendable {
    case protanopia
    case deuteranopia
    case tritanopia
}

/// The four alternative views of a rendering that the audit checks.
public enum ColorView: String, CaseIterable, Sendable {
    case greyscale
    case protanopia
    case deuteranopia
    case tritanopia

    /// The CVD simulation behind this view, or `nil` for `.greyscale`.
    public var cvdKind: CVDKind? {
        switch self {
        case .greyscale: return nil
        case .protanopia: return .protanopia
        case .deuteranopia: return .deuteranopia
        case .tritanopia: return .tritanopia
        }
    }
}

/// A 3×3 matrix applied to a column vector of linear RGB: `out = M · (r, g, b)`.
public struct CVDMatrix: Sendable, Hashable {
    public let m00: Double, m01: Double, m02: Double
    public let m10: Double, m11: Double, m12: Double
    public let m20: Double, m21: Double, m22: Double

    public init(_ r0: (Double, Double, Double),
                _ r1: (Double, Double, Double),
                _ r2: (Double, Double, Double)) {
        (m00, m01, m02) = r0
        (m10, m11, m12) = r1
        (m20, m21, m22) = r2
    }

    /// Row-major rows, `rows[i][j]` = m_ij.
    public var rows: [[Double]] {
        [[m00, m01, m02], [m10, m11, m12], [m20, m21, m22]]
    }

    /// `M · (r, g, b)`, not clipped.
    @inlinable
    public func apply(r: Double, g: Double, b: Double) -> (Double, Double, Double) {
        (m00 * r + m01 * g + m02 * b,
         m10 * r + m11 * g + m12 * b,
         m20 * r + m21 * g + m22 * b)
    }
}

/// Machado 2009 matrices at severity 1.0 (linear sRGB).
public enum Machado2009 {
    public static let protanopia = CVDMatrix(
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998))

    public static let deuteranopia = CVDMatrix(
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881))

    /// Tritanomaly at severity 1.0 (cone-shift approximation; see file header).
    public static let tritanopia = CVDMatrix(
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900))

    @inlinable
    public static func matrix(_ kind: CVDKind) -> CVDMatrix {
        switch kind {
        case .protanopia: return protanopia
        case .deuteranopia: return deuteranopia
        case .tritanopia: return tritanopia
        }
    }
}

/// Simulates `kind` on one linear-light sRGB pixel: `clip(M · rgb, 0, 1)`.
/// Inputs and outputs are linear (decode with `SRGB.linearTable` /
/// `SRGB.toLinear`, encode with `SRGB.fromLinear` / `SRGB.fromLinear8`).
@inlinable
public func simulateLinear(_ kind: CVDKind, r: Double, g: Double, b: Double) -> (Double, Double, Double) {
    let (x, y, z) = Machado2009.matrix(kind).apply(r: r, g: g, b: b)
    return (min(max(x, 0), 1), min(max(y, 0), 1), min(max(z, 0), 1))
}

extension RGBA {
    /// This colour as seen with `kind` (Machado 2009, severity 1.0): decode
    /// sRGB to linear, multiply by the matrix, clip to [0, 1], encode to sRGB.
    /// Alpha is kept unchanged.
    public func simulated(_ kind: CVDKind) -> RGBA {
        let (x, y, z) = simulateLinear(kind, r: SRGB.toLinear(r), g: SRGB.toLinear(g), b: SRGB.toLinear(b))
        return RGBA(r: SRGB.fromLinear(x), g: SRGB.fromLinear(y), b: SRGB.fromLinear(z), a: a)
    }

    /// Luminance-only view: the WCAG relative luminance Y (linear) put in all
    /// three channels and re-encoded to sRGB. Alpha is kept unchanged. Grey
    /// inputs map to themselves, and WCAG contrast between two colours is
    /// unchanged (up to floating-point rounding).
    public var greyscale: RGBA {
        let v = SRGB.fromLinear(min(max(relativeLuminance, 0), 1))
        return RGBA(r: v, g: v, b: v, a: a)
    }

    /// This colour under one of the audit's alternative views.
    public func viewed(as view: ColorView) -> RGBA {
        switch view {
        case .greyscale: return greyscale
        case .protanopia: return simulated(.protanopia)
        case .deuteranopia: return simulated(.deuteranopia)
        case .tritanopia: return simulated(.tritanopia)
        }
    }
}
