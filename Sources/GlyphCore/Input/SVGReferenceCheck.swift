import Foundation

/// Checks an SVG before librsvg reads it: every way the SVG could make librsvg read another file
/// is found, and one that leaves the SVG's folder (as written, or through a symbolic link), names a
/// URL, or cannot be checked the way librsvg reads it, is refused as bad input. Nothing outside the
/// folder is opened or looked at (a symbolic link in it is resolved to see where it leads, no further).
///
/// The SVG is read by its own small XML scanner (linear, no recursion on nesting, any bytes) that
/// sees what libxml2 shows librsvg:
/// - the document must be UTF-8 (or ASCII declared as a Latin encoding); a DOCTYPE with an internal
///   subset (entity declarations), an undefined entity, `<?xml-stylesheet?>`, XInclude, `xml:base`,
///   an element inside `<style>` are refused;
/// - references are `href` (any prefix), `url(…)` in `<style>`, `style` and other attributes, and
///   `@import`; character references in them are decoded, CSS escapes are refused;
/// - a reference is read as a URL parser reads it (tab, LF and CR dropped, `\` as `/`, percent-decoded,
///   `file:` as a path); any other scheme but `data:` is refused, and so is an absolute path or one
///   that climbs out with `..`;
/// - a referenced file inside the folder that is an SVG (by extension or content) or a style sheet
///   (`@import`) is read (regular files only, up to `Limits.svgFileBytes`) and checked the same way,
///   to a depth of `maxDepth`; an SVG inside a `data:` URL too, and it may not reference files.
/// Refusals name the reference as written (at most 80 characters) and, when a URL parser reads it
/// otherwise, how it reads it: `references "..\x.png" (read as "../x.png"), outside its own folder`.
public enum SVGReferenceCheck {
    /// SVGs and style sheets reached through references are checked to this depth.
    static let maxDepth = 8

    /// Refuses (throws) `data`, the SVG at `file` (only its folder is used; it need not exist), when
    /// it could make librsvg read anything outside that folder. `name` is the file named in errors.
    public static func check(data: Data, file: URL, name: String) throws(InputError) {
        try check(data: data, base: file, name: name)
    }

    /// As `check(data:file:name:)`; with no `base` (a built-in image) every reference to a file is refused.
    package static func check(data: Data, base: URL?, name: String) throws(InputError) {
        var scope: [Scope] = []
        var session = Session()
        if let base {
            let path = ConfinedPath.lexical(Array(base.absoluteURL.path.utf8))
            let folder = ConfinedPath.parent(path)
            scope = [Scope(base: folder, confine: folder)]
            session.top = scope
            // The file itself (a reference to it, e.g. `self.svg#a`, adds nothing).
            session.visited.insert([SVGReferenceCheck.Kind.resource.rawValue, 1] + session.real(path))
        }
        do throws(Refusal) {
            try session.checkSVG(Array(data), scope: scope, depth: 0)
        } catch {
            throw InputError(file: name, line: error.line, message: error.message)
        }
    }

    /// The message for an SVG over the size limit (InputFile's wording).
    package static func tooLarge(_ count: Int) -> String {
        "the SVG image is \(count) bytes; the limit is \(Limits.bytes(Limits.svgFileBytes)) (docs/limits.md)"
    }

    // MARK: - Pieces

    /// Why an SVG is refused; `line` is a line of the document itself.
    struct Refusal: Error {
        var message: String
        var line: Int? = nil
    }

    enum Kind: UInt8 {
        /// `href`, `url(…)`: an image, or an element of another SVG.
        case resource = 0
        /// `@import`: a style sheet.
        case styleSheet = 1
    }

    /// A reference as the document gives it (character references decoded).
    struct Reference {
        var value: [UInt8]
        var kind: Kind
    }

    /// References resolve against `base` and must stay inside `confine` (both absolute, lexical).
    struct Scope: Hashable {
        var base: [UInt8]
        var confine: [UInt8]
    }

    /// One check: what was looked at already, so cycles and repeats cost nothing.
    struct Session {
        /// The top document's scope: librsvg 2.54 resolves the references of an SVG it loads for
        /// `<use>` or `<image>` against the top document, later versions against the SVG's own file.
        var top: [Scope] = []
        var visited = Set<[UInt8]>()
        var resolved = Set<[UInt8]>()
        var realCache: [[UInt8]: [UInt8]] = [:]

        mutating func real(_ path: [UInt8]) -> [UInt8] {
            if let known = realCache[path] { return known }
            let r = ConfinedPath.real(path)
            realCache[path] = r
            return r
        }

        /// Where `parts` below the folder `base` lead on disk (`ConfinedPath.walk`, the walk the spec
        /// loader confines images with); nil after 40 links.
        mutating func walk(_ base: [UInt8], _ parts: [ArraySlice<UInt8>], realConfine: [UInt8]) -> (path: [UInt8], exists: Bool)? {
            ConfinedPath.walk(realBase: real(base), parts, realConfine: realConfine)
        }

