import CPoppler
import Foundation
import GlyphCore

/// Keeps poppler off the user's stderr. Poppler reports what it repairs through GLib's log (domain
/// "Poppler", level INFO: shown only with `G_MESSAGES_DEBUG`), but its cairo font engine prints some
/// failures itself with `fprintf(stderr, …)` ("some font thing failed" for a broken embedded font),
/// unprefixed and naming no file. So every poppler call runs inside `quietly`: descriptor 2 points at
/// /dev/null while any poppler call is in progress (the tool's own messages go to `StandardError.fd`,
/// a copy of stderr, so a message written from another thread meanwhile still arrives), and the
/// "Poppler" log domain goes to a handler that keeps the messages of the document being opened
/// (`opening`), which name what poppler could not do (an unknown security handler), instead of printing them.
enum PopplerQuiet {
    private struct State {
        var depth = 0
        var saved: Int32 = -1
        /// Non-nil while a document is opened: poppler's log messages, at most `keep`.
        var messages: [String]?
    }
    private static let state = Mutex(State())
    private static let keep = 16
    /// Documents are opened one at a time, so the messages kept belong to the one opened.
    private static let openLock = NSLock()

    private static let installed: Bool = {
        let levels = G_LOG_LEVEL_CRITICAL.rawValue | G_LOG_LEVEL_WARNING.rawValue | G_LOG_LEVEL_MESSAGE.rawValue
            | G_LOG_LEVEL_INFO.rawValue | G_LOG_LEVEL_DEBUG.rawValue | G_LOG_FLAG_FATAL.rawValue | G_LOG_FLAG_RECURSION.rawValue
        g_log_set_handler("Poppler", GLogLevelFlags(rawValue: levels), { _, _, message, _ in
            guard let message else { return }
            let text = String(String(cString: message).prefix(300))
            PopplerQuiet.state.withLock { s in
                if s.messages != nil, s.messages!.count < PopplerQuiet.keep { s.messages!.append(text) }
            }
        }, nil)
        return true
    }()

    /// Runs `body` (poppler calls) with descriptor 2 pointed at /dev/null.
    static func quietly<T>(_ body: () throws -> T) rethrows -> T {
        _ = StandardError.fd  // the copy of stderr is made before descriptor 2 is ever redirected
        _ = installed
        state.withLock { s in
            if s.depth == 0 {
                s.saved = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3)  // -1 when stderr is closed
                let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
                if null >= 0, null != STDERR_FILENO {
                    dup2(null, STDERR_FILENO)
                    close(null)
                }
            }
            s.depth += 1
        }
        defer {
            state.withLock { s in
                s.depth -= 1
                if s.depth == 0 {
                    if s.saved >= 0 {
                        dup2(s.saved, STDERR_FILENO)
                        close(s.saved)
                    } else {
                        close(STDERR_FILENO)
                    }
                    s.saved = -1
                }
            }
        }
        return try body()
    }

    /// Runs `body` (opening a document) quietly; returns its result and the messages poppler logged meanwhile.
    static func opening<T>(_ body: () throws -> T) rethrows -> (T, [String]) {
        openLock.lock()
        defer { openLock.unlock() }
        _ = installed
        state.withLock { $0.messages = [] }
        defer { state.withLock { $0.messages = nil } }
        let result = try quietly(body)
        return (result, state.withLock { $0.messages ?? [] })
    }
}
