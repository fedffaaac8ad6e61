import Foundation
import Testing
import GlyphTestSupport

// junit.xml's `time` values as `glyphaudit run` measures them (the reduced built-in matrix, one
// baseline changed), and GLYPHAUDIT_REPRODUCIBLE, which leaves them out.

@Suite("glyphaudit run: JUnit times")
struct CLIJUnitTimeTests {
    /// Milliseconds of a JUnit `time` ("1.234"); nil when it is not a decimal with three places.
    static func ms(_ time: Substring) -> Int? {
        guard let m = time.wholeMatch(of: #/([0-9]+)\.([0-9]{3})/#), let s = Int(m.output.1), let f = Int(m.output.2) else { return nil }
        return s * 1000 + f
    }

    @Test("every case that ran has a time > 0, each suite at least the sum of its cases', testsuites their sum, within the run's wall time; GLYPHAUDIT_REPRODUCIBLE writes none and nothing else changes")
    func realTimes() throws {
        let w = RunWorkspace()
        try w.copyBaselines()
        try w.changeOnePixel(changedBaselineFile)
        let args = ["run"] + RunWorkspace.reduced + ["--snapshots", "snap", "--report", "out"]
        let r = try w.run(args, environment: ["GLYPHAUDIT_REPRODUCIBLE": ""])
        #expect(r.status == 1, "\(r.stderr)")
        let junit = try w.text("out/junit.xml")

        var suites: [(name: String, ms: Int, cases: [Int])] = []
        var total: Int?
        var cases = 0
        for line in junit.split(separator: "\n") {
            guard let time = line.firstMatch(of: #/ time="([^"]*)"/#)?.output.1 else { continue }
            let ms = try #require(Self.ms(time), "not a decimal time: \(line)")
            if line.contains("<testsuites ") {
                total = ms
            } else if let name = line.firstMatch(of: #/<testsuite name="([^"]*)"/#)?.output.1 {
                suites.append((String(name), ms, []))
            } else if line.contains("<testcase ") {
                cases += 1
                // No rule is off here: every case ran (its rule on the component, or the component's renders).
                #expect(ms > 0, "\(line)")
                suites[suites.count - 1].cases.append(ms)
            }
        }
        #expect(cases == 63 && suites.count == 4, "8 rules and the snapshots of 7 components: \(cases)")
        for s in suites { #expect(s.ms >= s.cases.reduce(0, +), "\(s.name): \(s.ms) ms, its cases \(s.cases)") }
        #expect(total == suites.reduce(0) { $0 + $1.ms })
        // Measured inside the run: less than the wall time it prints ("  1.23 s"), give or take the
        // millisecond each of the 63 cases is rounded up by.
        let wall = try #require(r.stdout.firstMatch(of: #/\n  ([0-9]+\.[0-9]{2}) s\n/#).flatMap { Double($0.output.1) }, "\(r.stdout)")
        #expect(Double(total ?? 0) / 1000 <= wall + 0.01 + 0.063, "\(total ?? 0) ms in a run of \(wall) s")
        if SchemaValidation.junitUnavailable == nil {
            let outcome = try SchemaValidation.validateJUnit(junit)
            #expect(outcome.valid, "\(outcome.output)")
        }
        var timed = try w.json("out/report.json")
        let timings = try #require(timed["timings"] as? [[String: Any]])
        #expect(timings.compactMap { $0["preset"] as? String } == ["swiftui-checkbox", "swiftui-switch", "design-system-checkbox", "rvs-checkbox"])

        // The same run reproducible: no times; otherwise the same bytes (junit.xml) and the same report.json.
        try FileManager.default.moveItem(at: w.url.appendingPathComponent("out"), to: w.url.appendingPathComponent("timed"))
        let again = try w.run(args, environment: ["GLYPHAUDIT_REPRODUCIBLE": "1"])
        #expect(again.status == 1, "\(again.stderr)")
        let plain = try w.text("out/junit.xml")
        #expect(Set(plain.matches(of: #/ time="([^"]*)"/#).map { String($0.output.1) }) == ["0"])
        #expect(junit.replacing(#/ time="[0-9.]+"/#, with: " time=\"0\"") == plain)
        let reproducible = try w.json("out/report.json")
        #expect(reproducible["timings"] == nil)
        timed["timings"] = nil
        #expect(NSDictionary(dictionary: timed) == NSDictionary(dictionary: reproducible))
    }

    @Test("merge-reports adds the shards' times up (none with GLYPHAUDIT_REPRODUCIBLE)")
    func mergedTimes() throws {
        let w = RunWorkspace()
        let timed = ["GLYPHAUDIT_REPRODUCIBLE": ""]
        for i in 1...2 {
            let r = try w.run(["run"] + RunWorkspace.reduced + ["--formats", "json", "--fail-on", "never", "--shard", "\(i)/2", "--report", "s\(i)"],
                              environment: timed)
            #expect(r.status == 0, "\(r.stderr)")
        }
        #expect(try w.run(["merge-reports", "s1", "s2", "--report", "m", "--formats", "json,junit"], environment: timed).status == 1)
        func seconds(_ rel: String) throws -> [String: Double] {
            let t = try #require(try w.json(rel)["timings"] as? [[String: Any]], "\(rel)")
            return Dictionary(t.map { ($0["preset"] as! String, ($0["seconds"] as! NSNumber).doubleValue) }, uniquingKeysWith: +)
        }
        let shards = try seconds("s1/report.json").merging(seconds("s2/report.json"), uniquingKeysWith: +)
        let merged = try seconds("m/report.json")
        #expect(merged.keys.sorted() == shards.keys.sorted() && merged.count == 4)
        for (preset, s) in shards { #expect(abs((merged[preset] ?? -1) - s) < 2e-6, "\(preset)") }
        #expect(try w.text("m/junit.xml").contains(#/<testsuites [^>]* time="[0-9]+\.[0-9]{3}"/#))

        #expect(try w.run(["merge-reports", "s1", "s2", "--report", "r", "--formats", "json,junit"]).status == 1)
        #expect(try w.json("r/report.json")["timings"] == nil)
        #expect(Set(try w.text("r/junit.xml").matches(of: #/ time="([^"]*)"/#).map { String($0.output.1) }) == ["0"])
    }
}
