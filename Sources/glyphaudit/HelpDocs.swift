import Foundation
import GlyphCore

/// The short EXAMPLES block of each command's --help (and of the man page). Each example is a real
/// invocation: a test parses every one against its command's option table.
enum Examples {
    struct Example: Sendable {
        let what: String
        let command: String
    }

    static let byCommand: [String: [Example]] = [
        "run": [
            Example(what: "Render, audit, check the snapshots and write every report, on the built-in presets",
                    command: "glyphaudit run --out glyphaudit-out"),
            Example(what: "One spec, only the JSON and SARIF reports, failing on warnings too",
                    command: "glyphaudit run --spec checkbox.json --format json,sarif --fail-on warning"),
            Example(what: "Record the baselines that are missing", command: "glyphaudit run --spec checkbox.json --record"),
            Example(what: "The first of two shards of a CI matrix (merge them with merge-reports)",
                    command: "glyphaudit run --shard 1/2 --fail-on never --out out-1"),
        ],
        "render": [
            Example(what: "Render a built-in preset to PNG", command: "glyphaudit render --preset swiftui-checkbox --out renders"),
            Example(what: "PNG, SVG and PDF of a spec, with contact sheets",
                    command: "glyphaudit render --spec checkbox.json --format png,svg,pdf --contact-sheet sheets"),
            Example(what: "Only the dark theme at 3x", command: "glyphaudit render --spec checkbox.json --only theme=dark --only scale=3"),
        ],
        "presets": [
            Example(what: "List the built-in presets", command: "glyphaudit presets"),
            Example(what: "Copy a preset's spec (and the files it reads) to start your own",
                    command: "glyphaudit presets show rvs-checkbox --out my-checkbox"),
        ],
        "audit": [
            Example(what: "Audit a built-in preset", command: "glyphaudit audit --preset design-system-checkbox"),
            Example(what: "The findings as JSON, whatever they are", command: "glyphaudit audit --spec checkbox.json --json --fail-on never"),
            Example(what: "Accept today's findings, so only new ones fail",
                    command: "glyphaudit audit --spec checkbox.json --write-baseline accepted.json"),
        ],
        "check": [
            Example(what: "Write the baselines that are missing", command: "glyphaudit check --spec checkbox.json --record"),
            Example(what: "Compare, pictures of mismatches into a folder", command: "glyphaudit check --spec checkbox.json --out mismatches"),
            Example(what: "Accept the changed renders of one theme", command: "glyphaudit check --spec checkbox.json --update --only theme=dark"),
        ],
        "accept": [
            Example(what: "Accept every render a CI run staged (its report folder, downloaded)", command: "glyphaudit accept glyphaudit-out"),
            Example(what: "Only the dark theme's, into another snapshot folder",
                    command: "glyphaudit accept glyphaudit-out --only theme=dark --snapshots Tests/snapshots"),
            Example(what: "Two cause groups (the command index.html writes for the groups you tick)",
                    command: "glyphaudit accept glyphaudit-out --group g709bff92c8 --group g8fc191f121"),
        ],
        "diff": [
            Example(what: "Two PNG files, the diff image written", command: "glyphaudit diff expected.png actual.png --out diff.png"),
            Example(what: "Two folders, stricter than the default", command: "glyphaudit diff snapshots new-snapshots --out diffs --threshold 0.05"),
        ],
        "rules": [
            Example(what: "Every rule, its severity and WCAG criterion", command: "glyphaudit rules"),
            Example(what: "What one rule checks", command: "glyphaudit rules explain target-size"),
        ],
        "merge-reports": [
            Example(what: "Merge two shards' reports and decide the run", command: "glyphaudit merge-reports out-1 out-2 --out glyphaudit-out"),
        ],
        "export": [
            Example(what: "An asset catalog of PNGs", command: "glyphaudit export --preset swiftui-checkbox --xcassets Glyphs.xcassets"),
            Example(what: "One SVG per appearance instead", command: "glyphaudit export --spec checkbox.json --xcassets Glyphs.xcassets --vector svg"),
        ],
        "completions": [
            Example(what: "Install the bash completion",
                    command: "glyphaudit completions bash > ~/.local/share/bash-completion/completions/glyphaudit"),
        ],
        "man": [
            Example(what: "Read the manual page", command: "glyphaudit man > glyphaudit.1 && man ./glyphaudit.1"),
        ],
    ]

    /// The EXAMPLES block of `command`'s --help; empty when it has none.
    static func block(for command: String) -> String {
        guard let examples = byCommand[command], !examples.isEmpty else { return "" }
        var s = "\nEXAMPLES:\n"
        for e in examples { s += "  \(e.what):\n    \(e.command)\n" }
        return s
    }
}

/// `glyphaudit help [COMMAND|TOPIC]`: a command's --help, or one of the documents compiled into the
/// tool (EmbeddedDocs, from docs/*.md by scripts/embed-docs).
enum HelpTopics {
    /// The TOPICS block of the main help.
    static var list: String {
        let width = EmbeddedDocs.topics.map(\.name.count).max() ?? 0
        var s = "TOPICS (glyphaudit help TOPIC prints the document; it ships inside the tool):\n"
        for t in EmbeddedDocs.topics { s += "  \(t.name.padding(toLength: max(width, 15), withPad: " ", startingAt: 0)) \(t.summary)\n" }
        return s
    }

