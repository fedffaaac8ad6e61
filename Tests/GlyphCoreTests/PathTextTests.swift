import Testing
import GlyphCore

@Suite("String.parentPath")
struct PathTextTests {
    /// What `NSString.deletingLastPathComponent` gives where it does not crash (checked with Swift 6.3's
    /// Foundation on Linux), and `""` for the one-character names where it crashes.
    @Test("the folder part of a path", arguments: [
        ("a/t", "a"), ("x/y/z", "x/y"), ("/a", "/"), ("/", "/"), ("a//b", "a"), ("./t", "."), ("x/t/", "x"),
        ("ab", ""), ("t", ""), ("t/", ""), ("/work/spec/on.svg", "/work/spec"),
    ])
    func parent(_ path: String, _ expected: String) {
        #expect(path.parentPath == expected)
    }
}
