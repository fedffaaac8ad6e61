import Foundation
import Testing
@testable import GlyphAudit
@testable import GlyphCore
@testable import GlyphReport
#if canImport(FoundationXML)
import FoundationXML
@testable import GlyphSnapshot
#endif

// The machine-readable reports (SARIF here; JUnit, Markdown and GitHub annotations in
// CIOutputTests.swift) and merging, made from a small hand-built RunReport so every case is known:
// findings that cover one variant or many (`*`), every severity, an accepted one, one whose colour
// comes from a token, XML-hostile text, and snapshots that match, changed (with pictures), are new
// or stale.

enum SampleReport {
    static let rules = [
        RuleRecord(id: "state-shape", title: "State changes shape", criterion: "1.4.1", severity: .error,
                   summary: "Checked and unchecked must differ by more than colour.", fix: "Change the glyph's shape."),
        RuleRecord(id: "nontext-contrast", title: "Non-text contrast", criterion: "1.4.11", severity: .error,
                   summary: "Parts needed to see the state reach 3:1.", fix: "Darken the part."),
        RuleRecord(id: "target-size", title: "Target size", criterion: "2.5.8", severity: .error,
                   summary: "The hit area is at least 24 × 24 pt.", fix: "Grow the hit area."),
    ]

    static let presets = [
        PresetRecord(name: "alpha", control: "checkbox", description: "A checkbox", source: "specs/alpha.json",
                     tokens: "tokens/alpha.tokens.json", shapes: ["square"], sizes: ["md"], themes: ["default"],
                     states: ["unchecked", "checked"], dynamicTypeSizes: ["L", "AX5"], scales: [2], variantCount: 4),
        PresetRecord(name: "beta", control: "switch", description: "A switch", source: "specs/beta.json", tokens: nil,
                     shapes: ["square"], sizes: ["md"], themes: ["default"], states: ["off", "on"],
                     dynamicTypeSizes: ["L"], scales: [2], variantCount: 2),
    ]

    static func variant(_ index: Int, _ preset: String, _ component: String, _ dt: String, _ state: String) -> VariantRecord {
        let id: VariantID = "\(preset)/\(component)/\(dt)/default/\(state)@2x"
        return VariantRecord(index: index, id: id, preset: preset, component: component, dynamicType: dt, theme: "default",
                             state: state, scale: 2, image: "images/\(id).png", width: 40, height: 28)
    }

    static let variants = [
        variant(0, "alpha", "square-md", "L", "unchecked"),
        variant(1, "alpha", "square-md", "L", "checked"),
        variant(2, "alpha", "square-md", "AX5", "unchecked"),
        variant(3, "alpha", "square-md", "AX5", "checked"),
        variant(4, "beta", "switch-md", "L", "off"),
        variant(5, "beta", "switch-md", "L", "on"),
    ]

    static func finding(_ rule: String, _ severity: Severity, _ variant: String, _ subject: String, _ message: String,
                        location: FindingLocation? = nil, accepted: String? = nil) -> Finding {
        var f = Finding(rule: rule, severity: severity, criterion: rules.first { $0.id == rule }?.criterion, variant: VariantID(parsing: variant),
                        subject: subject, message: message, numbers: ["ratio": 1.21, "required": 3], values: ["foreground": "#E9E9EA"],
                        location: location)
        f.accepted = accepted
        f.picturePath = "evidence/\(rule)/\(subject).png"
        return f
    }