    /// Prints the help of `name`, a command or a topic; an unknown name is a usage error (64), with
    /// the nearest name and the list.
    static func show(_ name: String) -> ExitStatus {
        let text: String
        if let c = Commands.all.first(where: { $0.name == name }) {
            text = c.help
        } else if let t = EmbeddedDocs.topics.first(where: { $0.name == name }) {
            text = t.text
        } else {
            let names = Commands.all.map(\.name) + EmbeddedDocs.topics.map(\.name)
            let guess = Suggest.nearest(name, in: names).map { "; did you mean \"\($0)\"?" } ?? ""
            Console.error("no help topic or command \"\(name)\"\(guess)\n" + list
                          + "Commands: \(Commands.all.map(\.name).joined(separator: ", ")).")
            return .usage
        }
        do {
            try Console.stdout(Data(text.utf8))
        } catch {
            Console.error("\(error)")
            return .badInput
        }
        return .clean
    }
}

/// `glyphaudit man`: the manual page, in roff, made from the same tables as --help (commands, options
/// and their aliases, examples) so it lists exactly what the parser takes.
enum ManCommand {
    static let command = Command(
        name: "man",
        summary: "Print the manual page (roff), made from the tool's own option tables.",
        usage: "glyphaudit man",
        discussion: """
        Prints glyphaudit(1) in roff: every command with its options (the old spellings too), examples, the
        help topics, the environment and the exit status. It is made from the tables --help and the parser
        read, so it matches this version. Install it, for example:
          glyphaudit man > ~/.local/share/man/man1/glyphaudit.1
        """,
        options: [],
        run: run)

    static func run(_ args: Arguments) throws -> ExitStatus {
        guard args.positionals.isEmpty else { throw UsageError(message: "man takes no operand, got \"\(args.positionals[0])\"") }
        try Console.stdout(Data(page().utf8))
        return .clean
    }

    /// Text for a roff line: backslashes as `\e`, `-` as `\-`, other than ASCII as `\[uXXXX]`, a leading
    /// `.` or `'` guarded.
    static func roff(_ text: String) -> String {
        var s = ""
        for u in text.unicodeScalars {
            switch u {
            case "\\": s += "\\e"
            case "-": s += "\\-"
            case _ where u.isASCII: s.unicodeScalars.append(u)
            default: s += String(format: "\\[u%04X]", u.value)
            }
        }
        if s.hasPrefix(".") || s.hasPrefix("'") { s = "\\&" + s }
        return s
    }

    static func page() -> String {
        var s = """
        .\\" Generated by `glyphaudit man` (glyphaudit \(version)) from the tool's option tables.
        .TH GLYPHAUDIT 1 "" "glyphaudit \(version)" "User Commands"
        .SH NAME
        glyphaudit \\- render checkbox, radio and switch glyphs, audit them for accessibility, keep PNG baselines
        .SH SYNOPSIS
        .B glyphaudit
        .I command
        [\\fIoptions\\fR]
        .br
        .B glyphaudit help
        [\\fIcommand\\fR|\\fItopic\\fR]
        .SH DESCRIPTION
        glyphaudit renders the marks of checkboxes and switches with cairo, librsvg and pango, audits them for
        accessibility, and keeps PNG baselines. An option's value follows it as the next word or after
        \\fB=\\fR (\\fB\\-\\-fail\\-on never\\fR, \\fB\\-\\-fail\\-on=never\\fR).
        One name per idea: every output folder is \\fB\\-\\-out\\fR, every format list \\fB\\-\\-format\\fR; the older
        spellings (\\fB\\-\\-report\\fR, \\fB\\-\\-output\\fR, \\fB\\-\\-formats\\fR) are still taken.
        .SH COMMANDS

        """
        for c in Commands.all {
            s += ".SS \(roff(c.name))\n\(roff(c.summary))\n.PP\n\(roff(c.usage))\n"
            if !c.discussion.isEmpty {
                s += ".PP\n.nf\n" + c.discussion.split(separator: "\n", omittingEmptySubsequences: false).map { roff(String($0)) }
                    .joined(separator: "\n") + "\n.fi\n"
            }
            for o in Option.spellings(c.options) + [Command.helpOption] {
                let value = o.value.map { o.optionalValue ? " [\\fI\(roff($0))\\fR]" : " \\fI\(roff($0))\\fR" } ?? ""
                s += ".TP\n\\fB\\-\\-\(roff(o.name))\\fR\(value)\n\(roff(o.help))\(o.repeatable ? " (repeatable)" : "")\n"
            }
            if let examples = Examples.byCommand[c.name], !examples.isEmpty {
                s += ".PP\nExamples:\n"
                for e in examples { s += ".PP\n\(roff(e.what)):\n.RS\n.nf\n\(roff(e.command))\n.fi\n.RE\n" }
            }
        }
        s += ".SH HELP TOPICS\nThese documents ship inside the tool: \\fBglyphaudit help\\fR \\fItopic\\fR prints one.\n"
        for t in EmbeddedDocs.topics { s += ".TP\n\\fB\(roff(t.name))\\fR\n\(roff(t.summary)) (\(roff(t.file)))\n" }
        s += """
        .SH ENVIRONMENT
        .TP
        .B NO_COLOR
        Set to any non\\-empty value: no colour and no escape codes (no\\-color.org).
        .TP
        .B TERM
        \\fBdumb\\fR: no colour and no escape codes.
        .TP
        .B CI
        Set to anything but "", "false" or "0": a missing baseline fails (as \\fB\\-\\-ci\\fR), and no progress line.
        .TP
        .B GITHUB_ACTIONS
        \\fBtrue\\fR: \\fBrun\\fR also prints workflow annotations.
        .SH EXIT STATUS
        0 clean; 1 findings or snapshot mismatches; 2 bad input or a runtime failure; 64 usage error.
        .SH SEE ALSO
        \\fBglyphaudit help\\fR \\fItopic\\fR; \\fBglyphaudit completions\\fR bash|zsh|fish.

        """
        return s
    }
}
