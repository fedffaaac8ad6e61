import Foundation
import Testing
@testable import GlyphCore
import GlyphColor
import GlyphRender
import GlyphTestSupport

// Issue 24, item 4: token resolution is linear. The reproducers are Tests/Fixtures/bad-input/17, 18
// and 19 (their README.md says what a correct tool does); the large token files are made here as each
// folder's gen.py makes them, at ten times the size their README measured.

@Suite("Token resolution is linear: $ref fan-out, $extends chains, $ref token chains (bad-input 17–19)")
struct TokenBadInputTests {
    /// 17's gen.py: x.c's three colour components point at x.d.$value[0], an array of two pointers to
    /// x.d.$value[1], …, N levels, then the number 0.
    static func fanout(_ n: Int) -> String {
        let levels = (0..<n).map { i in "[{\"$ref\": \"#/x/d/$value/\(i + 1)\"}, {\"$ref\": \"#/x/d/$value/\(i + 1)\"}]" } + ["0"]
        let component = "{\"$ref\": \"#/x/d/$value/0\"}"
        return """
        {"x": {"$type": "color", "c": {"$value": {"colorSpace": "srgb", "components": [\(component), \(component), \(component)]}},
               "d": {"$type": "number", "$value": [\(levels.joined(separator: ", "))]}}}
        """
    }

