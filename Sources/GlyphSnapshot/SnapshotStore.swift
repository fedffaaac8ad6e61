import Foundation
import GlyphCore
import GlyphRaster

/// The baseline PNGs: one file per variant at `<root>/<variant id>.png`, e.g.
/// `snapshots/design-system-checkbox/square-md/AX5/inverse/checked@3x.png`.
///
/// Every write goes through `AtomicFile` (a temporary name in the same folder, then a rename), so
/// a baseline is always either the old file or the new one. Temporary files start with `.`;
/// scans skip every file and folder whose name starts with `.`.
public struct SnapshotStore: Sendable {
    public let root: URL
    /// `root.path`, kept: `path(relativePath:)` is asked for every variant of a run.
    private let rootPath: String

    public init(root: URL) {
        self.root = root
        rootPath = root.path
    }

    /// The baseline's path relative to the root.
    public func relativePath(of variant: Variant) -> String { variant.fileName("png") }

    public func url(of variant: Variant) -> URL { url(relativePath: relativePath(of: variant)) }

    public func url(relativePath: String) -> URL { root.appendingPathComponent(relativePath) }

    /// `url(relativePath:).path`, joined as text when that is plainly the same (a relative path of
    /// non-empty components): Foundation's URL took most of an incremental run's reuse.
    public func path(relativePath: String) -> String {
        let slash = UInt8(ascii: "/")
        var plain = !rootPath.hasSuffix("/") && relativePath.utf8.first.map { $0 != slash } == true && relativePath.utf8.last != slash
        if plain {
            // No empty component: no two slashes in a row.
            var previous: UInt8 = 0
            for b in relativePath.utf8 {
                if b == slash && previous == slash { plain = false; break }
                previous = b
            }
        }
        guard plain else { return url(relativePath: relativePath).path }
        return rootPath + "/" + relativePath
    }

    /// The names of the regular files (symbolic links followed) in the folder at `path`; nil when
    /// it cannot be read (missing, not a folder).
    public static func regularFiles(inFolder path: String) -> Set<String>? {
        guard let dir = opendir(path) else { return nil }
        defer { closedir(dir) }
        var names = Set<String>()
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            switch Int32(entry.pointee.d_type) {
            case Int32(DT_REG): names.insert(name)
            case Int32(DT_DIR): continue
            default:
                // A symbolic link or an unknown type: ask stat (following links).
                var info = stat()
                if stat(path + "/" + name, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG { names.insert(name) }
            }
        }
        return names
    }

    /// What reading a baseline found.
    public enum Baseline: Sendable {
        /// There is no file.
        case missing
        case image(Raster)
        /// The file is there but is not a readable PNG; the message says what is wrong.
        case unreadable(String)
    }

    /// Reads and decodes a baseline with libpng (straight alpha, exact bytes).
    public func baseline(relativePath: String) -> Baseline {
        let data: Data
        do { data = try InputFile.read(url(relativePath: relativePath).path, limit: Limits.pngFileBytes, what: "PNG") } catch {
            return error.missing ? .missing : .unreadable(error.message)
        }
        switch decodePNG(data) {
        case .success(let raster): return .image(raster)
        case .failure(let problem): return .unreadable(problem.message)
        }
    }

    /// Writes a baseline atomically.
    public func write(_ raster: Raster, relativePath: String) throws {
        try AtomicFile.write(try raster.pngData(), to: url(relativePath: relativePath))
    }

    /// Deletes a baseline (and nothing else).
    public func remove(relativePath: String) throws {
        let path = url(relativePath: relativePath).path
        if unlink(path) != 0 && errno != ENOENT {
            throw InputError(file: path, message: "cannot delete: \(String(cString: strerror(errno)))")
        }
    }

    /// The baselines under `<root>/<folder>/` for each of `folders` (the preset names), as sorted
    /// paths relative to the root. Dotfiles (temporary files of writes in flight or interrupted)
    /// and dot-folders are skipped.
    public func baselineFiles(inFolders folders: [String]) -> [String] {
        folders.flatMap { folder in
            PNGFiles.list(under: root.appendingPathComponent(folder)).map { "\(folder)/\($0)" }
        }.sorted()
    }
}

/// The baselines in a run's stale scope (`StaleScope`), listed once on a thread of their own from
/// the start of the run: at its end the stale baselines are worked out from it
/// (`SnapshotChecker.staleBaselines`), and under `--incremental` a variant that is not drawn finds
/// its baseline in it (`SnapshotChecker.reused`) rather than by listing its group's folders again.
/// Files this run writes are not in it; they are this run's variants' own, which are not stale.
public final class BaselineListing: @unchecked Sendable {
    /// The preset folders listed; nil: the whole snapshot folder.
    public let folders: [String]?
    private let done = DispatchGroup()
    // Written by the listing thread before it leaves `done`, read only after waiting on it.
    private var listed: [String] = []
    private var regularPaths: Set<String> = []

