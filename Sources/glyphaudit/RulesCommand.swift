import Foundation
import GlyphAudit
import GlyphCore

enum RulesCommand {
    static let command = Command(
        name: "rules",
        summary: "List the audit rules, or explain one.",
        usage: "glyphaudit rules [explain ID] [--config FILE] [--verbose]",
        discussion: """
        `rules` lists every rule with its severity and the WCAG criterion it serves. `rules explain ID` says
        what the rule checks, its threshold (with the configuration's values), the criterion, and how to fix
        a failure. The configuration is read as `audit` reads it: --config FILE, else the nearest
        .glyphaudit.json from the working folder up to the repository root.
        """,
        options: [
            AuditOptions.config,
            OutputOptions.verbose.withHelp("Say on stderr which configuration file is read."),
        ],
        run: run)

    static func run(_ args: Arguments) throws -> ExitStatus {
        let config = try AuditCommand.config(args)
        let auditor = Auditor(config: config)
        let p = args.positionals
        func severity(_ rule: any AuditRule) -> String {
            config.rules[rule.id]?.severity?.rawValue ?? rule.defaultSeverity.rawValue
        }
        if p.isEmpty {
            for rule in Auditor.configurable {
                let criterion = rule.criterion.map { "WCAG \($0)" } ?? "platform"
                try Console.out("\(rule.id.padding(toLength: 22, withPad: " ", startingAt: 0)) "
                            + "\(severity(rule).padding(toLength: 8, withPad: " ", startingAt: 0)) "
                            + "\(criterion.padding(toLength: 11, withPad: " ", startingAt: 0)) \(rule.title)")
            }
            return .clean
        }
        guard p.count == 2, p[0] == "explain" else {
            throw UsageError(message: "expected `rules` or `rules explain ID`")
        }
        guard let rule = Auditor.rule(p[1]) else {
            throw UsageError(message: "rules explain: unknown rule \"\(p[1])\"; rules: "
                             + Auditor.configurable.map(\.id).joined(separator: ", "))
        }
        let options = auditor.options(for: rule)
        var s = "\(rule.id): \(rule.title)\n\n"
        s += "Serves:    \(rule.reference)\n"
        s += "Severity:  \(severity(rule))\n"
        s += "Threshold: \(rule.threshold(options))\n\n"
        s += "What it checks\n\(wrap(rule.checks))\n\n"
        s += "How to fix a failure\n\(wrap(rule.fix))\n"
        if !rule.parameters.isEmpty {
            s += "\nSettings (.glyphaudit.json: \"rules\": {\"\(rule.id)\": {…}})\n"
            for param in rule.parameters {
                s += "  \(param.name) = \(format(options[param.name])) (default \(format(param.defaultValue)))\n"
                s += wrap(param.help, indent: "      ") + "\n"
            }
            s += "  severity = \(severity(rule)) (error, warning, info or off)\n"
        }
        try Console.out(s)
        return .clean
    }

    static func format(_ v: Double) -> String {
        v == v.rounded() ? String(Int(v)) : String(v)
    }

    /// Wraps a paragraph at 100 columns.
    static func wrap(_ text: String, indent: String = "  ") -> String {
        var lines: [String] = []
        var line = indent
        for word in text.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
            if line.count + word.count + 1 > 100, line != indent {
                lines.append(line)
                line = indent
            }
            line += (line == indent ? "" : " ") + word
        }
        if line != indent { lines.append(line) }
        return lines.joined(separator: "\n")
    }
}
