import Foundation
import GlyphColor
import GlyphCore
import GlyphSnapshot

enum DiffCommand {
    static let command = Command(
        name: "diff",
        summary: "Compare two PNG files, or two folders of PNGs matched by relative path.",
        usage: "glyphaudit diff A B [--threshold T] [--include-aa] [--alpha A] [--diff-color-alt R,G,B] [--diff-mask] "
            + "[--out FILE|DIR] [--json] [--jobs N] [--quiet]",
        discussion: """
        Compares with pixelmatch v6.0.0 (YIQ colour distance, anti-aliasing detection, semi-transparent
        pixels blended over white), after decoding with libpng. A is the expected image: the diff image
        shows it faded to grey, with differences in red (or --diff-color-alt where B is darker) and
        anti-aliasing in yellow. Images of different sizes differ: they are compared top-left aligned
        and every pixel outside the common area counts as different.

        Two folders: the PNGs below each (names starting with "." are skipped) are matched by relative
        path and compared in parallel; files on one side only are listed. With --out DIR the diff
        image of each differing pair is written to DIR/<relative path>. Two files: --out FILE
        always gets the diff image (like pixelmatch's command line); when --out is an existing
        folder, the diff image goes to DIR/<B's name without .png>.diff.png. (--output, the old
        spelling of --out, is still taken.)

        The largest colour difference is on --threshold's scale (0-1): a pixel counts as different
        when its colour difference is over the threshold.

        Exit status: 0 all pairs match (no pixel counted as different); 1 a pair differs or a file is
        on one side only; 2 an input cannot be read (the message names the file) or an output cannot
        be written.
        """,
        options: [
            PixelmatchOptionGroup.threshold.withHelp("Colour threshold, 0-1 (default 0.1; smaller is stricter)."),
            PixelmatchOptionGroup.includeAA.withHelp("Count anti-aliased pixels as different."),
            PixelmatchOptionGroup.alpha.withHelp("Opacity of A in the diff image, 0-1 (default 0.1)."),
            diffColorAlt,
            diffMask,
            output,
            OutputOptions.json.withHelp("Print each pair's mismatch count and sizes as JSON on stdout."),
            JobsOptions.jobs.withHelp("Compare on N threads (default: all cores)."),
            OutputOptions.quiet.withHelp("No summary line on stderr."),
        ],
        run: run)

    static let diffColorAlt = Option(name: "diff-color-alt", value: "R,G,B",
                                     help: "Colour of differences where B is darker (R,G,B or #RRGGBB; default: the diff colour).")
    static let diffMask = Option.flag("diff-mask", "Draw only the differences, on a transparent background.")
    static let output = Option(name: "out", value: "FILE|DIR", help: "Write the diff image (a folder for two folders).").aliased("output")

    static func run(_ args: Arguments) throws -> ExitStatus {
        guard args.positionals.count == 2 else {
            throw UsageError(message: "diff takes two paths, A and B (files or folders), got \(args.positionals.count)")
        }
        var options = PixelmatchOptions()
        if let t = try args.double(PixelmatchOptionGroup.threshold) { options.threshold = t }
        if let a = try args.double(PixelmatchOptionGroup.alpha) { options.alpha = a }
        options.includeAA = args.flag(PixelmatchOptionGroup.includeAA)
        options.diffMask = args.flag(diffMask)
        if let text = args.value(diffColorAlt) {
            guard let color = parseColor(text) else {
                throw UsageError(message: "--diff-color-alt takes R,G,B (0-255 each) or #RRGGBB, got \"\(text)\"")
            }
            options.diffColorAlt = color
        }
        let jobs = try Selection.jobs(args)
        let a = URL(fileURLWithPath: args.positionals[0])
        let b = URL(fileURLWithPath: args.positionals[1])
        let output = args.value(Self.output).map { URL(fileURLWithPath: $0) }

        let start = DispatchTime.now()
        let aIsFolder = try kind(a)
        let bIsFolder = try kind(b)
        guard aIsFolder == bIsFolder else {
            throw InputError(file: (aIsFolder ? b : a).path,
                             message: "is a \(aIsFolder ? "file" : "folder") but \((aIsFolder ? a : b).path) is a "
                             + "\(aIsFolder ? "folder" : "file"); compare two files or two folders")
        }
        let report: ImageDiff.Report
        if aIsFolder {
            report = ImageDiff.compareFolders(a, b, options: options, output: output, jobs: jobs)
        } else {
            // --out DIR (an existing folder) gets DIR/<B's name>.diff.png.
            var target = output
            if let output, isFolder(output) {
                target = output.appendingPathComponent(b.deletingPathExtension().lastPathComponent + ".diff.png")
            }
            let pair = ImageDiff.compareFiles(a, b, name: b.lastPathComponent, options: options,
                                              output: target, writeAlways: true)
            report = ImageDiff.Report(a: a.path, b: b.path, pairs: [pair], onlyInA: [], onlyInB: [])
        }

        if args.flag(OutputOptions.json) {
            try Console.stdout(JSONOutput.data(JSONReport(report)))
        } else {
            var text = ""
            for p in report.pairs {
                if let line = describe(p, twoFiles: !aIsFolder) { text += line + "\n" }
            }
            for path in report.onlyInA { text += "only-in-a  \(path)\n" }
            for path in report.onlyInB { text += "only-in-b  \(path)\n" }
            try Console.stdout(Data(text.utf8))
        }
        for p in report.pairs {
            if let m = p.message { Console.error(m) }
            if let e = p.writeError { Console.error(e) }
        }
        Console.info(String(format: "compared %@: %d differ, %d match%@%@ in %.2f s",
                            counted(report.pairs.count, "pair"), report.differing,
                            report.pairs.count - report.differing - report.unreadable,
                            report.unreadable > 0 ? ", \(report.unreadable) unreadable" : "",
                            aIsFolder ? "; \(report.onlyInA.count) only in A, \(report.onlyInB.count) only in B" : "",
                            seconds(since: start)))
        return report.status
    }

