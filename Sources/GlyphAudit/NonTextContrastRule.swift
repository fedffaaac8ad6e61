import Foundation
import GlyphColor
import GlyphCore

/// `nontext-contrast` (WCAG 1.4.11 Non-text Contrast): the parts that identify the control and its
/// state reach 3:1 against the colours next to them, from the authored colours; and a warning when
/// a thin stroke that reaches 3:1 as authored never does in any rendered pixel at some scale.
public struct NonTextContrastRule: AuditRule {
    public init() {}

    public let id = "nontext-contrast"
    public let title = "Control parts reach 3:1 against adjacent colours"
    public let criterion: String? = "1.4.11"
    public let reference = "WCAG 2.2 SC 1.4.11 Non-text Contrast (AA); the switch seed's \"off-state fill maintains at least 3:1\""
    public let defaultSeverity = Severity.error
    public let checks = """
    From the authored colours of each theme and state (translucent colours composited over what lies \
    under them, ratios never rounded): the box's boundary against the surface (the ring when it is \
    hollow; the ring or the fill, whichever is stronger, when it is filled), the mark (tick, dash) \
    against the fill or surface around it, a template image's tint against the surface (image \
    checkboxes and image switches alike), the switch's off and on track against the surface, and the knob against the track. A theme named `disabled` \
    (or `disabled-…`) is exempt (1.4.11 exempts inactive components): its ratios are reported as info. \
    Also from the rendered pixels: when a ring, mark or image reaches the ratio as authored but no \
    pixel of it does at some display scale (a stroke thinner than a pixel is blended with the surface), \
    a warning names the scale and sizes — that is what people see on such a screen. An image drawn in \
    its own colours (not template) is measured on its pixels: its ink is every pixel more than 8 levels \
    away from the surface in some channel, its outline the ink pixels next to a non-ink pixel, and at \
    least `imageOutlineShare` (half) of the outline must lie within one pixel of ink that reaches the \
    ratio against the surface. At the highest scale audited (the image closest to its SVG) a shortfall \
    is an error; at a lower scale where only that scale falls short, a warning. For every pair of \
    states drawn with different original-colour images, what changes (the tick, the dot, the fill) \
    must reach the ratio against the colours next to it: at the highest scale audited, at least \
    `imageOutlineShare` of the edges that touch a changed pixel (neighbouring pixels more than 8 levels \
    apart in either state) reach it across the edge, one pixel further out on each side counted too.
    """
    public let fix = """
    Darken (on light surfaces) or lighten (on dark surfaces) the failing colour until it reaches the \
    ratio (each finding names the nearest colour that does, same hue and chroma); for a switch, give the off track a colour or a border that reaches 3:1 against the surface; \
    for an original-colour image, outline it (or most of it) in a colour that reaches 3:1 in the SVG, \
    and draw what shows the state (tick, dot, fill) in a colour that reaches 3:1 against what it sits on. \
    For the pixel warning, draw the stroke at least one pixel wide at @1x (e.g. 1 pt instead of 0.5 pt),     or use the darker colour the finding names.
    """
    public let parameters = [
        RuleParameter("minimumRatio", 3, range: 1...21, "The contrast ratio the parts must reach (1.4.11: 3)."),
        RuleParameter("imageOutlineShare", 0.5, range: 0...1,
                      "Original-colour images: the share of the image's outline that must lie within one pixel of "
                          + "ink reaching minimumRatio against the surface."),
    ]

    public func threshold(_ o: RuleOptions) -> String {
        "\(Format.number(o["minimumRatio"])):1 against the adjacent colour; an original-colour image: "
            + "\(Format.thresholdPercent(o["imageOutlineShare"])) of its outline next to ink reaching it"
    }

    static func isExempt(_ theme: String) -> Bool { theme == "disabled" || theme.hasPrefix("disabled-") }

