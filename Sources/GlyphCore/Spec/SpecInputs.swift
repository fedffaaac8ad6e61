import Foundation
import GlyphColor

/// The spec and token keys that feed a spec's variants, with their values as drawn, for the snapshot
/// manifest: every value the spec file wrote (`Spec.writtenKeys`), with each colour replaced by
/// what it resolved to (`{color.brand.red} #D0021B`: a token change shows as a change of the keys
/// that use it), each dimension token by its alias and value, and each image by its file and the
/// SHA-256 of what is drawn.
///
/// A variant is fed by the keys of its own size (`sizes.<size>.…`), theme (`themes.<theme>.…`) and
/// state (`appearance.<state>.…`), and by every other key (`label.…`, `images.…`, `frame`, …).
/// Computed once per spec; the keys of a variant and their digest are cached per size, theme and state.
public final class SpecInputs: @unchecked Sendable {
    /// Every key with its value, as the manifest records it.
    public let keys: [String: String]
    private let global: [String]
    private let scoped: [String: [String]]
    /// Each key's `key=value` line (UTF-8), by the key's place in sorted order; the global keys'
    /// and each scope's places, ascending (`keysDigest(of:)`).
    private let lines: [[UInt8]]
    private let globalPlaces: [Int]
    private let scopedPlaces: [String: [Int]]
    private let lock = NSLock()
    /// `keysDigest(of:)` by the variant's size, theme and state (its scopes).
    private var digests: [ScopeNames: String] = [:]

    private struct ScopeNames: Hashable {
        var size: String
        var theme: String
        var state: ControlState
    }

    public init(_ spec: Spec) {
        var keys = spec.writtenKeys
        // Colours as resolved (a token alias with its value).
        func put(_ color: AuthoredColor) {
            guard let keyPath = color.keyPath else { return }
            keys[keyPath] = color.token.map { "\($0) \(color.rgba.hex)" } ?? color.rgba.hex
        }
        for theme in spec.themes {
            for role in ColorRole.allCases { if let c = theme.colors[role] { put(c) } }
            for state in ControlState.allCases {
                for role in ColorRole.allCases { if let c = theme.stateColors[state]?[role] { put(c) } }
            }
        }
        // Dimension tokens: the alias with the value it resolved to.
        for size in spec.sizes {
            for child in Mirror(reflecting: size).children {
                guard let label = child.label else { continue }
                let path = "sizes.\(size.name).\(label)"
                guard let written = keys[path], written.hasPrefix("{") else { continue }
                let value: Double? = (child.value as? Double) ?? ((child.value as? Double?) ?? nil)
                if let value { keys[path] = "\(written) \(SpecInputs.number(value))" }
            }
        }
        func resolved(_ path: String, _ value: Double?) {
            guard let value, let written = keys[path], written.hasPrefix("{") else { return }
            keys[path] = "\(written) \(SpecInputs.number(value))"
        }
        if let label = spec.label {
            resolved("label.size", label.size)
            resolved("label.spacing", label.spacing)
            resolved("label.maxWidth", label.maxWidth)
        }
        resolved("targetSpacing", spec.targetSpacing)
        // Images: the file as written and the digest of what is drawn.
        if let images = spec.images {
            for (key, image) in [("on", images.on), ("off", images.off), ("clear", images.clear)] {
                guard let image, let written = keys["images.\(key)"] else { continue }
                keys["images.\(key)"] = "\(written) sha256:\(image.contentDigest)"
            }
        }
        for (state, appearance) in spec.appearance {
            for (i, mark) in appearance.marks.enumerated() {
                guard let image = mark.image else { continue }
                let base = mark.keyPath ?? "appearance.\(state.rawValue).mark[\(i)]"
                let path = keys[base + ".image"] != nil ? base + ".image" : base
                keys[path] = "\(keys[path] ?? "") sha256:\(image.contentDigest)"
            }
        }
        self.keys = keys
        var global: [String] = []
        var scoped: [String: [String]] = [:]
        var lines: [[UInt8]] = []
        var globalPlaces: [Int] = []
        var scopedPlaces: [String: [Int]] = [:]
        for (place, key) in keys.keys.sorted().enumerated() {
            lines.append(Array("\(key)=\(keys[key]!)\n".utf8))
            if let scope = Self.scope(of: key) {
                scoped[scope, default: []].append(key)
                scopedPlaces[scope, default: []].append(place)
            } else {
                global.append(key)
                globalPlaces.append(place)
            }
        }
        self.global = global
        self.scoped = scoped
        self.lines = lines
        self.globalPlaces = globalPlaces
        self.scopedPlaces = scopedPlaces
    }