    /// Whether the path is an existing folder.
    static func isFolder(_ url: URL) -> Bool {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) && isFolder.boolValue
    }

    /// Whether the path is a folder; throws when it does not exist.
    static func kind(_ url: URL) throws -> Bool {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else {
            throw InputError(file: url.path, message: "no such file or folder")
        }
        return isFolder.boolValue
    }

    /// `R,G,B` (0-255 each), `#RRGGBB` or `RRGGBB`.
    static func parseColor(_ text: String) -> RGB8? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        if parts.count == 3 {
            let values = parts.compactMap { UInt8($0) }
            return values.count == 3 ? RGB8(values[0], values[1], values[2]) : nil
        }
        let hex = text.hasPrefix("#") ? text : "#" + text
        guard hex.count == 7, let c = RGBA(hex: hex) else { return nil }
        let bytes = [c.r, c.g, c.b].map { UInt8(($0 * 255).rounded()) }
        return RGB8(bytes[0], bytes[1], bytes[2])
    }

    /// One line for a pair that differs or cannot be read. Two files are named by the file that
    /// cannot be read (A, B or both), folders by the relative path.
    static func describe(_ p: ImageDiff.PairResult, twoFiles: Bool = false) -> String? {
        let tag = { (s: String) in s.padding(toLength: 11, withPad: " ", startingAt: 0) }
        switch p.status {
        case .match:
            return nil
        case .unreadable:
            let name = twoFiles
                ? (p.unreadableFiles ?? [p.path]).map(CheckCommand.displayPath).joined(separator: ", ")
                : p.path
            return tag("unreadable") + name + "  " + (p.message ?? "")
        case .differ:
            var line = tag("differ") + p.path + "  " + CheckCommand.numbers(p.difference)
            if let d = p.diffImage { line += "; diff: \(CheckCommand.displayPath(d))" }
            return line
        }
    }

    /// The JSON document: per pair its status, mismatch count and sizes; the one-sided files.
    struct JSONReport: Encodable {
        var a: String
        var b: String
        var summary: Summary
        var pairs: [Pair]
        var onlyInA: [String]
        var onlyInB: [String]

        struct Summary: Encodable {
            var pairs: Int
            var differ: Int
            var match: Int
            var unreadable: Int
            var onlyInA: Int
            var onlyInB: Int
            var exitStatus: Int32
        }

        struct Pair: Encodable {
            var path: String
            var a: String
            var b: String
            var status: String
            var mismatchedPixels: Int?
            var antialiasedPixels: Int?
            var mismatchRatio: Double?
            var maxColorDelta: Double?
            var identical: Bool?
            var sizeA: PixelSize?
            var sizeB: PixelSize?
            var diffImage: String?
            var message: String?
            var unreadableFiles: [String]?
            var writeError: String?
        }

        init(_ r: ImageDiff.Report) {
            a = r.a
            b = r.b
            pairs = r.pairs.map { p in
                Pair(path: p.path, a: p.a, b: p.b, status: p.status.rawValue,
                     mismatchedPixels: p.difference?.mismatchedPixels, antialiasedPixels: p.difference?.antialiasedPixels,
                     mismatchRatio: p.difference?.mismatchRatio, maxColorDelta: p.difference?.maxColorDelta,
                     identical: p.difference?.identical,
                     sizeA: p.difference?.expectedSize, sizeB: p.difference?.actualSize,
                     diffImage: p.diffImage, message: p.message, unreadableFiles: p.unreadableFiles,
                     writeError: p.writeError)
            }
            onlyInA = r.onlyInA
            onlyInB = r.onlyInB
            summary = Summary(pairs: r.pairs.count, differ: r.differing,
                              match: r.pairs.count - r.differing - r.unreadable, unreadable: r.unreadable,
                              onlyInA: r.onlyInA.count, onlyInB: r.onlyInB.count, exitStatus: r.exitStatus)
        }
    }
}
