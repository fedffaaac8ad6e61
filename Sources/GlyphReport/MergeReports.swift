import Foundation
import GlyphAudit
import GlyphCore
import GlyphSnapshot

extension RunReport {
    /// Merges the reports of the shards of one run into the report of the whole run. Refuses
    /// reports of different runs, overlapping shards, and an incomplete set.
    public static func merge(_ parts: [(report: RunReport, file: String)]) throws(InputError) -> RunReport {
        guard var merged = parts.first?.report, let firstFile = parts.first?.file else {
            throw InputError(file: "merge-reports", message: "no reports to merge")
        }
        // One run: the same tool, fail level, presets, selection, rules and snapshots.
        for (report, file) in parts.dropFirst() {
            var differ: [String] = []
            if report.tool != merged.tool { differ.append("tool (\(report.tool) vs \(merged.tool))") }
            if report.failOn != merged.failOn { differ.append("--fail-on (\(report.failOn) vs \(merged.failOn))") }
            if report.presets != merged.presets {
                differ.append("presets (\(report.presets.map(\.name).joined(separator: ", ")) vs \(merged.presets.map(\.name).joined(separator: ", ")))")
            }
            if report.filter != merged.filter { differ.append("--only (\(report.filter ?? "none") vs \(merged.filter ?? "none"))") }
            if report.selected != merged.selected { differ.append("selected variants (\(report.selected) vs \(merged.selected))") }
            // `margin` is a rule of a shard that compared margins with its folder's manifest (one
            // shard may have recorded the manifest before another ran): not part of the comparison.
            if report.rules.filter({ $0.id != MarginRule.ruleID }) != merged.rules.filter({ $0.id != MarginRule.ruleID }) {
                differ.append("rules or their configuration")
            }
            if let margin = report.rules.first(where: { $0.id == MarginRule.ruleID }), !merged.rules.contains(where: { $0.id == MarginRule.ruleID }) {
                merged.rules.append(margin)
            }
            if report.snapshots?.folder != merged.snapshots?.folder {
                differ.append("snapshots (\(report.snapshots?.folder ?? "not checked") vs \(merged.snapshots?.folder ?? "not checked"))")
            }
            if !differ.isEmpty {
                throw InputError(file: file, message: "this report is of another run than \(firstFile): "
                                 + differ.joined(separator: "; ") + " differ")
            }
        }
        try checkShards(parts)
        merged.shard = nil
        var seen: [Int: String] = [:]
        for v in merged.variants { seen[v.index] = firstFile }
        for (report, file) in parts.dropFirst() {
            for v in report.variants {
                if let other = seen[v.index] {
                    throw InputError(file: file, message: "variant \(v.id) is also in \(other); shards overlap")
                }
                seen[v.index] = file
            }
            merged.variants += report.variants
            merged.findings += report.findings
            // The shards read the same inputs; a file that differs between them is another run.
            if let inputs = report.inputs {
                var known = Dictionary((merged.inputs ?? []).map { ($0.path, $0.sha256) }, uniquingKeysWith: { a, _ in a })
                for i in inputs {
                    if let d = known[i.path], d != i.sha256 {
                        throw InputError(file: file, keyPath: "inputs", message: "\(i.path) has another SHA-256 than in \(firstFile); "
                                         + "the shards read different inputs")
                    }
                    known[i.path] = i.sha256
                }
                merged.inputs = known.map { InputRecord(path: $0.key, sha256: $0.value) }
            }
            if let groups = report.snapshotGroups { merged.snapshotGroups = (merged.snapshotGroups ?? []) + groups }
            switch (merged.snapshots, report.snapshots) {
            case (nil, nil): break
            case (var a?, let b?):
                a.results += b.results
                a.candidates = a.candidates ?? b.candidates
                if let m = b.manifest { a.manifest = SnapshotSection.ManifestRecord(keys: (a.manifest?.keys ?? [:]).merging(m.keys) { x, _ in x },
                                                                                  renderer: a.manifest?.renderer ?? m.renderer) }
                merged.snapshots = a
            default:
                throw InputError(file: file, message: "one report checked snapshots and another did not")
            }
            if let groups = report.snapshotGroups { merged.snapshotGroups = SnapshotGroup.merge(merged.snapshotGroups ?? [], groups) }
        }
        // The shards' times add up (a shard that was not timed adds nothing).
        let timed = parts.compactMap(\.report.timings)
        merged.timings = timed.isEmpty ? nil : PresetTiming.merge(timed)
        guard seen.count == merged.selected else {
            throw InputError(file: "merge-reports", message: "the reports hold \(seen.count) of the run's \(merged.selected) variants; a shard is missing")
        }
        merged.canonicalize()
        return merged
    }

