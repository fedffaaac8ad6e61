import Foundation

/// `image-aspect`: an image glyph is drawn without distortion (the RVS seed: "Images fit the full
/// bounds without distortion").
public struct ImageAspectRule: AuditRule {
    public init() {}

    public let id = "image-aspect"
    public let title = "Images keep their aspect ratio"
    public let criterion: String? = nil
    public let reference = "The RVS_Checkbox seed's \"images fit the full bounds without distortion\" (no WCAG criterion; a distorted mark is harder to recognise)"
    public let defaultSeverity = Severity.error
    public let checks = """
    For image checkboxes: the aspect ratio (width / height) of the rect each state's image is drawn \
    in, against the aspect ratio of the SVG's intrinsic size. More than `tolerance` (1 %) apart is an \
    error. Empty images are skipped.
    """
    public let fix = "Draw the image aspect-fit (scale to fit, centred), never stretched to the frame."
    public let parameters = [
        RuleParameter("tolerance", 0.01, range: 0...1, "How far the drawn aspect ratio may be from the source's, as a fraction."),
    ]

    public func threshold(_ o: RuleOptions) -> String { "drawn aspect within \(Format.percent(o["tolerance"])) of the source's" }

    public func check(_ input: AuditInput, _ o: RuleOptions) -> [Finding] {
        let tolerance = o["tolerance"]
        var out: [Finding] = []
        for group in input.groups(by: { [$0.preset, $0.component, $0.state.rawValue] }) {
            let spec = input.items[group[0]].spec
            guard let images = spec.images else { continue }
            let state = input.items[group[0]].variant.state
            let doc = images.image(for: state)
            if doc.isEmpty { continue }
            let source = doc.aspectRatio
            var failing: [(Int, Double)] = []
            for i in group {
                guard let r = input.items[i].layout.image, r.height > 0 else { continue }
                let drawn = r.width / r.height
                let off = abs(drawn / source - 1)
                if off > tolerance { failing.append((i, off)) }
            }
            guard let worst = failing.max(by: { $0.1 < $1.1 }) else { continue }
            let r = input.items[worst.0].layout.image!
            let name = doc === images.on ? "on" : doc === images.off ? "off" : "clear"
            let sizes = failing.map { input.items[$0.0].variant.dynamicType }
            let message = "the \(name) image (\(Format.points(doc.width)) × \(Format.points(doc.height)), aspect "
                + "\(String(format: "%.3f", source))) is drawn \(Format.points(r.width)) × \(Format.points(r.height)) pt "
                + "(aspect \(String(format: "%.3f", r.width / r.height))), \(String(format: "%.1f%%", worst.1 * 100)) off; "
                + "allowed \(Format.percent(tolerance)); at \(Format.sizes(sizes))"
            out.append(Finding(rule: id, severity: defaultSeverity, criterion: criterion,
                               variant: VariantGroupID.id(failing.map { input.items[$0.0].variant }), subject: "\(name) image",
                               message: message,
                               numbers: ["sourceAspect": source, "drawnAspect": r.width / r.height, "off": worst.1, "tolerance": tolerance],
                               values: ["image": doc.path, "sizes": Format.sizes(sizes)],
                               location: input.location(spec, "images.\(name)"),
                               picture: .outline(input.items[worst.0].variant, r)))
        }
        return out
    }
}
