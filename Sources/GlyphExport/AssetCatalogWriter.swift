import Foundation
import GlyphCore

extension AssetCatalog {
    /// What `write` did.
    public struct WriteSummary: Sendable, Equatable {
        /// Files whose bytes changed or that were new (relative paths).
        public var written: [String] = []
        /// Files already there with the same bytes, left untouched (their mtime stays).
        public var unchanged: [String] = []
        /// Stale files removed from image sets this export owns (relative paths).
        public var removed: [String] = []
    }

    /// Checks that `url` can hold a catalog: its name ends in `.xcassets` (Xcode recognises a catalog by
    /// it) and it is a folder or not there yet.
    public static func checkDestination(_ url: URL) throws(InputError) {
        guard url.pathExtension == "xcassets" else {
            throw InputError(file: url.path, message: "an asset catalog's folder name must end in .xcassets (Xcode recognises a catalog by it)")
        }
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue {
            throw InputError(file: url.path, message: "is a file, not a folder")
        }
    }

    /// Writes `files` into the catalog at `root`:
    /// - a file is written (atomically: temporary name, then rename) only when its bytes differ from
    ///   what is there, so an unchanged re-export changes no byte and no modification time;
    /// - the catalog's own top-level `Contents.json` is written only when missing (a catalog made by
    ///   Xcode keeps its own);
    /// - in every image set written, files that its new `Contents.json` no longer lists (say the PNGs
    ///   after a switch to `--vector`) are removed, so Xcode finds no unassigned children. Hidden
    ///   files and anything outside those image sets are left alone.
    /// Every path is checked before the first write: a file where a folder must go (or the reverse)
    /// fails with nothing written.
    @discardableResult
    public static func write(_ files: [File], to root: URL) throws -> WriteSummary {
        try checkDestination(root)
        let fm = FileManager.default
        var folders = Set<String>()
        for file in files {
            var isFolder: ObjCBool = false
            let url = root.appendingPathComponent(file.path)
            if fm.fileExists(atPath: url.path, isDirectory: &isFolder), isFolder.boolValue {
                throw InputError(file: url.path, message: "is a folder; the catalog needs a file there")
            }
            var parent = file.path.parentPath
            while !parent.isEmpty, folders.insert(parent).inserted {
                let p = root.appendingPathComponent(parent).path
                if fm.fileExists(atPath: p, isDirectory: &isFolder), !isFolder.boolValue {
                    throw InputError(file: p, message: "is a file; the catalog needs a folder there")
                }
                parent = parent.parentPath
            }
        }

        var summary = WriteSummary()
        for file in files {
            let url = root.appendingPathComponent(file.path)
            // The temporary files a killed export left here go, also when every file is unchanged.
            AtomicFile.removeStaleTemporaries(in: url.deletingLastPathComponent().path)
            if file.path == "Contents.json", fm.fileExists(atPath: url.path) {
                summary.unchanged.append(file.path)
                continue
            }
            if let existing = try? InputFile.read(url.path, limit: file.data.count), existing == file.data {
                summary.unchanged.append(file.path)
                continue
            }
            try AtomicFile.write(file.data, to: url)
            summary.written.append(file.path)
        }

        // Stale files in the image sets this export wrote.
        var expected: [String: Set<String>] = [:]
        for file in files {
            let folder = file.path.parentPath
            guard folder.hasSuffix(".imageset") else { continue }
            expected[folder, default: []].insert((file.path as NSString).lastPathComponent)
        }
        for (folder, names) in expected.sorted(by: { $0.key < $1.key }) {
            let dir = root.appendingPathComponent(folder)
            for name in (try? fm.contentsOfDirectory(atPath: dir.path))?.sorted() ?? [] {
                guard !name.hasPrefix("."), !names.contains(name) else { continue }
                let url = dir.appendingPathComponent(name)
                var isFolder: ObjCBool = false
                guard fm.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue else { continue }
                do { try fm.removeItem(at: url) } catch {
                    throw InputError(file: url.path, message: "cannot remove a stale file: \(error.localizedDescription)")
                }
                summary.removed.append(folder + "/" + name)
            }
        }
        return summary
    }
}
