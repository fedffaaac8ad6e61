import Foundation

extension SVGReferenceCheck {
    enum Sniff {
        /// Up to 512 bytes from the start of a regular file (nothing when it cannot be read).
        static func head(_ path: [UInt8]) -> ArraySlice<UInt8> {
            let fd = (path + [0]).withUnsafeBufferPointer { p in
                p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: p.count) { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
            }
            guard fd >= 0 else { return [] }
            defer { close(fd) }
            var buffer = [UInt8](repeating: 0, count: 512)
            var total = 0
            while total < buffer.count {
                let n = buffer.withUnsafeMutableBytes { raw in Foundation.read(fd, raw.baseAddress! + total, raw.count - total) }
                if n < 0, errno == EINTR { continue }
                if n <= 0 { break }
                total += n
            }
            return buffer[..<total]
        }

        static func isGzip(_ b: ArraySlice<UInt8>) -> Bool {
            b.count >= 2 && b[b.startIndex] == 0x1F && b[b.startIndex + 1] == 0x8B
        }

        /// Whether libxml2 would read these bytes as XML: `<` after an optional UTF-8 BOM and
        /// whitespace, or the start of UTF-16, UTF-32 or EBCDIC XML.
        static func isXML(_ b: ArraySlice<UInt8>) -> Bool {
            let a = Array(b.prefix(4))
            let starts: [[UInt8]] = [[0xFE, 0xFF], [0xFF, 0xFE], [0x00, 0x00, 0x00, 0x3C], [0x3C, 0x00, 0x00, 0x00],
                                     [0x00, 0x3C, 0x00, 0x3F], [0x3C, 0x00, 0x3F, 0x00], [0x00, 0x00, 0xFE, 0xFF],
                                     [0x4C, 0x6F, 0xA7, 0x94]]
            if starts.contains(where: { a.starts(with: $0) }) { return true }
            var i = b.startIndex
            if b.count >= 3, b[i] == 0xEF, b[i + 1] == 0xBB, b[i + 2] == 0xBF { i += 3 }
            while i < b.endIndex, [Byte.space, Byte.tab, Byte.lf, Byte.cr].contains(b[i]) { i += 1 }
            return i < b.endIndex && b[i] == Byte.lt
        }
    }
}
