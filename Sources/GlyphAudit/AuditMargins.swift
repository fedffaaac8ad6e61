import Foundation
import GlyphCore

/// The numbers the rules measure on each variant, passing or not, kept in the snapshot manifest
/// beside its baseline (docs/snapshots.md, "Audit margins"), so that a later run can say how much
/// of a margin a change used up even when its pixels were accepted:
///
/// - `state-change.<other state>.<view>`: the area (pt²) that changes between the variant and the
///   same variant in another state, in each colour view (`state-shape`);
/// - `contrast.<part>`: the contrast ratio of a part against what it sits on, as authored, the
///   finding's subject naming the part (`contrast.fill`, `contrast.tick on fill`, `contrast.knob on
///   off track`) (`nontext-contrast`);
/// - `text-contrast.label`: the label's contrast ratio against the surface (`text-contrast`);
/// - `focus-indicator.ring`: the focus ring's ratio against the colours next to it, the lower of
///   the surface's and the control's where it touches (focused variants; `focus-indicator`);
/// - `clipping.glyph.room`, `clipping.label.room`: the room (pt) the ink leaves inside its frame on
///   its tightest side; negative when it reaches past it (`clipping`);
/// - `target-size`: the hit area's shorter side (pt) (`target-size`).
///
/// Every number is better when larger (a room, not an overflow), so one comparison serves all.
/// Disabled themes (exempt from the contrast criteria) record no contrast numbers.
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

    /// The same number for several variants.
    public func record(_ variants: [String], _ name: String, _ value: Double) {
        lock.lock()
        for v in variants { values[v, default: [:]][name] = value }
        lock.unlock()
    }

    /// Adds the numbers of another collection (a number already here is kept).
    public static func merge(_ numbers: [String: AuditNumbers], into all: inout [String: AuditNumbers]) {
        all.reserveCapacity(all.count + numbers.count)
        for (id, m) in numbers {
            guard let i = all.index(forKey: id) else { all[id] = m; continue }
            all.values[i] = all.values[i].merged(with: m)
        }
    }

    /// Puts `numbers`' into `all` for the variants `all` has (a number of `numbers` wins). Returns
    /// how many variants of `numbers` `all` has.
    @discardableResult
    public static func override(_ all: inout [String: AuditNumbers], with numbers: [String: AuditNumbers]) -> Int {
        var found = 0
        for i in all.indices {
            guard let m = numbers[all.keys[i]] else { continue }
            found += 1
            all.values[i] = all.values[i].merged(with: m, otherWins: true)
        }
        return found
    }

    /// Variant id → its numbers.
    public var all: [String: AuditNumbers] {
        lock.lock()
        defer { lock.unlock() }
        return values.mapValues(AuditNumbers.init)
    }

    /// The numbers that fell by more than `tolerance` (a share of the recorded number: 0.25 = a
    /// quarter) from `before` to `after`, as (name, before, after), sorted by name. Every number
    /// here is better when larger.
    public static func losses(before: AuditNumbers, after: AuditNumbers, tolerance: Double) -> [(String, Double, Double)] {
        before.losses(to: after, tolerance: tolerance)
    }
}
