import CCairo
import CPNG
import CRsvg
import GlyphCore
import Foundation
import GlyphCore

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
