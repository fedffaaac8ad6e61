import Foundation
import GlyphColor

/// Why a value is not what its key takes (the caller says where).
struct ValueProblem: Error {
    var message: String
}

/// A colour as read from a value: what is drawn (8 bits per channel), the colour before rounding
/// (what a Tokens Studio modifier starts from, as sd-transforms reads the value), and, when it was
/// gamut-mapped, a note saying so.
struct ColorValue {
    var rgba: RGBA
    var exact: RGBA
    var note: String?
    var warnings: [String] = []
}

/// The values a colour key and a length key take: in a spec, and in a token file.
enum ValueReader {
    /// `v` to 8 bits per channel (clamped, × 255, rounded half up): the colour that is drawn.
    static func eightBit(_ c: RGBA) -> RGBA {
        RGBA(r8: RGBA.byte(c.r), g8: RGBA.byte(c.g), b8: RGBA.byte(c.b), a8: RGBA.byte(c.a))
    }

    /// A component as written: `1`, `0.7016`.
    static func number(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : "\(v)"
    }

    // MARK: Colours

    /// A colour: a DTCG 2025.10 colour object (every colour space of the colour module), a hex
    /// string (`#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`), or a CSS `rgb()`/`rgba()`/`hsl()`/`hsla()`
    /// string. `what` names the value in messages ("value" for a token's).
    static func color(_ node: JSONNode, what: String = "value") throws(ValueProblem) -> ColorValue {
        switch node.value {
        case let .string(s):
            if let c = cssColor(s) { return ColorValue(rgba: eightBit(c), exact: c) }
            throw ValueProblem(message: "\(what) is not a colour: \"\(s)\"" + colorStringHint(s))
        case .object:
            return try colorObject(node)
        default:
            throw ValueProblem(message: "\(what) is not a colour: \(node.typeName) (a colour is a DTCG colour object "
                               + "{\"colorSpace\", \"components\"}, \"#rrggbb\" or a token alias)")
        }
    }

    /// What a string that is not a colour probably is.
    static func colorStringHint(_ s: String) -> String {
        if s.contains("{") && s.contains("}") {
            return " (a token reference inside a string is a Tokens Studio construct; DTCG 2025.10 references are a whole "
                + "value \"{group.token}\")"
        }
        return " (a colour is \"#rrggbb\", \"#rrggbbaa\", \"#rgb\", rgb(…), hsl(…) or a DTCG colour object)"
    }