    static let findings = [
        // Covers both unchecked variants of alpha; its colour comes from a token.
        finding("nontext-contrast", .error, "alpha/square-md/*/default/unchecked@2x", "ring", "ring #C4C4C4 on #FFFFFF is 1.74:1, needs 3:1",
                location: FindingLocation(file: "specs/alpha.json", line: 12, keyPath: "themes.default.border", token: "{color.border}",
                                         tokenFile: "tokens/alpha.tokens.json", tokenLine: 7)),
        finding("state-shape", .warning, "alpha/square-md/AX5/default/checked@2x", "glyph", "the tick changes 2.0% of the boundary",
                location: FindingLocation(file: "specs/alpha.json", line: 20, keyPath: "states", token: nil, tokenFile: nil, tokenLine: nil)),
        // Text that XML, Markdown and workflow commands must escape.
        finding("target-size", .info, "beta/switch-md/L/default/*@2x", "hit area",
                "hit area <44> & \"wide\" 'enough'\u{07}: 100% ![x](https://example.invalid/x.png) <img src=y> | a, b: c\nsecond line",
                location: FindingLocation(file: "specs/beta.json", line: 3, keyPath: "hitArea", token: nil, tokenFile: nil, tokenLine: nil)),
        finding("nontext-contrast", .error, "beta/switch-md/L/default/off@2x", "off track", "off track #E9E9EA on #FFFFFF is 1.21:1, needs 3:1",
                location: FindingLocation(file: "specs/beta.json", line: 15, keyPath: "themes.default.trackOff", token: nil, tokenFile: nil, tokenLine: nil),
                accepted: "the platform's own colour"),
        // No location at all: reports point at the preset's spec.
        finding("state-shape", .error, "beta/switch-md/L/default/on@2x", "glyph", "on and off differ only in colour"),
    ]

    static let snapshots = SnapshotSection(folder: "snapshots", results: [
        SnapshotRecord(id: "alpha/square-md/L/default/unchecked@2x", status: .match, failed: false,
                       baseline: "snapshots/alpha/square-md/L/default/unchecked@2x.png"),
        SnapshotRecord(id: "alpha/square-md/AX5/default/checked@2x", status: .mismatch, failed: true,
                       baseline: "snapshots/alpha/square-md/AX5/default/checked@2x.png", message: "3 px differ",
                       mismatchedPixels: 3, mismatchRatio: 0.001, maxDelta: 0.4, expectedSize: [40, 28], actualSize: [40, 28],
                       expected: "snapshots/alpha/square-md/AX5/default/checked@2x.expected.png",
                       actual: "snapshots/alpha/square-md/AX5/default/checked@2x.actual.png",
                       diff: "snapshots/alpha/square-md/AX5/default/checked@2x.diff.png",
                       sideBySide: "snapshots/alpha/square-md/AX5/default/checked@2x.sidebyside.png"),
        SnapshotRecord(id: "beta/switch-md/L/default/off@2x", status: .new, failed: true,
                       baseline: "snapshots/beta/switch-md/L/default/off@2x.png", message: "no baseline"),
        SnapshotRecord(id: "alpha/square-md/xS/default/checked@2x", status: .stale, failed: false,
                       baseline: "snapshots/alpha/square-md/xS/default/checked@2x.png"),
    ])

    static func make(failOn: String = "error", shard: String? = nil) -> RunReport {
        var r = RunReport(tool: "glyphaudit 0.1.0", shard: shard, failOn: failOn, selected: variants.count, presets: presets,
                          variants: variants, findings: findings, snapshots: snapshots, rules: rules)
        r.canonicalize()
        return r
    }
}

#if canImport(FoundationXML) || os(macOS)
/// A JUnit document read back with FoundationXML.
struct JUnitDocument {
    struct Case {
        var suite: String
        var classname: String
        var name: String
        var file: String?
        var time: String?
        var failures: [XMLElement]
        var systemOut: String?
    }

    let root: XMLElement
    let suites: [XMLElement]
    let cases: [Case]

    init(_ xml: String) throws {
        let doc = try XMLDocument(data: Data(xml.utf8), options: [])
        root = try #require(doc.rootElement())
        suites = root.elements(forName: "testsuite")
        var cases: [Case] = []
        for suite in suites {
            for c in suite.elements(forName: "testcase") {
                cases.append(Case(suite: suite.attr("name") ?? "", classname: c.attr("classname") ?? "", name: c.attr("name") ?? "",
                                  file: c.attr("file"), time: c.attr("time"), failures: c.elements(forName: "failure"),
                                  systemOut: c.elements(forName: "system-out").first?.stringValue))
            }
        }
        self.cases = cases
    }
}

extension XMLElement {
    func attr(_ name: String) -> String? { attribute(forName: name)?.stringValue }
}

#endif

