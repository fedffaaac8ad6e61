import Foundation
import GlyphColor
import GlyphCore
import GlyphRaster

/// `focus-indicator`: a focused variant's focus indicator is visible. WCAG 2.2 SC 1.4.11 (AA): the
/// ring reaches 3:1 against the colours next to it (the surface, and the control where it touches
/// it). SC 2.4.13 Focus Appearance (AAA, a warning unless `appearanceAsError` is 1): the pixels that
/// change by at least 3:1 between unfocused and focused cover at least the area of a 2 pt thick
/// perimeter of the unfocused control. Measured in rendered pixels, in points, at each scale.
public struct FocusIndicatorRule: AuditRule {
    public init() {}

    public static let ruleID = "focus-indicator"
    public let id = FocusIndicatorRule.ruleID
    public let title = "The focus indicator is visible"
    public let criterion: String? = "1.4.11"
    public let reference = "WCAG 2.2 SC 1.4.11 Non-text Contrast (AA) and SC 2.4.13 Focus Appearance (AAA); "
        + "the SwiftUI seeds' \"system focus indicator baseline (global.focus-visible)\""
    public let defaultSeverity = Severity.error
    public let checks = """
    Runs on a spec with `focus`: each focused variant is compared with the same variant unfocused, \
    both rendered. 1.4.11 (error): the ring's colour as rendered (at the middle of each side, the pixel \
    of its stroke that stands out most from the surface; the worst side counts) must reach \
    `minimumContrast` against the surface and, where the ring touches the control (an offset under one \
    pixel), against the control's outer colour there. 2.4.13 (warning, error with `appearanceAsError` 1): \
    the pixels whose colour changes between unfocused and focused by a contrast ratio of at least \
    `appearanceContrast` (state-shape's pixel comparison, greyscale view: a pixel counts when a \
    neighbour changed too) must cover, in square points (pixels / scale²), at least `perimeterWidth` \
    times the perimeter of the unfocused glyph's outline (a rounded rectangle: 2(w + h) − (8 − 2π)r; \
    a circle: πd). Messages give the ring's colour and its geometric area, the changed area, the \
    required area and the ratios.
    """
    public let fix = """
    Give the ring a colour with 3:1 against every surface it is drawn on (the theme's `focus` colour), \
    make it thicker (`focus.width`) or move it off the control (`focus.offset`) so it does not have to \
    contrast with the control too; a 2 pt ring around the whole control meets 2.4.13's area.
    """
    public let parameters = [
        RuleParameter("minimumContrast", 3, range: 1...21, "1.4.11: the ratio the ring needs against the colours next to it."),
        RuleParameter("appearanceContrast", 3, range: 1...21, "2.4.13: the ratio a pixel must change by between unfocused and focused."),
        RuleParameter("perimeterWidth", 2, range: 0...20, "2.4.13: the thickness, in points, of the perimeter whose area the change must reach."),
        RuleParameter("appearanceAsError", 0, range: 0...1, "1: 2.4.13 (AAA) failures are errors, not warnings."),
    ]

    public func threshold(_ o: RuleOptions) -> String {
        "ring ≥ \(Format.number(o["minimumContrast"])):1 against the surface and the control it touches (1.4.11); pixels changed by "
            + "≥ \(Format.number(o["appearanceContrast"])):1 cover ≥ a \(Format.number(o["perimeterWidth"])) pt perimeter (2.4.13)"
    }

    /// What one focused variant measures.
    public struct Measure: Sendable, Equatable {
        /// The ring as rendered (the worst side's colour), and what it was measured against.
        public var ring: RGBA
        public var surface: RGBA
        /// The control's colour where the ring touches it (nil: it does not).
        public var touching: RGBA?
        public var surfaceRatio: Double
        public var touchingRatio: Double?
        /// The ring's geometric area in pt² (`FocusRing.area`).
        public var ringArea: Double
        /// The area of pixels changed by at least `appearanceContrast`, in pt².
        public var changedArea: Double
        /// The 2.4.13 area: `perimeterWidth` × the unfocused glyph's perimeter, in pt².
        public var required: Double
        public var worstRatio: Double { min(surfaceRatio, touchingRatio ?? .infinity) }
    }

