import Foundation
import Testing
@testable import GlyphAudit
@testable import GlyphCore
@testable import GlyphPipeline

// An audit cache entry is read by JSONReader (its numbers) and JSONDecoder (its findings, when there
// are any); it must read what JSONDecoder reads from the same bytes.
@Suite("Reading audit cache entries")
struct AuditCacheEntryTests {
    func bytes(_ e: AuditCache.Entry) throws -> Data { try JSONOutput.data(e) }

    @Test("entries with and without findings, numbers and inks read as JSONDecoder reads them")
    func sameAsDecoder() throws {
        let finding = Finding(rule: "nontext-contrast", severity: .error, criterion: "1.4.11", variant: VariantID(parsing: "p/square-md/*/default/checked@*"),
                              subject: "border", message: "border \"#767676\" on #FFFFFF is 2.9:1", numbers: ["ratio": 2.9, "required": 3],
                              values: ["foreground": "#767676"], sizes: [.large, .accessibility5])
        let entries = [
            AuditCache.Entry(findings: [finding], evidence: true, margins: ["v@1x": ["contrast.border": 2.9, "target-size": -1.5e-3]],
                             inks: ["v@1x": [0.25, 1, 1e10]]),
            AuditCache.Entry(findings: [], evidence: false, margins: ["v@1x": [:], "w@2x": ["a": 0]], inks: [:]),
            AuditCache.Entry(findings: [], evidence: false, margins: nil, inks: nil),
        ]
        for entry in entries {
            let data = try bytes(entry)
            let parsed = try #require(AuditCache.Entry.parse(data))
            let decoded = try JSONDecoder().decode(AuditCache.Entry.self, from: data)
            #expect(try bytes(parsed) == bytes(decoded))
            #expect(try bytes(parsed) == data)
        }
    }

    @Test("a file of another shape is not read by the parser (JSONDecoder decides)")
    func otherShapes() {
        for text in [#"{"findings": [], "evidence": 1}"#, #"{"findings": {}, "evidence": true}"#,
                     #"{"findings": [], "evidence": true, "inks": {"v": ["x"]}}"#, #"{"findings": [], "evidence": true, "margins": {"v": 1}}"#, "[]", "{"] {
            #expect(AuditCache.Entry.parse(Data(text.utf8)) == nil, "\(text)")
        }
    }
}