        mutating func checkSVG(_ bytes: [UInt8], scope: [Scope], depth: Int) throws(Refusal) {
            if bytes.count > Limits.svgFileBytes { throw Refusal(message: SVGReferenceCheck.tooLarge(bytes.count)) }
            let references = try XMLScan.references(in: bytes)
            for r in references { try resolve(r, scope: scope, depth: depth) }
        }

        mutating func checkCSS(_ bytes: [UInt8], scope: [Scope], depth: Int, what: String) throws(Refusal) {
            var references: [Reference] = []
            try CSSScan.scan(bytes[...], what: what, into: &references)
            for r in references { try resolve(r, scope: scope, depth: depth) }
        }

        mutating func resolve(_ r: Reference, scope: [Scope], depth: Int) throws(Refusal) {
            let s = URLText.normalized(r.value)
            if s.isEmpty || s[0] == Byte.hash { return } // the document itself, or an element in it
            var key: [UInt8] = [r.kind.rawValue]
            for s in scope { key += s.base + [0] + s.confine + [0] }
            key += [1] + r.value
            guard resolved.insert(key).inserted else { return }

            let shown = Text.show(r.value)
            let shownPath = Text.show(r.value.prefix { $0 != Byte.question && $0 != Byte.hash })
            var scheme = URLText.scheme(s)
            if scheme == "data" { return try dataURL(s, r, shown: shown, scope: scope, depth: depth) }
            if let scheme, scheme != "file" {
                throw Refusal(message: "references the URL \"\(shown)\"; an SVG may only reference files in its own folder")
            }
            // A file URL: `\` is `/` (also in a path relative to one), and file: only says it is a path.
            var p = s.map { $0 == Byte.backslash ? Byte.slash : $0 }
            if scheme == "file" {
                p.removeFirst(5)
                scheme = URLText.scheme(p)
                if scheme != nil {
                    throw Refusal(message: "references the URL \"\(shown)\"; an SVG may only reference files in its own folder")
                }
            }
            if let end = p.firstIndex(where: { $0 == Byte.question || $0 == Byte.hash }) { p.removeSubrange(end...) }
            if p.isEmpty { return } // the document itself (with a query)
            func outside(_ readAs: [UInt8]) -> Refusal {
                let read = Text.show(readAs)
                let note = read == shownPath ? "" : " (read as \"\(read)\")"
                return Refusal(message: "references \"\(shown)\"\(note), outside its own folder; it is not read")
            }
            if p[0] == Byte.slash || URLText.startsWithDriveLetter(p) || ConfinedPath.climbs(p) { throw outside(p) }
            guard let decoded = URLText.percentDecoded(p), !decoded.contains(0), UTF8Check.firstError(in: decoded, from: 0) == nil else {
                throw Refusal(message: "references \"\(shown)\", which percent-decodes to no valid file name (a NUL byte, or not UTF-8)")
            }
            let d = decoded.map { $0 == Byte.backslash ? Byte.slash : $0 }
            if d.first == Byte.slash || ConfinedPath.climbs(d) { throw outside(d) }
            guard !scope.isEmpty else {
                throw Refusal(message: "references \"\(shown)\", but this SVG has no folder (it is built in, or inside a data: URL), "
                              + "so it may not reference files")
            }
            let parts = d.split(separator: Byte.slash).filter { !($0.count == 1 && $0[$0.startIndex] == Byte.dot) }
            for pair in scope {
                var target = pair.base
                for part in parts { target += [Byte.slash] + part }
                guard ConfinedPath.inside(target, pair.confine) else {
                    throw Refusal(message: "references \"\(shown)\", a folder, not a file; it is not read")
                }
                // No file has a longer name (PATH_MAX): librsvg could not read it, and it is not looked at.
                guard target.count < 4096 else {
                    throw Refusal(message: "references \"\(shown)\", a path of 4096 bytes or more; it is not read")
                }
                let realConfine = real(pair.confine)
                guard let (realTarget, exists) = walk(pair.base, parts, realConfine: realConfine) else {
                    throw Refusal(message: "references \"\(shown)\", a path through more than 40 symbolic links; it is not read")
                }
                guard ConfinedPath.inside(realTarget, realConfine) else {
                    throw Refusal(message: "references \"\(shown)\", which a symbolic link leads outside its own folder; it is not read")
                }
                // Missing (or behind a link to nothing): librsvg reads nothing either.
                guard exists else { continue }
                try examine(target: target, real: realTarget, name: parts.last.map(Array.init) ?? [], r, shown: shown,
                            scope: scope, depth: depth)
            }
        }

