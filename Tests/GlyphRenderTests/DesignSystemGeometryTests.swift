import Foundation
import Testing
import GlyphCore
import GlyphRender
import GlyphTestSupport

// The marks of Tests/Fixtures/designsystems (copies of docs/examples/designsystems) hold numbers
// worked out by hand from the systems' CSS. These tests work them out again from the CSS values
// (quoted in each folder's SOURCES.md) and hold the specs to them.

/// A CSS 2D transform step, applied right to left as CSS does (`transform: a b c` maps p to a(b(c(p)))).
private enum CSSStep {
    case rotate(Double)              // degrees, clockwise on screen (y down)
    case translate(Double, Double)
    case scaleY(Double)

    func apply(_ p: (Double, Double)) -> (Double, Double) {
        switch self {
        case let .rotate(deg):
            let r = deg * .pi / 180
            return (p.0 * cos(r) - p.1 * sin(r), p.0 * sin(r) + p.1 * cos(r))
        case let .translate(x, y): return (p.0 + x, p.1 + y)
        case let .scaleY(s): return (p.0, p.1 * s)
        }
    }
}

private func transform(_ p: (Double, Double), _ steps: [CSSStep]) -> (Double, Double) {
    steps.reversed().reduce(p) { $1.apply($0) }
}

/// The vertices of a path made of move/line/close segments, one array per subpath.
private func polygons(_ data: PathData) -> [[(Double, Double)]] {
    var out: [[(Double, Double)]] = []
    for s in data.segments {
        switch s {
        case let .move(x, y): out.append([(x, y)])
        case let .line(x, y): out[out.count - 1].append((x, y))
        case .close, .cubic: break
        }
    }
    return out
}

private func close(_ a: [(Double, Double)], _ b: [(Double, Double)], within t: Double) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy { abs($0.0 - $1.0) <= t && abs($0.1 - $1.1) <= t }
}

private func describe(_ p: [(Double, Double)]) -> String {
    p.map { String(format: "(%.3f, %.3f)", $0.0, $0.1) }.joined(separator: " ")
}

