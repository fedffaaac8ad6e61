import Foundation

/// An image a spec names (`images.on` …), parsed once when the spec loads and drawn by the
/// renderer. The spec model holds it without knowing how it is read or drawn: the render target
/// reads SVG with librsvg (`SVGDocument`) and hands its reader to the loader.
public protocol VectorImage: AnyObject, Sendable {
    /// The name messages and reports use for it (the file as the spec names it).
    var path: String { get }
    /// Intrinsic size in points; 0 × 0 for an empty image.
    var width: Double { get }
    var height: Double { get }
}

extension VectorImage {
    public var isEmpty: Bool { !(width > 0 && height > 0) }
    public var aspectRatio: Double { isEmpty ? 1 : width / height }
}

/// Reads image bytes into a `VectorImage`; bad input is an `InputError` naming the file.
public protocol VectorImageReader: Sendable {
    /// With a `base` file URL, references inside the image resolve (and are confined) to its folder;
    /// without one (built-in images), every reference to a file is refused.
    func read(data: Data, name: String, base: URL?) throws(InputError) -> any VectorImage
}
