import Foundation
import GlyphColor
import GlyphCore
import GlyphRaster

/// The image measurement of `nontext-contrast`: an image drawn in its own colours, on its pixels,
/// against the surface.
extension NonTextContrastRule {
    /// How an image drawn in its own colours stands out from the surface, on its rendered pixels.
    struct ImageMeasure: Sendable, Equatable {
        /// Ink pixels next to a non-ink pixel (or the edge of the glyph's area).
        var outline: Int
        /// Outline pixels with a pixel reaching the ratio within one pixel (3 × 3).
        var covered: Int
        /// The highest ratio any pixel reaches against the surface.
        var best: Double

        var share: Double { outline == 0 ? 0 : Double(covered) / Double(outline) }
    }

    /// A pixel is ink when one of its channels (seen over white) is more than this many levels away
    /// from the surface's: 8 of 255, about 3 % coverage of black on white, so the faintest
    /// anti-aliasing does not count as the image's outline.
    static let inkLevels = 8

    /// Measures one glyph: ink, its outline, and how much of the outline is next to ink that reaches
    /// `required` against `surface` (as seen). One pass to classify the pixels (the colour of a
    /// run of equal pixels is classified once), one to walk the outline.
    static func measureImage(_ g: GlyphPixels, surface bg: RGBA, required: Double) -> ImageMeasure {
        let w = g.width, h = g.height, n = w * h
        guard n > 0 else { return ImageMeasure(outline: 0, covered: 0, best: 1) }
        let sr = Int((bg.r * 255).rounded()), sg = Int((bg.g * 255).rounded()), sb = Int((bg.b * 255).rounded())
        let ls = bg.relativeLuminance
        let table = SRGB.linearTable
        let inkLevels = Self.inkLevels
        var flags = [UInt8](repeating: 0, count: n)  // bit 0: ink, bit 1: reaches the ratio
        var best = 1.0
        g.pixels.withUnsafeBufferPointer { px in
            flags.withUnsafeMutableBufferPointer { f in
                var last = ~px[0]
                var flag: UInt8 = 0
                for p in 0..<n {
                    let c = px[p]
                    if c != last {
                        last = c
                        let r: Int, gg: Int, b: Int, l: Double
                        if c >> 24 == 255 {
                            r = Int(c & 0xFF); gg = Int((c >> 8) & 0xFF); b = Int((c >> 16) & 0xFF)
                            l = relativeLuminance(linearR: table[r], linearG: table[gg], linearB: table[b])
                        } else {
                            let o = GlyphPixels.unpack(c).composited(over: .white)
                            r = Int((o.r * 255).rounded()); gg = Int((o.g * 255).rounded()); b = Int((o.b * 255).rounded())
                            l = o.relativeLuminance
                        }
                        let ink = max(abs(r - sr), abs(gg - sg), abs(b - sb)) > inkLevels
                        let ratio = contrastRatio(luminance: l, ls)
                        flag = (ink ? 1 : 0) | (ink && ratio >= required ? 2 : 0)
                        if ink { best = max(best, ratio) }
                    }
                    f[p] = flag
                }
            }
        }
        var outline = 0, covered = 0
        flags.withUnsafeBufferPointer { f in
            for y in 0..<h {
                for x in 0..<w {
                    let p = y * w + x
                    guard f[p] & 1 != 0 else { continue }
                    let edge = x == 0 || y == 0 || x == w - 1 || y == h - 1
                        || f[p - 1] & 1 == 0 || f[p + 1] & 1 == 0 || f[p - w] & 1 == 0 || f[p + w] & 1 == 0
                    guard edge else { continue }
                    outline += 1
                    var near = false
                    for yy in max(0, y - 1)...min(h - 1, y + 1) where !near {
                        for xx in max(0, x - 1)...min(w - 1, x + 1) where f[yy * w + xx] & 2 != 0 {
                            near = true
                            break
                        }
                    }
                    if near { covered += 1 }
                }
            }
        }
        return ImageMeasure(outline: outline, covered: covered, best: best)
    }

