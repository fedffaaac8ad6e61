import Foundation

/// One option a command accepts.
struct Option: Sendable {
    let name: String
    /// The value's placeholder (`N`, `DIR`…); nil for a flag.
    let value: String?
    let help: String
    var repeatable = false

    static func flag(_ name: String, _ help: String) -> Option { Option(name: name, value: nil, help: help) }
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
            if option.value == nil {
                if inline != nil { throw UsageError(message: "--\(name) takes no value") }
                flags.insert(name)
                continue
            }
            let value: String
            if let inline {
                value = inline
            } else {
                guard i < argv.count else { throw UsageError(message: "--\(name) needs a value (\(option.value!))") }
                value = argv[i]
                i += 1
            }
            if !option.repeatable, values[name] != nil { throw UsageError(message: "--\(name) given twice") }
            values[name, default: []].append(value)
        }
    }

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
    let run: @Sendable (Arguments) throws -> Int32

    var help: String {
        var s = "OVERVIEW: \(summary)\n\nUSAGE: \(usage)\n"
        if !discussion.isEmpty { s += "\n\(discussion)\n" }
        let all = options + [Option.flag("help", "Show this help.")]
        s += "\nOPTIONS:\n"
        let width = all.map { "--\($0.name)\($0.value.map { " \($0)" } ?? "")".count }.max() ?? 0
        for o in all {
            let left = "--\(o.name)\(o.value.map { " \($0)" } ?? "")"
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
