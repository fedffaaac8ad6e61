import Foundation
import GlyphAudit
import GlyphReport
import GlyphTestSupport
import Testing
@testable import glyphaudit

/// issue 23 item 7: one name per idea (with the old spellings as aliases), NO_COLOR and TERM=dumb,
/// progress on a terminal only, examples in --help, `help TOPIC`, the man page.
@Suite("conventions")
struct CLIConventionsTests {
    /// The message of the usage error `body` throws; nil when it throws none.
    func usageMessage(_ body: () throws -> Void) -> String? {
        do { try body() } catch let e as UsageError { return e.message } catch { return "\(error)" }
        return nil
    }

    static func command(_ name: String) throws -> Command {
        try #require(Commands.all.first { $0.name == name })
    }

    // MARK: one name per idea

    @Test("every output folder is --out and every format list --format; the old spellings are aliases of them")
    func oneNamePerIdea() throws {
        // (command, new name, old name): the names of issue 23 item 7.
        let renamed = [("run", "out", "report"), ("run", "format", "formats"), ("merge-reports", "out", "report"),
                       ("merge-reports", "format", "formats"), ("diff", "out", "output")]
        for (name, new, old) in renamed {
            let c = try Self.command(name)
            let option = try #require(c.options.first { $0.name == new }, "\(name) --\(new)")
            #expect(option.aliases == [old])
            #expect(!c.options.contains { $0.name == old }, "\(name) declares --\(old) apart from --\(new)")
        }
        for name in ["render", "check", "presets"] {
            #expect(try Self.command(name).options.contains { $0.name == "out" && $0.value == "DIR" })
        }
        #expect(try Self.command("render").options.contains { $0.name == "format" && $0.value == "LIST" })
        // No command has an output folder or a format list under another name.
        for c in Commands.all {
            let names = c.options.map(\.name)
            #expect(!names.contains("report") && !names.contains("output") && !names.contains("formats"), "\(c.name)")
        }
    }

    @Test("an alias parses to the same option and value as the new name, as the next word or after =")
    func aliasesParse() throws {
        let run = try Self.command("run").options
        for argv in [["--report", "r", "--formats", "json,sarif"], ["--out", "r", "--format", "json,sarif"],
                     ["--report=r", "--formats=json,sarif"], ["--out=r", "--format=json,sarif"]] {
            let args = try Arguments(argv, options: run)
            #expect(args.value(ReportOptions.report) == "r", "\(argv)")
            #expect(args.list(ReportOptions.formats) == ["json", "sarif"], "\(argv)")
            #expect(try RunCommand.formats(args) == [.json, .sarif])
        }
        let diff = try Self.command("diff").options
        #expect(try Arguments(["a", "b", "--output", "d.png"], options: diff).value(DiffCommand.output) == "d.png")
        #expect(try Arguments(["a", "b", "--out", "d.png"], options: diff).value(DiffCommand.output) == "d.png")
        // The messages name the spelling given.
        let old = try Arguments(["--formats", "pdf"], options: run)
        #expect(usageMessage { _ = try RunCommand.formats(old) } == "--formats takes html, json, junit, sarif, markdown, got \"pdf\"")
        let new = try Arguments(["--format", "pdf"], options: run)
        #expect(usageMessage { _ = try RunCommand.formats(new) } == "--format takes html, json, junit, sarif, markdown, got \"pdf\"")
        // One option under two spellings is given twice.
        #expect(usageMessage { _ = try Arguments(["--out", "a", "--report", "b"], options: run) } == "--report given twice (--out is the same option)")
        #expect(usageMessage { _ = try Arguments(["--out", "a", "--out", "b"], options: run) } == "--out given twice")
        #expect(usageMessage { _ = try Arguments(["--outs", "a"], options: run) } == "unknown option --outs")
    }

    @Test("--help lists each alias on its own line as the same option")
    func aliasesInHelp() throws {
        let help = try Self.command("run").help
        #expect(help.contains("  --out DIR "))
        #expect(help.contains("  --report DIR ") && help.contains("Same as --out (its old spelling)."))
        #expect(help.contains("  --formats LIST ") && help.contains("Same as --format (its old spelling)."))
        let diff = try Self.command("diff").help
        #expect(diff.contains("  --out FILE|DIR ") && diff.contains("  --output FILE|DIR ") && diff.contains("Same as --out (its old spelling)."))
    }

