import CGlyphSys
import Foundation

/// Every limit the tool puts on its inputs, in one place (docs/limits.md lists them with their
/// reasons). Each is checked before the work it guards, and the message names it.
public enum Limits {
    /// A spec, token file, configuration or other JSON input: 16 MiB. Real token files are a few
    /// hundred KB; the parsed tree costs about 60 bytes per value.
    public static let jsonFileBytes = 16 << 20
    /// A JSON report read back by `merge-reports`: 256 MiB (a report of 50,000 variants is ~60 MB).
    public static let reportFileBytes = 256 << 20
    /// A snapshot folder's `manifest.json`: 256 MiB (about 750 bytes a variant: 51,840 variants
    /// write 37 MiB). Its variant lines are read in chunks of at most 2,048.
    public static let manifestFileBytes = 256 << 20
    /// JSON nesting (objects and arrays inside each other): 128 levels.
    public static let jsonDepth = 128
    /// Values in one JSON document (every string, number, object, … counts one): 1,000,000.
    public static let jsonValues = 1_000_000
    /// Token files one DTCG resolver document may name (each read once, at most `jsonFileBytes`).
    public static let resolverFiles = 256
    /// An SVG image: 8 MiB (librsvg refuses XML past 10 MB; state icons are a few KB).
    public static let svgFileBytes = 8 << 20
    /// A PDF image: 8 MiB, as an SVG (a state icon's PDF is a few KB; poppler parses it whole).
    public static let pdfFileBytes = 8 << 20
    /// A PDF image's streams, decoded (all but images' data; content, forms, fonts, object streams):
    /// 16 MiB in all. A state icon's PDF decodes to a few KB; poppler reads the content again at every
    /// drawing (256 MiB of content takes about a second).
    public static let pdfDecodedBytes = 16 << 20
    /// Form XObjects drawn inside each other in a PDF image: 32 levels (poppler stops at 100).
    public static let pdfFormDepth = 32
    /// XObjects (forms, images) and other content a PDF image's pages draw, counting each time a form
    /// draws another again: 10,000 (a form drawing the next twice, 40 deep, would draw 2^40).
    public static let pdfDraws = 10_000
    /// Content streams a PDF image's drawing reads, counting repeats: 32 MiB.
    public static let pdfDrawnContentBytes = 32 << 20
    /// Image pixels a PDF image's pages draw, counting repeats: 67,108,864 (four images at the PNG
    /// pixel limit). Each image is also held to the PNG limits (`pngSide`, `pngPixels`).
    public static let pdfDrawnPixels = 1 << 26
    /// A PNG file (a baseline, or an input to `diff`): 64 MiB.
    public static let pngFileBytes = 64 << 20
    /// A PNG's width or height, from its header before any pixel is decoded: 8,192 px (png_codec.c
    /// gives libpng the same limit).
    public static let pngSide = 8192
    /// A PNG's width × height (and a diff's canvas): 16,777,216 px (64 MiB of RGBA).
    public static let pngPixels = 1 << 24
    /// A name used in file names (spec, size, theme): at most 64 characters.
    public static let nameLength = 64

    /// The bitmap a PDF of `width` × `height` points rasterises to at display scale `scale`, as Xcode
    /// rasterises an image set's PDF: its size times the scale, rounded up to whole pixels (at least
    /// 1); nil when it would pass the PNG limits (`pngSide`, `pngPixels`), so it is never made.
    public static func rasterPixels(width: Double, height: Double, scale: Int) -> (width: Int, height: Int)? {
        let s = Double(max(1, scale))
        let w = (width * s - 1e-9).rounded(.up), h = (height * s - 1e-9).rounded(.up)
        guard w.isFinite, h.isFinite, w <= Double(pngSide), h <= Double(pngSide) else { return nil }
        let pw = max(1, Int(w)), ph = max(1, Int(h))
        return pw * ph <= pngPixels ? (pw, ph) : nil
    }

    /// "16 MiB", "8 MiB", "512 KiB": a byte count as people read a limit.
    public static func bytes(_ n: Int) -> String {
        if n >= 1 << 20, n % (1 << 20) == 0 { return "\(n >> 20) MiB" }
        if n >= 1 << 10, n % (1 << 10) == 0 { return "\(n >> 10) KiB" }
        return "\(n) bytes"
    }
}

