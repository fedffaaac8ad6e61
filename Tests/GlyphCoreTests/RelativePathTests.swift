import Foundation
import Testing
@testable import GlyphCore

// relativePath / RelativePaths: a path below the base loses the base and its slash; one with `.`,
// `..` or an empty component is standardized first; anything else comes back as it was.
@Suite("Paths relative to a folder")
struct RelativePathTests {
    @Test("below the base, standardized, outside, relative and the base's sibling")
    func relative() {
        let base = URL(fileURLWithPath: "/work/repo")
        let paths = RelativePaths(base: base)
        #expect(paths.relative("/work/repo/snapshots/a/b@2x.png") == "snapshots/a/b@2x.png")
        #expect(paths.relative("/work/repo/x/../snapshots/./a.png") == "snapshots/a.png")
        #expect(paths.relative("/work/repo//snapshots/a.png") == "snapshots/a.png")
        #expect(paths.relative("/work/repo-2/a.png") == "/work/repo-2/a.png")
        #expect(paths.relative("/work/other/a.png") == "/work/other/a.png")
        #expect(paths.relative("snapshots/a.png") == "snapshots/a.png")
        #expect(relativePath("/work/repo/a.png", base: URL(fileURLWithPath: "/work/./repo/")) == "a.png")
        #expect(RelativePaths.isStandard("/work/repo/a.png"))
        #expect(!RelativePaths.isStandard("/work/repo/"))
        #expect(!RelativePaths.isStandard("/work/../a.png"))
    }

    @Test("isStandard agrees with its definition: more than the root, no final slash, no empty, . or .. component")
    func standard() {
        func definition(_ path: String) -> Bool {
            path.count > 1 && !path.hasSuffix("/") && !path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
                .contains { $0.isEmpty || $0 == "." || $0 == ".." }
        }
        let paths = ["/", "//", "/a", "/a/", "/a//b", "/.", "/..", "/...", "/a/.", "/a/..", "/a/...", "/a/.b", "/a/b.",
                     "/a/..b", "/./a", "/../a", "/é/ü.png", "/work/repo/snapshots/p/square-md/AX5/default+boldText/checked@3x.png"]
        for p in paths { #expect(RelativePaths.isStandard(p) == definition(p), "\(p)") }
    }
}
