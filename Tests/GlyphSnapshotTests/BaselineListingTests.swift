import Foundation
import Testing
@testable import GlyphSnapshot
import GlyphTestSupport

// A run lists its baselines once, from its start (BaselineListing): the stale baselines come from
// that listing and, under --incremental, so does whether a reused variant's baseline is there. It
// must list what PNGFiles.list lists, and call a file regular as SnapshotStore.regularFiles does.
@Suite("Baselines listed once per run")
struct BaselineListingTests {
    @Test("the files PNGFiles lists, per preset folder or the whole folder; regular files as regularFiles says")
    func sameAsWalk() throws {
        let folder = TempFolder()
        let root = folder.url
        for name in ["p/square-md/L/default/checked@1x.png", "p/square-md/AX5/dark/mixed@3x.png", "p/upper.PNG", "p/.tmp/x.png",
                     "p/square-md/L/default/.checked@1x.png.tmp-1-2", "p/notes.txt", "q/square-md/L/default/checked@1x.png", "top.png"] {
            folder.write(name, "x")
        }
        // A link to a file is a regular file; a link to a folder is walked; a FIFO named .png is listed, not regular.
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("p/link.png").path,
                                                   withDestinationPath: root.appendingPathComponent("top.png").path)
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("p/linked").path,
                                                   withDestinationPath: root.appendingPathComponent("q").path)
        #expect(mkfifo(root.appendingPathComponent("p/fifo.png").path, 0o644) == 0)
        let store = SnapshotStore(root: root)

        let scoped = BaselineListing(store: store, folders: ["p", "q", "missing"])
        #expect(scoped.files == store.baselineFiles(inFolders: ["p", "q", "missing"]))
        #expect(scoped.files.contains("p/fifo.png") && scoped.files.contains("p/upper.PNG") && scoped.files.contains("p/linked/square-md/L/default/checked@1x.png"))
        #expect(!scoped.files.contains { $0.contains("/.") } && !scoped.files.contains("top.png"))
        let whole = BaselineListing(store: store, folders: nil)
        #expect(whole.files == PNGFiles.list(under: root))
        #expect(whole.files.contains("top.png"))

        // Regular, as regularFiles(inFolder:) says of each listed file's folder.
        for relative in whole.files {
            let cut = relative.lastIndex(of: "/").map { String(relative[..<$0]) }
            let name = String(relative.split(separator: "/").last!)
            let inFolder = SnapshotStore.regularFiles(inFolder: cut.map { root.appendingPathComponent($0).path } ?? root.path) ?? []
            #expect(whole.hasRegularFile(relative) == inFolder.contains(name), "\(relative)")
        }
        #expect(whole.hasRegularFile("p/link.png") && !whole.hasRegularFile("p/fifo.png") && !whole.hasRegularFile("p/none.png"))
        // Outside the listed folders: not listed.
        #expect(!scoped.hasRegularFile("top.png") && scoped.hasRegularFile("q/square-md/L/default/checked@1x.png"))
    }

    @Test("stale baselines come from the run's listing when it is of the same scope, else from a fresh walk")
    func staleFromListing() {
        let folder = TempFolder()
        for name in ["p/a.png", "p/b.png", "q/c.png"] { folder.write(name, "x") }
        let store = SnapshotStore(root: folder.url)
        var checker = SnapshotChecker(store: store, output: nil, staleScope: .wholeFolder)
        let all = ["p/a.png", "p/b.png", "q/c.png"].map { store.path(relativePath: $0) }
        #expect(checker.staleBaselines(of: []).map(\.baseline) == all)
        // Listed at the start of the run: a file that appears later is not in it.
        checker.listing = BaselineListing(store: store, folders: nil)
        _ = checker.listing!.files
        folder.write("q/d.png", "x")
        #expect(checker.staleBaselines(of: []).map(\.baseline) == all)
        // A listing of other folders than the scope's is not used.
        checker.listing = BaselineListing(store: store, folders: ["p"])
        #expect(checker.staleBaselines(of: []).map(\.baseline) == all + [store.path(relativePath: "q/d.png")])
    }
}
