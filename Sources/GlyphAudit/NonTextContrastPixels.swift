import Foundation
import GlyphColor
import GlyphCore

/// The pixel measurement of `nontext-contrast`: a ring, mark or tint that reaches the ratio as
/// authored, but no rendered pixel of which does at some display scale.
extension NonTextContrastRule {
    /// A region of the glyph and the colour its part must stand out from.
    struct PixelPart {
        var subject: String
        var region: Rect
        var exclude: Rect?
        /// The seen colour of what the part stands on.
        var background: RGBA
        var authoredRatio: Double
        var width: Double
        /// The part's colour (as authored, and where it was written).
        var color: SceneColor
    }

    static func pixelParts(_ item: PlannedVariant, required: Double) -> [PixelPart] {
        let scene = item.scene, layout = item.layout
        // A drawn switch's track and knob are filled areas, never thinner than a pixel, but its marks
        // may be; an image switch's tint is measured.
        guard scene.control == .checkbox || scene.image != nil || scene.parts.contains(where: { $0.kind == .mark }) else { return [] }
        var out: [PixelPart] = []
        for m in measured(scene) {
            let color = m.part.color!, background = m.background.color!.seen
            let ratio = ContrastCheck.ratio(color, on: m.background.color!)
            guard ratio >= required else { continue }
            switch m.part.kind {
            case .ring:
                out.append(PixelPart(subject: m.subject, region: m.part.rect, exclude: layout.appearance.mark != .none ? layout.mark : nil,
                                     background: background, authoredRatio: ratio, width: m.part.lineWidth, color: color))
            case .mark:
                out.append(PixelPart(subject: m.subject, region: m.part.rect, exclude: nil, background: background,
                                     authoredRatio: ratio, width: m.part.lineWidth, color: color))
            case .image:
                out.append(PixelPart(subject: m.subject, region: m.part.rect, exclude: nil, background: background,
                                     authoredRatio: ratio, width: 0, color: color))
            default:
                break
            }
        }
        return out
    }

    /// The highest ratio any pixel of `region` (minus `exclude`) reaches against `background`.
    static func bestPixelRatio(_ g: GlyphPixels, region: Rect, exclude: Rect?, background: RGBA) -> Double {
        let s = Double(g.scale)
        let x0 = max(0, Int((region.minX * s).rounded(.down)) - g.x0), x1 = min(g.width, Int((region.maxX * s).rounded(.up)) - g.x0)
        let y0 = max(0, Int((region.minY * s).rounded(.down)) - g.y0), y1 = min(g.height, Int((region.maxY * s).rounded(.up)) - g.y0)
        guard x0 < x1, y0 < y1 else { return 1 }
        var ex = (x0: 0, x1: 0, y0: 0, y1: 0)
        if let e = exclude {
            // Only pixels wholly inside the excluded rect are skipped.
            ex = (Int((e.minX * s).rounded(.up)) - g.x0, Int((e.maxX * s).rounded(.down)) - g.x0,
                  Int((e.minY * s).rounded(.up)) - g.y0, Int((e.maxY * s).rounded(.down)) - g.y0)
        }
        let bl = background.relativeLuminance
        let table = SRGB.linearTable
        var lo = bl, hi = bl
        var cache: [UInt32: Double] = [:]
        for y in y0..<y1 {
            for x in x0..<x1 {
                if x >= ex.x0 && x < ex.x1 && y >= ex.y0 && y < ex.y1 { continue }
                let p = g.pixel(x, y)
                let l: Double
                if p >> 24 == 255 {
                    l = relativeLuminance(linearR: table[Int(p & 0xFF)], linearG: table[Int((p >> 8) & 0xFF)],
                                          linearB: table[Int((p >> 16) & 0xFF)])
                } else if let hit = cache[p] {
                    l = hit
                } else {
                    l = GlyphPixels.unpack(p).composited(over: .white).relativeLuminance
                    cache[p] = l
                }
                lo = min(lo, l)
                hi = max(hi, l)
            }
        }
        return max(contrastRatio(luminance: lo, bl), contrastRatio(luminance: hi, bl))
    }

