import Testing
import GlyphRaster

/// `RowDifferences`: per row, the span from the first to the last differing pixel, and a key of both
/// images, found in one pass of 32-byte blocks (8 pixels) and a tail of single pixels per row. The
/// spans are checked against a pixel-by-pixel search, at widths that put differences in the first and
/// last pixel of a block, across blocks and in the tail.
@Suite("Row differences")
struct RowDifferencesTests {
    struct Rng {
        var state: UInt64
        mutating func next() -> UInt64 {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return state
        }
    }

    /// The spans by looking at every pixel.
    static func spans(_ a: [UInt8], _ b: [UInt8], width: Int, height: Int) -> [Int32] {
        (0..<height).flatMap { y -> [Int32] in
            let differs = (0..<width).filter { x in
                let i = (y * width + x) * 4
                return a[i..<i + 4] != b[i..<i + 4]
            }
            guard let first = differs.first, let last = differs.last else { return [0, 0] }
            return [Int32(first), Int32(last + 1)]
        }
    }

    @Test("the spans of sparse differences anywhere in a row equal a pixel-by-pixel search")
    func spansMatchSearch() {
        var rng = Rng(state: 0x9E37_79B9_7F4A_7C15)
        for width in 1...26 {
            for height in 1...3 {
                for round in 0..<12 {
                    let a = (0..<width * height * 4).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
                    var b = a
                    for _ in 0..<(Int(rng.next() % 4)) {
                        let p = Int(rng.next() % UInt64(width * height))
                        b[p * 4 + Int(rng.next() % 4)] &+= UInt8(truncatingIfNeeded: 1 + rng.next() % 255)
                    }
                    if round % 3 == 0 { b[(width - 1) * 4 + 3] &+= 1 } // the last pixel of the first row
                    let rows = RowDifferences(Raster(width: width, height: height, pixels: a),
                                              Raster(width: width, height: height, pixels: b))
                    let expected = Self.spans(a, b, width: width, height: height)
                    #expect(rows.spans == expected, "\(width)x\(height), round \(round)")
                    #expect(rows.rows == stride(from: 0, to: expected.count, by: 2).filter { expected[$0] != expected[$0 + 1] }.count)
                }
            }
        }
    }

    @Test("the key: equal for equal images, different for any byte of either changed, or the two swapped")
    func key() {
        // 9×3: each row is one 32-byte block and one pixel of tail.
        let (w, h) = (9, 3)
        let a = (0..<w * h * 4).map { UInt8($0 * 7 % 256) }
        var b = a
        for i in 40..<60 { b[i] = 255 - b[i] } // row 1 from pixel 1 to pixel 5
        func key(_ a: [UInt8], _ b: [UInt8]) -> String {
            let k = RowDifferences(Raster(width: w, height: h, pixels: a), Raster(width: w, height: h, pixels: b)).key
            return "\(k.0) \(k.1)"
        }
        let base = key(a, b)
        #expect(key(Array(a), Array(b)) == base)
        var keys: Set<String> = [base]
        for i in a.indices {
            var a2 = a
            a2[i] ^= 1
            keys.insert(key(a2, b))
            var b2 = b
            b2[i] ^= 0x80
            keys.insert(key(a, b2))
        }
        keys.insert(key(b, a))
        keys.insert(key(a, a))
        #expect(keys.count == 1 + 2 * a.count + 2)
        // The same bytes as another size.
        let other = RowDifferences(Raster(width: h, height: w, pixels: a), Raster(width: h, height: w, pixels: b)).key
        #expect("\(other.0) \(other.1)" != base)
    }
}
