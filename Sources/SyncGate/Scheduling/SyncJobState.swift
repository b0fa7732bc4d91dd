/// Where a job is in its life.
public enum SyncJobState: Sendable, Hashable, CustomStringConvertible {
    /// Waiting to start; `unmet` and `conditions` are what blocks it now (both empty when it waits
    /// only for a free slot or its turn in a serial group).
    case waiting(unmet: SyncRequirements, conditions: Set<SyncCondition>)
    /// Waiting out an initial delay or a retry backoff before the given attempt.
    case delayed(attempt: Int)
    /// Running the given attempt (1 for the first).
    case running(attempt: Int)
    /// Finished: the operation returned.
    case succeeded
    /// Finished: the operation threw and no attempt remains.
    case failed
    /// Finished: cancelled.
    case cancelled
    /// Finished: not started within its start deadline.
    case expired

    /// Whether the job has finished.
    public var isTerminal: Bool {
        switch self {
        case .waiting, .delayed, .running: false
        case .succeeded, .failed, .cancelled, .expired: true
        }
    }

    /// A summary such as `waiting for [unmetered]` or `running attempt 2`.
    public var description: String {
        switch self {
        case .waiting(let unmet, let conditions):
            if unmet.isEmpty && conditions.isEmpty { return "waiting for a slot" }
            let names = unmet.names + conditions.map(\.name).sorted()
            return "waiting for [\(names.joined(separator: ", "))]"
        case .delayed(let attempt): return "delayed before attempt \(attempt)"
        case .running(let attempt): return "running attempt \(attempt)"
        case .succeeded: return "succeeded"
        case .failed: return "failed"
        case .cancelled: return "cancelled"
        case .expired: return "expired"
        }
    }
}
