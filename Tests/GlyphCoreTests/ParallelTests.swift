import Foundation
import Testing
import GlyphCore

@Suite("parallelMap and concurrently")
struct ParallelTests {
    @Test("parallelMap keeps index order on 1, 2 and 5 threads")
    func order() {
        for jobs in [1, 2, 5] {
            #expect(parallelMap(100, jobs: jobs) { $0 * $0 } == (0..<100).map { $0 * $0 })
        }
    }

    @Test("parallelMapOnPool keeps index order, calls each index once, and may run parallelMap inside each item")
    func onPool() {
        for jobs in [1, 2, 5] {
            let calls = Mutex([Int](repeating: 0, count: 40))
            let sums = parallelMapOnPool(40, jobs: jobs) { i -> Int in
                calls.withLock { $0[i] += 1 }
                return parallelMap(i + 1, jobs: jobs) { $0 }.reduce(0, +)
            }
            #expect(sums == (0..<40).map { $0 * ($0 + 1) / 2 })
            #expect(calls.withLock { $0 } == [Int](repeating: 1, count: 40))
        }
        #expect(parallelMapOnPool(0, jobs: 2) { $0 }.isEmpty)
    }

    @Test("concurrently returns both results, each from its own closure, on one thread or two")
    func both() {
        for jobs in [1, 2] {
            let (a, b) = concurrently(jobs: jobs, { (1...1000).reduce(0, +) }, { String(repeating: "x", count: 3) })
            #expect(a == 500_500)
            #expect(b == "xxx")
        }
    }
}
