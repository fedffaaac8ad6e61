import Foundation
import GlyphColor
import GlyphCore
import GlyphRaster

/// The pictures that prove findings (`--evidence DIR`), described: for a finding's `EvidencePicture`,
/// the pixels it shows (from the audit's renders and glyphs) and what is drawn over them. The audit
/// never draws: the pipeline has the render target paint each sketch (`EvidencePainter`) and writes it.
public enum EvidencePictures {
    /// The file a finding's picture is written to, relative to the evidence folder:
    /// `<rule>/<variant id, * as "all">--<subject>.png`, e.g. `nontext-contrast/swiftui-switch/switch-md/all/default/off@all--off-track.png`.
    public static func path(for f: Finding) -> String {
        let id = f.variant.description.replacingOccurrences(of: "@*x", with: "@all").replacingOccurrences(of: "*", with: "all")
        let subject = f.subject.lowercased().split { !($0.isLetter || $0.isNumber) }.joined(separator: "-")
        return "\(f.rule)/\(id)--\(subject).png"
    }

    /// The picture of one finding, or nil when it has none (or its variants are not in the input).
    public static func sketch(_ f: Finding, input: AuditInput) -> EvidenceSketch? {
        guard let picture = f.picture else { return nil }
        let content: EvidenceSketch.Content
        switch picture {
        case let .states(a, b, views):
            guard !input.glyphs.isEmpty, let ia = input.index(of: a), let ib = input.index(of: b) else { return nil }
            let ga = input.glyphs[ia], gb = input.glyphs[ib]
            let rows = views.map { view in
                EvidenceSketch.Row(label: view.rawValue, cells: [(ga, a), (gb, b)].map { g, v in
                    EvidenceSketch.Captioned(g.raster(viewedAs: view), caption: v.state.rawValue)
                })
            }
            content = .rows(rows, cellWidth: ga.width, cellHeight: ga.height)
        case let .overflow(v, frame, ink):
            // The ink outside the frame in magenta, the frame in blue.
            guard let render = render(v, input: input) else { return nil }
            content = .annotated(render, scale: v.scale, marks: [
                .fill(ink, except: ink.intersection(frame), color: RGBA(r: 1, g: 0, b: 0.8, a: 0.55)),
                .outline(frame, color: RGBA(r: 0, g: 0.35, b: 1, a: 0.9), width: 2, dash: nil),
            ])
        case let .swatch(fg, bg, ratio, required):
            content = .swatch(foreground: fg, background: bg, ratio: ratio, required: required)
        case let .hitArea(v, area, minimum):
            guard let render = render(v, input: input) else { return nil }
            content = .annotated(render, scale: v.scale, marks: [
                .outline(area, color: RGBA(r: 0.9, g: 0.1, b: 0.1, a: 0.9), width: 2, dash: nil),
                .outline(area.centred(width: minimum, height: minimum), color: RGBA(r: 0, g: 0.6, b: 0.2, a: 0.9), width: 1.5,
                         dash: [4, 3]),
            ])
        case let .sideBySide(vs):
            let renders = vs.compactMap { v in
                input.index(of: v).map { EvidenceSketch.Captioned(input.raster($0), caption: "\(v.dynamicType.short) @\(v.scale)x") }
            }
            guard !renders.isEmpty else { return nil }
            content = .sideBySide(renders)
        case let .focus(u, fv, ratio):
            guard let iu = input.index(of: u), let i = input.index(of: fv),
                  let (cu, cf) = FocusIndicatorRule.crops(input, focused: i, unfocused: iu) else { return nil }
            content = .rows([EvidenceSketch.Row(label: "focus", cells: [
                EvidenceSketch.Captioned(cu.raster(), caption: "unfocused"),
                EvidenceSketch.Captioned(cf.raster(), caption: "focused"),
                EvidenceSketch.Captioned(FocusIndicatorRule.changedPicture(cu, cf, ratio: ratio), caption: "changed ≥ \(Format.number(ratio)):1"),
            ])], cellWidth: cf.width, cellHeight: cf.height)
        case let .outline(v, r):
            guard let render = render(v, input: input) else { return nil }
            content = .annotated(render, scale: v.scale, marks: [.outline(r, color: RGBA(r: 1, g: 0, b: 0.8, a: 0.9), width: 1.5, dash: nil)])
        }
        return EvidenceSketch(title: f.message, content: content)
    }

    /// A variant's full render, captioned with its id.
    static func render(_ v: Variant, input: AuditInput) -> EvidenceSketch.Captioned? {
        input.index(of: v).map { EvidenceSketch.Captioned(input.raster($0), caption: v.id) }
    }

}

extension GlyphPixels {
    /// The pixels as they are.
    public func raster() -> Raster {
        var px = [UInt8](repeating: 0, count: width * height * 4)
        for i in 0..<(width * height) {
            let p = pixels[i]
            px[i * 4] = UInt8(p & 0xFF); px[i * 4 + 1] = UInt8((p >> 8) & 0xFF)
            px[i * 4 + 2] = UInt8((p >> 16) & 0xFF); px[i * 4 + 3] = UInt8(p >> 24)
        }
        return Raster(width: width, height: height, pixels: px)
    }

    /// The glyph's pixels as seen in a view (greyscale, a colour-vision simulation).
    public func raster(viewedAs view: ColorView) -> Raster {
        var cache: [UInt32: (UInt8, UInt8, UInt8, UInt8)] = [:]
        var px = [UInt8](repeating: 0, count: width * height * 4)
        for i in 0..<(width * height) {
            let p = pixels[i]
            let c: (UInt8, UInt8, UInt8, UInt8)
            if let hit = cache[p] {
                c = hit
            } else {
                let v = GlyphPixels.unpack(p).viewed(as: view)
                c = (RGBA.byte(v.r), RGBA.byte(v.g), RGBA.byte(v.b), RGBA.byte(v.a))
                cache[p] = c
            }
            px[i * 4] = c.0; px[i * 4 + 1] = c.1; px[i * 4 + 2] = c.2; px[i * 4 + 3] = c.3
        }
        return Raster(width: width, height: height, pixels: px)
    }
}