@Suite("SARIF 2.1.0")
struct SARIFReportTests {
    /// The properties the SARIF 2.1.0 schema allows (it sets additionalProperties: false) on the
    /// objects glyphaudit writes, and those it requires.
    static let allowed: [String: Set<String>] = [
        "sarifLog": ["$schema", "version", "runs", "inlineExternalProperties", "properties"],
        "run": ["tool", "invocations", "conversion", "language", "versionControlProvenance", "originalUriBaseIds", "artifacts",
                "logicalLocations", "graphs", "results", "automationDetails", "runAggregates", "baselineGuid", "redactionTokens",
                "defaultEncoding", "defaultSourceLanguage", "newlineSequences", "columnKind", "externalPropertyFileReferences",
                "threadFlowLocations", "taxonomies", "addresses", "translations", "policies", "webRequests", "webResponses",
                "specialLocations", "properties"],
        "tool": ["driver", "extensions", "properties"],
        "toolComponent": ["guid", "name", "organization", "product", "productSuite", "shortDescription", "fullDescription", "fullName",
                          "version", "semanticVersion", "dottedQuadFileVersion", "releaseDateUtc", "downloadUri", "informationUri",
                          "globalMessageStrings", "notifications", "rules", "taxa", "locations", "language", "contents",
                          "isComprehensive", "localizedDataSemanticVersion", "minimumRequiredLocalizedDataSemanticVersion",
                          "associatedComponent", "translationMetadata", "supportedTaxonomies", "properties"],
        "reportingDescriptor": ["id", "deprecatedIds", "guid", "deprecatedGuids", "name", "deprecatedNames", "shortDescription",
                                "fullDescription", "messageStrings", "defaultConfiguration", "helpUri", "help", "relationships", "properties"],
        "reportingConfiguration": ["enabled", "level", "rank", "parameters", "properties"],
        "multiformatMessageString": ["text", "markdown", "properties"],
        "message": ["text", "markdown", "id", "arguments", "properties"],
        "result": ["ruleId", "ruleIndex", "rule", "kind", "level", "message", "analysisTarget", "locations", "guid", "correlationGuid",
                   "occurrenceCount", "partialFingerprints", "fingerprints", "stacks", "codeFlows", "graphs", "graphTraversals",
                   "relatedLocations", "suppressions", "baselineState", "rank", "attachments", "hostedViewerUri", "workItemUris",
                   "provenance", "fixes", "taxa", "webRequest", "webResponse", "properties"],
        "location": ["id", "physicalLocation", "logicalLocations", "message", "annotations", "relationships", "properties"],
        "physicalLocation": ["address", "artifactLocation", "region", "contextRegion", "properties"],
        "artifactLocation": ["uri", "uriBaseId", "index", "description", "properties"],
        "region": ["startLine", "startColumn", "endLine", "endColumn", "charOffset", "charLength", "byteOffset", "byteLength",
                   "snippet", "message", "sourceLanguage", "properties"],
        "logicalLocation": ["name", "index", "fullyQualifiedName", "decoratedName", "parentIndex", "kind", "properties"],
        "suppression": ["guid", "kind", "status", "justification", "location", "properties"],
    ]

