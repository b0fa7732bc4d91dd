/// A job described by data, so it can be kept on disk and run again after a restart.
///
/// The ``kind`` names a handler registered with ``SyncScheduler/register(_:payload:handler:)``; the
/// ``payload`` is encoded with `JSONEncoder` when the job is submitted and decoded when it is restored.
/// Every option means what it means on ``SyncJob``; `delay` and `startDeadline` are kept as wall-clock
/// instants, so they count the time the app was not running too.
///
/// ```swift
/// try await scheduler.submit(DurableJob(kind: "upload", payload: UploadRequest(photo: 42),
///                                       requires: .largeTransfer, retry: .exponential(maxAttempts: 5)))
/// ```
public struct DurableJob<Payload: Codable & Sendable>: Sendable, Identifiable {
    /// The identifier; the handler's idempotency key (`context.jobID`).
    public var id: SyncJob.ID
    /// The registered kind whose handler runs the job.
    public var kind: String
    /// The data the handler gets.
    public var payload: Payload
    /// What must hold before an attempt starts.
    public var requirements: SyncRequirements
    /// The app-defined conditions that must hold before an attempt starts.
    public var conditions: Set<SyncCondition>
    /// The priority among runnable jobs.
    public var priority: SyncJobPriority
    /// How long after submission the job becomes eligible; `nil` for at once.
    public var delay: Duration?
    /// How long after submission the first attempt must have started; the job expires otherwise.
    public var startDeadline: Duration?
    /// How long one attempt may run before it is cancelled and counted as failed.
    public var runTimeout: Duration?
    /// How failures are retried.
    public var retry: RetryPolicy
    /// What happens when the requirements stop holding while an attempt runs.
    public var onRequirementsLost: RequirementsLostPolicy
    /// A key of which at most one unfinished job exists, across restarts too.
    public var uniqueKey: String?
    /// What happens when an unfinished job already has ``uniqueKey``.
    public var onDuplicate: DuplicatePolicy
    /// A group whose jobs run one at a time, in submission order, across restarts too.
    public var serialGroup: String?
    /// Labels for ``SyncScheduler/cancel(tag:)`` and for display.
    public var tags: Set<String>

    /// Creates a durable job; the options are those of ``SyncJob/init(id:requires:conditions:priority:delay:startDeadline:runTimeout:retry:onRequirementsLost:uniqueKey:onDuplicate:serialGroup:tags:operation:)``.
    public init(
        id: SyncJob.ID = SyncJob.makeID(),
        kind: String,
        payload: Payload,
        requires: SyncRequirements = .network,
        conditions: Set<SyncCondition> = [],
        priority: SyncJobPriority = .normal,
        delay: Duration? = nil,
        startDeadline: Duration? = nil,
        runTimeout: Duration? = nil,
        retry: RetryPolicy = .none,
        onRequirementsLost: RequirementsLostPolicy = .cancelAndRequeue,
        uniqueKey: String? = nil,
        onDuplicate: DuplicatePolicy = .keepExisting,
        serialGroup: String? = nil,
        tags: Set<String> = []
    ) {
        self.id = id
        self.kind = kind
        self.payload = payload
        self.requirements = requires
        self.conditions = conditions
        self.priority = priority
        self.delay = delay
        self.startDeadline = startDeadline
        self.runTimeout = runTimeout
        self.retry = retry
        self.onRequirementsLost = onRequirementsLost
        self.uniqueKey = uniqueKey
        self.onDuplicate = onDuplicate
        self.serialGroup = serialGroup
        self.tags = tags
    }

    /// The closure job with the same options and the given operation.
    func syncJob(operation: @escaping SyncJob.Operation) -> SyncJob {
        SyncJob(
            id: id, requires: requirements, conditions: conditions, priority: priority, delay: delay,
            startDeadline: startDeadline, runTimeout: runTimeout, retry: retry,
            onRequirementsLost: onRequirementsLost, uniqueKey: uniqueKey, onDuplicate: onDuplicate,
            serialGroup: serialGroup, tags: tags, operation: operation)
    }
}
