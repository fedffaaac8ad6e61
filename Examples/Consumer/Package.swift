// swift-tools-version: 6.0
import PackageDescription

// A package that uses glyphaudit as a dependency, as a design-system team's would: by path here
// (the repository root), `.package(url: "https://…/glyphaudit.git", from: "…")` elsewhere. Its tests
// audit its spec and check its committed baselines; `make test` builds and tests it, and runs the
// plugin on it (`swift package --package-path Examples/Consumer glyphaudit …`).
let package = Package(
    name: "Consumer",
    dependencies: [
        .package(name: "glyphaudit", path: "../.."),
    ],
    targets: [
        .testTarget(
            name: "ConsumerTests",
            dependencies: [
                .product(name: "GlyphAuditKit", package: "glyphaudit"),
                .product(name: "GlyphAuditTesting", package: "glyphaudit"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
