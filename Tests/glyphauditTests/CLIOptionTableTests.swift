import Foundation
import Testing
@testable import glyphaudit

/// The option tables: each command's declared options are what --help and the completion scripts
/// show, and reading an option a command does not declare stops the tool.
@Suite("option tables")
struct CLIOptionTableTests {
    @Test("every declared option of every command is in its --help and the bash, zsh and fish completions, and is parsed")
    func declaredEverywhere() throws {
        let bash = CompletionsCommand.bash(), zsh = CompletionsCommand.zsh(), fish = CompletionsCommand.fish()
        #expect(Commands.all.count == 12)
        var total = 0
        for command in Commands.all {
            let names = command.options.map(\.name)
            #expect(Set(names).count == names.count, "\(command.name) declares an option twice")
            let fishSection = fish.components(separatedBy: "\n# \(command.name)\n")[1].components(separatedBy: "\n# ")[0]
            let zshSection = zsh.components(separatedBy: "\n    \(command.name))\n")[1].components(separatedBy: "&& return")[0]
            let bashSection = bash.components(separatedBy: "\n    \(command.name))\n")[1].components(separatedBy: "\n        ;;\n")[0]
            for option in Option.spellings(command.options) + [Command.helpOption] {
                total += 1
                #expect(!option.help.isEmpty, "\(command.name) --\(option.name) has no help")
                #expect(command.help.contains("  \(option.synopsis)") && command.help.contains(option.help),
                        "\(command.name) --help lacks \(option.synopsis)")
                #expect(fishSection.contains("-l \(option.name) "), "fish: \(command.name) --\(option.name)")
                #expect(zshSection.contains("--\(option.name)"), "zsh: \(command.name) --\(option.name)")
                #expect(bashSection.contains("--\(option.name)"), "bash: \(command.name) --\(option.name)")
                if option.name == Command.helpOption.name { continue }  // main answers --help before parsing
                let parsed = try Arguments(option.value == nil ? ["--\(option.name)"] : ["--\(option.name)=\(option.choices.first ?? "1")"],
                                           options: command.options)
                #expect(parsed.declares(option) || command.options.contains { $0.aliases.contains(option.name) })
            }
        }
        // 94 options and --help, accept's 6 options and --help, --stage on check and run, 1 for `man`,
        // the 5 old spellings (--report ×2, --formats ×2, --output), --root on run and merge-reports,
        // --incremental and --margin-tolerance on check and run.
        #expect(total == 115)
    }

    @Test("one range per option: --max-diff-pixels takes 0 to Int.max in check and run")
    func ranges() throws {
        for name in ["check", "run"] {
            let command = try #require(Commands.all.first { $0.name == name })
            let args = try Arguments(["--max-diff-pixels", "\(Int.max)"], options: command.options)
            #expect(try args.int(SnapshotOptionGroup.maxDiffPixels) == Int.max)
            let negative = try Arguments(["--max-diff-pixels=-1"], options: command.options)
            #expect(throws: UsageError.self) { try negative.int(SnapshotOptionGroup.maxDiffPixels) }
        }
    }

    @Test("an option two commands take is one option: the same value, choices and range in each")
    func sameEverywhere() {
        var first: [String: (command: String, option: Option)] = [:]
        var shared = 0
        for command in Commands.all {
            for o in command.options {
                guard let (other, p) = first[o.name] else { first[o.name] = (command.name, o); continue }
                shared += 1
                // One name per idea: --out is every command's output (a folder; diff's may be a file) and
                // --format every command's list of formats (each command its own), with the old spellings as aliases.
                if o.name == "out" {
                    #expect(o.value?.hasSuffix("DIR") == true && p.value?.hasSuffix("DIR") == true, "--out in \(other) and \(command.name)")
                    continue
                }
                if o.name == "format" {
                    #expect(o.value == "LIST" && p.value == "LIST", "--format in \(other) and \(command.name)")
                    continue
                }
                let same = o.value == p.value && o.choices == p.choices && o.list == p.list && o.repeatable == p.repeatable
                    && o.optionalValue == p.optionalValue && o.intRange == p.intRange && o.numberRange == p.numberRange
                    && o.aliases == p.aliases
                #expect(same, "--\(o.name) differs between \(other) and \(command.name)")
            }
        }
        // --preset, --spec, --only, --jobs, --quiet … are shared by several commands.
        #expect(shared > 20)
    }

    @Test("an option is read only through its declaration, and only by a command that declares it")
    func undeclared() async throws {
        let rules = try #require(Commands.all.first { $0.name == "rules" })
        let args = try Arguments([], options: rules.options)
        #expect(args.declares(AuditOptions.config) && !args.declares(AuditOptions.baseline) && !args.declares(OutputOptions.quiet))
        // `rules` has no --quiet: reading it stops the tool instead of answering "not given".
        await #expect(processExitsWith: .failure) {
            let rules = Commands.all.first { $0.name == "rules" }!
            _ = try Arguments([], options: rules.options).flag(OutputOptions.quiet)
        }
    }
}