    public func check(_ input: AuditInput, _ o: RuleOptions) -> [Finding] {
        let pairs = Self.pairs(input)
        if pairs.isEmpty { return [] }
        let measures = input.parallelMap(pairs.count) { k in
            Self.measure(input, focused: pairs[k].focused, unfocused: pairs[k].unfocused,
                         appearanceContrast: o["appearanceContrast"], perimeterWidth: o["perimeterWidth"])
        }
        let minimum = o["minimumContrast"], appearance = o["appearanceContrast"]
        if let margins = AuditMargins.current {
            for (k, p) in pairs.enumerated() {
                let v = input.items[p.focused].variant
                guard let m = measures[k], !ContrastCheck.isExempt(v.theme) else { continue }
                margins.record(v.id, "focus-indicator.ring", m.worstRatio)
            }
        }
        // One finding per theme and state: the worst of its Dynamic Type sizes and scales.
        var order: [String] = []
        var groups: [String: [Int]] = [:]
        for (k, p) in pairs.enumerated() {
            let v = input.items[p.focused].variant
            let key = "\(v.preset)/\(v.component)/\(v.theme)/\(v.state.rawValue)"
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(k)
        }
        var out: [Finding] = []
        for key in order {
            let ks = groups[key]!
            let item = input.items[pairs[ks[0]].focused]
            let spec = item.spec
            let location = input.location(spec, "focus")
            let failing = ks.filter { m in measures[m]?.worstRatio ?? .infinity < minimum }
            // A disabled theme's control cannot take focus, and 1.4.11 exempts inactive components:
            // what would fail is reported as info, saying so.
            let theme = input.items[pairs[ks[0]].focused].variant.theme
            let exempt = ContrastCheck.isExempt(theme)
            let exemptNote = exempt ? " (\(theme): an inactive control takes no focus and is exempt)" : ""
            if let worst = failing.min(by: { measures[$0]!.worstRatio < measures[$1]!.worstRatio }) {
                let m = measures[worst]!
                let v = input.items[pairs[worst].focused].variant
                let against = m.touchingRatio.map { t in t < m.surfaceRatio ? "the control's \(m.touching!.hex) it touches" : nil } ?? nil
                var message = "focus ring \(m.ring.hex) is \(Format.ratio(m.surfaceRatio)) on the surface \(m.surface.hex)"
                if let t = m.touchingRatio, let c = m.touching { message += " and \(Format.ratio(t)) on the control's \(c.hex) where it touches it" }
                message += "; 1.4.11 needs \(Format.number(minimum)):1"
                if let against { message += " (worst: \(against))" }
                message += exemptNote
                let sizes = ks.filter { failing.contains($0) }.map { input.items[pairs[$0].focused].variant.dynamicType }
                out.append(Finding(rule: id, severity: exempt ? .info : .error, criterion: "1.4.11",
                                   variant: VariantGroupID.id(failing.map { input.items[pairs[$0].focused].variant }),
                                   subject: "focus ring contrast", message: message,
                                   numbers: ["ratio": m.worstRatio, "required": minimum, "surfaceRatio": m.surfaceRatio,
                                             "touchingRatio": m.touchingRatio ?? 0, "scale": Double(v.scale)],
                                   values: ["ring": m.ring.hex, "surface": m.surface.hex, "touching": m.touching?.hex ?? ""],
                                   sizes: sizes, location: location,
                                   picture: .swatch(foreground: m.ring, background: m.touchingRatio.map { $0 < m.surfaceRatio } == true
                                                        ? m.touching! : m.surface, ratio: m.worstRatio, required: minimum)))
            }
            let short = ks.filter { k in measures[k].map { $0.changedArea < $0.required } ?? false }
            if let worst = short.min(by: { measures[$0]!.changedArea - measures[$0]!.required < measures[$1]!.changedArea - measures[$1]!.required }) {
                let m = measures[worst]!
                let v = input.items[pairs[worst].focused].variant
                let message = "focus indicator changes \(Format.points(m.changedArea)) pt² by ≥ \(Format.number(appearance)):1 "
                    + "(ring \(m.ring.hex) on \(m.surface.hex), \(Format.ratio(m.surfaceRatio)); drawn ring \(Format.points(m.ringArea)) pt²) "
                    + "at @\(v.scale)x; 2.4.13 needs \(Format.points(m.required)) pt² (a \(Format.number(o["perimeterWidth"])) pt perimeter "
                    + "of the unfocused control)" + exemptNote
                out.append(Finding(rule: id, severity: exempt ? .info : o["appearanceAsError"] >= 1 ? .error : .warning, criterion: "2.4.13",
                                   variant: VariantGroupID.id(short.map { input.items[pairs[$0].focused].variant }),
                                   subject: "focus appearance", message: message,
                                   numbers: ["changedArea": m.changedArea, "required": m.required, "ringArea": m.ringArea,
                                             "ratio": m.surfaceRatio, "scale": Double(v.scale)],
                                   values: ["ring": m.ring.hex, "surface": m.surface.hex],
                                   sizes: short.map { input.items[pairs[$0].focused].variant.dynamicType }, location: location,
                                   picture: .focus(unfocused: input.items[pairs[worst].unfocused].variant, focused: v)))
            }
            // Both met: the numbers still reported (info), at the worst size and scale of each.
            if failing.isEmpty, short.isEmpty,
               let c = ks.min(by: { (measures[$0]?.worstRatio ?? .infinity) < (measures[$1]?.worstRatio ?? .infinity) }), let mc = measures[c],
               let a = ks.min(by: { (measures[$0].map { $0.changedArea - $0.required } ?? .infinity)
                                    < (measures[$1].map { $0.changedArea - $0.required } ?? .infinity) }), let ma = measures[a] {
                var message = "focus ring \(mc.ring.hex) is \(Format.ratio(mc.surfaceRatio)) on the surface \(mc.surface.hex)"
                if let t = mc.touchingRatio, let tc = mc.touching { message += " and \(Format.ratio(t)) on the control's \(tc.hex)" }
                message += " (1.4.11 needs \(Format.number(minimum)):1); it changes \(Format.points(ma.changedArea)) pt² by ≥ "
                    + "\(Format.number(appearance)):1 at @\(input.items[pairs[a].focused].variant.scale)x, 2.4.13 needs "
                    + "\(Format.points(ma.required)) pt² (drawn ring \(Format.points(ma.ringArea)) pt²)"
                out.append(Finding(rule: id, severity: .info, criterion: "1.4.11",
                                   variant: VariantGroupID.id(ks.map { input.items[pairs[$0].focused].variant }),
                                   subject: "focus indicator", message: message,
                                   numbers: ["ratio": mc.worstRatio, "required": minimum, "changedArea": ma.changedArea,
                                             "requiredArea": ma.required, "ringArea": ma.ringArea],
                                   values: ["ring": mc.ring.hex, "surface": mc.surface.hex], location: location))
            }
        }
        return out
    }

