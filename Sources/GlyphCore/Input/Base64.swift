import Foundation

extension SVGReferenceCheck {
    enum Base64 {
        /// Forgiving base64 (ASCII whitespace skipped, padding optional), nil when it is not base64.
        static func decode(_ s: [UInt8]) -> [UInt8]? {
            var out: [UInt8] = []
            out.reserveCapacity(s.count / 4 * 3)
            var acc: UInt32 = 0
            var bits = 0
            var padding = false
            for c in s {
                let v: UInt32
                switch c {
                case 0x41...0x5A: v = UInt32(c - 0x41)
                case 0x61...0x7A: v = UInt32(c - 0x61 + 26)
                case 0x30...0x39: v = UInt32(c - 0x30 + 52)
                case 0x2B: v = 62
                case 0x2F: v = 63
                case Byte.space, Byte.tab, Byte.lf, Byte.cr, 0x0C: continue
                case Byte.eq: padding = true; continue
                default: return nil
                }
                if padding { return nil }
                acc = (acc << 6 | v) & 0xFFFFFF
                bits += 6
                if bits >= 8 {
                    bits -= 8
                    out.append(UInt8(truncatingIfNeeded: acc >> UInt32(bits)))
                }
            }
            return out
        }
    }
}
