import Foundation
import GlyphRender

enum PresetsCommand {
    static let command = Command(
        name: "presets",
        summary: "List the built-in presets, or print one as spec JSON.",
        usage: "glyphaudit presets [show NAME]",
        discussion: "`presets show NAME` prints the preset's spec file; save it to start a spec of your own.",
        options: [],
        run: run)

    static func run(_ args: Arguments) throws -> Int32 {
        let p = args.positionals
        if p.isEmpty {
            for name in Presets.names {
                let spec = try Presets.load(name)
                Console.out("\(name.padding(toLength: 24, withPad: " ", startingAt: 0)) \(spec.variants().count) variants  \(spec.control.rawValue)")
            }
            return 0
        }
        guard p.count == 2, p[0] == "show" else {
            throw UsageError(message: "expected `presets` or `presets show NAME`")
        }
        guard let text = Presets.source(p[1]) else {
            throw InputError(file: "presets show", message: "unknown preset \"\(p[1])\"; built-in presets: \(Presets.names.joined(separator: ", "))")
        }
        FileHandle.standardOutput.write(Data(text.utf8))
        return 0
    }
}