    /// A DTCG 2025.10 colour object converted to sRGB: in gamut as is, outside it gamut-mapped as
    /// CSS Color 4 says (with a note). The `hex` member is a fallback for tools that cannot read the
    /// colour space; every space is read here, so it is never used.
    static func colorObject(_ node: JSONNode) throws(ValueProblem) -> ColorValue {
        guard let spaceNode = node["colorSpace"] else {
            if node["hex"] != nil {
                throw ValueProblem(message: "a colour object needs \"colorSpace\" and \"components\"; \"hex\" is only a "
                                   + "fallback for tools that cannot read the colour space, not a colour by itself")
            }
            throw ValueProblem(message: "expected a colour object with \"colorSpace\" and \"components\"")
        }
        guard case let .string(name) = spaceNode.value else {
            throw ValueProblem(message: "\"colorSpace\" must be a string, found \(spaceNode.typeName)")
        }
        guard let space = CSSColorSpace(rawValue: name) else {
            throw ValueProblem(message: SpecReader.unknown("colour space", name, valid: CSSColorSpace.allCases.map(\.rawValue),
                                                           listed: "the 2025.10 colour module has"))
        }
        let ranges = space.components
        guard let comps = node["components"], case let .array(items) = comps.value, items.count == 3 else {
            throw ValueProblem(message: "a \(name) colour needs \"components\": [\(ranges.map(\.name).joined(separator: ", "))]")
        }
        var c: [Double] = []
        for (i, item) in items.enumerated() {
            switch item.value {
            case let .number(v):
                if let r = ranges[i].range, !r.contains(v) {
                    let upper = r.upperBound == .greatestFiniteMagnitude ? "" : "…\(number(r.upperBound))"
                    throw ValueProblem(message: "\(name) \(ranges[i].name) \(number(v)) is out of range (\(number(r.lowerBound))\(upper))")
                }
                c.append(v)
            case .string("none"):
                c.append(0)  // CSS Color 4: a missing component converts as 0.
            default:
                throw ValueProblem(message: "\(name) components are numbers or \"none\"; component \(i + 1) is \(item.typeName)")
            }
        }
        var alpha = 1.0
        if let a = node["alpha"] {
            guard case let .number(v) = a.value, (0...1).contains(v) else {
                throw ValueProblem(message: "colour alpha must be a number in 0…1")
            }
            alpha = v
        }
        var warnings: [String] = []
        if let h = node["hex"] {
            let ok: Bool
            if case let .string(s) = h.value, s.utf8.count == 7, RGBA(hex: s) != nil { ok = true } else { ok = false }
            if !ok {
                warnings.append("the colour's \"hex\" fallback should be 6-digit \"#rrggbb\" (2025.10 colour module); "
                                + "it is not used: the components are")
            }
        }
        let converted = space.toSRGB(c, alpha: alpha)
        guard converted.encoded.allSatisfy(\.isFinite) else {
            throw ValueProblem(message: "\(name) (\(c.map(number).joined(separator: ", "))) does not convert to a finite sRGB colour "
                               + "(components too large)")
        }
        let drawn = eightBit(converted.mapped)
        var note: String?
        if converted.outOfGamut {
            let clipped = eightBit(converted.clipped)
            let shown = items.enumerated().map { $0.element.value == .string("none") ? "none" : number(c[$0.offset]) }
            note = "\(name) (\(shown.joined(separator: ", "))) "
                + "is outside sRGB; gamut-mapped (CSS Color 4) to \(drawn.hex)"
                + (clipped == drawn ? "" : " (clipping each channel would give \(clipped.hex))")
        }
        return ColorValue(rgba: drawn, exact: converted.mapped, note: note, warnings: warnings)
    }

    /// A colour string: hex, or CSS `rgb()`, `rgba()`, `hsl()`, `hsla()` (comma or space syntax).
    static func cssColor(_ raw: String) -> RGBA? {
        let s = raw.trimmingCharacters(in: .whitespaces)
        if s.hasPrefix("#") { return RGBA(hex: s) }
        let lower = s.lowercased()
        guard let open = lower.firstIndex(of: "("), lower.hasSuffix(")") else { return nil }
        let name = String(lower[..<open])
        let body = lower[lower.index(after: open)..<lower.index(before: lower.endIndex)]
        var args: [String]
        var alphaArg: String?
        if body.contains(",") {
            args = body.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            if args.count == 4 { alphaArg = args.removeLast() }
        } else {
            let parts = body.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count <= 2 else { return nil }
            args = parts[0].split(separator: " ").map(String.init)
            if parts.count == 2 { alphaArg = parts[1].trimmingCharacters(in: .whitespaces) }
        }
        guard args.count == 3, ["rgb", "rgba", "hsl", "hsla"].contains(name) else { return nil }
        func value(_ a: String, percentOf scale: Double, numberScale: Double) -> Double? {
            if a.hasSuffix("%") { return Double(a.dropLast()).map { $0 / 100 * scale } }
            return Double(a).map { $0 / numberScale * scale }
        }
        var alpha = 1.0
        if let alphaArg {
            guard let a = value(alphaArg, percentOf: 1, numberScale: 1), a.isFinite else { return nil }
            alpha = min(max(a, 0), 1)
        }
        if name.hasPrefix("rgb") {
            var c: [Double] = []
            for a in args {
                guard let v = value(a, percentOf: 1, numberScale: 255), v.isFinite else { return nil }
                c.append(min(max(v, 0), 1))
            }
            return RGBA(r: c[0], g: c[1], b: c[2], a: alpha)
        }
        let hue = args[0].hasSuffix("deg") ? Double(args[0].dropLast(3)) : Double(args[0])
        guard let h = hue, let sat = value(args[1], percentOf: 100, numberScale: 1), let l = value(args[2], percentOf: 100, numberScale: 1),
              h.isFinite, sat.isFinite, l.isFinite else { return nil }
        let c = CSSColor.hslToSRGB(h, min(max(sat, 0), 100), min(max(l, 0), 100))
        return RGBA(r: min(max(c[0], 0), 1), g: min(max(c[1], 0), 1), b: min(max(c[2], 0), 1), a: alpha)
    }

