import Foundation

extension SVGReferenceCheck {
    enum UTF8Check {
        /// The index of the first byte that is not well-formed UTF-8, from `from`.
        static func firstError(in b: [UInt8], from: Int) -> Int? {
            var i = from
            let n = b.count
            while i < n {
                let c = b[i]
                if c < 0x80 { i += 1; continue }
                var need = 0
                var lo: UInt8 = 0x80, hi: UInt8 = 0xBF
                switch c {
                case 0xC2...0xDF: need = 1
                case 0xE0: need = 2; lo = 0xA0
                case 0xE1...0xEC, 0xEE...0xEF: need = 2
                case 0xED: need = 2; hi = 0x9F
                case 0xF0: need = 3; lo = 0x90
                case 0xF1...0xF3: need = 3
                case 0xF4: need = 3; hi = 0x8F
                default: return i
                }
                guard i + need < n else { return i }
                if b[i + 1] < lo || b[i + 1] > hi { return i }
                for k in 1..<need + 1 where k > 1 && (b[i + k] < 0x80 || b[i + k] > 0xBF) { return i }
                i += need + 1
            }
            return nil
        }
    }
}
