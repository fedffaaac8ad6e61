import Foundation
import GlyphCore

/// What rendered a folder of baselines, kept beside them as `renderer.json`: glyphaudit's render
/// version, the versions of cairo, pango, librsvg, libpng and zlib, and the label fonts (each as its
/// name and the SHA-256 of its file). The snapshot target only holds the value; the renderer's
/// side (GlyphRender's `RendererVersions`, put together in GlyphPipeline) says what it is now.
///
/// When the folder's fingerprint is the renderer's, a check compares exactly (`SnapshotComparison`):
/// every pixel that changed counts. When it is not (or the file is missing), pixels may move a
/// little for reasons that are not the spec's, and a check compares with pixelmatch's tolerances
/// and names what changed.
public struct RendererFingerprint: Sendable, Equatable, Codable {
    /// The file's name in the snapshot folder.
    public static let fileName = "renderer.json"
    /// The version of the file's layout this glyphaudit writes and reads.
    public static let format = 1
    /// The components in the order messages name them; others follow, sorted.
    public static let order = ["glyphaudit-render", "cairo", "pango", "librsvg", "libpng", "zlib", "font-regular", "font-semibold"]

    /// Component → version (for a font: its name and `sha256:<hash of its file>`).
    public var components: [String: String]

    public init(components: [String: String]) {
        self.components = components
    }

    /// The component names, in `order`, then any others sorted.
    public var names: [String] { Self.sorted(Array(components.keys)) }

    static func sorted(_ names: [String]) -> [String] {
        let known = Self.order.filter(names.contains)
        return known + names.filter { !Self.order.contains($0) }.sorted()
    }

    /// One component that differs between a recorded fingerprint and this one.
    public struct Change: Sendable, Equatable, Codable, CustomStringConvertible {
        public var component: String
        /// What the baselines were rendered with; nil: not recorded.
        public var recorded: String?
        /// What renders now; nil: no longer part of the fingerprint.
        public var current: String?

        /// "cairo 1.16.0 → 1.18.0" (a font's hash shortened to 12 digits).
        public var description: String {
            "\(component) \(Self.short(recorded) ?? "(not recorded)") → \(Self.short(current) ?? "(none)")"
        }

        static func short(_ value: String?) -> String? {
            guard let value else { return nil }
            guard let r = value.range(of: "sha256:") else { return value }
            let hash = value[r.upperBound...]
            return hash.count > 12 ? value[..<r.upperBound] + hash.prefix(12) + "…" : value
        }
    }

    /// What differs from `recorded` (the folder's fingerprint) to this one, in component order.
    public func changes(from recorded: RendererFingerprint) -> [Change] {
        Self.sorted(Array(Set(components.keys).union(recorded.components.keys))).compactMap { name in
            let old = recorded.components[name], new = components[name]
            return old == new ? nil : Change(component: name, recorded: old, current: new)
        }
    }

    /// The file's bytes: sorted keys, two-space indent, a final newline (same fingerprint, same bytes).
    public func fileData() -> Data {
        try! JSONOutput.data(File(about: File.about, format: Self.format, components: components))
    }

    /// The file as written.
    struct File: Codable {
        static let about = "What rendered the baselines in this folder (written by glyphaudit check --record / --update; "
            + "see docs/snapshots.md). Another renderer compares them with anti-aliasing tolerance."
        var about: String?
        var format: Int
        var components: [String: String]
    }

    /// What reading a folder's fingerprint found.
    public enum Stored: Sendable, Equatable {
        /// There is no `renderer.json` (baselines recorded before fingerprints, or none at all).
        case missing
        case found(RendererFingerprint)
        /// A `renderer.json` of another format (written by another version of glyphaudit).
        case otherFormat(Int)
    }

    /// Reads `renderer.json` in `folder`. A file that is not a fingerprint is bad input (the message
    /// names the file and what is wrong).
    public static func read(in folder: URL) throws(InputError) -> Stored {
        let path = folder.appendingPathComponent(fileName).path
        let data: Data
        do { data = try InputFile.read(path, limit: 1 << 20, what: "renderer fingerprint") } catch {
            if error.missing { return .missing }
            throw InputError(file: path, message: error.message)
        }
        return try decode(data, path: path)
    }

