import Foundation
import GlyphCore
import GlyphRaster

/// `image-aspect`: an image glyph is drawn without distortion (the RVS seed: "Images fit the full
/// bounds without distortion").
///
/// It measures what is drawn: the ink of each state's image in the render, against the ink of the
/// SVG rendered alone, so it fails for an image stretched by `"contentMode": "scaleToFill"` (or by
/// anything else that distorts it) and passes for one drawn aspect-fit.
public struct ImageAspectRule: AuditRule {
    public init() {}

    public let id = "image-aspect"
    public let title = "Images keep their aspect ratio"
    public let criterion: String? = nil
    public let reference = "The RVS_Checkbox seed's \"images fit the full bounds without distortion\" (no WCAG criterion; a distorted mark is harder to recognise)"
    public let defaultSeverity = Severity.error
    public let checks = """
    For image checkboxes and image switches, at every Dynamic Type size and display scale: the aspect ratio (width / \
    height) of the ink of each state's image as drawn — the bounding box of the image's coverage, \
    the image drawn alone on transparency, to a fraction of a pixel at its edges — against the aspect \
    ratio of the ink of the image file (SVG, PDF or PNG) rendered alone at 512 px. A pixel's rounding is allowed at the scale \
    measured: the drawn aspect is taken as the range it could have with each of the ink's width and \
    height off by up to one pixel (1/scale pt), from (w − 1 px) / (h + 1 px) to (w + 1 px) / (h − 1 px). \
    The image file's aspect more than `tolerance` (1 %) beyond that range is an error. Empty and fully \
    transparent images are skipped.
    """
    public let fix = """
    Draw the image aspect-fit (scaled to fit, centred; `"contentMode": "aspectFit"`, UIImageView's \
    `.scaleAspectFit`), never stretched to the frame (`.scaleToFill`, a UIImageView's default).
    """
    public let parameters = [
        RuleParameter("tolerance", 0.01, range: 0...1, "How far the drawn aspect ratio may be from the source's, as a fraction, beyond the rounding of one pixel on each side."),
    ]

    public func threshold(_ o: RuleOptions) -> String {
        "drawn aspect within \(Format.percent(o["tolerance"])) of the source's, beyond one pixel of rounding on each side"
    }

    /// The aspect ratios (width / height) an ink box of `width` × `height` could have with each of its
    /// sides off by up to `pixel` (one pixel at the scale measured, in the unit of the sides): from
    /// (width − pixel) / (height + pixel) to (width + pixel) / (height − pixel), open above when the
    /// height is no more than a pixel.
    static func aspectRange(width: Double, height: Double, pixel: Double) -> ClosedRange<Double> {
        let low = max(0, width - pixel) / (height + pixel)
        let high = height > pixel ? (width + pixel) / (height - pixel) : .infinity
        return low...high
    }

    /// How far the aspect `source` lies outside `range`, measured as `off` is (|drawn / source − 1|)
    /// from the nearest aspect in it: 0 inside, `1 − upper / source` above, `lower / source − 1` below.
    /// It is within a tolerance `t` exactly when `source` lies in `lower / (1 + t) … upper / (1 − t)`.
    static func offBeyond(source: Double, range: ClosedRange<Double>) -> Double {
        if source > range.upperBound { return 1 - range.upperBound / source }
        if source < range.lowerBound { return range.lowerBound / source - 1 }
        return 0
    }

    /// The longer side, in pixels, the source image is rendered at to measure its own ink.
    static let sourcePixels = 512

