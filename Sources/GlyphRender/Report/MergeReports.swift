import Foundation

extension RunReport {
    /// Merges the reports of the shards of one run into the report of the whole run. Refuses
    /// reports of different runs, overlapping shards, and an incomplete set.
    public static func merge(_ parts: [(report: RunReport, file: String)]) throws(InputError) -> RunReport {
        guard var merged = parts.first?.report, let firstFile = parts.first?.file else {
            throw InputError(file: "merge-reports", message: "no reports to merge")
        }
        merged.shard = nil
        var seen: [Int: String] = [:]
        for v in merged.variants { seen[v.index] = firstFile }
        for (report, file) in parts.dropFirst() {
            guard report.tool == merged.tool, report.failOn == merged.failOn, report.selected == merged.selected,
                  report.presets == merged.presets, report.rules == merged.rules else {
                throw InputError(file: file, message: "this report is of another run than \(firstFile) (tool, fail level, presets, selection or rules differ)")
            }
            for v in report.variants {
                if let other = seen[v.index] {
                    throw InputError(file: file, message: "variant \(v.id) is also in \(other); shards overlap")
                }
                seen[v.index] = file
            }
            merged.variants += report.variants
            merged.findings += report.findings
            switch (merged.snapshots, report.snapshots) {
            case (nil, nil): break
            case (var a?, let b?):
                a.results += b.results
                merged.snapshots = a
            default:
                throw InputError(file: file, message: "one report checked snapshots and another did not")
            }
        }
        guard seen.count == merged.selected else {
            throw InputError(file: "merge-reports", message: "the reports hold \(seen.count) of the run's \(merged.selected) variants; a shard is missing")
        }
        merged.canonicalize()
        return merged
    }

    /// Every file (picture) a report refers to, relative to its folder.
    public var referencedFiles: [String] {
        variants.compactMap(\.image) + findings.compactMap(\.evidence)
            + (snapshots?.results ?? []).flatMap { [$0.expected, $0.actual, $0.diff].compactMap { $0 } }
    }
}
