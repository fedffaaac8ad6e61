import Foundation

/// The files a run read as its input (spec files, token files, images and the files they name),
/// with the SHA-256 of the bytes read: `run` and `check` record them while they load their specs
/// (`recording`), the report keeps them (`inputs`), and `glyphaudit accept` refuses a report whose
/// inputs no longer match the checkout. Reads through `InputFile.read(path)` and
/// `FileSystemSource` are noted while a recording is on; nothing is noted otherwise (a baseline, an
/// old output file read to compare are not inputs). Built-in presets are read from the tool, not
/// from files, and are not noted.
public enum InputLog {
    private static let log = Mutex<[String: String]?>(nil)

    /// Runs `body` (which loads the specs) and returns what it returned and every file read meanwhile:
    /// path as read (absolute or relative to the working folder) → SHA-256 (64 hex digits). A file
    /// read twice keeps the digest of its first read.
    public static func recording<T>(_ body: () throws -> T) rethrows -> (result: T, files: [String: String]) {
        log.withLock { $0 = [:] }
        defer { log.withLock { $0 = nil } }
        let result = try body()
        return (result, log.withLock { $0 ?? [:] })
    }

    /// Notes a file read (only while a recording is on).
    public static func note(_ path: String, _ data: Data) {
        guard log.withLock({ $0 != nil }) else { return }
        let digest = SHA256.hex(data)
        log.withLock { files in
            if files?[path] == nil { files?[path] = digest }
        }
    }
}
