import Foundation

/// The assets compiled into the tool (see scripts/embed-assets), read like files under `Assets/`.
public struct BuiltinSource: AssetSource {
    public init() {}
    public func data(at path: String) -> Data? { EmbeddedAssets.files[path].map { Data($0.utf8) } }
    public func fileURL(at path: String) -> URL? { nil }
    public func displayName(_ path: String) -> String { path }
    public func resolve(_ relative: String, from: String) -> String {
        var parts = from.split(separator: "/").dropLast().map(String.init)
        for part in relative.split(separator: "/") {
            if part == ".." { _ = parts.popLast() } else if part != "." { parts.append(String(part)) }
        }
        return parts.joined(separator: "/")
    }
}

/// The four built-in presets, one per seed document.
public enum Presets {
    public static let names = ["swiftui-checkbox", "swiftui-switch", "design-system-checkbox", "rvs-checkbox"]

    public static func path(_ name: String) -> String { "Assets/presets/\(name).json" }

    /// The preset's spec file as shipped.
    public static func source(_ name: String) -> String? { EmbeddedAssets.files[path(name)] }

    public static func load(_ name: String) throws(InputError) -> Spec {
        guard names.contains(name) else {
            throw InputError(file: "--preset", message: "unknown preset \"\(name)\"; built-in presets: \(names.joined(separator: ", "))")
        }
        return try Spec.load(path: path(name), source: BuiltinSource())
    }
}
