import Foundation

/// A colour in sRGB with straight (non-premultiplied) alpha; every channel in 0...1.
public struct RGBA: Sendable, Hashable, Codable {
    public var r: Double
    public var g: Double
    public var b: Double
    public var a: Double

    @inlinable
    public init(r: Double, g: Double, b: Double, a: Double = 1) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }

    @inlinable
    public init(r8: UInt8, g8: UInt8, b8: UInt8, a8: UInt8 = 255) {
        self.init(r: Double(r8) / 255, g: Double(g8) / 255, b: Double(b8) / 255, a: Double(a8) / 255)
    }

    /// Parses `#RGB`, `#RGBA`, `#RRGGBB` or `#RRGGBBAA` (ASCII hex digits, case-insensitive; a short
    /// form doubles each digit, as CSS does).
    public init?(hex: String) {
        guard hex.hasPrefix("#") else { return nil }
        let digits = Array(hex.utf8.dropFirst())
        guard [3, 4, 6, 8].contains(digits.count) else { return nil }
        func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        let nibbles = digits.map(nibble)
        guard nibbles.allSatisfy({ $0 != nil }) else { return nil }
        let n = nibbles.map { $0! }
        let bytes: [UInt8] = n.count <= 4 ? n.map { (d: UInt8) -> UInt8 in d << 4 | d }
            : stride(from: 0, to: n.count, by: 2).map { (i: Int) -> UInt8 in n[i] << 4 | n[i + 1] }
        self.init(r8: bytes[0], g8: bytes[1], b8: bytes[2], a8: bytes.count == 4 ? bytes[3] : 255)
    }

    @inlinable
    package static func byte(_ v: Double) -> UInt8 { UInt8(max(0, min(255, (v * 255).rounded()))) }

    /// `#RRGGBB`, or `#RRGGBBAA` when not opaque; upper case.
    public var hex: String {
        // By hand, not String(format:): scene digests (`Scene.inputText`) format every part's colours.
        let digits: [UInt8] = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = [UInt8(ascii: "#")]
        let alpha = Self.byte(a)
        for v in alpha != 255 ? [Self.byte(r), Self.byte(g), Self.byte(b), alpha] : [Self.byte(r), Self.byte(g), Self.byte(b)] {
            bytes.append(digits[Int(v >> 4)])
            bytes.append(digits[Int(v & 15)])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    public static let white = RGBA(r: 1, g: 1, b: 1)
    public static let black = RGBA(r: 0, g: 0, b: 0)
    public static let clear = RGBA(r: 0, g: 0, b: 0, a: 0)
}