    /// Each focused item with its unfocused twin (both must be in the input).
    static func pairs(_ input: AuditInput) -> [(focused: Int, unfocused: Int)] {
        input.items.indices.compactMap { i in
            var v = input.items[i].variant
            guard v.focused else { return nil }
            v.focused = false
            return input.index(of: v).map { (i, $0) }
        }
    }

    /// The 2.4.13 area for an outline: `width` × its perimeter (a rounded rectangle's, or a circle's).
    public static func perimeterArea(_ rect: Rect, radius: Double, circle: Bool, width: Double) -> Double {
        if circle { return width * .pi * min(rect.width, rect.height) }
        let r = max(0, min(radius, min(rect.width, rect.height) / 2))
        return width * (2 * (rect.width + rect.height) - (8 - 2 * .pi) * r)
    }

    /// The ring's region cut from both renders (the focused one's canvas; the unfocused render moved
    /// by the focused canvas's padding, the surface beyond its edges).
    public static func crops(_ input: AuditInput, focused i: Int, unfocused j: Int) -> (unfocused: GlyphPixels, focused: GlyphPixels)? {
        let fi = input.items[i]
        guard let ring = Scene.focusRing(spec: fi.spec, layout: fi.layout) else { return nil }
        let s = Double(fi.variant.scale)
        let fr = input.raster(i), ur = input.raster(j)
        let x0 = max(0, Int((ring.outer.minX * s).rounded(.down)) - 2), y0 = max(0, Int((ring.outer.minY * s).rounded(.down)) - 2)
        let x1 = min(fr.width, Int((ring.outer.maxX * s).rounded(.up)) + 2), y1 = min(fr.height, Int((ring.outer.maxY * s).rounded(.up)) + 2)
        let pad = Int((fi.layout.focusPadding * s).rounded())
        var surface: UInt32 = 0
        fr.copyPacked(row: 0, from: 0, count: min(1, fr.width * fr.height), to: &surface)
        let w = max(0, x1 - x0), h = max(0, y1 - y0)
        // The focused render's rows as they are; the unfocused render's moved by the padding, the
        // surface where they fall outside it.
        var f = [UInt32](repeating: 0, count: w * h), u = [UInt32](repeating: surface, count: w * h)
        let ux0 = max(0, x0 - pad), ux1 = min(ur.width, x0 - pad + w)
        if w > 0 {
            f.withUnsafeMutableBufferPointer { fp in
                u.withUnsafeMutableBufferPointer { up in
                    for y in 0..<h {
                        fr.copyPacked(row: y0 + y, from: x0, count: w, to: fp.baseAddress! + y * w)
                        let uy = y0 + y - pad
                        guard uy >= 0, uy < ur.height, ux1 > ux0 else { continue }
                        ur.copyPacked(row: uy, from: ux0, count: ux1 - ux0, to: up.baseAddress! + y * w + ux0 - (x0 - pad))
                    }
                }
            }
        }
        func glyph(_ p: [UInt32]) -> GlyphPixels {
            GlyphPixels(x0: x0, y0: y0, width: w, height: h, scale: fi.variant.scale, pixels: p, redrawn: false, digest: 0)
        }
        return (glyph(u), glyph(f))
    }