    // MARK: Dimensions

    /// A length unit and its points (px = pt; 1 rem = 16 px).
    static func unitFactor(_ unit: String) -> Double? {
        switch unit {
        case "px", "pt": 1
        case "rem": 16
        default: nil
        }
    }

    /// `"20px"`, `"-0.25rem"`, `"20pt"`; with `unitless`, `"20"` too (Tokens Studio's px).
    static func dimensionString(_ s: String, unitless: Bool = false) -> Double? {
        let t = s.trimmingCharacters(in: .whitespaces)
        for unit in ["px", "pt", "rem"] where t.hasSuffix(unit) {
            guard let v = Double(t.dropLast(unit.count)), v.isFinite, let f = unitFactor(unit) else { return nil }
            return v * f
        }
        if unitless, let v = Double(t), v.isFinite { return v }
        return nil
    }

    /// A string that looks like a Tokens Studio math expression (`"{a} * 2"`, `"4px * 2"`).
    static func isMath(_ s: String) -> Bool {
        let t = s.trimmingCharacters(in: .whitespaces)
        guard t.contains(where: { "*/+()".contains($0) }) || t.dropFirst().contains(" - ") else { return false }
        return t.contains("{") || t.contains(where: \.isNumber)
    }

    /// A length in points: a number, a dimension string, or a DTCG dimension `{value, unit}`.
    /// A dimension object's unit is `px` or `rem` (DTCG 2025.10); `allowPoints` (a spec's own
    /// literal) takes `pt` too.
    static func dimension(_ node: JSONNode, tokensStudio: Bool, what: String = "value",
                          allowPoints: Bool = false) throws(ValueProblem) -> Double {
        switch node.value {
        case let .number(v):
            return v
        case let .string(s):
            if let v = dimensionString(s, unitless: tokensStudio) { return v }
            if isMath(s) {
                throw ValueProblem(message: tokensStudio
                    ? "Tokens Studio math expression \"\(s)\" is not supported; write the result as a dimension (e.g. \"8px\")"
                    : "\(what) is not a dimension: \"\(s)\" (a Tokens Studio math expression; DTCG 2025.10 has no math)")
            }
            throw ValueProblem(message: "\(what) is not a dimension: \"\(s)\" (a dimension is {\"value\": 20, \"unit\": \"px\"}, "
                               + "\"20px\" or \"1.25rem\")")
        case .object:
            guard let v = node["value"], case let .number(num) = v.value,
                  let u = node["unit"], case let .string(unit) = u.value, unit != "pt" || allowPoints, let factor = unitFactor(unit) else {
                throw ValueProblem(message: "expected a dimension {\"value\": number, \"unit\": \"px\" or \"rem\"}")
            }
            return num * factor
        default:
            throw ValueProblem(message: "\(what) is not a dimension: \(node.typeName)")
        }
    }
}

// MARK: - Token values

extension TokenSet {
    /// A token's value as a key takes it, where it was written and what reading it noticed.
    struct Resolved<Value> {
        var value: Value
        /// The line of the token whose value (or modifier) made it.
        var line: Int
        var note: String?
        var warnings: [String] = []
        /// The tokens the reference passed through, first to last (a colour's alias chain).
        var chain: [String] = []
        /// The token-file line of each token of `chain` (of its value).
        var chainLines: [Int] = []
    }

