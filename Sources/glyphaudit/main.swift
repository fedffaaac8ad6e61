import Foundation
import GlyphCore

/// Every command, in the order `--help` lists them. `completions` generates its scripts from this
/// table and the commands' option tables, so the scripts know what the parser knows.
enum Commands {
    static let all: [Command] = [
        RunCommand.command,
        RenderCommand.command,
        PresetsCommand.command,
        AuditCommand.command,
        CheckCommand.command,
        DiffCommand.command,
        RulesCommand.command,
        MergeReportsCommand.command,
        AcceptCommand.command,
        ExportCommand.command,
        CompletionsCommand.command,
        ManCommand.command,
    ]
}

func mainHelp() -> String {
    var s = """
    OVERVIEW: glyphaudit renders the marks of checkboxes and switches with cairo, librsvg and pango,
    audits them for accessibility, and keeps PNG baselines.

    USAGE: glyphaudit <command> [options]

    COMMANDS:

    """
    for c in Commands.all { s += "  \(c.name.padding(toLength: 15, withPad: " ", startingAt: 0)) \(c.summary)\n" }
    s += "\n" + HelpTopics.list
    s += """

    Run `glyphaudit <command> --help` (or `glyphaudit help <command>`) for a command's options and examples.
    An option's value follows it as the next word or after `=` (--fail-on never, --fail-on=never).
    `glyphaudit completions bash|zsh|fish` prints a completion script; `glyphaudit man` the manual page.
    Exit status: 0 clean; 1 findings or snapshot mismatches; 2 bad input or a runtime failure (also a failed
    write to stdout); 64 usage error (an unknown option, option value, preset or rule name, an empty value).
    Limits on inputs: `glyphaudit help limits`. Every output folder is --out and every format list --format;
    the older spellings (--report, --output, --formats) are still taken. NO_COLOR (non-empty) or TERM=dumb:
    no colour or other escape codes.

    """
    return s
}

func main() -> Int32 {
    // A closed stdin, stdout or stderr (`>&-`) is opened on /dev/null for reading, so that no file
    // the tool opens takes its number (and receives the output): a write to it then fails (EBADF),
    // which is reported as a failed write, exit 2.
    for fd in 0...2 where fcntl(Int32(fd), F_GETFD) == -1 && errno == EBADF {
        _ = open("/dev/null", O_RDONLY | O_CLOEXEC)
    }
    var argv = Array(CommandLine.arguments.dropFirst())
    guard let first = argv.first else {
        Console.stderr(mainHelp())
        return ExitStatus.usage.rawValue
    }
    if first == "--help" || first == "-h" || first == "help" {
        if first == "help", argv.count > 1 { return HelpTopics.show(argv[1]).rawValue }
        print(mainHelp(), terminator: "")
        return ExitStatus.clean.rawValue
    }
    if first == "--version" {
        print("glyphaudit \(version)")
        return ExitStatus.clean.rawValue
    }
    guard let command = Commands.all.first(where: { $0.name == first }) else {
        Console.error("unknown command \"\(first)\"; run `glyphaudit --help` for the list")
        return ExitStatus.usage.rawValue
    }
    argv.removeFirst()
    if argv.contains("--help") || argv.contains("-h") {
        print(command.help, terminator: "")
        return ExitStatus.clean.rawValue
    }
    do {
        let args = try Arguments(argv, options: command.options)
        Console.quiet = args.declares(OutputOptions.quiet) && args.flag(OutputOptions.quiet)
        // Every file a command writes is flushed to disk in one go at its end, and none is left
        // behind when a write fails (a full disk, a read-only folder): the command runs as one
        // transaction (AtomicFile.transaction), and the failure is told in one message.
        let (status, failure) = try AtomicFile.batch { try AtomicFile.transaction { try command.run(args) } }
        if let failure {
            Console.writeFailure(failure)
            return ExitStatus.badInput.rawValue
        }
        return status.rawValue
    } catch where AtomicFile.lastTransactionFailure != nil {
        Console.writeFailure(AtomicFile.lastTransactionFailure!)
        return ExitStatus.badInput.rawValue
    } catch let e as UsageError {
        Console.error("\(e.message)\nRun `glyphaudit \(command.name) --help` for usage.")
        return ExitStatus.usage.rawValue
    } catch let e as InputError {
        Console.error(e.description)
        return ExitStatus.badInput.rawValue
    } catch {
        Console.error("\(error)")
        return ExitStatus.badInput.rawValue
    }
}

exit(main())