    static func check(_ object: [String: Any], is kind: String, required: [String] = [], _ where_: String) {
        let extra = Set(object.keys).subtracting(allowed[kind]!)
        #expect(extra.isEmpty, "\(where_): \(kind) may not have \(extra.sorted())")
        for key in required { #expect(object[key] != nil, "\(where_): \(kind) needs \(key)") }
    }

    static func document(_ report: RunReport) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: report.sarifData()) as? [String: Any])
    }

    @Test("the log, run, tool and rules carry what SARIF 2.1.0 requires, rules with ids and help text")
    func logAndRules() throws {
        let report = SampleReport.make()
        let log = try Self.document(report)
        Self.check(log, is: "sarifLog", required: ["version", "runs"], "log")
        #expect(log["version"] as? String == "2.1.0")
        #expect((log["$schema"] as? String)?.hasSuffix("sarif-2.1.0.json") == true)
        let runs = try #require(log["runs"] as? [[String: Any]])
        #expect(runs.count == 1)
        let run = runs[0]
        Self.check(run, is: "run", required: ["tool"], "run")
        let tool = try #require(run["tool"] as? [String: Any])
        Self.check(tool, is: "tool", required: ["driver"], "tool")
        let driver = try #require(tool["driver"] as? [String: Any])
        Self.check(driver, is: "toolComponent", required: ["name"], "driver")
        #expect(driver["name"] as? String == "glyphaudit")
        #expect(driver["version"] as? String == "0.1.0")
        let rules = try #require(driver["rules"] as? [[String: Any]])
        #expect(rules.compactMap { $0["id"] as? String } == report.rules.map(\.id))
        for (rule, record) in zip(rules, report.rules) {
            let id = record.id
            Self.check(rule, is: "reportingDescriptor", required: ["id"], id)
            for key in ["shortDescription", "fullDescription", "help"] {
                let text = try #require(rule[key] as? [String: Any], "\(id) \(key)")
                Self.check(text, is: "multiformatMessageString", required: ["text"], "\(id).\(key)")
                #expect((text["text"] as? String)?.isEmpty == false)
            }
            let help = try #require(rule["help"] as? [String: Any])
            #expect(help["text"] as? String == record.fix)
            #expect((help["markdown"] as? String)?.contains(record.summary) == true)
            let config = try #require(rule["defaultConfiguration"] as? [String: Any])
            Self.check(config, is: "reportingConfiguration", id)
            #expect(config["level"] as? String == "error")
        }
    }

    @Test("one result per finding with a consistent ruleIndex, level mapping, and the spec or token file as location")
    func results() throws {
        let report = SampleReport.make()
        let run = try #require((try Self.document(report)["runs"] as? [[String: Any]])?.first)
        let rules = try #require((run["tool"] as? [String: Any]).flatMap { $0["driver"] as? [String: Any] }?["rules"] as? [[String: Any]])
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(results.count == report.findings.count)
        var fingerprints = Set<String>()
        for (result, finding) in zip(results, report.findings) {
            let w = "\(finding.rule) \(finding.variant)"
            Self.check(result, is: "result", required: ["message"], w)
            #expect(result["ruleId"] as? String == finding.rule)
            let index = try #require(result["ruleIndex"] as? Int, "\(w)")
            #expect(rules.indices.contains(index) && rules[index]["id"] as? String == finding.rule, "\(w)")
            #expect(result["level"] as? String == ["error": "error", "warning": "warning", "info": "note"][finding.severity.rawValue], "\(w)")
            let message = try #require(result["message"] as? [String: Any])
            Self.check(message, is: "message", w)
            #expect(message["text"] as? String == finding.message)
            let fingerprint = try #require((result["partialFingerprints"] as? [String: String])?.values.first)
            #expect(fingerprints.insert(fingerprint).inserted, "fingerprints tell results apart")

            let locations = try #require(result["locations"] as? [[String: Any]])
            #expect(locations.count == 1)
            Self.check(locations[0], is: "location", w)
            let physical = try #require(locations[0]["physicalLocation"] as? [String: Any])
            Self.check(physical, is: "physicalLocation", w)
            let artifact = try #require(physical["artifactLocation"] as? [String: Any])
            Self.check(artifact, is: "artifactLocation", w)
            let uri = try #require(artifact["uri"] as? String)
            let region = physical["region"] as? [String: Any]
            if let region { Self.check(region, is: "region", w) }
            let line = region?["startLine"] as? Int
            if let line { #expect(line >= 1) }
            if let l = finding.location, l.token != nil, let tokenFile = l.tokenFile {
                #expect(uri == tokenFile && line == l.tokenLine, "\(w): a colour from a token is located in the token file")
            } else if let l = finding.location {
                #expect(uri == l.file && line == l.line, "\(w)")
            } else {
                #expect(uri == report.source(of: finding.preset) && region == nil, "\(w): no location, the spec")
            }
            if let key = finding.location?.keyPath {
                let logical = try #require((locations[0]["logicalLocations"] as? [[String: Any]])?.first)
                Self.check(logical, is: "logicalLocation", w)
                #expect(logical["name"] as? String == key)
            }
            if let reason = finding.accepted {
                let suppression = try #require((result["suppressions"] as? [[String: Any]])?.first)
                Self.check(suppression, is: "suppression", required: ["kind"], w)
                #expect(suppression["kind"] as? String == "external" && suppression["justification"] as? String == reason)
            } else {
                #expect(result["suppressions"] == nil)
            }
        }
        // Every severity and both kinds of location were exercised.
        #expect(Set(results.compactMap { $0["level"] as? String }) == ["error", "warning", "note"])
    }
}

