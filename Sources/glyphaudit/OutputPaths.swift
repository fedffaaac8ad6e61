import Foundation
import GlyphCore

/// Output paths checked before any work: a file where a folder must be (the path itself, or a folder
/// on its way), or a folder where a file must be, is refused at once (exit 2, naming the path and the
/// option), instead of after every variant is rendered and audited. Nothing is created here.
enum OutputPaths {
    /// `path` (given with `option`) will be a folder the command writes into.
    static func folder(_ path: String, option: String) throws(InputError) {
        try check(path, option: option, wantsFolder: true)
    }

    /// `path` (given with `option`) will be a file the command writes.
    static func file(_ path: String, option: String) throws(InputError) {
        try check(path, option: option, wantsFolder: false)
    }

    private static func check(_ path: String, option: String, wantsFolder: Bool) throws(InputError) {
        var url = URL(fileURLWithPath: path).standardizedFileURL
        var info = stat()
        if stat(url.path, &info) == 0 {
            let isFolder = (info.st_mode & S_IFMT) == S_IFDIR
            if wantsFolder && !isFolder {
                throw InputError(file: path, message: "is a file, not a folder; \(option) takes a folder (nothing was done)")
            }
            if !wantsFolder && isFolder {
                throw InputError(file: path, message: "is a folder, not a file; \(option) takes a file (nothing was done)")
            }
            return
        }
        // The first folder on the way that exists must be a folder.
        while url.path != "/" {
            url.deleteLastPathComponent()
            guard stat(url.path, &info) == 0 else { continue }
            if (info.st_mode & S_IFMT) != S_IFDIR {
                throw InputError(file: path, message: "cannot be made: \(url.path) is a file, not a folder (\(option); nothing was done)")
            }
            return
        }
    }
}
