import Foundation

/// Paths as bytes, and where a path below a folder leads on disk: the escape checks shared by the
/// SVG reference check (an SVG may reference files in its own folder only) and the spec loader (a
/// spec's images lie in its own folder or one of its `assets` roots). Nothing outside the folder is
/// opened or looked at: a symbolic link in it is resolved to see where it leads, no further.
package enum ConfinedPath {
    static let slash: UInt8 = 0x2F
    static let dot: UInt8 = 0x2E

    /// `/a/./b//c/../d` → `/a/b/d` (no symbolic link is looked at).
    package static func lexical(_ path: [UInt8]) -> [UInt8] {
        var parts: [ArraySlice<UInt8>] = []
        for s in path.split(separator: slash) {
            if s.count == 1 && s.first == dot { continue }
            if s.count == 2 && s.first == dot && s.last == dot { _ = parts.popLast(); continue }
            parts.append(s)
        }
        var out: [UInt8] = []
        for p in parts { out += [slash] + p }
        return out.isEmpty ? [slash] : out
    }

    /// The folder of a lexical absolute path.
    package static func parent(_ path: [UInt8]) -> [UInt8] {
        guard let k = path.lastIndex(of: slash), k > 0 else { return [slash] }
        return Array(path[..<k])
    }

    /// Whether `path` is below `folder` (bytes, not Unicode-equivalent text).
    package static func inside(_ path: [UInt8], _ folder: [UInt8]) -> Bool {
        if folder == [slash] { return path.count > 1 && path.first == slash }
        return path.count > folder.count + 1 && path.starts(with: folder) && path[folder.count] == slash
    }

    /// Whether a relative path has a `..` segment.
    package static func climbs(_ path: [UInt8]) -> Bool {
        path.split(separator: slash, omittingEmptySubsequences: false)
            .contains { $0.count == 2 && $0.first == dot && $0.last == dot }
    }

    /// `path` with every symbolic link resolved: the longest part that exists, through realpath(3),
    /// and the rest as written.
    package static func real(_ path: [UInt8]) -> [UInt8] {
        var head = path
        while head.count > 1 && head.last == slash { head.removeLast() }
        var tail: [ArraySlice<UInt8>] = []
        while !head.isEmpty {
            if let resolved = resolvedPath(head) {
                var out = resolved
                for part in tail.reversed() {
                    if out.last != slash { out.append(slash) }
                    out += part
                }
                return out
            }
            guard let k = head.lastIndex(of: slash) else { break }
            tail.append(head[(k + 1)...])
            if k == 0 {
                if head.count == 1 { break }
                head = [slash]
            } else {
                head = Array(head[..<k])
            }
        }
        return path
    }

    /// realpath(3) of `path`, nil when it fails (a part is missing, a link leads to nothing).
    static func resolvedPath(_ path: [UInt8]) -> [UInt8]? {
        let resolved = (path + [0]).withUnsafeBufferPointer { p in
            p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: p.count) { realpath($0, nil) }
        }
        guard let resolved else { return nil }
        defer { free(resolved) }
        return Array(UnsafeBufferPointer(start: UnsafeRawPointer(resolved).assumingMemoryBound(to: UInt8.self),
                                         count: strlen(resolved)))
    }

    /// Where `parts` below a folder lead on disk, from the folder's real path `realBase` down: each part
    /// looked at with lstat(2) and a symbolic link resolved with realpath(3); at the first part that does
    /// not exist the rest is as written (`exists` false), and once a link leads out of `realConfine`
    /// nothing past it is looked at. Nil after 40 links (the kernel's ELOOP limit).
    package static func walk(realBase: [UInt8], _ parts: [ArraySlice<UInt8>], realConfine: [UInt8]) -> (path: [UInt8], exists: Bool)? {
        var current = realBase
        var links = 0
        func rest(_ from: Int) -> [UInt8] {
            var out = current
            for part in parts[from...] { out += [slash] + part }
            return out
        }
        for k in parts.indices {
            let candidate = (current == [slash] ? [] : current) + [slash] + parts[k]
            var info = stat()
            let found = (candidate + [0]).withUnsafeBufferPointer { p in
                p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: p.count) { lstat($0, &info) }
            }
            guard found == 0 else { return (rest(k), false) }
            guard info.st_mode & S_IFMT == S_IFLNK else {
                current = candidate
                continue
            }
            links += 1
            guard links <= 40 else { return nil }
            guard let resolved = resolvedPath(candidate) else { return (rest(k), false) } // a link to nothing
            current = resolved
            if current != realConfine, !inside(current, realConfine) { return (rest(k + 1), true) }
        }
        return (current, true)
    }

    /// Whether the absolute, lexical `path` stays inside one of `folders` (absolute, lexical) on disk:
    /// nil when it does (it need not exist), else why not. A folder's own symbolic links are resolved
    /// (a root may be a link); a link below it must lead to a place inside it.
    package static func escape(_ path: String, folders: [String]) -> PathEscape? {
        let p = lexical(Array(path.utf8))
        var result = PathEscape.outside
        for folder in folders {
            let f = lexical(Array(folder.utf8))
            guard inside(p, f) else { continue }
            let parts = p[(f == [slash] ? 1 : f.count + 1)...].split(separator: slash)
            let realConfine = real(f)
            guard let (target, _) = walk(realBase: realConfine, Array(parts), realConfine: realConfine) else {
                result = .tooManyLinks
                continue
            }
            if inside(target, realConfine) { return nil }
            result = .link(target: String(decoding: target, as: UTF8.self))
        }
        return result
    }
}

/// Why a path may not be read (`AssetSource.escape`).
public enum PathEscape: Equatable, Sendable {
    /// It does not lie in any of the folders, as written.
    case outside
    /// It lies in one as written, but a symbolic link leads out of it (to `target`).
    case link(target: String)
    /// More than 40 symbolic links.
    case tooManyLinks
}
