import Foundation

// Bytes and text for the SVG reference check's scanners and messages.
extension SVGReferenceCheck {
    enum Byte {
        static let tab: UInt8 = 0x09, lf: UInt8 = 0x0A, cr: UInt8 = 0x0D, space: UInt8 = 0x20
        static let quote: UInt8 = 0x22, hash: UInt8 = 0x23, percent: UInt8 = 0x25, amp: UInt8 = 0x26
        static let apos: UInt8 = 0x27, lparen: UInt8 = 0x28, rparen: UInt8 = 0x29, star: UInt8 = 0x2A
        static let comma: UInt8 = 0x2C, dash: UInt8 = 0x2D, dot: UInt8 = 0x2E, slash: UInt8 = 0x2F
        static let colon: UInt8 = 0x3A, semicolon: UInt8 = 0x3B, lt: UInt8 = 0x3C, eq: UInt8 = 0x3D
        static let gt: UInt8 = 0x3E, question: UInt8 = 0x3F, at: UInt8 = 0x40, lbracket: UInt8 = 0x5B
        static let backslash: UInt8 = 0x5C, rbracket: UInt8 = 0x5D, underscore: UInt8 = 0x5F
        static let lbrace: UInt8 = 0x7B, pipe: UInt8 = 0x7C, rbrace: UInt8 = 0x7D, bang: UInt8 = 0x21

        static func isAlpha(_ c: UInt8) -> Bool { (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A }
        static func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
        static func hexValue(_ c: UInt8) -> UInt8? {
            if isDigit(c) { return c - 0x30 }
            let l = c | 0x20
            return l >= 0x61 && l <= 0x66 ? l - 0x61 + 10 : nil
        }
        static func lower(_ c: UInt8) -> UInt8 { c >= 0x41 && c <= 0x5A ? c | 0x20 : c }
        /// ASCII-lowercased text of `bytes`.
        static func lowered<C: Collection<UInt8>>(_ bytes: C) -> String { String(decoding: bytes.map(lower), as: UTF8.self) }
        static func starts(_ b: [UInt8], at i: Int, with s: StaticString) -> Bool {
            let n = s.utf8CodeUnitCount
            guard i >= 0, i <= b.count - n else { return false }
            let p = s.utf8Start
            for k in 0..<n where b[i + k] != p[k] { return false }
            return true
        }
        /// The index of `s` in `b` at or after `from`.
        static func find(_ b: [UInt8], _ s: StaticString, from: Int) -> Int? {
            let n = s.utf8CodeUnitCount
            let first = s.utf8Start[0]
            var i = max(0, from)
            while i <= b.count - n {
                if b[i] == first, starts(b, at: i, with: s) { return i }
                i += 1
            }
            return nil
        }
    }

    enum Text {
        /// A reference or snippet as written, for a one-line message: control characters as character
        /// references, at most 80 characters.
        static func show<C: Collection<UInt8>>(_ bytes: C) -> String {
            var pieces: [String] = []
            for ch in String(decoding: bytes.prefix(400), as: UTF8.self).unicodeScalars {
                if pieces.count == 80 { return pieces.dropLast().joined() + "…" }
                let v = ch.value
                pieces.append(v < 0x20 || v == 0x7F || (0x80..<0xA0).contains(v) || v == 0x2028 || v == 0x2029 ? "&#\(v);" : String(ch))
            }
            return pieces.joined()
        }

        /// `0x7F`, `0x0A`: a byte for people.
        static func hex(_ c: UInt8) -> String { "0x" + (c < 16 ? "0" : "") + String(c, radix: 16, uppercase: true) }
    }
}