    @Test("diff --output and diff --out write the same diff image")
    func diffAliasOnDisk() throws {
        let dir = TempFolder()
        let a = TinyPNG.encode(width: 2, height: 1, colorType: .rgba, bitDepth: 8, samples: [[[255, 0, 0, 255], [0, 0, 0, 255]]])
        let b = TinyPNG.encode(width: 2, height: 1, colorType: .rgba, bitDepth: 8, samples: [[[255, 0, 0, 255], [255, 255, 255, 255]]])
        dir.write("a.png", Data(a))
        dir.write("b.png", Data(b))
        let old = try CLI.run(["diff", "a.png", "b.png", "--output", "old.png"], in: dir.url)
        let new = try CLI.run(["diff", "a.png", "b.png", "--out", "new.png"], in: dir.url)
        // One pixel of two differs: exit 1, a diff image each.
        #expect(old.status == 1 && new.status == 1, "\(old.stderr) \(new.stderr)")
        let oldImage = try Data(contentsOf: dir.url.appendingPathComponent("old.png"))
        #expect(try Data(contentsOf: dir.url.appendingPathComponent("new.png")) == oldImage)
    }

    // MARK: NO_COLOR, TERM=dumb, progress

    @Test("progress: counts on a terminal, with escape codes only when neither NO_COLOR nor TERM=dumb is set")
    func progressOnTerminal() throws {
        let dir = TempFolder()
        dir.write("t.json", SmallSpec.json)
        let render = ["render", "--spec", "t.json", "--out", "out"]
        // A colour terminal: the dim progress line, counted to the end (8 variants).
        let colour = try PTY.run(render, in: dir.url, environment: ["TERM": "xterm", "NO_COLOR": ""])
        #expect(colour.status == 0)
        #expect(colour.stderr.contains("\u{1B}[2m… rendering 8/8\u{1B}[0m"), "\(colour.stderr.debugDescription)")
        for env in [["TERM": "xterm", "NO_COLOR": "1"], ["TERM": "dumb"], ["TERM": "dumb", "NO_COLOR": "x"]] {
            let plain = try PTY.run(render, in: dir.url, environment: env)
            #expect(plain.status == 0)
            #expect(plain.stderr.contains("… rendering 8/8"), "\(env): \(plain.stderr.debugDescription)")
            #expect(!plain.stderr.utf8.contains(0x1B), "\(env): \(plain.stderr.debugDescription)")
        }
        // run: the counted stage, without escapes under NO_COLOR.
        let run = try PTY.run(["run", "--spec", "t.json", "--out", "rep", "--format", "json", "--fail-on", "never"], in: dir.url,
                              environment: ["TERM": "xterm", "NO_COLOR": "1"])
        #expect(run.stderr.contains("… rendering, auditing 8/8"), "\(run.stderr.debugDescription)")
        #expect(!run.stderr.utf8.contains(0x1B))
    }

    @Test("no progress when stderr is not a terminal: the output of a redirected run is what it was")
    func noProgressWhenRedirected() throws {
        let dir = TempFolder()
        dir.write("t.json", SmallSpec.json)
        let r = try CLI.run(["render", "--spec", "t.json", "--out", "out"], in: dir.url, environment: ["TERM": "xterm", "NO_COLOR": ""])
        #expect(r.status == 0)
        #expect(!r.stderr.contains("…") && !r.stderr.contains("8/8") && !r.stderr.utf8.contains(0x1B), "\(r.stderr.debugDescription)")
        #expect(r.stderr.hasPrefix("rendered 8 of 8 variants (8 files) into "))
        let run = try CLI.run(["run", "--spec", "t.json", "--report", "rep", "--formats", "json", "--fail-on", "never"], in: dir.url,
                              environment: ["TERM": "xterm"])
        #expect(!run.stderr.contains("…") && !run.stderr.utf8.contains(0x1B), "\(run.stderr.debugDescription)")
        // The same run on a terminal but under CI: no progress either.
        let ci = try PTY.run(["render", "--spec", "t.json", "--out", "out"], in: dir.url, environment: ["TERM": "xterm", "CI": "true"])
        #expect(!ci.stderr.contains("…"), "\(ci.stderr.debugDescription)")
    }