        /// A referenced file inside the folder: only a regular file may be; an SVG or a style sheet is
        /// read and checked in turn.
        mutating func examine(target: [UInt8], real: [UInt8], name: [UInt8], _ r: Reference, shown: String,
                              scope: [Scope], depth: Int) throws(Refusal) {
            var key: [UInt8] = [r.kind.rawValue]
            if r.kind == .styleSheet { for s in scope { key += s.base + [0] + s.confine + [0] } }
            key += [1] + real
            guard visited.insert(key).inserted else { return }
            var info = stat()
            let found = (real + [0]).withUnsafeBufferPointer { p in
                p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: p.count) { stat($0, &info) }
            }
            guard found == 0 else { return } // missing (or unreadable): librsvg reads nothing either
            if let kind = InputFile.irregularKind(info.st_mode) {
                throw Refusal(message: kind == InputFile.folder ? "references \"\(shown)\", a folder, not a file; it is not read"
                              : "references \"\(shown)\", which is not a regular file (\(kind)); it is not read")
            }
            func via(_ inner: Refusal) -> Refusal {
                Refusal(message: "through \"\(shown)\"" + (inner.line.map { " (its line \($0))" } ?? "") + ": " + inner.message)
            }
            let folder = ConfinedPath.parent(target)
            switch r.kind {
            case .styleSheet:
                guard depth < SVGReferenceCheck.maxDepth else { throw tooDeep(shown) }
                let bytes = try read(real, shown: shown, what: "style sheet")
                // librsvg resolves @import in an imported style sheet against the sheet and url() against the document.
                var next = scope
                for confine in scope.map(\.confine) where !next.contains(Scope(base: folder, confine: confine)) {
                    next.append(Scope(base: folder, confine: confine))
                }
                do throws(Refusal) {
                    try checkCSS(bytes, scope: next, depth: depth + 1, what: "the style sheet")
                } catch { throw via(error) }
            case .resource:
                let head = Sniff.head(real)
                if Sniff.isGzip(head) { throw compressed(shown) }
                let ext = String(decoding: name, as: UTF8.self).lowercased()
                guard Sniff.isXML(head) || ext.hasSuffix(".svg") || ext.hasSuffix(".svgz") else { return }
                guard depth < SVGReferenceCheck.maxDepth else { throw tooDeep(shown) }
                let bytes = try read(real, shown: shown, what: "SVG image")
                if Sniff.isGzip(bytes[...]) { throw compressed(shown) }
                var next = top
                if !next.contains(Scope(base: folder, confine: folder)) { next.append(Scope(base: folder, confine: folder)) }
                do throws(Refusal) {
                    try checkSVG(bytes, scope: next, depth: depth + 1)
                } catch { throw via(error) }
            }
        }

        /// A `data:` URL: an SVG or style sheet inside it is checked too (an SVG in one may not
        /// reference files; a style sheet's references resolve against the document).
        mutating func dataURL(_ s: [UInt8], _ r: Reference, shown: String, scope: [Scope], depth: Int) throws(Refusal) {
            var body = s.dropFirst(5)
            if let fragment = body.firstIndex(of: Byte.hash) { body = body[..<fragment] }
            guard let comma = body.firstIndex(of: Byte.comma) else { return }
            let meta = String(decoding: body[..<comma], as: UTF8.self).lowercased()
                .trimmingCharacters(in: .whitespaces)
            let payload = URLText.percentDecoded(body[(comma + 1)...]) ?? []
            let bytes: [UInt8]
            if meta.hasSuffix(";base64") {
                guard let decoded = Base64.decode(payload) else { return } // librsvg cannot decode it either
                bytes = decoded
            } else {
                bytes = payload
            }
            func via(_ inner: Refusal) -> Refusal {
                Refusal(message: "in the data: URL \"\(shown)\"" + (inner.line.map { " (its line \($0))" } ?? "") + ": "
                        + inner.message)
            }
            guard depth < SVGReferenceCheck.maxDepth else { throw tooDeep(shown) }
            switch r.kind {
            case .styleSheet:
                do throws(Refusal) {
                    try checkCSS(bytes, scope: scope, depth: depth + 1, what: "the style sheet")
                } catch { throw via(error) }
            case .resource:
                if Sniff.isGzip(bytes[...]) { throw compressed(shown) }
                guard Sniff.isXML(bytes.prefix(512)) || meta.contains("svg") else { return }
                do throws(Refusal) {
                    try checkSVG(bytes, scope: [], depth: depth + 1)
                } catch { throw via(error) }
            }
        }

        func read(_ real: [UInt8], shown: String, what: String) throws(Refusal) -> [UInt8] {
            do throws(InputFile.Failure) {
                return Array(try InputFile.read(String(decoding: real, as: UTF8.self), limit: Limits.svgFileBytes, what: what))
            } catch {
                throw Refusal(message: "references \"\(shown)\": \(error.message)")
            }
        }

        func tooDeep(_ shown: String) -> Refusal {
            Refusal(message: "references \"\(shown)\", more than \(SVGReferenceCheck.maxDepth) SVGs or style sheets deep; "
                    + "that is not supported")
        }

        func compressed(_ shown: String) -> Refusal {
            Refusal(message: "references \"\(shown)\", a compressed (gzip) file; compressed SVGs (.svgz) are not supported")
        }
    }
}

// The scanners and byte helpers are inside SVGReferenceCheck (one file each, beside this one), so
// their short names stay out of the module: SVGBytes, UTF8Check, URLText, Base64, Sniff, XMLScan, CSSScan.
