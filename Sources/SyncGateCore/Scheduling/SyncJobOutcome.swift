/// How a job ended.
///
/// Outcomes compare with `==`, so the common checks are one expression: `outcome == .succeeded`,
/// `outcome == .cancelled`, or `outcome == .failed(UploadError.quotaExceeded)` for one error. To ask
/// whether a job failed with any error, use ``isFailed``, or `if case .failed(let error) = outcome`.
public enum SyncJobOutcome: Sendable, Equatable, CustomStringConvertible {
    /// The operation returned.
    case succeeded
    /// The operation threw and no attempt remains (or it threw `SyncJobError.doNotRetry`); the error
    /// is the last one thrown, unwrapped from `doNotRetry`, or `SyncJobError.runTimedOut`.
    case failed(any Error)
    /// The job was cancelled.
    case cancelled
    /// The job did not start within its start deadline.
    case expired

    /// The terminal state that matches this outcome, carrying the same error when it failed.
    public var state: SyncJobState { JobLifecycle.state(of: self) }

    /// Whether the job failed, with any error.
    public var isFailed: Bool {
        if case .failed = self { return true }
        return false
    }

    /// A summary such as `failed: the attempt ran past its run timeout`.
    public var description: String { state.description }

    /// Whether two outcomes are the same case, and for ``failed(_:)`` errors that are the same.
    ///
    /// Two errors are the same when they have the same type and are equal: by their own `==` when the
    /// type is `Equatable`, otherwise by their full text (`String(reflecting:)`), which spells out an
    /// enum case with its associated values and a struct with its fields.
    public static func == (lhs: SyncJobOutcome, rhs: SyncJobOutcome) -> Bool {
        switch (lhs, rhs) {
        case (.succeeded, .succeeded), (.cancelled, .cancelled), (.expired, .expired): true
        case (.failed(let left), .failed(let right)): JobLifecycle.sameError(left, right)
        default: false
        }
    }
}
