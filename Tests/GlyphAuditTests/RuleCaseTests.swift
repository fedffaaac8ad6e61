import Foundation
import Testing
import GlyphAudit
import GlyphCore
import GlyphPipeline
import GlyphRender
import GlyphTestSupport

// Rule cases as files, one parameterised test for all of them (like resvg's tests: a folder per
// case, its expectation beside it). A new case is a new folder, not new test code:
//
// - `docs/examples/rules/<case>/spec.json` + `expected.json` (SVGs the spec names sit beside it);
// - every entry of `Tests/Fixtures/icons/expectations.json` (the icon corpus: `<set>/<family>/spec.json`);
// - every entry of `Tests/Fixtures/designsystems/expectations.json` (real design systems' controls drawn
//   as their systems draw them, copies of docs/examples/designsystems: `<control>/spec.json`).
//
// An expectation is `{ "<key>": "pass" | "fail" | "no-error", … }`, the grammar of the corpus's
// `run.py`. A key is a rule id, or `rule(a,b)` for the pair of states a and b. A rule fails when the
// audit (every rule at its defaults, no configuration) reports an error or warning finding of it; a
// pair key looks only at findings whose subject names both states as words (so "unchecked vs mixed"
// does not name "checked"). `no-error` accepts warnings, not errors.

/// The cases: their names (the test's arguments) and where their spec and expectations are.
enum RuleCases {
    static let examples = TestPaths.packageRoot.appendingPathComponent("docs/examples/rules")
    static let corpus = TestPaths.fixture("icons").standardizedFileURL
    static let examplePrefix = "rules/"
    static let corpusPrefix = "icons/"
    static let designSystems = TestPaths.fixture("designsystems").standardizedFileURL
    static let designSystemsPrefix = "designsystems/"
    /// The one case that stands for the corpus when it cannot be read: it records why.
    static let corpusUnavailable = "icons (corpus unavailable)"
    static let designSystemsUnavailable = "designsystems (expectations unavailable)"

    /// `rules/<case>` for every folder of docs/examples/rules that has a spec.json or an expected.json
    /// (a folder with only one of them is a case that fails, not one that is skipped), then
    /// `icons/<set>/<family>` for every entry of the corpus's expectations.json.
    static let names: [String] = {
        let fm = FileManager.default
        let folders = (try? fm.contentsOfDirectory(atPath: examples.path)) ?? []
        let local = folders.filter { name in
            ["spec.json", "expected.json"].contains { fm.fileExists(atPath: examples.appendingPathComponent(name).appendingPathComponent($0).path) }
        }.sorted().map { examplePrefix + $0 }
        let icons: [String]
        switch corpusExpectations {
        case .success(let entries): icons = entries.keys.sorted().map { corpusPrefix + $0 }
        case .failure: icons = [corpusUnavailable]
        }
        switch designSystemExpectations {
        case .success(let entries): return local + icons + entries.keys.sorted().map { designSystemsPrefix + $0 }
        case .failure: return local + icons + [designSystemsUnavailable]
        }
    }()

    struct Unavailable: Error { let message: String }

    /// The corpus's expectations.json, or why it cannot be had.
    static let corpusExpectations = expectations(in: corpus, what: "the icon corpus", folder: "Tests/Fixtures/icons")
    /// The design systems' expectations.json, or why it cannot be had.
    static let designSystemExpectations = expectations(in: designSystems, what: "the design systems' controls",
                                                       folder: "Tests/Fixtures/designsystems")

