import GlyphRaster

/// A fast 128-bit hash of pixel bytes, for folding identical diffs (`SnapshotResult.changeDigest`):
/// two 64-bit lanes of a multiply-fold mix (the construction of wyhash), fed by four chains 32 bytes
/// at a time. Not a cryptographic digest: the key only groups mismatches with the same pixels in the
/// report (the pixels are drawn by the run itself), never names a file or guards anything, so a
/// chance collision (2⁻¹²⁸ per pair) is the whole risk. It hashes a render's pixels some twenty times
/// faster than SHA-256, which took half of an incremental run with a changed theme colour.
enum PixelHash {
    private static let k0: UInt64 = 0xa076_1d64_78bd_642f
    private static let k1: UInt64 = 0xe703_7ed1_a0b4_28db
    private static let k2: UInt64 = 0x8ebc_6af0_9c88_c6e3
    private static let k3: UInt64 = 0x5899_65cc_7537_4cc3

    @inline(__always)
    private static func mix(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let p = a.multipliedFullWidth(by: b)
        return p.high ^ p.low
    }

    /// The two lanes of `bytes`, seeded by `seed` (so that equal bytes under another seed differ).
    static func hash(_ bytes: UnsafeRawBufferPointer, seed: UInt64) -> (UInt64, UInt64) {
        let n = bytes.count
        var h0 = mix(seed ^ k0, UInt64(n) ^ k1)
        var h1 = mix(seed ^ k2, UInt64(n) ^ k3)
        // 32 bytes at a time into four independent chains (the multiplications of one round do not
        // wait on each other), folded into the two lanes after.
        var h2 = mix(seed ^ k1, UInt64(n) ^ k2)
        var h3 = mix(seed ^ k3, UInt64(n) ^ k0)
        var i = 0
        while i + 32 <= n {
            let a = bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            let b = bytes.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self)
            let c = bytes.loadUnaligned(fromByteOffset: i + 16, as: UInt64.self)
            let d = bytes.loadUnaligned(fromByteOffset: i + 24, as: UInt64.self)
            h0 = mix(a ^ k1 ^ h0, b ^ k0)
            h1 = mix(b ^ k3 ^ h1, a ^ k2)
            h2 = mix(c ^ k1 ^ h2, d ^ k0)
            h3 = mix(d ^ k3 ^ h3, c ^ k2)
            i += 32
        }
        h0 = mix(h0 ^ k2, h2 ^ k3)
        h1 = mix(h1 ^ k0, h3 ^ k1)
        while i + 16 <= n {
            let a = bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            let b = bytes.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self)
            h0 = mix(a ^ k1 ^ h0, b ^ k0)
            h1 = mix(b ^ k3 ^ h1, a ^ k2)
            i += 16
        }
        // The last 0–15 bytes, zero-padded (the length is in the seed of both lanes).
        var a: UInt64 = 0, b: UInt64 = 0
        var shift: UInt64 = 0
        while i < n {
            let byte = UInt64(bytes[i])
            if shift < 64 { a |= byte << shift } else { b |= byte << (shift - 64) }
            shift += 8
            i += 1
        }
        h0 = mix(a ^ k1 ^ h0, b ^ k0)
        h1 = mix(b ^ k3 ^ h1, a ^ k2)
        return (mix(h0 ^ k2, h0 ^ k3), mix(h1 ^ k0, h1 ^ k1))
    }

    /// The key of a change from `expected` to `actual`: both sizes and both renders' pixels, as hex.
    static func change(expected: Raster, actual: Raster) -> String {
        var text = "\(expected.width)x\(expected.height) \(actual.width)x\(actual.height) "
        for (seed, raster) in [(UInt64(1), expected), (UInt64(2), actual)] {
            let (h0, h1) = raster.pixels.withUnsafeBytes { hash($0, seed: seed) }
            text += hex(h0) + hex(h1)
        }
        return text
    }

    private static func hex(_ v: UInt64) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }
}
