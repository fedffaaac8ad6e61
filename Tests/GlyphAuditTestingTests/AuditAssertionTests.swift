import Foundation
import GlyphAudit
import GlyphAuditTesting
import GlyphCore
import GlyphRender
import GlyphTestSupport
import Testing

/// SmallSpec with a border of #C8C8C8 on white: 1.67:1 by hand ((200/255 + 0.055) / 1.055)^2.4 =
/// 0.578; (1 + 0.05) / (0.578 + 0.05) = 1.67), below the 3:1 that WCAG 1.4.11 asks of the
/// unchecked box's only edge.
let paleBorderSpec = SmallSpec.json.replacingOccurrences(of: "\"border\": \"#767676\"", with: "\"border\": \"#C8C8C8\"")

@Suite struct AuditAssertionTests {
    /// The issues are the CLI's findings for the same spec (`audit --json --fail-on warning`), one
    /// per open finding at or above the level, each with its message.
    @Test func issuesAreTheCLIFindings() throws {
        #expect(paleBorderSpec != SmallSpec.json)
        let dir = TempFolder()
        let spec = dir.write("pale.json", paleBorderSpec)
        let (_, issues) = try GlyphAuditCheck.audit(.file(spec.path), failOn: .warning)

        let cli = try TestingCLI.run(["audit", "--spec", spec.path, "--json", "--fail-on", "warning"], in: dir.url)
        #expect(cli.status == 1, "\(cli.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(cli.stdout.utf8)) as? [String: Any])
        let findings = try #require(json["findings"] as? [[String: Any]])
        let expected = findings.filter { f in
            f["accepted"] == nil && ["error", "warning"].contains(f["severity"] as? String)
        }.map { "\($0["rule"]!) \($0["variant"]!) \($0["message"]!)" }
        #expect(!expected.isEmpty)
        #expect(issues.map { "\($0.finding!.rule) \($0.finding!.variant) \($0.finding!.message)" }.sorted() == expected.sorted())
        for issue in issues {
            let f = try #require(issue.finding)
            #expect(issue.message.hasPrefix("\(f.severity.rawValue) \(f.variant) \(f.rule)"))
            #expect(issue.message.contains(f.message))
        }
        // The hand-computed contrast of the pale border is among them, with its swatch attached.
        let border = issues.filter { $0.finding!.rule == "nontext-contrast" && $0.message.contains("1.67") }
        #expect(!border.isEmpty, "\(issues.map(\.message))")
        let pictures = issues.flatMap(\.attachments)
        #expect(!pictures.isEmpty)
        for p in pictures {
            #expect(p.name.hasSuffix(".png"))
            #expect(Array(p.bytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        }
    }

    /// `expectAccessible` records one Swift Testing issue per finding, its comment the message.
    @Test func expectAccessibleRecordsOneIssuePerFinding() throws {
        let dir = TempFolder()
        let spec = dir.write("pale.json", paleBorderSpec)
        let (_, issues) = try GlyphAuditCheck.audit(.file(spec.path), failOn: .error)
        #expect(!issues.isEmpty)
        let recorded = Mutex<[String]>([])
        try withKnownIssue {
            try expectAccessible(.file(spec.path), failOn: .error)
        } matching: { issue in
            recorded.withLock { $0.append(issue.comments.map(\.rawValue).joined()) }
            return true
        }
        #expect(recorded.withLock { $0 } == issues.map(\.message))
    }

    /// SmallSpec at 24 pt (the 24 × 24 pt of WCAG 2.5.8; its #767676 ring is 4.54:1 on white, its
    /// #E00800 fill 5.0:1) has no error: no issue.
    @Test func passingSpecRecordsNothing() throws {
        let json = SmallSpec.json.replacingOccurrences(of: "\"size\": 20", with: "\"size\": 24")
        #expect(json != SmallSpec.json)
        let (result, issues) = try GlyphAuditCheck.audit(.spec(try specValue(json)), failOn: .error)
        #expect(issues.isEmpty, "\(issues.map(\.message))")
        #expect(result.variants == 8)
    }

    /// A spec given by path relative to the calling test file, and a preset by name; an unknown one is bad input.
    @Test func specSources() throws {
        let relative = try GlyphAuditCheck.audit(.file("../Fixtures/designsystems/bootstrap53-checkbox/spec.json"), failOn: .error,
                                                 only: ["scale=1", "dynamicType=large"])
        #expect(relative.result.presets == ["bootstrap53-checkbox"])
        #expect(throws: InputError.self) { try GlyphAuditCheck.audit(.preset("swiftui-checkbx")) }
        #expect(throws: InputError.self) { try GlyphAuditCheck.audit(.file("no-such-spec.json")) }
    }
}

func specValue(_ json: String) throws -> Spec {
    let dir = TempFolder()
    return try Spec.load(contentsOf: dir.write("spec.json", json))
}

/// Runs the built `glyphaudit` binary (`swift build --build-tests` builds it).
enum TestingCLI {
    static var binary: URL {
        let candidates = [
            Bundle.main.bundleURL.appendingPathComponent("glyphaudit"),
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("glyphaudit"),
            TestPaths.packageRoot.appendingPathComponent(".build/debug/glyphaudit"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates.last!
    }

    static func run(_ arguments: [String], in directory: URL) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var env = ProcessInfo.processInfo.environment
        env["CI"] = nil
        process.environment = env
        let out = Pipe()
        let err = FileManager.default.temporaryDirectory.appendingPathComponent("glyphaudit-testing-stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: err) }
        process.standardOutput = out
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self),
                (try? String(contentsOf: err, encoding: .utf8)) ?? "")
    }
}
