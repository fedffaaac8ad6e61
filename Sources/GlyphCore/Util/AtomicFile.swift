import CGlyphSys
import Foundation

/// Writes files the safe way: a temporary name in the same folder, flushed to disk, then renamed
/// over the old name, and the rename flushed too. A run killed in the middle, or a power cut,
/// leaves either the old file or the new one, never a truncated or empty file.
///
/// One file is flushed with `fsync` (the file, then its folder). Many files written inside
/// `batch { … }` are flushed together, which costs a fraction: temporary files are written, then one
/// `syncfs` flushes them all, then each is renamed, then one more `syncfs` flushes the renames. That
/// happens for every `chunk` files and when the batch ends (outside a transaction), so a long batch
/// killed in the middle keeps what it finished; every command of the tool runs as one
/// `transaction`, whose files are renamed only when it ends. Until then files keep their temporary names (`.NAME.tmp-PID-N`, which
/// every scan skips); a batch that throws removes the ones not yet renamed.
///
/// Where there is no `syncfs` (macOS, the BSDs; on Linux a build with `GLYPHAUDIT_PORTABLE_SYNC=1`,
/// see `Sources/CGlyphSys`) a batch flushes each file as it is written, and after the renames each
/// folder once; `fsync` is then `fcntl(F_FULLFSYNC)` where the system has it. The files keep their
/// temporary names until the renames all the same, so a killed run leaves the same files.
public enum AtomicFile {
    /// Whether a batch is flushed with `syncfs` (Linux) or file by file (`glyph_has_syncfs`).
    static let flushesWholeFileSystem = glyph_has_syncfs() != 0

    /// Writes all of `data` to `fd` with write(2), again after EINTR; the errno of a failure, nil
    /// when all is written.
    public static func writeAll(_ data: Data, to fd: Int32) -> Int32? {
        data.withUnsafeBytes { raw -> Int32? in
            var offset = 0
            while offset < raw.count {
                let n = Foundation.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += n
            }
            return nil
        }
    }

    /// Folders already known to exist (creating them again costs a system call per file).
    private static let madeFolders = Mutex<Set<String>>([])

    /// Files a batch renames together (at most; the last group may be smaller).
    public static let chunk = 256

    /// The batch in progress: its depth (nested batches join the outer one) and the renames it owes.
    private static let pending = Mutex<(depth: Int, renames: [(temp: String, final: URL)])>((0, []))

    /// The first write that failed in a transaction: the file, the folder and the system's error.
    public struct Failure: Sendable, Equatable {
        public let file: String
        public let folder: String
        public let code: Int32
        /// Whether making `folder` failed (else writing `file` into it).
        public var makingFolder = false
        public var reason: String { String(cString: strerror(code)) }
    }

    /// The transaction in progress (`transaction`): whether there is one, the folders it made (in
    /// order), and its first failure.
    private static let journal = Mutex<(active: Bool, made: [String], failure: Failure?)>((false, [], nil))
    /// Files made outside `write` (a snapshot folder's lock file) that a failed transaction removes.
    private static let madeFiles = Mutex<[String]>([])

    /// Objects kept alive until the transaction in progress ends (after its renames or its roll-back).
    private static let retained = Mutex<[any AnyObject & Sendable]>([])

    /// Keeps `object` alive until the transaction in progress ends, after its files are renamed into
    /// place (a snapshot folder's lock must cover the renames); false when there is no transaction.
    @discardableResult
    public static func retainUntilTransactionEnds(_ object: any AnyObject & Sendable) -> Bool {
        guard journal.withLock({ $0.active }) else { return false }
        retained.withLock { $0.append(object) }
        return true
    }

    /// Notes a file made outside `write` in a folder the transaction in progress made, so that a
    /// failed transaction removes it (and can then remove the folder).
    public static func removeOnFailure(_ path: String) {
        if journal.withLock({ $0.active }) { madeFiles.withLock { $0.append(path) } }
    }

