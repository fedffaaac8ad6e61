import Foundation

/// An image a spec names (`images.on` …), parsed once when the spec loads and drawn by the
/// renderer. The spec model holds it without knowing how it is read or drawn: the render target
/// reads SVG with librsvg (`SVGDocument`), PNG with libpng (`PNGImage`) and PDF with poppler
/// (`PDFImage`), and hands its reader to the loader. A PNG named in a spec, or an image set of an
/// asset catalog, is an `ImageAsset`: one image with a file per display scale and appearance.
public protocol VectorImage: AnyObject, Sendable {
    /// The name messages and reports use for it (the file as the spec names it).
    var path: String { get }
    /// Intrinsic size in points; 0 × 0 for an empty image.
    var width: Double { get }
    var height: Double { get }
    /// The image drawn at a display scale (`Int.max`: the most detailed one, for vector output and
    /// for measuring the image alone) in a light or dark theme: the image itself, or, for an image
    /// with renditions (`ImageAsset`), the one picked for them.
    func drawn(scale: Int, dark: Bool) -> any VectorImage
    /// The SHA-256 of what is drawn: the file's bytes (an SVG, a PDF), a bitmap's size and pixels,
    /// an image set's renditions. Part of a variant's input digest (the snapshot manifest).
    var contentDigest: String { get }
}

extension VectorImage {
    public var isEmpty: Bool { !(width > 0 && height > 0) }
    public var aspectRatio: Double { isEmpty ? 1 : width / height }
    public func drawn(scale: Int, dark: Bool) -> any VectorImage { self }
}

/// Reads image bytes into a `VectorImage`; bad input is an `InputError` naming the file.
public protocol VectorImageReader: Sendable {
    /// Reads an SVG. With a `base` file URL, references inside the image resolve (and are confined)
    /// to its folder; without one (built-in images), every reference to a file is refused.
    func read(data: Data, name: String, base: URL?) throws(InputError) -> any VectorImage
    /// Reads a PNG drawn at display scale `scale`: its size in points is its size in pixels / `scale`
    /// (as UIImage sizes `on@2x.png`).
    func readPNG(data: Data, name: String, scale: Int) throws(InputError) -> any VectorImage
    /// Reads a PDF, drawn as a vector at every scale: its size in points is its first page's size
    /// (PDF points). `pages` is the document's page count (only the first page is drawn).
    func readPDF(data: Data, name: String) throws(InputError) -> (image: any VectorImage, pages: Int)
    /// A PDF read by `readPDF` rasterised for display scale `scale` (an image set that does not
    /// preserve vector data, as Xcode rasterises it): a bitmap made for that scale.
    func rasterize(_ image: any VectorImage, scale: Int) -> any VectorImage
}

/// One file of an `ImageAsset`.
public struct ImageRendition: Sendable {
    /// The system appearance a file is for, as an asset catalog's `luminosity` says.
    public enum Appearance: String, Sendable, Codable {
        /// No appearance: the file for every theme that has none of its own.
        case any
        case light
        case dark
    }

    public let image: any VectorImage
    /// The display scale it was made for; nil for a vector image (SVG, PDF), which serves every scale.
    public let scale: Int?
    public let appearance: Appearance
    /// An asset catalog entry for high contrast (`{"appearance": "contrast", "value": "high"}`):
    /// drawn only in a high-contrast theme.
    public let highContrast: Bool

    public init(image: any VectorImage, scale: Int?, appearance: Appearance, highContrast: Bool = false) {
        self.image = image
        self.scale = scale
        self.appearance = appearance
        self.highContrast = highContrast
    }
}

/// An image with a file per display scale and appearance: a PNG with its `@2x` / `@3x` siblings, or
/// an asset catalog's image set. Its size in points is the size of its reference rendition (the
/// vector file, else the bitmap of the highest scale, of the light or any appearance).
public final class ImageAsset: VectorImage {
    public let path: String
    public let width: Double
    public let height: Double
    public let renditions: [ImageRendition]
    /// What the image set's `template-rendering-intent` says (true: template), nil when it says
    /// nothing (and for a PNG named directly).
    public let templateIntent: Bool?
    /// The digest of every rendition (its digest, scale, appearance and contrast) and the intent.
    public let contentDigest: String

