import Foundation

/// Reads the images a spec names (`images.on` …): an SVG or PDF file, a PNG file with its `@2x` /
/// `@3x` siblings, or an image set of an asset catalog (a folder ending in `.imageset` with its
/// `Contents.json`). Every file it reads lies in the spec's own folder or one of its `assets` roots,
/// symbolic links followed (`AssetSource.escape`); what it cannot use is bad input at the spec key.
struct ImageLoader {
    /// The spec's file (its images resolve against its folder) and the name its errors carry.
    let specPath: String
    let specFile: String
    let source: AssetSource
    let reader: any VectorImageReader
    /// The spec's own folder, then its `assets` roots (resolved).
    let folders: [String]

    /// What a key loaded as an `ImageAsset`, for the checks that need the rest of the spec.
    struct Loaded {
        let key: String
        let node: JSONNode
        let asset: ImageAsset
        /// The image set's folder (shown), or nil for a PNG named directly.
        let imageSet: String?
        /// A PNG's name without its scale suffix and extension, and its extension (`.png`).
        let stem: String
        let ext: String
    }

    private(set) var loaded: [Loaded] = []
    /// Warnings found while loading: spec key, its node, message.
    private(set) var warnings: [(key: String, node: JSONNode, message: String)] = []

    init(specPath: String, source: AssetSource, reader: any VectorImageReader, roots: [String]) {
        self.specPath = specPath
        self.specFile = source.displayName(specPath)
        self.source = source
        self.reader = reader
        self.folders = [specPath.parentPath] + roots
    }

    func fail(_ key: String, _ node: JSONNode, _ message: String) -> InputError {
        InputError(file: specFile, keyPath: key, line: node.line, column: node.column, message: message)
    }

    /// An error inside an image file, reported at the spec key, naming the file (and its line).
    func nested(_ e: InputError, _ key: String, _ node: JSONNode) -> InputError {
        let place = e.file + (e.line.map { ":\($0)" } ?? "")
        let inner = e.keyPath.map { $0.isEmpty ? "" : "\($0): " } ?? ""
        return fail(key, node, "\(place): \(inner)\(e.message)")
    }