    /// Runs `body` as one transaction of writes (not nested in a batch): every file `write` writes
    /// (on any thread) keeps its temporary name until `body` returns, then all are renamed into
    /// place. After the first write that fails (a full disk, a read-only folder, no permission)
    /// later writes fail at once without touching the disk, and when `body` returns (or throws)
    /// every temporary file is removed and the folders the transaction made are removed again
    /// (empty ones only): nothing it wrote is left. Returns `body`'s result and that failure.
    ///
    /// A transaction begun inside another one joins it: `body` runs, and its writes are renamed (or
    /// removed) with the outer transaction's; the result carries the failure so far.
    public static func transaction<T>(_ body: () throws -> T) throws -> (result: T, failure: Failure?) {
        if journal.withLock({ $0.active }) {
            let result = try body()
            return (result, journal.withLock { $0.failure })
        }
        journal.withLock { $0 = (true, [], nil) }
        lastFailure.withLock { $0 = nil }
        // Inside a batch (every command runs in one), the renames owed before it are the batch's.
        let base = pending.withLock { state -> Int in
            state.depth += 1
            return state.renames.count
        }
        defer {
            journal.withLock { j in
                if let f = j.failure { lastFailure.withLock { $0 = f } }
                j = (false, [], nil)
            }
            // Released outside the journal's lock: a lock's deinit does no file work of ours.
            let done = retained.withLock { objects in defer { objects = [] }; return objects }
            _ = done
        }
        /// The renames this transaction owes, taken out of the batch.
        func mine() -> [(temp: String, final: URL)] {
            pending.withLock { state in
                state.depth -= 1
                defer { state.renames.removeSubrange(base...) }
                return Array(state.renames[base...])
            }
        }
        madeFiles.withLock { $0 = [] }
        let result: T
        do { result = try body() } catch {
            rollBack(mine())
            throw error
        }
        let owed = mine()
        if let failure = journal.withLock({ $0.failure }) {
            rollBack(owed)
            return (result, failure)
        }
        try commit(owed)
        return (result, nil)
    }

    /// The failure of the last transaction that ended (nil when it had none): read after
    /// `transaction` threw, to tell a failed write from another error.
    public static var lastTransactionFailure: Failure? { lastFailure.withLock { $0 } }
    private static let lastFailure = Mutex<Failure?>(nil)

    /// Whether a write of the transaction in progress has failed.
    public static var transactionFailed: Bool { journal.withLock { $0.failure != nil } }

    private static func rollBack(_ owed: [(temp: String, final: URL)]) {
        for r in owed { unlink(r.temp) }
        for file in madeFiles.withLock({ files in defer { files = [] }; return files }) { unlink(file) }
        let made = journal.withLock { $0.made }
        for folder in made.reversed() { rmdir(folder) }
        madeFolders.withLock { $0.subtract(made) }
    }

    /// Notes a failed write of a transaction (the first one is kept) and returns its error.
    private static func failed(_ url: URL, _ code: Int32) -> Error {
        journal.withLock { j in
            if j.active && j.failure == nil { j.failure = Failure(file: url.path, folder: url.deletingLastPathComponent().path, code: code) }
        }
        return writeError(url, code)
    }

    /// `mkdir -p folder` (a transaction removes it again when it fails).
    public static func makeFolders(_ folder: URL) throws {
        try makeFolders(folder.path, for: folder)
    }

    /// Runs `body`, whose `write`s (on any thread) are flushed together and renamed when it returns.
    public static func batch<T>(_ body: () throws -> T) throws -> T {
        pending.withLock { $0.depth += 1 }
        let result: T
        do { result = try body() } catch {
            if let owed = leave() { for r in owed { unlink(r.temp) } }
            throw error
        }
        if let owed = leave() { try commit(owed) }
        return result
    }

    /// Where the bytes last written to `url` are now: its temporary file while the batch still owes
    /// its rename, else `url`'s path (a file written earlier in the run can be read back).
    public static func currentPath(of url: URL) -> String {
        let path = url.standardizedFileURL.path
        return pending.withLock { state in state.renames.last { $0.final.standardizedFileURL.path == path }?.temp } ?? url.path
    }

    /// Leaves a batch; the renames owed when it was the outermost one.
    private static func leave() -> [(temp: String, final: URL)]? {
        pending.withLock { state -> [(temp: String, final: URL)]? in
            state.depth -= 1
            guard state.depth == 0 else { return nil }
            defer { state.renames = [] }
            return state.renames
        }
    }

