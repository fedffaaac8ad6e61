import Foundation

/// Writes atomically, but leaves a file alone when it already holds these bytes (read only when it
/// is a regular file no larger than the new bytes).
public func writeIfChanged(_ data: Data, to url: URL) throws {
    if let old = try? InputFile.read(url.path, limit: data.count), old == data {
        // The folder is written by this run all the same: leftovers of a killed run go.
        AtomicFile.removeStaleTemporaries(in: url.deletingLastPathComponent().path)
        return
    }
    try AtomicFile.write(data, to: url)
}

/// `path` relative to `base` when it lies below it, else unchanged.
public func relativePath(_ path: String, base: URL) -> String { RelativePaths(base: base).relative(path) }

/// `relativePath(_:base:)` for many paths below one base: the base standardized once, and a path
/// with nothing to standardize (no `.`, `..` or empty component) taken as it is.
public struct RelativePaths: Sendable {
    let base: String

    public init(base: URL) { self.base = base.standardizedFileURL.path + "/" }

    public func relative(_ path: String) -> String {
        guard path.hasPrefix("/") else { return path }
        let p = Self.isStandard(path) ? path : URL(fileURLWithPath: path).standardizedFileURL.path
        return p.hasPrefix(base) ? String(p.dropFirst(base.count)) : path
    }

    /// Whether an absolute path has more than its root, no final `/`, and no empty, `.` or `..`
    /// component after its first `/` (a look along its bytes: `relative` is called for every
    /// snapshot of a run).
    static func isStandard(_ path: String) -> Bool {
        let slash = UInt8(ascii: "/"), dot = UInt8(ascii: ".")
        let bytes = path.utf8
        guard bytes.count > 1, bytes.last != slash else { return false }
        var length = 0, dots = 0
        for b in bytes.dropFirst() {
            if b == slash {
                if length == 0 || (length == dots && dots <= 2) { return false }
                length = 0
                dots = 0
            } else {
                length += 1
                if b == dot { dots += 1 }
            }
        }
        return !(length == dots && dots <= 2)
    }
}
