import Foundation
import GlyphColor
import GlyphCore

/// An Xcode asset catalog (`.xcassets`) of the glyphs of a set of specs, planned and laid out.
///
/// - One folder per preset, a namespace (`"provides-namespace" : true`), because the image set names
///   repeat across presets: the image is `Image("design-system-checkbox/square-md-checked")`.
/// - One image set per shape, size and state, e.g. `design-system-checkbox/square-md-checked.imageset`.
/// - The glyph only (no label, transparent background) at Dynamic Type `large`, the glyph's base size.
/// - Themes fill the image set's appearances by their `appearance`: any ← the first light theme
///   (preferring `default`), dark ← the first dark one (preferring `inverse`), high contrast and dark
///   high contrast ← the first `light-high-contrast` and `dark-high-contrast` ones. A theme without
///   `appearance` counts by its name as before (`default` light, `inverse` dark); `disabled` and the
///   other themes have no slot in an image set and are not exported (see docs/export.md).
/// - PNG at @1x, @2x and @3x, or one PDF or SVG with `"preserves-vector-representation" : true`.
/// - Template images (an image checkbox with `template: true`) are drawn in one colour (black, with the
///   image's coverage as alpha; as SVG, the image's own paths in black, with no mask), marked
///   `"template-rendering-intent" : "template"`, and have no dark
///   variant (the tint decides the colour); everything else is marked `"original"`, so a toolbar or tab
///   bar does not flatten a coloured glyph into a template.
///
/// Everything that can fail on input fails in `init`, before anything is rendered or written.
///
/// The catalog does not render: labels are measured by the `TextMeasuring` and the files drawn by the
/// `AssetRendering` its caller hands in (GlyphPipeline passes the render target's).
public struct AssetCatalog: Sendable {
    public enum Format: String, Sendable, CaseIterable {
        case png, pdf, svg

        public var isVector: Bool { self != .png }
    }

    /// The appearance an image fills in its image set.
    public enum Appearance: String, Sendable, CaseIterable {
        case any, dark
        case highContrast = "high-contrast"
        case darkHighContrast = "dark-high-contrast"

        /// The entry's `appearances`, as Xcode writes them (luminosity before contrast).
        var appearances: XcodeJSON? {
            let dark: XcodeJSON = ["appearance": "luminosity", "value": "dark"]
            let high: XcodeJSON = ["appearance": "contrast", "value": "high"]
            switch self {
            case .any: return nil
            case .dark: return [dark]
            case .highContrast: return [high]
            case .darkHighContrast: return [dark, high]
            }
        }

        /// The file name's suffix.
        var suffix: String {
            switch self {
            case .any: ""
            case .dark: "-dark"
            case .highContrast: "-hc"
            case .darkHighContrast: "-dark-hc"
            }
        }
    }

    /// One file of an image set.
    public struct Image: Sendable {
        public let appearance: Appearance
        /// The display scale (1, 2, 3); nil for a vector image, which serves every scale.
        public let scale: Int?
        public let filename: String
        /// The glyph alone: canvas = the glyph's box at origin (0, 0), no label.
        public let layout: Layout
        /// The spec to draw it with (for a template image, with the tint replaced by black).
        public let spec: Spec
    }

    public struct ImageSet: Sendable {
        /// The preset: the namespace folder the set lives in.
        public let folder: String
        /// `<shape>-<size>-<state>`, e.g. `square-md-checked` (`switch-md-on` for a switch).
        public let name: String
        public let template: Bool
        public let vector: Bool
        public let images: [Image]

        /// Path of the image set folder inside the catalog.
        public var path: String { "\(folder)/\(name).imageset" }

        /// The image set's `Contents.json`, entries in Xcode's order (by scale, any before dark).
        public var contents: XcodeJSON {
            let entries: [XcodeJSON] = images.map { image in
                var entry: [String: XcodeJSON] = ["filename": .string(image.filename), "idiom": "universal"]
                if let scale = image.scale { entry["scale"] = .string("\(scale)x") }
                if let appearances = image.appearance.appearances { entry["appearances"] = appearances }
                return .object(entry)
            }
            var properties: [String: XcodeJSON] = ["template-rendering-intent": template ? "template" : "original"]
            if vector { properties["preserves-vector-representation"] = true }
            return ["images": .array(entries), "info": AssetCatalog.info, "properties": .object(properties)]
        }
    }

    /// A file of the catalog: a path relative to the catalog folder and its bytes.
    public struct File: Sendable, Equatable {
        public let path: String
        public let data: Data
    }