    /// Original-colour images: at the highest scale audited (closest to the SVG as authored) the
    /// image's outline must mostly lie next to ink that reaches the ratio against the surface (error;
    /// info for an exempt theme); at a lower scale where only that scale falls short, a warning.
    func imageFindings(_ input: AuditInput, _ required: Double, outlineShare: Double) -> [Finding] {
        let items = input.items
        let candidates = items.indices.filter { i in
            guard let image = items[i].scene.image?.image else { return false }
            return !image.template
        }
        guard !candidates.isEmpty else { return [] }
        // Identical glyphs (the same pixels on the same surface) are measured once.
        struct Job: Hashable { let glyph: Int; let surface: RGBA }
        /// The surface as seen.
        func surface(_ i: Int) -> RGBA { items[i].scene.surfaceSeen }
        var jobs = Interner<Job>()
        var jobOf: [Int: Int] = [:]
        for i in candidates { jobOf[i] = jobs.intern(Job(glyph: input.sameGlyph[i], surface: surface(i))) }
        let todo = jobs.keys
        let measured = input.parallelMap(todo.count) { k in
            Self.measureImage(input.glyphs[todo[k].glyph], surface: todo[k].surface, required: required)
        }
        func measure(_ i: Int) -> ImageMeasure { measured[jobOf[i]!] }
        func fails(_ i: Int) -> Bool { measure(i).share < outlineShare }

        var out: [Finding] = []
        for group in input.groups(of: candidates, by: { [$0.preset, $0.component, $0.theme, $0.state.rawValue] }) {
            let first = items[group[0]]
            let v = first.variant, image = first.scene.image!.image!
            let exempt = ContrastCheck.isExempt(v.theme)
            let doc = image.asset
            let name = image.key
            let top = group.map { items[$0].variant.scale }.max()!
            let atTop = group.filter { items[$0].variant.scale == top }
            let failingTop = atTop.filter(fails)
            let bg = surface(group[0])
            let location = FindingLocation(image.source)
            func describe(_ m: ImageMeasure) -> String {
                "\(Format.percent(m.share, threshold: outlineShare, failsBelow: true)) of its outline is within a pixel of "
                    + "ink reaching \(Format.number(required)):1 (best pixel \(Format.ratio(m.best)))"
            }
            func numbers(_ m: ImageMeasure, scale: Int) -> [String: Double] {
                ["outlineShare": m.share, "requiredShare": outlineShare, "bestPixelRatio": m.best, "required": required,
                 "outlinePixels": Double(m.outline), "scale": Double(scale)]
            }
            // The error (or info): the sizes where the image falls short at the highest scale, at
            // every scale where it falls short there too.
            let shown = exempt ? atTop : failingTop
            if !shown.isEmpty {
                let sizes = Set(shown.map { items[$0].variant.dynamicType })
                let variants = group.filter { sizes.contains(items[$0].variant.dynamicType) && (exempt || fails($0)) }
                let worst = shown.min { measure($0).share < measure($1).share }!
                let m = measure(worst)
                var message = "\(name) image (own colours) on \(bg.hex): \(describe(m)) at @\(top)x"
                if exempt {
                    message += ContrastCheck.exemptNote(v.theme, required: required)
                } else {
                    message += ", needs \(Format.thresholdPercent(outlineShare))"
                }
                if m.outline == 0 { message += "; the image draws nothing that stands out from the surface" }
                out.append(Finding(rule: id, severity: exempt ? .info : defaultSeverity, criterion: criterion,
                                   variant: VariantGroupID.id(variants.map { items[$0].variant }), subject: "\(name) image",
                                   message: message, numbers: numbers(m, scale: top),
                                   values: ["image": doc.path, "background": bg.hex, "theme": v.theme],
                                   sizes: Array(sizes), location: location,
                                   picture: items[worst].layout.image.map { .outline(items[worst].variant, $0) }))
            }
            if exempt { continue }
            // Warnings: lower scales that fall short where the highest scale does not.
            let passingTop = Set(atTop.filter { !fails($0) }.map { items[$0].variant.dynamicType })
            var byScale: [Int: [Int]] = [:]
            for i in group where items[i].variant.scale < top && passingTop.contains(items[i].variant.dynamicType) && fails(i) {
                byScale[items[i].variant.scale, default: []].append(i)
            }
            for scale in byScale.keys.sorted() {
                let ms = byScale[scale]!
                let worst = ms.min { measure($0).share < measure($1).share }!
                let m = measure(worst)
                let sizes = ms.map { items[$0].variant.dynamicType }
                let message = "\(name) image (own colours) on \(bg.hex) stands out at @\(top)x, but at @\(scale)x "
                    + "\(describe(m)), needs \(Format.thresholdPercent(outlineShare)) at \(Format.sizes(sizes))"
                out.append(Finding(rule: id, severity: .warning, criterion: criterion,
                                   variant: VariantGroupID.id(ms.map { items[$0].variant }), subject: "\(name) image pixels",
                                   message: message, numbers: numbers(m, scale: scale),
                                   values: ["image": doc.path, "background": bg.hex, "theme": v.theme],
                                   sizes: sizes, location: location,
                                   picture: items[worst].layout.image.map { .outline(items[worst].variant, $0) }))
            }
        }
        return out
    }
}

