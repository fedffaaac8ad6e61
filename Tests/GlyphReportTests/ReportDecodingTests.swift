import Foundation
import Testing
import GlyphTestSupport
@testable import GlyphCore
@testable import GlyphReport

/// report.json read piece by piece (reproducer 21, Tests/Fixtures/bad-input/21-…): the same report
/// as Foundation's whole-file decode, unknown keys skipped but checked to be JSON, errors at their key.
@Suite("report.json decoded piece by piece (reproducer 21)")
struct ReportDecodingTests {
    static func encoded(_ r: RunReport) throws -> String {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .prettyPrinted]
        return String(decoding: try e.encode(r), as: UTF8.self)
    }

    static func read(_ text: String) throws(InputError) -> RunReport {
        let f = TempFolder()
        f.write("report.json", text)
        return try RunReport.read(f.url.appendingPathComponent("report.json"))
    }

    @Test("the sample report (variants, findings, snapshots) reads back equal to what was written, padded or not")
    func roundTrip() throws {
        let report = SampleReport.make(shard: "1/2")
        let text = try Self.encoded(report)
        #expect(try Self.read(text) == report)
        // The repro's padding, 100,000 values under an unknown top-level key, and unknown keys in
        // `snapshots` and in elements: skipped, as JSONDecoder skips them.
        let pad = "[" + Array(repeating: #"{"a": [1, 2.5e-3, -0, "x\u00e9\n", true, false, null]}"#, count: 14_000).joined(separator: ",") + "]"
        let padded = "{\"zpad\": \(pad)," + text.dropFirst()
        #expect(try Self.read(padded) == report)
        var object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        var snapshots = try #require(object["snapshots"] as? [String: Any])
        snapshots["extra"] = ["deep": [[1]]]
        object["snapshots"] = snapshots
        var variants = try #require(object["variants"] as? [[String: Any]])
        variants[0]["extra"] = "ignored"
        object["variants"] = variants
        let extra = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
        #expect(try Self.read(extra) == report)
        #expect(try JSONDecoder().decode(RunReport.self, from: Data(extra.utf8)) == report, "as Foundation reads it")
    }

    @Test("a skipped value that is not strict JSON is refused, naming the byte (Foundation accepted [01], [1.], a bad escape, a raw tab); a bad element names its key path")
    func errors() throws {
        let text = try Self.encoded(SampleReport.make(shard: "1/2"))
        for bad in [#"[1,,2]"#, #"[01]"#, #"{"a" 1}"#, "\"tab\t\"", #"[tru]"#, #"[1.]"#, #""\x""#] {
            do {
                _ = try Self.read("{\"zpad\": \(bad)," + text.dropFirst())
                Issue.record("accepted \(bad)")
            } catch {
                #expect(error.message.hasPrefix("not a glyphaudit report: "), "\(bad): \(error)")
            }
        }
        do { _ = try Self.read("{\"zpad\": [01]," + text.dropFirst()); Issue.record("accepted") } catch {
            #expect(error.keyPath == nil && error.message == "not a glyphaudit report: not valid JSON (at byte offset 11)", "\(error)")
        }
        do { _ = try Self.read(" [] "); Issue.record("accepted") } catch {
            #expect(error.message == "not a glyphaudit report: the file is JSON but not an object", "\(error)")
        }
        // One element past 16 MiB is refused before it is decoded (its tree would be ~15 times that).
        let big = try #require(text.range(of: "\"variants\" : [\n"))
        let huge = String(repeating: "x", count: Limits.jsonFileBytes)
        do { _ = try Self.read(String(text[..<big.upperBound]) + "{\"zpad\": \"\(huge)\"}, " + text[big.upperBound...]); Issue.record("accepted") } catch {
            #expect(error.keyPath == "variants[0]" && error.message == "one element is \(Limits.jsonFileBytes + 12) bytes; the limit is 16 MiB (docs/limits.md)",
                    "\(error.keyPath ?? "-"): \(error.message.prefix(200))")
        }
        var object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        var variants = try #require(object["variants"] as? [[String: Any]])
        variants[2]["index"] = "two"
        object["variants"] = variants
        var snapshots = try #require(object["snapshots"] as? [String: Any])
        var results = try #require(snapshots["results"] as? [[String: Any]])
        results[1]["failed"] = "no"
        snapshots["results"] = results
        let badVariant = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
        #expect(throws: InputError.self) { try Self.read(badVariant) }
        do { _ = try Self.read(badVariant) } catch {
            #expect(error.keyPath == "variants[2].index" && error.message == "not a glyphaudit report: expected a number here", "\(error)")
        }
        object["variants"] = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])["variants"]
        object["snapshots"] = snapshots
        let badResult = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
        do { _ = try Self.read(badResult); Issue.record("accepted") } catch {
            #expect(error.keyPath == "snapshots.results[1].failed" && error.message == "not a glyphaudit report: expected true or false here", "\(error)")
        }
    }
}
