import Foundation
import GlyphColor
import GlyphCore

/// What the contrast rules (`nontext-contrast`, `text-contrast`) share: they measure a scene part's
/// colour as seen against the colour seen beneath it, and say so the same way.
enum ContrastCheck {
    /// A theme named `disabled` (or `disabled-…`) is exempt: WCAG 1.4.3 and 1.4.11 exempt inactive
    /// components, so their ratios are reported as info.
    static func isExempt(_ theme: String) -> Bool { theme == "disabled" || theme.hasPrefix("disabled-") }

    /// What an exempt finding says instead of what it needs: " (disabled: inactive components are
    /// exempt from 3:1)".
    static func exemptNote(_ theme: String, required: Double) -> String {
        " (\(theme): inactive components are exempt from \(Format.number(required)):1)"
    }

    /// The ratio of a colour as seen against a background as seen; never rounded.
    static func ratio(_ color: SceneColor, on background: SceneColor) -> Double {
        ratio(color.seen, on: background.seen)
    }

    /// The same for colours already seen (a surface, or a pixel's colour over it).
    static func ratio(_ seen: RGBA, on background: RGBA) -> Double { contrastRatio(seen, background) }

    /// `#RRGGBB`, or for a translucent colour `#RRGGBBAA (#RRGGBB as seen)`.
    static func describe(_ color: SceneColor) -> String {
        color.authored.a < 1 ? "\(color.authored.hex) (\(color.seen.hex) as seen)" : color.authored.hex
    }

    /// The notes of the colours a finding measures (a wide-gamut token colour mapped into sRGB), for
    /// its message: " (fill: display-p3 (1, 0, 1) is outside sRGB; gamut-mapped …)", or "".
    static func notes(_ parts: [ScenePart?]) -> String {
        var seen: Set<ColorRole> = []
        let notes = parts.compactMap { $0 }.filter { seen.insert($0.role).inserted }.compactMap { part in
            part.color?.note.map { "\(part.role.rawValue): \($0)" }
        }
        return notes.isEmpty ? "" : " (\(notes.joined(separator: "; ")))"
    }
}

extension FindingLocation {
    /// Where a scene colour was written: its spec key and line, and for a token alias the token
    /// file and the line of its token (of the final value when the token holds it itself).
    /// Through an alias chain (a token that names another), it points at the token the spec names,
    /// and keeps the chain with the line of each token and the colour it came to.
    public init(_ source: ColorSource) {
        self.init(file: source.file, line: source.line, keyPath: source.keyPath, token: source.token,
                  tokenFile: source.tokenFile, tokenLine: source.tokenLine)
        if source.token != nil, source.aliasChain.count > 1 {
            let lines = source.aliasLines.count == source.aliasChain.count ? source.aliasLines.map(Optional.some)
                : Array(repeating: nil, count: source.aliasChain.count)
            aliasChain = zip(source.aliasChain, lines).map { AliasStep(token: "{\($0)}", line: $1) }
            aliasValue = source.value
            if let first = lines.first, let first { tokenLine = first }
        }
    }
}
