import Foundation

extension SVGReferenceCheck {
    /// A reference read as a URL parser (WHATWG, as librsvg's `url` crate) reads it.
    enum URLText {
        /// Without ASCII tab, LF and CR anywhere, and without C0 controls and spaces at either end.
        static func normalized(_ value: [UInt8]) -> [UInt8] {
            var s = value.filter { $0 != Byte.tab && $0 != Byte.lf && $0 != Byte.cr }
            while let last = s.last, last <= Byte.space { s.removeLast() }
            let lead = s.prefix { $0 <= Byte.space }.count
            s.removeFirst(lead)
            return s
        }

        /// The lowercased scheme (`http` of `http://…`), nil for a relative reference.
        static func scheme(_ s: [UInt8]) -> String? {
            guard let first = s.first, Byte.isAlpha(first) else { return nil }
            for (k, c) in s.enumerated().dropFirst() {
                if c == Byte.colon { return Byte.lowered(s[..<k]) }
                guard Byte.isAlpha(c) || Byte.isDigit(c) || c == 0x2B || c == Byte.dash || c == Byte.dot else { return nil }
            }
            return nil
        }

        /// `c:`, `c|` (a Windows drive letter, which a file URL takes for an absolute path).
        static func startsWithDriveLetter(_ p: [UInt8]) -> Bool {
            guard p.count >= 2, Byte.isAlpha(p[0]), p[1] == Byte.colon || p[1] == Byte.pipe else { return false }
            return p.count == 2 || [Byte.slash, Byte.backslash, Byte.question, Byte.hash].contains(p[2])
        }

        /// `%XX` decoded (a `%` not followed by two hex digits stays).
        static func percentDecoded<C: Collection<UInt8>>(_ s: C) -> [UInt8]? where C.Index == Int {
            var out: [UInt8] = []
            out.reserveCapacity(s.count)
            var i = s.startIndex
            while i < s.endIndex {
                let c = s[i]
                if c == Byte.percent, i + 2 < s.endIndex, let h = Byte.hexValue(s[i + 1]), let l = Byte.hexValue(s[i + 2]) {
                    out.append(h << 4 | l)
                    i += 3
                } else {
                    out.append(c)
                    i += 1
                }
            }
            return out
        }
    }
}
