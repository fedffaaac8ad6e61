import Foundation
import Testing
import GlyphCore

// How findings print measured shares against their thresholds.

@Suite("Audit: message formatting")
struct AuditFormatTests {
    @Test("a failing share is never printed equal to its threshold (or on the passing side)",
          arguments: [
              // value, threshold, fails below, expected
              (0.0249, 0.025, true, "2.49%"),
              (0.02499999, 0.025, true, "2.499999%"),
              (0.0, 0.025, true, "0%"),
              (0.011, 0.025, true, "1.1%"),
              (0.025, 0.025, true, "2.5%"),      // equal passes, shown equal
              (0.0251, 0.025, true, "2.5%"),     // passing: shown at or above the threshold
              (0.0612, 0.025, true, "6.1%"),
              (0.0245, 0.0249, true, "2.45%"),   // the threshold shows as 2.49%
              (0.02489, 0.0249, true, "2.489%"),
              (0.010051, 0.01, false, "1.01%"),  // fails above 1%: never "1.0%"
              (0.0100001, 0.01, false, "1.00001%"),
              (0.0099, 0.01, false, "1.0%"),     // passes (at most 1%): shown at or below it
              (0.02499999999999, 0.025, true, "2.49999999%"),  // past eight decimals: cut towards failing
          ])
    func percentAgainstThreshold(_ value: Double, _ threshold: Double, _ failsBelow: Bool, _ expected: String) {
        let s = Format.percent(value, threshold: threshold, failsBelow: failsBelow)
        #expect(s == expected, "\(value) against \(threshold)")
        let shown = Double(s.dropLast())!
        let t = Double(Format.thresholdPercent(threshold).dropLast())!
        let fails = failsBelow ? value < threshold : value > threshold
        if fails { #expect(failsBelow ? shown < t : shown > t) } else { #expect(failsBelow ? shown >= t : shown <= t) }
    }

    @Test("thresholds print as configured")
    func thresholds() {
        #expect(Format.thresholdPercent(0.025) == "2.5%")
        #expect(Format.thresholdPercent(0.0249) == "2.49%")
        #expect(Format.thresholdPercent(0.01) == "1%")
        #expect(Format.thresholdPercent(0.123456) == "12.3456%")
        #expect(Format.thresholdPercent(0.0612345678) == "6.12345678%")
    }
}
