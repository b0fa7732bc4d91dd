/// How a job ended.
public enum SyncJobOutcome: Sendable, CustomStringConvertible {
    /// The operation returned.
    case succeeded
    /// The operation threw and no attempt remains (or it threw `SyncJobError.doNotRetry`); the error
    /// is the last one thrown, unwrapped from `doNotRetry`, or `SyncJobError.runTimedOut`.
    case failed(any Error)
    /// The job was cancelled.
    case cancelled
    /// The job did not start within its start deadline.
    case expired

    /// The terminal state that matches this outcome.
    public var state: SyncJobState {
        switch self {
        case .succeeded: .succeeded
        case .failed: .failed
        case .cancelled: .cancelled
        case .expired: .expired
        }
    }

    /// A summary such as `failed: runTimedOut`.
    public var description: String {
        switch self {
        case .failed(let error): "failed: \(error)"
        default: "\(state)"
        }
    }
}