    private static func commit(_ owed: [(temp: String, final: URL)]) throws {
        guard let first = owed.first else { return }
        guard flushesWholeFileSystem else {
            // Each file was flushed when it was written: rename them, then flush each folder once.
            var folders = Set<String>()
            for (i, r) in owed.enumerated() {
                if rename(r.temp, r.final.path) != 0 {
                    let code = errno
                    for rest in owed[i...] { unlink(rest.temp) }
                    throw writeError(r.final, code)
                }
                folders.insert(r.final.deletingLastPathComponent().path)
            }
            for folder in folders.sorted() { syncFolder(folder) }
            return
        }
        let anchor = open(first.final.deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        defer { if anchor >= 0 { close(anchor) } }
        // syncfs flushes the file system of `anchor`; temporary files on another one (a batch over
        // two mounts) get their own fsync.
        if anchor >= 0 { _ = glyph_syncfs(anchor) }
        var anchorInfo = stat()
        if anchor >= 0 { fstat(anchor, &anchorInfo) }
        var otherFolders = Set<String>()
        for (i, r) in owed.enumerated() {
            var info = stat()
            if anchor < 0 || stat(r.temp, &info) != 0 || info.st_dev != anchorInfo.st_dev {
                let fd = open(r.temp, O_RDONLY | O_CLOEXEC)
                if fd >= 0 { _ = glyph_fsync(fd); close(fd) }
                otherFolders.insert(r.final.deletingLastPathComponent().path)
            }
            if rename(r.temp, r.final.path) != 0 {
                let code = errno
                for rest in owed[i...] { unlink(rest.temp) }
                throw writeError(r.final, code)
            }
        }
        if anchor >= 0 { _ = glyph_syncfs(anchor) }
        for folder in otherFolders.sorted() { syncFolder(folder) }
    }

    private static func syncFolder(_ path: String) {
        let dir = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dir >= 0 {
            _ = glyph_fsync(dir)
            close(dir)
        }
    }

    public static func write(_ data: Data, to url: URL) throws {
        // In a failed transaction nothing more is tried.
        if let failure = journal.withLock({ $0.failure }) { throw writeError(url, failure.code) }
        let folder = url.deletingLastPathComponent()
        if !madeFolders.withLock({ $0.contains(folder.path) }) {
            try makeFolders(folder.path, for: url)
            madeFolders.withLock { _ = $0.insert(folder.path) }
        }
        removeStaleTemporaries(in: folder.path)
        let temp = folder.path + "/.\(url.lastPathComponent).tmp-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        var fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        if fd < 0 && errno == ENOENT {
            // The folder was known to exist but has gone since (removed by someone else): make it again.
            try makeFolders(folder.path, for: url)
            fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        }
        guard fd >= 0 else { throw failed(url, errno) }
        let failedWrite = writeAll(data, to: fd)
        let ok = failedWrite == nil
        // The data reaches the disk before the rename can: else a power cut right after the rename
        // may leave the new name on an empty file. In a batch, one syncfs does it for every file
        // (where there is one).
        let batched = pending.withLock { $0.depth > 0 }
        let synced = ok && ((batched && flushesWholeFileSystem) || glyph_fsync(fd) == 0)
        let code = failedWrite ?? errno
        if close(fd) != 0 || !ok || !synced {
            unlink(temp)
            throw failed(url, ok ? errno : code)
        }
        if batched {
            let (joined, due) = pending.withLock { state -> (Bool, [(temp: String, final: URL)]) in
                guard state.depth > 0 else { return (false, []) }
                state.renames.append((temp, url))
                guard state.renames.count >= chunk, !journal.withLock({ $0.active }) else { return (true, []) }
                defer { state.renames = [] }
                return (true, state.renames)
            }
            if joined {
                try commit(due)
                return
            }
            // The batch ended while this file was written: flush it on its own.
            if flushesWholeFileSystem {
                let fd = open(temp, O_RDONLY | O_CLOEXEC)
                if fd >= 0 { _ = glyph_fsync(fd); close(fd) }
            }
        }
        if rename(temp, url.path) != 0 {
            let code = errno
            unlink(temp)
            throw writeError(url, code)
        }
        // The rename itself is in the folder's data: flush it, so the new file survives a power cut.
        syncFolder(folder.path)
    }

