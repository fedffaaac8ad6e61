import Foundation
import PackagePlugin

/// `swift package glyphaudit <command> [options]`: runs the glyphaudit executable of this package
/// (built by SwiftPM for the plugin) in the package's folder with the arguments, and exits with its
/// status. `check --record` records the missing baselines and rewrites the failing ones (the tool's
/// `check --record --update`). Writes into the package folder (`run`'s report, `check --record`,
/// `accept`) need `swift package --allow-writing-to-package-directory glyphaudit …` where SwiftPM
/// sandboxes plugins (macOS). An unknown command exits 64 before anything runs.
@main
struct GlyphAuditPlugin: CommandPlugin {
    /// The commands the plugin passes on (`glyphaudit --help` describes them).
    static let commands = ["run", "render", "presets", "audit", "check", "accept", "diff", "rules", "merge-reports", "export",
                           "completions", "man", "help"]

    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var arguments = arguments
        guard let command = arguments.first, Self.commands.contains(command) || ["--help", "-h", "--version"].contains(command) else {
            let given = arguments.first.map { "unknown command \"\($0)\"" } ?? "no command"
            FileHandle.standardError.write(Data(("glyphaudit plugin: \(given); commands: \(Self.commands.joined(separator: ", ")) "
                + "(usage: swift package [--allow-writing-to-package-directory] glyphaudit <command> [options])\n").utf8))
            exit(64)
        }
        if command == "check", let i = arguments.firstIndex(of: "--record"), !arguments.contains("--update") {
            arguments.insert("--update", at: i + 1)
        }
        let tool = try context.tool(named: "glyphaudit")
        let process = Process()
        process.executableURL = tool.url
        process.arguments = arguments
        process.currentDirectoryURL = context.package.directoryURL
        try process.run()
        process.waitUntilExit()
        if process.terminationStatus != 0 { exit(process.terminationStatus) }
    }
}
