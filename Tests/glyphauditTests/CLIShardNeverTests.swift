import Foundation
import Testing
import GlyphTestSupport

// Shards a CI matrix can run (issue 23, item 6): with --fail-on never each shard job exits 0 whatever
// it finds, new snapshots under CI included, and merge-reports decides.

@Suite("shards at --fail-on never: every job green, the merge decides")
struct CLIShardNeverTests {
    @Test("a one-component spec over two shards under CI: both exit 0, the merged findings are a whole run's, the merge exits 1")
    func oneComponent() throws {
        let w = RunWorkspace()
        #expect(try w.run(["presets", "show", "swiftui-switch", "--out", "specs"]).status == 0)
        let selection = ["run", "--spec", "specs/swiftui-switch.json", "--only", "scale=2", "--only", "dynamic-type=L,AX5",
                         "--fail-on", "never"]
        // With html, as a shard always makes its pictures (the findings name their evidence pictures).
        let whole = try w.run(selection + ["--formats", "json,html", "--report", "whole"], environment: ["CI": "true"])
        #expect(whole.status == 0, "\(whole.stderr)")
        for i in 1...2 {
            let r = try w.run(selection + ["--formats", "json", "--shard", "\(i)/2", "--report", "s\(i)"], environment: ["CI": "true"])
            #expect(r.status == 0, "shard \(i): \(r.stdout)\(r.stderr)")
            #expect(!r.stderr.contains("holds no variant"))
        }
        // Shards split by variant group (component × theme): the one component's three themes
        // spread over both shards, default and disabled in the first, inverse in the second.
        func themes(_ folder: String) throws -> Set<String> {
            Set(try #require(try w.json("\(folder)/report.json")["variants"] as? [[String: Any]]).compactMap { $0["theme"] as? String })
        }
        #expect(try themes("s1") == ["default", "disabled"])
        #expect(try themes("s2") == ["inverse"])
        // Each shard's snapshots are new under CI (failing snapshots), and still both jobs exited 0.
        for i in 1...2 {
            let snapshots = try #require(try w.json("s\(i)/report.json")["snapshots"] as? [String: Any])
            #expect(!((snapshots["results"] as? [Any]) ?? []).isEmpty)
        }
        let merge = try w.run(["merge-reports", "s1", "s2", "--report", "merged", "--formats", "json"])
        #expect(merge.status == 1, "new snapshots and errors fail the merged run at error: \(merge.stderr)")
        let merged = try w.json("merged/report.json"), one = try w.json("whole/report.json")
        let findings = try #require(merged["findings"] as? [[String: Any]])
        #expect(!findings.isEmpty)
        #expect(NSArray(array: findings).isEqual(to: try #require(one["findings"] as? [[String: Any]])))
        #expect((merged["variants"] as? [Any])?.count == (one["variants"] as? [Any])?.count)
    }
}
