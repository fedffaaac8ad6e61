import Foundation
import GlyphCore

/// `target-size`: the hit area at each Dynamic Type size — under 24 × 24 pt is an error (WCAG 2.5.8,
/// unless the declared spacing earns its spacing exception), under 44 × 44 pt a warning (Apple HIG).
public struct TargetSizeRule: AuditRule {
    public init() {}

    public let id = "target-size"
    public let title = "Hit area of at least 24 × 24 pt (44 × 44 pt recommended)"
    public let criterion: String? = "2.5.8"
    public let reference = "WCAG 2.2 SC 2.5.8 Target Size (Minimum) (AA); Apple HIG 44 × 44 pt (and SC 2.5.5, AAA)"
    public let defaultSeverity = Severity.error
    public let checks = """
    The hit area as laid out (the frame, the whole row with the label, or a fixed area, per the spec's \
    `hitArea`) at every Dynamic Type size. Narrower or shorter than `minimum` (24 pt) is an error, \
    unless the spec declares `targetSpacing`, the gap to neighbouring targets, and it earns 2.5.8's \
    spacing exception: taking the neighbours to be the same control repeated (a group), 24 pt circles \
    centred on neighbouring targets do not overlap when the short side plus the spacing is at least 24 pt. \
    Narrower or shorter than `recommended` (44 pt, Apple's HIG) is a warning. iOS points are taken as \
    WCAG's CSS pixels (both are 1/160 in at 1x).
    """
    public let fix = """
    Make the whole row tappable (`.contentShape(Rectangle())` on the stack), pad the control to the \
    minimum (`.frame(minWidth: 44, minHeight: 44)`), or space neighbouring controls so the exception \
    applies and declare it with `targetSpacing`.
    """
    public let parameters = [
        RuleParameter("minimum", 24, range: 1...200, "Smallest width and height (pt) before an error (2.5.8: 24)."),
        RuleParameter("recommended", 44, range: 1...200, "Smallest width and height (pt) before a warning (HIG: 44)."),
    ]

    public func threshold(_ o: RuleOptions) -> String {
        "error under \(Format.number(o["minimum"])) × \(Format.number(o["minimum"])) pt (unless the spacing exception applies), "
            + "warning under \(Format.number(o["recommended"])) × \(Format.number(o["recommended"])) pt"
    }

    public func check(_ input: AuditInput, _ o: RuleOptions) -> [Finding] {
        let minimum = o["minimum"], recommended = o["recommended"]
        var out: [Finding] = []
        for group in input.groups(by: { [$0.preset, $0.component] }) {
            let spec = input.items[group[0]].spec
            var area: [DynamicTypeSize: (Rect, Int)] = [:]
            // One per Dynamic Type size (the hit area is the same in every theme and state); the highest
            // scale, so the picture is sharp.
            for i in group {
                let v = input.items[i].variant
                if let (_, j) = area[v.dynamicType], input.items[j].variant.scale >= v.scale { continue }
                area[v.dynamicType] = (input.items[i].layout.hitArea, i)
            }
            if let margins = AuditMargins.current {
                for i in group {
                    let r = input.items[i].layout.hitArea
                    margins.record(input.items[i].variant.id, "target-size", min(r.width, r.height))
                }
            }
            let spacing = spec.targetSpacing
            var errors: [DynamicTypeSize] = [], excepted: [DynamicTypeSize] = [], warnings: [DynamicTypeSize] = []
            for dt in area.keys.sorted() {
                let r = area[dt]!.0
                let short = min(r.width, r.height)
                if short < minimum {
                    if let spacing, short + spacing >= minimum { excepted.append(dt) } else { errors.append(dt) }
                } else if short < recommended {
                    warnings.append(dt)
                }
            }
            func sizeText(_ sizes: [DynamicTypeSize]) -> (String, Rect, Int) {
                let rects = sizes.map { area[$0]!.0 }
                let smallest = sizes.min { min(area[$0]!.0.width, area[$0]!.0.height) < min(area[$1]!.0.width, area[$1]!.0.height) }!
                let (r, i) = area[smallest]!
                let text = rects.count == 1 || Set(rects.map { "\($0.width)x\($0.height)" }).count == 1
                    ? "\(Format.points(r.width)) × \(Format.points(r.height)) pt"
                    : "as small as \(Format.points(r.width)) × \(Format.points(r.height)) pt (\(smallest.short))"
                return (text, r, i)
            }
            let location = input.location(spec, spec.lines["hitArea"] != nil ? "hitArea" : "frame")
            func variants(_ sizes: [DynamicTypeSize]) -> VariantID {
                VariantGroupID.id(group.map { input.items[$0].variant }.filter { sizes.contains($0.dynamicType) })
            }
            if !errors.isEmpty {
                let (text, r, i) = sizeText(errors)
                var message = "hit area \(text) at \(Format.sizes(errors)) is under \(Format.number(minimum)) × \(Format.number(minimum)) pt"
                if let spacing {
                    let needed = minimum - min(r.width, r.height)
                    message += "; targetSpacing \(Format.points(spacing)) pt does not earn the spacing exception (needs \(Format.points(needed)) pt)"
                } else {
                    message += "; no targetSpacing is declared for the spacing exception"
                }
                out.append(Finding(rule: id, severity: .error, criterion: "2.5.8", variant: variants(errors), subject: "hit area",
                                   message: message,
                                   numbers: ["width": r.width, "height": r.height, "minimum": minimum, "targetSpacing": spacing ?? 0],
                                   sizes: errors, location: location,
                                   picture: .hitArea(input.items[i].variant, area: r, minimum: minimum)))
            }
            let small = (excepted + warnings).sorted()
            if !small.isEmpty {
                let (text, r, i) = sizeText(small)
                var message = "hit area \(text) at \(Format.sizes(small)) is under the recommended "
                    + "\(Format.number(recommended)) × \(Format.number(recommended)) pt"
                if !excepted.isEmpty, let spacing {
                    message += "; under \(Format.number(minimum)) pt at \(Format.sizes(excepted)) but 2.5.8's spacing "
                        + "exception applies (targetSpacing \(Format.points(spacing)) pt)"
                }
                out.append(Finding(rule: id, severity: .warning, criterion: excepted.isEmpty ? "2.5.5" : "2.5.8",
                                   variant: variants(small), subject: "hit area (recommended)", message: message,
                                   numbers: ["width": r.width, "height": r.height, "recommended": recommended,
                                             "targetSpacing": spacing ?? 0],
                                   values: ["spacingException": Format.sizes(excepted)], sizes: small,
                                   location: location,
                                   picture: .hitArea(input.items[i].variant, area: r, minimum: recommended)))
            }
        }
        return out
    }
}
