import Foundation
import Testing
@testable import glyphaudit

/// The command plugin (Plugins/GlyphAuditPlugin) passes on the tool's commands and refuses others
/// before anything runs: its list must be the tool's (`accept` included, which the tool may not
/// have yet in this checkout, and `help`).
@Suite("plugin commands")
struct CLIPluginCommandsTests {
    @Test("the plugin's command list is the tool's commands, accept and help")
    func sameCommands() throws {
        let source = try String(contentsOf: CLI.packageRoot.appendingPathComponent("Plugins/GlyphAuditPlugin/GlyphAuditPlugin.swift"),
                                encoding: .utf8)
        let start = try #require(source.range(of: "static let commands = ["))
        let end = try #require(source[start.upperBound...].range(of: "]"))
        let listed = source[start.upperBound..<end.lowerBound].split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespacesAndNewlines).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
        #expect(listed.count == Set(listed).count)
        #expect(Set(listed) == Set(Commands.all.map(\.name)).union(["help"]))
    }
}