/// Image marks drawn in their own colours on a drawn box (an icon set's tick in its own colours):
/// measured on their pixels, as an original-colour image is, against what they sit on.
extension NonTextContrastRule {
    /// One image mark in its own colours, drawn alone at its square's pixel size over the colour
    /// beneath it (the fill, the track, the surface), as the pixels `measureImage` reads.
    static func imageMarkPixels(_ raster: Raster, over bg: RGBA, scale: Int) -> GlyphPixels {
        let base = bg.composited(over: .white)
        let br = (base.r * 255).rounded(), bgc = (base.g * 255).rounded(), bb = (base.b * 255).rounded()
        var out = [UInt32](repeating: 0, count: raster.width * raster.height)
        for i in out.indices {
            let a = Double(raster.pixels[i * 4 + 3]) / 255
            func mix(_ c: UInt8, _ under: Double) -> UInt32 { UInt32((Double(c) * a + under * (1 - a)).rounded()) }
            out[i] = mix(raster.pixels[i * 4], br) | mix(raster.pixels[i * 4 + 1], bgc) << 8 | mix(raster.pixels[i * 4 + 2], bb) << 16 | 255 << 24
        }
        return GlyphPixels(x0: 0, y0: 0, width: raster.width, height: raster.height, scale: scale, pixels: out, redrawn: false, digest: 0)
    }