    public init(path: String, renditions: [ImageRendition], templateIntent: Bool? = nil) {
        precondition(!renditions.isEmpty, "an image asset has at least one rendition")
        self.path = path
        self.renditions = renditions
        self.templateIntent = templateIntent
        let reference = Self.pick(renditions, scale: Int.max, dark: false)
        width = reference.image.width
        height = reference.image.height
        contentDigest = SHA256.hex(renditions.map {
            "\($0.image.contentDigest) \($0.scale.map(String.init) ?? "any") \($0.appearance.rawValue) \($0.highContrast)"
        }.joined(separator: "\n") + "\ntemplate \(templateIntent.map(String.init) ?? "unset")")
    }

    public func drawn(scale: Int, dark: Bool) -> any VectorImage {
        drawn(scale: scale, dark: dark, highContrast: false)
    }

    /// The image drawn at `scale` in a theme of that luminosity and contrast.
    public func drawn(scale: Int, dark: Bool, highContrast: Bool) -> any VectorImage {
        rendition(scale: scale, dark: dark, highContrast: highContrast).image.drawn(scale: scale, dark: dark)
    }

    /// The rendition drawn at `scale` in a light or dark, normal or high-contrast theme (see `pick`).
    public func rendition(scale: Int, dark: Bool, highContrast: Bool = false) -> ImageRendition {
        Self.pick(renditions, scale: scale, dark: dark, highContrast: highContrast)
    }

    /// Whether there is a rendition for the dark appearance.
    public var hasDark: Bool { renditions.contains { $0.appearance == .dark && !$0.highContrast } }

    /// Whether there is a high-contrast rendition.
    public var hasHighContrast: Bool { renditions.contains(where: \.highContrast) }

    /// The renditions of the appearance a theme uses. A high-contrast theme: the high-contrast ones
    /// of its own luminosity, else the high-contrast any ones; without those (and in every other
    /// theme), among the normal-contrast renditions: a dark theme the dark ones, a light theme the
    /// light ones; either, when it has none, the any ones; failing those, the other appearance's.
    public func candidates(dark: Bool, highContrast: Bool = false) -> [ImageRendition] {
        Self.candidates(renditions, dark: dark, highContrast: highContrast)
    }

    static func candidates(_ renditions: [ImageRendition], dark: Bool, highContrast: Bool = false) -> [ImageRendition] {
        let own: ImageRendition.Appearance = dark ? .dark : .light
        if highContrast {
            for appearance in [own, .any] {
                let found = renditions.filter { $0.highContrast && $0.appearance == appearance }
                if !found.isEmpty { return found }
            }
        }
        let normal = renditions.filter { !$0.highContrast }
        for appearance in [own, .any, dark ? .light : .dark] {
            let found = normal.filter { $0.appearance == appearance }
            if !found.isEmpty { return found }
        }
        return renditions
    }

    /// The rendition for `scale`, as UIKit picks a file from an image set: the one made for that
    /// scale; else a vector one (it serves every scale); else the nearest larger scale (scaled down);
    /// else the largest smaller one (scaled up).
    static func pick(_ renditions: [ImageRendition], scale: Int, dark: Bool, highContrast: Bool = false) -> ImageRendition {
        let candidates = Self.candidates(renditions, dark: dark, highContrast: highContrast)
        if let exact = candidates.first(where: { $0.scale == scale }) { return exact }
        if let vector = candidates.first(where: { $0.scale == nil }) { return vector }
        let scaled = candidates.sorted { $0.scale! < $1.scale! }
        return scaled.first { $0.scale! > scale } ?? scaled.last!
    }
}