    /// Writes a file that only saves work (an audit cache entry): under a temporary name, then
    /// renamed over `url`, so that no reader sees it half written — but not flushed to disk and not
    /// part of a batch or transaction (it is in place at once, and stays when the command's other
    /// writes fail). A power cut may lose it or leave it cut short: its reader must take a file that
    /// is not whole for no file.
    public static func writeUnflushed(_ data: Data, to url: URL) throws {
        let folder = url.deletingLastPathComponent()
        if !madeFolders.withLock({ $0.contains(folder.path) }) {
            var info = stat()
            if stat(folder.path, &info) != 0 || (info.st_mode & S_IFMT) != S_IFDIR {
                // Made outside any transaction (which would remove it again when it fails).
                do { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) } catch {
                    throw InputError(file: url.path, message: "cannot write: cannot create the folder \(folder.path)")
                }
            }
            madeFolders.withLock { _ = $0.insert(folder.path) }
        }
        removeStaleTemporaries(in: folder.path)
        let temp = folder.path + "/.\(url.lastPathComponent).tmp-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw writeError(url, errno) }
        let failedWrite = writeAll(data, to: fd)
        if close(fd) != 0 || failedWrite != nil {
            let code = failedWrite ?? errno
            unlink(temp)
            throw writeError(url, code)
        }
        if rename(temp, url.path) != 0 {
            let code = errno
            unlink(temp)
            throw writeError(url, code)
        }
    }

    /// Folders already cleared of stale temporary files by this process.
    private static let clearedFolders = Mutex<Set<String>>([])

    /// Removes, once per folder and process, the temporary files (`.NAME.tmp-PID-N`) that a killed
    /// run left in `folder`: only names of exactly that pattern, only regular files (not links), and
    /// only when no process PID runs (`kill(PID, 0)` says ESRCH); this process's own and those of a
    /// live writer (another glyphaudit writing the same folder now) are left alone. Called by every
    /// write into the folder, and by `writeIfChanged` when it leaves a file as it is.
    public static func removeStaleTemporaries(in folder: String) {
        guard clearedFolders.withLock({ $0.insert(folder).inserted }) else { return }
        guard let dir = opendir(folder) else { return }
        defer { closedir(dir) }
        let me = getpid()
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard let pid = temporaryWriter(name), pid != me, kill(pid, 0) == -1, errno == ESRCH else { continue }
            let path = folder + "/" + name
            var info = stat()
            if lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG { unlink(path) }
        }
    }

    /// The writer's PID when `name` is one of `write`'s temporary names (`.NAME.tmp-PID-N`, both
    /// numbers in decimal digits), else nil.
    static func temporaryWriter(_ name: String) -> pid_t? {
        guard name.hasPrefix("."), let marker = name.range(of: ".tmp-", options: .backwards),
              marker.lowerBound > name.index(after: name.startIndex) else { return nil }
        let numbers = name[marker.upperBound...].split(separator: "-", omittingEmptySubsequences: false)
        guard numbers.count == 2, numbers.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy { (0x30...0x39).contains($0) } }),
              let pid = pid_t(numbers[0]), pid > 0, UInt64(numbers[1]) != nil else { return nil }
        return pid
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
        if mkdir(path, 0o777) == 0 { return made(path) }
        var code = errno
        if code == ENOENT {
            let parent = path.parentPath
            if !parent.isEmpty && parent != path {
                try makeFolder(parent, for: url)
                if mkdir(path, 0o777) == 0 { return made(path) }
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
        journal.withLock { j in
            if j.active && j.failure == nil { j.failure = Failure(file: url.path, folder: path, code: code, makingFolder: true) }
        }
        throw InputError(file: url.path,
                         message: "cannot write: cannot create the folder \(path): \(String(cString: strerror(code)))")
    }

    private static func made(_ path: String) {
        journal.withLock { j in if j.active { j.made.append(path) } }
    }

    static func notAFolder(_ url: URL, _ path: String) -> Error {
        InputError(file: url.path, message: "cannot write: \(path) is a file, not a folder (\(String(cString: strerror(ENOTDIR))))")
    }

    static func writeError(_ url: URL, _ code: Int32) -> Error {
        InputError(file: url.path, message: "cannot write: \(String(cString: strerror(code)))")
    }
}