private func markPath(_ folder: String, _ state: ControlState) throws -> (mark: MarkSpec, path: MarkPath) {
    let spec = try Spec.load(contentsOf: TestPaths.fixture("designsystems/\(folder)/spec.json"))
    let mark = try #require(spec.appearance(state).marks.first)
    return (mark, try #require(mark.path))
}

@Suite("Design systems' marks are their CSS, worked out again")
struct DesignSystemGeometryTests {
    /// GOV.UK's tick: a border-box `width × height` box with `border-width: 0 0 b b` (an L: a bar of
    /// b down its left side, one of b along its bottom), `transform: rotate(-45deg)` about its centre,
    /// at (`left`, `top`) in the box. Its six corners, as the spec's path lists them.
    static func govukTick(left: Double, top: Double, width w: Double, height h: Double, border b: Double) -> [(Double, Double)] {
        let cx = left + w / 2, cy = top + h / 2
        let corners = [(0, 0), (b, 0), (b, h - b), (w, h - b), (w, h), (0, h)].map { ($0.0 - w / 2, $0.1 - h / 2) }
        return corners.map { transform($0, [.translate(cx, cy), .rotate(-45)]) }
    }

    @Test("GOV.UK's 40 px tick: ::after top 13px left 10px in the 44 px item (the box at 2, 2), 23 × 12, border 0 0 5px 5px, rotate(-45deg)")
    func govukLarge() throws {
        let (mark, path) = try markPath("govuk-checkbox", .checked)
        #expect(mark.kind == .path && mark.size == nil && path.stroke == nil)  // filled, in the whole box
        #expect(path.viewBox == Rect(x: 0, y: 0, width: 40, height: 40))
        let want = Self.govukTick(left: 10 - 2, top: 13 - 2, width: 23, height: 12, border: 5)
        let got = polygons(path.data)
        #expect(got.count == 1)
        #expect(close(got.first ?? [], want, within: 0.0006), "spec \(describe(got.first ?? [])), CSS \(describe(want))")
        // The tick's lowest point, the L's outer corner: under the box's centre line, inside the 2 px ring.
        #expect(abs((want.map(\.1).max() ?? 0) - (17 + 11.5 / 2.0.squareRoot() + 6 / 2.0.squareRoot())) < 1e-9)
    }

    @Test("GOV.UK's 24 px tick: small ::after top 17px left 6px (the box at 0, 10), 12 × 6.5, border 0 0 3px 3px")
    func govukSmall() throws {
        let (_, path) = try markPath("govuk-checkbox-small", .checked)
        #expect(path.viewBox == Rect(x: 0, y: 0, width: 24, height: 24))
        let want = Self.govukTick(left: 6, top: 17 - 10, width: 12, height: 6.5, border: 3)
        let got = polygons(path.data)
        #expect(close(got.first ?? [], want, within: 0.0006), "spec \(describe(got.first ?? [])), CSS \(describe(want))")
    }

    @Test("Material 3's tick: two 2 px rects (√32 and √128 long) through scaleY(-1) translate(7px, -14px) rotate(45deg); the dash through translate(4px, -10px)")
    func material() throws {
        let (_, tick) = try markPath("m3-checkbox", .checked)
        #expect(tick.viewBox == Rect(x: 0, y: 0, width: 18, height: 18) && tick.stroke == nil)
        let steps: [CSSStep] = [.scaleY(-1), .translate(7, -14), .rotate(45)]
        let long = [(0.0, 0.0), (128.0.squareRoot(), 0), (128.0.squareRoot(), 2), (0, 2)].map { transform($0, steps) }
        let short = [(0.0, 0.0), (2, 0), (2, 32.0.squareRoot()), (0, 32.0.squareRoot())].map { transform($0, steps) }
        let got = polygons(tick.data)
        #expect(got.count == 2)
        #expect(close(got.first ?? [], long, within: 0.0006), "long: spec \(describe(got.first ?? [])), CSS \(describe(long))")
        #expect(close(got.last ?? [], short, within: 0.0006), "short: spec \(describe(got.last ?? [])), CSS \(describe(short))")
        // The two arms meet at the tick's bottom, (7, 14) in the 18 px icon.
        #expect(abs(long[0].0 - 7) < 1e-9 && abs(long[0].1 - 14) < 1e-9)

        let (_, dash) = try markPath("m3-checkbox", .mixed)
        let bar = [(0.0, 0.0), (10, 0), (10, 2), (0, 2)].map { transform($0, [.scaleY(-1), .translate(4, -10)]) }
        // The spec lists the bar's corners from its top left: (4, 8) (14, 8) (14, 10) (4, 10).
        let want = [bar[3], bar[2], bar[1], bar[0]]
        #expect(close(polygons(dash.data).first ?? [], want, within: 1e-9), "dash: spec \(describe(polygons(dash.data).first ?? [])), CSS \(describe(want))")
    }

    @Test("Bootstrap's marks fill the 14 px padding box (1em less two 1px borders): tick and dash in 0 0 20 20, the radio dot r=2 in -4 -4 8 8")
    func bootstrap() throws {
        for (folder, state, d) in [("bootstrap53-checkbox", ControlState.checked, "m6 10 3 3 6-6"),
                                   ("bootstrap53-checkbox", .mixed, "M6 10h8")] {
            let (mark, path) = try markPath(folder, state)
            #expect(path.d == d && path.viewBox == Rect(x: 0, y: 0, width: 20, height: 20))
            #expect(path.stroke == 3 && path.lineCap == .round && path.lineJoin == .round)
            #expect(mark.size == .points(16 - 2 * 1))
        }
        let (dot, circle) = try markPath("bootstrap53-radio", .checked)
        #expect(dot.size == .points(14) && circle.viewBox == Rect(x: -4, y: -4, width: 8, height: 8) && circle.stroke == nil)
        // Every end point of the circle's segments lies at r = 2 from the viewBox's centre.
        for s in circle.data.segments {
            let end: (Double, Double)?
            switch s {
            case let .move(x, y), let .line(x, y): end = (x, y)
            case let .cubic(_, _, _, _, x, y): end = (x, y)
            case .close: end = nil
            }
            if let end { #expect(abs((end.0 * end.0 + end.1 * end.1).squareRoot() - 2) < 1e-9, "\(s)") }
        }
    }
}