    /// Measures one focused variant against its unfocused twin.
    public static func measure(_ input: AuditInput, focused i: Int, unfocused j: Int, appearanceContrast: Double = 3,
                               perimeterWidth: Double = 2) -> Measure? {
        let fi = input.items[i]
        guard let ring = Scene.focusRing(spec: fi.spec, layout: fi.layout), let focus = fi.spec.focus,
              let (u, f) = crops(input, focused: i, unfocused: j) else { return nil }
        let s = Double(fi.variant.scale)
        let surface = GlyphPixels.unpack(f.pixels.first ?? 0)
        func at(_ g: GlyphPixels, _ xp: Double, _ yp: Double) -> RGBA? {
            let x = Int((xp * s).rounded(.down)) - g.x0, y = Int((yp * s).rounded(.down)) - g.y0
            guard x >= 0, y >= 0, x < g.width, y < g.height else { return nil }
            return GlyphPixels.unpack(g.pixel(x, y))
        }
        // Across the stroke at the middle of each side: the pixel that stands out most from the surface.
        let o = ring.outer, wd = ring.width
        let steps = max(1, Int((wd * s).rounded(.up)))
        var sides: [RGBA] = []
        for side in 0..<4 {
            var best: RGBA?
            for k in 0..<steps {
                let d = (Double(k) + 0.5) / s
                let p: (Double, Double) = switch side {
                case 0: (o.midX, o.minY + d)
                case 1: (o.midX, o.maxY - d)
                case 2: (o.minX + d, o.midY)
                default: (o.maxX - d, o.midY)
                }
                guard let c = at(f, p.0, p.1) else { continue }
                if best.map({ contrastRatio(c, surface) > contrastRatio($0, surface) }) ?? true { best = c }
            }
            if let best { sides.append(best) }
        }
        guard let ring0 = sides.min(by: { contrastRatio($0, surface) < contrastRatio($1, surface) }) else { return nil }
        // Where the ring touches the control (offset under a pixel): the unfocused control's colour just inside its outline.
        var touching: RGBA?
        if focus.offset * s < 1 {
            let inner = ring.outer.insetBy(ring.width + focus.offset)
            let half = 0.5 / s
            let probes = [(inner.midX, inner.minY + half), (inner.midX, inner.maxY - half), (inner.minX + half, inner.midY), (inner.maxX - half, inner.midY)]
            touching = probes.compactMap { at(u, $0.0, $0.1) }.min { contrastRatio($0, ring0) < contrastRatio($1, ring0) }
        }
        let t = StateChange.Thresholds(greyRatio: appearanceContrast, colorDistance: 0.12)
        let change = StateChange.measureGrey(u, f, t)
        let grey = StateChange.views.firstIndex(of: .greyscale)!
        let layout = fi.layout
        let circle = fi.spec.control == .checkbox && fi.spec.images == nil && fi.variant.shape == .circle
        let radius = fi.spec.control == .switch && fi.spec.images == nil ? layout.glyph.height / 2 : layout.cornerRadius
        return Measure(ring: ring0, surface: surface, touching: touching, surfaceRatio: contrastRatio(ring0, surface),
                       touchingRatio: touching.map { contrastRatio(ring0, $0) }, ringArea: ring.area,
                       changedArea: change.areas(scale: fi.variant.scale)[grey],
                       required: perimeterArea(layout.glyph, radius: radius, circle: circle, width: perimeterWidth))
    }

    /// The pixels that changed by at least `ratio` between the two crops, in magenta on white (evidence).
    public static func changedPicture(_ u: GlyphPixels, _ f: GlyphPixels, ratio: Double) -> Raster {
        var px = [UInt8](repeating: 255, count: f.width * f.height * 4)
        for k in 0..<(f.width * f.height) where contrastRatio(GlyphPixels.unpack(u.pixels[k]), GlyphPixels.unpack(f.pixels[k])) >= ratio {
            px[k * 4] = 230; px[k * 4 + 1] = 0; px[k * 4 + 2] = 200
        }
        return Raster(width: f.width, height: f.height, pixels: px)
    }
}

extension AuditInput {
    /// The input without focused variants (itself when it has none), for the rules other than
    /// `focus-indicator`: a focused variant draws the unfocused glyph with a ring around it.
    public func withoutFocused() -> AuditInput {
        let keep = items.indices.filter { !items[$0].variant.focused }
        if keep.count == items.count { return self }
        if glyphs.isEmpty && !glyphInks.isEmpty {
            return AuditInput(specs: specs, items: keep.map { items[$0] }, glyphInks: glyphInks, jobs: jobs, drawing: drawing)
        }
        return AuditInput(specs: specs, items: keep.map { items[$0] }, glyphs: glyphs.isEmpty ? [] : keep.map { glyphs.entries[$0] },
                          jobs: jobs, drawing: drawing)
    }
}