    /// `folder/expectations.json`: per spec folder its verdicts.
    static func expectations(in root: URL, what: String, folder: String) -> Result<[String: [String: String]], Unavailable> {
        let file = root.appendingPathComponent("expectations.json")
        guard FileManager.default.fileExists(atPath: file.path) else {
            return .failure(Unavailable(message: "\(what) cannot be found: no \(file.path) "
                + "(\(folder) is part of the checkout), so none of its cases ran"))
        }
        do {
            guard let object = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any] else {
                return .failure(Unavailable(message: "\(file.path): not a JSON object of spec folders"))
            }
            var entries: [String: [String: String]] = [:]
            for (folder, value) in object {
                guard let expect = value as? [String: String] else {
                    return .failure(Unavailable(message: "\(file.path): \(folder): not an object of verdicts (strings)"))
                }
                entries[folder] = expect
            }
            return .success(entries)
        } catch {
            return .failure(Unavailable(message: "\(file.path): cannot be read: \(error)"))
        }
    }

    /// A case: its spec and what a correct audit reaches for it, or why it cannot be run.
    static func load(_ name: String) -> Result<(spec: URL, expected: [String: String]), Unavailable> {
        if name.hasPrefix(corpusPrefix) {
            let folder = String(name.dropFirst(corpusPrefix.count))
            switch corpusExpectations {
            case .failure(let e): return .failure(e)
            case .success(let entries):
                guard let expect = entries[folder] else { return .failure(Unavailable(message: "no such corpus entry \(folder)")) }
                return .success((corpus.appendingPathComponent(folder).appendingPathComponent("spec.json"), expect))
            }
        }
        if name.hasPrefix(designSystemsPrefix) {
            let folder = String(name.dropFirst(designSystemsPrefix.count))
            switch designSystemExpectations {
            case .failure(let e): return .failure(e)
            case .success(let entries):
                guard let expect = entries[folder] else { return .failure(Unavailable(message: "no such design-system entry \(folder)")) }
                return .success((designSystems.appendingPathComponent(folder).appendingPathComponent("spec.json"), expect))
            }
        }
        if name == corpusUnavailable, case .failure(let e) = corpusExpectations { return .failure(e) }
        if name == designSystemsUnavailable, case .failure(let e) = designSystemExpectations { return .failure(e) }
        let folder = examples.appendingPathComponent(String(name.dropFirst(examplePrefix.count)))
        let spec = folder.appendingPathComponent("spec.json"), file = folder.appendingPathComponent("expected.json")
        guard FileManager.default.fileExists(atPath: spec.path) else {
            return .failure(Unavailable(message: "\(folder.path) has an expected.json but no spec.json"))
        }
        guard FileManager.default.fileExists(atPath: file.path) else {
            return .failure(Unavailable(message: "\(folder.path) has a spec.json but no expected.json beside it"))
        }
        do {
            guard let expect = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: String] else {
                return .failure(Unavailable(message: "\(file.path): not a JSON object of verdicts, e.g. {\"clipping\": \"fail\"}"))
            }
            return .success((spec, expect))
        } catch {
            return .failure(Unavailable(message: "\(file.path): cannot be read: \(error)"))
        }
    }
}

/// One key of an expectation: a rule, and optionally the pair of states whose findings it looks at.
struct ExpectationKey {
    let rule: String
    let states: (String, String)?

    /// Parses `rule` or `rule(a,b)` (rule: `[a-z-]+`, states: `[a-z]+`).
    init?(_ key: String) {
        func only(_ s: Substring, _ allowed: (UInt8) -> Bool) -> Bool { !s.isEmpty && s.utf8.allSatisfy(allowed) }
        let letters: (UInt8) -> Bool = { $0 >= 97 && $0 <= 122 }
        let parts = key.split(separator: "(", maxSplits: 1, omittingEmptySubsequences: false)
        guard only(parts[0], { letters($0) || $0 == 45 }) else { return nil }
        rule = String(parts[0])
        guard parts.count == 2 else { states = nil; return }
        guard parts[1].hasSuffix(")") else { return nil }
        let pair = parts[1].dropLast().split(separator: ",", omittingEmptySubsequences: false)
        guard pair.count == 2, only(pair[0], letters), only(pair[1], letters) else { return nil }
        states = (String(pair[0]), String(pair[1]))
    }