/// Reads input files the careful way: regular files only (never a FIFO, a device, or a file under
/// /proc or /sys, which could block or never end), checked against a size limit before reading, and
/// never more than the limit read even when the file grows meanwhile.
public enum InputFile {
    /// Why a file could not be read; `message` is for people ("no such file", "not a regular file …").
    public struct Failure: Error, Sendable, Equatable {
        public var message: String
        /// The file does not exist, or a folder on its path is a file (callers may word this their own way).
        public var missing: Bool
    }

    /// The bytes of the regular file at `path`, at most `limit` bytes. `what` names the kind of
    /// file in messages ("spec", "SVG image", "PNG").
    public static func read(_ path: String, limit: Int, what: String = "file") throws(Failure) -> Data {
        // O_NONBLOCK: opening a FIFO must not wait for a writer (it is refused below, after fstat).
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { throw Failure(message: "no such file", missing: true) }
            throw Failure(message: "cannot read the \(what): \(String(cString: strerror(code)))", missing: false)
        }
        defer { close(fd) }
        let data = try read(descriptor: fd, limit: limit, what: what)
        InputLog.note(path, data)
        return data
    }

    /// The same for a file already open (`fd`, which the caller closes): the checks are made on the
    /// descriptor that is read, not on a path that may name another file by then.
    public static func read(descriptor fd: Int32, limit: Int, what: String = "file") throws(Failure) -> Data {
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw Failure(message: "cannot read the \(what): \(String(cString: strerror(errno)))", missing: false)
        }
        if let kind = irregularKind(info.st_mode) {
            // "a JSON file", "a token file": `what` may already say "file".
            let noun = what == "file" || what.hasSuffix(" file") ? what : "\(what) file"
            throw Failure(message: kind == folder ? "is a folder, not a \(noun)"
                                                  : "not a regular file (\(kind)); only regular files are read", missing: false)
        }
        // /proc and /sys hold "regular" files whose size says nothing and whose reads may not end
        // (Linux's file system numbers; other systems have neither).
        #if os(Linux)
        switch glyph_fs_type(fd) {
        case 0x9FA0: throw Failure(message: "not a regular file (/proc is not read)", missing: false)
        case 0x6265_6572: throw Failure(message: "not a regular file (/sys is not read)", missing: false)
        default: break
        }
        #endif
        if Int(info.st_size) > limit { throw tooLarge(Int(info.st_size), exact: true, limit, what) }
        // Read up to limit + 1 bytes: a file that grew past the limit since fstat is still refused.
        var out = Data(count: min(Int(info.st_size), limit) + 1)
        var total = 0
        while true {
            if total == out.count {
                if total > limit { throw tooLarge(total, exact: false, limit, what) }
                out.count = min(limit + 1, out.count * 2)
            }
            let n = out.withUnsafeMutableBytes { raw in Foundation.read(fd, raw.baseAddress! + total, raw.count - total) }
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw Failure(message: "cannot read the \(what): \(String(cString: strerror(errno)))", missing: false)
            }
            if n == 0 { break }
            total += n
        }
        if total > limit { throw tooLarge(total, exact: false, limit, what) }
        out.count = total
        return out
    }

    /// `irregularKind`'s word for a folder.
    public static let folder = "a folder"

    /// What a file of this `st_mode` is when it is not a regular file ("a FIFO", "a device", …);
    /// nil for a regular file.
    public static func irregularKind(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: folder
        case S_IFIFO: "a FIFO"
        case S_IFCHR, S_IFBLK: "a device"
        case S_IFSOCK: "a socket"
        default: "a special file"
        }
    }

    private static func tooLarge(_ size: Int, exact: Bool, _ limit: Int, _ what: String) -> Failure {
        let shown = exact ? "\(size) bytes" : "more than \(Limits.bytes(limit))"
        return Failure(message: "the \(what) is \(shown); the limit is \(Limits.bytes(limit)) (docs/limits.md)", missing: false)
    }
}