    /// Shard reports must be the shards 1…N of one N, each once. An empty shard (more shards than
    /// presets) holds no variant, so only its `shard` tells that it is missing or doubled.
    /// How many missing shards the message names before "and N more".
    static let missingListed = 10

    static func checkShards(_ parts: [(report: RunReport, file: String)]) throws(InputError) {
        guard parts.contains(where: { $0.report.shard != nil }) else { return }
        var count: (n: Int, file: String)?
        var byIndex: [Int: String] = [:]
        for (report, file) in parts {
            guard let text = report.shard else {
                throw InputError(file: file, message: "this report is of a whole run, not of a --shard run; merge the shards of one run")
            }
            guard let shard = Shard(text) else {
                throw InputError(file: file, keyPath: "shard", message: "\"\(text)\" is not I/N")
            }
            if let count, count.n != shard.count {
                throw InputError(file: file, message: "this is shard \(text), but \(count.file) is one of \(count.n) shards; "
                                 + "merge the shards of one run")
            }
            if count == nil { count = (shard.count, file) }
            if let other = byIndex[shard.index] {
                throw InputError(file: file, message: "shard \(text) is given twice (also \(other))")
            }
            byIndex[shard.index] = file
        }
        guard let n = count?.n, byIndex.count < n else { return }
        // N comes from a report: only the first few missing shards are looked for and named, so
        // the work does not grow with N (a report may say it is shard 1 of 2^63 - 1).
        let total = n - byIndex.count
        var missing: [String] = []
        var i = 1
        while missing.count < min(total, missingListed) {
            if byIndex[i] == nil { missing.append("\(i)/\(n)") }
            i += 1
        }
        let more = total > missing.count ? " and \(total - missing.count) more" : ""
        throw InputError(file: "merge-reports", message: "shard\(total == 1 ? "" : "s") \(missing.joined(separator: ", "))\(more) "
                         + "\(total == 1 ? "is" : "are") missing; name the --report folders of all \(n) shards")
    }

    /// Every file (picture) a report refers to, relative to its folder.
    public var referencedFiles: [String] { pictureReferences.map(\.path) }

    /// Every picture a report refers to, with the key that names it (`variants[3].image`), in
    /// the report's order.
    public var pictureReferences: [(keyPath: String, path: String)] {
        var refs: [(keyPath: String, path: String)] = []
        for (i, v) in variants.enumerated() { if let p = v.image { refs.append(("variants[\(i)].image", p)) } }
        for (i, f) in findings.enumerated() { if let p = f.picturePath { refs.append(("findings[\(i)].evidence", p)) } }
        for (i, r) in (snapshots?.results ?? []).enumerated() {
            for (key, p) in [("expected", r.expected), ("actual", r.actual), ("diff", r.diff), ("sideBySide", r.sideBySide),
                             ("candidate", r.candidate)] {
                if let p { refs.append(("snapshots.results[\(i)].\(key)", p)) }
            }
        }
        return refs
    }

    /// The @2x variants without a contact-sheet picture: a run whose `--formats` left out html writes
    /// none (a `--shard` run always writes them, so its shards merge into a whole HTML report).
    public var picturesMissing: Int {
        variants.filter { $0.scale == 2 && $0.image == nil }.count
    }
}