    /// `sizes.sm`, `themes.dark` or `appearance.checked` for a key under one of them; nil for a key
    /// that feeds every variant.
    package static func scope(of key: String) -> String? {
        for top in ["sizes", "themes", "appearance"] where key.hasPrefix(top + ".") {
            let rest = key.dropFirst(top.count + 1)
            let name = rest.prefix { $0 != "." && $0 != "[" }
            return "\(top).\(name)"
        }
        return nil
    }

    /// The scopes a variant is fed by, besides the global keys.
    package static func scopes(of v: Variant) -> [String] { ["sizes.\(v.size)", "themes.\(v.theme)", "appearance.\(v.state.rawValue)"] }

    /// The scopes of the variant an id names (`square-md` → `sizes.md`, `default+boldText` →
    /// `themes.default`, `checked+focused` → `appearance.checked`); nil for an incomplete id.
    package static func scopes(of id: VariantID) -> [String]? {
        guard id.isComplete, let dash = id.component.firstIndex(of: "-") else { return nil }
        func before(_ s: String, _ c: Character) -> Substring { s.prefix { $0 != c } }
        return ["sizes.\(id.component[id.component.index(after: dash)...])", "themes.\(before(id.theme, "+"))",
                "appearance.\(before(id.state, "+"))"]
    }

    /// Whether `key` feeds `variant`.
    public static func feeds(_ key: String, _ variant: Variant) -> Bool {
        feeds(key, scopes: scopes(of: variant))
    }

    /// Whether `key` feeds a variant of these scopes (`scopes(of:)`).
    package static func feeds(_ key: String, scopes: [String]) -> Bool {
        guard let scope = scope(of: key) else { return true }
        return scopes.contains(scope)
    }

    /// The keys that feed `variant`, sorted.
    public func keys(of variant: Variant) -> [String] {
        (global + Self.scopes(of: variant).flatMap { scoped[$0] ?? [] }).sorted()
    }

    /// The SHA-256 of the keys that feed `variant` and their values (one `key=value` line each, sorted).
    public func keysDigest(of variant: Variant) -> String {
        let id = ScopeNames(size: variant.size, theme: variant.theme, state: variant.state)
        lock.lock()
        if let d = digests[id] { lock.unlock(); return d }
        lock.unlock()
        // `keysDigest(keys(of: variant).map { ($0, keys[$0]!) })`, from the lines made once: the
        // keys in sorted order are the lines in order of their places.
        var places = globalPlaces
        for scope in Self.scopes(of: variant) { places += scopedPlaces[scope] ?? [] }
        places.sort()
        var text: [UInt8] = []
        text.reserveCapacity(places.reduce(0) { $0 + lines[$1].count })
        for place in places { text += lines[place] }
        let d = text.withUnsafeBytes { SHA256.hex($0) }
        lock.lock()
        digests[id] = d
        lock.unlock()
        return d
    }

    /// The digest of keys and values (sorted by key).
    public static func keysDigest(_ pairs: [(String, String)]) -> String {
        SHA256.hex(pairs.sorted { $0.0 < $1.0 }.map { "\($0.0)=\($0.1)\n" }.joined())
    }

