import Foundation
import GlyphTestSupport
import GlyphSnapshot

/// Runs the built `glyphaudit` binary (built by `swift build --build-tests`, as `make test` does).
enum CLI {
    /// Every file below a folder with its bytes, by relative path (a snapshot folder's lock file left out).
    static func files(below folder: URL) -> [String: Data] {
        var out: [String: Data] = [:]
        guard let e = FileManager.default.enumerator(atPath: folder.path) else { return out }
        while let rel = e.nextObject() as? String {
            let url = folder.appendingPathComponent(rel)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue,
                  rel != SnapshotLock.fileName else { continue }
            out[rel] = try? Data(contentsOf: url)
        }
        return out
    }

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// GLYPHAUDIT_BIN, when set, names the binary (`make test` runs the kill tests on one built with
    /// GLYPHAUDIT_PORTABLE_SYNC=1); else the one next to the test bundle.
    static var binary: URL {
        if let path = ProcessInfo.processInfo.environment["GLYPHAUDIT_BIN"] { return URL(fileURLWithPath: path) }
        let candidates = [
            Bundle.main.bundleURL.appendingPathComponent("glyphaudit"),
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("glyphaudit"),
            packageRoot.appendingPathComponent(".build/debug/glyphaudit"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates.last!
    }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs the tool with `arguments` in `directory`, with `environment` added. `CI` is not passed on
    /// from the test's own environment (CI runs the tests with CI=true, which changes what a missing
    /// baseline does): a test that wants it sets it. GLYPHAUDIT_REPRODUCIBLE is 1 unless set.
    static func run(_ arguments: [String], in directory: URL, environment: [String: String] = [:]) throws -> Result {
        try launch(binary, arguments, in: directory, environment: environment)
    }

    /// Runs any program the same way (`CI` not passed on), reading both pipes to the end.
    static func launch(_ program: URL, _ arguments: [String], in directory: URL, environment: [String: String] = [:]) throws -> Result {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var env = ProcessInfo.processInfo.environment
        env["CI"] = nil
        // The tests compare runs byte for byte (and junit.xml's `time="0"`): no times in the reports
        // unless a test asks for them (GLYPHAUDIT_REPRODUCIBLE="", CLIJUnitTimeTests).
        env["GLYPHAUDIT_REPRODUCIBLE"] = "1"
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read both pipes to the end before waiting, so a large output cannot block the child.
        let group = DispatchGroup()
        nonisolated(unsafe) var errData = Data()
        group.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }
}

/// A fresh empty folder with no repository around it (TempFolder), as the CLI's tests list it.
extension TempFolder {
    /// Every file below the folder, relative paths, sorted.
    func files(_ sub: String = "") -> [String] {
        let base = sub.isEmpty ? url : url.appendingPathComponent(sub)
        guard let e = FileManager.default.enumerator(at: base, includingPropertiesForKeys: [.isRegularFileKey]) else { return [] }
        var out: [String] = []
        for case let f as URL in e where (try? f.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
            out.append(String(f.standardizedFileURL.path.dropFirst(base.standardizedFileURL.path.count + 1)))
        }
        return out.sorted()
    }
}