    /// One part measured against the colour next to it.
    struct Part {
        var subject: String
        /// What the part is called in a message ("knob"); the subject adds what it stands on.
        var name: String
        /// The authored colours (for the message) and what they look like composited.
        var foreground: RGBA
        var foregroundSeen: RGBA
        var background: RGBA
        var backgroundName: String
        var role: ColorRole
        /// A second candidate that may carry the boundary instead (a filled box's fill vs its ring).
        var alternative: (color: RGBA, seen: RGBA, role: ColorRole, name: String)?
    }

    public func check(_ input: AuditInput, _ o: RuleOptions) -> [Finding] {
        let required = o["minimumRatio"]
        var out: [Finding] = []
        out.append(contentsOf: pixelFindings(input, required))
        out.append(contentsOf: imageFindings(input, required, outlineShare: o["imageOutlineShare"]))
        out.append(contentsOf: indicatorFindings(input, required, share: o["imageOutlineShare"]))
        return out
    }

    public func checkAcrossComponents(_ input: AuditInput, _ o: RuleOptions) -> [Finding] {
        let required = o["minimumRatio"]
        var out: [Finding] = []
        // Authored colours: the same at every Dynamic Type size and scale. Which parts there are
        // depends on the size (a size without a border has no ring), so each size is measured, and
        // the sizes that measure the same are reported together.
        let groups = input.groups { v in [v.preset, v.theme, v.state.rawValue] }
        // The same colours on the same background (other sizes, states, themes) suggest the same colour.
        var suggestions: [String: ColorFix?] = [:]
        for group in groups {
            let item = input.items[group[0]]
            let spec = item.spec, v = item.variant
            guard let theme = spec.theme(named: v.theme) else { continue }
            var merged: [(finding: Finding, variants: [Variant])] = []
            for bySize in input.groups(of: group, by: { $0.size }) {
                let variants = bySize.map { input.items[$0].variant }
                let size = spec.size(named: variants[0].size)
                for part in Self.parts(spec, size: size, theme: theme, state: v.state) {
                    for f in authoredFinding(input, spec, theme, v.state, part, variants, required, &suggestions) {
                        if let k = merged.firstIndex(where: { Self.sameMeasurement($0.finding, f) }) {
                            merged[k].variants += variants
                            merged[k].finding.variant = VariantGroupID.id(merged[k].variants)
                        } else {
                            merged.append((f, variants))
                        }
                    }
                }
            }
            out.append(contentsOf: merged.map(\.finding))
        }
        return out
    }

    /// Two findings of different sizes that say the same thing about the same colours.
    static func sameMeasurement(_ a: Finding, _ b: Finding) -> Bool {
        a.subject == b.subject && a.message == b.message && a.severity == b.severity && a.numbers == b.numbers
            && a.values == b.values && a.location == b.location && a.suggestion == b.suggestion
    }

    static func seen(_ c: RGBA, over bg: RGBA) -> RGBA { c.composited(over: bg) }

