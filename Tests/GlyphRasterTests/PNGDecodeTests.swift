import Foundation
import Testing
import GlyphColor
import GlyphRaster
import GlyphTestSupport

/// PNGs decode exactly (baselines, `diff` inputs, a spec's PNG images): every colour type and bit depth, palettes and grey with
/// tRNS, Adam7 interlacing. The files are written by `TinyPNG` (not libpng) from sample values, and
/// the expected RGBA8 is computed here from those values with the PNG spec's rules: a sample of
/// `b` < 8 bits is `v × 255 / (2^b − 1)`, a 16-bit sample the nearest 8-bit value `round(v / 257)`,
/// a palette index its entry (alpha from tRNS, else 255), a grey or RGB pixel equal to tRNS alpha 0.
@Suite("PNG decoding")
struct PNGDecodeTests {
    static func to8(_ v: Int, bits: Int) -> UInt8 {
        bits == 16 ? UInt8((Double(v) / 257).rounded()) : UInt8(v * 255 / ((1 << bits) - 1))
    }

    static let sizes = [(11, 7), (3, 2), (1, 1), (17, 9)]

    func decode(_ data: Data) throws -> Raster {
        do { return try Raster(pngData: data) } catch {
            Issue.record("decode failed: \(error)")
            throw error
        }
    }

    func check(_ colorType: TinyPNG.ColorType, bits: Int, expected: ([Int]) -> [UInt8], samples s: [[[Int]]],
               palette: [[UInt8]]? = nil, trns: [UInt8]? = nil, _ what: String) throws {
        let h = s.count, w = s[0].count
        for interlaced in [false, true] {
            let png = TinyPNG.encode(width: w, height: h, colorType: colorType, bitDepth: bits, samples: s,
                                     palette: palette, trns: trns, interlaced: interlaced)
            let r = try decode(png)
            #expect(r.width == w && r.height == h)
            var wrong = 0
            for y in 0..<h {
                for x in 0..<w {
                    let p = r.pixel(x, y)
                    let e = expected(s[y][x])
                    if [p.r, p.g, p.b, p.a] != e {
                        wrong += 1
                        if wrong <= 3 { Issue.record("\(what)\(interlaced ? " interlaced" : "") \(w)×\(h) (\(x),\(y)) samples \(s[y][x]): got \([p.r, p.g, p.b, p.a]), expected \(e)") }
                    }
                }
            }
            #expect(wrong == 0, "\(what)\(interlaced ? " interlaced" : ""): \(wrong) pixels wrong")
        }
    }

    @Test("grey at 1, 2, 4, 8 and 16 bits")
    func grey() throws {
        for bits in [1, 2, 4, 8, 16] {
            for (w, h) in Self.sizes {
                let s = TinyPNG.samples(width: w, height: h, channels: 1, bits: bits, seed: bits * 100 + w)
                try check(.grey, bits: bits, expected: { v in let g = Self.to8(v[0], bits: bits); return [g, g, g, 255] },
                          samples: s, "grey \(bits)")
            }
        }
    }

    @Test("grey with alpha, RGB and RGBA at 8 and 16 bits")
    func colour() throws {
        for bits in [8, 16] {
            for (w, h) in Self.sizes {
                let ga = TinyPNG.samples(width: w, height: h, channels: 2, bits: bits, seed: 7 + bits + w)
                try check(.greyAlpha, bits: bits, expected: { v in
                    let g = Self.to8(v[0], bits: bits)
                    return [g, g, g, Self.to8(v[1], bits: bits)]
                }, samples: ga, "grey+alpha \(bits)")
                let rgb = TinyPNG.samples(width: w, height: h, channels: 3, bits: bits, seed: 11 + bits + w)
                try check(.rgb, bits: bits, expected: { v in v.map { Self.to8($0, bits: bits) } + [255] }, samples: rgb, "RGB \(bits)")
                let rgba = TinyPNG.samples(width: w, height: h, channels: 4, bits: bits, seed: 13 + bits + w)
                try check(.rgba, bits: bits, expected: { v in v.map { Self.to8($0, bits: bits) } }, samples: rgba, "RGBA \(bits)")
            }
        }
    }