    /// 18's gen.py: `chain N` (g1…gN, each extending the one before, written last first; g0 holds
    /// t0) or `wide N` (b extends a, each with N tokens of its own). x.c is the spec's colour.
    static func extends(_ kind: String, _ n: Int) -> String {
        var members = [##""$type": "color""##, ##""c": {"$value": "#000000"}"##]
        if kind == "chain" {
            members.append(##""g0": {"t0": {"$value": "#010101"}}"##)
            for i in stride(from: n, through: 1, by: -1) { members.append("\"g\(i)\": {\"$extends\": \"{x.g\(i - 1)}\"}") }
        } else {
            members.append("\"a\": {" + (0..<n).map { "\"t\($0)\": {\"$value\": \"#000000\"}" }.joined(separator: ", ") + "}")
            members.append("\"b\": {\"$extends\": \"{x.a}\", " + (0..<n).map { "\"u\($0)\": {\"$value\": \"#000000\"}" }.joined(separator: ", ") + "}")
        }
        return "{\"x\": {" + members.joined(separator: ", ") + "}}"
    }

    /// A resolver naming `file` as its one set's one source: the same token file read through it.
    static func resolver(_ file: String) -> String {
        ##"{ "version": "2025.10", "sets": { "base": { "sources": [ { "$ref": "\##(file)" } ] } }, "resolutionOrder": [ { "$ref": "#/sets/base" } ] }"##
    }

    func load(_ folder: TempFolder, _ spec: String) -> Result<Spec, InputError> {
        do { return .success(try Spec.load(contentsOf: folder.url.appendingPathComponent(spec))) } catch { return .failure(error) }
    }

    /// 17's spec, with its "tokens" naming `tokens` instead of tokens.json.
    func spec(_ folder: TempFolder, tokens: String, as name: String) throws -> String {
        let text = try String(contentsOf: folder.url.appendingPathComponent("spec.json"), encoding: .utf8)
        folder.write(name, text.replacingOccurrences(of: "\"tokens.json\"", with: "\"\(tokens)\""))
        return name
    }

    @Test("17: JSON Pointers that fan out 2^N are refused at once at the spec key, naming the token, its file and the limit")
    func pointerFanout() throws {
        let folder = try badInputFixture("17")
        folder.write("t.resolver.json", Self.resolver("tokens.json"))
        let viaResolver = try spec(folder, tokens: "t.resolver.json", as: "spec-resolver.json")
        for n in [24, 60] {
            let tokens = folder.write("tokens.json", Self.fanout(n))
            #expect(try Data(contentsOf: tokens).count < 4096, "a small file")
            for (specFile, tokenFile) in [("spec.json", "tokens.json"), (viaResolver, "tokens.json")] {
                guard case let .failure(e) = load(folder, specFile) else { Issue.record("N=\(n) \(specFile) loaded"); continue }
                #expect(e.file.hasSuffix("/" + specFile) && e.keyPath == "themes.default.border", "\(e)")
                // The colour is x.c, written on line 1 of the file (the resolver names the file it came from).
                #expect(e.message == "token x.c in \(folder.url.path)/\(tokenFile):1: its JSON Pointers (\"$ref\") expand to more than "
                        + "1000000 values; the limit is 1000000 (docs/limits.md)", "N=\(n) \(specFile): \(e.message)")
            }
        }
        // N = 4: 3 · 2^5 = 96 values, inside the limit: what is refused is the colour (its components are arrays).
        folder.write("tokens.json", Self.fanout(4))
        guard case let .failure(small) = load(folder, "spec.json") else { Issue.record("N=4 loaded"); return }
        #expect(small.message.contains("srgb components are numbers"), "\(small.message)")
    }

    @Test("17: the expanded value is counted exactly: 3 · 2^(N+1) values at N = 4 are built at a limit of 96, refused at 95")
    func pointerBudget() throws {
        let set = try TokenSet(file: "t.tokens.json", root: JSONReader.parse(Data(Self.fanout(4).utf8)), format: .dtcg)
        let c = try #require(set.tokens["x.c"])
        // The object, "srgb", the array, and three times level 0: level i is an array of two level i+1,
        // level 4 the number 0: 2^(5−i) − 1 values, 31 at level 0. 3 + 3 · 31 = 96 = 3 · 2^5.
        func count(_ n: JSONNode) -> Int {
            switch n.value {
            case let .object(m): return 1 + m.reduce(0) { $0 + count($1.value) }
            case let .array(a): return 1 + a.reduce(0) { $0 + count($1) }
            default: return 1
            }
        }
        let built = try set.resolvingPointers(c.value, at: ["x", "c"], limit: 96)
        #expect(count(built) == 96)
        #expect(count(built["components"]!) == 1 + 3 * 31)
        #expect(throws: InputError.self) { try set.resolvingPointers(c.value, at: ["x", "c"], limit: 95) }
        // A cycle of pointers is named as one (not found by running 128 deep).
        let loop = try TokenSet(file: "t.tokens.json", root: JSONReader.parse(Data(##"""
            {"x": {"$type": "number", "a": {"$value": [{"$ref": "#/x/b/$value"}]}, "b": {"$value": [{"$ref": "#/x/a/$value"}]}}}
            """##.utf8)), format: .dtcg)
        #expect {
            try loop.resolvingPointers(loop.tokens["x.a"]!.value, at: ["x", "a"])
        } throws: { ($0 as? InputError)?.message.contains("leads back to itself (a cycle of JSON Pointers)") == true }
    }

    @Test("18: a 20,000-group $extends chain and two 20,000-token groups load, directly and through a resolver")
    func extendsLinear() throws {
        let folder = try badInputFixture("18")
        folder.write("t.resolver.json", Self.resolver("tokens.json"))
        let viaResolver = try spec(folder, tokens: "t.resolver.json", as: "spec-resolver.json")
        // Ten times the 2,000 groups that took 17.5 s (README).
        folder.write("tokens.json", Self.extends("chain", 20_000))
        let chain = try TokenSet(contentsOf: folder.url.appendingPathComponent("tokens.json"), format: .dtcg)
        #expect(chain.tokens.count == 1 + 20_001, "x.c and t0 under each of g0…g20000")
        #expect(chain.tokens["x.g20000.t0"]?.value.value == .string("#010101"))
        #expect(chain.tokens["x.g1.t0"]?.type == "color")
        for specFile in ["spec.json", viaResolver] {
            let spec = try load(folder, specFile).get()
            #expect(spec.themes[0].colors[.border]?.rgba.hex == "#000000", "\(specFile)")
        }
        // Group size: b extends a, 20,000 tokens each (2 × 20k took 3.9 s).
        folder.write("tokens.json", Self.extends("wide", 20_000))
        let wide = try TokenSet(contentsOf: folder.url.appendingPathComponent("tokens.json"), format: .dtcg)
        #expect(wide.tokens.count == 1 + 20_000 + 40_000)
        #expect(wide.tokens["x.b.t19999"] != nil && wide.tokens["x.b.u19999"] != nil && wide.tokens["x.a.u0"] == nil)
        #expect(try load(folder, viaResolver).get().themes[0].colors[.border]?.rgba.hex == "#000000")
    }

    @Test("18: a 20,000-group cycle is one short message naming its first and last steps")
    func extendsCycle() throws {
        var text = Self.extends("chain", 20_000)
        text = text.replacingOccurrences(of: ##""g0": {"t0""##, with: ##""g0": {"$extends": "{x.g20000}", "t0""##)
        let root = try JSONReader.parse(Data(text.utf8))
        do {
            _ = try TokenSet(file: "t.tokens.json", root: root, format: .dtcg)
            Issue.record("a cycle loaded")
        } catch {
            // Collected in file order: g0 (written first) extends g20000, which extends g19999, … g1, which
            // extends g0: the cycle closes at g1's $extends.
            #expect(error.keyPath == "x.g1.$extends", "\(error)")
            #expect(error.message == "circular group extension of 20001 groups: {x.g0} → {x.g20000} → {x.g19999} → … → {x.g1} → {x.g0}",
                    "\(error.message)")
        }
    }

    @Test("19: a token-level $ref to a $ref token is an alias chain; its cycle is a token alias cycle at the spec key")
    func refTokenChain() throws {
        let folder = try badInputFixture("19")
        for name in ["one-step", "chain"] {
            let spec = try load(folder, "spec-\(name).json").get()
            let border = try #require(spec.themes[0].colors[.border])
            // README: the chain c → d → e renders, like one-step; e is #112233.
            #expect(border.rgba.hex == "#112233", "\(name)")
            #expect(border.aliasChain == (name == "chain" ? ["x.c", "x.d", "x.e"] : ["x.c", "x.e"]), "\(name): \(border.aliasChain)")
        }
        guard case let .failure(e) = load(folder, "spec-cycle.json") else { Issue.record("the cycle loaded"); return }
        #expect(e.file.hasSuffix("/spec-cycle.json") && e.keyPath == "themes.default.border" && e.line == 17, "\(e)")
        #expect(e.message == "token alias cycle: {x.c} → {x.d} → {x.c}")
        // A chain of 20,000 such tokens (each deciding it is a token walks the rest of the chain once,
        // not once per token), and one whose end points back at its start.
        var chain = (0..<20_000).map { "\"c\($0)\": {\"$ref\": \"#/x/c\($0 + 1)\"}" }
        chain.append(##""c20000": {"$value": "#445566"}"##)
        let long = try TokenSet(file: "t.tokens.json", root: JSONReader.parse(Data(("{\"x\": {\"$type\": \"color\", " + chain.joined(separator: ", ") + "}}").utf8)),
                                format: .dtcg)
        let origin = InputError(file: "spec.json", keyPath: "themes.default.border", message: "")
        #expect(try long.chain("x.c0", origin: origin).map(\.path).count == 20_001)
        #expect(try long.resolve("x.c0", origin: origin).node.value == .string("#445566"))
        chain[20_000] = ##""c20000": {"$ref": "#/x/c0"}"##
        let ring = try TokenSet(file: "t.tokens.json", root: JSONReader.parse(Data(("{\"x\": {\"$type\": \"color\", " + chain.joined(separator: ", ") + "}}").utf8)),
                                format: .dtcg)
        #expect(ring.tokens.count == 20_001, "every one is a token (an alias), none a group")
        #expect { try ring.chain("x.c0", origin: origin) } throws: {
            ($0 as? InputError)?.message == "token alias cycle of 20001 tokens: {x.c0} → {x.c1} → {x.c2} → … → {x.c20000} → {x.c0}"
        }
        // A group-level $ref (the object has members of its own) still extends a group.
        let group = try TokenSet(file: "t.tokens.json", root: JSONReader.parse(Data(##"""
            {"x": {"$type": "color", "a": {"t": {"$value": "#010203"}}, "r": {"$ref": "#/x/q"}, "q": {"$ref": "#/x/a"},
                   "b": {"$ref": "#/x/a", "u": {"$value": "#040506"}}}}
            """##.utf8)), format: .dtcg)
        #expect(group.tokens["x.b.t"]?.value.value == .string("#010203") && group.tokens["x.b.u"] != nil)
        // r → q → a, where a is a group: r and q are groups extending a (no member of their own needed).
        #expect(group.tokens["x.r.t"] != nil && group.tokens["x.q.t"] != nil && group.tokens["x.r"] == nil)
    }

    @Test("resolver files: sets naming a set twice over are refused at once; 20,000 sources merge in place, the last one winning")
    func resolverFanout() throws {
        let folder = try badInputFixture("17")
        let spec = try spec(folder, tokens: "t.resolver.json", as: "spec-resolver.json")
        // s0 lists s1 twice, s1 lists s2 twice, … s24 holds one source of 5 values: s(24−k) holds 5 · 2^k,
        // first past 1,000,000 at k = 18 (1,310,720): s6, made of s7 twice, is refused at its second.
        var sets = (0..<24).map { "\"s\($0)\": { \"sources\": [ { \"$ref\": \"#/sets/s\($0 + 1)\" }, { \"$ref\": \"#/sets/s\($0 + 1)\" } ] }" }
        sets.append(##""s24": { "sources": [ { "x": { "$type": "color", "c": { "$value": "#000000" } } } ] }"##)
        folder.write("t.resolver.json", ##"{ "version": "2025.10", "sets": { "## + sets.joined(separator: ", ")
                     + ##" }, "resolutionOrder": [ { "$ref": "#/sets/s0" } ] }"##)
        guard case let .failure(e) = load(folder, spec) else { Issue.record("the fan-out loaded"); return }
        #expect(e.file.hasSuffix("/t.resolver.json") && e.keyPath == "sets.s6.sources[1].$ref", "\(e)")
        #expect(e.message == "the token sources listed here hold more than 1000000 values in all (a file or set named twice counts "
                + "twice); the limit is 1000000 (docs/limits.md)", "\(e.message)")
        // 20,000 inline sources, each adding x.tK, and x.c written three times: the last source's wins.
        var sources = (0..<20_000).map { "{ \"x\": { \"t\($0)\": { \"$value\": \"#000000\" } } }" }
        sources.insert(##"{ "x": { "$type": "color", "c": { "$value": "#111111" }, "g": { "u": { "$value": "#222222" } } } }"##, at: 0)
        sources.insert(##"{ "x": { "c": { "$value": "#333333" }, "g": { "v": { "$value": "#444444" } } } }"##, at: 10_000)
        sources.append(##"{ "x": { "c": { "$value": "#0A0B0C" } } }"##)
        folder.write("t.resolver.json", ##"{ "version": "2025.10", "sets": { "a": { "sources": [ "## + sources.joined(separator: ", ")
                     + ##" ] } }, "resolutionOrder": [ { "$ref": "#/sets/a" } ] }"##)
        #expect(try load(folder, spec).get().themes[0].colors[.border]?.rgba.hex == "#0A0B0C")
        let resolver = try TokenResolver(file: "t.resolver.json", root: JSONReader.parse(Data(contentsOf: folder.url.appendingPathComponent("t.resolver.json"))),
                                         format: .dtcg) { ref, node, key throws(InputError) in
            throw InputError(file: ref, message: "no files here")
        }
        let set = try resolver.tokens(contexts: [:])
        // x.c, x.g.u and x.g.v (the groups merge), and t0…t19999.
        #expect(set.tokens.count == 3 + 20_000)
        #expect(set.tokens["x.g.u"]?.value.value == .string("#222222") && set.tokens["x.g.v"]?.value.value == .string("#444444"))
        #expect(set.tokens["x.t19999"]?.type == "color", "x's $type, from the first source, stays")
    }
}
