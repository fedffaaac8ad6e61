import Foundation
import GlyphCore
import GlyphPipeline
import GlyphSnapshot

/// Which baselines a snapshot assertion writes, as swift-snapshot-testing's `SnapshotTestingConfiguration.Record`.
/// A write is reported as an issue too, so that a test never passes while it records.
public enum SnapshotRecordMode: String, Sendable, CaseIterable {
    /// Writes every baseline that is missing or whose render differs by any pixel (no tolerance).
    case all
    /// Writes the baselines that are missing or fail the comparison (`glyphaudit check --record --update`).
    case failed
    /// Writes the baselines that are missing (`glyphaudit check --record`). The default.
    case missing
    /// Writes nothing (`glyphaudit check`). Forced under CI.
    case never

    /// The environment variable that sets the mode when the test does not (`GLYPHAUDIT_RECORD=failed swift test`).
    public static let environmentVariable = "GLYPHAUDIT_RECORD"

    /// The mode in force: `never` under CI (`CI` set to anything but empty, `false` or `0`, as
    /// `glyphaudit check`), else `given`, else `GLYPHAUDIT_RECORD`, else `missing`. An unknown
    /// value of the variable is bad input.
    public static func resolve(_ given: SnapshotRecordMode?,
                               environment: [String: String] = ProcessInfo.processInfo.environment) throws -> SnapshotRecordMode {
        if underCI(environment) { return .never }
        if let given { return given }
        guard let text = environment[environmentVariable], !text.isEmpty else { return .missing }
        guard let mode = SnapshotRecordMode(rawValue: text) else {
            throw InputError(file: environmentVariable, message: "takes \(allCases.map(\.rawValue).joined(separator: ", ")), got \"\(text)\"")
        }
        return mode
    }

    /// Whether `CI` is set as `glyphaudit check` reads it.
    public static func underCI(_ environment: [String: String]) -> Bool {
        guard let value = environment["CI"]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return false }
        return !["false", "0"].contains(value.lowercased())
    }

    var writes: SnapshotWrites {
        switch self {
        case .all, .failed: [.record, .update]
        case .missing: [.record]
        case .never: []
        }
    }
}

/// The snapshot check behind `expectSnapshots` and `XCTAssertSnapshots`, without a test framework.
public enum GlyphSnapshotCheck {
    /// Renders `spec` and compares each variant with its baseline in `snapshots` (the layout of
    /// `glyphaudit check --snapshots`; relative to the test file's folder), through `Pipeline.run`
    /// and `SnapshotChecker`, writing what `record` allows (`SnapshotRecordMode.resolve`). Returns the
    /// report and one issue per result that fails the check or was written, with the baseline
    /// (`<variant>.expected.png`), the render (`.actual.png`), the difference (`.diff.png`) and the
    /// three side by side (`.sidebyside.png`) attached where they exist. Stale baselines are not issues.
    public static func check(_ spec: GlyphSpec, snapshots: String, record: SnapshotRecordMode? = nil,
                             options: SnapshotOptions = SnapshotOptions(), only: [String] = [],
                             environment: [String: String] = ProcessInfo.processInfo.environment,
                             filePath: String = #filePath) throws -> (report: SnapshotReport, issues: [GlyphAuditIssue]) {
        let mode = try SnapshotRecordMode.resolve(record, environment: environment)
        let plan = try plan(try spec.load(relativeTo: filePath), only: only)
        let root = GlyphSpec.resolve(snapshots, relativeTo: filePath)
        var options = options
        if mode == .all {
            // Every pixel counts: no threshold, anti-aliasing included, no gate.
            options = SnapshotOptions(pixelmatch: options.pixelmatch, exactThreshold: 0)
            options.pixelmatch.threshold = 0
            options.pixelmatch.includeAA = true
        }
        return try withScratchFolder { folder in
            let checker = try SnapshotChecker.fingerprinted(
                store: SnapshotStore(root: root), output: folder.appendingPathComponent("out"), options: options,
                writes: mode.writes, staleScope: .specFolders, newSnapshots: folder.appendingPathComponent("new"),
                cwd: root.deletingLastPathComponent())
            defer { checker.lock?.release(removeFile: false) }
            let report = try Pipeline.run(plan, PipelineOptions(snapshots: checker)).snapshots!
            let modeText = mode == .never && SnapshotRecordMode.underCI(environment) ? "never: CI is set" : mode.rawValue
            var issues = report.results.compactMap { issue($0, mode: modeText) }
            if let e = report.fingerprintError { issues.append(GlyphAuditIssue(message: e)) }
            return (report, issues)
        }
    }

    /// The issue for one result, nil for a match or a stale baseline.
    static func issue(_ r: SnapshotResult, mode: String) -> GlyphAuditIssue? {
        var message: String
        switch r.status {
        case .match, .stale:
            guard let e = r.writeError else { return nil }
            return GlyphAuditIssue(message: "\(r.id): \(e)", snapshot: r)
        case .mismatch:
            message = r.action == .updated
                ? "snapshot \(r.id) rewritten (record mode \(mode)): \(r.differenceSummary ?? ""); \(r.baseline) now holds the render: run the test again to check it"
                : "snapshot \(r.id) does not match \(r.baseline): \(r.differenceSummary ?? "")"
        case .new:
            message = r.action == .recorded
                ? "snapshot \(r.id) recorded (record mode \(mode)): wrote \(r.baseline); run the test again to check against it"
                : "snapshot \(r.id) has no baseline at \(r.baseline) (record mode \(mode); "
                    + "outside CI, record mode `missing` records it)"
        case .unreadable:
            message = "snapshot \(r.id): unreadable baseline \(r.baseline): \(r.message ?? "?") (delete it and record it again)"
        }
        if let e = r.writeError { message += "; FAILED: \(e)" }
        // Named after the variant, as `<preset>_<component>_…@2x.expected.png`, so a test's many pictures tell apart.
        let stem = r.id.description.replacingOccurrences(of: "/", with: "_")
        var pictures: [GlyphAuditAttachment?] = []
        switch r.status {
        case .mismatch:
            // The baseline as it was compared: rewritten under `failed`/`all`, so the side-by-side holds it then.
            if r.action != .updated { pictures.append(.file(r.baseline, name: "\(stem).expected.png")) }
            if let o = r.outputs {
                pictures += [.file(o.actual, name: "\(stem).actual.png"), .file(o.diff, name: "\(stem).diff.png"),
                             .file(o.sideBySide, name: "\(stem).sidebyside.png")]
            }
        case .new:
            pictures.append(.file(r.action == .recorded ? r.baseline : r.newRender ?? "", name: "\(stem).actual.png"))
        default:
            break
        }
        return GlyphAuditIssue(message: message, snapshot: r, attachments: pictures.compactMap { $0 })
    }
}