    /// The decoder skips the zlib stream's Adler-32 (it cost 5–7 % of an incremental run): every
    /// chunk's CRC-32 still guards the compressed bytes, so damage to them is an error as before.
    @Test("a wrong Adler-32 under right CRCs decodes; a changed byte under its old CRC is an error")
    func adlerSkippedCRCChecked() throws {
        let (w, h) = (11, 7)
        let s = TinyPNG.samples(width: w, height: h, channels: 3, bits: 8, seed: 5)
        let raw = s.flatMap { row in [UInt8(0)] + TinyPNG.packRow(row, bitDepth: 8) }
        var zlib = TinyPNG.zlibStored(raw)
        zlib[zlib.count - 1] ^= 0x5A // a wrong Adler-32, the IDAT chunk's CRC computed over it
        let head: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]
            + TinyPNG.chunk("IHDR", TinyPNG.be32(UInt32(w)) + TinyPNG.be32(UInt32(h)) + [8, 2, 0, 0, 0])
        let png = head + TinyPNG.chunk("IDAT", zlib) + TinyPNG.chunk("IEND", [])
        let r = try decode(Data(png))
        #expect(r.pixels == s.flatMap { row in row.flatMap { v in v.map(UInt8.init) + [255] } })
        // One pixel byte changed, the CRC left as it was.
        var bad = png
        let firstPixel = head.count + 8 + 2 + 5 + 1 // chunk header, zlib header, stored block header, filter byte
        #expect(bad[firstPixel] == UInt8(s[0][0][0]))
        bad[firstPixel] ^= 0xFF
        #expect {
            try Raster(pngData: Data(bad))
        } throws: { error in
            (error as? PNGError)?.message.contains("CRC") == true
        }
    }

    @Test("16-bit samples round to the nearest 8-bit value, not the high byte")
    func sixteenBitRounding() throws {
        // v / 257, rounded: 0x00FF is 0.992 → 1 (the high byte says 0), 0x0081 0.502 → 1, 0xFF00 254.0 → 254
        // (the high byte says 255), 0xFF7E 254.498 → 254, 0xFF7F 254.502 → 255.
        let values = [0x00FF, 0x0080, 0x0081, 0x7F80, 0x80FF, 0x8180, 0xFF00, 0xFF7E, 0xFF7F, 0xFFFF]
        let expected: [UInt8] = [1, 0, 1, 127, 128, 129, 254, 254, 255, 255]
        for (v, e) in zip(values, expected) { #expect(Self.to8(v, bits: 16) == e, "\(v)") }
        let s = [values.map { [$0, $0, $0] }]
        try check(.rgb, bits: 16, expected: { v in let g = Self.to8(v[0], bits: 16); return [g, g, g, 255] },
                  samples: s, "RGB 16 rounding")
        let r = try decode(TinyPNG.encode(width: values.count, height: 1, colorType: .rgb, bitDepth: 16, samples: s))
        #expect((0..<values.count).map { r.pixel($0, 0).r } == expected)
    }

    @Test("palettes at 1, 2, 4 and 8 bits with a partial tRNS")
    func palette() throws {
        for bits in [1, 2, 4, 8] {
            let count = min(1 << bits, 37)
            let palette: [[UInt8]] = (0..<count).map { (i: Int) -> [UInt8] in
                let r: Int = i * 53 % 256, g: Int = i * 101 % 256, b: Int = 255 - i * 7 % 256
                return [UInt8(r), UInt8(g), UInt8(b)]
            }
            // tRNS shorter than the palette: the entries past it are opaque.
            let trns: [UInt8] = (0..<max(1, count / 2)).map { UInt8($0 * 71 % 256) }
            for (w, h) in Self.sizes {
                let s = TinyPNG.samples(width: w, height: h, channels: 1, bits: bits, seed: 3 + bits + w).map { row in
                    row.map { [$0[0] % count] }
                }
                try check(.palette, bits: bits, expected: { v in
                    palette[v[0]] + [v[0] < trns.count ? trns[v[0]] : 255]
                }, samples: s, palette: palette, trns: trns, "palette \(bits)")
            }
        }
    }

    @Test("grey and RGB with a tRNS colour: that colour is transparent")
    func colourKey() throws {
        for bits in [2, 8, 16] {
            let key = bits == 16 ? 0x1234 : bits == 8 ? 0x37 : 2
            for (w, h) in Self.sizes {
                var s = TinyPNG.samples(width: w, height: h, channels: 1, bits: bits, seed: 5 + bits + w)
                for y in 0..<h { for x in 0..<w where (x + y) % 3 == 0 { s[y][x] = [key] } }
                try check(.grey, bits: bits, expected: { v in
                    let g = Self.to8(v[0], bits: bits)
                    return [g, g, g, v[0] == key ? 0 : 255]
                }, samples: s, trns: [UInt8(key >> 8), UInt8(key & 0xFF)], "grey \(bits) tRNS")
            }
        }
        for bits in [8, 16] {
            let key = bits == 16 ? [0x0102, 0xA0B0, 0xFFFE] : [12, 200, 99]
            for (w, h) in Self.sizes {
                var s = TinyPNG.samples(width: w, height: h, channels: 3, bits: bits, seed: 9 + bits + w)
                for y in 0..<h { for x in 0..<w where (x * 2 + y) % 3 == 1 { s[y][x] = key } }
                // A pixel that differs from the key in one channel only stays opaque.
                if w > 1 { s[0][1] = [key[0], key[1], key[2] ^ 1] }
                try check(.rgb, bits: bits, expected: { v in
                    v.map { Self.to8($0, bits: bits) } + [v == key ? 0 : 255]
                }, samples: s, trns: key.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }, "RGB \(bits) tRNS")
            }
        }
    }
}
