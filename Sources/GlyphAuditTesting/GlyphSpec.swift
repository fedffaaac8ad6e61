import Foundation
import GlyphAudit
import GlyphCore
import GlyphRender
import GlyphSnapshot

/// The spec a test audits or snapshot-checks: a spec file, a built-in preset, or a `Spec` value.
public enum GlyphSpec: Sendable {
    /// A spec file; a relative path is relative to the folder of the test file that calls the helper
    /// (so the test works from any working folder, as under Xcode).
    case file(String)
    /// A built-in preset (`glyphaudit presets` lists them): `swiftui-checkbox`, …
    case preset(String)
    /// A spec already loaded (`Spec.load(contentsOf:)`) or built in code.
    case spec(Spec)

    /// The spec, loaded: bad input (a missing file, a bad key, an unknown preset) throws the
    /// `InputError` the command line would print.
    public func load(relativeTo filePath: String) throws -> Spec {
        switch self {
        case .spec(let spec):
            return spec
        case .preset(let name):
            guard Presets.names.contains(name) else {
                throw InputError(file: name, message: "unknown preset \"\(name)\"; built-in presets: \(Presets.names.joined(separator: ", "))")
            }
            return try Presets.load(name)
        case .file(let path):
            return try Spec.load(contentsOf: GlyphSpec.resolve(path, relativeTo: filePath))
        }
    }

    /// `path` as is when absolute, else relative to the folder of `filePath` (a test file's `#filePath`).
    static func resolve(_ path: String, relativeTo filePath: String) -> URL {
        if path.hasPrefix("/") { return URL(fileURLWithPath: path) }
        return URL(fileURLWithPath: filePath).deletingLastPathComponent().appendingPathComponent(path).standardizedFileURL
    }
}

/// The variants of `spec` the helpers work on, with `--only` filters (`theme=dark`, `scale=2`, …).
func plan(_ spec: Spec, only: [String]) throws -> Plan {
    var filter = VariantFilter()
    for text in only {
        do { try filter.add(text) } catch { throw InputError(file: "only", message: "\(text): \(error.message)") }
    }
    let plan = try Plan(specs: [spec], filter: filter)
    if plan.items.isEmpty {
        throw InputError(file: "only", message: "no variant matches \(only.joined(separator: " ")) (\(plan.total) variants before filtering)")
    }
    return plan
}

/// One problem a helper reports: an issue's message, the finding or snapshot result behind it, and
/// the pictures to attach (file name and PNG bytes).
public struct GlyphAuditIssue: Sendable {
    public var message: String
    /// The audit finding, for an audit issue.
    public var finding: Finding?
    /// The snapshot result, for a snapshot issue.
    public var snapshot: SnapshotResult?
    public var attachments: [GlyphAuditAttachment]

    public init(message: String, finding: Finding? = nil, snapshot: SnapshotResult? = nil, attachments: [GlyphAuditAttachment] = []) {
        self.message = message
        self.finding = finding
        self.snapshot = snapshot
        self.attachments = attachments
    }
}

/// A picture to attach to an issue.
public struct GlyphAuditAttachment: Sendable, Equatable {
    public var name: String
    public var bytes: [UInt8]

    public init(name: String, bytes: [UInt8]) {
        self.name = name
        self.bytes = bytes
    }

    /// The file at `path`, under `name`; nil when it cannot be read.
    static func file(_ path: String, name: String) -> GlyphAuditAttachment? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return GlyphAuditAttachment(name: name, bytes: Array(data))
    }
}

/// A temporary folder for the pictures a helper attaches, removed when the helper returns.
func withScratchFolder<T>(_ body: (URL) throws -> T) throws -> T {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("glyphaudit-testing-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: url) }
    return try body(url)
}