    /// The parts of a control of one size in one state, each with its adjacent colour.
    static func parts(_ spec: Spec, size: SizeSpec?, theme: ThemeSpec, state: ControlState) -> [Part] {
        func color(_ r: ColorRole) -> RGBA? { theme.color(r, state: state)?.rgba }
        guard let surfaceAuthored = color(.surface) else { return [] }
        let surface = seen(surfaceAuthored, over: .white)
        let surfaceName = "surface"
        var parts: [Part] = []
        // An image checkbox or image switch (toggle icons): the template tint against the surface
        // (original-colour images are measured on their pixels).
        if let images = spec.images {
            if images.template, let tint = color(.tint) {
                parts.append(Part(subject: "image (tint)", name: "image tint", foreground: tint, foregroundSeen: seen(tint, over: surface),
                                  background: surface, backgroundName: surfaceName, role: .tint))
            }
            return parts
        }
        if spec.control == .switch {
            let trackRole: ColorRole = state == .on ? .trackOn : .trackOff
            let trackName = state == .on ? "on track" : "off track"
            if let track = color(trackRole) {
                let trackSeen = seen(track, over: surface)
                var part = Part(subject: trackName, name: trackName, foreground: track, foregroundSeen: trackSeen, background: surface,
                                backgroundName: surfaceName, role: trackRole)
                if let size, size.borderWidth > 0, let border = color(.border) {
                    part.alternative = (border, seen(border, over: trackSeen), .border, "border")
                }
                parts.append(part)
                if let knob = color(.knob) {
                    parts.append(Part(subject: "knob on \(trackName)", name: "knob", foreground: knob, foregroundSeen: seen(knob, over: trackSeen),
                                      background: trackSeen, backgroundName: trackName, role: .knob))
                }
            }
            return parts
        }
        let a = spec.appearance(state)
        var fillSeen: RGBA?
        if a.fill, let fill = color(.fill) { fillSeen = seen(fill, over: surface) }
        let ring = a.ring && (size?.borderWidth ?? 0) > 0 ? color(.border) : nil
        if let fill = color(.fill), let fillSeen {
            var part = Part(subject: "fill", name: "fill", foreground: fill, foregroundSeen: fillSeen, background: surface,
                            backgroundName: surfaceName, role: .fill)
            if let ring { part.alternative = (ring, seen(ring, over: fillSeen), .border, "ring") }
            parts.append(part)
        } else if let ring {
            parts.append(Part(subject: "ring", name: "ring", foreground: ring, foregroundSeen: seen(ring, over: surface), background: surface,
                              backgroundName: surfaceName, role: .border))
        }
        if a.mark != .none, let mark = color(.mark) {
            let bg = fillSeen ?? surface
            let name = a.mark == .check ? "tick" : "dash"
            parts.append(Part(subject: fillSeen != nil ? "\(name) on fill" : name, name: name, foreground: mark,
                              foregroundSeen: seen(mark, over: bg), background: bg,
                              backgroundName: fillSeen != nil ? "fill" : surfaceName, role: .mark))
        }
        return parts
    }

    /// The role of a part's background, by its name in messages.
    static let backgroundRoles: [String: ColorRole] = ["surface": .surface, "fill": .fill, "on track": .trackOn, "off track": .trackOff]

    /// The notes of the colours a finding measures (a wide-gamut token colour mapped into sRGB), for
    /// its message: " (fill: display-p3 (1, 0, 1) is outside sRGB; gamut-mapped …)", or "".
    static func colorNotes(_ theme: ThemeSpec, _ state: ControlState, _ roles: [ColorRole?]) -> String {
        var seen: Set<ColorRole> = []
        let notes = roles.compactMap { $0 }.filter { seen.insert($0).inserted }.compactMap { role in
            theme.color(role, state: state)?.note.map { "\(role.rawValue): \($0)" }
        }
        return notes.isEmpty ? "" : " (\(notes.joined(separator: "; ")))"
    }

    static func describe(_ authored: RGBA, _ seen: RGBA) -> String {
        authored.a < 1 ? "\(authored.hex) (\(seen.hex) as seen)" : authored.hex
    }

