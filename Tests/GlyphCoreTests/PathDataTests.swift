import Foundation
import Testing
import GlyphCore

@Suite("SVG path data for path marks")
struct PathDataTests {
    @Test("Bootstrap's tick `m6 10 3 3 6-6`: a relative moveto whose further pairs are relative linetos")
    func bootstrapTick() throws {
        let p = try PathData(parsing: "m6 10 3 3 6-6")
        #expect(p.segments == [.move(6, 10), .line(9, 13), .line(15, 7)])
    }

    @Test("H, V, Z and packed numbers (`1.5.5`, exponents)")
    func shorthands() throws {
        let p = try PathData(parsing: "M1.5.5h2V3z l1e1-1E0")
        #expect(p.segments == [.move(1.5, 0.5), .line(3.5, 0.5), .line(3.5, 3), .close, .line(11.5, -0.5)])
    }

    @Test("A quadratic curve becomes the cubic with control points at 2/3 (exact)")
    func quadratic() throws {
        let p = try PathData(parsing: "M0 0Q3 3 6 0")
        #expect(p.segments == [.move(0, 0), .cubic(2, 2, 4, 2, 6, 0)])
    }

    @Test("A half-circle arc `A5 5 0 0 1 10 0` passes through (5, -5) and ends at (10, 0)")
    func arc() throws {
        let p = try PathData(parsing: "M0 0A5 5 0 0 1 10 0")
        #expect(p.segments.count == 3)
        guard case let .cubic(_, _, _, _, mx, my) = p.segments[1], case let .cubic(_, _, _, _, ex, ey) = p.segments[2] else {
            Issue.record("expected two cubic segments: \(p.segments)"); return
        }
        #expect(abs(mx - 5) < 1e-9 && abs(my + 5) < 1e-9)
        #expect(ex == 10 && ey == 0)
    }

    @Test("Bad path data names what is wrong and where", arguments: [
        ("L1 2", 1, "must begin with a moveto"),
        ("m6 10 #", 7, "unexpected character \"#\""),
        ("m6 10 x", 7, "unknown path command \"x\""),
        ("M0 0 A5 5 0 2 1 10 0", 13, "arc flag"),
        ("M0 0 K3", 6, "unknown path command \"K\""),
        ("", 1, "empty"),
    ])
    func bad(_ d: String, _ offset: Int, _ message: String) {
        #expect(throws: PathData.ParseError.self) { try PathData(parsing: d) }
        do { _ = try PathData(parsing: d) } catch {
            #expect(error.offset == offset, "\(d): \(error)")
            #expect(error.message.contains(message), "\(d): \(error.message)")
        }
    }
}
