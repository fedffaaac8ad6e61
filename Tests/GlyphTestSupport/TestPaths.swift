import Foundation

/// Where the tests find the checkout and its fixtures: everything a test reads is inside the
/// checkout (`Tests/Fixtures`, Tests/Fixtures/README.md), so a fresh clone runs every test.
public enum TestPaths {
    /// The package root, three levels above this file (Tests/GlyphTestSupport/TestPaths.swift).
    public static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// `Tests/Fixtures`: reference data, upstream corpora and reproducers (each folder's README says where from).
    public static let fixtures = packageRoot.appendingPathComponent("Tests/Fixtures")
    /// `Tests/Fixtures/reference`: the reference vectors (contrast, CVD, Dynamic Type) and the report schemas.
    public static let reference = fixtures.appendingPathComponent("reference")

    /// `Tests/Fixtures/<path>`.
    public static func fixture(_ path: String) -> URL { fixtures.appendingPathComponent(path) }
}
