import Foundation
import GlyphColor
import GlyphCore

/// The indicator measurement of `nontext-contrast`: what changes between two states drawn with
/// different original-colour images, against the colours next to it.
extension NonTextContrastRule {

    /// How the pixels that differ between two states stand out from the colours next to them.
    struct IndicatorMeasure: Sendable, Equatable {
        /// Pairs of neighbouring pixels (left–right, above–below) that meet at an edge in either
        /// state (their colours differ by more than `inkLevels`) where one of them changes between
        /// the states and the other does not: the indicator's boundary against what did not change.
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
    /// changes between them (the tick, the dot, the fill). In each state, every edge between such a
    /// pixel and one that does not change must reach `required` across it: the tick against the
    /// fill it is drawn on, the dot against the inside of the ring, the fill against the surface it
    /// replaced. Edges between two changed pixels (a dot inside a ring that appears with it, a tick
    /// on a fill that appears with it) are inside the indicator and are not measured.
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
                        // The indicator's boundary: one side changes, the other does not. An edge
                        // between two changed pixels (a dot inside a ring that appears with it) is
                        // inside the indicator and does not count against it.
                        guard changes[p] != changes[q], differ(px[p], px[q]) else { continue }
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
        /// The image a variant draws in its own colours.
        func image(_ i: Int) -> SceneImage? { items[i].scene.image?.image.flatMap { $0.template ? nil : $0 } }
        let groups = input.stateGroups().filter { g in g.count > 1 && image(g[0]) != nil }
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
                    guard image(g[i])!.asset !== image(g[j])!.asset else { continue }
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
            let ia = image(pairs[worst].a)!, ib = image(pairs[worst].b)!
            let exempt = ContrastCheck.isExempt(vb.theme)
            let subject = "\(va.state.rawValue) vs \(vb.state.rawValue) indicator"
            let colours = m.lowestColours.count == 2 ? " (lowest \(Format.ratio(m.lowest)): \(m.lowestColours[0].hex) against \(m.lowestColours[1].hex))" : ""
            var message = "\(va.state.rawValue) vs \(vb.state.rawValue) (\(ia.key) image → \(ib.key) image, own colours): "
                + "what changes reaches \(Format.number(required)):1 against the colours next to it along "
                + "\(Format.percent(m.share, threshold: share, failsBelow: true)) of its edges\(colours) at @\(vb.scale)x"
            message += exempt
                ? ContrastCheck.exemptNote(vb.theme, required: required)
                : ", needs \(Format.thresholdPercent(share))"
            let variants = failing.map { items[pairs[$0].b].variant }
            out.append(Finding(rule: id, severity: exempt ? .info : defaultSeverity, criterion: criterion,
                               variant: VariantGroupID.id(variants), subject: subject, message: message,
                               numbers: ["edgeShare": m.share, "requiredShare": share, "lowestRatio": m.lowest,
                                         "highestRatio": m.highest, "required": required, "edgePixels": Double(m.edges),
                                         "scale": Double(vb.scale)],
                               values: ["image": ib.asset.path, "other": va.id, "theme": vb.theme],
                               sizes: Array(Set(variants.map(\.dynamicType))),
                               location: FindingLocation(ib.source),
                               picture: .sideBySide([va, vb])))
        }
        return out
    }
}
