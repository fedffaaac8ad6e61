import Foundation
import Testing
@testable import GlyphCore

// AuditNumbers keeps a variant's audit numbers as two sorted arrays. Each operation is checked
// against the same operation on dictionaries, written here from its definition, on tables drawn
// from a seeded generator over the names the rules record.
// SplitMix (SVGReferenceCheckTests) as the generator of the random tables: seeded, so that a
// failure is the same every run.
extension SplitMix: RandomNumberGenerator {}

@Suite("Audit numbers as sorted tables")
struct AuditNumbersTests {
    static let names = ["clipping.glyph.room", "clipping.label.room", "contrast.fill", "contrast.tick on fill", "focus-indicator.ring",
                        "state-change.checked.greyscale", "state-change.mixed.protanopia", "target-size", "text-contrast.label"]

    static func table(_ g: inout SplitMix) -> [String: Double] {
        var t: [String: Double] = [:]
        for name in names where Bool.random(using: &g) { t[name] = Double(Int.random(in: -4...40, using: &g)) / 4 }
        return t
    }

    @Test("made from a dictionary: names ascending, each with its number; looked up by name")
    func fromDictionary() {
        var g = SplitMix(seed: 1)
        for _ in 0..<200 {
            let t = Self.table(&g)
            let n = AuditNumbers(t)
            #expect(n.names == t.keys.sorted())
            #expect(n.table == t)
            for name in Self.names + ["", "zzz", "contrast"] { #expect(n[name] == t[name]) }
            // From pairs in any order, a name twice keeping its last number.
            var pairs = t.map { ($0.key, $0.value) }.shuffled(using: &g)
            if let first = pairs.first { pairs.append((first.0, 99)) }
            var expected = t
            if let first = pairs.first { expected[first.0] = 99 }
            #expect(AuditNumbers(pairs: pairs) == AuditNumbers(expected))
        }
        #expect(AuditNumbers(sortedNames: ["b", "a"], values: [1, 2]) == nil)
        #expect(AuditNumbers(sortedNames: ["a", "a"], values: [1, 2]) == nil)
        #expect(AuditNumbers(sortedNames: ["a", "b"], values: [1, 2])?["b"] == 2)
    }

    @Test("merged: the first table's number kept where both have one, or the other's when it wins")
    func merged() {
        var g = SplitMix(seed: 2)
        for _ in 0..<500 {
            let a = Self.table(&g), b = Self.table(&g)
            #expect(AuditNumbers(a).merged(with: AuditNumbers(b)).table == a.merging(b) { first, _ in first })
            #expect(AuditNumbers(a).merged(with: AuditNumbers(b), otherWins: true).table == a.merging(b) { _, other in other })
            // The same names, other numbers.
            let c = a.mapValues { $0 + 1 }
            #expect(AuditNumbers(a).merged(with: AuditNumbers(c), otherWins: true) == AuditNumbers(c))
            #expect(AuditNumbers(a).merged(with: AuditNumbers(c)) == AuditNumbers(a))
        }
    }

    @Test("losses: the numbers that fell by more than the tolerance, in name order")
    func losses() {
        var g = SplitMix(seed: 3)
        var found = 0
        for _ in 0..<500 {
            let before = Self.table(&g), after = Self.table(&g)
            let tolerance = [0, 0.1, 0.25, 0.5][Int.random(in: 0..<4, using: &g)]
            // The definition: a positive number that lost more than `tolerance` of itself.
            let expected = before.keys.sorted().compactMap { name -> (String, Double, Double)? in
                guard let old = before[name], let new = after[name], old > 0, (old - new) / old > tolerance else { return nil }
                return (name, old, new)
            }
            let got = AuditNumbers(before).losses(to: AuditNumbers(after), tolerance: tolerance)
            #expect(got.map(\.0) == expected.map(\.0) && got.map(\.1) == expected.map(\.1) && got.map(\.2) == expected.map(\.2))
            found += got.count
        }
        #expect(found > 100, "the tables lose numbers often enough to test it")
        // A known case: 48 → 30 is 37.5 % lost; 0 has no margin; a name only before is no loss.
        let before: AuditNumbers = ["target-size": 48, "clipping.glyph.room": 0, "contrast.fill": 4.5]
        let after: AuditNumbers = ["target-size": 30, "clipping.glyph.room": -3]
        #expect(before.losses(to: after, tolerance: 0.25).map(\.0) == ["target-size"])
        #expect(before.losses(to: after, tolerance: 0.4).isEmpty)
    }

    @Test("tables read one after another share one copy of the same names")
    func sharedNames() {
        var last: [String] = []
        var a = AuditNumbers(["x": 1, "y": 2]), b = AuditNumbers(["x": 3, "y": 4]), c = AuditNumbers(["x": 5])
        a.shareNames(&last)
        b.shareNames(&last)
        c.shareNames(&last)
        #expect(a.names.withUnsafeBufferPointer { $0.baseAddress } == b.names.withUnsafeBufferPointer { $0.baseAddress })
        #expect(last == ["x"] && b["y"] == 4 && c.table == ["x": 5])
    }

    @Test("as JSON: an object of numbers by name, as the dictionary was")
    func json() throws {
        let n: AuditNumbers = ["target-size": 44, "contrast.fill": 7.005]
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(String(decoding: try encoder.encode(n), as: UTF8.self) == #"{"contrast.fill":7.005,"target-size":44}"#)
        #expect(try JSONDecoder().decode(AuditNumbers.self, from: Data(#"{"b":2,"a":1}"#.utf8)) == ["a": 1, "b": 2])
    }
}
