import Foundation

/// "Did you mean …?" for an unknown key or value: the valid word nearest the one written, or nil
/// when none is close enough to be worth saying.
///
/// Compared without regard to case. In order: a valid word equal to it but for case (`Mark` →
/// `mark`); the valid word at the smallest Damerau–Levenshtein distance (an adjacent swap counts as
/// one edit) when that is at most 1 for a word of up to 4 characters, 2 up to 8, 3 beyond, and less
/// than the word's length; a valid word of 3 or more characters the written one contains, the
/// longest (`markImage` → `mark`, `trackWidth` → `width`); a valid word that starts with the written
/// one (4 or more characters), the shortest. Ties go to the word listed first.
public enum Suggest {
    public static func nearest(_ word: String, in candidates: [String]) -> String? {
        let w = word.lowercased()
        guard !w.isEmpty, !candidates.isEmpty else { return nil }
        let lowered = candidates.map { $0.lowercased() }
        if let i = lowered.firstIndex(of: w) { return candidates[i] }
        let limit = w.count <= 4 ? 1 : w.count <= 8 ? 2 : 3
        var best: (distance: Int, index: Int)?
        for (i, c) in lowered.enumerated() {
            // The distance is at least the difference in length: skip what cannot be close.
            guard abs(c.count - w.count) <= limit else { continue }
            let d = distance(Array(w), Array(c))
            if d <= limit, d < w.count, best.map({ d < $0.distance }) ?? true { best = (d, i) }
        }
        if let best { return candidates[best.index] }
        var contained: Int?
        for (i, c) in lowered.enumerated() where c.count >= 3 && w.contains(c) {
            if contained.map({ c.count > lowered[$0].count }) ?? true { contained = i }
        }
        if let contained { return candidates[contained] }
        if w.count >= 4 {
            var extended: Int?
            for (i, c) in lowered.enumerated() where c.hasPrefix(w) {
                if extended.map({ c.count < lowered[$0].count }) ?? true { extended = i }
            }
            if let extended { return candidates[extended] }
        }
        return nil
    }

    /// `; did you mean "mark"?` after a message naming `word`, or "" when nothing is close.
    public static func didYouMean(_ word: String, in candidates: [String]) -> String {
        nearest(word, in: candidates).map { "; did you mean \"\($0)\"?" } ?? ""
    }

    /// The optimal-string-alignment distance (Damerau–Levenshtein with adjacent transpositions).
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var v = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { v = min(v, previous2[j - 2] + 1) }
                current[j] = v
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}