    /// The theme preferred for the any appearance (and, without `appearance`, the one that is light).
    public static let anyTheme = "default"
    /// The theme preferred for the dark appearance (and, without `appearance`, the one that is dark).
    public static let darkTheme = "inverse"
    /// The theme never exported: a control state the app chooses, not a system appearance.
    public static let disabledTheme = "disabled"

    /// The themes a spec's image sets hold, by appearance, in Xcode's order (any, dark, high contrast,
    /// dark high contrast): any ← the first light theme, preferring `default`; dark ← the first dark
    /// one, preferring `inverse`; high contrast ← the first `light-high-contrast` and
    /// `dark-high-contrast` ones. A theme says what it is with `appearance`; one without it counts by
    /// its name (`default` light, `inverse` dark; any other name is not exported), so specs written
    /// before `appearance` export as they did; in a spec with no `default` and no declared light theme,
    /// by its surface (dark when the surface is). `disabled` is never exported. A template image set
    /// holds the any appearance only (the tint gives every other look).
    public static func appearanceThemes(_ spec: Spec) -> [(appearance: Appearance, theme: String)] {
        // A spec with neither a `default` theme nor a declared light one (themes named `light` and
        // `dark`, say) is read by its surfaces: a theme without `appearance` is dark when its surface is.
        let bySurface = !spec.themes.contains { $0.name != disabledTheme && ($0.appearance == .light || ($0.appearance == nil && $0.name == anyTheme)) }
        func first(_ want: ThemeAppearance, preferring name: String?) -> String? {
            let fits = spec.themes.filter { t in
                guard t.name != disabledTheme else { return false }
                if let a = t.appearance { return a == want }
                if bySurface, want == .light || want == .dark { return (want == .dark) == t.isDark }
                return t.name == name
            }
            return (fits.first { $0.name == name } ?? fits.first)?.name
        }
        var out: [(appearance: Appearance, theme: String)] = []
        if let any = first(.light, preferring: anyTheme) { out.append((.any, any)) }
        if spec.images?.template == true { return out }
        if let dark = first(.dark, preferring: darkTheme) { out.append((.dark, dark)) }
        if let high = first(.lightHighContrast, preferring: nil) { out.append((.highContrast, high)) }
        if let high = first(.darkHighContrast, preferring: nil) { out.append((.darkHighContrast, high)) }
        return out
    }
    /// The scales of a bitmap image set.
    public static let scales = [1, 2, 3]
    /// The Dynamic Type size the glyphs are drawn at: `large`, where a glyph has its base size.
    public static let dynamicType = DynamicTypeSize.large
    /// `--only` keys that the catalog's layout fixes and so cannot filter.
    public static let fixedKeys: [VariantFilter.Key] = [.dynamicType, .theme, .scale]
    /// `"info"` as Xcode writes it.
    public static let info: XcodeJSON = ["author": "xcode", "version": 1]

    public let format: Format
    public let imageSets: [ImageSet]
    /// Image sets before `--only` filtering.
    public let total: Int

    /// The presets (namespace folders) in the catalog, in spec order.
    public var folders: [String] {
        var seen = Set<String>()
        return imageSets.map(\.folder).filter { seen.insert($0).inserted }
    }