    /// A JSON document's leaves by key path: `a.b` for members, `a[0]` for array items, numbers in
    /// their shortest form (`2`, `1.5`), strings as written, `true`, `false`, `null`; an empty
    /// object or array as `{}` / `[]`.
    public static func flatten(_ node: JSONNode) -> [String: String] {
        var out: [String: String] = [:]
        func walk(_ node: JSONNode, _ path: String) {
            switch node.value {
            case .object(let members):
                if members.isEmpty && !path.isEmpty { out[path] = "{}" }
                for m in members { walk(m.value, path.isEmpty ? m.key : "\(path).\(m.key)") }
            case .array(let items):
                if items.isEmpty { out[path] = "[]" }
                for (i, item) in items.enumerated() { walk(item, "\(path)[\(i)]") }
            case .string(let s): out[path] = s
            case .number(let n): out[path] = number(n)
            case .bool(let b): out[path] = b ? "true" : "false"
            case .null: out[path] = "null"
            }
        }
        walk(node, "")
        return out
    }

    /// A number in its shortest form: `2`, `1.5`, `0.1`.
    public static func number(_ v: Double) -> String {
        if v.isFinite, v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
        return "\(v)"
    }
}

extension Scene {
    /// Everything the scene draws, one line per part, every number in full (Swift's shortest
    /// round-tripping form): the canvas, each part's kind, rect, radius, line width, shape, mark,
    /// colours (authored and seen), image (the digest of the file drawn at the variant's scale and
    /// how it is drawn), label (text, size, weight, boxes) and path. Two scenes draw alike exactly
    /// when their texts are equal (given the same renderer).
    public var inputText: String {
        var out = InputTextBuffer()
        appendInputText(to: &out)
        return out.string
    }

    /// `inputText`'s bytes, appended to `out` (a digest is taken of every variant's scene: written
    /// as UTF-8 bytes into one buffer, with no string per piece).
    package func appendInputText(to out: inout InputTextBuffer) {
        out.add("scene 1 ")
        out.add(variant.id)
        out.add(" ")
        out.add(control.rawValue)
        out.add(" ")
        out.add(variant.scale)
        out.add("x canvas ")
        out.add(canvas)
        out.add("\n")
        // By index: each part is borrowed, not copied (with its colour sources, label and path).
        for i in parts.indices { Self.appendInputText(of: parts[i], scale: variant.scale, to: &out) }
    }

    /// One part's line of `inputText`.
    private static func appendInputText(of p: ScenePart, scale: Int, to out: inout InputTextBuffer) {
        out.add(p.kind.rawValue)
        out.add(" ")
        out.add(p.name)
        out.add(" ")
        out.add(p.role.rawValue)
        out.add(" ")
        out.add(p.rect)
        out.add(" r")
        out.add(p.cornerRadius)
        out.add(" w")
        out.add(p.lineWidth)
        out.add(" ")
        out.add(p.shape.rawValue)
        out.add(" ")
        out.add(p.mark.rawValue)
        if let authored = p.color?.authored, let seen = p.color?.seen {
            out.add(" ")
            out.add(authored)
            out.add("/")
            out.add(seen)
        }
        if let b = p.beneath {
            out.add(" on ")
            out.add(b.rawValue)
        }
        if let i = p.image {
            out.add(" image ")
            out.add(i.drawn(scale: scale).contentDigest)
            out.add(" ")
            out.add(i.template)
            out.add(" ")
            out.add(i.opacity)
            out.add(" ")
            out.add(i.stretch)
            out.add(" ")
            out.add(i.dark)
            out.add(" ")
            out.add(i.highContrast)
        }
        if let l = p.label {
            out.add(" label ")
            out.addQuoted(l.text)
            out.add(" ")
            out.add(l.points)
            out.add(" ")
            out.add(l.bold)
            out.add(" ")
            out.add(l.box)
            out.add(" ")
            out.add(l.ink)
            out.add(" ")
            out.add(l.frame)
            if let clip = l.clip {
                out.add(" clip ")
                out.add(clip)
            }
        }
        if let m = p.path {
            out.add(" path ")
            out.addQuoted(m.d)
            out.add(" ")
            out.add(m.viewBox)
            out.add(" ")
            if let stroke = m.stroke { out.add(stroke) } else { out.add("fill") }
            out.add(" ")
            out.add(m.lineCap.rawValue)
            out.add(" ")
            out.add(m.lineJoin.rawValue)
        }
        out.add("\n")
    }
}