    /// The 2025.10 format's types.
    static let dtcgTypes: Set<String> = ["color", "dimension", "fontFamily", "fontWeight", "duration", "cubicBezier", "number",
                                         "strokeStyle", "border", "transition", "shadow", "gradient", "typography"]
    /// Tokens Studio's dimension types, read as `dimension` in Tokens Studio mode.
    static let studioDimensionTypes: Set<String> = ["sizing", "spacing", "borderRadius", "borderWidth"]
    /// Tokens Studio's other types.
    static let studioTypes: Set<String> = ["opacity", "fontSizes", "fontWeights", "fontFamilies", "lineHeights", "letterSpacing",
                                           "paragraphSpacing", "paragraphIndent", "textCase", "textDecoration", "typography",
                                           "boxShadow", "composition", "asset", "other", "text", "boolean", "number"]

    /// A type as this reader reads it (Tokens Studio's dimension types as `dimension`).
    func effectiveType(_ t: String?) -> String? {
        guard let t else { return nil }
        return format == .tokensStudio && Self.studioDimensionTypes.contains(t) ? "dimension" : t
    }

    /// "token a.b in file:12" (and how a reference reached it).
    func place(_ token: Token, _ ref: String) -> String {
        "token \(token.path) in \(self.file(of: token.path)):\(token.line)" + (token.path == ref ? "" : " (via {\(ref)})")
    }

    func fail(_ origin: InputError, _ message: String) -> InputError {
        var e = origin
        e.message = message
        return e
    }

    /// A modifier in words: "lighten 0.1 in srgb".
    func describe(_ modify: JSONNode) -> String {
        let parts = ["type", "value", "space"].compactMap { key -> String? in
            switch modify[key]?.value {
            case let .string(s)?: return s
            case let .number(v)?: return ValueReader.number(v)
            default: return nil
            }
        }
        return parts.count == 3 ? "\(parts[0]) \(parts[1]) in \(parts[2])" : parts.joined(separator: " ")
    }

