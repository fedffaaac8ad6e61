import Foundation

/// GLYPHAUDIT_REPRODUCIBLE: set (to anything but "", "false" or "0"), `run` and `merge-reports`
/// write no times into the reports (junit.xml's `time` is "0", report.json has no `timings`), so the
/// same inputs give byte-identical reports; unset, junit.xml has each test case's real time.
enum Reproducible {
    static let variable = "GLYPHAUDIT_REPRODUCIBLE"

    static func requested(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        guard let value = environment[variable]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return false }
        return !["false", "0"].contains(value.lowercased())
    }
}
