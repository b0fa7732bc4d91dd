import Foundation

/// A durable job as a ``JobStore`` keeps it: its kind, encoded payload, options and progress.
///
/// Times are wall-clock instants, so a delay, a start deadline or a retry backoff keeps its meaning
/// across a restart. The progress fields (``failures``, ``lastStartedAttempt``, ``isRunning``,
/// ``retryAt``) are those of the latest record the store has for the job.
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
    /// When the job's initial delay ends; `nil` without a delay.
    public var eligibleAt: Date?
    /// When the job expires unless an attempt has started; `nil` without a start deadline.
    public var startDeadlineAt: Date?
    /// How long one attempt may run.
    public var runTimeout: Duration?
    /// What must hold before an attempt starts.
    public var requirements: SyncRequirements
    /// The app-defined conditions that must hold before an attempt starts.
    public var conditions: Set<SyncCondition>
    /// The priority among runnable jobs.
    public var priority: SyncJobPriority
    /// How failures are retried.
    public var retry: RetryPolicy
    /// What happens when the requirements stop holding while an attempt runs.
    public var onRequirementsLost: RequirementsLostPolicy
    /// A key of which at most one unfinished job exists.
    public var uniqueKey: String?
    /// What happens when an unfinished job already has ``uniqueKey``.
    public var onDuplicate: DuplicatePolicy
    /// A group whose jobs run one at a time, in submission order.
    public var serialGroup: String?
    /// Labels for cancellation and display.
    public var tags: Set<String>
    /// How many attempts have failed (and counted against the retry policy).
    public var failures: Int = 0
    /// The number of the last attempt that started; 0 if none has.
    public var lastStartedAttempt: Int = 0
    /// Whether an attempt had started and not finished at the latest record (so it was interrupted).
    public var isRunning = false
    /// When the retry backoff after the last failure ends.
    public var retryAt: Date?

    /// Creates a stored job; the progress fields start at "never started".
    public init(
        sequence: UInt64,
        id: SyncJob.ID,
        kind: String,
        payload: Data,
        submittedAt: Date,
        eligibleAt: Date? = nil,
        startDeadlineAt: Date? = nil,
        runTimeout: Duration? = nil,
        requirements: SyncRequirements = .network,
        conditions: Set<SyncCondition> = [],
        priority: SyncJobPriority = .normal,
        retry: RetryPolicy = .none,
        onRequirementsLost: RequirementsLostPolicy = .cancelAndRequeue,
        uniqueKey: String? = nil,
        onDuplicate: DuplicatePolicy = .keepExisting,
        serialGroup: String? = nil,
        tags: Set<String> = []
    ) {
        self.sequence = sequence
        self.id = id
        self.kind = kind
        self.payload = payload
        self.submittedAt = submittedAt
        self.eligibleAt = eligibleAt
        self.startDeadlineAt = startDeadlineAt
        self.runTimeout = runTimeout
        self.requirements = requirements
        self.conditions = conditions
        self.priority = priority
        self.retry = retry
        self.onRequirementsLost = onRequirementsLost
        self.uniqueKey = uniqueKey
        self.onDuplicate = onDuplicate
        self.serialGroup = serialGroup
        self.tags = tags
    }

    /// Whether any attempt has started.
    public var hasStarted: Bool { lastStartedAttempt > 0 }
}
