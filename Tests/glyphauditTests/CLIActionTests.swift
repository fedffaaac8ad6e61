import Foundation
import Testing
import GlyphTestSupport

// The composite GitHub Action (action.yml at the root) runs scripts/action-run; this runs that script
// as the action's run step does, with the built binary (the GitHub-only steps, setup's packages, the
// build and the two uploads, are not run here).

@Suite("action.yml: the run step's script, run as the action runs it")
struct CLIActionTests {
    static let script = CLI.packageRoot.appendingPathComponent("scripts/action-run")

    static func run(_ inputs: [String: String], in dir: URL) throws -> CLI.Result {
        var env = ["GLYPHAUDIT": CLI.binary.path, "GITHUB_ACTIONS": "", "NO_COLOR": "1"]
        for (k, v) in inputs { env[k] = v }
        return try CLI.launch(URL(fileURLWithPath: "/bin/bash"), [script.path], in: dir, environment: env)
    }

    @Test("action.yml declares the inputs the script reads and runs the script, then uploads the report and the SARIF log")
    func actionFile() throws {
        let yml = try String(contentsOf: CLI.packageRoot.appendingPathComponent("action.yml"), encoding: .utf8)
        for input in ["specs", "presets", "report", "fail-on", "args"] { #expect(yml.contains("\n  \(input):\n"), "\(input)") }
        for env in ["INPUT_SPECS", "INPUT_PRESETS", "INPUT_REPORT", "INPUT_FAIL_ON", "INPUT_ARGS", "GLYPHAUDIT"] {
            #expect(yml.contains("\(env): ${{ "), "\(env)")
        }
        #expect(yml.contains("using: composite"))
        #expect(yml.contains("scripts/setup") && yml.contains("scripts/action-run") && yml.contains("swift build -c release --product glyphaudit"))
        #expect(yml.contains("uses: actions/upload-artifact@v4") && yml.contains("uses: github/codeql-action/upload-sarif@v3"))
    }

    @Test("the script runs glyphaudit with the inputs, writes the outputs and the step summary, and exits with its status")
    func script() throws {
        let dir = TempFolder()
        #expect(try CLI.run(["presets", "show", "swiftui-switch", "--out", "specs"], in: dir.url).status == 0)
        let output = dir.url.appendingPathComponent("github-output"), summary = dir.url.appendingPathComponent("step-summary")
        let inputs = ["INPUT_SPECS": "specs/swiftui-switch.json", "INPUT_REPORT": "ga", "INPUT_ARGS": "--only scale=2 --only dynamic-type=L",
                      "GITHUB_OUTPUT": output.path, "GITHUB_STEP_SUMMARY": summary.path]
        // The switch has nontext-contrast errors: 1 at the default level, 0 at never.
        let failing = try Self.run(inputs, in: dir.url)
        #expect(failing.status == 1, "\(failing.stderr)")
        #expect(failing.stdout.contains("glyphaudit run: 12 variants — failed (fails on error)"), "\(failing.stdout)")
        for file in RunWorkspace.reportFiles { #expect(FileManager.default.fileExists(atPath: dir.url.appendingPathComponent("ga/\(file)").path), "\(file)") }
        #expect(try String(contentsOf: output, encoding: .utf8) == "report=ga\nsarif=ga/results.sarif\nstatus=1\n")
        #expect(try String(contentsOf: summary, encoding: .utf8) == String(contentsOf: dir.url.appendingPathComponent("ga/summary.md"), encoding: .utf8))

        var never = inputs
        never["INPUT_FAIL_ON"] = "never"
        never["INPUT_REPORT"] = "ga-never"
        #expect(try Self.run(never, in: dir.url).status == 0)
        // Bad input is passed on: exit 2.
        var bad = inputs
        bad["INPUT_SPECS"] = "specs/missing.json"
        bad["INPUT_REPORT"] = "ga-bad"
        let r = try Self.run(bad, in: dir.url)
        #expect(r.status == 2 && r.stderr.contains("specs/missing.json"), "\(r.stderr)")
    }
}