    func authoredFinding(_ input: AuditInput, _ spec: Spec, _ theme: ThemeSpec, _ state: ControlState, _ part: Part,
                         _ variants: [Variant], _ required: Double, _ suggestions: inout [String: ColorFix?]) -> [Finding] {
        var ratio = contrastRatio(part.foregroundSeen, part.background)
        var role = part.role
        // "on #FFFFFF" for the surface, "on fill #E00800" for anything else.
        let on = part.backgroundName == "surface" ? part.background.hex : "\(part.backgroundName) \(part.background.hex)"
        var what = "\(part.name) \(Self.describe(part.foreground, part.foregroundSeen)) on \(on)"
        var numbers: [String: Double] = [:]
        if let alt = part.alternative {
            let altRatio = contrastRatio(alt.seen, part.background)
            numbers["ratio.\(part.subject)"] = ratio
            numbers["ratio.\(alt.name)"] = altRatio
            if altRatio > ratio {
                what = "\(part.name) \(Self.describe(part.foreground, part.foregroundSeen)) and its \(alt.name) "
                    + "\(Self.describe(alt.color, alt.seen)) on \(on): the \(alt.name)"
                ratio = altRatio
                role = alt.role
            } else {
                what = "\(part.name) \(Self.describe(part.foreground, part.foregroundSeen)) (its \(alt.name) "
                    + "\(Self.describe(alt.color, alt.seen)) is \(Format.ratio(altRatio))) on \(on)"
            }
        }
        numbers["ratio"] = ratio
        numbers["required"] = required
        let exempt = Self.isExempt(theme.name)
        if ratio >= required && !exempt { return [] }
        var message: String
        if exempt {
            message = "\(what) is \(Format.ratio(ratio)) (\(theme.name): inactive components are exempt from \(Format.number(required)):1)"
        } else {
            message = "\(what) is \(Format.ratio(ratio)), needs \(Format.number(required)):1"
        }
        message += Self.colorNotes(theme, state, [role, Self.backgroundRoles[part.backgroundName]])
        let fg = role == part.role ? part.foregroundSeen : (part.alternative?.seen ?? part.foregroundSeen)
        let authored = role == part.role ? part.foreground : (part.alternative?.color ?? part.foreground)
        let location = input.colorLocation(spec, theme: theme, role: role, state: state)
        var finding = Finding(rule: id, severity: exempt ? .info : defaultSeverity, criterion: criterion,
                              variant: VariantGroupID.id(variants), subject: part.subject, message: message, numbers: numbers,
                              values: ["foreground": fg.hex, "background": part.background.hex, "theme": theme.name],
                              location: location,
                              picture: .swatch(foreground: fg, background: part.background, ratio: ratio, required: required))
        if ratio < required {
            let name = role == part.role ? part.name : (part.alternative?.name ?? part.name)
            let key = [name, authored.hex, part.background.hex, "\(required)", location.token ?? "", location.keyPath ?? ""].joined(separator: "\u{0}")
            if suggestions[key] == nil {
                suggestions[key] = ColorFix(part: name, foreground: authored, background: part.background, required: required, location: location)
            }
            finding.suggestion = suggestions[key] ?? nil
        }
        return [finding]
    }

    // MARK: Rendered pixels

    /// A region of the glyph and the colour its part must stand out from.
    struct PixelPart {
        var subject: String
        var region: Rect
        var exclude: Rect?
        var background: RGBA
        var authoredRatio: Double
        var role: ColorRole
        var width: Double
        /// The part's colour as authored.
        var foreground: RGBA
    }

