import Foundation
import GlyphColor
import GlyphCore

/// The authored measurement of `nontext-contrast`: each part of a scene that identifies the control
/// or its state, as seen, against the part it is drawn on, as seen.
extension NonTextContrastRule {
    /// One part measured against the part beneath it.
    struct Measured {
        var subject: String
        var part: ScenePart
        /// What it stands on: the surface, the fill, the track.
        var background: ScenePart
        /// A second candidate that may carry the boundary instead (a filled box's ring, a track's border).
        var alternative: ScenePart?
    }

    /// The parts of a scene that identify the control and its state, each with the part it stands on.
    static func measured(_ scene: Scene) -> [Measured] {
        guard let surface = scene.surface, surface.color != nil else { return [] }
        func part(_ kind: ScenePart.Kind) -> ScenePart? { scene.part(kind).flatMap { $0.color == nil ? nil : $0 } }
        var out: [Measured] = []
        // An image checkbox or image switch (toggle icons): the template tint against the surface
        // (original-colour images are measured on their pixels).
        if let image = scene.image {
            if image.image?.template == true, image.color != nil {
                out.append(Measured(subject: "image (tint)", part: image, background: surface))
            }
            return out
        }
        if scene.control == .switch {
            if let track = part(.track) {
                out.append(Measured(subject: track.name, part: track, background: surface, alternative: part(.border)))
                if let knob = part(.knob) {
                    // A knob stands out from its track through its fill or its border, whichever is stronger.
                    out.append(Measured(subject: "knob on \(track.name)", part: knob, background: track, alternative: part(.knobBorder)))
                }
                // Each mark against what it sits on: the track, or the knob.
                for mark in scene.parts where mark.kind == .mark && mark.color != nil {
                    guard let under = scene.beneath(mark), under.color != nil else { continue }
                    out.append(Measured(subject: mark.name, part: mark, background: under))
                }
            }
            return out
        }
        let fill = part(.fill)
        if let fill {
            out.append(Measured(subject: "fill", part: fill, background: surface, alternative: part(.ring)))
        } else if let ring = part(.ring) {
            out.append(Measured(subject: "ring", part: ring, background: surface))
        }
        for mark in scene.parts where mark.kind == .mark && mark.color != nil {
            let under = scene.beneath(mark) ?? surface
            out.append(Measured(subject: under.kind == .surface ? mark.name : "\(mark.name) on \(under.name)", part: mark, background: under))
        }
        return out
    }

    func authoredFinding(_ scene: Scene, _ m: Measured, _ variants: [Variant], _ required: Double,
                         _ suggestions: inout [String: ColorFix?]) -> [Finding] {
        let theme = scene.variant.theme
        let fg = m.part.color!, bg = m.background.color!
        var ratio = ContrastCheck.ratio(fg, on: bg)
        var chosen = m.part
        // "on #FFFFFF" for the surface, "on fill #E00800" for anything else.
        let on = m.background.kind == .surface ? bg.seen.hex : "\(m.background.name) \(bg.seen.hex)"
        var what = "\(m.part.name) \(ContrastCheck.describe(fg)) on \(on)"
        var numbers: [String: Double] = [:]
        if let alt = m.alternative, let altColor = alt.color {
            let altRatio = ContrastCheck.ratio(altColor, on: bg)
            numbers["ratio.\(m.subject)"] = ratio
            numbers["ratio.\(alt.name)"] = altRatio
            if altRatio > ratio {
                what = "\(m.part.name) \(ContrastCheck.describe(fg)) and its \(alt.name) "
                    + "\(ContrastCheck.describe(altColor)) on \(on): the \(alt.name)"
                ratio = altRatio
                chosen = alt
            } else {
                what = "\(m.part.name) \(ContrastCheck.describe(fg)) (its \(alt.name) "
                    + "\(ContrastCheck.describe(altColor)) is \(Format.ratio(altRatio))) on \(on)"
            }
        }
        numbers["ratio"] = ratio
        numbers["required"] = required
        let exempt = ContrastCheck.isExempt(theme)
        // The margin kept with the baselines (`AuditMargins`): the ratio the part reaches, passing or not.
        if !exempt, let margins = AuditMargins.current { margins.record(variants.map(\.id), "contrast.\(m.subject)", ratio) }
        if ratio >= required && !exempt { return [] }
        var message: String
        if exempt {
            message = "\(what) is \(Format.ratio(ratio))" + ContrastCheck.exemptNote(theme, required: required)
        } else {
            message = "\(what) is \(Format.ratio(ratio)), needs \(Format.number(required)):1"
        }
        message += ContrastCheck.notes([chosen, m.background])
        let color = chosen.color!
        let location = FindingLocation(color.source)
        var finding = Finding(rule: id, severity: exempt ? .info : defaultSeverity, criterion: criterion,
                              variant: VariantGroupID.id(variants), subject: m.subject, message: message, numbers: numbers,
                              values: ["foreground": color.seen.hex, "background": bg.seen.hex, "theme": theme],
                              location: location,
                              picture: .swatch(foreground: color.seen, background: bg.seen, ratio: ratio, required: required))
        if ratio < required {
            let name = chosen.name
            let key = [name, color.authored.hex, bg.seen.hex, "\(required)", location.token ?? "", location.keyPath ?? ""].joined(separator: "\u{0}")
            if suggestions[key] == nil {
                suggestions[key] = ColorFix(part: name, foreground: color.authored, background: bg.seen, required: required, location: location)
            }
            finding.suggestion = suggestions[key] ?? nil
        }
        return [finding]
    }
}
