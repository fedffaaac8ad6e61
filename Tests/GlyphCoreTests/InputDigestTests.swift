import Foundation
import Testing
import GlyphColor
import GlyphCore
import GlyphRender
import GlyphTestSupport

/// The per-variant input digest of the snapshot manifest, made cheaper without changing one byte of
/// it: SHA-256 by the x86 SHA extensions against the portable Swift code, and `Scene.inputText`
/// written into one byte buffer against the interpolating code it replaced (kept below as the reference).
@Suite("Input digest: SHA-256 implementations and the scene's input text")
struct InputDigestTests {
    // MARK: SHA-256

    @Test("both implementations give the FIPS 180-4 example digests (empty, one block, two blocks, a million bytes)",
          arguments: SHA256.Implementation.allCases)
    func fipsVectors(_ implementation: SHA256.Implementation) {
        func hex(_ data: Data) -> String { SHA256.hex(data, using: implementation) }
        #expect(hex(Data()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(hex(Data("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(hex(Data("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(hex(Data(repeating: UInt8(ascii: "a"), count: 1_000_000))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    #if arch(x86_64) && os(Linux)
    @Test("the SHA extensions are used exactly when /proc/cpuinfo lists sha_ni, sse4_1 and ssse3",
          .enabled(if: FileManager.default.isReadableFile(atPath: "/proc/cpuinfo")))
    func hardwareDetection() throws {
        let cpuinfo = try String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)
        let flags = Set(try #require(cpuinfo.split(separator: "\n").first { $0.hasPrefix("flags") })
            .split(separator: " ").map(String.init))
        #expect(SHA256.hardwareAvailable == ["sha_ni", "sse4_1", "ssse3"].allSatisfy(flags.contains))
    }
    #endif

    @Test("the SHA extensions and the portable code agree on every length 0…300 and on larger buffers at unaligned starts",
          .enabled(if: SHA256.hardwareAvailable, "this processor has no SHA extensions: only the portable code runs"))
    func implementationsAgree() {
        var random = SplitMix(seed: 0x5EED_D16E57)
        let bytes = (0..<70_000).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        bytes.withUnsafeBytes { all in
            func agree(_ start: Int, _ count: Int) {
                let slice = UnsafeRawBufferPointer(rebasing: all[start..<(start + count)])
                #expect(SHA256.hex(slice, using: .hardware) == SHA256.hex(slice, using: .portable), "\(count) bytes at \(start)")
            }
            for count in 0...300 { agree(count % 7, count) }
            for _ in 0..<24 {
                let count = Int(random.next() % 65_000)
                agree(Int(random.next() % 5_000), count)
            }
        }
        // The public entry point takes the hardware path here.
        #expect(SHA256.hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    // MARK: The input text

    @Test("numbers, colours and quoted strings are written as interpolation writes them")
    func bufferPieces() {
        var random = SplitMix(seed: 42)
        var doubles: [Double] = [0, -0.0, 1, -1, 0.5, -2.25, 1e-7, 1e15 - 1, 1e15, 1e15 + 1, -1e15 + 1, 9_007_199_254_740_992,
                                 1e16, 123.456, .infinity, -.infinity, .nan, .ulpOfOne, .greatestFiniteMagnitude, 44, 3.0000000000000004]
        for _ in 0..<2_000 {
            let r = random.next()
            doubles.append(Double(Int64(bitPattern: r) >> Int64(r % 60)))
            doubles.append(Double(Int64(r % 2_000)) / 8 - 100)
            doubles.append(Double(bitPattern: random.next()))
        }
        for v in doubles {
            var out = InputTextBuffer()
            out.add(v)
            var written = ""
            v.write(to: &written)
            #expect(out.string == "\(v)")
            #expect(out.string == written)
        }
        for n in [0, 7, -7, 10, 99, 100, Int.max, Int.min] {
            var out = InputTextBuffer()
            out.add(n)
            #expect(out.string == "\(n)")
        }
        for _ in 0..<500 {
            let c = RGBA(r: Double(random.next() % 1001) / 1000, g: Double(random.next() % 1001) / 1000,
                         b: Double(random.next() % 1001) / 1000, a: random.next() % 3 == 0 ? 1 : Double(random.next() % 1001) / 1000)
            var out = InputTextBuffer()
            out.add(c)
            #expect(out.string == c.hex)
        }
        var strings = (0..<128).map { String(UnicodeScalar(UInt8($0))) }
        strings += ["", "Remember me", "a\"b", "back\\slash", "tab\there", "it's", "Größe", "✓ done", "e\u{301}", "M0 0L1 1Z", "\u{7F}", "\u{200B}"]
        for s in strings {
            var out = InputTextBuffer()
            out.addQuoted(s)
            #expect(out.string == s.debugDescription)
        }
    }

    @Test("the input text of every variant of the presets, load-10x18.json and specs with images, paths, clipped and quoted labels is the interpolated text, byte for byte")
    func inputTextMatchesReference() throws {
        var specs = try Presets.names.map { try Presets.load($0) }
        // A label with characters the quoting escapes, and others it keeps, clipped to a maximum width.
        var quoted = try Presets.load("design-system-checkbox")
        quoted.name = "quoted-label"
        quoted.label?.text = "Größe \"quoted\" it's back\\slash\ttab ✓"
        quoted.label?.maxWidth = 40
        specs.append(quoted)
        let root = TestPaths.packageRoot
        for path in ["Tests/Fixtures/icons/bootstrap/checkbox3/spec.json", "docs/examples/designsystems/m3-checkbox/spec.json",
                     "docs/examples/rules/clipping-fail/spec.json"] {
            specs.append(try Spec.load(contentsOf: root.appendingPathComponent(path), images: ImageFileReader()))
        }
        var filter = VariantFilter()
        try filter.add("dynamic-type=L,AX5")
        let load = try Plan(specs: [try Spec.load(contentsOf: TestPaths.fixture("bench/load-10x18.json"))], filter: filter)
        let items = try Plan(specs: specs).items + load.items
        var seen: Set<String> = []
        var mismatches = 0
        let renderer = "cairo=1.18.0;pango=1.52.1"
        for item in items {
            let scene = item.scene
            let reference = Self.referenceInputText(scene)
            if scene.inputText != reference {
                mismatches += 1
                if mismatches <= 3 { Issue.record("\(item.variant.id):\n\(scene.inputText)\n≠\n\(reference)") }
            }
            let keys = String(repeating: "ab", count: 32)
            #expect(VariantInputs.digest(scene: scene, keysDigest: keys, renderer: renderer)
                    == SHA256.hex(reference + "keys \(keys)\nrenderer \(renderer)\n"))
            for piece in [" image ", " label ", " clip ", " path ", "\\\"", "Größe", " on ", "/#"] where reference.contains(piece) { seen.insert(piece) }
        }
        #expect(mismatches == 0)
        #expect(items.count > 8_640)
        // Every branch of the text was taken.
        #expect(seen == [" image ", " label ", " clip ", " path ", "\\\"", "Größe", " on ", "/#"])
    }