    /// Starts listing the `*.png` files under each of `folders` of `store` (or under its root),
    /// as `PNGFiles.list` does.
    public init(store: SnapshotStore, folders: [String]?) {
        self.folders = folders
        let root = store.root.path
        done.enter()
        let thread = Thread { [self] in
            var found: [(path: String, regular: Bool)] = []
            if let folders {
                for folder in folders { PNGFiles.walk(root + "/" + folder, prefix: folder + "/", into: &found) }
            } else {
                PNGFiles.walk(root, prefix: "", into: &found)
            }
            found.sort { $0.path < $1.path }
            listed = found.map(\.path)
            regularPaths = Set(found.lazy.filter(\.regular).map(\.path))
            done.leave()
        }
        thread.start()
    }

    /// The files, as sorted paths relative to the root (`PNGFiles.list`).
    public var files: [String] {
        done.wait()
        return listed
    }

    /// Whether `relativePath` was listed as a regular file (symbolic links followed).
    public func hasRegularFile(_ relativePath: String) -> Bool {
        done.wait()
        return regularPaths.contains(relativePath)
    }
}

/// Finding PNG files in a folder tree.
public enum PNGFiles {
    /// The `*.png` files under `folder` (recursively), as sorted paths relative to it. Files and
    /// folders whose names start with `.` are skipped; a missing folder has no files.
    public static func list(under folder: URL) -> [String] {
        var found: [(path: String, regular: Bool)] = []
        walk(folder.path, prefix: "", into: &found)
        return found.map(\.path).sorted()
    }

    /// Each file found, and whether it is a regular file (symbolic links followed).
    static func walk(_ path: String, prefix: String, into found: inout [(path: String, regular: Bool)]) {
        guard let dir = opendir(path) else { return }
        defer { closedir(dir) }
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasPrefix(".") { continue }
            let full = path + "/" + name
            var isDirectory: Bool, isRegular: Bool
            switch Int32(entry.pointee.d_type) {
            case Int32(DT_DIR): (isDirectory, isRegular) = (true, false)
            case Int32(DT_REG): (isDirectory, isRegular) = (false, true)
            default:
                // Unknown type or a symbolic link: ask stat (following links).
                var info = stat()
                guard stat(full, &info) == 0 else { continue }
                isDirectory = (info.st_mode & S_IFMT) == S_IFDIR
                isRegular = (info.st_mode & S_IFMT) == S_IFREG
            }
            if isDirectory {
                walk(full, prefix: prefix + name + "/", into: &found)
            } else if name.lowercased().hasSuffix(".png") {
                found.append((prefix + name, isRegular))
            }
        }
    }
}

/// Why a PNG cannot be decoded.
struct PNGProblem: Error {
    let message: String
}

/// Decodes a PNG with libpng. When that fails, the message comes from a look at the file's chunk
/// framing where it finds the cause (empty, wrong signature, cut off inside a chunk, bad CRC).
func decodePNG(_ data: Data) -> Result<Raster, PNGProblem> {
    // Too large to decode: say so, before any pixel is decoded.
    do { try Raster.checkPNGSize(data) } catch { return .failure(PNGProblem(message: "\(error)")) }
    do { return .success(try Raster(pngData: data)) } catch {
        if let problem = PNGFraming.problem(data) { return .failure(PNGProblem(message: problem)) }
        // The framing is sound, so the damage is inside the image data. glyph_png_decode passes
        // libpng's own message up (its error callback copies it), e.g. "IDAT: incorrect header check".
        return .failure(PNGProblem(message: "libpng cannot decode its image data: \(error)"))
    }
}

/// The outer structure of a PNG: the signature, then chunks (length, type, data, CRC) up to IEND.
enum PNGFraming {
    static let signature: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]

    /// What is wrong with the framing, or nil when every chunk up to IEND is complete and has a good CRC.
    static func problem(_ data: Data) -> String? {
        if data.isEmpty { return "the file is empty (0 bytes)" }
        let bytes = [UInt8](data)
        guard bytes.count >= 8, Array(bytes[0..<8]) == signature else {
            return "not a PNG file (bad signature)"
        }
        var offset = 8
        while true {
            guard offset + 8 <= bytes.count else {
                return "the file ends early (truncated PNG: \(bytes.count) bytes, no IEND chunk)"
            }
            let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            let end = offset + 12 + length
            guard end <= bytes.count else {
                return "the file ends early (truncated PNG: its \(type) chunk at byte \(offset) needs \(length + 12) bytes, "
                    + "only \(bytes.count - offset) are left)"
            }
            let stored = bytes[end - 4..<end].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            if crc32(bytes[offset + 4..<end - 4]) != stored {
                return "the file is corrupt (its \(type) chunk at byte \(offset) fails its CRC check)"
            }
            if type == "IEND" { return nil }
            offset = end
        }
    }

    /// CRC-32 (ISO 3309, as PNG uses it) of the bytes.
    static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes { c = crcTable[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }

    static let crcTable: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }
}
