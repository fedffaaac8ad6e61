import Dispatch
import Foundation

/// A variant with its spec and layout, ready to render.
public struct PlannedVariant: Sendable {
    public let spec: Spec
    public let layout: Layout
    public var variant: Variant { layout.variant }
}

/// The selected variants of a set of specs, all laid out (so every error surfaces before anything is written).
public struct Plan: Sendable {
    public let specs: [Spec]
    public let items: [PlannedVariant]
    /// How many variants the specs have before filtering.
    public let total: Int

    public init(specs: [Spec], filter: VariantFilter = VariantFilter(), shard: Shard? = nil) throws(InputError) {
        var seen = Set<String>()
        for spec in specs {
            if !seen.insert(spec.name).inserted {
                throw InputError(file: spec.sourceFile ?? spec.name, keyPath: "name",
                                 message: "two specs are named \"\(spec.name)\"; names must be unique (they name the files)")
            }
        }
        self.specs = specs
        var items: [PlannedVariant] = []
        var total = 0
        var index = 0
        for spec in specs {
            for v in spec.variants() {
                total += 1
                guard filter.matches(v) else { continue }
                defer { index += 1 }
                if let shard, !shard.contains(index) { continue }
                items.append(PlannedVariant(spec: spec, layout: try Layout(spec: spec, variant: v)))
            }
        }
        self.items = items
        self.total = total
    }
}

extension Plan {
    /// Renders every item in memory on `jobs` threads; the result is index-aligned with `items`.
    public func renderAll(jobs: Int, parts: RenderParts = .all) -> [Raster] {
        let items = self.items
        return parallelMap(items.count, jobs: jobs) { i in Renderer.raster(items[i].layout, spec: items[i].spec, parts: parts) }
    }
}

/// `--shard I/N`: the I-th of N deterministic slices of the filtered matrix (1-based), round robin.
public struct Shard: Sendable, Equatable {
    public let index: Int
    public let count: Int

    public init?(_ text: String) {
        let parts = text.split(separator: "/")
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), n >= 1, (1...n).contains(i) else { return nil }
        index = i
        count = n
    }

    public func contains(_ position: Int) -> Bool { position % count == index - 1 }
}

/// Runs `body` for 0..<count on `jobs` threads and returns the results in index order.
public func parallelMap<T: Sendable>(_ count: Int, jobs: Int, _ body: @Sendable (Int) -> T) -> [T] {
    if count == 0 { return [] }
    let results = UnsafeSendableBuffer<T?>(count: count)
    let next = Mutex(0)
    let workers = max(1, min(jobs, count))
    DispatchQueue.concurrentPerform(iterations: workers) { _ in
        while true {
            let i = next.withLock { n -> Int in
                defer { n += 1 }
                return n
            }
            if i >= count { break }
            results.set(i, body(i))
        }
    }
    return results.values.map { $0! }
}

/// Each index is written by exactly one worker, so writes never race.
final class UnsafeSendableBuffer<T>: @unchecked Sendable {
    private var storage: [T]

    init<U>(count: Int) where T == U? {
        storage = Array(repeating: nil, count: count)
    }

    func set(_ i: Int, _ value: T) {
        storage.withUnsafeMutableBufferPointer { $0[i] = value }
    }

    var values: [T] { storage }
}

/// The number of cores, for `--jobs` by default.
public var defaultJobs: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }
