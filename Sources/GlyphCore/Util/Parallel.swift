import Dispatch
import Foundation

/// Runs `body` for 0..<count on `jobs` threads and returns the results in index order.
public func parallelMap<T: Sendable>(_ count: Int, jobs: Int, _ body: @Sendable (Int) -> T) -> [T] {
    if count == 0 { return [] }
    let results = UnsafeSendableBuffer<T?>(count: count)
    let next = Mutex(0)
    let workers = max(1, min(jobs, count))
    DispatchQueue.concurrentPerform(iterations: workers) { _ in
        takeIndices(count, next, results, body)
    }
    return results.values.map { $0! }
}

/// One worker of a parallel map: takes the next index from `next` until `count`, each result into `results`.
private func takeIndices<T>(_ count: Int, _ next: borrowing Mutex<Int>, _ results: UnsafeSendableBuffer<T?>, _ body: (Int) -> T) {
    while true {
        let i = next.withLock { n -> Int in
            defer { n += 1 }
            return n
        }
        if i >= count { break }
        results.set(i, body(i))
    }
}

/// Each index is written by exactly one worker, so writes never race. The buffer is allocated once:
/// `Array.withUnsafeMutableBufferPointer` from several threads at once is itself a race (it moves
/// the array's storage out while the closure runs) and crashed under load.
final class UnsafeSendableBuffer<T>: @unchecked Sendable {
    private let storage: UnsafeMutableBufferPointer<T>

    init<U>(count: Int) where T == U? {
        storage = .allocate(capacity: count)
        storage.initialize(repeating: nil)
    }

    deinit {
        _ = storage.deinitialize()
        storage.deallocate()
    }

    func set(_ i: Int, _ value: T) {
        storage[i] = value
    }

    var values: [T] { Array(storage) }
}

/// The number of cores, for `--jobs` by default.
public var defaultJobs: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

/// Runs `a` and `b` at once (on two threads when `jobs` > 1) and returns both results.
public func concurrently<A: Sendable, B: Sendable>(jobs: Int, _ a: @Sendable () -> A, _ b: @Sendable () -> B) -> (A, B) {
    let first = UnsafeSendableBuffer<A?>(count: 1)
    let second = UnsafeSendableBuffer<B?>(count: 1)
    DispatchQueue.concurrentPerform(iterations: jobs > 1 ? 2 : 1) { i in
        if jobs > 1 {
            if i == 0 { first.set(0, a()) } else { second.set(0, b()) }
        } else {
            first.set(0, a())
            second.set(0, b())
        }
    }
    return (first.values[0]!, second.values[0]!)
}

/// `concurrently` with `b` a task on the global queue (`a` on the calling thread), so that a
/// `parallelMap` inside either is as wide as the pool's free threads, not one wide.
public func concurrentlyOnPool<A: Sendable, B: Sendable>(jobs: Int, _ a: @escaping @Sendable () -> A,
                                                         _ b: @escaping @Sendable () -> B) -> (A, B) {
    if jobs <= 1 { return (a(), b()) }
    let second = UnsafeSendableBuffer<B?>(count: 1)
    let group = DispatchGroup()
    DispatchQueue.global().async(group: group) { second.set(0, b()) }
    let first = a()
    group.wait()
    return (first, second.values[0]!)
}

/// `parallelMap` whose workers are tasks on the global queue rather than one `concurrentPerform`:
/// a `parallelMap` inside `body` is then as wide as the machine (inside `concurrentPerform` it runs
/// one wide), so that an item left to run alone at the end still uses every core, while items that
/// run together share the pool's threads (its inner work waits for a free one).
public func parallelMapOnPool<T: Sendable>(_ count: Int, jobs: Int, _ body: @escaping @Sendable (Int) -> T) -> [T] {
    let workers = max(1, min(jobs, count))
    if workers <= 1 { return (0..<count).map(body) }
    let results = UnsafeSendableBuffer<T?>(count: count)
    let next = Mutex(0)
    let group = DispatchGroup()
    for _ in 0..<workers {
        DispatchQueue.global().async(group: group) {
            takeIndices(count, next, results, body)
        }
    }
    group.wait()
    return results.values.map { $0! }
}
