import Foundation

/// A colour in sRGB with straight (non-premultiplied) alpha; every channel in 0...1.
public struct RGBA: Sendable, Hashable, Codable {
    public var r: Double
    public var g: Double
    public var b: Double
    public var a: Double

    public init(r: Double, g: Double, b: Double, a: Double = 1) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }

    public init(r8: UInt8, g8: UInt8, b8: UInt8, a8: UInt8 = 255) {
        self.init(r: Double(r8) / 255, g: Double(g8) / 255, b: Double(b8) / 255, a: Double(a8) / 255)
    }

    /// Parses `#RRGGBB` or `#RRGGBBAA` (case-insensitive).
    public init?(hex: String) {
        guard hex.hasPrefix("#") else { return nil }
        let digits = hex.dropFirst()
        guard digits.count == 6 || digits.count == 8, digits.allSatisfy(\.isHexDigit),
              let value = UInt64(digits, radix: 16) else { return nil }
        if digits.count == 6 {
            self.init(r8: UInt8((value >> 16) & 0xFF), g8: UInt8((value >> 8) & 0xFF), b8: UInt8(value & 0xFF))
        } else {
            self.init(r8: UInt8((value >> 24) & 0xFF), g8: UInt8((value >> 16) & 0xFF),
                      b8: UInt8((value >> 8) & 0xFF), a8: UInt8(value & 0xFF))
        }
    }

    package static func byte(_ v: Double) -> UInt8 { UInt8(max(0, min(255, (v * 255).rounded()))) }

    /// `#RRGGBB`, or `#RRGGBBAA` when not opaque; upper case.
    public var hex: String {
        var s = String(format: "#%02X%02X%02X", Self.byte(r), Self.byte(g), Self.byte(b))
        if Self.byte(a) != 255 { s += String(format: "%02X", Self.byte(a)) }
        return s
    }

    public static let white = RGBA(r: 1, g: 1, b: 1)
    public static let black = RGBA(r: 0, g: 0, b: 0)
    public static let clear = RGBA(r: 0, g: 0, b: 0, a: 0)
}
