import Foundation

/// Files named by an input (a shard's `report.json`) and read from inside one folder, never from
/// outside it: the name must be a plain relative path, and it is opened one component at a time
/// from the folder with `openat(…, O_NOFOLLOW)`, so no symbolic link is followed, wherever it
/// points; the descriptor opened is the one checked and read (no check of a path, then an open).
public enum Beneath {
    /// The longest name `problem` quotes whole in a message; longer ones are cut with "…".
    static let quoted = 120

    /// Why `rel` cannot name a file inside a folder, said of the name alone (nothing is opened):
    /// an absolute path, a `..` segment, an empty or `.` segment, a NUL byte. Nil for a plain
    /// relative path such as `images/a/b.png`.
    public static func problem(_ rel: String) -> String? {
        let shown = "\"\(rel.count > quoted ? rel.prefix(quoted) + "…" : rel)\""
        if rel.isEmpty { return "is empty; a path inside the report folder is expected" }
        if rel.utf8.contains(0) { return "\(shown) holds a NUL byte" }
        if rel.hasPrefix("/") { return "\(shown) is an absolute path; a report names only files inside its own folder" }
        let parts = rel.split(separator: "/", omittingEmptySubsequences: false)
        if parts.contains("..") { return "\(shown) leaves the report folder (a \"..\" segment)" }
        if parts.contains(where: { $0.isEmpty || $0 == "." }) {
            return "\(shown) is not a plain relative path (an empty or \".\" segment)"
        }
        return nil
    }

    /// Opens the file `rel` (which `problem` accepts) inside the folder `root` for reading, one
    /// component at a time with `O_NOFOLLOW`: a symbolic link anywhere below `root` is refused, as
    /// is a folder where a file should be on the way. The caller closes the descriptor.
    public static func open(_ rel: String, in root: String) throws(InputFile.Failure) -> Int32 {
        if let problem = problem(rel) { throw InputFile.Failure(message: problem, missing: false) }
        var dir = Foundation.open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard dir >= 0 else { throw failure(errno, link: false) }
        let parts = rel.split(separator: "/").map(String.init)
        for (i, part) in parts.enumerated() {
            let last = i == parts.count - 1
            // O_NONBLOCK: a FIFO must not wait for a writer (InputFile refuses it after fstat).
            let flags = last ? O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC : O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC
            let fd = openat(dir, part, flags)
            let code = errno
            close(dir)
            guard fd >= 0 else { throw failure(code, link: true) }
            dir = fd
        }
        return dir
    }

    /// The bytes of `rel` inside `root` (see `open`), at most `limit` bytes of a regular file.
    public static func read(_ rel: String, in root: String, limit: Int, what: String) throws(InputFile.Failure) -> Data {
        let fd = try open(rel, in: root)
        defer { close(fd) }
        return try InputFile.read(descriptor: fd, limit: limit, what: what)
    }

    private static func failure(_ code: Int32, link: Bool) -> InputFile.Failure {
        switch code {
        case ENOENT: return InputFile.Failure(message: "no such file", missing: true)
        // O_NOFOLLOW on a link is ELOOP; O_DIRECTORY on a link or a file is ENOTDIR.
        case ELOOP where link, ENOTDIR where link:
            return InputFile.Failure(message: "is, or lies below, a symbolic link or a file where a folder should be; "
                                     + "links are not followed out of the report folder", missing: false)
        default: return InputFile.Failure(message: "cannot open: \(String(cString: strerror(code)))", missing: false)
        }
    }
}