    @Test("the keys digest memo keeps one digest per size, theme and state")
    func keysDigestMemo() throws {
        var filter = VariantFilter()
        try filter.add("dynamic-type=L")
        let spec = try Spec.load(contentsOf: TestPaths.fixture("bench/load-10x18.json"))
        let plan = try Plan(specs: [spec], filter: filter)
        let inputs = SpecInputs(spec)
        var digests: [String: String] = [:]
        for item in plan.items {
            let v = item.variant
            let digest = inputs.keysDigest(of: v)
            #expect(digest == SpecInputs.keysDigest(inputs.keys(of: v).map { ($0, inputs.keys[$0]!) }))
            let scopes = SpecInputs.scopes(of: v).joined(separator: " ")
            if let earlier = digests[scopes] { #expect(earlier == digest) }
            digests[scopes] = digest
        }
        // load-10x18.json: 10 sizes × 18 themes × 3 states; it writes no `appearance` keys, so the
        // states of a size and theme share their keys, and two sizes differ (each its own `sizes.<name>` keys).
        #expect(digests.count == 10 * 18 * 3)
        #expect(digests["sizes.s0 themes.t0 appearance.unchecked"] == digests["sizes.s0 themes.t0 appearance.mixed"])
        #expect(digests["sizes.s0 themes.t0 appearance.checked"] != digests["sizes.s1 themes.t0 appearance.checked"])
        // The presets and a design system (with `appearance`, image and token keys): the digest made from
        // the lines kept in sorted order is the digest of the sorted keys.
        var others = try Presets.names.map { try Presets.load($0) }
        others.append(try Spec.load(contentsOf: TestPaths.packageRoot.appendingPathComponent("docs/examples/designsystems/m3-checkbox/spec.json"),
                                    images: ImageFileReader()))
        var scoped: Set<String> = []
        for other in others {
            let inputs = SpecInputs(other)
            for key in inputs.keys.keys { if let scope = SpecInputs.scope(of: key) { scoped.insert(String(scope.prefix { $0 != "." })) } }
            for v in other.variants() where v.dynamicType == .large && v.scale == 1 {
                #expect(inputs.keysDigest(of: v) == SpecInputs.keysDigest(inputs.keys(of: v).map { ($0, inputs.keys[$0]!) }), "\(v.id)")
            }
        }
        #expect(scoped == ["sizes", "themes", "appearance"])
    }

    /// `Scene.inputText` as it was written before it wrote bytes (string interpolation), the reference.
    static func referenceInputText(_ scene: Scene) -> String {
        func text(_ r: Rect) -> String {
            var out = ""
            r.x.write(to: &out)
            out += ","
            r.y.write(to: &out)
            out += ","
            r.width.write(to: &out)
            out += "x"
            r.height.write(to: &out)
            return out
        }
        let variant = scene.variant
        var out = "scene 1 "
        out += variant.id
        out += " \(scene.control.rawValue) \(variant.scale)x canvas "
        out += text(scene.canvas)
        out += "\n"
        for p in scene.parts {
            out += "\(p.kind.rawValue) \(p.name) \(p.role.rawValue) "
            out += text(p.rect)
            out += " r\(p.cornerRadius) w\(p.lineWidth) \(p.shape.rawValue) \(p.mark.rawValue)"
            if let c = p.color { out += " \(c.authored.hex)/\(c.seen.hex)" }
            if let b = p.beneath { out += " on \(b.rawValue)" }
            if let i = p.image {
                out += " image \(i.drawn(scale: variant.scale).contentDigest) \(i.template) \(i.opacity) \(i.stretch) \(i.dark) \(i.highContrast)"
            }
            if let l = p.label {
                out += " label \(l.text.debugDescription) \(l.points) \(l.bold) \(text(l.box)) \(text(l.ink)) \(text(l.frame))"
                if let clip = l.clip { out += " clip \(text(clip))" }
            }
            if let m = p.path {
                out += " path \(m.d.debugDescription) \(text(m.viewBox)) \(m.stroke.map { "\($0)" } ?? "fill") \(m.lineCap.rawValue) \(m.lineJoin.rawValue)"
            }
            out += "\n"
        }
        return out
    }
}