@Suite("Merging shard reports")
struct MergeReportTests {
    /// The sample split into shards by preset, as `run --shard` splits it.
    static func shards(_ n: Int) -> [(report: RunReport, file: String)] {
        let whole = SampleReport.make()
        let groups = (1...n).map { Shard("\($0)/\(n)")!.members(whole.variants.map(\.preset)) }
        return (1...n).map { i in
            var r = whole
            r.shard = "\(i)/\(n)"
            r.variants = zip(whole.variants, groups[i - 1]).filter(\.1).map(\.0)
            let presets = Set(r.variants.map(\.preset))
            r.findings = whole.findings.filter { presets.contains($0.preset) }
            r.snapshots?.results = whole.snapshots!.results.filter { s in presets.contains(s.id.preset) }
            return (r, "s\(i)/report.json")
        }
    }

    @Test("the shards merge back into the whole report, in any order, with empty shards", arguments: [1, 2, 3, 5])
    func roundTrip(n: Int) throws {
        let parts = Self.shards(n)
        #expect(try RunReport.merge(parts) == SampleReport.make())
        #expect(try RunReport.merge(parts.reversed()).jsonData() == SampleReport.make().jsonData())
    }

    @Test("a missing, doubled or foreign shard is refused with a message naming it, empty shards too")
    func refusals() throws {
        func message(_ parts: [(report: RunReport, file: String)]) -> String {
            do {
                _ = try RunReport.merge(parts)
                return "merged"
            } catch {
                return error.description
            }
        }
        let five = Self.shards(5)   // two presets: shards 3, 4 and 5 are empty
        #expect(five[2].report.variants.isEmpty)
        #expect(message(Array(five.prefix(4))) == "merge-reports: shard 5/5 is missing; name the --report folders of all 5 shards")
        #expect(message(Array(five.prefix(2))).contains("shards 3/5, 4/5, 5/5 are missing"))
        #expect(message(five + [five[4]]) == "s5/report.json: shard 5/5 is given twice (also s5/report.json)")
        #expect(message(five + [five[0]]).contains("shard 1/5 is given twice"))
        #expect(message([five[0], Self.shards(2)[1]]).contains("this is shard 2/2, but s1/report.json is one of 5 shards"))
        var whole = SampleReport.make()
        whole.shard = nil
        #expect(message([(whole, "x/report.json"), five[1]]).contains("not of a --shard run"))

        // Reports of another run: each difference is named.
        var other = five[1]
        other.report.filter = "theme=default"
        #expect(message([five[0], other] + Array(five.dropFirst(2))) == "s2/report.json: this report is of another run than s1/report.json: "
                + "--only (theme=default vs none) differ")
        other = five[1]
        other.report.failOn = "never"
        other.report.selected = 7
        #expect(message([five[0], other]).contains("--fail-on (never vs error); selected variants (7 vs 6) differ"))
        other = five[1]
        other.report.snapshots = nil
        #expect(message([five[0], other]).contains("snapshots (not checked vs snapshots)"))
        other = five[1]
        other.report.rules[0].severity = .warning
        #expect(message([five[0], other]).contains("rules or their configuration"))
        #expect(message([]) == "merge-reports: no reports to merge")
    }

    @Test("every picture a report refers to is listed for merge-reports to copy, the side-by-side too")
    func referencedFiles() {
        let files = Set(SampleReport.make().referencedFiles)
        #expect(files.isSuperset(of: SampleReport.variants.compactMap(\.image)))
        #expect(files.isSuperset(of: SampleReport.findings.compactMap(\.picturePath)))
        let base = "snapshots/alpha/square-md/AX5/default/checked@2x"
        #expect(files.isSuperset(of: ["expected", "actual", "diff", "sidebyside"].map { "\(base).\($0).png" }))
    }

    @Test("the --only filter is recorded in a normalized form")
    func filterText() throws {
        var f = VariantFilter()
        #expect(RunReport.filterText(f) == nil)
        try f.add("scale=2x")
        try f.add("dt=AX5,large")
        try f.add("theme=inverse,default")
        #expect(RunReport.filterText(f) == "dynamic-type=AX5,L theme=default,inverse scale=2")
    }
}

@Suite("A shard report without pictures")
struct PicturesMissingTests {
    @Test("a report without contact-sheet pictures says how many are missing")
    func picturesMissing() {
        var report = SampleReport.make()
        #expect(report.picturesMissing == 0)
        report.variants[0].image = nil
        report.variants[3].image = nil
        #expect(report.picturesMissing == 2)
    }
}

