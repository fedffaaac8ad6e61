import Foundation

/// A small PNG writer of its own for the decoder's tests, independent of libpng: every colour type
/// and bit depth, palettes with tRNS, and Adam7 interlacing, written with stored (uncompressed)
/// deflate blocks and filter type 0, CRC-32 and Adler-32 computed here (PNG spec, RFC 1950/1951).
public enum TinyPNG {
    /// Deterministic sample values covering 0 and the maximum (first and last pixel).
    public static func samples(width: Int, height: Int, channels: Int, bits: Int, seed: Int) -> [[[Int]]] {
        let top = bits == 16 ? 65535 : (1 << bits) - 1
        var state = UInt64(seed) &* 6364136223846793005 &+ 1442695040888963407
        return (0..<height).map { y in
            (0..<width).map { x in
                (0..<channels).map { _ in
                    state = state &* 6364136223846793005 &+ 1442695040888963407
                    if x == 0 && y == 0 { return 0 }
                    if x == width - 1 && y == height - 1 { return top }
                    return Int(state >> 33) % (top + 1)
                }
            }
        }
    }

    public enum ColorType: UInt8 {
        case grey = 0, rgb = 2, palette = 3, greyAlpha = 4, rgba = 6

        public var channels: Int {
            switch self {
            case .grey, .palette: 1
            case .greyAlpha: 2
            case .rgb: 3
            case .rgba: 4
            }
        }
    }

    /// `samples[y][x]` holds the pixel's channel values (palette index, grey, grey + alpha, RGB, RGBA)
    /// at `bitDepth`. `palette` is RGB triples; `trns` the tRNS chunk's bytes as the format stores them.
    public static func encode(width: Int, height: Int, colorType: ColorType, bitDepth: Int, samples: [[[Int]]],
                       palette: [[UInt8]]? = nil, trns: [UInt8]? = nil, interlaced: Bool = false) -> Data {
        var ihdr: [UInt8] = []
        ihdr += be32(UInt32(width)) + be32(UInt32(height))
        ihdr += [UInt8(bitDepth), colorType.rawValue, 0, 0, interlaced ? 1 : 0]
        var raw: [UInt8] = []
        let passes: [(x0: Int, y0: Int, dx: Int, dy: Int)] = interlaced
            ? [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
            : [(0, 0, 1, 1)]
        for pass in passes {
            let xs = Array(stride(from: pass.x0, to: width, by: pass.dx))
            let ys = Array(stride(from: pass.y0, to: height, by: pass.dy))
            if xs.isEmpty || ys.isEmpty { continue } // an empty pass has no rows at all
            for y in ys {
                raw.append(0) // filter: none
                raw += packRow(xs.map { samples[y][$0] }, bitDepth: bitDepth)
            }
        }
        var out: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]
        out += chunk("IHDR", ihdr)
        if let palette { out += chunk("PLTE", palette.flatMap { $0 }) }
        if let trns { out += chunk("tRNS", trns) }
        out += chunk("IDAT", zlibStored(raw))
        out += chunk("IEND", [])
        return Data(out)
    }

    /// A row's samples packed big-endian: several per byte below 8 bits (first in the high bits), two
    /// bytes each at 16.
    public static func packRow(_ pixels: [[Int]], bitDepth: Int) -> [UInt8] {
        var out: [UInt8] = []
        if bitDepth == 16 {
            for p in pixels { for v in p { out += [UInt8(v >> 8), UInt8(v & 0xFF)] } }
            return out
        }
        if bitDepth == 8 { return pixels.flatMap { $0.map(UInt8.init) } }
        var acc = 0, bits = 0
        for p in pixels {
            for v in p {
                acc = acc << bitDepth | v
                bits += bitDepth
                if bits == 8 { out.append(UInt8(acc)); acc = 0; bits = 0 }
            }
        }
        if bits > 0 { out.append(UInt8(acc << (8 - bits))) }
        return out
    }

    public static func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }

    public static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return be32(UInt32(data.count)) + body + be32(crc32(body))
    }

    public static let crcTable: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    public static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes { c = crcTable[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }

    /// A zlib stream of stored deflate blocks (at most 65535 bytes each).
    public static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var i = 0
        repeat {
            let n = min(65535, data.count - i)
            let last: UInt8 = i + n == data.count ? 1 : 0
            out += [last, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
            out += data[i..<(i + n)]
            i += n
        } while i < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for x in data {
            a = (a + UInt32(x)) % 65521
            b = (b + a) % 65521
        }
        return out + be32(b << 16 | a)
    }
}