    func pixelFindings(_ input: AuditInput, _ required: Double) -> [Finding] {
        struct Miss: Sendable {
            let index: Int
            let subject: String
            let best: Double
            let authored: Double
            let region: Rect
            let width: Double
            let color: SceneColor
            let background: RGBA
        }
        let items = input.items
        // What each variant needs measured; identical glyphs (the same pixels, region and background)
        // are measured once.
        struct Job: Hashable {
            let glyph: Int
            let subject: String
            let region: [Double]
            let exclude: [Double]
            let background: RGBA
        }
        var jobs = Interner<Job>()
        var wanted: [(item: Int, part: PixelPart, job: Int)] = []
        for (i, item) in items.enumerated() {
            guard !ContrastCheck.isExempt(item.variant.theme) else { continue }
            let g = input.glyphs.frame(i), s = Double(g.scale)
            func rel(_ r: Rect?) -> [Double] {
                guard let r else { return [] }
                return [r.minX * s - Double(g.x0), r.minY * s - Double(g.y0), r.width * s, r.height * s]
            }
            for part in Self.pixelParts(item, required: required) {
                let job = Job(glyph: input.sameGlyph[i], subject: part.subject, region: rel(part.region), exclude: rel(part.exclude),
                              background: part.background)
                wanted.append((i, part, jobs.intern(job)))
            }
        }
        let work = wanted
        let firstOfJob = Dictionary(work.map { ($0.job, $0) }, uniquingKeysWith: { a, _ in a })
        let best = input.parallelMap(jobs.keys.count) { k -> Double in
            let w = firstOfJob[k]!
            return Self.bestPixelRatio(input.glyphs[w.item], region: w.part.region, exclude: w.part.exclude, background: w.part.background)
        }
        let misses = work.compactMap { w -> Miss? in
            best[w.job] < required ? Miss(index: w.item, subject: w.part.subject, best: best[w.job], authored: w.part.authoredRatio,
                                          region: w.part.region, width: w.part.width,
                                          color: w.part.color, background: w.part.background) : nil
        }
        // One warning per part, theme, state, component and scale, listing the Dynamic Type sizes.
        var order: [String] = []
        var byKey: [String: [Miss]] = [:]
        for m in misses {
            let v = items[m.index].variant
            let key = "\(v.preset)/\(v.component)/\(v.theme)/\(v.state.rawValue)@\(v.scale)/\(m.subject)"
            if byKey[key] == nil { order.append(key) }
            byKey[key, default: []].append(m)
        }
        return order.map { key in
            let ms = byKey[key]!
            let worst = ms.min { $0.best < $1.best }!
            let item = items[worst.index]
            let v = item.variant
            let sizes = ms.map { items[$0.index].variant.dynamicType }
            let stroke = worst.width > 0 ? " \(Format.points(worst.width)) pt" : ""
            let message = "\(worst.subject)\(stroke) reaches \(Format.ratio(worst.authored)) as authored, but at @\(v.scale)x "
                + "no pixel of it reaches \(Format.number(required)):1 (best \(Format.ratio(worst.best))) at \(Format.sizes(sizes))"
            let location = FindingLocation(worst.color.source)
            var finding = Finding(rule: id, severity: .warning, criterion: criterion,
                                  variant: VariantGroupID.id(ms.map { items[$0.index].variant }), subject: "\(worst.subject) pixels",
                                  message: message,
                                  numbers: ["bestPixelRatio": worst.best, "ratio": worst.authored, "required": required, "scale": Double(v.scale)],
                                  sizes: sizes, location: location, picture: .outline(v, worst.region))
            // The best pixel is the colour drawn at some coverage over the background: the colour
            // whose best pixel, at that coverage, reaches the ratio.
            let coverage = ContrastSuggestion.coverage(of: worst.color.authored, on: worst.background, drawnRatio: worst.best)
            finding.suggestion = ColorFix(part: worst.subject, foreground: worst.color.authored, background: worst.background,
                                          required: required, coverage: coverage, location: location)
            return finding
        }
    }
}
