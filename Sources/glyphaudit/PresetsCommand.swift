import Foundation
import GlyphCore
import GlyphRender

enum PresetsCommand {
    static let command = Command(
        name: "presets",
        summary: "List the built-in presets, or print one as spec JSON.",
        usage: "glyphaudit presets [show NAME [--out DIR [--force]]]",
        discussion: """
        `presets show NAME` prints the preset's spec file. A preset that reads a token file or SVG images
        names them relative to the tool's built-in assets, so that text alone cannot be loaded as a spec
        (a note on stderr says so). `presets show NAME --out DIR` writes a folder that stands on its own,
        to start a spec of your own: DIR/NAME.json, its token file under DIR/tokens/ and its images under
        DIR/images/, with the spec's paths pointing at them (and without `$schema`). `glyphaudit render
        --spec DIR/NAME.json` renders exactly what `--preset NAME` renders. A file already in DIR that
        differs from the preset's (your edits) is replaced only with --force: without it the command exits 2,
        naming the first such file, and writes nothing. Files that hold the preset's bytes are left as they are.
        """,
        options: [out, force],
        run: run)

    static let out = Option(name: "out", value: "DIR", help: "With `show`: write the spec and the files it reads into DIR.")
    static let force = Option.flag("force", "With `show --out`: replace files in DIR that differ from the preset's.")

    static func run(_ args: Arguments) throws -> ExitStatus {
        let p = args.positionals
        if p.isEmpty {
            if args.value(Self.out) != nil { throw UsageError(message: "--out goes with `presets show NAME`") }
            if args.flag(force) { throw UsageError(message: "--force goes with `presets show NAME --out DIR`") }
            for name in Presets.names {
                let spec = try Presets.load(name)
                try Console.out("\(name.padding(toLength: 24, withPad: " ", startingAt: 0)) \(spec.variantCount) variants  \(spec.control.rawValue)")
            }
            return .clean
        }
        guard p.count == 2, p[0] == "show" else {
            throw UsageError(message: "expected `presets` or `presets show NAME`")
        }
        if args.flag(force) && args.value(Self.out) == nil { throw UsageError(message: "--force goes with `presets show NAME --out DIR`") }
        let name = try Selection.preset(p[1], option: "presets show")
        if let out = args.value(Self.out) {
            let files = try Presets.standalone(name)
            let folder = URL(fileURLWithPath: out)
            // A file there that is not the preset's is the user's (an edited copy): checked for every
            // file before the first is written, so a refusal writes nothing.
            if !args.flag(force) {
                for file in files {
                    let to = folder.appendingPathComponent(file.path)
                    var info = stat()
                    guard lstat(to.path, &info) == 0 else { continue }
                    let same = (try? InputFile.read(to.path, limit: file.text.utf8.count)) == Data(file.text.utf8)
                    if !same {
                        throw InputError(file: to.path, message: "exists and differs from the preset's \(file.path); "
                                         + "presets show --out replaces it only with --force (nothing was written)")
                    }
                }
            }
            for file in files {
                try writeIfChanged(Data(file.text.utf8), to: folder.appendingPathComponent(file.path))
            }
            Console.info("wrote \(files.map(\.path).joined(separator: ", ")) into \(folder.path); "
                         + "render it with `glyphaudit render --spec \(folder.appendingPathComponent(files[0].path).path)`")
            return .clean
        }
        let references = try Presets.references(name)
        guard let text = Presets.source(name) else { return .badInput }
        try Console.stdout(Data(text.utf8))
        if !references.isEmpty {
            let list = references.map { String($0.dropFirst("Assets/".count)) }.joined(separator: ", ")
            Console.info("note: this spec reads \(list) from the tool's built-in assets, so it does not load on its own; "
                         + "`glyphaudit presets show \(name) --out DIR` writes it with those files into DIR")
        }
        return .clean
    }
}