@Suite("SARIF locations")
struct SARIFLocationTests {
    @Test("SARIF: relative locations against %SRCROOT%, declared in originalUriBaseIds; no placeholder informationUri")
    func sarifBases() throws {
        var report = SampleReport.make()
        report.presets[1].source = "/abs/specs/my beta.json"
        let log = try #require(try JSONSerialization.jsonObject(with: report.sarifData()) as? [String: Any])
        let run = try #require((log["runs"] as? [[String: Any]])?.first)
        let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        if let info = driver["informationUri"] as? String {
            #expect(URL(string: info)?.scheme != nil && !info.contains(".invalid"), "an absolute, real URI: \(info)")
        }
        // The base id is declared as an artifactLocation: no uri (unknown on purpose), or an absolute one ending in /.
        let bases = try #require(run["originalUriBaseIds"] as? [String: [String: Any]])
        let root = try #require(bases["%SRCROOT%"])
        SARIFReportTests.check(root, is: "artifactLocation", "originalUriBaseIds")
        if let uri = root["uri"] as? String { #expect(uri.hasPrefix("file:///") && uri.hasSuffix("/")) }
        #expect(root["uriBaseId"] == nil)
        let results = try #require(run["results"] as? [[String: Any]])
        var relative = 0, absolute = 0
        for r in results {
            let loc = try #require(((r["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])?["artifactLocation"] as? [String: Any])
            let uri = try #require(loc["uri"] as? String)
            if uri.hasPrefix("file:") {
                absolute += 1
                #expect(uri == "file:///abs/specs/my%20beta.json")
                #expect(loc["uriBaseId"] == nil, "an absolute URI has no base")
            } else {
                relative += 1
                #expect(!uri.hasPrefix("/"))
                #expect(loc["uriBaseId"] as? String == "%SRCROOT%", "\(uri)")
                #expect(bases[loc["uriBaseId"] as! String] != nil)
            }
        }
        #expect(relative > 0 && absolute == 1, "beta's finding without a location points at its (absolute) spec")
    }
}

/// The start tags of generated HTML with their attributes (enough for markup we write ourselves).
struct HTMLTags {
    struct Tag {
        var name: String
        var attributes: [String: String]
        var offset: Int
    }

    let tags: [Tag]

