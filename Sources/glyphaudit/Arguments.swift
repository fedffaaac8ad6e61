import Foundation
import GlyphCore

/// The tool's version (`--version`, completions, the reports' `tool`). Declared outside main.swift,
/// whose globals only exist once the tool runs, so that tests can read what uses it.
let version = "0.1.0"

/// One option a command accepts.
///
/// Three kinds: a flag (`value` nil: `--json`), an option that takes a value (`--report DIR` or
/// `--report=DIR`), and an option whose value may be left out (`optionalValue`: `--vector`,
/// `--vector svg`, `--vector=svg`), which takes the next word only when it is one of its `choices`.
struct Option: Sendable {
    let name: String
    /// The value's placeholder (`N`, `DIR`…); nil for a flag.
    let value: String?
    private(set) var help: String
    var repeatable = false
    /// The values the option takes when they are a known set. The parser refuses any other value of
    /// a single-valued option (not of a `list`), and `completions` offers them.
    var choices: [String] = []
    /// The value is a comma-separated list of `choices` (`--formats json,html`); the command checks it.
    var list = false
    /// The value may be left out; see the type's comment.
    var optionalValue = false
    /// The whole numbers a value may be (`Arguments.int`), the one range of the option.
    var intRange: ClosedRange<Int>?
    /// The numbers a value may be (`Arguments.double`).
    var numberRange: ClosedRange<Double>?
    /// Other spellings the parser takes for the same option: the names it had before one name per idea
    /// (`--report` and `--output` for `--out`, `--formats` for `--format`). --help, the man page and the
    /// completions name them; a value given under an alias is read under `name`.
    var aliases: [String] = []

    /// The same option, worded for one command's --help.
    func withHelp(_ text: String) -> Option {
        var o = self
        o.help = text
        return o
    }

    static func flag(_ name: String, _ help: String) -> Option { Option(name: name, value: nil, help: help) }

    /// The same option, also taken under `names` (its old spellings).
    func aliased(_ names: String...) -> Option {
        var o = self
        o.aliases += names
        return o
    }

    /// Whether `--word` names this option, under its name or an alias.
    func answers(to word: String) -> Bool { word == name || aliases.contains(word) }

    /// The options, each followed by one entry per alias (its old spelling) that takes the same values:
    /// how --help, the man page and the completions list them.
    static func spellings(_ options: [Option]) -> [Option] {
        options.flatMap { o in
            [o] + o.aliases.map { alias in
                Option(name: alias, value: o.value, help: "Same as --\(o.name) (its old spelling).", repeatable: o.repeatable,
                       choices: o.choices, list: o.list, optionalValue: o.optionalValue, intRange: o.intRange, numberRange: o.numberRange)
            }
        }
    }

    /// How --help and the usage line show it: `--report DIR`, `--vector [pdf|svg]`, `--json`.
    var synopsis: String {
        guard let value else { return "--\(name)" }
        return optionalValue ? "--\(name) [\(value)]" : "--\(name) \(value)"
    }
}

/// A usage error: the tool prints it with a pointer to --help and exits 64.
struct UsageError: Error {
    let message: String
}

/// Parsed command-line arguments, read through the options' declarations.
struct Arguments {
    private(set) var values: [String: [String]] = [:]
    private(set) var flags: Set<String> = []
    private(set) var positionals: [String] = []
    /// How each option given was spelt, when under an alias (`--report` for `--out`), for messages.
    private(set) var spelt: [String: String] = [:]
    /// The names of the options the command declares (`--help` too).
    let declared: Set<String>

    /// Parses `argv` against `options`. Every option that takes a value takes it as the next word
    /// or after `=` (`--report out`, `--report=out`); a flag given a value (`--json=1`) is refused.
    /// `--` ends the options: every word after it is a positional.
    init(_ argv: [String], options: [Option]) throws(UsageError) {
        declared = Set(options.map(\.name) + [Command.helpOption.name])
        var i = 0
        var onlyPositionals = false
        while i < argv.count {
            let arg = argv[i]
            i += 1
            if onlyPositionals || !arg.hasPrefix("--") || arg == "-" {
                if !onlyPositionals, arg.hasPrefix("-"), arg != "-", arg.count > 1 {
                    throw UsageError(message: "unknown option \(arg)")
                }
                positionals.append(arg)
                continue
            }
            if arg == "--" { onlyPositionals = true; continue }
            var name = String(arg.dropFirst(2))
            var inline: String?
            if let eq = name.firstIndex(of: "=") {
                inline = String(name[name.index(after: eq)...])
                name = String(name[..<eq])
            }
            guard let option = options.first(where: { $0.answers(to: name) }) else {
                throw UsageError(message: "unknown option --\(name)")
            }
            // An alias is read under the option's name; messages say what was typed.
            let canonical = option.name
            let earlier = spelt[canonical] ?? canonical
            spelt[canonical] = name == canonical ? nil : name
            guard let placeholder = option.value else {
                if let inline {
                    throw UsageError(message: "--\(name) is a flag and takes no value, got \"--\(name)=\(inline)\"; write --\(name) alone")
                }
                flags.insert(canonical)
                continue
            }
            let value: String
            if let inline {
                value = inline
            } else if option.optionalValue {
                // The value may be left out: the next word is the value only when it is one of the choices.
                flags.insert(canonical)
                guard i < argv.count, option.choices.contains(argv[i]) else { continue }
                value = argv[i]
                i += 1
            } else {
                guard i < argv.count else { throw UsageError(message: "--\(name) needs a value (\(placeholder))") }
                value = argv[i]
                i += 1
            }
            if !option.list, !option.choices.isEmpty, !option.choices.contains(value) {
                throw UsageError(message: "--\(name) takes \(Arguments.alternatives(option.choices)), got \"\(value)\"")
            }
            // An empty value is a typo (an unset shell variable), never a choice: `--out ''` would
            // write into the working folder, `--preset ''` take every preset.
            if value.isEmpty && !option.list {
                throw UsageError(message: "--\(name) needs a value (\(placeholder)), got an empty one")
            }
            if option.list, value.split(separator: ",").allSatisfy({ $0.trimmingCharacters(in: .whitespaces).isEmpty }) {
                throw UsageError(message: "--\(name) needs one or more of \(option.choices.joined(separator: ", "))")
            }
            if option.optionalValue { flags.insert(canonical) }
            if !option.repeatable, values[canonical] != nil {
                throw UsageError(message: "--\(name) given twice" + (earlier == name ? "" : " (--\(earlier) is the same option)"))
            }
            values[canonical, default: []].append(value)
        }
    }