    /// Reads the bytes of a `renderer.json` (`path` names it in messages), as `read(in:)` does.
    public static func decode(_ data: Data, path: String) throws(InputError) -> Stored {
        // The format first: a file of another format may be laid out otherwise.
        struct Format: Decodable { var format: Int }
        let decoder = JSONDecoder()
        func problem(_ error: any Error) -> InputError {
            guard let error = error as? DecodingError else { return InputError(file: path, message: "not a renderer fingerprint: \(error)") }
            switch error {
            case .dataCorrupted(let c) where c.codingPath.isEmpty:
                return InputError(file: path, message: "not a renderer fingerprint: not valid JSON (delete it and run glyphaudit check --record)")
            case .keyNotFound(let key, let c):
                return InputError(file: path, keyPath: Self.keyPath(c.codingPath + [key]), message: "missing")
            case .typeMismatch(_, let c) where c.codingPath.isEmpty:
                return InputError(file: path, message: "not a renderer fingerprint: expected a JSON object with \"format\" and \"components\"")
            case .typeMismatch(_, let c), .valueNotFound(_, let c), .dataCorrupted(let c):
                let what = c.codingPath.first?.stringValue == "format" ? "must be a whole number (the file's format)"
                    : c.codingPath.count >= 2 ? "must be a string (a version)" : "must be an object of names and versions"
                return InputError(file: path, keyPath: Self.keyPath(c.codingPath), message: what)
            @unknown default:
                return InputError(file: path, message: "not a renderer fingerprint: \(error)")
            }
        }
        let format: Int
        do { format = try decoder.decode(Format.self, from: data).format } catch { throw problem(error) }
        if format != Self.format { return .otherFormat(format) }
        let components: [String: String]
        do { components = try decoder.decode(File.self, from: data).components } catch { throw problem(error) }
        return .found(RendererFingerprint(components: components))
    }

    static func keyPath(_ path: [any CodingKey]) -> String {
        path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }

    /// Writes `renderer.json` into `folder` atomically; a file that already holds these bytes is left alone.
    public func write(in folder: URL) throws {
        try writeIfChanged(fileData(), to: folder.appendingPathComponent(Self.fileName))
    }
}

/// How a check compares renders with baselines, decided by the folder's fingerprint.
public struct SnapshotComparison: Sendable, Equatable {
    /// The baselines were rendered by this renderer: every changed pixel counts (anti-aliasing
    /// included, colour threshold 0 unless one was given).
    public var exact: Bool
    /// Why the comparison is not exact, one line each (a changed component, a missing or
    /// other-format file); empty when it is exact, or when the renderer is not known.
    public var reasons: [String]
    /// What renders now (written by `--record` / `--update`); nil: not known, nothing is written.
    public var renderer: RendererFingerprint?
    /// The folder's fingerprint as read.
    public var stored: RendererFingerprint.Stored

    /// Not fingerprinted: pixelmatch's tolerances, no message, no file written (a library caller
    /// that does not say what renders).
    public static let tolerant = SnapshotComparison(exact: false, reasons: [], renderer: nil, stored: .missing)

    /// The comparison for the baselines in `folder` rendered now by `renderer`. `display` is how
    /// messages name the fingerprint file (e.g. `snapshots/renderer.json`). With `rebase` (`--update`)
    /// a folder of another renderer is compared exactly too, so every baseline that changed is
    /// rewritten and the folder can take this renderer's fingerprint.
    public static func of(_ folder: URL, renderer: RendererFingerprint, display: String,
                          rebase: Bool = false) throws(InputError) -> SnapshotComparison {
        let stored = try RendererFingerprint.read(in: folder)
        let tail = rebase ? ": --update rewrites every baseline that changed" : ": comparing with anti-aliasing tolerance"
        let reasons: [String]
        switch stored {
        case .missing:
            reasons = ["\(display) missing\(tail)" + (rebase ? "" : " (check --record or --update writes it)")]
        case .otherFormat(let format):
            reasons = ["\(display) has format \(format), this glyphaudit writes \(RendererFingerprint.format)\(tail)"]
        case .found(let recorded):
            reasons = renderer.changes(from: recorded).map { "\($0)\(tail)" }
        }
        return SnapshotComparison(exact: reasons.isEmpty || rebase, reasons: reasons, renderer: renderer, stored: stored)
    }

    /// Whether the folder's fingerprint is this renderer's (a write leaves it as it is).
    public var fingerprintCurrent: Bool {
        guard let renderer, case .found(let recorded) = stored else { return false }
        return recorded == renderer
    }
}
