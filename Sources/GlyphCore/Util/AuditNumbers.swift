import Foundation

/// One variant's audit numbers (`AuditMargins` in GlyphAudit, the snapshot manifest's `margins`):
/// each name once, in ascending order (`<`, byte order for the ASCII names the rules use), with
/// its value. Two sorted arrays rather than a dictionary: a run holds one table per variant (51,840
/// in a whole run of the presets), merges three of them per variant and compares each with its
/// manifest's, and sorted arrays merge and compare in one walk, without hashing a name. Tables read
/// from one file share their name arrays where the names are the same.
public struct AuditNumbers: Sendable, Equatable, Codable {
    public private(set) var names: [String]
    public private(set) var values: [Double]

    public init() {
        names = []
        values = []
    }

    public init(_ table: [String: Double]) {
        let sorted = table.sorted { $0.key < $1.key }
        names = sorted.map(\.key)
        values = sorted.map(\.value)
    }

    /// Names already in ascending order, each once, and their values; nil when they are not.
    public init?(sortedNames names: [String], values: [Double]) {
        guard names.count == values.count, zip(names, names.dropFirst()).allSatisfy({ $0 < $1 }) else { return nil }
        self.names = names
        self.values = values
    }

    /// Names and values in any order (a name given twice keeps its last value).
    public init(pairs: [(String, Double)]) {
        if zip(pairs, pairs.dropFirst()).allSatisfy({ $0.0 < $1.0 }) {
            self.init(ascending: pairs.map(\.0), values: pairs.map(\.1))
        } else {
            self.init(Dictionary(pairs, uniquingKeysWith: { _, last in last }))
        }
    }

    /// Names the caller has checked are in ascending order, each once, and their values.
    package init(ascending names: [String], values: [Double]) {
        self.names = names
        self.values = values
    }

    /// Takes `last`'s storage for its names when they are the same (tables read one after another
    /// mostly have the same names: one copy is kept, and comparing them is then immediate), else
    /// makes `last` its names.
    public mutating func shareNames(_ last: inout [String]) {
        if names == last { names = last } else { last = names }
    }

    public var count: Int { names.count }
    public var isEmpty: Bool { names.isEmpty }

    /// The number of `name`, if the table has one.
    public subscript(name: String) -> Double? {
        var low = 0, high = names.count
        while low < high {
            let mid = (low + high) / 2
            if names[mid] < name { low = mid + 1 } else { high = mid }
        }
        return low < names.count && names[low] == name ? values[low] : nil
    }

    /// The table as a dictionary.
    public var table: [String: Double] { Dictionary(uniqueKeysWithValues: zip(names, values)) }

    /// This table's numbers and `other`'s for the names this one lacks; `otherWins`: `other`'s
    /// number where both have one.
    public func merged(with other: AuditNumbers, otherWins: Bool = false) -> AuditNumbers {
        if other.isEmpty { return self }
        if isEmpty { return other }
        if names == other.names { return otherWins ? other : self }
        var out = AuditNumbers()
        out.names.reserveCapacity(count + other.count)
        out.values.reserveCapacity(count + other.count)
        var i = 0, j = 0
        while i < count || j < other.count {
            if j == other.count || (i < count && names[i] < other.names[j]) {
                out.names.append(names[i])
                out.values.append(values[i])
                i += 1
            } else if i == count || other.names[j] < names[i] {
                out.names.append(other.names[j])
                out.values.append(other.values[j])
                j += 1
            } else {
                out.names.append(names[i])
                out.values.append(otherWins ? other.values[j] : values[i])
                i += 1
                j += 1
            }
        }
        return out
    }

    /// The numbers that fell by more than `tolerance` (a share of this table's number: 0.25 = a
    /// quarter) from this table to `after`, as (name, before, after), in name order. Every number
    /// is better when larger; a number of 0 or less has no margin to lose.
    public func losses(to after: AuditNumbers, tolerance: Double) -> [(String, Double, Double)] {
        func lost(_ old: Double, _ new: Double) -> Bool { old > 0 && (old - new) / old > tolerance }
        var out: [(String, Double, Double)] = []
        if names == after.names {
            for k in names.indices where lost(values[k], after.values[k]) { out.append((names[k], values[k], after.values[k])) }
            return out
        }
        var j = 0
        for k in names.indices {
            while j < after.count && after.names[j] < names[k] { j += 1 }
            guard j < after.count, after.names[j] == names[k] else { continue }
            if lost(values[k], after.values[j]) { out.append((names[k], values[k], after.values[j])) }
        }
        return out
    }

    // A JSON object of numbers by name, as the dictionary was.
    public init(from decoder: Decoder) throws {
        self.init(try [String: Double](from: decoder))
    }

    public func encode(to encoder: Encoder) throws {
        try table.encode(to: encoder)
    }
}

extension AuditNumbers: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, Double)...) { self.init(pairs: elements) }
}
