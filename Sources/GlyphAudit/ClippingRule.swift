import Foundation
import GlyphCore

/// `clipping`: ink of the glyph or the label outside its frame at some Dynamic Type size.
public struct ClippingRule: AuditRule {
    public init() {}

    public let id = "clipping"
    public let title = "Glyph and label stay inside their frames"
    public let criterion: String? = "1.4.4"
    public let reference = "WCAG 2.2 SC 1.4.4 Resize Text (AA): no loss of content when text grows; the checkbox seed's \"rather than a fixed point frame that would clip at large sizes\""
    public let defaultSeverity = Severity.error
    public let checks = """
    At every Dynamic Type size: the glyph's ink against the control's frame, and the label's ink \
    against the label's frame (its line box, cut to `maxWidth`). The glyph's ink is its box or track \
    as laid out (a ring, fill and mark never leave the box); for an image it is the bounding box of \
    the rendered pixels that differ from the surface, at the highest display scale audited. The \
    label's ink is pango's ink rectangle. A part that reaches more than `tolerance` points beyond a \
    side is clipped; the finding gives the first Dynamic Type size where it happens and the overflow \
    per side in points there and at the largest size.
    """
    public let fix = """
    Let the frame follow the glyph (hug it, or size it with the text style: `@ScaledMetric`, \
    `UIFontMetrics.scaledValue(for:)`), or let the label wrap instead of cutting it at a fixed width.
    """
    public let parameters = [
        RuleParameter("tolerance", 0.01, range: 0...100, "Overflow (pt) up to which ink outside a frame is ignored."),
    ]

    public func threshold(_ o: RuleOptions) -> String { "no ink more than \(Format.number(o["tolerance"])) pt outside its frame" }

    typealias Sides = (top: Double, right: Double, bottom: Double, left: Double)

    /// The glyph's ink in points.
    static func glyphInk(_ item: PlannedVariant, _ g: GlyphPixels) -> Rect? {
        let layout = item.layout
        guard item.spec.images != nil else {
            let a = layout.appearance
            if item.spec.control == .checkbox, !a.ring, !a.fill {
                let marks = item.scene.parts.filter { $0.kind == .mark }.map(\.rect)
                guard let first = marks.first else { return nil }
                return marks.dropFirst().reduce(first) { $0.union($1) }
            }
            // A drawn switch: its track, and a knob taller than the track.
            if let knob = layout.knob, knob.height > layout.glyph.height { return layout.glyph.union(knob) }
            return layout.glyph
        }
        // Pixels that differ from the surface (the corner of the cut is outside the glyph).
        guard g.width > 0, g.height > 0 else { return nil }
        let surface = g.pixel(0, 0)
        var x0 = Int.max, y0 = Int.max, x1 = -1, y1 = -1
        for y in 0..<g.height {
            for x in 0..<g.width where g.pixel(x, y) != surface {
                x0 = min(x0, x); x1 = max(x1, x); y0 = min(y0, y); y1 = max(y1, y)
            }
        }
        guard x1 >= 0 else { return nil }
        let s = Double(g.scale)
        return Rect(x: Double(g.x0 + x0) / s, y: Double(g.y0 + y0) / s, width: Double(x1 - x0 + 1) / s, height: Double(y1 - y0 + 1) / s)
    }

