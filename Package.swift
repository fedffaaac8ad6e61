// swift-tools-version: 6.0
import PackageDescription

/// Swift 6 mode; in release builds the optimizer may inline across the targets (the colour science
/// and the pixel accessors sit in lower targets than the loops that call them).
let swift6: [SwiftSetting] = [.swiftLanguageMode(.v6), .unsafeFlags(["-cross-module-optimization"], .when(configuration: .release))]
/// Every library target, for the CLI and the tests that use them all.
let libraries: [Target.Dependency] = ["GlyphColor", "GlyphCore", "GlyphRaster", "GlyphAudit", "GlyphRender", "GlyphSnapshot",
                                      "GlyphReport", "GlyphExport", "GlyphPipeline"]

let package = Package(
    name: "glyphaudit",
    products: [
        .library(name: "GlyphAuditKit", targets: ["GlyphPipeline"]),
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
        // poppler's GLib binding (reads PDF, draws its pages through cairo).
        .systemLibrary(
            name: "CPoppler",
            pkgConfig: "poppler-glib",
            providers: [.apt(["libpoppler-glib-dev"])]
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
        // syncfs(2) and fstatfs(2), which Swift's Glibc module does not declare.
        .target(name: "CGlyphSys"),
        // The library, one target per stage of the data flow (docs/architecture.md). The compiler
        // keeps the arrows: only GlyphRender sees cairo, librsvg, poppler and pango; only GlyphRaster (and
        // what renders) sees libpng; the colour science sees nothing; audit, snapshot, report and
        // export never see the renderer, nor the renderer the audit (the pipeline joins them); nothing
        // sees the CLI. Each target lists exactly the targets its files import (scripts/check-targets).
        .target(name: "GlyphColor", swiftSettings: swift6),
        .target(name: "GlyphCore", dependencies: ["GlyphColor", "CGlyphSys"], swiftSettings: swift6),
        .target(name: "GlyphRaster", dependencies: ["GlyphCore", "GlyphColor", "CGlyphSupport"], swiftSettings: swift6),
        .target(name: "GlyphAudit", dependencies: ["GlyphCore", "GlyphColor", "GlyphRaster"], swiftSettings: swift6),
        .target(name: "GlyphRender",
                dependencies: ["GlyphCore", "GlyphColor", "GlyphRaster", "CCairo", "CRsvg", "CPoppler", "CPNG"],
                swiftSettings: swift6),
        .target(name: "GlyphSnapshot", dependencies: ["GlyphCore", "GlyphColor", "GlyphRaster"], swiftSettings: swift6),
        .target(name: "GlyphReport", dependencies: ["GlyphCore", "GlyphAudit", "GlyphSnapshot"], swiftSettings: swift6),
        .target(name: "GlyphExport", dependencies: ["GlyphCore", "GlyphColor"], swiftSettings: swift6),
        .target(name: "GlyphPipeline",
                dependencies: ["GlyphCore", "GlyphRaster", "GlyphAudit", "GlyphRender", "GlyphSnapshot", "GlyphReport", "GlyphExport"],
                swiftSettings: swift6),
        .executableTarget(
            name: "glyphaudit",
            dependencies: libraries,
            swiftSettings: swift6
        ),
        // `make bench`: per-stage timings of the pipeline in a release build.
        .executableTarget(
            name: "glyphbench",
            dependencies: ["GlyphCore", "GlyphRaster", "GlyphAudit", "GlyphRender", "GlyphSnapshot", "GlyphPipeline"],
            swiftSettings: swift6
        ),
        // `make fuzz`: libFuzzer targets for the readers of untrusted input (docs/fuzzing.md). In an
        // ordinary build it only replays files; scripts/fuzz builds it with the fuzzer.
        .executableTarget(
            name: "glyphfuzz",
            dependencies: ["GlyphCore", "GlyphRaster", "GlyphRender"],
            swiftSettings: swift6 + [.enableExperimentalFeature("Extern")]
        ),
        // Helpers the test targets share: temporary folders, small specs, audit scenes, the fixtures'
        // paths (Tests/Fixtures), PNG writing, pixel edits, schema validation.
        .target(
            name: "GlyphTestSupport",
            dependencies: libraries,
            path: "Tests/GlyphTestSupport",
            swiftSettings: swift6
        ),
        // One test target per library target, with the tests of that library (Tests/<name>), and the
        // command line's own end-to-end tests of the built binary (glyphauditTests). Each depends on
        // what its files import (most files import every library, @testable, and GlyphTestSupport).
        .testTarget(name: "GlyphColorTests", dependencies: libraries + ["GlyphTestSupport"], swiftSettings: swift6),
        .testTarget(name: "GlyphCoreTests", dependencies: libraries + ["GlyphTestSupport"], swiftSettings: swift6),
        .testTarget(name: "GlyphRasterTests", dependencies: ["GlyphCore", "GlyphRaster", "GlyphTestSupport"], swiftSettings: swift6),
        .testTarget(name: "GlyphAuditTests", dependencies: libraries + ["GlyphTestSupport", "CCairo"], swiftSettings: swift6),
        .testTarget(name: "GlyphRenderTests", dependencies: libraries + ["GlyphTestSupport"], swiftSettings: swift6),
        .testTarget(name: "GlyphSnapshotTests", dependencies: libraries + ["GlyphTestSupport"], swiftSettings: swift6),
        .testTarget(name: "GlyphReportTests", dependencies: libraries + ["GlyphTestSupport"], swiftSettings: swift6),
        .testTarget(name: "GlyphExportTests", dependencies: libraries + ["GlyphTestSupport"], swiftSettings: swift6),
        .testTarget(name: "GlyphPipelineTests", dependencies: libraries + ["GlyphTestSupport"], swiftSettings: swift6),
        // The CLI's tests run the built binary; they also import it to check its option tables.
        .testTarget(name: "glyphauditTests", dependencies: libraries + ["GlyphTestSupport", "glyphaudit"], swiftSettings: swift6),
    ]
)
