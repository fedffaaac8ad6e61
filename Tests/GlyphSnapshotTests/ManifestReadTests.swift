import Foundation
import Testing
@testable import GlyphCore
@testable import GlyphSnapshot
import GlyphTestSupport

// Reading manifest.json: the usual file goes through JSONReader (SnapshotManifest.parse), anything
// else through JSONDecoder. Both must read the same manifest from the same bytes, whatever their
// layout; a file of another shape is bad input named by JSONDecoder's message.
@Suite("Reading the snapshot manifest")
struct ManifestReadTests {
    /// A manifest with what a file can hold: escapes in ids, numbers in every form, no margins.
    static var sample: SnapshotManifest {
        var m = SnapshotManifest()
        m.renderers = ["0123456789ab": ["cairo": "1.16.0", "font-regular": "Inter sha256:a7e7"]]
        m.keys = ["p": ["sizes.md.markWeight": "2", "label.text": "Say \"hi\"\n/é"], "q": [:]]
        m.variants["p/square-md/L/default/checked@2x"] = .init(digest: String(repeating: "a", count: 64), keys: "k1", renderer: "0123456789ab",
                                                              margins: ["contrast.fill": 7.005, "clipping.glyph.room": -2.5,
                                                                        "state-change.checked.normal": 1e-7, "target-size": 44])
        m.variants["p/square-md/L/default/\"odd\"\\id@1x"] = .init(digest: "d2", keys: "k2", renderer: "0123456789ab", margins: nil)
        m.variants["p/é/AX5/dark+boldText/mixed@3x"] = .init(digest: "d3", keys: "k3", renderer: "0123456789ab", margins: [:])
        return m
    }

    func read(_ text: String) throws -> SnapshotManifest? {
        let folder = TempFolder()
        folder.write(SnapshotManifest.fileName, text)
        return try SnapshotManifest.read(in: folder.url)
    }

    @Test("the written file reads back the same, by JSONReader and by JSONDecoder alike")
    func roundTrip() throws {
        let data = Self.sample.fileData()
        let fast = try #require(SnapshotManifest.parse(data))
        #expect(fast == Self.sample)
        let decoded = try JSONDecoder().decode(SnapshotManifest.File.self, from: data)
        #expect(decoded.variants == fast.variants && decoded.keys == fast.keys && decoded.renderers == fast.renderers)
        #expect(try read(String(decoding: data, as: UTF8.self)) == Self.sample)
    }

    @Test("a large file is read in chunks of lines, as the whole file reads; a duplicate id across chunks is refused")
    func chunks() throws {
        var m = Self.sample
        for i in 0..<3000 {
            m.variants["p/square-md/L/t\(i)/checked@\(i % 4 + 1)x"] = .init(digest: "d\(i)", keys: "k\(i % 7)", renderer: "0123456789ab",
                                                                           margins: i % 5 == 0 ? nil : ["contrast.fill": Double(i) / 7])
        }
        let data = m.fileData()
        #expect(SnapshotManifest.parseByLines(data) == m)
        #expect(try read(String(decoding: data, as: UTF8.self)) == m)
        // The first variant line again at the end: a duplicate no single chunk holds.
        let text = String(decoding: data, as: UTF8.self)
        let lines = text.components(separatedBy: "\n")
        let first = try #require(lines.firstIndex { $0.hasPrefix("    \"p/") })
        let again = text.replacingOccurrences(of: "\n  }\n}\n", with: ",\n" + lines[first].dropLast() + "\n  }\n}\n")
        #expect(SnapshotManifest.parseByLines(Data(again.utf8)) == nil)
        // The same line under a new id is read.
        let renamed = text.replacingOccurrences(of: "\n  }\n}\n", with: ",\n" + lines[first].dropLast().replacingOccurrences(of: "\"p/", with: "\"z/") + "\n  }\n}\n")
        #expect(SnapshotManifest.parseByLines(Data(renamed.utf8))?.variants.count == m.variants.count + 1)
    }