    @Test("the audit's colours follow NO_COLOR and TERM=dumb on a terminal")
    func auditColour() throws {
        // `paint` is what the text report uses; useColor reads the environment (and stdout, not a tty here).
        #expect(AuditText.paint("x", .error, true) == "\u{1B}[31mx\u{1B}[0m")
        #expect(AuditText.paint("x", .error, false) == "x")
        let dir = TempFolder()
        dir.write("t.json", SmallSpec.json)
        for env in [["TERM": "dumb"], ["NO_COLOR": "1", "TERM": "xterm"]] {
            let r = try PTY.run(["audit", "--spec", "t.json", "--fail-on", "never"], in: dir.url, environment: env, stdoutToo: true)
            #expect(!r.stderr.utf8.contains(0x1B), "\(env): \(r.stderr.debugDescription)")
        }
    }

    @Test("the time estimate: from the rate so far, seconds under a minute, then minutes")
    func estimate() {
        #expect(Progress.estimate(done: 0, total: 10, elapsed: 5) == "")
        #expect(Progress.estimate(done: 10, total: 10, elapsed: 5) == "")
        #expect(Progress.estimate(done: 5, total: 10, elapsed: 0.2) == "")
        // 1234 of 51840 in 2 s: 50606 left at 617 a second, 82 s: 1 min.
        #expect(Progress.estimate(done: 1234, total: 51840, elapsed: 2) == " · 1 min left")
        #expect(Progress.estimate(done: 100, total: 700, elapsed: 2) == " · 12 s left")
        #expect(Progress.estimate(done: 1000, total: 1001, elapsed: 1) == " · 1 s left")
    }

    // MARK: examples, help topics, man page

    @Test("every command's --help has examples, and every example parses against its command's options")
    func examples() throws {
        for c in Commands.all {
            let examples = try #require(Examples.byCommand[c.name], "\(c.name) has no examples")
            #expect(!examples.isEmpty)
            #expect(c.help.contains("\nEXAMPLES:\n"))
            for e in examples {
                #expect(c.help.contains("    \(e.command)\n"))
                // The words up to a redirection or `&&`, after `glyphaudit <command>`.
                let words = e.command.split(separator: " ").map(String.init).prefix { $0 != ">" && $0 != "&&" }
                #expect(Array(words.prefix(2)) == ["glyphaudit", c.name], "\(e.command)")
                do { _ = try Arguments(Array(words.dropFirst(2)), options: c.options) } catch {
                    Issue.record("\(e.command): \(error.message)")
                }
            }
        }
        #expect(Examples.byCommand.count == Commands.all.count)
    }

    @Test("the documents compiled in are docs/*.md as they are (run scripts/embed-docs after changing one)")
    func embeddedDocsMatch() throws {
        #expect(EmbeddedDocs.topics.map(\.name) == ["spec-format", "audit-rules", "tokens", "snapshots", "limits"])
        for t in EmbeddedDocs.topics {
            let onDisk = try String(contentsOf: CLI.packageRoot.appendingPathComponent(t.file), encoding: .utf8)
            #expect(t.text == onDisk, "\(t.file) differs from the compiled-in copy; run scripts/embed-docs")
            // A topic named like a command could never be reached: `help NAME` is the command's help.
            #expect(!Commands.all.contains { $0.name == t.name })
        }
    }

    @Test("help TOPIC prints the document from the binary, help COMMAND the command's help, and help lists the topics")
    func helpTopics() throws {
        let dir = TempFolder()  // no docs/ around: the text comes from the binary
        let tokens = try CLI.run(["help", "tokens"], in: dir.url)
        #expect(tokens.status == 0)
        let doc = try String(contentsOf: CLI.packageRoot.appendingPathComponent("docs/tokens.md"), encoding: .utf8)
        #expect(tokens.stdout == doc)
        let limits = try CLI.run(["help", "limits"], in: dir.url)
        #expect(limits.status == 0 && limits.stdout.hasPrefix("# Limits\n"))
        let run = try CLI.run(["help", "run"], in: dir.url)
        let runHelp = try Self.command("run").help
        #expect(run.status == 0 && run.stdout == runHelp)
        let main = try CLI.run(["help"], in: dir.url)
        #expect(main.status == 0)
        for name in ["spec-format", "audit-rules", "tokens", "snapshots", "limits"] {
            #expect(main.stdout.contains("\n  \(name) "), "\(name) not listed")
        }
    }

