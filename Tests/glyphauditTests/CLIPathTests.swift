import Foundation
import Testing
import GlyphTestSupport

/// Issue 24's reproducers of image paths (Tests/Fixtures/bad-input 16 and 31): the path checked is
/// the path opened, resolved one component at a time from the spec's folder, no link followed out.
@Suite("Bad input, issue 24: image paths resolved as they are opened")
struct CLIPathTests {
    /// Repro 16's spec: `on` as given, `off.svg` beside the spec, `extra` spliced in.
    static func spec(on: String, extra: String = "") -> String {
        #"{"name": "t", "control": "checkbox", "sizes": {"md": {"size": 44}}, "frame": {"width": 44, "height": 44}, "#
            + extra + #" "images": {"on": ""# + on + #"", "off": "off.svg"}, "states": ["unchecked", "checked"], "#
            + ##""themes": {"default": {"surface": "#FFFFFF", "tint": "#007AFF"}}, "scales": [1], "dynamicTypeSizes": ["L"]}"##
    }

    static let red = #"<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24"><rect width="24" height="24" fill="red"/></svg>"#

    @Test("16: an absolute image path through link/.. and /proc/self/cwd/.. is refused (exit 2), the file outside never drawn")
    func symlinkDotDot() throws {
        let root = try badInputFixture("16-")
        let spec = root.url.appendingPathComponent("project/spec")
        try FileManager.default.createDirectory(at: spec, withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: root.url.appendingPathComponent("off.svg"), to: spec.appendingPathComponent("off.svg"))
        root.write("outside/sub/.keep", "")
        root.write("outside/secret.svg", Self.red)
        root.write("project/secret.svg", Self.red)
        try FileManager.default.createSymbolicLink(atPath: spec.appendingPathComponent("lnk").path,
                                                   withDestinationPath: root.url.appendingPathComponent("outside/sub").path)
        // 1: the kernel would open outside/secret.svg; lexically it is spec/secret.svg, which does not exist.
        root.write("project/spec/s1.json", Self.spec(on: spec.path + "/lnk/../secret.svg"))
        let r1 = try CLI.run(["render", "--spec", "project/spec/s1.json", "--out", "out1"], in: root.url)
        #expect(r1.status == 2, "\(r1.stderr)")
        #expect(r1.stderr.contains("images.on") && r1.stderr.contains("\(spec.path)/secret.svg not found"), "\(r1.stderr)")
        #expect(!FileManager.default.fileExists(atPath: root.url.appendingPathComponent("out1").path))
        // Through the link itself: refused, naming where it leads.
        root.write("outside/sub/x.svg", Self.red)
        root.write("project/spec/s3.json", Self.spec(on: "lnk/x.svg"))
        let r3 = try CLI.run(["render", "--spec", "project/spec/s3.json", "--out", "out3"], in: root.url)
        #expect(r3.status == 2 && r3.stderr.contains("leads through a symbolic link"), "\(r3.stderr)")
        // 2: an assets root on /proc: nothing under it is read.
        root.write("project/spec/s2.json", Self.spec(on: "/proc/self/cwd/../secret.svg", extra: #""assets": "/proc/self","#))
        let r2 = try CLI.run(["render", "--spec", "s2.json", "--out", "../../out2"], in: spec)
        #expect(r2.status == 2 && r2.stderr.contains("images.on"), "\(r2.stderr)")
        #expect(r2.stderr.contains("/proc"), "\(r2.stderr)")
        #expect(!FileManager.default.fileExists(atPath: root.url.appendingPathComponent("out2").path))
    }

    @Test("31: img/on.svg swapped between a file and a link to a file outside while renders run: the outside image is never drawn")
    func checkThenOpenRace() throws {
        let t = TempFolder()
        let legit = #"<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24"><path d="M4 12l5 5L20 6" stroke="black" stroke-width="3" fill="none"/></svg>"#
        let secret = #"<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24"><rect width="24" height="24"/></svg>"#
        t.write("outside/secret.svg", secret)
        t.write("spec/img/off.svg", #"<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24"><rect x="2" y="2" width="20" height="20" stroke="black" fill="none"/></svg>"#)
        t.write("spec/s.json", ##"{"name": "t", "control": "checkbox", "sizes": {"md": {"size": 44}}, "frame": {"width": 44, "height": 44}, "images": {"on": "img/on.svg", "off": "img/off.svg"}, "states": ["checked"], "themes": {"default": {"surface": "#FFFFFF", "tint": "#000000"}}, "scales": [1], "dynamicTypeSizes": ["L"]}"##)
        let dir = t.url.appendingPathComponent("spec")
        let png = "out/t/square-md/L/default/checked@1x.png"
        func render() throws -> (Int32, Data?) {
            try? FileManager.default.removeItem(at: dir.appendingPathComponent("out"))
            let r = try CLI.run(["render", "--spec", "s.json", "--out", "out", "--jobs", "1"], in: dir)
            return (r.status, r.status == 0 ? try Data(contentsOf: dir.appendingPathComponent(png)) : nil)
        }
        // The two drawings: the real image's, and the secret one's (as if it had been read).
        t.write("spec/img/on.svg", secret)
        let secretPNG = try #require(try render().1)
        t.write("spec/img/on.svg", legit)
        let legitPNG = try #require(try render().1)
        #expect(secretPNG != legitPNG)

        let img = dir.appendingPathComponent("img").path
        let target = t.url.appendingPathComponent("outside/secret.svg").path
        let stop = RaceFlag()
        let swapper = Thread {
            var i = 0
            while !stop.value {
                let tmp = img + "/.swap\(i % 2)"
                unlink(tmp)
                if i % 2 == 0 { _ = FileManager.default.createFile(atPath: tmp, contents: Data(legit.utf8)) } else { symlink(target, tmp) }
                rename(tmp, img + "/on.svg")
                i += 1
            }
        }
        swapper.start()
        var drawn = [0, 0, 0] // legit, outside, refused
        for _ in 0..<40 {
            let (status, data) = try render()
            if status == 2 { drawn[2] += 1 } else if data == legitPNG { drawn[0] += 1 } else if data == secretPNG { drawn[1] += 1 }
        }
        stop.value = true
        #expect(drawn[1] == 0, "the outside image was drawn \(drawn[1]) times")
        #expect(drawn[0] + drawn[2] == 40, "\(drawn)")
    }
}

/// A flag one thread sets and another reads.
final class RaceFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var v = false
    var value: Bool {
        get { lock.lock(); defer { lock.unlock() }; return v }
        set { lock.lock(); v = newValue; lock.unlock() }
    }
}
