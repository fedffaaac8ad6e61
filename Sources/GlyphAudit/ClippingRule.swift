import Foundation
import GlyphColor
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
    the rendered pixels that differ from the surface, at the highest display scale audited, each \
    side placed inside its outermost pixel by the share of that pixel the ink covers (what \
    anti-aliasing drew there), so an image that exactly fills a frame of a fractional size (13.2 pt) \
    is not clipped; image ink less than 1/8 px past the frame is within what the pixels can tell. The \
    label's ink is pango's ink rectangle. A part that reaches more than `tolerance` points beyond a \
    side is clipped. Each finding names one run of consecutive audited Dynamic Type sizes: the first \
    size where it happens and the overflow per side in points there and at the run's last size; \
    where the part fits at sizes in between, each run is a finding of its own and says where it fits.
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

    /// The glyph ink of item `i`: from its glyph's pixels, or (an input without glyphs) from
    /// `glyphInks`, measured on them in the variant's own group.
    static func glyphInk(_ item: PlannedVariant, _ input: AuditInput, _ i: Int) -> Rect? {
        if !input.glyphs.isEmpty { return glyphInk(item, input.glyphs[i]) }
        if item.spec.images == nil { return glyphInk(item, nil) }
        guard let r = input.glyphInks[item.variant.id], r.count == 4 else { return nil }
        return Rect(x: r[0], y: r[1], width: r[2], height: r[3])
    }

    /// The glyph ink of every image glyph of the input (which has glyphs), by variant id: what the
    /// fold over a component's themes reads of a variant group's renders (`[]`: no ink).
    public static func glyphInks(_ input: AuditInput) -> [String: [Double]] {
        guard !input.glyphs.isEmpty else { return [:] }
        var out: [String: [Double]] = [:]
        for (i, item) in input.items.enumerated() where item.spec.images != nil {
            out[item.variant.id] = glyphInk(item, input.glyphs[i]).map { [$0.x, $0.y, $0.width, $0.height] } ?? []
        }
        return out
    }

    /// The glyph's ink in points (an image glyph's from its pixels; nil without them).
    static func glyphInk(_ item: PlannedVariant, _ g: GlyphPixels?) -> Rect? {
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
        guard let g else { return nil }
        return imageInk(g, full: item.scene.parts.first { $0.kind == .image }.flatMap { p in
            p.image?.template == true ? p.color?.seen : nil
        })
    }

    /// The ink of a rendered image in points, each side placed inside its outermost pixel row or
    /// column by how much of that pixel the ink covers (what anti-aliasing drew there): a pixel that
    /// differs from the surface by a fraction of what full ink does is that fraction covered, from
    /// the side the ink comes from. So an image that ends 0.2 px into a pixel ends there, not at the
    /// pixel's far edge. Full ink is `full` composited over the surface (a template image's tint as
    /// seen) or, for an image in its own colours, the pixel that differs most; a pixel's difference
    /// is its largest channel difference. The surface is the cut's corner pixel (outside the glyph).
    static func imageInk(_ g: GlyphPixels, full: RGBA?) -> Rect? {
        guard g.width > 0, g.height > 0 else { return nil }
        let surface = g.pixel(0, 0)
        let s0 = Int(surface & 0xFF), s1 = Int((surface >> 8) & 0xFF), s2 = Int((surface >> 16) & 0xFF), s3 = Int(surface >> 24)
        func difference(_ p: UInt32) -> Int {
            func channel(_ c: UInt32, _ s: Int) -> Int { let d = Int(c) - s; return d < 0 ? -d : d }
            let d0 = channel(p & 0xFF, s0), d1 = channel((p >> 8) & 0xFF, s1)
            let d2 = channel((p >> 16) & 0xFF, s2), d3 = channel(p >> 24, s3)
            let m01 = d0 > d1 ? d0 : d1, m23 = d2 > d3 ? d2 : d3
            return m01 > m23 ? m01 : m23
        }
        var columns = [Int](repeating: 0, count: g.width), rows = [Int](repeating: 0, count: g.height)
        var most = 0
        g.pixels.withUnsafeBufferPointer { px in
            columns.withUnsafeMutableBufferPointer { cb in
                rows.withUnsafeMutableBufferPointer { rb in
                    let p = px.baseAddress!, column = cb.baseAddress!, row = rb.baseAddress!
                    for y in 0..<g.height {
                        var x = 0
                        while x < g.width {
                            let d = difference(p[y * g.width + x])
                            if d > column[x] { column[x] = d }
                            if d > row[y] { row[y] = d }
                            if d > most { most = d }
                            x += 1
                        }
                    }
                }
            }
        }
        guard most > 0, let x0 = columns.firstIndex(where: { $0 > 0 }), let x1 = columns.lastIndex(where: { $0 > 0 }),
              let y0 = rows.firstIndex(where: { $0 > 0 }), let y1 = rows.lastIndex(where: { $0 > 0 }) else { return nil }
        if let full {
            let f = UInt32(RGBA.byte(full.r)) | UInt32(RGBA.byte(full.g)) << 8 | UInt32(RGBA.byte(full.b)) << 16 | UInt32(RGBA.byte(full.a)) << 24
            most = max(most, difference(f))
        }
        func covered(_ d: Int) -> Double { min(1, Double(d) / Double(most)) }
        let s = Double(g.scale)
        let left = Double(g.x0 + x0 + 1) - covered(columns[x0]), right = Double(g.x0 + x1) + covered(columns[x1])
        let top = Double(g.y0 + y0 + 1) - covered(rows[y0]), bottom = Double(g.y0 + y1) + covered(rows[y1])
        return Rect(x: left / s, y: top / s, width: (right - left) / s, height: (bottom - top) / s)
    }

    /// What anti-aliasing leaves unknown about where an image's ink ends, in pixels: the
    /// rasteriser's coverage is exact across a pixel column to 1/256 but down a row to 1/15 (cairo's
    /// scan converter samples 15 lines a pixel), and 8-bit pixels round it. Ink measured from pixels
    /// less than this far (1/8 px: 0.125 pt at @1x, 0.042 pt at @3x) past its frame is not clipping.
    static let antiAliasing = 0.125

    /// One contiguous run of audited Dynamic Type sizes at which a state's part is clipped:
    /// (size, overflow per side, item index, frame, ink) at each size.
    typealias Run = [(DynamicTypeSize, Sides, Int, Rect, Rect)]

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
            // The variants a representative stands for (every theme and scale of its state and size),
            // for the margins kept with the baselines (`AuditMargins`).
            let margins = AuditMargins.current
            var standsFor: [String: [String]] = [:]
            if margins != nil {
                for i in group {
                    let v = input.items[i].variant
                    standsFor["\(v.state.rawValue) \(v.dynamicType.short)", default: []].append(v.id)
                }
            }
            for part in ["glyph", "label"] {
                // Per state: the runs of consecutive audited sizes where it overflows, and the sizes
                // between runs where it does not; states with the same run share a finding.
                var results: [(states: [ControlState], run: Run, gaps: [DynamicTypeSize])] = []
                for state in spec.states {
                    guard let bySize = reps[state] else { continue }
                    var measured: [(DynamicTypeSize, (DynamicTypeSize, Sides, Int, Rect, Rect)?)] = []
                    for dt in bySize.keys.sorted() {
                        let i = bySize[dt]!
                        let item = input.items[i]
                        let frame: Rect, ink: Rect
                        var allowed = tolerance
                        if part == "glyph" {
                            guard let g = Self.glyphInk(item, input, i) else { continue }
                            frame = item.layout.frame
                            ink = g
                            if item.spec.images != nil { allowed += Self.antiAliasing / Double(item.variant.scale) }
                        } else {
                            guard let l = item.layout.label else { continue }
                            frame = l.frame
                            ink = l.ink
                        }
                        let s = frame.overflow(of: ink)
                        if let margins, let ids = standsFor["\(state.rawValue) \(dt.short)"] {
                            margins.record(ids, "clipping.\(part).room", -max(s.top, s.right, s.bottom, s.left))
                        }
                        measured.append((dt, max(s.top, s.right, s.bottom, s.left) > allowed ? (dt, s, i, frame, ink) : nil))
                    }
                    let (runs, gaps) = Self.runs(measured)
                    for run in runs {
                        if let k = results.firstIndex(where: { r in
                            r.gaps == gaps && r.run.count == run.count && zip(r.run, run).allSatisfy { a, b in
                                a.0 == b.0 && Self.same(a.1, b.1)
                            }
                        }) {
                            results[k].states.append(state)
                        } else {
                            results.append(([state], run, gaps))
                        }
                    }
                }
                for r in results {
                    out.append(finding(input, spec, part: part, states: r.states, overflow: r.run, gaps: r.gaps, group: group))
                }
            }
        }
        return out
    }

    /// The runs of consecutive measured sizes that overflow (each a non-empty list, in size order),
    /// and, when there are several, the sizes between the first and the last that fit.
    static func runs<T>(_ measured: [(DynamicTypeSize, T?)]) -> (runs: [[T]], gaps: [DynamicTypeSize]) {
        var runs: [[T]] = [[]]
        var fits: [DynamicTypeSize] = []
        for (size, overflow) in measured {
            if let overflow {
                runs[runs.count - 1].append(overflow)
            } else {
                fits.append(size)
                if !runs[runs.count - 1].isEmpty { runs.append([]) }
            }
        }
        runs.removeAll { $0.isEmpty }
        guard runs.count > 1 else { return (runs, []) }
        let clipped = measured.filter { $0.1 != nil }.map(\.0)
        return (runs, fits.filter { $0 > clipped.first! && $0 < clipped.last! })
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
                 overflow: Run, gaps: [DynamicTypeSize], group: [Int]) -> Finding {
        let first = overflow.first!, last = overflow.last!
        let firstItem = input.items[first.2]
        let sizes = overflow.map(\.0)
        // The id: every theme and scale of the sizes of the run (`*` for the size when they are several).
        let variants = group.map { input.items[$0].variant }.filter { sizes.contains($0.dynamicType) && states.contains($0.state) }
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
        if !gaps.isEmpty { message += " (not at \(Format.sizes(gaps)), where it fits: a separate finding for each run of sizes)" }
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