/// The UTF-8 bytes of a text built piece by piece, each piece spelled as string interpolation spells
/// it (`"\(x)"`): `Scene.inputText` and the text `VariantInputs.digest` hashes.
package struct InputTextBuffer {
    package private(set) var bytes: [UInt8] = []

    package init(capacity: Int = 1024) { bytes.reserveCapacity(capacity) }

    /// The text.
    package var string: String { String(decoding: bytes, as: UTF8.self) }

    package mutating func add(_ s: String) {
        if s.utf8.withContiguousStorageIfAvailable({ bytes.append(contentsOf: $0) }) == nil {
            var s = s
            s.withUTF8 { bytes.append(contentsOf: $0) }
        }
    }

    package mutating func add(_ b: Bool) { b ? add("true") : add("false") }

    package mutating func add(_ n: Int) {
        if n < 0 { bytes.append(UInt8(ascii: "-")) }
        addDigits(n.magnitude)
    }

    /// As `Double.write(to:)` (interpolation): an integral value below 10^15 as its digits and `.0`
    /// (Swift's shortest form, written here without formatting); any other number by `description`
    /// (the same text), a NaN by `write(to:)` (which adds its payload).
    package mutating func add(_ v: Double) {
        if v == v.rounded(.towardZero), abs(v) < 1e15 {
            if v.sign == .minus { bytes.append(UInt8(ascii: "-")) }
            addDigits(UInt(abs(v)))
            bytes.append(UInt8(ascii: "."))
            bytes.append(UInt8(ascii: "0"))
        } else if !v.isNaN {
            add(v.description)
        } else {
            var text = ""
            v.write(to: &text)
            add(text)
        }
    }

    /// `x,y,widthxheight`.
    package mutating func add(_ r: Rect) {
        add(r.x)
        add(",")
        add(r.y)
        add(",")
        add(r.width)
        add("x")
        add(r.height)
    }

    /// As `RGBA.hex`: `#RRGGBB`, or `#RRGGBBAA` when not opaque.
    package mutating func add(_ c: RGBA) {
        func hex(_ v: UInt8) {
            let hi = v >> 4, lo = v & 15
            bytes.append(hi < 10 ? 0x30 + hi : 0x37 + hi)
            bytes.append(lo < 10 ? 0x30 + lo : 0x37 + lo)
        }
        bytes.append(UInt8(ascii: "#"))
        hex(RGBA.byte(c.r))
        hex(RGBA.byte(c.g))
        hex(RGBA.byte(c.b))
        let alpha = RGBA.byte(c.a)
        if alpha != 255 { hex(alpha) }
    }

    /// As `String.debugDescription`: quoted, and a string of printable ASCII other than `"`, `'` and
    /// `\\` as it is (the rest by `debugDescription`, which escapes).
    package mutating func addQuoted(_ s: String) {
        if s.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "'") && $0 != UInt8(ascii: "\\") }) {
            bytes.append(UInt8(ascii: "\""))
            add(s)
            bytes.append(UInt8(ascii: "\""))
        } else {
            add(s.debugDescription)
        }
    }

    private mutating func addDigits(_ n: UInt) {
        if n >= 10 { addDigits(n / 10) }
        bytes.append(0x30 + UInt8(n % 10))
    }
}

/// A variant's input digest: the SHA-256 of its scene (`Scene.inputText`), the digest of the spec
/// and token keys that feed it (`SpecInputs.keysDigest`) and the renderer's fingerprint (each
/// component and version, sorted). Equal digests, same pixels.
public enum VariantInputs {
    public static func digest(scene: Scene, keysDigest: String, renderer: String) -> String {
        // `inputText`, `keys <keysDigest>`, `renderer <renderer>`, in one buffer of bytes.
        var text = InputTextBuffer(capacity: 1024 + renderer.utf8.count)
        scene.appendInputText(to: &text)
        text.add("keys ")
        text.add(keysDigest)
        text.add("\nrenderer ")
        text.add(renderer)
        text.add("\n")
        return text.bytes.withUnsafeBytes { SHA256.hex($0) }
    }

    /// The renderer's components as one text (`name=version` lines, sorted), for `digest`.
    public static func rendererText(_ components: [String: String]) -> String {
        components.keys.sorted().map { "\($0)=\(components[$0]!)" }.joined(separator: ";")
    }
}
