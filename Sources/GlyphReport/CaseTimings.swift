import Foundation
import GlyphCore

// How long the work behind each JUnit test case took (report.json `timings`, junit.xml `time`).
// Measured by the pipeline when it is asked to (`RunJob.timed`: `glyphaudit run` does unless
// GLYPHAUDIT_REPRODUCIBLE is set); a report without them writes `time="0"` everywhere, so the same
// inputs give byte-identical reports again (docs/report-format.md).

/// A preset's time in a run: the wall time of all its work in the pipeline (rendering, auditing,
/// comparing, writing pictures and evidence, across every component and display setting).
public struct PresetTiming: Codable, Sendable, Equatable {
    public var preset: String
    public var seconds: Double
    /// One per component and display setting, in the order of their first variant.
    public var components: [ComponentTiming]

    public init(preset: String, seconds: Double, components: [ComponentTiming]) {
        self.preset = preset
        self.seconds = seconds
        self.components = components
    }
}

/// One component (under one display setting): the wall time of rendering its variants, comparing
/// them with their baselines and writing their pictures (its JUnit snapshot case), and each rule's
/// wall time on it (its rule cases: the rule's pass over the component's pixels, plus an even share
/// of its pass across the preset's components).
public struct ComponentTiming: Codable, Sendable, Equatable {
    public var component: String
    public var setting: DisplaySetting?
    public var seconds: Double
    public var rules: [RuleTiming]

    public init(component: String, setting: DisplaySetting?, seconds: Double, rules: [RuleTiming]) {
        self.component = component
        self.setting = setting
        self.seconds = seconds
        self.rules = rules
    }
}

public struct RuleTiming: Codable, Sendable, Equatable {
    public var rule: String
    public var seconds: Double

    public init(rule: String, seconds: Double) {
        self.rule = rule
        self.seconds = seconds
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(rule, forKey: .rule)
        try c.encodeSeconds(seconds, forKey: .seconds)
    }
}

extension PresetTiming {
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(preset, forKey: .preset)
        try c.encodeSeconds(seconds, forKey: .seconds)
        try c.encode(components, forKey: .components)
    }
}

extension ComponentTiming {
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(component, forKey: .component)
        try c.encodeIfPresent(setting, forKey: .setting)
        try c.encodeSeconds(seconds, forKey: .seconds)
        try c.encode(rules, forKey: .rules)
    }
}

extension KeyedEncodingContainer {
    /// Seconds as a plain decimal number to the microsecond (`0.000042`, where a Double would be
    /// written `4.2e-05`).
    mutating func encodeSeconds(_ seconds: Double, forKey key: Key) throws {
        try encode(Decimal(string: String(format: "%.6f", seconds.isFinite ? max(0, seconds) : 0)) ?? 0, forKey: key)
    }
}

extension PresetTiming {
    /// Nanoseconds as seconds, to the microsecond (what report.json keeps).
    public static func seconds(_ ns: UInt64) -> Double { Double((ns + 500) / 1000) / 1e6 }

    /// Whole milliseconds, rounded up (a case that took any time at all shows at least 0.001).
    static func milliseconds(_ seconds: Double) -> Int {
        let us = max(0, Int((seconds * 1e6).rounded()))
        return (us + 999) / 1000
    }

    /// Milliseconds as JUnit writes a time: seconds with three decimals (the Jenkins schema's
    /// SUREFIRE_TIME allows no more).
    static func junitTime(_ ms: Int) -> String {
        let frac = String(ms % 1000)
        return "\(ms / 1000)." + String(repeating: "0", count: 3 - frac.count) + frac
    }

    /// The timings of the shards of one run as one: a preset's and a component's seconds summed
    /// (with shards split by variant group, one component may be worked on in several shards).
    public static func merge(_ parts: [[PresetTiming]]) -> [PresetTiming] {
        var out: [PresetTiming] = []
        for part in parts {
            for p in part {
                guard let i = out.firstIndex(where: { $0.preset == p.preset }) else { out.append(p); continue }
                out[i].seconds += p.seconds
                for c in p.components {
                    guard let k = out[i].components.firstIndex(where: { $0.component == c.component && $0.setting == c.setting }) else {
                        out[i].components.append(c)
                        continue
                    }
                    out[i].components[k].seconds += c.seconds
                    for r in c.rules {
                        if let j = out[i].components[k].rules.firstIndex(where: { $0.rule == r.rule }) {
                            out[i].components[k].rules[j].seconds += r.seconds
                        } else {
                            out[i].components[k].rules.append(r)
                        }
                    }
                }
            }
        }
        return out
    }
}

extension RunReport {
    /// The JUnit `time` of each case and suite, in milliseconds (nil without timings: every `time`
    /// is then "0"). A suite's time is its preset's, and never less than the sum of its cases'.
    struct JUnitTimes {
        let timings: [String: PresetTiming]

        init?(_ report: RunReport) {
            guard let t = report.timings else { return nil }
            timings = Dictionary(t.map { ($0.preset, $0) }, uniquingKeysWith: { a, _ in a })
        }

        /// A rule's case: the rule on the component under the setting.
        func rule(_ preset: String, _ rule: String, _ component: String, _ setting: DisplaySetting?) -> Int {
            let c = timings[preset]?.components.first { $0.component == component && $0.setting == setting }
            return PresetTiming.milliseconds(c?.rules.first { $0.rule == rule }?.seconds ?? 0)
        }

        /// A component's snapshot case: its renders and comparisons under every setting.
        func snapshot(_ preset: String, _ component: String) -> Int {
            PresetTiming.milliseconds((timings[preset]?.components ?? []).filter { $0.component == component }.reduce(0) { $0 + $1.seconds })
        }

        func suite(_ preset: String, cases: Int) -> Int {
            max(PresetTiming.milliseconds(timings[preset]?.seconds ?? 0), cases)
        }
    }

    /// Puts `timings` in the report's order: presets as `presets`, components by their first variant.
    mutating func canonicalizeTimings() {
        guard var t = timings else { return }
        let presetOrder = Dictionary(presets.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { a, _ in a })
        var first: [String: Int] = [:]
        for v in variants {
            let key = "\(v.preset)|\(v.component)|\(v.setting?.rawValue ?? "")"
            if first[key] == nil { first[key] = v.index }
        }
        t.sort { (presetOrder[$0.preset] ?? Int.max, $0.preset) < (presetOrder[$1.preset] ?? Int.max, $1.preset) }
        for i in t.indices {
            let p = t[i].preset
            t[i].components.sort { a, b in
                let ka = first["\(p)|\(a.component)|\(a.setting?.rawValue ?? "")"] ?? Int.max
                let kb = first["\(p)|\(b.component)|\(b.setting?.rawValue ?? "")"] ?? Int.max
                return ka != kb ? ka < kb : (a.component, a.setting?.rawValue ?? "") < (b.component, b.setting?.rawValue ?? "")
            }
        }
        timings = t
    }
}
