// swift-tools-version: 6.0
import PackageDescription

/// Swift 6 mode. No unsafe flags anywhere (SwiftPM refuses a package with them as a versioned
/// dependency; scripts/check-targets fails on one): the hot paths that a loop in a higher target
/// calls in a lower one (the pixel accessors, the colour science) are `@inlinable` instead.
let swift6: [SwiftSetting] = [.swiftLanguageMode(.v6)]
/// `GLYPHAUDIT_PORTABLE_SYNC=1 swift build`: file flushing on the POSIX path that macOS takes (fsync of
/// each file and folder) instead of Linux's syncfs, so that `make test` runs the kill tests on it too.
let portableSync = Context.environment["GLYPHAUDIT_PORTABLE_SYNC"] == "1"
/// The test targets and their helpers also refuse a use of a member of a module the file does not
/// import (SE-0444), so that each file's imports, and each test target's dependencies, stay honest.
let swift6Tests: [SwiftSetting] = swift6 + [.enableUpcomingFeature("MemberImportVisibility")]
/// Every library target, for the CLI.
let libraries: [Target.Dependency] = ["GlyphColor", "GlyphCore", "GlyphRaster", "GlyphAudit", "GlyphRender", "GlyphSnapshot",
                                      "GlyphReport", "GlyphExport", "GlyphPipeline"]

