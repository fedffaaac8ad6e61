import Foundation

/// One segment of a path in absolute coordinates: what SVG path data reduces to once relative
/// commands, shorthands, quadratic curves and arcs are expanded.
public enum PathSegment: Sendable, Equatable {
    case move(Double, Double)
    case line(Double, Double)
    /// A cubic Bézier curve: two control points, then the end point.
    case cubic(Double, Double, Double, Double, Double, Double)
    case close
}

/// SVG path data (`d`, SVG 2 §9.3), parsed into absolute segments. Every command is read:
/// M L H V C S Q T A Z, upper case absolute and lower case relative, numbers in any form SVG allows
/// (`m6 10 3 3 6-6`, `1.5.5`, `1e-3`), arc flags without separators.
public struct PathData: Sendable, Equatable {
    public var segments: [PathSegment]

    /// Why path data did not parse: what was expected, at which character (1-based).
    public struct ParseError: Error, Sendable, Equatable {
        public var offset: Int
        public var message: String
    }

    public init(segments: [PathSegment]) { self.segments = segments }

    public init(parsing d: String) throws(ParseError) {
        let chars = Array(d.utf8)
        var i = 0
        var segs: [PathSegment] = []
        var cx = 0.0, cy = 0.0, sx = 0.0, sy = 0.0
        // The previous curve's second control point, for S and T.
        var lastCubic: (Double, Double)?, lastQuad: (Double, Double)?
        var command: UInt8 = 0

        func skipSeparators() {
            while i < chars.count, chars[i] == 0x20 || chars[i] == 0x09 || chars[i] == 0x0A || chars[i] == 0x0D || chars[i] == 0x0C || chars[i] == 0x2C { i += 1 }
        }
        func fail(_ message: String) -> ParseError { ParseError(offset: i + 1, message: message) }
        func number() throws(ParseError) -> Double {
            skipSeparators()
            let start = i
            if i < chars.count, chars[i] == 0x2B || chars[i] == 0x2D { i += 1 }
            var digits = 0
            while i < chars.count, chars[i] >= 0x30 && chars[i] <= 0x39 { i += 1; digits += 1 }
            if i < chars.count, chars[i] == 0x2E {
                i += 1
                while i < chars.count, chars[i] >= 0x30 && chars[i] <= 0x39 { i += 1; digits += 1 }
            }
            guard digits > 0 else { i = start; throw fail("expected a number") }
            if i < chars.count, chars[i] == 0x65 || chars[i] == 0x45 {
                var j = i + 1
                if j < chars.count, chars[j] == 0x2B || chars[j] == 0x2D { j += 1 }
                if j < chars.count, chars[j] >= 0x30 && chars[j] <= 0x39 {
                    i = j
                    while i < chars.count, chars[i] >= 0x30 && chars[i] <= 0x39 { i += 1 }
                }
            }
            guard let v = Double(String(decoding: chars[start..<i], as: UTF8.self)), v.isFinite, abs(v) <= 1e6 else {
                i = start
                throw fail("the number is out of range (at most 1000000)")
            }
            return v
        }
        func flag() throws(ParseError) -> Bool {
            skipSeparators()
            guard i < chars.count, chars[i] == 0x30 || chars[i] == 0x31 else { throw fail("expected an arc flag (0 or 1)") }
            defer { i += 1 }
            return chars[i] == 0x31
        }
        func startsNumber() -> Bool {
            skipSeparators()
            guard i < chars.count else { return false }
            let c = chars[i]
            return (c >= 0x30 && c <= 0x39) || c == 0x2B || c == 0x2D || c == 0x2E
        }

        skipSeparators()
        while i < chars.count {
            let c = chars[i]
            let letter = (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A)
            if letter {
                guard "MmLlHhVvCcSsQqTtAaZz".utf8.contains(c) else { throw fail("unknown path command \"\(Character(UnicodeScalar(c)))\"") }
                if segs.isEmpty, c != 0x4D, c != 0x6D { throw fail("path data must begin with a moveto (M or m)") }
                command = c
                i += 1
            } else if command == 0 {
                throw fail("path data must begin with a moveto (M or m)")
            } else if command == 0x5A || command == 0x7A {
                throw fail("a number follows closepath (Z)")
            }
            if segs.isEmpty, command != 0x4D, command != 0x6D { throw fail("path data must begin with a moveto (M or m)") }
            let rel = command >= 0x61
            let ox = rel ? cx : 0, oy = rel ? cy : 0
            var cubicNow: (Double, Double)?, quadNow: (Double, Double)?
            switch command | 0x20 {
            case 0x6D: // m
                let x = try number() + ox, y = try number() + oy
                segs.append(.move(x, y))
                cx = x; cy = y; sx = x; sy = y
                command = rel ? 0x6C : 0x4C // further pairs are linetos
            case 0x6C: // l
                let x = try number() + ox, y = try number() + oy
                segs.append(.line(x, y)); cx = x; cy = y
            case 0x68: // h
                cx = try number() + ox; segs.append(.line(cx, cy))
            case 0x76: // v
                cy = try number() + oy; segs.append(.line(cx, cy))
            case 0x63: // c
                let x1 = try number() + ox, y1 = try number() + oy, x2 = try number() + ox, y2 = try number() + oy
                let x = try number() + ox, y = try number() + oy
                segs.append(.cubic(x1, y1, x2, y2, x, y)); cx = x; cy = y; cubicNow = (x2, y2)
            case 0x73: // s
                let (x1, y1) = lastCubic.map { (2 * cx - $0.0, 2 * cy - $0.1) } ?? (cx, cy)
                let x2 = try number() + ox, y2 = try number() + oy, x = try number() + ox, y = try number() + oy
                segs.append(.cubic(x1, y1, x2, y2, x, y)); cx = x; cy = y; cubicNow = (x2, y2)
            case 0x71: // q
                let qx = try number() + ox, qy = try number() + oy, x = try number() + ox, y = try number() + oy
                segs.append(Self.quadratic(cx, cy, qx, qy, x, y)); cx = x; cy = y; quadNow = (qx, qy)
            case 0x74: // t
                let (qx, qy) = lastQuad.map { (2 * cx - $0.0, 2 * cy - $0.1) } ?? (cx, cy)
                let x = try number() + ox, y = try number() + oy
                segs.append(Self.quadratic(cx, cy, qx, qy, x, y)); cx = x; cy = y; quadNow = (qx, qy)
            case 0x61: // a
                let rx = try number(), ry = try number(), rot = try number()
                let large = try flag(), sweep = try flag()
                let x = try number() + ox, y = try number() + oy
                segs += Self.arc(from: (cx, cy), to: (x, y), rx: rx, ry: ry, rotation: rot, large: large, sweep: sweep)
                cx = x; cy = y
            default: // z
                segs.append(.close); cx = sx; cy = sy
            }
            lastCubic = cubicNow
            lastQuad = quadNow
            if command | 0x20 == 0x7A {
                skipSeparators()
                if i < chars.count, !((chars[i] >= 0x41 && chars[i] <= 0x5A) || (chars[i] >= 0x61 && chars[i] <= 0x7A)) {
                    throw fail("a number follows closepath (Z)")
                }
                continue
            }
            if !startsNumber() {
                skipSeparators()
                if i < chars.count, !((chars[i] >= 0x41 && chars[i] <= 0x5A) || (chars[i] >= 0x61 && chars[i] <= 0x7A)) {
                    throw fail("unexpected character \"\(Character(UnicodeScalar(chars[i])))\"")
                }
            }
        }
        guard !segs.isEmpty else { throw ParseError(offset: 1, message: "the path data is empty") }
        segments = segs
    }

