import CCairo
import CPNG
import CRsvg
import Foundation

/// What draws and encodes a render, as the snapshot fingerprint records it (`renderer.json` beside
/// the baselines, docs/snapshots.md): glyphaudit's own render version, the versions of the
/// libraries loaded in this process, and the label fonts pango resolves.
///
/// Only this target sees cairo, librsvg and pango; the snapshot target takes the result as a value
/// (`RendererFingerprint`, built by GlyphPipeline).
public enum RendererVersions {
    /// glyphaudit's render version: **bump it in the commit that changes what a render looks like**
    /// (geometry, drawing, colours, encoder settings), so baselines recorded before it are compared
    /// with tolerance and the change is named, instead of failing as if a token had changed.
    public static let render = 1

    /// cairo's version at run time (`cairo_version_string`).
    public static var cairo: String { String(cString: cairo_version_string()) }

    /// pango's version at run time (`pango_version_string`).
    public static var pango: String { String(cString: pango_version_string()) }

    /// librsvg's version at run time (`rsvg_major_version` …).
    public static var librsvg: String { "\(rsvg_major_version).\(rsvg_minor_version).\(rsvg_micro_version)" }

    /// libpng's version at run time (`png_get_libpng_ver`).
    public static var libpng: String { png_get_libpng_ver(nil).map { String(cString: $0) } ?? PNG_LIBPNG_VER_STRING }

    /// zlib's version at run time (`zlibVersion`, looked up in the process: zlib is loaded as
    /// libpng's dependency, and no header of ours declares it); "unknown" if it cannot be found.
    public static var zlib: String {
        // RTLD_DEFAULT: a null handle in glibc, -2 on Darwin.
        #if os(Linux)
        let everywhere = UnsafeMutableRawPointer(bitPattern: 0)
        #else
        let everywhere = UnsafeMutableRawPointer(bitPattern: -2)
        #endif
        guard let symbol = dlsym(everywhere, "zlibVersion") else { return "unknown" }
        typealias Version = @convention(c) () -> UnsafePointer<CChar>?
        return unsafeBitCast(symbol, to: Version.self)().map { String(cString: $0) } ?? "unknown"
    }

    /// The label fonts: for each weight a label is drawn in (regular, semibold), the font pango
    /// resolves for `PangoText.fontFamilies` (through fontconfig), as "<family and style>
    /// sha256:<hash of the font file's bytes>". Keys `font-regular`, `font-semibold`. A font
    /// that cannot be resolved or read is "none".
    public static var labelFonts: [(key: String, value: String)] {
        [("font-regular", labelFont(bold: false)), ("font-semibold", labelFont(bold: true))]
    }

    /// Every component, in the fingerprint's order.
    public static var components: [(key: String, value: String)] {
        [("glyphaudit-render", "\(render)"), ("cairo", cairo), ("pango", pango), ("librsvg", librsvg),
         ("libpng", libpng), ("zlib", zlib)] + labelFonts
    }

    private static func labelFont(bold: Bool) -> String {
        PangoText.withResolvedFont(bold: bold) { font -> String in
            guard let font else { return "none" }
            // The font's description without its size, e.g. "Inter Semi-Bold".
            let description = pango_font_describe(font)!
            defer { pango_font_description_free(description) }
            pango_font_description_unset_fields(description, PANGO_FONT_MASK_SIZE)
            let text = pango_font_description_to_string(description)!
            defer { g_free(text) }
            let name = String(cString: text)
            // The bytes of the font file as harfbuzz holds them (pango reads the file into a blob).
            guard let hbFont = pango_font_get_hb_font(font), let face = hb_font_get_face(hbFont),
                  let blob = hb_face_reference_blob(face) else { return "\(name) sha256:unknown" }
            defer { hb_blob_destroy(blob) }
            var length: UInt32 = 0
            guard let bytes = hb_blob_get_data(blob, &length), length > 0 else { return "\(name) sha256:unknown" }
            let digest = SHA256.hex(UnsafeRawBufferPointer(start: bytes, count: Int(length)))
            return "\(name) sha256:\(digest)"
        }
    }
}

extension PangoText {
    /// Runs `body` with the font pango loads for a label of this weight (nil when none loads).
    static func withResolvedFont<T>(bold: Bool, _ body: (UnsafeMutablePointer<PangoFont>?) -> T) -> T {
        let fontMap = pango_cairo_font_map_get_default()
        let context = pango_font_map_create_context(fontMap)!
        defer { g_object_unref(UnsafeMutableRawPointer(context)) }
        let description = pango_font_description_from_string(fontFamilies)!
        defer { pango_font_description_free(description) }
        pango_font_description_set_absolute_size(description, 17 * 1024)
        pango_font_description_set_weight(description, bold ? PANGO_WEIGHT_SEMIBOLD : PANGO_WEIGHT_NORMAL)
        guard let font = pango_font_map_load_font(fontMap, context, description) else { return body(nil) }
        defer { g_object_unref(UnsafeMutableRawPointer(font)) }
        return body(font)
    }
}

/// SHA-256 (FIPS 180-4), for the content hash of a font file in the fingerprint.
public enum SHA256 {
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
        var h: [UInt32] = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]
        var w = [UInt32](repeating: 0, count: 64)
        func block(_ p: UnsafeRawBufferPointer) {
            for i in 0..<16 {
                w[i] = UInt32(p[4 * i]) << 24 | UInt32(p[4 * i + 1]) << 16 | UInt32(p[4 * i + 2]) << 8 | UInt32(p[4 * i + 3])
            }
            for i in 16..<64 {
                let s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3)
                let s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10)
                w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
            }
            var (a, b, c, d, e, f, g, hh) = (h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7])
            for i in 0..<64 {
                let t1 = hh &+ (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) &+ ((e & f) ^ (~e & g)) &+ k[i] &+ w[i]
                let t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) &+ ((a & b) ^ (a & c) ^ (b & c))
                (hh, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
            }
            for (i, v) in [a, b, c, d, e, f, g, hh].enumerated() { h[i] = h[i] &+ v }
        }
        let full = bytes.count / 64
        for i in 0..<full { block(UnsafeRawBufferPointer(rebasing: bytes[(64 * i)..<(64 * i + 64)])) }
        // The tail: the remaining bytes, 0x80, zeros, the length in bits (big-endian), in one or two blocks.
        var tail = [UInt8](bytes[(64 * full)...])
        tail.append(0x80)
        while tail.count % 64 != 56 { tail.append(0) }
        let bits = UInt64(bytes.count) &* 8
        for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
        tail.withUnsafeBytes { t in
            for i in 0..<(t.count / 64) { block(UnsafeRawBufferPointer(rebasing: t[(64 * i)..<(64 * i + 64)])) }
        }
        return h.map { v in
            let s = String(v, radix: 16)
            return String(repeating: "0", count: 8 - s.count) + s
        }.joined()
    }

    public static func hex(_ data: Data) -> String { data.withUnsafeBytes { hex($0) } }

    private static func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { x >> n | x << (32 - n) }
}
