/// The exit status of every command, decided in one place (`init(failed:badInput:)`):
/// 0 clean; 1 findings at or above --fail-on, snapshot mismatches or differing images; 2 bad input
/// or a runtime failure (an unreadable file, a file that cannot be written); 64 a usage error.
public enum ExitStatus: Int32, Sendable {
    case clean = 0
    case failed = 1
    case badInput = 2
    case usage = 64

    /// Bad input outweighs a failure, a failure a clean run.
    public init(failed: Bool, badInput: Bool = false) {
        self = badInput ? .badInput : failed ? .failed : .clean
    }
}
