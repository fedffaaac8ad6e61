import Dispatch
import Foundation

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
