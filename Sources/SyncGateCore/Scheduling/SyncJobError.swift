/// Errors about a job's run, thrown by the scheduler or by the job's operation.
public enum SyncJobError: Error, Sendable, CustomStringConvertible {
    /// The attempt ran longer than the job's `runTimeout`; it counts as a failed attempt.
    case runTimedOut
    /// Thrown by an operation to fail the job at once, without further attempts.
    case doNotRetry(any Error)
    /// A job run through `SyncScheduler.run(requiring:…)` did not start before its start deadline.
    case expired
    /// A job this one depends on (directly or through others) did not succeed: `id` names that job and
    /// `outcome` says how it ended. The job never started.
    case dependencyDidNotSucceed(id: SyncJob.ID, outcome: SyncJobOutcome)

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .runTimedOut: "the attempt ran past its run timeout"
        case .doNotRetry(let error): "failed without retry: \(error)"
        case .expired: "the job did not start before its start deadline"
        case .dependencyDidNotSucceed(let id, let outcome): "its dependency \(id) did not succeed: \(outcome)"
        }
    }
}