    /// The lower-case words `[a-z]+` of a finding's subject.
    static func words(_ subject: String) -> Set<Substring> {
        Set(subject.lowercased().split { c in !(c.asciiValue.map { $0 >= 97 && $0 <= 122 } ?? false) })
    }

    /// The error and warning findings of the rule (for a pair, those whose subject names both states).
    func relevant(_ findings: [Finding]) -> [Finding] {
        findings.filter { f in
            guard f.rule == rule, f.severity >= .warning else { return false }
            guard case let (a, b)? = states else { return true }
            let w = Self.words(f.subject)
            return w.contains(Substring(a)) && w.contains(Substring(b))
        }
    }
}

@Suite("Rule cases: docs/examples/rules/<case>/, the icon corpus and the design systems' controls, each audited against its expected.json")
struct RuleCaseTests {
    static let verdicts: Set<String> = ["pass", "fail", "no-error"]

    @Test("a case's audit reaches every verdict its expectation states", arguments: RuleCases.names)
    func ruleCase(_ name: String) {
        let specURL: URL, expected: [String: String]
        switch RuleCases.load(name) {
        case .success(let c): specURL = c.spec; expected = c.expected
        case .failure(let e): Issue.record(Comment(rawValue: "\(name): \(e.message)")); return
        }
        if expected.isEmpty { Issue.record("\(name): expected.json states no verdict") }

        let spec: Spec, findings: [Finding]
        do {
            spec = try Spec.load(contentsOf: specURL)
            findings = Auditor().run(plan: try Plan(specs: [spec])).findings
        } catch {
            Issue.record(Comment(rawValue: "\(name): \(specURL.path) cannot be audited: \(error.description)"))
            return
        }
        let ruleIDs = Auditor.registry.map(\.id)
        let states = spec.states.map(\.rawValue)

        for (key, want) in expected.sorted(by: { $0.key < $1.key }) {
            guard let k = ExpectationKey(key), ruleIDs.contains(k.rule) else {
                Issue.record(Comment(rawValue: "\(name): \(key): not a rule id or rule(stateA,stateB); the rules: "
                                     + ruleIDs.joined(separator: ", ")))
                continue
            }
            if case let (a, b)? = k.states, !(states.contains(a) && states.contains(b)) {
                Issue.record(Comment(rawValue: "\(name): \(key): names a state the spec does not have; its states are \(states.joined(separator: ", "))"))
                continue
            }
            guard Self.verdicts.contains(want) else {
                Issue.record(Comment(rawValue: "\(name): \(key): \"\(want)\" is not a verdict (pass, fail, no-error)"))
                continue
            }
            var behind = k.relevant(findings)
            let got: String
            if want == "no-error" {
                // A warning (the rendered thin-stroke one of nontext-contrast) is accepted; an error is not.
                behind = behind.filter { $0.severity == .error }
                got = behind.isEmpty ? "no-error" : "fail"
            } else {
                got = behind.isEmpty ? "pass" : "fail"
            }
            if got != want {
                Issue.record(Comment(rawValue: "\(name): \(key): expected \(want), got \(got)\n"
                                     + Self.describe(behind, rule: k.rule, all: findings)))
            }
        }
    }

    /// The findings behind a verdict, one per line (the first 8), or what there was of the rule instead.
    static func describe(_ behind: [Finding], rule: String, all: [Finding]) -> String {
        guard !behind.isEmpty else {
            let other = all.filter { $0.rule == rule }
            return "  no error or warning finding of \(rule) matched"
                + (other.isEmpty ? "" : "; its other findings:\n" + lines(other))
        }
        return lines(behind)
    }

    static func lines(_ findings: [Finding], limit: Int = 8) -> String {
        var out = findings.prefix(limit).map { "  \($0.severity.rawValue) [\($0.subject)] \($0.variant): \($0.message)" }
        if findings.count > limit { out.append("  … and \(findings.count - limit) more") }
        return out.joined(separator: "\n")
    }
}