    /// `text` measures the labels a layout needs (the glyph is laid out with its label, then cut to the glyph).
    public init(specs: [Spec], filter: VariantFilter = VariantFilter(), format: Format = .png,
                text: any TextMeasuring) throws(InputError) {
        for key in Self.fixedKeys where filter.allowed[key] != nil {
            throw InputError(file: "--only", message: "export cannot filter by \(key.rawValue): an image set always holds "
                             + "Dynamic Type L and the themes of its appearances (any, dark, high contrast)"
                             + (format.isVector ? "" : " at scales 1, 2 and 3")
                             + "; filter by preset, control, shape, size or state")
        }
        var names = Set<String>()
        var sets: [ImageSet] = []
        var total = 0
        for spec in specs {
            let file = spec.sourceFile ?? spec.name
            guard names.insert(spec.name).inserted else {
                throw InputError(file: file, keyPath: "name",
                                 message: "two specs are named \"\(spec.name)\"; names must be unique (they name the catalog's folders)")
            }
            let themes = Self.appearanceThemes(spec)
            guard let anyTheme = themes.first(where: { $0.appearance == .any })?.theme else {
                throw InputError(file: file, keyPath: "themes",
                                 message: "export needs a light theme for the any appearance: one named \"\(Self.anyTheme)\" or one "
                                     + "with \"appearance\": \"light\"; this spec has "
                                     + spec.themes.map { "\"\($0.name)\"" + ($0.appearance.map { " (\($0.rawValue))" } ?? "") }
                                         .joined(separator: ", "))
            }
            let template = spec.images?.template ?? false
            let drawSpec = template ? Self.templateSpec(spec) : spec
            // Each appearance's theme, spec and display setting: a spec with `settings` that names
            // `increaseContrast` fills the high-contrast appearances its themes leave empty with the
            // any and dark themes drawn under Increase Contrast (docs/export.md).
            var entries = themes.map { (appearance: $0.appearance, theme: $0.theme, spec: drawSpec, setting: DisplaySetting?.none) }
            if !template, spec.settings.contains(.increaseContrast) {
                let high = spec.spec(for: .increaseContrast)
                for (from, to) in [(Appearance.any, Appearance.highContrast), (.dark, .darkHighContrast)]
                where !themes.contains(where: { $0.appearance == to }) {
                    if let t = themes.first(where: { $0.appearance == from }) {
                        entries.append((appearance: to, theme: t.theme, spec: high, setting: .increaseContrast))
                    }
                }
                let order: [Appearance] = [.any, .dark, .highContrast, .darkHighContrast]
                entries.sort { order.firstIndex(of: $0.appearance)! < order.firstIndex(of: $1.appearance)! }
            }
            let shapes = spec.control == .switch ? [spec.shapes.first ?? .square] : spec.shapes
            for shape in shapes {
                for size in spec.sizes {
                    for state in spec.states {
                        total += 1
                        let probe = Variant(preset: spec.name, control: spec.control, shape: shape, size: size.name,
                                            dynamicType: Self.dynamicType, theme: anyTheme, state: state, scale: 1)
                        guard filter.matches(probe) else { continue }
                        let name = "\(probe.component)-\(state.rawValue)"
                        var images: [Image] = []
                        for scale in format.isVector ? [1] : Self.scales {
                            for (appearance, theme, entrySpec, setting) in entries {
                                var v = probe
                                v.theme = theme
                                v.scale = scale
                                v.setting = setting
                                let layout = try Layout(spec: entrySpec, variant: v, text: text).glyphOnly()
                                let suffix = appearance.suffix + (format.isVector || scale == 1 ? "" : "@\(scale)x")
                                images.append(Image(appearance: appearance, scale: format.isVector ? nil : scale,
                                                    filename: "\(name)\(suffix).\(format.rawValue)", layout: layout, spec: entrySpec))
                            }
                        }
                        sets.append(ImageSet(folder: spec.name, name: name, template: template, vector: format.isVector,
                                             images: images))
                    }
                }
            }
        }
        if sets.isEmpty {
            throw InputError(file: "--only", message: "no image set matches (\(total) image sets before filtering)")
        }
        self.format = format
        self.imageSets = sets
        self.total = total
    }

    /// A template image is drawn in opaque black: only its coverage counts, Xcode's tint gives the colour.
    static func templateSpec(_ spec: Spec) -> Spec {
        var s = spec
        s.themes = s.themes.map { theme in
            var t = theme
            t.colors[.tint] = AuthoredColor(rgba: .black, token: nil, line: nil)
            for state in t.stateColors.keys { t.stateColors[state]?[.tint] = nil }
            t.imageOpacity = 1
            return t
        }
        return s
    }

    /// Renders every file in memory, on `jobs` threads: the images, then each image set's
    /// `Contents.json`, then each folder's, then the catalog's (the order they are written in, so an
    /// interrupted export never leaves a `Contents.json` naming a file that is not there). `rendering`
    /// draws the images.
    public func files(jobs: Int = defaultJobs, rendering: any AssetRendering) throws -> [File] {
        let work = imageSets.flatMap { set in set.images.map { (set.path + "/" + $0.filename, $0) } }
        let format = self.format
        let rendered = parallelMap(work.count, jobs: jobs) { i -> Result<Data, Error> in
            Result { try Self.render(work[i].1, format: format, with: rendering) }
        }
        var files: [File] = []
        files.reserveCapacity(work.count + imageSets.count + folders.count + 1)
        for (i, result) in rendered.enumerated() {
            files.append(File(path: work[i].0, data: try result.get()))
        }
        for set in imageSets {
            files.append(File(path: set.path + "/Contents.json", data: set.contents.data))
        }
        let folder: XcodeJSON = ["info": Self.info, "properties": ["provides-namespace": true]]
        for name in folders {
            files.append(File(path: name + "/Contents.json", data: folder.data))
        }
        files.append(File(path: "Contents.json", data: (["info": Self.info] as XcodeJSON).data))
        return files
    }

