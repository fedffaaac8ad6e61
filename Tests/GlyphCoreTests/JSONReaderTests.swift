import Foundation
import Testing
@testable import GlyphCore

// JSONReader (RFC 8259, strict): strings without escapes are taken as they stand, strings with
// escapes are decoded; duplicate keys are refused in a small object and in a large one; errors keep
// their place (line and column, 1-based, counted by hand below).
@Suite("Reading JSON")
struct JSONReaderTests {
    func parse(_ text: String) throws(JSONSyntaxError) -> JSONNode { try JSONReader.parse(Data(text.utf8)) }

    @Test("strings with and without escapes, and the small tables read from objects")
    func strings() throws {
        let node = try parse(#"{"plain": "a/b c", "escaped": "q\"\\\/\n\t\u00e9\ud83d\ude00", "utf8": "é😀", "n": {"x": 1.5, "y": -2e-3}}"#)
        #expect(node["plain"]?.string == "a/b c")
        #expect(node["escaped"]?.string == "q\"\\/\n\té😀")
        #expect(node["utf8"]?.string == "é😀")
        #expect(node["n"]?.numberTable == ["x": 1.5, "y": -0.002])
        #expect(node["plain"]?.numberTable == nil)
        #expect(try parse(#"{"a": {"b": "x", "c": "y"}, "d": {}}"#).stringTables == ["a": ["b": "x", "c": "y"], "d": [:]])
        #expect(try parse(#"{"a": {"b": 1}}"#).stringTables == nil)
    }

    @Test("numbers read as Double(String) reads their text: the exact fast path and the rest")
    func numbers() throws {
        // Edge cases of the fast path (Clinger's: at most 2^53, a power of ten within ±22) and beyond it.
        var texts = ["0", "-0", "1", "-1", "0.1", "0.2", "0.3", "1.5", "-2e-3", "1E+2", "1e22", "1e23", "1e-22", "1e-23",
                     "9007199254740992", "9007199254740993", "9007199254740991.5", "4.995014620112325", "64.1416015625",
                     "0.000000000000000000000000001", "123456789012345678901234567890", "1.7976931348623157e308",
                     "5e-324", "2.2250738585072014e-308", "0.1e1", "100e-2", "0.00", "1234.5678e-10", "7e0"]
        // Seeded: integers, decimals of up to 20 digits, with and without exponents.
        var random = SplitMix(seed: 0xD0_0B1E)
        for _ in 0..<20_000 {
            let digits = Int(random.next() % 20) + 1
            var text = random.next() % 2 == 0 ? "-" : ""
            var body = String(random.next() % 9 + 1)
            for _ in 1..<digits { body += String(random.next() % 10) }
            let point = Int(random.next() % UInt64(digits + 1))
            if point > 0 && point < digits { body.insert(".", at: body.index(body.startIndex, offsetBy: point)) }
            text += body
            if random.next() % 3 == 0 { text += "e" + String(Int(random.next() % 61) - 30) }
            texts.append(text)
        }
        for text in texts {
            let expected = try #require(Double(text))
            let read = try parse("[\(text)]").array?.first?.number
            #expect(read?.bitPattern == expected.bitPattern, "\(text)")
        }
    }

    @Test("a duplicate key among few members and among many")
    func duplicates() {
        let few = #"{"a": 1, "b": 2, "a": 3}"#
        let many = "{" + (0..<20).map { "\"k\($0)\": \($0)" }.joined(separator: ", ") + ", \"k3\": 0}"
        let distinct = "{" + (0..<40).map { "\"k\($0)\": \($0)" }.joined(separator: ", ") + "}"
        for text in [few, many] {
            #expect(throws: JSONSyntaxError.self) { try parse(text) }
            do { _ = try parse(text) } catch { #expect(error.message.hasPrefix("duplicate key")) }
        }
        #expect((try? parse(distinct))?.table(\.number)?.count == 40)
    }

    @Test("invalid UTF-8 and a control character in a string: the message and its place")
    func placeOfErrors() {
        // {"a": "<FF>"}: the string closes at column 9; the error is given after it, at column 10.
        var bytes = Array(#"{"a": ""#.utf8) + [0xFF] + Array(#""}"#.utf8)
        do { _ = try JSONReader.parse(Data(bytes)); Issue.record("read invalid UTF-8") } catch {
            #expect(error.message == "invalid UTF-8 in a string")
            #expect((error.line, error.column) == (1, 10))
        }
        // The same after an escape: {"a": "\n<FF>"} closes at column 11, the error at 12.
        bytes = Array(#"{"a": "\n"#.utf8) + [0xFF] + Array(#""}"#.utf8)
        do { _ = try JSONReader.parse(Data(bytes)); Issue.record("read invalid UTF-8") } catch {
            #expect((error.line, error.column) == (1, 12))
        }
        // A tab inside a string on line 2, column 9.
        do { _ = try parse("{\n \"a\": \"x\ty\"}"); Issue.record("read a control character") } catch {
            #expect(error.message == "control character inside a string")
            #expect((error.line, error.column) == (2, 9))
        }
    }
}