    @Test("help with an unknown topic: exit 64, the nearest name and the list")
    func unknownTopic() throws {
        let dir = TempFolder()
        let r = try CLI.run(["help", "token"], in: dir.url)
        #expect(r.status == 64)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.contains("no help topic or command \"token\"; did you mean \"tokens\"?"), "\(r.stderr)")
        #expect(r.stderr.contains("  spec-format ") && r.stderr.contains("  limits "))
        let far = try CLI.run(["help", "zzzzzzzz"], in: dir.url)
        #expect(far.status == 64 && !far.stderr.contains("did you mean"))
    }

    @Test("the man page names every command, every option and alias of each, and every help topic")
    func manPage() throws {
        let page = ManCommand.page()
        #expect(page.hasPrefix(".\\\" Generated by `glyphaudit man`"))
        #expect(page.contains(".TH GLYPHAUDIT 1 "))
        var options = 0
        for c in Commands.all {
            let section = try #require(page.components(separatedBy: "\n.SS \(ManCommand.roff(c.name))\n").dropFirst().first, "\(c.name)")
                .components(separatedBy: "\n.SS ")[0]
            for o in c.options + [Command.helpOption] {
                for name in [o.name] + o.aliases {
                    options += 1
                    #expect(section.contains("\n\\fB\\-\\-\(ManCommand.roff(name))\\fR"), "man: \(c.name) --\(name)")
                }
            }
        }
        // As CLIOptionTableTests counts them: every declared option, with its aliases (115).
        #expect(options == 115)
        for t in EmbeddedDocs.topics { #expect(page.contains("\n\\fB\(ManCommand.roff(t.name))\\fR\n")) }
        // No line starts with a dot that is not a request: text lines are guarded.
        for line in page.split(separator: "\n") where line.hasPrefix(".") {
            #expect(line.hasPrefix(".\\\"") || line.range(of: #"^\.(TH|SH|SS|TP|PP|RS|RE|nf|fi|br|B|I)\b"#, options: .regularExpression) != nil,
                    "\(line)")
        }
        let dir = TempFolder()
        let r = try CLI.run(["man"], in: dir.url)
        #expect(r.status == 0 && r.stdout == page)
    }

    @Test("the man page renders with groff without warnings (when groff is installed)")
    func manRenders() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/groff") else { return }
        let dir = TempFolder()
        dir.write("glyphaudit.1", ManCommand.page())
        let r = try runTool("/usr/bin/groff", ["-man", "-Tutf8", "-ww", "-z", "glyphaudit.1"], in: dir.url)
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
    }
}

/// Runs the tool with stderr (and, when asked, stdout) on a pseudo-terminal, as a person at a
/// terminal would; what the terminal received is `stderr`.
enum PTY {
    static func run(_ arguments: [String], in directory: URL, environment: [String: String], stdoutToo: Bool = false) throws -> CLI.Result {
        // posix_openpt and its fellows are not in the Glibc module (they need _XOPEN_SOURCE): looked up by name.
        typealias FdCall = @convention(c) (Int32) -> Int32
        typealias NameCall = @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?
        let libc = dlopen(nil, RTLD_NOW)
        func call<T>(_ symbol: String, _ type: T.Type) throws -> T {
            guard let f = dlsym(libc, symbol) else { throw CocoaError(.featureUnsupported) }
            return unsafeBitCast(f, to: type)
        }
        let master = try call("posix_openpt", FdCall.self)(O_RDWR | O_NOCTTY)
        guard master >= 0, try call("grantpt", FdCall.self)(master) == 0, try call("unlockpt", FdCall.self)(master) == 0,
              let name = try call("ptsname", NameCall.self)(master) else {
            throw CocoaError(.fileReadUnknown)
        }
        let slave = open(String(cString: name), O_RDWR | O_NOCTTY)
        guard slave >= 0 else { throw CocoaError(.fileReadUnknown) }
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var env = ProcessInfo.processInfo.environment
        env["CI"] = nil
        env["GITHUB_ACTIONS"] = nil
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let terminal = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
        let out = Pipe()
        process.standardError = terminal
        process.standardOutput = stdoutToo ? terminal : out
        try process.run()
        close(slave)
        // Read the terminal until every writer has closed it (EIO), and stdout to its end.
        nonisolated(unsafe) var received = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = read(master, &buffer, buffer.count)
                if n <= 0 { break }
                received.append(contentsOf: buffer[0..<n])
            }
            group.leave()
        }
        let outData = stdoutToo ? Data() : out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        group.wait()
        close(master)
        // The terminal turns "\n" into "\r\n".
        let text = String(decoding: received, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
        return CLI.Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self), stderr: text)
    }
}
