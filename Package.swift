// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "glyphaudit",
    products: [
        .library(name: "GlyphRender", targets: ["GlyphRender"]),
        .executable(name: "glyphaudit", targets: ["glyphaudit"]),
    ],
    targets: [
        // cairo (image, SVG and PDF surfaces) and pango's cairo binding.
        .systemLibrary(
            name: "CCairo",
            pkgConfig: "pangocairo",
            providers: [.apt(["libcairo2-dev", "libpango1.0-dev"])]
        ),
        // librsvg (reads SVG, draws through cairo).
        .systemLibrary(
            name: "CRsvg",
            pkgConfig: "librsvg-2.0",
            providers: [.apt(["librsvg2-dev"])]
        ),
        // libpng, for exact (straight-alpha) PNG encode and decode.
        .systemLibrary(
            name: "CPNG",
            path: "Sources/CPNG",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]
        ),
        // A few C helpers: libpng's setjmp-based error handling cannot be written in Swift.
        .target(
            name: "CGlyphSupport",
            dependencies: ["CPNG"]
        ),
        .target(
            name: "GlyphRender",
            dependencies: ["CCairo", "CRsvg", "CGlyphSupport"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "glyphaudit",
            dependencies: ["GlyphRender"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // `make bench`: per-stage timings of the pipeline in a release build.
        .executableTarget(
            name: "glyphbench",
            dependencies: ["GlyphRender"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // `make fuzz`: libFuzzer targets for the readers of untrusted input (docs/fuzzing.md). In an
        // ordinary build it only replays files; scripts/fuzz builds it with the fuzzer.
        .executableTarget(
            name: "glyphfuzz",
            dependencies: ["GlyphRender"],
            swiftSettings: [.swiftLanguageMode(.v6), .enableExperimentalFeature("Extern")]
        ),
        // Helpers both test targets use (pixel edits a snapshot comparison must catch or explain).
        .target(
            name: "GlyphTestSupport",
            dependencies: ["GlyphRender"],
            path: "Tests/GlyphTestSupport",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "GlyphRenderTests",
            dependencies: ["GlyphRender", "GlyphTestSupport"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "glyphauditTests",
            dependencies: ["GlyphRender", "GlyphTestSupport"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
