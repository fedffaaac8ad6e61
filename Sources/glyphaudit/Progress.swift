import Foundation

/// A one-line progress display on stderr, only when stderr is a terminal (never in CI, never when
/// redirected: logs and test outputs do not change). A counted stage shows how far it is and a time
/// estimate (`rendering, auditing, checking 1234/51840 variants · 12 s left`). Under NO_COLOR or
/// TERM=dumb it writes no escape code: the line is cleared with a carriage return and spaces.
/// With `timings` (--verbose) each stage's time is printed when it ends, terminal or not.
final class Progress: @unchecked Sendable {
    let enabled: Bool
    /// Colour and other escape codes allowed (not NO_COLOR, not TERM=dumb).
    let escapes: Bool
    let timings: Bool
    private var current: (name: String, start: DispatchTime)?
    /// The counted part of the stage: label, done, total, when last drawn.
    private var counted: (label: String, done: Int, total: Int, drawn: DispatchTime)?
    /// The width of the line on screen, for clearing it without escape codes.
    private var shown = 0
    private let lock = NSLock()

    init(enabled: Bool, timings: Bool = false) {
        self.enabled = enabled && isatty(STDERR_FILENO) != 0 && ProcessInfo.processInfo.environment["CI"] == nil
        escapes = !Terminal.noColor
        self.timings = timings
    }

    /// What clears the line.
    private var clear: String {
        escapes ? "\r\u{1B}[K" : (shown == 0 ? "\r" : "\r" + String(repeating: " ", count: shown) + "\r")
    }

    private func draw(_ text: String) {
        Console.stderr(clear + (escapes ? "\u{1B}[2m… \(text)\u{1B}[0m" : "… \(text)"))
        shown = text.count + 2
    }

    private func erase() {
        Console.stderr(clear)
        shown = 0
    }

    private func finishStage() {
        if timings, let c = current {
            if enabled { erase() }
            Console.stderr(String(format: "%7.3f s  %@\n", seconds(since: c.start), c.name))
        }
    }

    func stage(_ s: String) {
        lock.withLock {
            finishStage()
            current = (s, DispatchTime.now())
            counted = nil
            if enabled { draw(s) }
        }
    }

    /// Starts counting the stage's work: `label done/total unit`, redrawn as `advance` is called.
    func count(_ label: String, total: Int) {
        lock.withLock {
            counted = (label, 0, total, DispatchTime.now())
        }
    }

    /// `n` more done; the line is redrawn at most ten times a second (and at the end).
    func advance(_ n: Int) {
        lock.withLock {
            guard enabled, var c = counted, let stageStart = current?.start else { return }
            c.done += n
            let now = DispatchTime.now()
            if c.done < c.total && now.uptimeNanoseconds - c.drawn.uptimeNanoseconds < 100_000_000 {
                counted = c
                return
            }
            c.drawn = now
            counted = c
            draw("\(c.label) \(c.done)/\(c.total)" + Progress.estimate(done: c.done, total: c.total, elapsed: seconds(since: stageStart)))
        }
    }

    /// ` · 12 s left` from the rate so far; nothing before anything is done or the first half second.
    static func estimate(done: Int, total: Int, elapsed: Double) -> String {
        guard done > 0, done < total, elapsed >= 0.5 else { return "" }
        let left = elapsed / Double(done) * Double(total - done)
        if left < 60 { return " · \(max(1, Int(left.rounded()))) s left" }
        let minutes = Int((left / 60).rounded())
        return " · \(minutes) min left"
    }

    /// A message on stderr that does not run into the progress line.
    func note(_ s: String) {
        lock.withLock {
            if enabled { erase() }
        }
        Console.info(s)
    }

    func done() {
        lock.withLock {
            finishStage()
            current = nil
            counted = nil
            if enabled { erase() }
        }
    }
}