    /// The bounding box of the coverage (alpha) in `raster` within `x0..<x1`, `y0..<y1`, in pixels, to a
    /// fraction of a pixel: the outermost rows and columns with ink count by their strongest coverage
    /// (relative to the strongest anywhere), so an edge that covers 40 % of its pixels adds 0.4 px.
    static func inkBox(_ raster: Raster, x0: Int = 0, y0: Int = 0, x1: Int? = nil, y1: Int? = nil) -> Rect? {
        let x1 = min(x1 ?? raster.width, raster.width), y1 = min(y1 ?? raster.height, raster.height)
        let x0 = max(0, x0), y0 = max(0, y0)
        guard x1 > x0, y1 > y0 else { return nil }
        var columns = [UInt8](repeating: 0, count: x1 - x0)
        var rows = [UInt8](repeating: 0, count: y1 - y0)
        raster.pixels.withUnsafeBufferPointer { px in
            for y in y0..<y1 {
                var rowMax: UInt8 = 0
                for x in x0..<x1 {
                    let a = px[(y * raster.width + x) * 4 + 3]
                    if a > rowMax { rowMax = a }
                    if a > columns[x - x0] { columns[x - x0] = a }
                }
                rows[y - y0] = rowMax
            }
        }
        guard let peak = columns.max(), peak > 0 else { return nil }
        func extent(_ profile: [UInt8]) -> (start: Double, length: Double) {
            let first = profile.firstIndex { $0 > 0 }!, last = profile.lastIndex { $0 > 0 }!
            let a = Double(profile[first]) / Double(peak), b = Double(profile[last]) / Double(peak)
            if first == last { return (Double(first) + (1 - a) / 2, a) }
            return (Double(first) + 1 - a, Double(last - first - 1) + a + b)
        }
        let h = extent(columns), v = extent(rows)
        return Rect(x: Double(x0) + h.start, y: Double(y0) + v.start, width: h.length, height: v.length)
    }

    /// The ink box of an SVG rendered alone, aspect-fit, `sourcePixels` on its longer side, in the
    /// document's own units.
    static func sourceInk(_ doc: any VectorImage, drawing: any AuditDrawing) -> Rect? {
        let k = Double(sourcePixels) / max(doc.width, doc.height)
        let w = max(1, Int((doc.width * k).rounded())), h = max(1, Int((doc.height * k).rounded()))
        guard let box = inkBox(drawing.raster(image: doc, width: w, height: h)) else { return nil }
        // librsvg fits the document into the raster keeping its aspect ratio: one scale for both axes.
        let fit = min(Double(w) / doc.width, Double(h) / doc.height)
        return Rect(x: box.x / fit, y: box.y / fit, width: box.width / fit, height: box.height / fit)
    }

    /// The ink box of a variant's image as drawn, in canvas points: the glyph drawn alone on transparency.
    static func drawnInk(_ item: PlannedVariant, drawing: any AuditDrawing) -> Rect? {
        let layout = item.layout
        let s = Double(layout.variant.scale)
        let raster = drawing.raster(item, parts: [.glyph])
        let g = layout.glyph
        guard let box = inkBox(raster, x0: Int((g.minX * s).rounded(.down)) - 1, y0: Int((g.minY * s).rounded(.down)) - 1,
                               x1: Int((g.maxX * s).rounded(.up)) + 1, y1: Int((g.maxY * s).rounded(.up)) + 1) else { return nil }
        return Rect(x: box.x / s, y: box.y / s, width: box.width / s, height: box.height / s)
    }

