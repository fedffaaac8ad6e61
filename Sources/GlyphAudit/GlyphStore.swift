import Foundation

/// Where a glyph's pixels sit in its variant's render, without the pixels.
public struct GlyphFrame: Sendable, Equatable {
    public let x0: Int
    public let y0: Int
    public let width: Int
    public let height: Int
    public let scale: Int
}

/// The glyphs of an audit input, each held run-length encoded and decoded when a rule reads it.
///
/// A glyph is mostly flat colour (surface, box, fill, tick), so its runs take a fraction of its
/// pixels' memory (about a tenth at large sizes); the audit of a component keeps every glyph of it
/// this way, and only the ones being measured are whole at any moment. Decoding gives back exactly
/// the pixels that were cut.
public struct GlyphStore: Sendable, RandomAccessCollection {
    /// One glyph: its frame, its digest and its pixels as runs.
    public struct Entry: Sendable {
        public let frame: GlyphFrame
        public let redrawn: Bool
        public let digest: UInt64
        /// Pairs (run length, packed RGBA value), rows concatenated.
        fileprivate let runs: [UInt32]

        public init(_ g: GlyphPixels) {
            frame = GlyphFrame(x0: g.x0, y0: g.y0, width: g.width, height: g.height, scale: g.scale)
            redrawn = g.redrawn
            digest = g.digest
            var runs: [UInt32] = []
            g.pixels.withUnsafeBufferPointer { px in
                var i = 0
                while i < px.count {
                    let v = px[i]
                    var j = i + 1
                    while j < px.count && px[j] == v { j += 1 }
                    runs.append(UInt32(j - i))
                    runs.append(v)
                    i = j
                }
            }
            self.runs = runs
        }

        /// Whether two entries hold the same pixels (and size).
        public func samePixels(as other: Entry) -> Bool {
            frame.width == other.frame.width && frame.height == other.frame.height && runs == other.runs
        }

        /// The glyph, decoded.
        public var glyph: GlyphPixels {
            let n = frame.width * frame.height
            let pixels = [UInt32](unsafeUninitializedCapacity: n) { out, initialized in
                var at = 0
                runs.withUnsafeBufferPointer { r in
                    var k = 0
                    while k < r.count {
                        let length = Int(r[k]), value = r[k + 1]
                        (out.baseAddress! + at).initialize(repeating: value, count: length)
                        at += length
                        k += 2
                    }
                }
                initialized = at
            }
            return GlyphPixels(x0: frame.x0, y0: frame.y0, width: frame.width, height: frame.height, scale: frame.scale,
                               pixels: pixels, redrawn: redrawn, digest: digest)
        }
    }

    public let entries: [Entry]

    public init(_ entries: [Entry]) { self.entries = entries }

    public init(_ glyphs: [GlyphPixels]) { entries = glyphs.map(Entry.init) }

    public var startIndex: Int { 0 }
    public var endIndex: Int { entries.count }

    /// The glyph of item `i`, decoded (a rule holds it only while it measures it).
    public subscript(i: Int) -> GlyphPixels { entries[i].glyph }

    /// Where the glyph of item `i` sits, without decoding it.
    public func frame(_ i: Int) -> GlyphFrame { entries[i].frame }
}