let package = Package(
    name: "glyphaudit",
    products: [
        .library(name: "GlyphAuditKit", targets: ["GlyphPipeline"]),
        .executable(name: "glyphaudit", targets: ["glyphaudit"]),
        // `swift test` assertions: audit a spec, check its snapshots (Swift Testing and XCTest).
        .library(name: "GlyphAuditTesting", targets: ["GlyphAuditTesting"]),
        // `swift package glyphaudit <command> …` (README "Use from Swift").
        .plugin(name: "GlyphAuditPlugin", targets: ["GlyphAuditPlugin"]),
    ],
    targets: [
        // cairo (image, SVG and PDF surfaces) and pango's cairo binding.
        .systemLibrary(
            name: "CCairo",
            pkgConfig: "pangocairo",
            providers: [.apt(["libcairo2-dev", "libpango1.0-dev"]), .brew(["cairo", "pango"])]
        ),
        // librsvg (reads SVG, draws through cairo).
        .systemLibrary(
            name: "CRsvg",
            pkgConfig: "librsvg-2.0",
            providers: [.apt(["librsvg2-dev"]), .brew(["librsvg"])]
        ),
        // libxml2 (librsvg's own XML parser): reads and rewrites an SVG for vector output
        // (SVGVectorForm), so that what librsvg would draw as a bitmap is drawn as a vector where it can.
        .systemLibrary(
            name: "CXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]
        ),
        // poppler's GLib binding (reads PDF, draws its pages through cairo).
        .systemLibrary(
            name: "CPoppler",
            pkgConfig: "poppler-glib",
            providers: [.apt(["libpoppler-glib-dev"]), .brew(["poppler"])]
        ),
        // libpng, for exact (straight-alpha) PNG encode and decode.
        .systemLibrary(
            name: "CPNG",
            path: "Sources/CPNG",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"]), .brew(["libpng"])]
        ),
        // zlib, for the PDF pre-scan (PDFScan): it inflates a PDF's streams with a budget before poppler
        // draws the PDF.
        .systemLibrary(
            name: "CZlib",
            path: "Sources/CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
        ),
        // A few C helpers: libpng's setjmp-based error handling cannot be written in Swift; the pixel
        // loops every render goes through (pixels.c) run as fast in a debug build as in a release one.
        .target(
            name: "CGlyphSupport",
            dependencies: ["CPNG"]
        ),
        // File flushing and the file system's kind: syncfs(2) and fstatfs(2) on Linux (Swift's Glibc
        // module does not declare them), POSIX fsync (F_FULLFSYNC where it exists) elsewhere and
        // under GLYPHAUDIT_PORTABLE_SYNC=1.
        .target(name: "CGlyphSys", cSettings: portableSync ? [.define("GLYPH_PORTABLE_SYNC")] : []),
        // The library, one target per stage of the data flow (docs/architecture.md). The compiler
        // keeps the arrows: only GlyphRender sees cairo, librsvg, poppler and pango; only GlyphRaster (and
        // what renders) sees libpng; the colour science sees nothing; audit, snapshot, report and
        // export never see the renderer, nor the renderer the audit (the pipeline joins them); nothing
        // sees the CLI. Each target lists exactly the targets its files import (scripts/check-targets).
        .target(name: "GlyphColor", swiftSettings: swift6),
        .target(name: "GlyphCore", dependencies: ["GlyphColor", "CGlyphSys", "CZlib"], swiftSettings: swift6),
        .target(name: "GlyphRaster", dependencies: ["GlyphCore", "GlyphColor", "CGlyphSupport"], swiftSettings: swift6),
        .target(name: "GlyphAudit", dependencies: ["GlyphCore", "GlyphColor", "GlyphRaster"], swiftSettings: swift6),
        .target(name: "GlyphRender",
                dependencies: ["GlyphCore", "GlyphColor", "GlyphRaster", "CCairo", "CRsvg", "CPoppler", "CPNG", "CXML2", "CGlyphSupport"],
                swiftSettings: swift6),
        .target(name: "GlyphSnapshot", dependencies: ["GlyphCore", "GlyphColor", "GlyphRaster"], swiftSettings: swift6),
        .target(name: "GlyphReport", dependencies: ["GlyphCore", "GlyphRaster", "GlyphAudit", "GlyphSnapshot"], swiftSettings: swift6),
        .target(name: "GlyphExport", dependencies: ["GlyphCore", "GlyphColor"], swiftSettings: swift6),
        .target(name: "GlyphPipeline",
                dependencies: ["GlyphCore", "GlyphRaster", "GlyphAudit", "GlyphRender", "GlyphSnapshot", "GlyphReport", "GlyphExport"],
                swiftSettings: swift6),
        // Swift Testing (and XCTest) helpers over the pipeline, for a consumer's tests (README "Use from Swift").
        .target(name: "GlyphAuditTesting",
                dependencies: ["GlyphCore", "GlyphAudit", "GlyphRender", "GlyphSnapshot", "GlyphPipeline"],
                swiftSettings: swift6),
        .plugin(name: "GlyphAuditPlugin",
                capability: .command(intent: .custom(verb: "glyphaudit", description: "Run glyphaudit in the package's folder")),
                dependencies: ["glyphaudit"], path: "Plugins/GlyphAuditPlugin"),
        .executableTarget(
            name: "glyphaudit",
            dependencies: libraries,
            swiftSettings: swift6
        ),
        // `make bench`: per-stage timings of the pipeline in a release build.
        .executableTarget(
            name: "glyphbench",
            dependencies: ["GlyphCore", "GlyphRaster", "GlyphAudit", "GlyphRender", "GlyphSnapshot", "GlyphPipeline"],
            exclude: ["README.md"],
            swiftSettings: swift6
        ),
        // `make fuzz`: libFuzzer targets for the readers of untrusted input (docs/fuzzing.md). In an
        // ordinary build it only replays files; scripts/fuzz builds it with the fuzzer.
        .executableTarget(
            name: "glyphfuzz",
            dependencies: ["GlyphCore", "GlyphRaster", "GlyphRender", "GlyphReport"],
            swiftSettings: swift6 + [.enableExperimentalFeature("Extern")]
        ),
        // Helpers the test targets share, split by what they need so that a low library's tests do not
        // link the renderer. GlyphTestSupport: temporary folders, small specs, the fixtures' paths
        // (Tests/Fixtures), PNG bytes, schema validation. GlyphRenderTestSupport: specs loaded with their
        // images, and audit scenes (laid out, rendered and given the pipeline's drawing).
        // GlyphSnapshotTestSupport: pixel edits the comparator must catch or explain.
        .target(name: "GlyphTestSupport", path: "Tests/GlyphTestSupport",
                swiftSettings: swift6Tests),
        .target(name: "GlyphRenderTestSupport",
                dependencies: ["GlyphColor", "GlyphCore", "GlyphRaster", "GlyphAudit", "GlyphRender", "GlyphPipeline", "GlyphTestSupport"],
                path: "Tests/GlyphRenderTestSupport", swiftSettings: swift6Tests),
        .target(name: "GlyphSnapshotTestSupport", dependencies: ["GlyphRaster", "GlyphSnapshot"],
                path: "Tests/GlyphSnapshotTestSupport", swiftSettings: swift6Tests),
        // One test target per library target, with the tests of that library (Tests/<name>), and the
        // command line's own end-to-end tests of the built binary (glyphauditTests). Each declares
        // exactly what its files import (scripts/check-targets), each file importing what it uses.
        .testTarget(name: "GlyphColorTests",
                    dependencies: ["GlyphColor", "GlyphCore", "GlyphAudit", "GlyphTestSupport", "GlyphRenderTestSupport"],
                    swiftSettings: swift6Tests),
        .testTarget(name: "GlyphCoreTests",
                    dependencies: ["GlyphColor", "GlyphCore", "GlyphRaster", "GlyphAudit", "GlyphRender", "GlyphSnapshot", "GlyphTestSupport", "GlyphRenderTestSupport"],
                    swiftSettings: swift6Tests),
        .testTarget(name: "GlyphRasterTests", dependencies: ["GlyphColor", "GlyphRaster", "GlyphTestSupport"],
                    swiftSettings: swift6Tests),
        .testTarget(name: "GlyphAuditTests",
                    dependencies: ["GlyphColor", "GlyphCore", "GlyphRaster", "GlyphAudit", "GlyphRender", "GlyphReport", "GlyphPipeline", "GlyphTestSupport", "GlyphRenderTestSupport", "CCairo"],
                    swiftSettings: swift6Tests),
        .testTarget(name: "GlyphRenderTests",
                    dependencies: ["GlyphColor", "GlyphCore", "GlyphRaster", "GlyphAudit", "GlyphRender", "GlyphExport", "GlyphPipeline", "GlyphTestSupport", "GlyphRenderTestSupport"],
                    swiftSettings: swift6Tests),
        .testTarget(name: "GlyphSnapshotTests",
                    dependencies: ["GlyphColor", "GlyphCore", "GlyphRaster", "GlyphRender", "GlyphSnapshot", "GlyphReport", "GlyphPipeline", "GlyphTestSupport", "GlyphSnapshotTestSupport"],
                    swiftSettings: swift6Tests),
        .testTarget(name: "GlyphReportTests", dependencies: ["GlyphCore", "GlyphAudit", "GlyphSnapshot", "GlyphReport", "GlyphTestSupport"],
                    swiftSettings: swift6Tests),
        .testTarget(name: "GlyphExportTests",
                    dependencies: ["GlyphColor", "GlyphCore", "GlyphRaster", "GlyphRender", "GlyphExport", "GlyphPipeline", "GlyphTestSupport", "GlyphRenderTestSupport"],
                    swiftSettings: swift6Tests),
        .testTarget(name: "GlyphPipelineTests",
                    dependencies: ["GlyphCore", "GlyphRaster", "GlyphAudit", "GlyphRender", "GlyphSnapshot", "GlyphReport", "GlyphPipeline", "GlyphTestSupport", "GlyphSnapshotTestSupport"],
                    swiftSettings: swift6Tests),
        .testTarget(name: "GlyphAuditTestingTests",
                    dependencies: ["GlyphCore", "GlyphAudit", "GlyphRender", "GlyphSnapshot", "GlyphAuditTesting", "GlyphTestSupport"],
                    swiftSettings: swift6Tests),
        // The CLI's tests run the built binary; they also import it to check its option tables.
        .testTarget(name: "glyphauditTests",
                    dependencies: ["GlyphColor", "GlyphCore", "GlyphRaster", "GlyphAudit", "GlyphRender", "GlyphSnapshot", "GlyphReport", "GlyphPipeline", "GlyphTestSupport", "GlyphSnapshotTestSupport", "glyphaudit"],
                    swiftSettings: swift6Tests),
    ]
)