    public func check(_ input: AuditInput, _ o: RuleOptions) -> [Finding] {
        let tolerance = o["tolerance"]
        var out: [Finding] = []
        var sources: [ObjectIdentifier: Rect?] = [:]
        for group in input.groups(by: { [$0.preset, $0.component, $0.state.rawValue] }) {
            let spec = input.items[group[0]].spec
            guard let images = spec.images else { continue }
            let state = input.items[group[0]].variant.state
            let doc = images.image(for: state)
            if doc.isEmpty { continue }
            let key = ObjectIdentifier(doc)
            if sources[key] == nil { sources[key] = .some(Self.sourceInk(doc, drawing: input.drawing)) }
            guard let sourceInk = sources[key]!, sourceInk.height > 0 else { continue }
            let source = sourceInk.width / sourceInk.height

            // The geometry does not depend on the theme: measure one variant per Dynamic Type size and
            // scale, and the same drawing (same image rect at the same scale) once.
            var byPlace: [String: [Int]] = [:]
            var places: [String] = []
            for i in group {
                let v = input.items[i].variant
                let place = "\(v.dynamicType.short)@\(v.scale)"
                if byPlace[place] == nil { places.append(place) }
                byPlace[place, default: []].append(i)
            }
            let reps = places.map { byPlace[$0]![0] }
            var measured: [String: Rect?] = [:]
            let inks = reps.map { i -> Rect? in
                let item = input.items[i]
                guard let r = item.layout.image else { return nil }
                // Where the image lands relative to the pixel grid decides the drawing too.
                let k = "\(r.x),\(r.y),\(r.width),\(r.height)@\(item.variant.scale)"
                if let hit = measured[k] { return hit }
                let ink = Self.drawnInk(item, drawing: input.drawing)
                measured[k] = .some(ink)
                return ink
            }
            var failing: [(rep: Int, ink: Rect, off: Double, range: ClosedRange<Double>, beyond: Double)] = []
            for (n, i) in reps.enumerated() {
                guard let ink = inks[n], ink.height > 0 else { continue }
                let pixel = 1 / Double(input.items[i].variant.scale)
                let range = Self.aspectRange(width: ink.width, height: ink.height, pixel: pixel)
                let beyond = Self.offBeyond(source: source, range: range)
                if beyond > tolerance { failing.append((i, ink, abs(ink.width / ink.height / source - 1), range, beyond)) }
            }
            guard let worst = failing.max(by: { $0.beyond < $1.beyond }) else { continue }
            let name = images.key(of: doc)
            // Where the image was named, as the scene of the worst variant recorded it.
            let imageLocation = input.items[worst.rep].scene.image?.image.map { FindingLocation($0.source) }
                ?? input.location(spec, "images")
            let variants = failing.flatMap { f -> [Variant] in
                let v = input.items[f.rep].variant
                return byPlace["\(v.dynamicType.short)@\(v.scale)"]!.map { input.items[$0].variant }
            }
            let sizes = failing.map { input.items[$0.rep].variant.dynamicType }
            let drawn = worst.ink.width / worst.ink.height
            let scale = input.items[worst.rep].variant.scale
            let pixel = 1 / Double(scale)
            let mode = images.contentMode == .aspectFit ? "" : " (contentMode \(images.contentMode.rawValue))"
            func aspect(_ a: Double) -> String { a.isFinite ? String(format: "%.3f", a) : "∞" }
            let message = "the \(name) image is drawn\(mode) with its ink \(Format.points(worst.ink.width)) × "
                + "\(Format.points(worst.ink.height)) pt (aspect \(aspect(drawn)); \(aspect(worst.range.lowerBound))–"
                + "\(aspect(worst.range.upperBound)) with each side off by up to 1 px, \(Format.number(pixel)) pt at @\(scale)x); "
                + "the image file's own ink is \(Format.points(sourceInk.width)) × \(Format.points(sourceInk.height)) (aspect \(aspect(source))): "
                + "\(Format.percent(worst.off)) off, \(Format.percent(worst.beyond, threshold: tolerance, failsBelow: false)) beyond "
                + "that pixel; allowed \(Format.thresholdPercent(tolerance)); at \(Format.sizes(sizes))"
            out.append(Finding(rule: id, severity: defaultSeverity, criterion: criterion,
                               variant: VariantGroupID.id(variants), subject: "\(name) image",
                               message: message,
                               // (The range is open above for ink no more than a pixel high: no number then.)
                               numbers: ["sourceAspect": source, "drawnAspect": drawn, "off": worst.off, "tolerance": tolerance,
                                         "pixel": pixel, "drawnAspectLow": worst.range.lowerBound,
                                         "drawnAspectHigh": worst.range.upperBound, "offBeyondPixel": worst.beyond,
                                         "drawnWidth": worst.ink.width, "drawnHeight": worst.ink.height,
                                         "sourceWidth": sourceInk.width, "sourceHeight": sourceInk.height].filter { $0.value.isFinite },
                               values: ["image": doc.path, "contentMode": images.contentMode.rawValue], sizes: sizes,
                               location: images.contentMode == .aspectFit ? imageLocation : input.location(spec, "images.contentMode"),
                               picture: .outline(input.items[worst.rep].variant, worst.ink)))
        }
        return out
    }
}
