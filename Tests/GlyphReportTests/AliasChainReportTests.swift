import Foundation
import Testing
@testable import GlyphAudit
@testable import GlyphCore
@testable import GlyphReport

// A finding whose colour came through token aliases, in the reports: SARIF locates it at the token
// the spec names, with the spec key and the rest of the chain as related locations and a fix that
// sets that token; the text and the HTML page show the chain with the line of each token.

@Suite("Reports: a colour's token alias chain")
struct AliasChainReportTests {
    /// A token file whose lines are known: `light.fgColor.disabled` names `base.neutral.8` on line 4,
    /// which holds the value on line 2.
    static let tokens = """
    {
      "base": { "$type": "color", "neutral": { "8": { "$value": "#818B98" } } },
      "light": { "$type": "color", "fgColor": {
        "disabled": { "$value": "{base.neutral.8}" } } }
    }
    """

    static func report(tokenFile: String) -> RunReport {
        var r = SampleReport.make()
        let location = FindingLocation(file: "specs/alpha.json", line: 44, keyPath: "themes.disabled.label", token: "{light.fgColor.disabled}",
                                       tokenFile: tokenFile, tokenLine: 4,
                                       aliasChain: [.init(token: "{light.fgColor.disabled}", line: 4), .init(token: "{base.neutral.8}", line: 2)],
                                       aliasValue: "#818B98")
        var f = Finding(rule: "nontext-contrast", severity: .error, criterion: "1.4.11", variant: "alpha/square-md/*/default/unchecked@2x",
                        subject: "label", message: "label #818B98 on #FFFFFF is 3.45:1, needs 4.5:1", location: location)
        f.suggestion = ColorFix(part: "label", from: "#818B98", to: "#6D7683", background: "#FFFFFF", ratio: 4.59, required: 4.5,
                                token: "{light.fgColor.disabled}", keyPath: "themes.disabled.label")
        r.findings = [f]
        return r
    }

    @Test("SARIF: the result is at the named token's line; related locations are the spec key and each further token; the fix sets the named token")
    func sarif() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("glyphaudit-chain-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let tokenFile = folder.appendingPathComponent("primer.tokens.json").path
        try Data(Self.tokens.utf8).write(to: URL(fileURLWithPath: tokenFile))
        let log = try #require(try JSONSerialization.jsonObject(with: Self.report(tokenFile: tokenFile).sarifData()) as? [String: Any])
        let result = try #require(((log["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])?.first)
        Self.checkKeys(result, "result")

        let physical = try #require((result["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])
        #expect((physical["artifactLocation"] as? [String: Any])?["uri"] as? String == "file://" + tokenFile)
        #expect((physical["region"] as? [String: Any])?["startLine"] as? Int == 4, "the token the spec names, not line 2")

        let related = try #require(result["relatedLocations"] as? [[String: Any]])
        #expect(related.count == 2)
        for r in related { Self.checkKeys(r, "location") }
        func place(_ r: [String: Any]) -> (String?, Int?, String?) {
            let p = r["physicalLocation"] as? [String: Any]
            return ((p?["artifactLocation"] as? [String: Any])?["uri"] as? String, (p?["region"] as? [String: Any])?["startLine"] as? Int,
                    (r["message"] as? [String: Any])?["text"] as? String)
        }
        #expect(related.map { $0["id"] as? Int } == [0, 1])
        let spec = place(related[0]), step = place(related[1])
        #expect(spec.0 == "specs/alpha.json" && spec.1 == 44 && spec.2 == "themes.disabled.label: {light.fgColor.disabled}")
        #expect(step.0 == "file://" + tokenFile && step.1 == 2 && step.2 == "{light.fgColor.disabled} → {base.neutral.8} → #818B98")

        // The fix replaces the alias the named token holds (line 4) with the suggested colour.
        let change = try #require(((result["fixes"] as? [[String: Any]])?.first?["artifactChanges"] as? [[String: Any]])?.first)
        let replacement = try #require((change["replacements"] as? [[String: Any]])?.first)
        let region = try #require(replacement["deletedRegion"] as? [String: Any])
        let line4 = Self.tokens.split(separator: "\n", omittingEmptySubsequences: false)[3]
        let column = line4.utf16.distance(from: line4.startIndex, to: line4.range(of: "{base.neutral.8}")!.lowerBound) + 1
        #expect(region["startLine"] as? Int == 4 && region["startColumn"] as? Int == column
                && region["endColumn"] as? Int == column + "{base.neutral.8}".utf16.count, "\(region)")
        #expect((replacement["insertedContent"] as? [String: Any])?["text"] as? String == "#6D7683")
    }

    @Test("SARIF: findings without a chain have no related locations")
    func sarifWithoutChain() throws {
        let log = try #require(try JSONSerialization.jsonObject(with: SampleReport.make().sarifData()) as? [String: Any])
        let results = try #require((log["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])
        #expect(!results.isEmpty && results.allSatisfy { $0["relatedLocations"] == nil })
    }

    @Test("HTML: the source line shows the chain, each token with its line, and the colour")
    func html() {
        let page = Self.report(tokenFile: "tokens/primer.tokens.json").html()
        #expect(page.contains("Source: <code>specs/alpha.json:44 (themes.disabled.label) · token {light.fgColor.disabled} in "
                              + "tokens/primer.tokens.json:4 → {base.neutral.8} (primer.tokens.json:2) → #818B98</code>"))
    }

    /// The keys SARIF 2.1.0 allows on the objects this suite reads.
    static func checkKeys(_ object: [String: Any], _ kind: String) {
        let allowed: [String: Set<String>] = [
            "result": ["ruleId", "ruleIndex", "rule", "kind", "level", "message", "analysisTarget", "locations", "guid", "correlationGuid",
                       "occurrenceCount", "partialFingerprints", "fingerprints", "stacks", "codeFlows", "graphs", "graphTraversals",
                       "relatedLocations", "suppressions", "baselineState", "rank", "attachments", "hostedViewerUri", "workItemUris",
                       "provenance", "fixes", "taxa", "webRequest", "webResponse", "properties"],
            "location": ["id", "physicalLocation", "logicalLocations", "message", "annotations", "relationships", "properties"],
        ]
        #expect(Set(object.keys).isSubset(of: allowed[kind]!), "\(kind): \(object.keys.sorted())")
    }
}
