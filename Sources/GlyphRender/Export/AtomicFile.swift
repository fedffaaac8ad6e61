import Foundation

/// Writes files the safe way: a temporary name in the same folder, then rename. A run killed in
/// the middle leaves either the old file or the new one, never a truncated file.
public enum AtomicFile {
    /// Folders already known to exist (creating them again costs a system call per file).
    private static let madeFolders = Mutex<Set<String>>([])

    public static func write(_ data: Data, to url: URL) throws {
        let folder = url.deletingLastPathComponent()
        if !madeFolders.withLock({ $0.contains(folder.path) }) {
            try makeFolders(folder.path, for: url)
            madeFolders.withLock { _ = $0.insert(folder.path) }
        }
        let temp = folder.path + "/.\(url.lastPathComponent).tmp-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        var fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        if fd < 0 && errno == ENOENT {
            // The folder was known to exist but has gone since (removed by someone else): make it again.
            try makeFolders(folder.path, for: url)
            fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        }
        guard fd >= 0 else { throw writeError(url, errno) }
        var offset = 0
        let ok = data.withUnsafeBytes { raw -> Bool in
            while offset < raw.count {
                let n = Foundation.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += n
            }
            return true
        }
        let code = errno
        if close(fd) != 0 || !ok {
            unlink(temp)
            throw writeError(url, ok ? errno : code)
        }
        if rename(temp, url.path) != 0 {
            let code = errno
            unlink(temp)
            throw writeError(url, code)
        }
    }

    /// `mkdir -p` with POSIX calls, so a failure names the folder it happened at and carries the
    /// system's reason ("Not a directory", "Permission denied") instead of Foundation's error text.
    static func makeFolders(_ path: String, for url: URL) throws {
        var info = stat()
        if stat(path, &info) == 0 {
            if (info.st_mode & S_IFMT) == S_IFDIR { return }
            throw notAFolder(url, path)
        }
        try makeFolder(path, for: url)
    }

    /// Makes `path`, and its parents only when they are missing too (one `mkdir` per new folder,
    /// not one per component).
    private static func makeFolder(_ path: String, for url: URL) throws {
        if mkdir(path, 0o777) == 0 { return }
        var code = errno
        if code == ENOENT {
            let parent = (path as NSString).deletingLastPathComponent
            if !parent.isEmpty && parent != path {
                try makeFolder(parent, for: url)
                if mkdir(path, 0o777) == 0 { return }
                code = errno
            }
        }
        if code == EEXIST {
            // Already there: fine if it is a folder (made earlier, or by another writer just now).
            var info = stat()
            if stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR { return }
            throw notAFolder(url, path)
        }
        if code == ENOTDIR {
            // A component of the path is a file: name it.
            var prefix = path.hasPrefix("/") ? "" : "."
            var info = stat()
            for component in path.split(separator: "/", omittingEmptySubsequences: true) {
                prefix += "/" + component
                if stat(prefix, &info) == 0, (info.st_mode & S_IFMT) != S_IFDIR { throw notAFolder(url, prefix) }
            }
        }
        throw InputError(file: url.path,
                         message: "cannot write: cannot create the folder \(path): \(String(cString: strerror(code)))")
    }

    static func notAFolder(_ url: URL, _ path: String) -> Error {
        InputError(file: url.path, message: "cannot write: \(path) is a file, not a folder (\(String(cString: strerror(ENOTDIR))))")
    }

    static func writeError(_ url: URL, _ code: Int32) -> Error {
        InputError(file: url.path, message: "cannot write: \(String(cString: strerror(code)))")
    }
}
