import Foundation

/// How long each rule took, summed over the `Auditor.findings` calls it is handed to (the pipeline
/// times JUnit test cases with it, docs/report-format.md; nothing is measured without one). Wall
/// time of each rule's call, in nanoseconds, by rule id.
public final class RuleTimes: @unchecked Sendable {
    private let lock = NSLock()
    private var nanoseconds: [String: UInt64] = [:]

    public init() {}

    public func add(_ rule: String, _ ns: UInt64) {
        lock.lock()
        nanoseconds[rule, default: 0] += ns
        lock.unlock()
    }

    /// Rule id → nanoseconds.
    public var all: [String: UInt64] {
        lock.lock()
        defer { lock.unlock() }
        return nanoseconds
    }
}