    public func check(_ input: AuditInput, _ o: RuleOptions) -> [Finding] {
        let tolerance = o["tolerance"]
        var out: [Finding] = []
        for group in input.groups(by: { [$0.preset, $0.component] }) {
            let spec = input.items[group[0]].spec
            // One representative per state and Dynamic Type size: the first theme, the highest scale.
            let firstTheme = input.items[group[0]].variant.theme
            var reps: [ControlState: [DynamicTypeSize: Int]] = [:]
            for i in group {
                let v = input.items[i].variant
                guard v.theme == firstTheme else { continue }
                if let j = reps[v.state]?[v.dynamicType], input.items[j].variant.scale >= v.scale { continue }
                reps[v.state, default: [:]][v.dynamicType] = i
            }
            for part in ["glyph", "label"] {
                // Per state: the overflow at each size; states with the same overflows share a finding.
                var results: [(states: [ControlState], overflow: [(DynamicTypeSize, Sides, Int, Rect, Rect)])] = []
                for state in spec.states {
                    guard let bySize = reps[state] else { continue }
                    var list: [(DynamicTypeSize, Sides, Int, Rect, Rect)] = []
                    for dt in bySize.keys.sorted() {
                        let i = bySize[dt]!
                        let item = input.items[i]
                        let frame: Rect, ink: Rect
                        if part == "glyph" {
                            guard let g = Self.glyphInk(item, input.glyphs[i]) else { continue }
                            frame = item.layout.frame
                            ink = g
                        } else {
                            guard let l = item.layout.label else { continue }
                            frame = l.frame
                            ink = l.ink
                        }
                        let s = frame.overflow(of: ink)
                        if max(s.top, s.right, s.bottom, s.left) > tolerance { list.append((dt, s, i, frame, ink)) }
                    }
                    if list.isEmpty { continue }
                    if let k = results.firstIndex(where: { r in
                        r.overflow.count == list.count && zip(r.overflow, list).allSatisfy { a, b in
                            a.0 == b.0 && Self.same(a.1, b.1)
                        }
                    }) {
                        results[k].states.append(state)
                    } else {
                        results.append(([state], list))
                    }
                }
                for r in results {
                    out.append(finding(input, spec, part: part, states: r.states, overflow: r.overflow, group: group))
                }
            }
        }
        return out
    }

    static func same(_ a: Sides, _ b: Sides) -> Bool {
        abs(a.top - b.top) < 1e-9 && abs(a.right - b.right) < 1e-9 && abs(a.bottom - b.bottom) < 1e-9 && abs(a.left - b.left) < 1e-9
    }

    static func describe(_ s: Sides) -> String {
        var parts: [String] = []
        if s.top > 0 { parts.append("top \(Format.points(s.top))") }
        if s.right > 0 { parts.append("right \(Format.points(s.right))") }
        if s.bottom > 0 { parts.append("bottom \(Format.points(s.bottom))") }
        if s.left > 0 { parts.append("left \(Format.points(s.left))") }
        return parts.joined(separator: ", ") + " pt"
    }

    func finding(_ input: AuditInput, _ spec: Spec, part: String, states: [ControlState],
                 overflow: [(DynamicTypeSize, Sides, Int, Rect, Rect)], group: [Int]) -> Finding {
        let first = overflow.first!, last = overflow.last!
        let firstItem = input.items[first.2]
        let sizes = overflow.map(\.0)
        // The id: every theme and scale of the first size where it happens.
        let variants = group.map { input.items[$0].variant }.filter { $0.dynamicType == first.0 && states.contains($0.state) }
        let frame = first.3
        let what = part == "glyph" ? "glyph ink" : "label ink"
        let frameName: String
        if part == "glyph" {
            frameName = "its \(Format.points(frame.width)) × \(Format.points(frame.height)) pt frame"
        } else if let maxWidth = spec.label?.maxWidth, let l = firstItem.layout.label, l.box.width > maxWidth {
            frameName = "its \(Format.points(maxWidth)) pt maximum width"
        } else {
            frameName = "its line box"
        }
        var message = "\(what) reaches outside \(frameName) from \(first.0.short) (\(Self.describe(first.1)))"
        if last.0 != first.0 { message += "; at \(last.0.short): \(Self.describe(last.1))" }
        message += "; clipped at \(Format.sizes(sizes))"
        let keyPath: String
        if part == "glyph" {
            keyPath = spec.frame == .hug ? "sizes.\(firstItem.variant.size)" : "frame"
        } else {
            keyPath = spec.label?.maxWidth != nil ? "label.maxWidth" : "label"
        }
        return Finding(rule: id, severity: defaultSeverity, criterion: criterion, variant: VariantGroupID.id(variants),
                       subject: part, message: message,
                       numbers: ["top": first.1.top, "right": first.1.right, "bottom": first.1.bottom, "left": first.1.left,
                                 "worst.top": last.1.top, "worst.right": last.1.right, "worst.bottom": last.1.bottom,
                                 "worst.left": last.1.left],
                       values: ["firstSize": first.0.short, "worstSize": last.0.short,
                                "states": states.map(\.rawValue).joined(separator: ",")],
                       sizes: sizes,
                       location: input.location(spec, keyPath),
                       picture: .overflow(input.items[last.2].variant, frame: last.3, ink: last.4))
    }
}
