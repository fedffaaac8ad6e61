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

    @Test("concurrently returns both results, each from its own closure, on one thread or two")
    func both() {
        for jobs in [1, 2] {
            let (a, b) = concurrently(jobs: jobs, { (1...1000).reduce(0, +) }, { String(repeating: "x", count: 3) })
            #expect(a == 500_500)
            #expect(b == "xxx")
        }
    }
}