    static func pixelParts(_ item: PlannedVariant, theme: ThemeSpec, required: Double) -> [PixelPart] {
        let spec = item.spec, layout = item.layout, state = item.variant.state
        // A drawn switch's parts are filled areas, never thinner than a pixel; an image switch's tint is measured.
        guard spec.control == .checkbox || spec.images != nil else { return [] }
        var out: [PixelPart] = []
        for part in parts(spec, size: spec.size(named: item.variant.size), theme: theme, state: state) {
            let ratio = contrastRatio(part.foregroundSeen, part.background)
            guard ratio >= required else { continue }
            switch part.role {
            case .border where layout.borderWidth > 0:
                out.append(PixelPart(subject: part.subject, region: layout.glyph, exclude: layout.appearance.mark != .none ? layout.mark : nil,
                                     background: part.background, authoredRatio: ratio, role: .border, width: layout.borderWidth,
                                     foreground: part.foreground))
            case .mark:
                if let m = layout.mark {
                    out.append(PixelPart(subject: part.subject, region: m, exclude: nil, background: part.background,
                                         authoredRatio: ratio, role: .mark, width: layout.markWeight, foreground: part.foreground))
                }
            case .tint:
                if let r = layout.image {
                    out.append(PixelPart(subject: part.subject, region: r, exclude: nil, background: part.background,
                                         authoredRatio: ratio, role: .tint, width: 0, foreground: part.foreground))
                }
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
            let role: ColorRole
            let region: Rect
            let width: Double
            let foreground: RGBA
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
            guard !Self.isExempt(item.variant.theme), let theme = item.spec.theme(named: item.variant.theme) else { continue }
            let g = input.glyphs.frame(i), s = Double(g.scale)
            func rel(_ r: Rect?) -> [Double] {
                guard let r else { return [] }
                return [r.minX * s - Double(g.x0), r.minY * s - Double(g.y0), r.width * s, r.height * s]
            }
            for part in Self.pixelParts(item, theme: theme, required: required) {
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
                                          role: w.part.role, region: w.part.region, width: w.part.width,
                                          foreground: w.part.foreground, background: w.part.background) : nil
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
            let theme = item.spec.theme(named: v.theme)!
            let sizes = ms.map { items[$0.index].variant.dynamicType }
            let stroke = worst.width > 0 ? " \(Format.points(worst.width)) pt" : ""
            let message = "\(worst.subject)\(stroke) reaches \(Format.ratio(worst.authored)) as authored, but at @\(v.scale)x "
                + "no pixel of it reaches \(Format.number(required)):1 (best \(Format.ratio(worst.best))) at \(Format.sizes(sizes))"
            let location = input.colorLocation(item.spec, theme: theme, role: worst.role, state: v.state)
            var finding = Finding(rule: id, severity: .warning, criterion: criterion,
                                  variant: VariantGroupID.id(ms.map { items[$0.index].variant }), subject: "\(worst.subject) pixels",
                                  message: message,
                                  numbers: ["bestPixelRatio": worst.best, "ratio": worst.authored, "required": required, "scale": Double(v.scale)],
                                  sizes: sizes, location: location, picture: .outline(v, worst.region))
            // The best pixel is the colour drawn at some coverage over the background: the colour
            // whose best pixel, at that coverage, reaches the ratio.
            let coverage = ContrastSuggestion.coverage(of: worst.foreground, on: worst.background, drawnRatio: worst.best)
            finding.suggestion = ColorFix(part: worst.subject, foreground: worst.foreground, background: worst.background,
                                          required: required, coverage: coverage, location: location)
            return finding
        }
    }

    // MARK: Original-colour images

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
    /// `required` against `surface` (seen over white). One pass to classify the pixels (the colour of a
    /// run of equal pixels is classified once), one to walk the outline.
    static func measureImage(_ g: GlyphPixels, surface: RGBA, required: Double) -> ImageMeasure {
        let w = g.width, h = g.height, n = w * h
        guard n > 0 else { return ImageMeasure(outline: 0, covered: 0, best: 1) }
        let bg = surface.composited(over: .white)
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
            guard let images = items[i].spec.images, !images.template else { return false }
            return items[i].spec.theme(named: items[i].variant.theme) != nil
        }
        guard !candidates.isEmpty else { return [] }
        // Identical glyphs (the same pixels on the same surface) are measured once.
        struct Job: Hashable { let glyph: Int; let surface: RGBA }
        func surface(_ i: Int) -> RGBA {
            let v = items[i].variant
            return items[i].spec.theme(named: v.theme)?.color(.surface, state: v.state)?.rgba ?? .white
        }
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
            let spec = first.spec, v = first.variant, images = spec.images!
            let theme = spec.theme(named: v.theme)!
            let exempt = Self.isExempt(theme.name)
            let doc = images.image(for: v.state)
            let name = images.key(of: doc)
            let top = group.map { items[$0].variant.scale }.max()!
            let atTop = group.filter { items[$0].variant.scale == top }
            let failingTop = atTop.filter(fails)
            let bg = surface(group[0]).composited(over: .white)
            let location = input.location(spec, "images.\(name)")
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
                    message += " (\(theme.name): inactive components are exempt from \(Format.number(required)):1)"
                } else {
                    message += ", needs \(Format.thresholdPercent(outlineShare))"
                }
                if m.outline == 0 { message += "; the image draws nothing that stands out from the surface" }
                out.append(Finding(rule: id, severity: exempt ? .info : defaultSeverity, criterion: criterion,
                                   variant: VariantGroupID.id(variants.map { items[$0].variant }), subject: "\(name) image",
                                   message: message, numbers: numbers(m, scale: top),
                                   values: ["image": doc.path, "background": bg.hex, "theme": theme.name],
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
                                   values: ["image": doc.path, "background": bg.hex, "theme": theme.name],
                                   sizes: sizes, location: location,
                                   picture: items[worst].layout.image.map { .outline(items[worst].variant, $0) }))
            }
        }
        return out
    }

    // MARK: Original-colour images: what shows the state

    /// How the pixels that differ between two states stand out from the colours next to them.
    struct IndicatorMeasure: Sendable, Equatable {
        /// Pairs of neighbouring pixels (left–right, above–below) that meet at an edge in either
        /// state (their colours differ by more than `inkLevels`) where at least one of them changes
        /// between the states.
        var edges: Int
        /// Edges across which the colours reach the ratio (one pixel further out on each side counts
        /// too, so an anti-aliased edge is judged by the colours it blends).
        var covered: Int
        /// The lowest and highest ratio across an edge, and the colours of the lowest.
        var lowest: Double
        var highest: Double
        var lowestColours: [RGBA]

        var share: Double { edges == 0 ? 1 : Double(covered) / Double(edges) }
    }

    /// The state indicator of two renders of an original-colour image: the pixels whose colour
    /// changes between them (the tick, the dot, the fill). In each state, every edge that touches
    /// such a pixel must reach `required` across it: the tick against the fill it is drawn on, the
    /// dot against the inside of the ring, the fill against the surface it replaced.
    static func measureIndicator(_ a: GlyphPixels, _ b: GlyphPixels, required: Double) -> IndicatorMeasure {
        var m = IndicatorMeasure(edges: 0, covered: 0, lowest: .infinity, highest: 0, lowestColours: [])
        guard a.width == b.width, a.height == b.height, a.width > 0, a.height > 0 else { return m }
        let w = a.width, h = a.height, n = w * h
        var seen: [UInt32: (r: Int, g: Int, b: Int, l: Double)] = [:]
        func look(_ c: UInt32) -> (r: Int, g: Int, b: Int, l: Double) {
            if let hit = seen[c] { return hit }
            let o = GlyphPixels.unpack(c).composited(over: .white)
            let v = (Int((o.r * 255).rounded()), Int((o.g * 255).rounded()), Int((o.b * 255).rounded()), o.relativeLuminance)
            seen[c] = v
            return v
        }
        func differ(_ x: UInt32, _ y: UInt32) -> Bool {
            guard x != y else { return false }
            let p = look(x), q = look(y)
            return max(abs(p.r - q.r), abs(p.g - q.g), abs(p.b - q.b)) > inkLevels
        }
        var changes = [Bool](repeating: false, count: n)
        var any = false
        for p in 0..<n where differ(a.pixels[p], b.pixels[p]) {
            changes[p] = true
            any = true
        }
        guard any else { return m }
        for g in [a, b] {
            let px = g.pixels
            for y in 0..<h {
                for x in 0..<w {
                    let p = y * w + x
                    for (dx, dy) in [(1, 0), (0, 1)] {
                        let qx = x + dx, qy = y + dy
                        guard qx < w, qy < h else { continue }
                        let q = qy * w + qx
                        guard changes[p] || changes[q], differ(px[p], px[q]) else { continue }
                        // The colours on each side, and one pixel further out.
                        var near = [px[p]], far = [px[q]]
                        if x - dx >= 0 && y - dy >= 0 { near.append(px[(y - dy) * w + x - dx]) }
                        if qx + dx < w && qy + dy < h { far.append(px[(qy + dy) * w + qx + dx]) }
                        var ratio = 1.0, pair = (near[0], far[0])
                        for u in near {
                            for v in far {
                                let r = contrastRatio(luminance: look(u).l, look(v).l)
                                if r > ratio { ratio = r; pair = (u, v) }
                            }
                        }
                        m.edges += 1
                        if ratio >= required { m.covered += 1 }
                        m.highest = max(m.highest, ratio)
                        if ratio < m.lowest {
                            m.lowest = ratio
                            m.lowestColours = [pair.0, pair.1].map { GlyphPixels.unpack($0).composited(over: .white) }
                        }
                    }
                }
            }
        }
        return m
    }

    /// Original-colour images: for every pair of states, at the highest scale audited, the edges of
    /// what changes must reach the ratio on at least `share` of their length (error; info for an
    /// exempt theme). Sizes that measure alike are reported together.
    func indicatorFindings(_ input: AuditInput, _ required: Double, share: Double) -> [Finding] {
        let items = input.items
        let groups = input.stateGroups().filter { g in g.count > 1 && items[g[0]].spec.images.map { !$0.template } == true }
        guard !groups.isEmpty else { return [] }
        // Only the highest scale audited of each spec: the image closest to its SVG.
        var top: [String: Int] = [:]
        for g in groups { top[items[g[0]].variant.preset] = max(top[items[g[0]].variant.preset] ?? 0, items[g[0]].variant.scale) }
        struct Job: Hashable { let a: Int, b: Int }
        var jobs = Interner<Job>()
        var pairs: [(a: Int, b: Int, job: Int)] = []
        for g in groups where items[g[0]].variant.scale == top[items[g[0]].variant.preset] {
            for i in 0..<g.count {
                for j in (i + 1)..<g.count {
                    let images = items[g[i]].spec.images!
                    guard images.image(for: items[g[i]].variant.state) !== images.image(for: items[g[j]].variant.state) else { continue }
                    pairs.append((g[i], g[j], jobs.intern(Job(a: input.sameGlyph[g[i]], b: input.sameGlyph[g[j]]))))
                }
            }
        }
        let todo = jobs.keys
        let measured = input.parallelMap(todo.count) { k in
            Self.measureIndicator(input.glyphs[todo[k].a], input.glyphs[todo[k].b], required: required)
        }
        var out: [Finding] = []
        // The pairs of one component, theme and pair of states, at every Dynamic Type size, report together.
        var order = Interner<[String]>()
        var members: [[Int]] = []
        for (k, p) in pairs.enumerated() {
            let va = items[p.a].variant, vb = items[p.b].variant
            let g = order.intern([va.preset, va.component, va.theme, va.state.rawValue, vb.state.rawValue])
            if g == members.count { members.append([]) }
            members[g].append(k)
        }
        for members in members {
            let failing = members.filter { measured[pairs[$0].job].share < share }
            guard !failing.isEmpty else { continue }
            let worst = failing.min { measured[pairs[$0].job].share < measured[pairs[$1].job].share }!
            let m = measured[pairs[worst].job]
            let va = items[pairs[worst].a].variant, vb = items[pairs[worst].b].variant
            let spec = items[pairs[worst].b].spec, images = spec.images!
            guard let theme = spec.theme(named: vb.theme) else { continue }
            let exempt = Self.isExempt(theme.name)
            let subject = "\(va.state.rawValue) vs \(vb.state.rawValue) indicator"
            let colours = m.lowestColours.count == 2 ? " (lowest \(Format.ratio(m.lowest)): \(m.lowestColours[0].hex) against \(m.lowestColours[1].hex))" : ""
            var message = "\(va.state.rawValue) vs \(vb.state.rawValue) (\(images.key(for: va.state)) image → \(images.key(for: vb.state)) image, own colours): "
                + "what changes reaches \(Format.number(required)):1 against the colours next to it along "
                + "\(Format.percent(m.share, threshold: share, failsBelow: true)) of its edges\(colours) at @\(vb.scale)x"
            message += exempt
                ? " (\(theme.name): inactive components are exempt from \(Format.number(required)):1)"
                : ", needs \(Format.thresholdPercent(share))"
            let variants = failing.map { items[pairs[$0].b].variant }
            out.append(Finding(rule: id, severity: exempt ? .info : defaultSeverity, criterion: criterion,
                               variant: VariantGroupID.id(variants), subject: subject, message: message,
                               numbers: ["edgeShare": m.share, "requiredShare": share, "lowestRatio": m.lowest,
                                         "highestRatio": m.highest, "required": required, "edgePixels": Double(m.edges),
                                         "scale": Double(vb.scale)],
                               values: ["image": images.image(for: vb.state).path, "other": va.id, "theme": theme.name],
                               sizes: Array(Set(variants.map(\.dynamicType))),
                               location: input.location(spec, "images.\(images.key(for: vb.state))"),
                               picture: .sideBySide([va, vb])))
        }
        return out
    }
}
