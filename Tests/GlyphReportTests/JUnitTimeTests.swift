import Foundation
import Testing
import GlyphAudit
import GlyphCore
@testable import GlyphReport
import GlyphTestSupport

// junit.xml's `time` from report.json's `timings` (docs/report-format.md): each number below is worked
// out by hand from the timings set here (milliseconds, rounded up).

/// The sample report with timings: alpha's suite longer than its cases, beta's shorter.
private func timedSample() -> RunReport {
    var r = SampleReport.make()
    r.timings = [
        PresetTiming(preset: "beta", seconds: 0.001, components: [
            ComponentTiming(component: "switch-md", setting: nil, seconds: 0.0305, rules: [RuleTiming(rule: "state-shape", seconds: 0.002)]),
        ]),
        PresetTiming(preset: "alpha", seconds: 0.5, components: [
            ComponentTiming(component: "square-md", setting: .boldText, seconds: 0.1, rules: []),
            ComponentTiming(component: "square-md", setting: nil, seconds: 0.2, rules: [
                RuleTiming(rule: "state-shape", seconds: 0.0123), RuleTiming(rule: "nontext-contrast", seconds: 0.000042),
                RuleTiming(rule: "target-size", seconds: 0.001),
            ]),
        ]),
    ]
    r.canonicalize()
    return r
}

@Suite("JUnit times")
struct JUnitTimeTests {
    /// `time` of each element: `testsuites`, then each `testsuite` and `testcase` as "suite" / "classname name".
    static func times(_ xml: String) throws -> [String: String] {
        var out: [String: String] = [:]
        var suite = ""
        for line in xml.split(separator: "\n") {
            let l = String(line)
            guard let time = l.firstMatch(of: #/ time="([^"]*)"/#)?.output.1 else { continue }
            if l.contains("<testsuites ") { out["testsuites"] = String(time) }
            if let name = l.firstMatch(of: #/<testsuite name="([^"]*)"/#)?.output.1 { suite = String(name); out[suite] = String(time) }
            if let m = l.firstMatch(of: #/<testcase classname="([^"]*)" name="([^"]*)"/#) {
                out["\(m.output.1) \(m.output.2)"] = String(time)
            }
        }
        return out
    }

    @Test("each case's time is its rule's or its renders' (rounded up to the millisecond); a suite at least the sum of its cases; testsuites their sum")
    func timesFromTimings() throws {
        let t = try Self.times(timedSample().junitXML())
        let expected = [
            // 12.3 ms → 13; 0.042 ms → 1 (any time at all shows); exactly 1 ms stays 1.
            "alpha.state-shape square-md": "0.013", "alpha.nontext-contrast square-md": "0.001", "alpha.target-size square-md": "0.001",
            // The snapshot case: the component's renders under every setting, 200 + 100 ms.
            "alpha.snapshot square-md": "0.300",
            // alpha: its 500 ms, more than its cases' 13 + 1 + 1 + 300.
            "alpha": "0.500",
            "beta.state-shape switch-md": "0.002", "beta.nontext-contrast switch-md": "0.000", "beta.target-size switch-md": "0.000",
            "beta.snapshot switch-md": "0.031",
            // beta: 1 ms measured, less than its cases' 2 + 31: the sum.
            "beta": "0.033",
            "testsuites": "0.533",
        ]
        #expect(t == expected)
        // report.json keeps them to the microsecond as plain decimals, in the report's order, and reads them back.
        let json = String(decoding: try timedSample().jsonData(), as: UTF8.self)
        let seconds = json.matches(of: #/"seconds" : ([^,\n}]+)/#).map { String($0.output.1) }
        #expect(seconds.count == 2 + 3 + 4 && seconds.contains("0.000042"), "\(seconds)")
        #expect(seconds.allSatisfy { $0.wholeMatch(of: #/[0-9]+(\.[0-9]+)?/#) != nil }, "no exponent: \(seconds)")
        #expect(try #require(json.range(of: "\"preset\" : \"alpha\"")).lowerBound < #require(json.range(of: "\"preset\" : \"beta\"")).lowerBound)
        let back = try RunReport.decode(timedSample().jsonData(), file: "report.json")
        #expect(back.timings == timedSample().timings)
        #expect(back.timings?[0].components.map { $0.setting } == [nil, .boldText], "the default rendering's first, as the variants")
    }

    @Test("without timings every time is 0 and report.json has no timings key: the reports of before")
    func untimed() throws {
        let r = SampleReport.make()
        #expect(r.timings == nil)
        #expect(Set(try Self.times(r.junitXML()).values) == ["0"])
        #expect(!String(decoding: try r.jsonData(), as: UTF8.self).contains("timings"))
        var timed = timedSample()
        timed.timings = nil
        #expect(timed.junitXML() == r.junitXML())
    }

    @Test("shards' timings add up, per preset, component and rule")
    func merged() {
        let a = [PresetTiming(preset: "p", seconds: 1, components: [
            ComponentTiming(component: "c", setting: nil, seconds: 0.5, rules: [RuleTiming(rule: "r", seconds: 0.25)])])]
        let b = [PresetTiming(preset: "p", seconds: 2, components: [
            ComponentTiming(component: "c", setting: nil, seconds: 0.125, rules: [RuleTiming(rule: "r", seconds: 0.5), RuleTiming(rule: "s", seconds: 1)]),
            ComponentTiming(component: "c", setting: .boldText, seconds: 4, rules: [])]),
            PresetTiming(preset: "q", seconds: 3, components: [])]
        #expect(PresetTiming.merge([a, b]) == [
            PresetTiming(preset: "p", seconds: 3, components: [
                ComponentTiming(component: "c", setting: nil, seconds: 0.625, rules: [RuleTiming(rule: "r", seconds: 0.75), RuleTiming(rule: "s", seconds: 1)]),
                ComponentTiming(component: "c", setting: .boldText, seconds: 4, rules: [])]),
            PresetTiming(preset: "q", seconds: 3, components: []),
        ])
    }

    @Test("a timed junit.xml validates against the Jenkins JUnit XSD (SUREFIRE_TIME: at most three decimals)",
          .enabled(if: SchemaValidation.junitUnavailable == nil, "\(SchemaValidation.junitUnavailable ?? "")"))
    func schema() throws {
        var long = timedSample()
        long.timings![0].seconds = 1234.5678
        for r in [timedSample(), long] {
            let outcome = try SchemaValidation.validateJUnit(r.junitXML(attachmentBase: "out"))
            #expect(outcome.valid, "\(outcome.output)")
        }
        #expect(try Self.times(long.junitXML())["alpha"] == "1234.568")
        // The schema does refuse a fourth decimal, so the check can fail.
        let fine = try SchemaValidation.validateJUnit(timedSample().junitXML().replacingOccurrences(of: "time=\"0.500\"", with: "time=\"0.5001\""))
        #expect(!fine.valid)
    }
}
