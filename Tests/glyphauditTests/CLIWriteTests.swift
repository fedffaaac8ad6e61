import Foundation
import Testing
import GlyphTestSupport

/// Issue 24's reproducers of writers (Tests/Fixtures/bad-input 25 and 30): one writer of a snapshot
/// folder at a time, and a write that fails leaves nothing behind with one message.
@Suite("Bad input, issue 24: one writer per snapshot folder, nothing left on a full disk")
struct CLIWriteTests {
    static func files(_ dir: URL) -> [String] {
        let e = FileManager.default.enumerator(atPath: dir.path)
        return ((e?.allObjects as? [String]) ?? []).sorted()
    }

    @Test("30: while another process holds snaps/.glyphaudit.lock, check --update exits 2 naming it and writes nothing; afterwards it runs")
    func secondWriterRefused() throws {
        let t = try badInputFixture("30-")
        let snaps = t.url.appendingPathComponent("snaps")
        let record = try CLI.run(["check", "--preset", "swiftui-switch", "--only", "dynamic-type=L", "--snapshots", "snaps", "--record", "--quiet"],
                                 in: t.url)
        #expect(record.status == 0, "\(record.stderr)")
        // The lock file is made by the first writer and holds its pid; baselines do not count it.
        let lockFile = snaps.appendingPathComponent(".glyphaudit.lock")
        #expect(FileManager.default.fileExists(atPath: lockFile.path))
        let baselines = Self.files(snaps).filter { $0.hasSuffix(".png") }
        #expect(!baselines.isEmpty)
        let before = try baselines.map { try Data(contentsOf: snaps.appendingPathComponent($0)) }

        // Another writer: this process holds the lock, as a running glyphaudit would.
        let fd = open(lockFile.path, O_RDWR)
        #expect(fd >= 0)
        defer { close(fd) }
        #expect(flock(fd, LOCK_EX | LOCK_NB) == 0)
        let holder = "pid 4242, writing baselines with --update\n"
        _ = ftruncate(fd, 0)
        _ = holder.withCString { pwrite(fd, $0, strlen($0), 0) }
        // A different surface, so an update would rewrite every baseline.
        for args in [["check", "--update"], ["check", "--record"], ["check", "--prune"]] {
            let r = try CLI.run(args + ["--preset", "swiftui-switch", "--only", "dynamic-type=L", "--snapshots", "snaps",
                                        "--include-aa"], in: t.url)
            #expect(r.status == 2, "\(args): \(r.stderr)")
            #expect(r.stderr.contains("snaps: is being written by another glyphaudit (pid 4242, writing baselines with --update)"),
                    "\(args): \(r.stderr)")
            #expect(r.stderr.filter { $0 == "\n" }.count == 1, "\(r.stderr)")
        }
        let after = try baselines.map { try Data(contentsOf: snaps.appendingPathComponent($0)) }
        #expect(after == before)
        // A check that only reads takes no lock.
        let plain = try CLI.run(["check", "--preset", "swiftui-switch", "--only", "dynamic-type=L", "--snapshots", "snaps", "--quiet"], in: t.url)
        #expect(plain.status == 0, "\(plain.stderr)")
        flock(fd, LOCK_UN)
        let again = try CLI.run(["check", "--update", "--preset", "swiftui-switch", "--only", "dynamic-type=L", "--snapshots", "snaps",
                                 "--quiet"], in: t.url)
        #expect(again.status == 0, "\(again.stderr)")
    }

    /// Whether this process may mount a tmpfs (root, and the container lets it).
    static let canMount: Bool = {
        let t = TempFolder()
        let dir = t.url.appendingPathComponent("m")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        guard mount("tmpfs", dir.path, "tmpfs", 0, "size=64k") == 0 else { return false }
        umount(dir.path)
        return true
    }()

    @Test("25: check --record onto a full disk (a 48 KiB tmpfs): exit 2, one message naming the folder and the error, nothing left",
          .enabled(if: canMount, "mount -t tmpfs is refused here (not root, or no CAP_SYS_ADMIN)"))
    func fullDisk() throws {
        let t = try badInputFixture("25-")
        let mnt = t.url.appendingPathComponent("mnt")
        try FileManager.default.createDirectory(at: mnt, withIntermediateDirectories: true)
        #expect(mount("tmpfs", mnt.path, "tmpfs", 0, "size=48k") == 0)
        defer { umount(mnt.path) }
        for args in [["check", "--preset", "design-system-checkbox", "--snapshots", "mnt/snaps", "--record"],
                     ["check", "--preset", "design-system-checkbox", "--snapshots", "mnt/snaps", "--record", "--prune", "--jobs", "1"]] {
            let r = try CLI.run(args, in: t.url)
            #expect(r.status == 2, "\(r.stderr)")
            #expect(r.stderr.filter { $0 == "\n" }.count == 1, "\(r.stderr.prefix(500))")
            #expect(r.stderr.hasPrefix("glyphaudit: mnt/snaps/design-system-checkbox/"), "\(r.stderr)")
            #expect(r.stderr.contains("cannot write: No space left on device"), "\(r.stderr)")
            #expect(r.stderr.contains("nothing was written"), "\(r.stderr)")
            // No baseline, no temporary file, no folder, no lock file.
            #expect(Self.files(mnt) == [], "\(Self.files(mnt).prefix(10))")
        }
        // An existing folder stays, with what was in it; nothing of the failed run is added.
        t.write("mnt/snaps/keep.txt", "kept\n")
        let r = try CLI.run(["check", "--preset", "design-system-checkbox", "--snapshots", "mnt/snaps", "--record"], in: t.url)
        #expect(r.status == 2 && r.stderr.contains("No space left on device"), "\(r.stderr)")
        #expect(Self.files(mnt) == ["snaps", "snaps/.glyphaudit.lock", "snaps/keep.txt"], "\(Self.files(mnt).prefix(10))")
    }

    @Test("25: render, export, run, audit --evidence and merge-reports onto a full disk: exit 2, one message, nothing left",
          .enabled(if: canMount, "mount -t tmpfs is refused here (not root, or no CAP_SYS_ADMIN)"))
    func fullDiskEveryWriter() throws {
        let t = try badInputFixture("25-")
        // Two shards' reports on the ordinary disk, for merge-reports.
        for i in 1...2 {
            let r = try CLI.run(["run", "--preset", "design-system-checkbox", "--shard", "\(i)/2", "--report", "shard\(i)",
                                 "--snapshots", "nosnaps", "--record", "--fail-on", "never", "--quiet"], in: t.url)
            #expect(r.status == 0, "\(r.stderr)")
        }
        let mnt = t.url.appendingPathComponent("mnt")
        try FileManager.default.createDirectory(at: mnt, withIntermediateDirectories: true)
        #expect(mount("tmpfs", mnt.path, "tmpfs", 0, "size=48k") == 0)
        defer { umount(mnt.path) }
        let writers: [[String]] = [
            ["render", "--preset", "design-system-checkbox", "--format", "png,svg", "--out", "mnt/out/render"],
            ["export", "--preset", "design-system-checkbox", "--xcassets", "mnt/out/A.xcassets"],
            ["run", "--preset", "design-system-checkbox", "--report", "mnt/out/report", "--snapshots", "mnt/out/snaps", "--record",
             "--fail-on", "never"],
            ["audit", "--preset", "design-system-checkbox", "--evidence", "mnt/out/evidence", "--fail-on", "never"],
            ["merge-reports", "shard1", "shard2", "--report", "mnt/out/merged"],
        ]
        for args in writers {
            let r = try CLI.run(args, in: t.url)
            #expect(r.status == 2, "\(args[0]): \(r.stderr)")
            #expect(r.stderr.filter { $0 == "\n" }.count == 1, "\(args[0]): \(r.stderr.prefix(800))")
            #expect(r.stderr.hasPrefix("glyphaudit: mnt/out/"), "\(args[0]): \(r.stderr)")
            #expect(r.stderr.contains("cannot write: No space left on device"), "\(args[0]): \(r.stderr)")
            #expect(r.stderr.contains("nothing was written"), "\(args[0]): \(r.stderr)")
            // No file, no temporary file, no folder the run made.
            #expect(Self.files(mnt) == [], "\(args[0]): \(Self.files(mnt).prefix(10))")
        }
    }
}
