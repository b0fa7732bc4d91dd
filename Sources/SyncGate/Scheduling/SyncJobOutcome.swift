/// How a job ended.
///
/// Outcomes compare with `==`, so the common checks are one expression: `outcome == .succeeded`,
/// `outcome == .cancelled`, or `outcome == .failed(UploadError.quotaExceeded)` for one error. To ask
/// whether a job failed with any error, compare its ``state``: `outcome.state == .failed`.
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

    /// Whether two outcomes are the same case, and for ``failed(_:)`` errors that are the same.
    ///
    /// Two errors are the same when they have the same type and are equal: by their own `==` when the
    /// type is `Equatable`, otherwise by their full text (`String(reflecting:)`), which spells out an
    /// enum case with its associated values and a struct with its fields.
    public static func == (lhs: SyncJobOutcome, rhs: SyncJobOutcome) -> Bool {
        switch (lhs, rhs) {
        case (.succeeded, .succeeded), (.cancelled, .cancelled), (.expired, .expired): true
        case (.failed(let left), .failed(let right)): sameError(left, right)
        default: false
        }
    }

    private static func sameError(_ left: any Error, _ right: any Error) -> Bool {
        guard ObjectIdentifier(type(of: left)) == ObjectIdentifier(type(of: right)) else { return false }
        if let left = (left as Any) as? any Equatable { return left.isEqual(toAny: right) }
        return String(reflecting: left) == String(reflecting: right)
    }
}

extension Equatable {
    /// Whether `other` is a value of this type equal to this one.
    fileprivate func isEqual(toAny other: Any) -> Bool {
        guard let other = other as? Self else { return false }
        return self == other
    }
}