    /// `a, b or c`.
    static func alternatives(_ words: [String]) -> String {
        words.count < 2 ? words.joined() : words.dropLast().joined(separator: ", ") + " or " + words.last!
    }

    /// How the option was given: `--report` when typed under that alias, else `--<name>`.
    func spelling(_ option: Option) -> String { "--" + (spelt[option.name] ?? option.name) }

    /// Whether the command declares `option` (for code shared by commands of which only some take it).
    func declares(_ option: Option) -> Bool { declared.contains(option.name) }

    /// The option's name, when the command declares it; reading one it does not is a mistake in
    /// the tool (it would never be given), which stops it.
    private func checked(_ option: Option) -> String {
        precondition(declared.contains(option.name), "--\(option.name) is read but not declared by the command")
        return option.name
    }

    /// A flag was given (or an option whose value may be left out, with or without its value).
    func flag(_ option: Option) -> Bool { flags.contains(checked(option)) }
    func value(_ option: Option) -> String? { values[checked(option)]?.last }
    /// All values of a repeatable option, comma-separated lists split.
    func list(_ option: Option) -> [String] {
        (values[checked(option)] ?? []).flatMap { $0.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) } }
    }
    func all(_ option: Option) -> [String] { values[checked(option)] ?? [] }

    /// The value of a whole-number option, in its range.
    func int(_ option: Option) throws(UsageError) -> Int? {
        guard let s = value(option) else { return nil }
        let range = option.intRange!
        // Digits only (a minus sign first for a negative range): Int() would also take "+1".
        let digits = s.hasPrefix("-") && range.lowerBound < 0 ? s.dropFirst() : Substring(s)
        guard !digits.isEmpty, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let v = Int(s), range.contains(v) else {
            throw UsageError(message: "--\(option.name) takes a whole number from \(range.lowerBound) to \(range.upperBound), got \"\(s)\"")
        }
        return v
    }

    /// The value of a number option, in its range.
    func double(_ option: Option) throws(UsageError) -> Double? {
        guard let s = value(option) else { return nil }
        let range = option.numberRange!
        guard let v = Double(s), range.contains(v) else {
            throw UsageError(message: "--\(option.name) takes a number from \(range.lowerBound) to \(range.upperBound), got \"\(s)\"")
        }
        return v
    }
}

/// A subcommand: its options, help text and what it does.
struct Command: Sendable {
    let name: String
    let summary: String
    let usage: String
    let discussion: String
    let options: [Option]
    let run: @Sendable (Arguments) throws -> ExitStatus

    /// `--help`, which every command takes.
    static let helpOption = Option.flag("help", "Show this help.")

    var help: String {
        var s = "OVERVIEW: \(summary)\n\nUSAGE: \(usage)\n"
        if !discussion.isEmpty { s += "\n\(discussion)\n" }
        s += Examples.block(for: name)
        let all = Option.spellings(options) + [Command.helpOption]
        s += "\nOPTIONS:\n"
        let width = all.map(\.synopsis.count).max() ?? 0
        for o in all {
            let left = o.synopsis
            s += "  \(left.padding(toLength: width, withPad: " ", startingAt: 0))  \(o.help)\(o.repeatable ? " (repeatable)" : "")\n"
        }
        return s
    }
}

/// What the environment says about the terminal.
enum Terminal {
    /// `NO_COLOR` set to a non-empty value turns colour off (no-color.org); set but empty, it does not.
    /// `TERM=dumb` turns it off too. Without colour the tool writes no escape code at all (the progress
    /// line is cleared with spaces), so `noColor` also means "no escape codes".
    static var noColor: Bool {
        let env = ProcessInfo.processInfo.environment
        return !(env["NO_COLOR"] ?? "").isEmpty || env["TERM"] == "dumb"
    }
}
