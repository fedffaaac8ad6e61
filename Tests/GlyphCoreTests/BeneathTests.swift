import Foundation
import Testing
import GlyphCore
import GlyphTestSupport

/// `Beneath.within`: an input path resolved as it is opened, from inside its root, links followed
/// only while they stay inside (issue 24, reproducers 16 and 31).
@Suite("Beneath.within: paths resolved as they are opened")
struct BeneathTests {
    /// root/ with a.svg ("A"), sub/b.svg ("B"), and outside/secret.svg ("SECRET") beside root/.
    static func tree() -> TempFolder {
        let t = TempFolder()
        t.write("root/a.svg", "A")
        t.write("root/sub/b.svg", "B")
        t.write("outside/secret.svg", "SECRET")
        t.write("outside/sub/keep.txt", "")
        return t
    }

    static func link(_ t: TempFolder, _ at: String, _ to: String) throws {
        try FileManager.default.createSymbolicLink(atPath: t.url.appendingPathComponent(at).path, withDestinationPath: to)
    }

    /// The text read through `within`, or the refusal.
    static func read(_ path: String, _ roots: [String]) -> Result<String, Beneath.Refusal> {
        Beneath.within(path, roots: roots).map { fd in
            defer { close(fd) }
            return String(decoding: (try? InputFile.read(descriptor: fd, limit: 100)) ?? Data("unreadable".utf8), as: UTF8.self)
        }
    }

    @Test("plain paths and links that stay inside the root are read; what they name is what is read")
    func inside() throws {
        let t = Self.tree()
        let root = t.url.appendingPathComponent("root").path
        try Self.link(t, "root/rel", "sub/b.svg")              // relative, inside
        try Self.link(t, "root/sub/up", "../a.svg")            // climbs, still inside
        try Self.link(t, "root/abs", root + "/sub")            // absolute, to a folder inside
        #expect(Self.read(root + "/a.svg", [root]) == .success("A"))
        #expect(Self.read(root + "/sub/b.svg", [root]) == .success("B"))
        #expect(Self.read(root + "/rel", [root]) == .success("B"))
        #expect(Self.read(root + "/sub/up", [root]) == .success("A"))
        #expect(Self.read(root + "/abs/b.svg", [root]) == .success("B"))
        // Lexical first: sub/../a.svg is a.svg.
        #expect(Self.read(root + "/sub/../a.svg", [root]) == .success("A"))
        // The second root is used when the path lies in it.
        let outside = t.url.appendingPathComponent("outside").path
        #expect(Self.read(outside + "/secret.svg", [root, outside]) == .success("SECRET"))
    }

    @Test("16: link/.. is judged as it is opened: lexically, so the file beside the folder is not reached")
    func dotDotAfterLink() throws {
        let t = Self.tree()
        let root = t.url.appendingPathComponent("root").path
        t.write("secret.svg", "SECRET")                         // next to root/, as in repro 16
        try Self.link(t, "root/lnk", t.url.appendingPathComponent("outside/sub").path)
        // The kernel would open outside/secret.svg; the path checked and opened is root/secret.svg.
        guard case let .failure(.file(failure)) = Self.read(root + "/lnk/../secret.svg", [root]) else {
            Issue.record("lnk/../secret.svg was read")
            return
        }
        #expect(failure.missing && failure.message == "no such file")
        // Through the link itself: refused, naming where it leads.
        let target = t.url.appendingPathComponent("outside/sub/keep.txt").resolvingSymlinksInPath().path
        #expect(Self.read(root + "/lnk/keep.txt", [root]) == .failure(.escape(.link(target: target))))
    }

    @Test("links out of the root are refused (absolute, relative climbing above it, and a chain); a loop is too many links")
    func outside() throws {
        let t = Self.tree()
        let root = t.url.appendingPathComponent("root").path
        let secret = t.url.appendingPathComponent("outside/secret.svg").resolvingSymlinksInPath().path
        try Self.link(t, "root/abs.svg", secret)
        try Self.link(t, "root/sub/rel.svg", "../../outside/secret.svg")
        try Self.link(t, "root/chain.svg", "sub/rel.svg")
        try Self.link(t, "root/loop1", "loop2")
        try Self.link(t, "root/loop2", "loop1")
        #expect(Self.read(root + "/abs.svg", [root]) == .failure(.escape(.link(target: secret))))
        #expect(Self.read(root + "/sub/rel.svg", [root]) == .failure(.escape(.link(target: secret))))
        #expect(Self.read(root + "/chain.svg", [root]) == .failure(.escape(.link(target: secret))))
        #expect(Self.read(root + "/loop1", [root]) == .failure(.escape(.tooManyLinks)))
        // Not below any root, as written.
        #expect(Self.read(secret, [root]) == .failure(.escape(.outside)))
    }

    @Test("a root on /proc is refused, whatever is below it (16's /proc/self/cwd variant)")
    func procRoot() {
        guard case let .failure(.file(failure)) = Self.read("/proc/self/cwd/x.svg", ["/proc/self"]) else {
            Issue.record("read through /proc")
            return
        }
        #expect(failure.message.contains("/proc"))
    }

    @Test("31: a link swapped in for a file is never followed out: every read gives the file's bytes or a refusal")
    func swapRace() throws {
        let t = Self.tree()
        let root = t.url.appendingPathComponent("root").path
        let secret = t.url.appendingPathComponent("outside/secret.svg").path
        let stop = Flag()
        let swapper = Thread {
            var i = 0
            while !stop.value {
                let tmp = root + "/.swap\(i % 2)"
                unlink(tmp)
                if i % 2 == 0 { _ = FileManager.default.createFile(atPath: tmp, contents: Data("A".utf8)) } else { symlink(secret, tmp) }
                rename(tmp, root + "/on.svg")
                i += 1
            }
        }
        swapper.start()
        var read = 0, refused = 0
        for _ in 0..<2000 {
            switch Self.read(root + "/on.svg", [root]) {
            case let .success(text): #expect(text == "A"); read += 1
            case .failure(.escape), .failure(.file): refused += 1
            }
        }
        stop.value = true
        #expect(read + refused == 2000)
    }
}

/// A flag one thread sets and another reads.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var v = false
    var value: Bool {
        get { lock.lock(); defer { lock.unlock() }; return v }
        set { lock.lock(); v = newValue; lock.unlock() }
    }
}
