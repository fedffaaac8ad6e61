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
}
