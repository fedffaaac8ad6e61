import CGlyphSys
import Foundation

/// SHA-256 (FIPS 180-4): the content hash of a font file in the renderer fingerprint, of each input
/// file a run read (`InputLog`, the report's `inputs`, checked by `accept`), of an image file, and of a
/// variant's resolved inputs in the snapshot manifest (`VariantInputs`).
///
/// Two implementations of the same function: on an x86_64 processor with the SHA extensions (and
/// SSE4.1, SSSE3; asked once per process with cpuid) the C one in CGlyphSys (sha256.c), elsewhere
/// the portable one below, which is the reference the tests compare the other with.
public enum SHA256 {
    /// Which implementation computes a digest (the tests run both).
    package enum Implementation: Sendable, CaseIterable {
        /// The x86 SHA extensions (`glyph_sha256`), where `hardwareAvailable`; the portable code elsewhere.
        case hardware
        /// The Swift code below.
        case portable
    }

    /// Whether this process computes digests with the x86 SHA extensions.
    package static let hardwareAvailable = glyph_sha256_hardware() != 0


    private static let k: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    /// The digest of `bytes` as 64 lowercase hex digits.
    public static func hex(_ bytes: UnsafeRawBufferPointer) -> String {
        hex(bytes, using: hardwareAvailable ? .hardware : .portable)
    }

    /// The digest of `bytes` by one implementation (`.hardware` falls back to `.portable` where the
    /// processor lacks the SHA extensions).
    package static func hex(_ bytes: UnsafeRawBufferPointer, using implementation: Implementation) -> String {
        if implementation == .hardware && hardwareAvailable {
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { digest in
                _ = glyph_sha256(bytes.baseAddress, bytes.count, digest.baseAddress!)
                return hexDigits(UnsafeBufferPointer(digest))
            }
        }
        // The message schedule in one temporary buffer and the state in a value: no allocation or
        // exclusivity check per block (a mismatch's change digest hashes both renders' pixels).
        var state = State()
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
            k.withUnsafeBufferPointer { k in
                let w = w.baseAddress!, k = k.baseAddress!
                let full = bytes.count / 64
                if let base = bytes.baseAddress {
                    for i in 0..<full { state.block(base + 64 * i, w, k) }
                }
                // The tail: the remaining bytes, 0x80, zeros, the length in bits (big-endian), in one or two blocks.
                var tail = [UInt8](bytes[(64 * full)...])
                tail.append(0x80)
                while tail.count % 64 != 56 { tail.append(0) }
                let bits = UInt64(bytes.count) &* 8
                for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
                tail.withUnsafeBytes { t in
                    for i in 0..<(t.count / 64) { state.block(t.baseAddress! + 64 * i, w, k) }
                }
            }
        }
        let h = state.h
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { digest in
            for (i, v) in [h.0, h.1, h.2, h.3, h.4, h.5, h.6, h.7].enumerated() {
                for j in 0..<4 { digest[4 * i + j] = UInt8(truncatingIfNeeded: v >> (24 - 8 * UInt32(j))) }
            }
            return hexDigits(UnsafeBufferPointer(digest))
        }
    }

    /// 32 bytes as 64 lowercase hex digits.
    private static func hexDigits(_ digest: UnsafeBufferPointer<UInt8>) -> String {
        String(unsafeUninitializedCapacity: 64) { out in
            for (i, b) in digest.enumerated() {
                let hi = b >> 4, lo = b & 15
                out[2 * i] = hi < 10 ? 0x30 + hi : 0x57 + hi
                out[2 * i + 1] = lo < 10 ? 0x30 + lo : 0x57 + lo
            }
            return 64
        }
    }

    /// The hash state (FIPS 180-4, 6.2.2).
    private struct State {
        var h: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) =
            (0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19)

        /// One 64-byte block at `p`, with `w` room for the 64-word schedule.
        @inline(__always)
        mutating func block(_ p: UnsafeRawPointer, _ w: UnsafeMutablePointer<UInt32>, _ k: UnsafePointer<UInt32>) {
            for i in 0..<16 { w[i] = UInt32(bigEndian: p.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self)) }
            for i in 16..<64 {
                let s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3)
                let s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10)
                w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
            }
            var (a, b, c, d, e, f, g, hh) = h
            for i in 0..<64 {
                let t1 = hh &+ (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) &+ ((e & f) ^ (~e & g)) &+ k[i] &+ w[i]
                let t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) &+ ((a & b) ^ (a & c) ^ (b & c))
                (hh, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
            }
            h = (h.0 &+ a, h.1 &+ b, h.2 &+ c, h.3 &+ d, h.4 &+ e, h.5 &+ f, h.6 &+ g, h.7 &+ hh)
        }
    }

    public static func hex(_ data: Data) -> String { data.withUnsafeBytes { hex($0) } }

    package static func hex(_ data: Data, using implementation: Implementation) -> String {
        data.withUnsafeBytes { hex($0, using: implementation) }
    }

    @inline(__always)
    private static func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { x >> n | x << (32 - n) }
}

extension SHA256 {
    /// The digest of a string's UTF-8 bytes.
    public static func hex(_ text: String) -> String {
        var text = text
        return text.withUTF8 { hex(UnsafeRawBufferPointer($0)) }
    }
}