    static func quadratic(_ x0: Double, _ y0: Double, _ qx: Double, _ qy: Double, _ x: Double, _ y: Double) -> PathSegment {
        .cubic(x0 + 2 / 3 * (qx - x0), y0 + 2 / 3 * (qy - y0), x + 2 / 3 * (qx - x), y + 2 / 3 * (qy - y), x, y)
    }

    /// An elliptical arc (SVG 2 appendix B.2.4, endpoint to centre parameterisation) as cubic curves
    /// of at most 90° each.
    static func arc(from p0: (Double, Double), to p1: (Double, Double), rx rx0: Double, ry ry0: Double, rotation: Double,
                    large: Bool, sweep: Bool) -> [PathSegment] {
        if p0 == p1 { return [] }
        var rx = abs(rx0), ry = abs(ry0)
        if rx == 0 || ry == 0 { return [.line(p1.0, p1.1)] }
        let phi = rotation * .pi / 180, cosP = cos(phi), sinP = sin(phi)
        let dx = (p0.0 - p1.0) / 2, dy = (p0.1 - p1.1) / 2
        let x1 = cosP * dx + sinP * dy, y1 = -sinP * dx + cosP * dy
        let lambda = (x1 * x1) / (rx * rx) + (y1 * y1) / (ry * ry)
        if lambda > 1 { rx *= lambda.squareRoot(); ry *= lambda.squareRoot() }
        let num = rx * rx * ry * ry - rx * rx * y1 * y1 - ry * ry * x1 * x1
        let den = rx * rx * y1 * y1 + ry * ry * x1 * x1
        var coef = den == 0 ? 0 : (max(0, num) / den).squareRoot()
        if large == sweep { coef = -coef }
        let cxp = coef * rx * y1 / ry, cyp = -coef * ry * x1 / rx
        let cx = cosP * cxp - sinP * cyp + (p0.0 + p1.0) / 2
        let cy = sinP * cxp + cosP * cyp + (p0.1 + p1.1) / 2
        func angle(_ ux: Double, _ uy: Double, _ vx: Double, _ vy: Double) -> Double {
            atan2(ux * vy - uy * vx, ux * vx + uy * vy)
        }
        let theta1 = angle(1, 0, (x1 - cxp) / rx, (y1 - cyp) / ry)
        var delta = angle((x1 - cxp) / rx, (y1 - cyp) / ry, (-x1 - cxp) / rx, (-y1 - cyp) / ry)
        if !sweep && delta > 0 { delta -= 2 * .pi } else if sweep && delta < 0 { delta += 2 * .pi }
        let n = max(1, Int((abs(delta) / (.pi / 2)).rounded(.up)))
        let step = delta / Double(n)
        let t = 4 / 3 * tan(step / 4)
        var out: [PathSegment] = []
        var a = theta1
        func point(_ ex: Double, _ ey: Double) -> (Double, Double) {
            (cx + cosP * rx * ex - sinP * ry * ey, cy + sinP * rx * ex + cosP * ry * ey)
        }
        for k in 0..<n {
            let b = a + step
            let c1 = point(cos(a) - t * sin(a), sin(a) + t * cos(a))
            let c2 = point(cos(b) + t * sin(b), sin(b) - t * cos(b))
            let end = k == n - 1 ? p1 : point(cos(b), sin(b))
            out.append(.cubic(c1.0, c1.1, c2.0, c2.1, end.0, end.1))
            a = b
        }
        return out
    }
}
