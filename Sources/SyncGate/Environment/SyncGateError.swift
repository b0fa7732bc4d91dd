/// Errors thrown by the environment's waiting API.
public enum SyncGateError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The requirements did not hold before the timeout ran out.
    case timedOut
    /// An argument was invalid; `parameter` names it and `message` says what was wrong with its value.
    case invalidArgument(parameter: String, message: String)

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .timedOut:
            "timed out waiting for the requirements"
        case .invalidArgument(let parameter, let message):
            "invalid \(parameter): \(message)"
        }
    }
}
