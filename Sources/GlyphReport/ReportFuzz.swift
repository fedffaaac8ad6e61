import Foundation
import GlyphCore

extension RunReport {
    /// The `report` fuzz target (Sources/glyphfuzz): what `merge-reports` does with a shard's
    /// `report.json` it did not write, in memory. The bytes are decoded as `read` decodes them; a
    /// report that decodes is merged with itself (two shards of one run: refused as overlapping, or
    /// merged when it holds no variant), its picture references checked as `merge-reports` checks them
    /// before copying, and every format written to memory.
    public static func fuzz(_ data: Data) {
        guard let report = try? decode(data, file: "fuzz/report.json") else { return }
        for ref in report.pictureReferences { _ = Beneath.problem(ref.path) }
        var merged = (try? merge([(report, "a/report.json"), (report, "b/report.json")])) ?? report
        merged.canonicalize()
        _ = try? merged.jsonData()
        _ = merged.html()
        _ = merged.junitXML()
        _ = try? merged.sarifData()
        _ = merged.markdown()
    }
}
