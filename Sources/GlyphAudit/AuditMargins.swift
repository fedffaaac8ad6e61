import Foundation
import GlyphCore

/// The numbers the rules measure on each variant, passing or not, kept in the snapshot manifest
/// beside its baseline (docs/snapshots.md, "Audit margins"), so that a later run can say how much
/// of a margin a change used up even when its pixels were accepted:
///
/// - `state-change.<other state>.<view>`: the area (pt²) that changes between the variant and the
///   same variant in another state, in each colour view (`state-shape`);
/// - `target-size`: the hit area's shorter side (pt) (`target-size`).
///
/// The rules record into the collector bound to `current` while they run (nothing is recorded
/// without one).
public final class AuditMargins: @unchecked Sendable {
    @TaskLocal public static var current: AuditMargins?

    private let lock = NSLock()
    private var values: [String: [String: Double]] = [:]

    public init() {}

    public func record(_ variant: String, _ name: String, _ value: Double) {
        lock.lock()
        values[variant, default: [:]][name] = value
        lock.unlock()
    }

    /// Variant id → name → number.
    public var all: [String: [String: Double]] {
        lock.lock()
        defer { lock.unlock() }
        return values
    }

    /// The numbers that fell by more than `tolerance` (a share of the recorded number: 0.25 = a
    /// quarter) from `before` to `after`, as (name, before, after), sorted by name. Every number
    /// here is better when larger.
    public static func losses(before: [String: Double], after: [String: Double], tolerance: Double) -> [(String, Double, Double)] {
        before.keys.sorted().compactMap { name in
            guard let old = before[name], let new = after[name], old > 0, (old - new) / old > tolerance else { return nil }
            return (name, old, new)
        }
    }
}
