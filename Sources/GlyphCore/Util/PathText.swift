import Foundation

extension String {
    /// The folder part of a path, as `NSString.deletingLastPathComponent` gives it (`"a/b"` → `"a"`,
    /// `"/a"` → `"/"`, `"a"` → `""`, trailing slashes ignored). Foundation's own crashes on a
    /// one-character last component with no folder before it (`"t"`, `"t/"`: swift-corelibs-foundation
    /// with Swift 6.3), which a spec named `t` reached through the asset catalog's folder names.
    public var parentPath: String {
        var p = Substring(self)
        while p.count > 1, p.hasSuffix("/") { p = p.dropLast() }
        guard let slash = p.lastIndex(of: "/") else { return "" }
        var head = p[..<slash]
        while head.count > 1, head.hasSuffix("/") { head = head.dropLast() }
        return head.isEmpty ? "/" : String(head)
    }
}
