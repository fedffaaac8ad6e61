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
    public static func merge(_ numbers: [String: [String: Double]], into all: inout [String: [String: Double]]) {
        all.reserveCapacity(all.count + numbers.count)
        for (id, m) in numbers {
            guard let i = all.index(forKey: id) else { all[id] = m; continue }
            // The smaller table inserted into the larger; the numbers already here win.
            if all.values[i].count >= m.count {
                all.values[i].merge(m) { a, _ in a }
            } else {
                var merged = m
                merged.merge(all.values[i]) { _, a in a }
                all.values[i] = merged
            }
        }
    }

    /// Puts `numbers`' into `all` for the variants `all` has (a number of `numbers` wins), each
    /// variant's table built once at its final size. Returns how many variants of `numbers` `all` has.
    @discardableResult
    public static func override(_ all: inout [String: [String: Double]], with numbers: [String: [String: Double]]) -> Int {
        var found = 0
        for i in all.indices {
            guard let m = numbers[all.keys[i]] else { continue }
            found += 1
            let t = all.values[i]
            var merged = [String: Double](minimumCapacity: t.count + m.count)
            for (name, value) in t { merged[name] = value }
            for (name, value) in m { merged[name] = value }
            all.values[i] = merged
        }
        return found
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
        // Most variants lose nothing: look before sorting.
        guard before.contains(where: { name, old in after[name].map { new in old > 0 && (old - new) / old > tolerance } ?? false }) else {
            return []
        }
        return before.keys.sorted().compactMap { name in
            guard let old = before[name], let new = after[name], old > 0, (old - new) / old > tolerance else { return nil }
            return (name, old, new)
        }
    }
}
