import CGlyphSys
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

    /// Why `within` would not open a path: it leads out of every root (`PathEscape`), or the file
    /// itself cannot be read (missing, a folder where a file should be, an error).
    public enum Refusal: Error, Equatable, Sendable {
        case escape(PathEscape)
        case file(InputFile.Failure)
    }

    /// Opens the file at `path` (absolute) for reading from inside one of `roots` (absolute folders),
    /// resolved as it is opened: `path` is made lexical (`a/../b` is `b`, as a relative image path
    /// always was), then walked from the root it lies in one component at a time with
    /// `openat(…, O_NOFOLLOW)`. A symbolic link met on the way is read (`readlinkat`) and followed by
    /// the walk itself only while it stays inside the root (`..` in its target climbs the folders
    /// actually walked, never above the root); one that leads out, or more than 40, is refused and
    /// nothing past it is opened. A root may itself be a link (it counts as the folder it leads to).
    /// The descriptor returned is the file checked: nothing is opened again by path. The caller
    /// closes it. A root on /proc or /sys is refused.
    public static func within(_ path: String, roots: [String]) -> Result<Int32, Refusal> {
        let p = ConfinedPath.lexical(Array(path.utf8))
        var result = Refusal.escape(.outside)
        for root in roots {
            let r = ConfinedPath.lexical(Array(root.utf8))
            guard ConfinedPath.inside(p, r) else { continue }
            let parts = p[(r == [ConfinedPath.slash] ? 1 : r.count + 1)...].split(separator: ConfinedPath.slash).map(Array.init)
            switch walk(parts, root: String(decoding: r, as: UTF8.self)) {
            case let .success(fd): return .success(fd)
            case let .failure(refusal):
                // A file refusal (missing, unreadable) is final; an escape may still be inside a later root.
                if case .file = refusal { return .failure(refusal) }
                result = refusal
            }
        }
        return .failure(result)
    }

    /// `parts` below `root`, walked as `within` says.
    static func walk(_ parts: [[UInt8]], root: String) -> Result<Int32, Refusal> {
        let rootFD = Foundation.open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard rootFD >= 0 else {
            let code = errno
            return .failure(.file(InputFile.Failure(message: code == ENOENT || code == ENOTDIR ? "no such file"
                                                    : "cannot open: \(String(cString: strerror(code)))",
                                                    missing: code == ENOENT || code == ENOTDIR)))
        }
        #if os(Linux)
        switch glyph_fs_type(rootFD) {
        case 0x9FA0, 0x6265_6572:  // Linux's /proc and /sys
            close(rootFD)
            return .failure(.file(InputFile.Failure(message: "not a regular file (/proc and /sys are not read)", missing: false)))
        default: break
        }
        #endif
        let realRoot = ConfinedPath.real(ConfinedPath.lexical(Array(root.utf8)))
        // The folders walked from the root (`stack[0]` is the root) and their names below it.
        var stack: [Int32] = [rootFD]
        var names: [[UInt8]] = []
        defer { for fd in stack { close(fd) } }
        var work = Array(parts.reversed()) // a stack: the next component last
        var links = 0
        func here() -> [UInt8] { names.reduce(realRoot) { ($0 == [ConfinedPath.slash] ? [] : $0) + [ConfinedPath.slash] + $1 } }
        func missing() -> Result<Int32, Refusal> { .failure(.file(InputFile.Failure(message: "no such file", missing: true))) }
        while let part = work.popLast() {
            if part.isEmpty || part == [ConfinedPath.dot] { continue }
            if part == [ConfinedPath.dot, ConfinedPath.dot] {
                // Only a link's target climbs (the path itself is lexical): never above the root.
                guard stack.count > 1 else {
                    let target = ConfinedPath.lexical(here() + [ConfinedPath.slash] + part + work.reversed().flatMap { [ConfinedPath.slash] + $0 })
                    return .failure(.escape(.link(target: String(decoding: target, as: UTF8.self))))
                }
                close(stack.removeLast())
                names.removeLast()
                continue
            }
            let last = work.isEmpty
            // O_NONBLOCK: a FIFO must not wait for a writer (InputFile refuses it after fstat).
            let flags = last ? O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC : O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC
            let fd = part.withUnsafeBufferPointer { b in
                (Array(b) + [0]).withUnsafeBufferPointer { z in
                    z.baseAddress!.withMemoryRebound(to: CChar.self, capacity: z.count) { openat(stack.last!, $0, flags) }
                }
            }
            if fd >= 0 {
                if last {
                    // Handed to the caller: not closed with the folders.
                    return .success(fd)
                }
                stack.append(fd)
                names.append(part)
                continue
            }
            let code = errno
            guard code == ELOOP || code == ENOTDIR else {
                if code == ENOENT { return missing() }
                return .failure(.file(InputFile.Failure(message: "cannot open: \(String(cString: strerror(code)))", missing: false)))
            }
            // A symbolic link (O_NOFOLLOW) or a file where a folder should be (O_DIRECTORY).
            var buffer = [UInt8](repeating: 0, count: 4096)
            let n = part.withUnsafeBufferPointer { b in
                (Array(b) + [0]).withUnsafeBufferPointer { z in
                    z.baseAddress!.withMemoryRebound(to: CChar.self, capacity: z.count) { name in
                        buffer.withUnsafeMutableBufferPointer { out in
                            out.baseAddress!.withMemoryRebound(to: CChar.self, capacity: out.count) { readlinkat(stack.last!, name, $0, out.count) }
                        }
                    }
                }
            }
            guard n > 0 else { return missing() } // not a link: a file where a folder should be
            links += 1
            guard links <= 40 else { return .failure(.escape(.tooManyLinks)) }
            let target = Array(buffer[..<n])
            if target.first == ConfinedPath.slash {
                let t = ConfinedPath.lexical(target)
                guard t == realRoot || ConfinedPath.inside(t, realRoot) else {
                    let rest = work.reversed().flatMap { [ConfinedPath.slash] + $0 }
                    return .failure(.escape(.link(target: String(decoding: ConfinedPath.lexical(t + rest), as: UTF8.self))))
                }
                // From the root again.
                for fd in stack.dropFirst() { close(fd) }
                stack.removeSubrange(1...)
                names.removeAll()
                let below = t == realRoot ? [] : t[(realRoot == [ConfinedPath.slash] ? 1 : realRoot.count + 1)...].split(separator: ConfinedPath.slash).map(Array.init)
                work += below.reversed()
            } else {
                work += target.split(separator: ConfinedPath.slash).map(Array.init).reversed()
            }
        }
        // The path named the root itself (or a link led back to it): a folder, not a file.
        return .failure(.file(InputFile.Failure(message: "is a folder, not a file", missing: false)))
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
