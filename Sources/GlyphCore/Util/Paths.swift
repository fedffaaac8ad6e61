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

    static func isStandard(_ path: String) -> Bool {
        path.count > 1 && !path.hasSuffix("/") && !path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
            .contains { $0.isEmpty || $0 == "." || $0 == ".." }
    }
}
