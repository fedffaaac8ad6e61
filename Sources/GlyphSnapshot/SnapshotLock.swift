import Foundation
import GlyphCore

/// The lock a writer of a snapshot folder holds (`check --record`/`--update`/`--prune`, `run` with
/// them): `flock(LOCK_EX | LOCK_NB)` on `<folder>/.glyphaudit.lock`, which holds the writer's pid.
/// A second writer does not wait: it is refused (bad input, exit 2) naming the holder, before it
/// renders anything, so the folder never holds a mix of two runs' baselines. The lock goes with the
/// process (a killed writer holds nothing); the file stays (add it to `.gitignore`).
public final class SnapshotLock: @unchecked Sendable {
    public static let fileName = ".glyphaudit.lock"

    private var fd: Int32
    /// The lock file's path.
    public let path: String
    /// Whether taking the lock made the folder (a failed run then removes the lock file with it).
    public let madeFolder: Bool

    private init(fd: Int32, path: String, madeFolder: Bool) {
        self.fd = fd
        self.path = path
        self.madeFolder = madeFolder
    }

    deinit { release(removeFile: false) }

    /// Takes the lock of `folder`, making the folder first when it is missing (through `AtomicFile`,
    /// so a failed transaction removes it again). `command` is what the holder is doing, said in the
    /// message a second writer gets.
    public static func acquire(_ folder: URL, command: String) throws(InputError) -> SnapshotLock {
        var info = stat()
        let existed = stat(folder.path, &info) == 0
        do { try AtomicFile.makeFolders(folder) } catch let error as InputError { throw error } catch {
            throw InputError(file: folder.path, message: "\(error)")
        }
        let path = folder.appendingPathComponent(fileName).path
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard fd >= 0 else {
            throw InputError(file: folder.path, message: "cannot write: cannot create the lock file \(fileName): \(String(cString: strerror(errno)))")
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            var buffer = [UInt8](repeating: 0, count: 256)
            let n = pread(fd, &buffer, buffer.count, 0)
            close(fd)
            guard code == EWOULDBLOCK else {
                throw InputError(file: folder.path, message: "cannot lock \(fileName): \(String(cString: strerror(code)))")
            }
            let holder = n > 0 ? String(decoding: buffer[..<n], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) : ""
            throw InputError(file: folder.path, message: "is being written by another glyphaudit (\(holder.isEmpty ? "its pid not yet known" : holder)); "
                             + "nothing was rendered or written: run again when it has finished (the lock is \(fileName) in the folder)")
        }
        let text = "pid \(getpid()), \(command)\n"
        _ = ftruncate(fd, 0)
        _ = text.utf8CString.withUnsafeBufferPointer { pwrite(fd, $0.baseAddress!, $0.count - 1, 0) }
        // A run that made the folder and then fails to write removes the lock file with the folder.
        if !existed { AtomicFile.removeOnFailure(path) }
        let lock = SnapshotLock(fd: fd, path: path, madeFolder: !existed)
        // The files a writer wrote are renamed into place when its command's transaction ends
        // (AtomicFile.transaction), after the checker that took the lock may be gone: the lock is
        // kept until then, so it covers the renames too.
        AtomicFile.retainUntilTransactionEnds(lock)
        return lock
    }

    /// Lets go of the lock; with `removeFile`, removes the lock file first (a failed run that made
    /// the folder leaves nothing behind).
    public func release(removeFile: Bool) {
        guard fd >= 0 else { return }
        if removeFile { unlink(path) }
        flock(fd, LOCK_UN)
        close(fd)
        fd = -1
    }
}