    /// Every token on the chain has a type this reader knows; in strict DTCG none carries a Tokens
    /// Studio `modify`; the chain's type (the last token's, else the first declared) fits the key.
    func check(_ chain: [Token], _ ref: String, expecting types: [String], what: String, origin: InputError) throws(InputError) {
        for token in chain {
            if let t = token.type, !Self.dtcgTypes.contains(t), effectiveType(t) != "dimension" {
                if format == .dtcg, Self.studioDimensionTypes.contains(t) || Self.studioTypes.contains(t) {
                    throw fail(origin, "\(place(token, ref)) has unknown $type \"\(t)\" (not a DTCG 2025.10 type; it is a Tokens "
                               + "Studio type: \(Self.readAsTokensStudio))")
                }
                if !(format == .tokensStudio && Self.studioTypes.contains(t)) {
                    throw fail(origin, "\(place(token, ref)) has unknown $type \"\(t)\" (not a \(format == .dtcg ? "DTCG 2025.10" : "DTCG 2025.10 or Tokens Studio") type)")
                }
            }
            if let m = token.modify, format == .dtcg {
                throw fail(origin, "\(place(token, ref)) carries a Tokens Studio modify (\(describe(m))) in "
                           + "$extensions[\"studio.tokens\"], which a DTCG 2025.10 read does not apply, and its unmodified "
                           + "colour is not what Tokens Studio draws: " + Self.readAsTokensStudio)
            }
        }
        let last = chain.last!
        guard let type = effectiveType(last.type) ?? chain.lazy.compactMap({ self.effectiveType($0.type) }).first else { return }
        if !types.contains(type) {
            throw fail(origin, "\(place(last, ref)) has $type \"\(last.type ?? type)\", but this key takes \(what) "
                       + "(a token of $type \(types.map { "\"\($0)\"" }.joined(separator: " or ")))")
        }
    }

    /// Warnings for the deprecated tokens on a chain.
    func deprecations(_ chain: [Token], _ ref: String) -> [String] {
        chain.compactMap { token in
            guard let reason = token.deprecated else { return nil }
            return "\(place(token, ref)) is deprecated" + (reason.isEmpty ? "" : ": \(reason)")
        }
    }

    /// The last token's value with its JSON Pointers resolved.
    func valueNode(_ token: Token, origin: InputError) throws(InputError) -> JSONNode {
        do { return try resolvingPointers(token.value, at: token.path.split(separator: ".").map(String.init)) } catch {
            throw fail(origin, "token \(token.path) in \(file(of: token.path)):\(token.line): \(error.message)")
        }
    }

    // MARK: Colours

    /// The colour a reference resolves to, with every Tokens Studio `modify` on the way applied
    /// (innermost first): as written (a modifier's result is 8-bit hex, as sd-transforms gives it);
    /// the caller draws it at 8 bits per channel. `resolving` guards references inside strings.
    func color(_ ref: String, origin: InputError, resolving: [String] = []) throws(InputError) -> Resolved<RGBA> {
        let chain = try self.chain(ref, origin: origin)
        if let loop = chain.first(where: { resolving.contains($0.path) }) {
            throw fail(origin, Self.cycleMessage(resolving.suffix(from: resolving.firstIndex(of: loop.path)!) + [loop.path]))
        }
        try check(chain, ref, expecting: ["color"], what: "a colour", origin: origin)
        let last = chain.last!
        let node = try valueNode(last, origin: origin)
        var result = Resolved(value: RGBA.black, line: last.line, warnings: deprecations(chain, ref), chain: chain.map(\.path),
                              chainLines: chain.map(\.line))
        let text = node.value.stringValue
        if format == .tokensStudio, let s = text, s.contains("{") {
            // Tokens Studio: references inside a string (`rgba({colors.blue}, 50%)`) are replaced by
            // the colours they name, and `rgba(#hex, alpha)` read as sd-transforms' hexrgba does.
            let substituted = try substitute(s, origin: origin, resolving: resolving + chain.map(\.path))
            guard let c = ValueReader.cssColor(Self.hexRGBA(substituted)) else {
                throw fail(origin, "\(place(last, ref)): value is not a colour: \"\(s)\" (\"\(substituted)\" with its references resolved)")
            }
            result.value = c
        } else if format == .tokensStudio, let s = text, let c = ValueReader.cssColor(Self.hexRGBA(s)) {
            result.value = c
        } else {
            do {
                let v = try ValueReader.color(node)
                result.value = v.exact
                result.note = v.note
                result.warnings += v.warnings.map { "\(place(last, ref)): \($0)" }
            } catch {
                let embedded = format == .dtcg && (text?.contains("{") ?? false)
                throw fail(origin, "\(place(last, ref)): \(error.message)" + (embedded ? "; " + Self.readAsTokensStudio : ""))
            }
        }
        for token in chain.reversed() {
            guard let m = token.modify else { continue }
            result.value = try modify(result.value, token: token, modify: m, ref: ref, origin: origin,
                                      resolving: resolving + chain.map(\.path))
            result.line = token.line
            result.note = nil
        }
        return result
    }

    /// sd-transforms' `ts/color/css/hexrgba`: `rgba(#rrggbb, a)` → `rgba(r, g, b, a)`.
    static func hexRGBA(_ s: String) -> String {
        let t = s.trimmingCharacters(in: .whitespaces)
        guard t.lowercased().hasPrefix("rgba("), t.hasSuffix(")") else { return s }
        let args = t.dropFirst(5).dropLast().split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard args.count == 2, let c = RGBA(hex: args[0]) else { return s }
        return "rgba(\(RGBA.byte(c.r)), \(RGBA.byte(c.g)), \(RGBA.byte(c.b)), \(args[1]))"
    }

    /// A string with each `{reference}` replaced by the hex of the colour it names.
    func substitute(_ s: String, origin: InputError, resolving: [String]) throws(InputError) -> String {
        var out = ""
        var rest = Substring(s)
        while let open = rest.firstIndex(of: "{") {
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            out += rest[..<open]
            let ref = String(rest[rest.index(after: open)..<close])
            out += try color(ref, origin: origin, resolving: resolving).value.hex
            rest = rest[rest.index(after: close)...]
        }
        return out + rest
    }

    /// A number a modifier takes: a number, a numeric string, or a reference to a number token.
    private func modifierNumber(_ node: JSONNode, _ what: String, origin: InputError, resolving: [String]) throws(InputError) -> Double? {
        switch node.value {
        case let .number(v): return v
        case let .string(s):
            if let v = Double(s.trimmingCharacters(in: .whitespaces)), v.isFinite { return v }
            if let ref = Self.aliasPath(s) {
                let target = try chain(ref, origin: origin).last!
                return try modifierNumber(valueNode(target, origin: origin), what, origin: origin, resolving: resolving)
            }
            return nil
        default: return nil
        }
    }

    /// `base` with a Tokens Studio modifier applied as sd-transforms v2.0.3 does, or refused.
    private func modify(_ base: RGBA, token: Token, modify node: JSONNode, ref: String, origin: InputError,
                        resolving: [String]) throws(InputError) -> RGBA {
        var m = node
        let prefix = "\(place(token, ref)): Tokens Studio modify"
        if case let .string(s) = node.value, let alias = Self.aliasPath(s) {
            do { m = try valueNode(chain(alias, origin: origin).last!, origin: origin) } catch {
                var e = error
                e.message = "\(prefix) is \(s): \(e.message)"
                throw e
            }
        }
        guard case .object = m.value else { throw fail(origin, "\(prefix) must be an object {type, value, space}, found \(m.typeName)") }
        guard case let .string(kindName)? = m["type"]?.value, let kind = StudioColorModifier.Kind(rawValue: kindName) else {
            throw fail(origin, "\(prefix) has type \(m["type"].map { "\"\($0.value.stringValue ?? $0.typeName)\"" } ?? "missing"); "
                       + "Tokens Studio's modifiers are lighten, darken, alpha and mix (refused rather than ignored)")
        }
        guard case let .string(spaceName)? = m["space"]?.value, let space = StudioColorModifier.Space(rawValue: spaceName) else {
            throw fail(origin, "\(prefix) \(kindName) has space \(m["space"].map { "\"\($0.value.stringValue ?? $0.typeName)\"" } ?? "missing"); "
                       + "it takes srgb, hsl, lch or p3 (sd-transforms leaves the colour unmodified otherwise; refused rather than ignored)")
        }
        guard let amountNode = m["value"] else { throw fail(origin, "\(prefix) \(kindName) has no \"value\"") }
        guard let amount = try modifierNumber(amountNode, "value", origin: origin, resolving: resolving) else {
            let shown = amountNode.value.stringValue.map { "\"\($0)\"" } ?? amountNode.typeName
            throw fail(origin, "\(prefix) \(kindName) value \(shown) is not a number"
                       + (ValueReader.isMath(amountNode.value.stringValue ?? "") ? " (math expressions are not supported)" : ""))
        }
        var mixColor: RGBA?
        if kind == .mix {
            guard let c = m["color"] else { throw fail(origin, "\(prefix) mix has no \"color\"") }
            if case let .string(s) = c.value, let alias = Self.aliasPath(s) {
                mixColor = try color(alias, origin: origin, resolving: resolving).value
            } else {
                do { mixColor = try ValueReader.color(c, what: "its mix colour").exact } catch {
                    throw fail(origin, "\(prefix) mix: \(error.message)")
                }
            }
        }
        return StudioColorModifier.apply(kind, amount: amount, space: space, to: base, mixColor: mixColor)
    }

    // MARK: Lengths

    /// The length (points) a reference resolves to.
    func length(_ ref: String, origin: InputError) throws(InputError) -> Resolved<Double> {
        let chain = try self.chain(ref, origin: origin)
        try check(chain, ref, expecting: ["dimension", "number"], what: "a length", origin: origin)
        let last = chain.last!
        if let modified = chain.first(where: { $0.modify != nil }) {
            throw fail(origin, "\(place(modified, ref)): a Tokens Studio modify changes colours, not lengths")
        }
        let node = try valueNode(last, origin: origin)
        do {
            let v = try ValueReader.dimension(node, tokensStudio: format == .tokensStudio)
            return Resolved(value: v, line: last.line, warnings: deprecations(chain, ref))
        } catch {
            throw fail(origin, "\(place(last, ref)): \(error.message)")
        }
    }
}