    /// At the highest scale audited of each spec, every image mark drawn in its own colours: at least
    /// `outlineShare` of its outline must lie within a pixel of ink reaching the ratio against what it
    /// sits on (error; info for an exempt theme). One finding per component, theme, state and mark.
    func imageMarkFindings(_ input: AuditInput, _ required: Double, outlineShare: Double) -> [Finding] {
        let items = input.items
        func marks(_ i: Int) -> [ScenePart] {
            items[i].scene.parts.filter { $0.kind == .mark && $0.mark == .image && $0.image?.template == false }
        }
        let candidates = items.indices.filter { !marks($0).isEmpty }
        guard !candidates.isEmpty else { return [] }
        var top: [String: Int] = [:]
        for i in candidates { top[items[i].variant.preset] = max(top[items[i].variant.preset] ?? 0, items[i].variant.scale) }
        struct Job: Hashable { let asset: ObjectIdentifier; let width: Int; let height: Int; let background: RGBA; let scale: Int; let dark: Bool }
        struct Use { let item: Int; let part: ScenePart; let background: ScenePart?; let job: Int }
        var jobs = Interner<Job>()
        var assets: [ObjectIdentifier: any VectorImage] = [:]
        var uses: [Use] = []
        for i in candidates where items[i].variant.scale == top[items[i].variant.preset] {
            let scene = items[i].scene, s = items[i].variant.scale
            for part in marks(i) {
                guard let image = part.image else { continue }
                let under = scene.beneath(part) ?? scene.surface
                let bg = under?.color?.seen ?? scene.surfaceSeen
                let w = max(1, Int((part.rect.width * Double(s)).rounded())), h = max(1, Int((part.rect.height * Double(s)).rounded()))
                let id = ObjectIdentifier(image.asset)
                assets[id] = image.asset
                uses.append(Use(item: i, part: part, background: under,
                                job: jobs.intern(Job(asset: id, width: w, height: h, background: bg, scale: s, dark: image.dark))))
            }
        }
        let todo = jobs.keys
        let images = assets
        let measured = input.parallelMap(todo.count) { k in
            let j = todo[k]
            let drawn = images[j.asset]!.drawn(scale: j.scale, dark: j.dark)
            let pixels = Self.imageMarkPixels(input.drawing.raster(image: drawn, width: j.width, height: j.height), over: j.background, scale: j.scale)
            return Self.measureImage(pixels, surface: j.background, required: required)
        }
        var out: [Finding] = []
        var order = Interner<[String]>()
        var members: [[Int]] = []
        for (k, u) in uses.enumerated() {
            let v = items[u.item].variant
            let g = order.intern([v.preset, v.component, v.theme, v.state.rawValue, u.part.image?.source.keyPath ?? ""])
            if g == members.count { members.append([]) }
            members[g].append(k)
        }
        for group in members {
            let first = uses[group[0]]
            let theme = items[first.item].variant.theme
            let exempt = ContrastCheck.isExempt(theme)
            let shown = exempt ? group : group.filter { measured[uses[$0].job].share < outlineShare }
            guard !shown.isEmpty else { continue }
            let worst = shown.min { measured[uses[$0].job].share < measured[uses[$1].job].share }!
            let m = measured[uses[worst].job], u = uses[worst]
            let bg = todo[u.job].background
            let on = u.background == nil || u.background?.kind == .surface ? bg.hex : "\(u.background!.name) \(bg.hex)"
            var message = "image mark (own colours) on \(on): \(Format.percent(m.share, threshold: outlineShare, failsBelow: true)) "
                + "of its outline is within a pixel of ink reaching \(Format.number(required)):1 (best pixel \(Format.ratio(m.best))) "
                + "at @\(todo[u.job].scale)x"
            message += exempt ? ContrastCheck.exemptNote(theme, required: required) : ", needs \(Format.thresholdPercent(outlineShare))"
            if m.outline == 0 { message += "; the image draws nothing that stands out from what it sits on" }
            let variants = shown.map { items[uses[$0].item].variant }
            let subject = u.background == nil || u.background?.kind == .surface ? "image mark" : "image mark on \(u.background!.name)"
            out.append(Finding(rule: id, severity: exempt ? .info : defaultSeverity, criterion: criterion,
                               variant: VariantGroupID.id(variants), subject: subject, message: message,
                               numbers: ["outlineShare": m.share, "requiredShare": outlineShare, "bestPixelRatio": m.best,
                                         "required": required, "outlinePixels": Double(m.outline), "scale": Double(todo[u.job].scale)],
                               values: ["image": u.part.image!.asset.path, "background": bg.hex, "theme": theme],
                               sizes: Array(Set(variants.map(\.dynamicType))),
                               location: FindingLocation(u.part.image!.source),
                               picture: .outline(items[u.item].variant, u.part.rect)))
        }
        return out
    }
}