    init(_ html: String) {
        var body = html
        if let s = body.range(of: "<script>"), let e = body.range(of: "</script>") { body.removeSubrange(s.lowerBound..<e.upperBound) }
        if let s = body.range(of: "<style>"), let e = body.range(of: "</style>") { body.removeSubrange(s.lowerBound..<e.upperBound) }
        let tagPattern = try! Regex(#"<([a-zA-Z][a-zA-Z0-9]*)((?:\s+[^\s=>]+(?:="[^"]*")?)*)\s*/?>"#)
        let attributePattern = try! Regex(#"([^\s=>]+)(?:="([^"]*)")?"#)
        var out: [Tag] = []
        for m in body.matches(of: tagPattern) {
            var attributes: [String: String] = [:]
            for a in String(m.output[2].substring ?? "").matches(of: attributePattern) {
                let value = (a.output[2].substring.map(String.init) ?? "").replacingOccurrences(of: "&quot;", with: "\"")
                    .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
                    .replacingOccurrences(of: "&amp;", with: "&")
                attributes[String(a.output[1].substring ?? "")] = value
            }
            out.append(Tag(name: String(m.output[1].substring ?? "").lowercased(), attributes: attributes,
                           offset: body.distance(from: body.startIndex, to: m.range.lowerBound)))
        }
        tags = out
    }

    func all(_ name: String, where keep: (Tag) -> Bool = { _ in true }) -> [Tag] { tags.filter { $0.name == name && keep($0) } }
}

@Suite("HTML report")
struct HTMLReportTests {
    /// The sample with two more findings: one that holds at AX5 only (`dynamicTypeSizes`) on every
    /// alpha variant, and the state-shape warning also at L, so it folds into one card with the AX5 one.
    static func make() -> RunReport {
        var r = SampleReport.make()
        var atAX5 = SampleReport.finding("target-size", .error, "alpha/square-md/*/*/*@*x", "hit area", "hit area 20 × 20 pt at AX5")
        atAX5.dynamicTypeSizes = [.accessibility5]
        r.findings.append(atAX5)
        r.findings.append(SampleReport.finding("state-shape", .warning, "alpha/square-md/L/default/checked@2x", "glyph",
                                               "the tick changes 2.0% of the boundary"))
        r.canonicalize()
        return r
    }

    /// The contact-sheet cell of a variant.
    static func cell(_ tags: HTMLTags, _ id: VariantID) throws -> HTMLTags.Tag {
        let img = try #require(tags.all("img").first { $0.attributes["alt"]?.hasPrefix(RunReport.pictureID(id)) == true && $0.attributes["src"]?.hasPrefix("images/") == true }, "\(id)")
        return try #require(tags.all("td").last { $0.offset < img.offset }, "\(id)")
    }

    @Test("every element id is unique, folded cards included, and every #link has its target")
    func uniqueIDs() {
        let tags = HTMLTags(Self.make().html())
        let ids = tags.tags.compactMap { $0.attributes["id"] }
        #expect(ids.count == Set(ids).count, "duplicates: \(Dictionary(grouping: ids, by: { $0 }).filter { $0.value.count > 1 }.keys.sorted())")
        for t in tags.tags {
            if let href = t.attributes["href"], href.hasPrefix("#") { #expect(ids.contains(String(href.dropFirst())), "\(href)") }
        }
    }

    @Test("a finding card's data-dt lists the Dynamic Type sizes it holds at, so the size filter can hide it")
    func dynamicTypeAttribute() throws {
        let report = Self.make()
        let tags = HTMLTags(report.html())
        let cards = tags.all("article", where: { $0.attributes["class"]?.hasPrefix("finding") == true })
        func card(_ rule: String, _ subject: String, preset: String = "alpha") throws -> HTMLTags.Tag {
            let i = try #require(report.findings.firstIndex { $0.rule == rule && $0.subject == subject && $0.preset == preset })
            // The card of a folded finding is its first one's.
            return try #require(cards.first { $0.attributes["id"] == "f-\(i)" } ?? cards.first { c in
                tags.tags.contains { $0.name == "li" && $0.attributes["id"] == "f-\(i)" && $0.offset > c.offset }
            })
        }
        // `*` in the size part: the preset's sizes, L and AX5.
        #expect(try card("nontext-contrast", "ring").attributes["data-dt"] == "L AX5")
        // dynamicTypeSizes narrows `*` to AX5.
        #expect(try card("target-size", "hit area").attributes["data-dt"] == "AX5")
        // The warning at L and at AX5 folds into one card holding both sizes.
        let warnings = cards.filter { $0.attributes["data-rule"] == "state-shape" && $0.attributes["data-preset"] == "alpha" }
        #expect(warnings.count == 1)
        #expect(warnings.first?.attributes["data-dt"] == "L AX5")
        #expect(warnings.first?.attributes["data-count"] == "2")
        // No card is exempt from the filter.
        #expect(cards.allSatisfy { ($0.attributes["data-dt"] ?? "*") != "*" && !($0.attributes["data-dt"] ?? "").isEmpty })
        #expect(cards.allSatisfy { ($0.attributes["data-theme"] ?? "*") != "*" })
    }

    @Test("contact-sheet outlines mark only the cells a finding covers, with every rule and severity for the filters")
    func outlines() throws {
        let report = Self.make()
        let tags = HTMLTags(report.html())
        // The AX5-only error outlines the AX5 cells, not the L ones.
        let ax5 = try Self.cell(tags, "alpha/square-md/AX5/default/checked@2x")
        #expect(ax5.attributes["class"]?.contains("flag-error") == true)
        #expect(Set((ax5.attributes["data-hits"] ?? "").split(separator: " ")) == ["target-size:error", "state-shape:warning"])
        let lChecked = try Self.cell(tags, "alpha/square-md/L/default/checked@2x")
        #expect(lChecked.attributes["class"] == "flag-warning", "only the state-shape warning covers it")
        #expect(lChecked.attributes["data-hits"] == "state-shape:warning")
        let lUnchecked = try Self.cell(tags, "alpha/square-md/L/default/unchecked@2x")
        #expect(lUnchecked.attributes["data-hits"] == "nontext-contrast:error")
        // beta's accepted finding does not outline; its info finding does (dotted).
        let betaOff = try Self.cell(tags, "beta/switch-md/L/default/off@2x")
        #expect(betaOff.attributes["data-hits"] == "target-size:info")
        #expect(betaOff.attributes["class"]?.contains("flag-info") == true)
    }

    @Test("within a preset, errors come first, then warnings, then info, whatever the rule order")
    func severityOrder() throws {
        let report = Self.make()
        let tags = HTMLTags(report.html())
        for preset in ["alpha", "beta"] {
            let severities = tags.all("article", where: { $0.attributes["data-preset"] == preset && $0.attributes["class"]?.hasPrefix("finding") == true })
                .compactMap { $0.attributes["data-severity"] }
            #expect(!severities.isEmpty)
            let ranks = severities.map { ["error": 0, "warning": 1, "info": 2][$0]! }
            #expect(ranks == ranks.sorted(), "\(preset): \(severities)")
        }
        // alpha: the state-shape warning (first rule) comes after the errors of later rules.
        let alpha = tags.all("section", where: { $0.attributes["class"] == "rule-group" }).map { "\($0.attributes["data-rule"] ?? ""):\($0.attributes["data-severity"] ?? "")" }
        #expect(alpha.prefix(3) == ["nontext-contrast:error", "target-size:error", "state-shape:warning"])
        // The overview's rule links still find a heading.
        #expect(tags.tags.contains { $0.name == "h4" && $0.attributes["id"] == "rule-state-shape" })
    }

    @Test("with --only preset=…, the overview and the preset filter list only the presets in the run")
    func onlyPresetsInRun() throws {
        var report = SampleReport.make()
        report.variants = report.variants.filter { $0.preset == "alpha" }
        report.findings = report.findings.filter { $0.preset == "alpha" }
        report.snapshots = nil
        let html = report.html()
        let tags = HTMLTags(html)
        #expect(tags.tags.contains { $0.name == "a" && $0.attributes["href"] == "#preset-alpha" })
        #expect(!tags.tags.contains { $0.name == "a" && $0.attributes["href"] == "#preset-beta" }, "no overview row for beta")
        #expect(html.contains("<option>alpha</option>") && !html.contains("<option>beta</option>"))
        #expect(html.contains("Not in this run (no variant selected): beta."))
        #expect(!SampleReport.make().html().contains("Not in this run"))
    }

    @Test("new and stale snapshots show what there is to see and what to do; their cells are marked")
    func newAndStaleSnapshots() throws {
        var report = SampleReport.make()
        let new = try #require(report.snapshots?.results.firstIndex { $0.status == .new })
        report.snapshots?.results[new].message = nil
        let html = report.html()
        let tags = HTMLTags(html)
        let articles = tags.all("article", where: { $0.attributes["class"] == "snapshot" })
        #expect(articles.count == 3, "changed, new, stale")
        let changed = try #require(report.snapshots?.results.filter { $0.status != .match })
        let newIndex = try #require(changed.firstIndex { $0.status == .new })
        let newStart = try #require(articles.first { $0.attributes["id"] == "s-\(newIndex)" }).offset
        let newEnd = articles.first { $0.offset > newStart }?.offset ?? Int.max
        // The render that would be recorded, at its point size.
        let render = try #require(tags.all("img").first { $0.offset > newStart && $0.offset < newEnd })
        #expect(render.attributes["src"] == "images/beta/switch-md/L/default/off@2x.png")
        #expect(render.attributes["width"] == "20" && render.attributes["height"] == "14")
        #expect(html.contains("record it with <code>glyphaudit check --record</code>"))
        #expect(html.contains("Delete it with <code>glyphaudit check --prune</code>"))
        // The cells of the new and the changed snapshot link to them; others have no badge.
        for (id, text) in [("beta/switch-md/L/default/off@2x", "snapshot new"), ("alpha/square-md/AX5/default/checked@2x", "snapshot changed")] as [(VariantID, String)] {
            let cell = try Self.cell(tags, id)
            #expect(cell.attributes["class"]?.contains("snap") == true, "\(id)")
            let n = try #require(changed.firstIndex { $0.id == id })
            #expect(html.contains("<a class=\"snap-badge\" href=\"#s-\(n)\">\(text)</a>"), "\(id)")
        }
        #expect(try Self.cell(tags, "alpha/square-md/L/default/unchecked@2x").attributes["class"]?.contains("snap") != true)
    }
}