    static let pngSignature: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]

    static let pdfSignature = Array("%PDF-".utf8)

    // MARK: - One key

    /// Loads the image `written` (as the spec writes it) for `key`.
    mutating func load(_ written: String, key: String, node: JSONNode) throws(InputError) -> any VectorImage {
        var rel = written
        while rel.count > 1 && rel.hasSuffix("/") { rel.removeLast() }
        if rel.isEmpty { throw fail(key, node, "the image path is empty") }
        let p = source.resolve(rel, from: specPath)
        try confine(p, shown: "\"\(written)\"", key: key, node: node)
        let ext = (p as NSString).pathExtension.lowercased()
        if ext == "imageset" { return try loadImageSet(p, key: key, node: node) }
        if ext == "xcassets" {
            throw fail(key, node, "\(source.displayName(p)) is an asset catalog; name one of its image sets, e.g. \"\(rel)/checkbox-on.imageset\"")
        }
        if source.isFolder(p) {
            throw fail(key, node, "\(source.displayName(p)) is a folder; name an SVG, PNG or PDF file, or an asset catalog's image set (a folder ending in .imageset)")
        }
        let kind = ext == "png" ? "PNG" : ext == "svg" ? "SVG" : ext == "pdf" ? "PDF" : "image"
        let limit = ext == "svg" ? Limits.svgFileBytes : ext == "pdf" ? Limits.pdfFileBytes : Limits.pngFileBytes
        let data: Data
        switch try readWithin(p, shown: "\"\(written)\"", key: key, node: node, limit: limit, what: "\(kind) image") {
        case let .success(d): data = d
        case let .failure(error):
            throw fail(key, node, error.missing ? "\(kind) file \(source.displayName(p)) not found"
                                                 : "\(source.displayName(p)): \(error.message)")
        }
        if ext == "png" || data.starts(with: Self.pngSignature) { return try loadPNG(p, data: data, key: key, node: node) }
        if ext == "pdf" || data.starts(with: Self.pdfSignature) {
            if data.count > Limits.pdfFileBytes {
                throw fail(key, node, "\(source.displayName(p)): the PDF image is \(data.count) bytes; the limit is "
                                 + "\(Limits.bytes(Limits.pdfFileBytes)) (docs/limits.md)")
            }
            return try pdf(data, p, key: key, node: node)
        }
        do {
            return try reader.read(data: data, name: source.displayName(p), base: source.fileURL(at: p))
        } catch {
            // What is wrong inside the SVG, named from the spec key that loads it.
            throw nested(error, key, node)
        }
    }

    /// Refuses `path` unless it lies in the spec's folder or an `assets` root (links followed).
    func confine(_ path: String, shown: String, key: String, node: JSONNode) throws(InputError) {
        guard let escape = source.escape(path, folders: folders) else { return }
        throw refusal(escape, path, shown: shown, key: key, node: node)
    }

    /// The bytes of `path`, read from inside the allowed folders as it is opened (`AssetSource.read(_:within:…)`:
    /// no link followed out of them, the file read is the one checked); a link out of them is bad input
    /// (`confine`'s message), what the file itself lacks is the caller's to word.
    func readWithin(_ path: String, shown: String, key: String, node: JSONNode, limit: Int,
                    what: String) throws(InputError) -> Result<Data, InputFile.Failure> {
        do { return .success(try source.read(path, within: folders, limit: limit, what: what)) } catch {
            switch error {
            case let .escape(escape): throw refusal(escape, path, shown: shown, key: key, node: node)
            case let .file(failure): return .failure(failure)
            }
        }
    }

    func refusal(_ escape: PathEscape, _ path: String, shown: String, key: String, node: JSONNode) -> InputError {
        let roots = folders.dropFirst().map(source.displayName)
        let allowed = "the spec's folder \(source.displayName(folders[0]))"
            + (roots.isEmpty ? "" : " and its asset roots \(roots.joined(separator: ", "))")
        let hint = roots.isEmpty ? " (a spec's images lie in its own folder, or in the folders its \"assets\" names)" : ""
        switch escape {
        case .outside:
            let resolved = source.displayName(path)
            let note = shown == "\"\(resolved)\"" ? "" : " (\(resolved))"
            return fail(key, node, "\(shown)\(note) lies outside \(allowed); it is not read\(hint)")
        case let .link(target):
            return fail(key, node, "\(shown) leads through a symbolic link to \(target), outside \(allowed); it is not read\(hint)")
        case .tooManyLinks:
            return fail(key, node, "\(shown) is a path through more than 40 symbolic links; it is not read")
        }
    }

    func png(_ data: Data, _ path: String, scale: Int, key: String, node: JSONNode) throws(InputError) -> any VectorImage {
        do { return try reader.readPNG(data: data, name: source.displayName(path), scale: scale) } catch {
            throw nested(error, key, node)
        }
    }

    /// A PDF, drawn as a vector at every scale from its first page; more pages are a warning (Xcode
    /// draws the first page too).
    mutating func pdf(_ data: Data, _ path: String, key: String, node: JSONNode) throws(InputError) -> any VectorImage {
        let read: (image: any VectorImage, pages: Int)
        do { read = try reader.readPDF(data: data, name: source.displayName(path)) } catch { throw nested(error, key, node) }
        if read.pages > 1 {
            warnings.append((key, node, "\(source.displayName(path)) has \(read.pages) pages; its first page is drawn (as Xcode draws it)"))
        }
        return read.image
    }

    // MARK: - PNG with its scales

    /// A PNG and the siblings that give it other scales, as UIImage finds them: `on.png` is @1x,
    /// `on@2x.png` @2x, `on@3x.png` @3x (and `on@4x.png` for a spec's scale 4), whichever is named.
    mutating func loadPNG(_ path: String, data: Data, key: String, node: JSONNode) throws(InputError) -> any VectorImage {
        let folder = path.parentPath
        let file = (path as NSString).lastPathComponent
        let ext = (file as NSString).pathExtension.isEmpty ? "" : "." + (file as NSString).pathExtension
        var stem = ext.isEmpty ? file : (file as NSString).deletingPathExtension
        var own = 1
        if let m = stem.wholeMatch(of: /(.+)@([1-9])x/) {
            stem = String(m.output.1)
            own = Int(m.output.2)!
        }
        var renditions = [ImageRendition(image: try png(data, path, scale: own, key: key, node: node), scale: own, appearance: .any)]
        for scale in 1...4 where scale != own {
            let sibling = folder + "/" + stem + (scale == 1 ? "" : "@\(scale)x") + ext
            try confine(sibling, shown: "\(source.displayName(sibling)) (the @\(scale)x of \(file))", key: key, node: node)
            let bytes: Data
            switch try readWithin(sibling, shown: "\(source.displayName(sibling)) (the @\(scale)x of \(file))", key: key, node: node,
                                  limit: Limits.pngFileBytes, what: "PNG image") {
            case let .success(d): bytes = d
            case let .failure(error):
                if error.missing { continue }
                throw fail(key, node, "\(source.displayName(sibling)): \(error.message)")
            }
            renditions.append(ImageRendition(image: try png(bytes, sibling, scale: scale, key: key, node: node), scale: scale,
                                             appearance: .any))
        }
        renditions.sort { $0.scale! < $1.scale! }
        let asset = ImageAsset(path: source.displayName(path), renditions: renditions)
        noteSizes(asset, key: key, node: node)
        loaded.append(Loaded(key: key, node: node, asset: asset, imageSet: nil, stem: stem, ext: ext))
        return asset
    }

    /// Warns when the files of an image are not one size in points (beyond a pixel at their scale).
    mutating func noteSizes(_ asset: ImageAsset, key: String, node: JSONNode) {
        let reference = asset.rendition(scale: Int.max, dark: false).image
        let name = { (image: any VectorImage) in (image.path as NSString).lastPathComponent }
        for r in asset.renditions {
            guard let s = r.scale, r.image !== reference else { continue }
            let k = Double(s)
            if abs(r.image.width - asset.width) * k > 1 || abs(r.image.height - asset.height) * k > 1 {
                let n = Format.number
                warnings.append((key, node, "\(name(r.image)) is \(n(r.image.width * k)) × \(n(r.image.height * k)) px, "
                                 + "\(n(r.image.width)) × \(n(r.image.height)) pt at @\(s)x, but \(name(reference)) is "
                                 + "\(n(asset.width)) × \(n(asset.height)) pt: the files of one image should be one size in points "
                                 + "(it is laid out at \(n(asset.width)) × \(n(asset.height)) pt)"))
            }
        }
    }

    // MARK: - Asset catalog image set

    /// One entry of an image set's `images` that glyphaudit draws.
    struct Entry {
        let index: Int
        let filename: String
        let idiom: String
        let scale: Int?
        let appearance: ImageRendition.Appearance
        /// `{"appearance": "contrast", "value": "high"}`: drawn in high-contrast themes.
        var highContrast = false
        let node: JSONNode
    }

    struct Contents {
        var entries: [Entry] = []
        /// Idioms of the entries that were left out (not universal or iphone).
        var otherIdioms: [String] = []
        var template: Bool?
        var preservesVector = false
    }

    /// Entry keys that select a device, a display or a language glyphaudit does not model: an entry with
    /// one of them is left out (as a device that does not match leaves it out), except `display-gamut`
    /// `sRGB`.
    static let unmodelledKeys = ["subtype", "display-gamut", "language-direction", "width-class", "height-class", "memory",
                                 "graphics-feature-set", "screen-width", "locale", "unassigned"]

    /// Reads an image set's `Contents.json` (`cr` names it in errors).
    static func contents(_ root: JSONNode, _ cr: inout SpecReader) throws(InputError) -> Contents {
        let top = try cr.object(root, "", allowed: ["images", "info", "properties"], required: ["images"])
        var out = Contents()
        if let props = top["properties"] {
            for (k, v) in try cr.map(props, "properties") {
                let p = "properties.\(k)"
                switch k {
                case "template-rendering-intent":
                    switch try cr.string(v, p) {
                    case "template": out.template = true
                    case "original": out.template = false
                    case let s: throw cr.error(p, v, "unknown value \"\(s)\"; expected \"template\" or \"original\"")
                    }
                case "preserves-vector-representation":
                    guard case let .bool(b) = v.value else { throw cr.error(p, v, "expected true or false, found \(v.typeName)") }
                    out.preservesVector = b
                default: continue // compression-type, localizable, auto-scaling: nothing that changes the drawing
                }
            }
        }
        for (i, item) in try cr.array(top["images"]!, "images").enumerated() {
            let p = "images[\(i)]"
            // Xcode's own keys for what glyphaudit does not draw: named, not "unknown".
            if case let .object(members) = item.value,
               let (key, value) = members.first(where: { ["alignment-insets", "resizing"].contains($0.key) }) {
                throw cr.error("\(p).\(key)", value, key == "resizing"
                    ? "slicing (\"resizing\", Xcode's Slicing inspector) is not modelled: glyphaudit draws the whole image "
                        + "scaled into its box; remove the slicing from this image set to audit it"
                    : "alignment insets are not modelled: glyphaudit fits the image's whole canvas into its box; remove them "
                        + "from this image set (or crop the image) to audit it")
            }
            let e = try cr.object(item, p, allowed: ["filename", "idiom", "scale", "appearances"] + unmodelledKeys)
            var skip = false
            for k in unmodelledKeys where e[k] != nil {
                if k == "display-gamut", case .string("sRGB") = e[k]!.value { continue }
                skip = true
            }
            var idiom = "universal"
            if let n = e["idiom"] { idiom = try cr.string(n, p + ".idiom") }
            var scale: Int?
            if let n = e["scale"] {
                let s = try cr.string(n, p + ".scale")
                guard let v = ["1x": 1, "2x": 2, "3x": 3][s] else {
                    throw cr.error(p + ".scale", n, "unknown scale \"\(s)\"; expected \"1x\", \"2x\" or \"3x\"")
                }
                scale = v
            }
            var appearance = ImageRendition.Appearance.any
            var highContrast = false
            if let a = e["appearances"] {
                for (j, an) in try cr.array(a, p + ".appearances").enumerated() {
                    let ap = "\(p).appearances[\(j)]"
                    let am = try cr.object(an, ap, allowed: ["appearance", "value"], required: ["appearance", "value"])
                    let kind = try cr.string(am["appearance"]!, ap + ".appearance")
                    let value = try cr.string(am["value"]!, ap + ".value")
                    switch (kind, value) {
                    case ("luminosity", "light"): appearance = .light
                    case ("luminosity", "dark"): appearance = .dark
                    case ("contrast", "high"): highContrast = true // drawn in high-contrast themes
                    case ("luminosity", _):
                        throw cr.error(ap + ".value", am["value"], "unknown luminosity \"\(value)\"; expected \"light\" or \"dark\"")
                    case ("contrast", _):
                        throw cr.error(ap + ".value", am["value"], "unknown contrast \"\(value)\"; expected \"high\"")
                    default:
                        throw cr.error(ap + ".appearance", am["appearance"],
                                       "unknown appearance \"\(kind)\"; expected \"luminosity\" or \"contrast\"")
                    }
                }
            }
            guard let fn = e["filename"] else { continue } // an empty slot
            let filename = try cr.string(fn, p + ".filename")
            if filename.isEmpty || filename == "." || filename == ".." || filename.contains("/") || filename.contains("\0") {
                throw cr.error(p + ".filename", fn, "\"\(filename)\" is not a file name in the image set's own folder")
            }
            if skip { continue }
            guard idiom == "universal" || idiom == "iphone" else {
                if !out.otherIdioms.contains(idiom) { out.otherIdioms.append(idiom) }
                continue
            }
            out.entries.append(Entry(index: i, filename: filename, idiom: idiom, scale: scale, appearance: appearance,
                                     highContrast: highContrast, node: item))
        }
        return out
    }

    /// An image set: its `Contents.json` picks a file per scale and appearance (see docs/spec-format.md).
    mutating func loadImageSet(_ path: String, key: String, node: JSONNode) throws(InputError) -> any VectorImage {
        let shownSet = source.displayName(path)
        let contentsPath = path + "/Contents.json"
        let shownContents = source.displayName(contentsPath)
        try confine(contentsPath, shown: shownContents, key: key, node: node)
        let data: Data
        let read = try readWithin(contentsPath, shown: shownContents, key: key, node: node, limit: Limits.jsonFileBytes,
                                  what: "Contents.json")
        switch read {
        case let .success(d): data = d
        case let .failure(error):
            if error.missing {
                throw fail(key, node, source.isFolder(path) ? "\(shownSet) has no Contents.json; it is not an image set"
                                                                  : "image set \(shownSet) not found")
            }
            throw fail(key, node, "\(shownContents): \(error.message)")
        }
        let root: JSONNode
        do { root = try JSONReader.parse(data) } catch {
            throw fail(key, node, "\(shownContents):\(error.line):\(error.column): malformed JSON: \(error.message)")
        }
        var cr = SpecReader(file: shownContents)
        let contents: Contents
        do { contents = try Self.contents(root, &cr) } catch { throw nested(error, key, node) }

        // One file per slot (appearance and scale); an iphone entry is preferred to a universal one.
        var slots: [String: Entry] = [:]
        for e in contents.entries {
            let slot = "\(e.appearance.rawValue)\(e.highContrast ? "-high" : "")-\(e.scale ?? 0)"
            if let old = slots[slot] {
                if old.idiom == e.idiom {
                    throw fail(key, node, "\(shownContents):\(e.node.line): images[\(e.index)]: a second \(e.idiom) file "
                                     + "for the same scale and appearance as images[\(old.index)]")
                }
                if e.idiom == "iphone" { slots[slot] = e }
            } else {
                slots[slot] = e
            }
        }
        if slots.isEmpty {
            let others = contents.otherIdioms.isEmpty ? "" : " (its entries are for \(contents.otherIdioms.joined(separator: ", ")))"
            throw fail(key, node, "\(shownContents): no file for iPhone: no universal or iphone entry names a file\(others)")
        }
        var renditions: [ImageRendition] = []
        let order: [ImageRendition.Appearance] = [.any, .light, .dark]
        for highContrast in [false, true] {
        for appearance in order {
            let group = slots.values.filter { $0.appearance == appearance && $0.highContrast == highContrast }
                .sorted { ($0.scale ?? 0) < ($1.scale ?? 0) }
            if group.isEmpty { continue }
            func ext(_ e: Entry) -> String { (e.filename as NSString).pathExtension.lowercased() }
            for e in group where !["png", "svg", "pdf"].contains(ext(e)) {
                throw fail(key, node, "\(shownContents):\(e.node.line): images[\(e.index)].filename: \(e.filename): "
                                 + "only PNG, SVG and PDF images are read")
            }
            // As Xcode builds the set: with preserves-vector-representation the vector file (SVG or PDF
            // without a scale) serves every scale; else the files made for a scale, when there are any;
            // else the unscaled file (an SVG drawn as a vector, a PDF rasterised at 1x, 2x and 3x, a PNG at 1x).
            let vectors = group.filter { $0.scale == nil && ["svg", "pdf"].contains(ext($0)) }
            let chosen: [Entry]
            if contents.preservesVector, let v = vectors.first {
                chosen = [v]
            } else if group.contains(where: { $0.scale != nil }) {
                chosen = group.filter { $0.scale != nil }
            } else {
                chosen = group
            }
            for e in chosen {
                let file = path + "/" + e.filename
                try confine(file, shown: source.displayName(file), key: key, node: node)
                let svg = ext(e) == "svg", isPDF = ext(e) == "pdf"
                let bytes: Data
                switch try readWithin(file, shown: source.displayName(file), key: key, node: node,
                                      limit: svg ? Limits.svgFileBytes : isPDF ? Limits.pdfFileBytes : Limits.pngFileBytes,
                                      what: svg ? "SVG image" : isPDF ? "PDF image" : "PNG image") {
                case let .success(d): bytes = d
                case let .failure(error):
                    throw fail(key, node, error.missing
                                     ? "\(shownContents):\(e.node.line): images[\(e.index)].filename: \(e.filename) not found in the image set"
                                     : "\(source.displayName(file)): \(error.message)")
                }
                if isPDF {
                    let vector = try pdf(bytes, file, key: key, node: node)
                    if e.scale == nil && contents.preservesVector {
                        renditions.append(ImageRendition(image: vector, scale: nil, appearance: appearance, highContrast: highContrast))
                    } else {
                        // Rasterised for its scale, or (unscaled, vector data not preserved) for 1x, 2x and 3x.
                        for s in e.scale.map({ [$0] }) ?? [1, 2, 3] {
                            // The bitmap is checked against the PNG limits before it is made.
                            if Limits.rasterPixels(width: vector.width, height: vector.height, scale: s) == nil {
                                let px = { (v: Double) in (v * Double(s)).isFinite && v * Double(s) < 1e15 ? "\(Int((v * Double(s) - 1e-9).rounded(.up)))" : "\(v * Double(s))" }
                                let pt = { (v: Double) in v == v.rounded() && abs(v) < 1e15 ? "\(Int(v))" : "\(v)" }
                                throw fail(key, node, "\(shownContents):\(e.node.line): images[\(e.index)].filename: \(e.filename): rasterised at "
                                                 + "\(s)x (the image set does not preserve vector data), its \(pt(vector.width)) × \(pt(vector.height)) pt page "
                                                 + "would be a bitmap of \(px(vector.width)) × \(px(vector.height)) px; the limit is \(Limits.pngSide) px "
                                                 + "on a side and \(Limits.pngPixels) px in all, as for a PNG (docs/limits.md)")
                            }
                            renditions.append(ImageRendition(image: reader.rasterize(vector, scale: s), scale: s, appearance: appearance,
                                                                         highContrast: highContrast))
                        }
                    }
                    continue
                }
                let image: any VectorImage
                if svg {
                    do { image = try reader.read(data: bytes, name: source.displayName(file), base: source.fileURL(at: file)) } catch {
                        throw nested(error, key, node)
                    }
                } else {
                    // A bitmap with no scale (Xcode's "Single Scale") is a 1x image.
                    image = try png(bytes, file, scale: e.scale ?? 1, key: key, node: node)
                }
                renditions.append(ImageRendition(image: image, scale: svg ? e.scale : (e.scale ?? 1), appearance: appearance,
                                                 highContrast: highContrast))
            }
        }
        }
        let asset = ImageAsset(path: shownSet, renditions: renditions, templateIntent: contents.template)
        noteSizes(asset, key: key, node: node)
        loaded.append(Loaded(key: key, node: node, asset: asset, imageSet: shownSet, stem: "", ext: ""))
        return asset
    }

    // MARK: - Checks against the rest of the spec

    /// Warnings for the scales a spec renders that an image has no file for: the file drawn instead,
    /// scaled down from the nearest larger scale or up from the largest smaller one. Checked for the
    /// appearances the spec's themes use (a dark theme draws an image set's dark files when it has them).
    func scaleWarnings(scales: [Int], themes: [ThemeSpec]) -> [(key: String, node: JSONNode, message: String)] {
        let light = themes.contains { !$0.isDark }, dark = themes.contains { $0.isDark }
        // High-contrast themes, by luminosity: checked only for image sets with high-contrast files.
        let contrast = Set(themes.filter(\.isHighContrast).map(\.isDark))
        var out: [(key: String, node: JSONNode, message: String)] = []
        for l in loaded {
            var seen = Set<String>()
            let looks = [false, true].filter { isDark in isDark ? dark : light }.map { ($0, false) }
                + (l.asset.hasHighContrast ? [false, true].filter(contrast.contains).map { ($0, true) } : [])
            for (isDark, hc) in looks {
                // Without dark files a dark theme draws the light ones: one warning covers both.
                if isDark, !hc, light, !l.asset.hasDark { continue }
                var missing: [Int] = []
                var notes: [String] = []
                for s in scales.sorted() {
                    let pick = l.asset.rendition(scale: s, dark: isDark, highContrast: hc)
                    guard let from = pick.scale, from != s else { continue }
                    missing.append(s)
                    let file = (pick.image.path as NSString).lastPathComponent
                    let factor = Format.number((Double(max(s, from)) / Double(min(s, from)) * 100).rounded() / 100)
                    notes.append("@\(s)x draws \(file) scaled \(from > s ? "down" : "up") \(factor)×")
                }
                if missing.isEmpty { continue }
                let message: String
                if let set = l.imageSet {
                    let first = l.asset.candidates(dark: isDark, highContrast: hc).first!
                    let which = (first.appearance == .any ? "" : " \(first.appearance.rawValue)") + (first.highContrast ? " high-contrast" : "")
                    message = "\(set) has no\(which) image at \(missing.map { "\($0)x" }.joined(separator: ", ")): "
                        + notes.joined(separator: "; ")
                } else {
                    let names = missing.map { l.stem + ($0 == 1 ? "" : "@\($0)x") + l.ext }
                    let named = (l.asset.path as NSString).lastPathComponent
                    message = "no \(names.joined(separator: ", ")) next to \(named): " + notes.joined(separator: "; ")
                }
                if seen.insert(message).inserted { out.append((l.key, l.node, message)) }
            }
        }
        return out
    }

    /// The template mode the images' image sets ask for (`template-rendering-intent`), checked
    /// against `images.template`: the spec's value wins (it is how the app draws the image, e.g. with
    /// `.renderingMode(.template)`) with a warning where an image set says otherwise; without it the
    /// image sets decide, and image sets that disagree are bad input. Nil when nothing says.
    func templateIntent(explicit: Bool?) throws(InputError) -> (template: Bool?, warnings: [(key: String, node: JSONNode, message: String)]) {
        let said = loaded.compactMap { l in l.asset.templateIntent.map { (l, $0) } }
        func word(_ t: Bool) -> String { t ? "template" : "original" }
        if let explicit {
            let w = said.filter { $0.1 != explicit }.map { l, t in
                (key: l.key, node: l.node, message: "\(l.imageSet ?? l.asset.path) says template-rendering-intent \"\(word(t))\", but "
                 + "images.template is \(explicit): drawn as \(explicit ? "a template (tinted)" : "original colours"), as images.template says")
            }
            return (explicit, w)
        }
        guard let first = said.first else { return (nil, []) }
        if let other = said.first(where: { $0.1 != first.1 }) {
            throw fail(other.0.key, other.0.node, "\(other.0.imageSet ?? other.0.asset.path) says template-rendering-intent "
                        + "\"\(word(other.1))\", but \(first.0.imageSet ?? first.0.asset.path) (\(first.0.key)) says \"\(word(first.1))\"; "
                        + "set images.template to say how the images are drawn")
        }
        return (first.1, [])
    }
}