    @Test("the variant lines fileData writes are read in place, as the JSON reader reads them; any other line is left to it")
    func linesInPlace() throws {
        // Numbers in every form the writer gives (integers, exponents, 17 digits) and odd ids.
        let numbers: [Double] = [0, -2.5, 1e-7, 7.005, 4.995014620112325, 1e300, -1e-300, 0.1 + 0.2, 123456789012345680, 64.1416015625, .leastNonzeroMagnitude]
        var m = SnapshotManifest()
        for (i, n) in numbers.enumerated() {
            m.variants["p/é-\(i)/L/t/checked@2x"] = .init(digest: "d\(i)", keys: "k", renderer: "r1",
                                                         margins: ["contrast.fill": n, "target-size": -n, "state-change.checked.normal": n * 3])
        }
        m.variants["p/none/L/t/checked@1x"] = .init(digest: "d", keys: "k", renderer: "r2", margins: nil)
        m.variants["p/empty/L/t/checked@1x"] = .init(digest: "d", keys: "k", renderer: "r2", margins: [:])
        let text = String(decoding: m.fileData(), as: UTF8.self)
        let lines = text.components(separatedBy: "\n").filter { $0.hasPrefix("    \"p/") }.map { $0.hasSuffix(",") ? String($0.dropLast()) : $0 }
        #expect(lines.count == m.variants.count)
        func json(_ line: String) -> (String, SnapshotManifest.Entry)? {
            guard let node = try? JSONReader.parse(Data(("{" + line + "}").utf8)), case .object(let members) = node.value,
                  members.count == 1, let e = Optional(members[0].value), let digest = e["digest"]?.string, let keys = e["keys"]?.string,
                  let renderer = e["renderer"]?.string else { return nil }
            let margins = e["margins"].flatMap { $0.value == .null ? nil : $0.auditNumbers }
            return (members[0].key, SnapshotManifest.Entry(digest: digest, keys: keys, renderer: renderer, margins: margins))
        }
        for line in lines {
            let inPlace = try #require(ManifestLines.entry(of: Array(line.utf8)), "\(line)")
            let read = try #require(json(line))
            #expect(inPlace.0 == read.0 && inPlace.1 == read.1, "\(line)")
            // Bit for bit (0.1 + 0.2 is not 0.3).
            #expect(inPlace.1.margins?.values.map(\.bitPattern) == read.1.margins?.values.map(\.bitPattern))
        }
        // Lines of other forms, which JSON may or may not accept: left to the JSON reader.
        let base = #"    "p/a/L/t/checked@1x" : {"digest":"d","keys":"k","margins":{"a":1,"b":2},"renderer":"r"}"#
        #expect(ManifestLines.entry(of: Array(base.utf8)) != nil)
        let numberLines = ["01", "1.", ".5", "+1", "-", "1e", "1e+", "NaN", "Infinity", "0x10", "1e999", "１"].map { n in
            #"    "p/a/L/t/checked@1x" : {"digest":"d","keys":"k","margins":{"a":"# + n + #"},"renderer":"r"}"#
        }
        let odd = [#"    "p/\"q\"/L/t/checked@1x" : {"digest":"d","keys":"k","renderer":"r"}"#,   // an escape
                   #"    "p/a/L/t/checked@1x" : {"digest":"d","keys":"k","margins":null,"renderer":"r"}"#,
                   #"    "p/a/L/t/checked@1x" : {"digest":"d","keys":"k","margins":{"a":1,"a":2},"renderer":"r"}"#,  // a name twice
                   #"    "p/a/L/t/checked@1x" : {"keys":"k","digest":"d","renderer":"r"}"#,    // another order
                   #"    "p/a/L/t/checked@1x" : { "digest":"d","keys":"k","renderer":"r"}"#,   // another layout
                   #"    "p/a/L/t/checked@1x" : {"digest":"d","keys":"k","renderer":"r"} "#,
                   #"    "p/a/L/t/checked@1x" : {"digest":"d","keys":"k","renderer":"r","x":1}"#]
        for line in odd + numberLines {
            #expect(ManifestLines.entry(of: Array(line.utf8)) == nil, "\(line)")
        }
    }

    @Test("a manifest past 16 MiB (51,840 variants write 37 MiB) reads; one past 256 MiB is refused, naming the limit")
    func size() throws {
        var m = Self.sample
        m.keys["p"]!["label.text"] = String(repeating: "x", count: 17 << 20)
        let data = m.fileData()
        #expect(data.count > Limits.jsonFileBytes)
        #expect(try read(String(decoding: data, as: UTF8.self)) == m)
        // A sparse file one byte past the limit: refused before it is read.
        let folder = TempFolder()
        let url = folder.url.appendingPathComponent(SnapshotManifest.fileName)
        #expect(FileManager.default.createFile(atPath: url.path, contents: Data("{".utf8)))
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: UInt64(Limits.manifestFileBytes + 1))
        try handle.close()
        do { _ = try SnapshotManifest.read(in: folder.url); Issue.record("read a manifest past the limit") } catch {
            #expect(error.file == url.path)
            #expect(error.message == "the snapshot manifest is \(Limits.manifestFileBytes + 1) bytes; the limit is 256 MiB (docs/limits.md)")
        }
    }

    @Test("another layout, member order, null margins and an unknown member read the same")
    func otherLayout() throws {
        let text = #"{"variants": {"v@1x": {"renderer": "r", "margins": null, "keys": "k", "digest": "d", "note": 1}}, "#
            + #""renderers": {"r": {"cairo": "1"}}, "format": 1, "keys": {"p": {"a": "1"}}, "extra": [true]}"#
        var expected = SnapshotManifest()
        expected.renderers = ["r": ["cairo": "1"]]
        expected.keys = ["p": ["a": "1"]]
        expected.variants["v@1x"] = .init(digest: "d", keys: "k", renderer: "r", margins: nil)
        #expect(try read(text) == expected)
        #expect(SnapshotManifest.parse(Data(text.utf8)) == expected)
    }

    @Test("another format counts as none; a wrong type is bad input with JSONDecoder's message")
    func otherShapes() throws {
        #expect(try read(#"{"format": 2, "renderers": {}, "keys": {}, "variants": {}}"#) == nil)
        let wrong = #"{"format": 1, "renderers": {}, "keys": {}, "variants": {"v": {"digest": 3, "keys": "k", "renderer": "r"}}}"#
        #expect(SnapshotManifest.parse(Data(wrong.utf8)) == nil)
        do { _ = try read(wrong); Issue.record("read a digest that is a number") } catch let e as InputError {
            #expect(e.file.hasSuffix(SnapshotManifest.fileName))
            #expect(e.message == "not a snapshot manifest: variants.v.digest: wrong type (delete it and run glyphaudit check --update)")
        }
    }

    @Test("a baseline's path as text is the path of its URL")
    func baselinePaths() {
        for root in ["/tmp/snap shots", "/tmp/a%20b/snapshots", "/"] {
            let store = SnapshotStore(root: URL(fileURLWithPath: root))
            for relative in ["p/square-md/L/default/checked@2x.png", "p/é ü/x%41.png", "a//b.png", "/abs.png", "a/b/", "x"] {
                #expect(store.path(relativePath: relative) == store.url(relativePath: relative).path, "\(root) \(relative)")
            }
        }
    }
}
