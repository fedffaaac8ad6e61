import Foundation
import Testing
import GlyphTestSupport

// Issue 23, items 1 and 4: a manifest without unsafe flags (scripts/check-targets), and file flushing
// that does not need Linux's syncfs (Sources/CGlyphSys). `make test` runs this suite and the kill tests a
// second time against a glyphaudit built with GLYPHAUDIT_PORTABLE_SYNC=1 (GLYPHAUDIT_BIN names it).

@Suite("portability: no unsafe flags, and the POSIX flushing path macOS takes")
struct PortabilityTests {
    static func checkUnsafeFlags(_ manifests: [URL]) throws -> CLI.Result {
        try CLI.launch(CLI.packageRoot.appendingPathComponent("scripts/check-targets"), ["--unsafe-flags"] + manifests.map(\.path),
                       in: CLI.packageRoot)
    }

    @Test("check-targets fails on unsafeFlags in a manifest, naming file and line, and not on the word in a comment or a string")
    func unsafeFlagsRefused() throws {
        let dir = TempFolder()
        let flagged = dir.write("Package.swift", """
            // swift-tools-version: 6.0
            import PackageDescription
            // unsafeFlags were used here once, for "-cross-module-optimization".
            let settings: [SwiftSetting] = [.swiftLanguageMode(.v6),
                .unsafeFlags(["-cross-module-optimization"], .when(configuration: .release))]
            let package = Package(name: "p", targets: [.target(name: "T", swiftSettings: settings)])

            """)
        let r = try Self.checkUnsafeFlags([flagged])
        #expect(r.status == 1, "\(r)")
        #expect(r.stderr.hasPrefix("check-targets: \(flagged.path):5: unsafeFlags: "), "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        // The word alone, in comments and strings, is no use of the setting.
        let clean = dir.write("Package@swift-6.1.swift", """
            // swift-tools-version: 6.1
            import PackageDescription
            /* no .unsafeFlags([…]) */ let note = "unsafeFlags"
            let package = Package(name: "p", targets: [.target(name: "T")])

            """)
        let ok = try Self.checkUnsafeFlags([clean])
        #expect(ok.status == 0 && ok.stderr.isEmpty, "\(ok)")
        // The repository's own manifest has none.
        let own = try Self.checkUnsafeFlags([CLI.packageRoot.appendingPathComponent("Package.swift")])
        #expect(own.status == 0 && own.stderr.isEmpty, "\(own)")
    }

    /// Whether the binary under test was built for the portable path (`make test` says so).
    static let portable = ProcessInfo.processInfo.environment["GLYPHAUDIT_EXPECT_PORTABLE_SYNC"] == "1"

    @Test("a render's flushing under strace: syncfs for the batch on Linux; with GLYPHAUDIT_PORTABLE_SYNC=1, no syncfs but an fsync per file and per folder",
          .enabled(if: CLISVGCheckTests.straceWorks, "strace is not installed at /usr/bin/strace, or may not trace here (ptrace not permitted)"))
    func flushing() throws {
        let dir = TempFolder()
        let log = dir.url.appendingPathComponent("strace.txt")
        let r = try CLI.launch(URL(fileURLWithPath: CLISVGCheckTests.strace),
                               ["-f", "-e", "trace=syncfs,fsync,fdatasync", "-o", log.path, CLI.binary.path,
                                "render", "--preset", "swiftui-switch", "--only", "dynamic-type=L", "--out", "out", "--quiet"],
                               in: dir.url)
        #expect(r.status == 0, "\(r.stderr)")
        let calls = try String(contentsOf: log, encoding: .utf8).split(separator: "\n")
        let syncfs = calls.filter { $0.contains("syncfs(") }.count
        let fsync = calls.filter { $0.contains("fsync(") && !$0.contains("fdatasync(") }.count
        // What the render wrote: its files and their folders (besides `out` itself).
        var files = 0, folders = Set<String>()
        let out = dir.url.appendingPathComponent("out")
        for case let relative as String in FileManager.default.enumerator(atPath: out.path)! {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: out.appendingPathComponent(relative).path, isDirectory: &isFolder), !isFolder.boolValue {
                files += 1
                folders.insert((relative as NSString).deletingLastPathComponent)
            }
        }
        // swiftui-switch has 432 variants (216 and their focused twins; CLISnapshotTests.concurrentRecorders),
        // over 12 Dynamic Type sizes.
        #expect(files == 432 / 12, "the render wrote \(files) files")
        if Self.portable {
            #expect(syncfs == 0, "\(calls.filter { $0.contains("syncfs(") }.prefix(3))")
            #expect(fsync >= files + folders.count, "\(fsync) fsync calls for \(files) files in \(folders.count) folders")
        } else {
            // Two syncfs per batch (before and after the renames), and far fewer fsyncs than files.
            #expect(syncfs >= 2 && syncfs % 2 == 0, "\(syncfs) syncfs calls")
            #expect(fsync < files, "\(fsync) fsync calls for \(files) files")
        }
    }
}