    /// One image's file, drawn by `rendering`.
    public static func render(_ image: Image, format: Format, with rendering: any AssetRendering) throws -> Data {
        switch format {
        case .png:
            return try rendering.png(image.layout, spec: image.spec)
        case .pdf:
            return rendering.pdf(image.layout, spec: image.spec)
        case .svg:
            guard image.spec.images?.template == true else {
                return unitlessSVGSize(rendering.svg(image.layout, spec: image.spec))
            }
            // A tinted template comes out of cairo as a <mask> with an alpha <filter>, which Xcode's SVG
            // subset may not draw. Xcode uses only a template's alpha, so draw the image's own paths
            // untinted and paint every colour black: the same coverage, in plain paths.
            var plain = image.spec
            plain.images?.template = false
            return unitlessSVGSize(blackened(rendering.svg(image.layout, spec: plain)))
        }
    }

    /// Every colour of a cairo SVG (`rgb(r%,g%,b%)` in fills, strokes and gradient stops) made black;
    /// opacities are separate properties and stay.
    static func blackened(_ data: Data) -> Data {
        let text = String(decoding: data, as: UTF8.self)
        return Data(text.replacing(/rgb\(\s*[0-9.]+%\s*,\s*[0-9.]+%\s*,\s*[0-9.]+%\s*\)/, with: "rgb(0%,0%,0%)").utf8)
    }

    /// cairo sizes an SVG in `pt` (`width="20pt"`); CSS makes 1 pt = 4/3 px, and Xcode takes an SVG's
    /// unitless size (px) as points, so `20pt` would import as a 26.67-point image. Drop the unit on the
    /// root element, which leaves the same numbers as the `viewBox`.
    static func unitlessSVGSize(_ data: Data) -> Data {
        var text = String(decoding: data, as: UTF8.self)
        guard let open = text.range(of: "<svg"), let close = text[open.upperBound...].firstIndex(of: ">") else { return data }
        let tag = String(text[open.lowerBound..<close])
        let fixed = tag.replacing(/\s(width|height)="([0-9.]+)pt"/) { m in " \(m.output.1)=\"\(m.output.2)\"" }
        text.replaceSubrange(open.lowerBound..<close, with: fixed)
        return Data(text.utf8)
    }
}

/// What draws a catalog's images: the glyph of a layout alone (no surface, no label), as a file.
/// GlyphExport declares it; the caller passes the render target's (`CairoAssetRendering`, GlyphPipeline).
public protocol AssetRendering: Sendable {
    /// A PNG at the layout's display scale, compressed as small as it goes (the catalog ships it).
    func png(_ layout: Layout, spec: Spec) throws -> Data
    /// A one-page PDF, the layout's canvas in points.
    func pdf(_ layout: Layout, spec: Spec) -> Data
    /// An SVG, the layout's canvas in points (as cairo writes it).
    func svg(_ layout: Layout, spec: Spec) -> Data
}

extension Layout {
    /// The layout cut to the glyph's box: the canvas is the glyph at (0, 0), everything moved with it,
    /// no label. The glyph box was snapped to the variant's pixel grid, so the move keeps it on the grid.
    func glyphOnly() -> Layout {
        var l = self
        // A switch knob taller than its track is part of the picture: the canvas holds it too.
        if let knob, knob.height > glyph.height {
            let box = glyph.union(knob)
            let dx = -box.x, dy = -box.y
            l.canvas = Rect(x: 0, y: 0, width: box.width, height: box.height)
            l.glyph = glyph.offsetBy(dx: dx, dy: dy)
            l.frame = frame.offsetBy(dx: dx, dy: dy)
            l.image = image?.offsetBy(dx: dx, dy: dy)
            l.mark = mark?.offsetBy(dx: dx, dy: dy)
            l.knob = knob.offsetBy(dx: dx, dy: dy)
            l.hitArea = hitArea.offsetBy(dx: dx, dy: dy)
            l.label = nil
            return l
        }
        let dx = -glyph.x, dy = -glyph.y
        l.canvas = Rect(x: 0, y: 0, width: glyph.width, height: glyph.height)
        l.glyph = l.canvas
        l.frame = frame.offsetBy(dx: dx, dy: dy)
        l.image = image?.offsetBy(dx: dx, dy: dy)
        l.mark = mark?.offsetBy(dx: dx, dy: dy)
        l.knob = knob?.offsetBy(dx: dx, dy: dy)
        l.hitArea = hitArea.offsetBy(dx: dx, dy: dy)
        l.label = nil
        return l
    }
}
