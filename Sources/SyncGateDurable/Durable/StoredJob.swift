import Foundation
import SyncGateCore

/// A durable job as a ``JobStore`` keeps it: its kind, encoded payload, options and progress.
///
/// The options are those the job was submitted with; its `delay` and `startDeadline` count from
/// ``submittedAt``, a wall-clock instant, so they keep their meaning across a restart (``eligibleAt``,
/// ``startDeadlineAt``). The progress fields (``failures``, ``lastStartedAttempt``, ``isRunning``,
/// ``retryAt``, ``periodAnchor``, ``periods``, ``lastStopReason``, ``calendarHeldSpan``) are those of the
/// latest record the store has for the job.
public struct StoredJob: Sendable, Hashable {
    /// The store-wide submission number; restore runs jobs in this order.
    public var sequence: UInt64
    /// The job's identifier, also the idempotency key of its work.
    public var id: SyncJob.ID
    /// The registered kind whose handler runs the job.
    public var kind: String
    /// The payload, encoded as JSON.
    public var payload: Data
    /// When the job was submitted.
    public var submittedAt: Date
    /// When and how the job runs.
    public var options: SyncJobOptions
    /// How many attempts have failed (and counted against the retry policy).
    public var failures: Int = 0
    /// The number of the last attempt that started; 0 if none has.
    public var lastStartedAttempt: Int = 0
    /// Whether an attempt had started and not finished at the latest record (so it was interrupted).
    public var isRunning = false
    /// When the retry backoff after the last failure ends.
    public var retryAt: Date?
    /// For a periodic job whose series has ended a period: the beginning of the period the series goes
    /// on from (a wall-clock instant); `nil` before the first period ended, when the series begins at
    /// ``eligibleAt`` (or ``submittedAt``).
    public var periodAnchor: Date?
    /// For a periodic job: the counts of its series so far; `nil` before the first period ended.
    public var periods: SyncJobInfo.Periods?
    /// The results of the jobs this one depends on (or was appended to) that ended, in the order they
    /// ended; restore hands their outputs to the job, or fails it when one did not succeed.
    public var dependencyResults: [DependencyResult] = []
    /// Why the job's latest attempt was stopped (requirements lost, a run timeout, the shutdown of the
    /// process that ran it); `nil` when it was not, and once a later attempt started. A restored job's
    /// handle and queries show it until its next attempt starts (``SyncJobHandle/stopReason``).
    public var lastStopReason: SyncJobStopReason?
    /// For a calendar job: the span of wall-clock instants its series had planned through when the wall
    /// clock was set back before it (the clock was ahead when the job was submitted or ran). Restore does
    /// not plan the span's occurrences again, and the series goes on from ``periodAnchor``, where the clock
    /// was set back to. `nil` when there is none.
    public var calendarHeldSpan: ClosedRange<Date>?

    /// Creates a stored job; the progress fields start at "never started".
    public init(
        sequence: UInt64, id: SyncJob.ID, kind: String, payload: Data, submittedAt: Date,
        options: SyncJobOptions = SyncJobOptions()
    ) {
        self.sequence = sequence
        self.id = id
        self.kind = kind
        self.payload = payload
        self.submittedAt = submittedAt
        self.options = options
    }

    /// When the job's initial delay ends; `nil` without a delay.
    public var eligibleAt: Date? {
        options.delay.map { submittedAt.addingTimeInterval($0.inSeconds) }
    }

    /// When the job expires unless an attempt has started; `nil` without a start deadline.
    public var startDeadlineAt: Date? {
        options.startDeadline.map { submittedAt.addingTimeInterval($0.inSeconds) }
    }

    /// Whether any attempt has started.
    public var hasStarted: Bool { lastStartedAttempt > 0 }
}
