/// How much an operator needs to see a ``SyncGateLogger`` message, from `debug` to `error`.
public enum SyncGateLogLevel: Int, Sendable, Hashable, Comparable, CaseIterable, CustomStringConvertible {
    /// Detail for following one change through SyncGate.
    case debug
    /// Something an operator may want to know: a source regained, a job retried.
    case info
    /// Something degraded: a source lost, an account check failed and is retried.
    case warning
    /// Something the user must act on: the iCloud quota is exceeded.
    case error

    /// Orders levels from `debug` (lowest) to `error`.
    public static func < (lhs: SyncGateLogLevel, rhs: SyncGateLogLevel) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    /// The lowercase name, such as `warning`.
    public var description: String {
        switch self {
        case .debug: "debug"
        case .info: "info"
        case .warning: "warning"
        case .error: "error"
        }
    }
}
