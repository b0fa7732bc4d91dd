/// Where a job is in its life.
///
/// States compare with `==`; a failed state carries the error, compared by the rule of
/// ``SyncJobOutcome/==(_:_:)``. To ask whether a job failed with any error, use ``isFailed``.
public enum SyncJobState: Sendable, Hashable, CustomStringConvertible {
    /// Waiting to start; `unmet` and `conditions` are the requirements and conditions that block it now.
    ///
    /// Both are empty when neither blocks it: it waits for a free slot, or for an allowed network (its
    /// handle's ``SyncJobHandle/isWaitingForNetwork`` says which, and its description names the list).
    /// The allowed networks are not requirements: the state is the same whether the network in use is
    /// allowed or not, so ``SyncJobHandle/states`` yields nothing when only that changes.
    case waiting(unmet: SyncRequirements, conditions: Set<SyncCondition>)
    /// Waiting for other jobs to end before it may wait for its requirements: `jobs` are the ids of its
    /// unfinished dependencies (`dependsOn`, and the job it was appended to under its unique key), the
    /// job ahead of it in its serial group, and the running job of its unique key that it replaces or
    /// follows, in that order, each once. Never empty.
    case blocked(by: [SyncJob.ID])
    /// Waiting out an initial delay or a retry backoff before the given attempt.
    case delayed(attempt: Int)
    /// Running the given attempt (1 for the first).
    case running(attempt: Int)
    /// Finished: the operation returned.
    case succeeded
    /// Finished: the operation threw and no attempt remains; the error is the outcome's.
    case failed(any Error)
    /// Finished: cancelled.
    case cancelled
    /// Finished: not started within its start deadline.
    case expired

    /// Whether the job has finished.
    public var isTerminal: Bool {
        switch self {
        case .waiting, .blocked, .delayed, .running: false
        case .succeeded, .failed, .cancelled, .expired: true
        }
    }

    /// Whether the job failed, with any error.
    public var isFailed: Bool {
        if case .failed = self { return true }
        return false
    }

    /// A summary such as `waiting for [unmetered]`, `waiting for job upload-1 to end`,
    /// `running attempt 2` or `failed: <error>`.
    public var description: String {
        switch self {
        case .waiting(let unmet, let conditions):
            if unmet.isEmpty && conditions.isEmpty { return "waiting for a slot" }
            let names = unmet.names + conditions.map(\.name).sorted()
            return "waiting for [\(names.joined(separator: ", "))]"
        case .blocked(let jobs):
            return "waiting for job\(jobs.count == 1 ? "" : "s") \(jobs.joined(separator: ", ")) to end"
        case .delayed(let attempt): return "delayed before attempt \(attempt)"
        case .running(let attempt): return "running attempt \(attempt)"
        case .succeeded: return "succeeded"
        case .failed(let error): return "failed: \(error)"
        case .cancelled: return "cancelled"
        case .expired: return "expired"
        }
    }

    /// Whether two states are the same case with the same values; failed states compare their errors
    /// by the rule of ``SyncJobOutcome/==(_:_:)``.
    public static func == (lhs: SyncJobState, rhs: SyncJobState) -> Bool {
        switch (lhs, rhs) {
        case (.waiting(let lu, let lc), .waiting(let ru, let rc)): lu == ru && lc == rc
        case (.blocked(let left), .blocked(let right)): left == right
        case (.delayed(let left), .delayed(let right)), (.running(let left), .running(let right)): left == right
        case (.succeeded, .succeeded), (.cancelled, .cancelled), (.expired, .expired): true
        case (.failed(let left), .failed(let right)): JobLifecycle.sameError(left, right)
        default: false
        }
    }

    /// Hashes the case and its values; a failed state hashes its error's type.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .waiting(let unmet, let conditions):
            hasher.combine(0)
            hasher.combine(unmet)
            hasher.combine(conditions)
        case .delayed(let attempt):
            hasher.combine(1)
            hasher.combine(attempt)
        case .running(let attempt):
            hasher.combine(2)
            hasher.combine(attempt)
        case .succeeded: hasher.combine(3)
        case .failed(let error):
            hasher.combine(4)
            JobLifecycle.hashError(error, into: &hasher)
        case .cancelled: hasher.combine(5)
        case .expired: hasher.combine(6)
        case .blocked(let jobs):
            hasher.combine(7)
            hasher.combine(jobs)
        }
    }
}
