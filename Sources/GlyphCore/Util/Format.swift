import Foundation

public enum Format {
    /// A contrast ratio for a message: truncated (never rounded up) to two decimals, so 2.999 shows
    /// as 2.99:1 and never as "3.00:1, needs 3:1".
    public static func ratio(_ r: Double) -> String {
        let t = (r * 100).rounded(.down) / 100
        return String(format: "%.2f:1", t)
    }

    /// A threshold such as 3 or 4.5, without trailing zeros.
    public static func number(_ v: Double) -> String {
        if v == v.rounded() { return String(Int(v)) }
        var s = String(format: "%.3f", v)
        while s.hasSuffix("0") { s.removeLast() }
        return s
    }

    /// Points with one decimal (lengths are measured; the message is for people).
    public static func points(_ v: Double) -> String { String(format: "%.1f", v) }

    /// A share as a percentage: whole numbers without decimals, others with one (2.5%). For a value
    /// measured against a threshold use `percent(_:threshold:failsBelow:)`, which never shows a
    /// failing value equal to its threshold.
    public static func percent(_ v: Double) -> String {
        let p = v * 100
        return abs(p - p.rounded()) < 1e-9 ? String(format: "%.0f%%", p) : String(format: "%.1f%%", p)
    }

    /// A threshold as a percentage, as configured: 2.5%, 2.49% (as many decimals as it has, up to eight).
    public static func thresholdPercent(_ t: Double) -> String {
        let p = t * 100
        for digits in 0...8 {
            let f = pow(10, Double(digits))
            if abs((p * f).rounded() / f - p) < 1e-9 { return String(format: "%.\(digits)f%%", p) }
        }
        return String(format: "%.8f%%", p)
    }

    /// A share measured against `threshold` (printed with `thresholdPercent`): it fails below the
    /// threshold when `failsBelow`, above it otherwise. Printed like `percent`, with as many more
    /// decimals as it takes (up to eight) whenever the plain form would show a failing value equal to
    /// the threshold or any value on the wrong side of it: 0.0249 against 0.025 is "2.49%", never
    /// "2.5% … needs 2.5%". Past eight decimals it is cut towards its own side of the threshold.
    public static func percent(_ v: Double, threshold: Double, failsBelow: Bool) -> String {
        let p = v * 100
        let shownThreshold = Double(thresholdPercent(threshold).dropLast()) ?? threshold * 100
        let fails = failsBelow ? v < threshold : v > threshold
        func honest(_ shown: Double) -> Bool {
            if fails { return failsBelow ? shown < shownThreshold : shown > shownThreshold }
            return failsBelow ? shown >= shownThreshold : shown <= shownThreshold
        }
        let plain = percent(v)
        if let shown = Double(plain.dropLast()), honest(shown) { return plain }
        for digits in 1...8 {
            let f = pow(10, Double(digits))
            let shown = (p * f).rounded() / f
            if honest(shown) { return String(format: "%.\(digits)f%%", shown) }
        }
        let below = v < threshold
        let cut = below ? (p * 1e8 + 1e-6).rounded(.down) / 1e8 : (p * 1e8 - 1e-6).rounded(.up) / 1e8
        return String(format: "%.8f%%", cut)
    }

    /// A list of Dynamic Type sizes, runs collapsed: `xS S M`, `xxL–AX5`.
    public static func sizes(_ sizes: [DynamicTypeSize]) -> String {
        let sorted = Array(Set(sizes)).sorted()
        var parts: [String] = []
        var i = 0
        while i < sorted.count {
            var j = i
            while j + 1 < sorted.count, sorted[j + 1].index == sorted[j].index + 1 { j += 1 }
            if j - i >= 2 {
                parts.append("\(sorted[i].short)–\(sorted[j].short)")
            } else {
                for k in i...j { parts.append(sorted[k].short) }
            }
            i = j + 1
        }
        return parts.joined(separator: " ")
    }
}

/// `1 error`, `2 errors`, `3 info` (info has no plural).
public func counted(_ n: Int, _ noun: String) -> String {
    n == 1 || noun == "info" ? "\(n) \(noun)" : "\(n) \(noun)s"
}
