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
public func relativePath(_ path: String, base: URL) -> String {
    let b = base.standardizedFileURL.path
    let p = URL(fileURLWithPath: path).standardizedFileURL.path
    guard path.hasPrefix("/") else { return path }
    return p.hasPrefix(b + "/") ? String(p.dropFirst(b.count + 1)) : path
}
