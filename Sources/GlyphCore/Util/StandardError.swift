import Foundation

/// The descriptor the tool's own messages go to: a copy of stderr made before anything can redirect
/// it. The renderer points descriptor 2 at /dev/null while poppler draws (poppler prints some
/// failures straight to stderr, unprefixed; see `PopplerQuiet` in GlyphRender), and messages written
/// from other threads meanwhile must still reach the user's stderr.
public enum StandardError {
    /// A duplicate of descriptor 2 taken on first use; 2 itself when it cannot be duplicated (closed).
    public static let fd: Int32 = {
        let copy = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3)
        return copy >= 0 ? copy : STDERR_FILENO
    }()
}
