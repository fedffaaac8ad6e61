import Foundation
import GlyphCore

/// One option a command accepts.
///
/// Three kinds: a flag (`value` nil: `--json`), an option that takes a value (`--report DIR` or
/// `--report=DIR`), and an option whose value may be left out (`optionalValue`: `--vector`,
/// `--vector svg`, `--vector=svg`), which takes the next word only when it is one of its `choices`.
struct Option: Sendable {
    let name: String
    /// The value's placeholder (`N`, `DIR`…); nil for a flag.
    let value: String?
    let help: String
    var repeatable = false
    /// The values the option takes when they are a known set. The parser refuses any other value of
    /// a single-valued option (not of a `list`), and `completions` offers them.
    var choices: [String] = []
    /// The value is a comma-separated list of `choices` (`--formats json,html`); the command checks it.
    var list = false
    /// The value may be left out; see the type's comment.
    var optionalValue = false

    static func flag(_ name: String, _ help: String) -> Option { Option(name: name, value: nil, help: help) }

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

/// Parsed command-line arguments.
struct Arguments {
    private(set) var values: [String: [String]] = [:]
    private(set) var flags: Set<String> = []
    private(set) var positionals: [String] = []

    /// Parses `argv` against `options`. Every option that takes a value takes it as the next word
    /// or after `=` (`--report out`, `--report=out`); a flag given a value (`--json=1`) is refused.
    /// `--` ends the options: every word after it is a positional.
    init(_ argv: [String], options: [Option]) throws(UsageError) {
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
            guard let option = options.first(where: { $0.name == name }) else {
                throw UsageError(message: "unknown option --\(name)")
            }
            guard let placeholder = option.value else {
                if let inline {
                    throw UsageError(message: "--\(name) is a flag and takes no value, got \"--\(name)=\(inline)\"; write --\(name) alone")
                }
                flags.insert(name)
                continue
            }
            let value: String
            if let inline {
                value = inline
            } else if option.optionalValue {
                // The value may be left out: the next word is the value only when it is one of the choices.
                flags.insert(name)
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
            if option.optionalValue { flags.insert(name) }
            if !option.repeatable, values[name] != nil { throw UsageError(message: "--\(name) given twice") }
            values[name, default: []].append(value)
        }
    }

    /// `a, b or c`.
    static func alternatives(_ words: [String]) -> String {
        words.count < 2 ? words.joined() : words.dropLast().joined(separator: ", ") + " or " + words.last!
    }

    /// A flag was given (or an option whose value may be left out, with or without its value).
    func flag(_ name: String) -> Bool { flags.contains(name) }
    func value(_ name: String) -> String? { values[name]?.last }
    /// All values of a repeatable option, comma-separated lists split.
    func list(_ name: String) -> [String] {
        (values[name] ?? []).flatMap { $0.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) } }
    }
    func all(_ name: String) -> [String] { values[name] ?? [] }

    func int(_ name: String, range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let s = value(name) else { return nil }
        guard let v = Int(s), range.contains(v) else {
            throw UsageError(message: "--\(name) takes a whole number from \(range.lowerBound) to \(range.upperBound), got \"\(s)\"")
        }
        return v
    }

    func double(_ name: String, range: ClosedRange<Double>) throws(UsageError) -> Double? {
        guard let s = value(name) else { return nil }
        guard let v = Double(s), range.contains(v) else {
            throw UsageError(message: "--\(name) takes a number from \(range.lowerBound) to \(range.upperBound), got \"\(s)\"")
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

    var help: String {
        var s = "OVERVIEW: \(summary)\n\nUSAGE: \(usage)\n"
        if !discussion.isEmpty { s += "\n\(discussion)\n" }
        let all = options + [Option.flag("help", "Show this help.")]
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
    static var noColor: Bool {
        !(ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
    }
}
