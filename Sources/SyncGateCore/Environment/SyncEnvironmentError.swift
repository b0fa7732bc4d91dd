/// Errors of ``SyncEnvironment``'s entry points: the one error type ``SyncEnvironment/waitUntil(_:conditions:timeout:)``
/// and ``SyncEnvironment/setCondition(_:isMet:)`` throw (typed), so a caller handles every case of a
/// closed set.
///
/// Name the type in a `catch` pattern, `catch SyncEnvironmentError.timedOut`: it compiles wherever the
/// call is. The short `catch .timedOut` compiles at top level and in a function, but not inside a
/// closure (`Task { }`, a SwiftUI `.task`), where the caught error is `any Error`.
public enum SyncEnvironmentError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The requirements did not hold before the timeout ran out.
    case timedOut
    /// The waiting task was cancelled before the requirements held; nothing is left behind.
    case cancelled
    /// An argument was invalid; `parameter` names it and `message` says what was wrong with its value.
    case invalidArgument(parameter: String, message: String)

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .timedOut:
            "timed out waiting for the requirements"
        case .cancelled:
            "the wait for the requirements was cancelled"
        case .invalidArgument(let parameter, let message):
            "invalid \(parameter): \(message)"
        }
    }
}
