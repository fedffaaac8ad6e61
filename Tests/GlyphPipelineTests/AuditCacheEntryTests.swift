import Foundation
import Testing
@testable import GlyphAudit
@testable import GlyphCore
@testable import GlyphPipeline

// An audit cache entry is written as lines of text (AuditCache.Entry.fileData) and read back by
// AuditCache.Entry.parse: the numbers bit for bit, the findings as JSON. Anything else — another
// version, a cut or edited file — reads as no entry, and the group is drawn again.
@Suite("Audit cache entries")
struct AuditCacheEntryTests {
    static var finding: Finding {
        Finding(rule: "nontext-contrast", severity: .error, criterion: "1.4.11", variant: VariantID(parsing: "p/square-md/*/default/checked@*"),
                subject: "border", message: "border \"#767676\" on #FFFFFF is 2.9:1\nsecond line", numbers: ["ratio": 2.9, "required": 3],
                values: ["foreground": "#767676"], sizes: [.large, .accessibility5])
    }

    static let entries = [
        AuditCache.Entry(findings: [finding, finding], evidence: true,
                         margins: ["v@1x": ["contrast.border": 2.9, "target-size": -1.5e-3], "w \"q\"/é@2x": ["target-size": 0.1 + 0.2],
                                   "x@3x": [:]],
                         inks: ["v@1x": [0.25, 1, 1e10, -0.0, .leastNonzeroMagnitude], "w@2x": []]),
        AuditCache.Entry(findings: [], evidence: false, margins: ["v@1x": [:], "w@2x": ["a": 0]], inks: [:]),
        AuditCache.Entry(findings: [], evidence: false, margins: [:], inks: nil),
        AuditCache.Entry(findings: [], evidence: false, margins: nil, inks: nil),
    ]

    /// The entry's content, compared bit for bit.
    static func same(_ a: AuditCache.Entry, _ b: AuditCache.Entry) -> Bool {
        func bits(_ m: [String: AuditNumbers]?) -> [String: [String: UInt64]]? { m?.mapValues { $0.table.mapValues(\.bitPattern) } }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let findings = try? encoder.encode(a.findings) == encoder.encode(b.findings)
        return findings == true && a.evidence == b.evidence && bits(a.margins) == bits(b.margins)
            && a.inks?.mapValues { $0.map(\.bitPattern) } == b.inks?.mapValues { $0.map(\.bitPattern) }
    }

    @Test("each entry reads back as written, numbers bit for bit; the same entry gives the same bytes")
    func roundTrip() throws {
        for entry in Self.entries {
            let data = try entry.fileData()
            let parsed = try #require(AuditCache.Entry.parse(data))
            #expect(Self.same(parsed, entry))
            #expect(try parsed.fileData() == data)
        }
        // The layout, for the first: numbers by name, `-` where a variant has none.
        let text = String(decoding: try Self.entries[0].fileData(), as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[0] == "glyphaudit audit cache entry 3" && lines[1] == "evidence true")
        #expect(lines[2] == #"names ["contrast.border","target-size"]"#)
        #expect(lines[3] == #"margins ["v@1x","w \"q\"/é@2x","x@3x"]"#)
        #expect(lines[4] == "4007333333333333 bf589374bc6a7efa")  // 2.9 and -0.0015
        #expect(lines[5] == "- 3fd3333333333334")                // 0.30000000000000004
        #expect(lines[6] == "- -")
    }

    @Test("a file cut short, edited or of another version reads as no entry")
    func otherFiles() throws {
        let data = try Self.entries[0].fileData()
        let text = String(decoding: data, as: UTF8.self)
        var bad = (1..<data.count).map { Data(data.prefix($0)) }
        bad += [
            text.replacingOccurrences(of: "entry 3", with: "entry 2"),
            text.replacingOccurrences(of: "evidence true", with: "evidence yes"),
            text.replacingOccurrences(of: "4007333333333333", with: "400733333333333g"),
            text.replacingOccurrences(of: "4007333333333333 ", with: "4007333333333333  "),
            text.replacingOccurrences(of: "- -\n", with: "-\n"),
            text.replacingOccurrences(of: #"names ["contrast.border","target-size"]"#, with: #"names ["target-size","contrast.border"]"#),
            text.replacingOccurrences(of: "7ff0000000000000", with: "7ff0000000000000") + "extra\n",
            text.replacingOccurrences(of: "4007333333333333", with: "7ff0000000000000"),  // infinity
            #"{"findings": [], "evidence": true}"#,
        ].map { Data($0.utf8) }
        for b in bad { #expect(AuditCache.Entry.parse(b) == nil, "\(String(decoding: b, as: UTF8.self))") }
    }
}
