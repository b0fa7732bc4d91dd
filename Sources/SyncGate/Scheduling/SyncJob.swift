import Synchronization

/// A unit of background work and everything the scheduler needs to know to start it at the right moment.
///
/// ```swift
/// let upload = SyncJob(id: "upload-42", requires: .largeTransfer, runTimeout: .seconds(300),
///                      retry: .exponential(maxAttempts: 3)) { context in
///     try await uploader.upload(photo, idempotencyKey: context.jobID)
/// }
/// let handle = try scheduler.submit(upload)
/// ```
public struct SyncJob: Sendable, Identifiable {
    /// A job's identifier, unique among unfinished jobs.
    public typealias ID = String
    /// The work a job does; it gets a context and may be cancelled.
    public typealias Operation = @Sendable (SyncJobContext) async throws -> Void

    /// The identifier; a random one unless given.
    public var id: ID
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
    /// A key of which at most one unfinished job exists.
    public var uniqueKey: String?
    /// What happens when an unfinished job already has ``uniqueKey``.
    public var onDuplicate: DuplicatePolicy
    /// A group whose jobs run one at a time, in submission order.
    public var serialGroup: String?
    /// Labels for ``SyncScheduler/cancel(tag:)`` and for display.
    public var tags: Set<String>
    /// The work.
    public var operation: Operation

    /// Creates a job.
    ///
    /// - Parameters:
    ///   - id: the identifier; a random one by default. It must not be the id of an unfinished job.
    ///   - requires: what must hold before an attempt starts.
    ///   - conditions: the app-defined conditions that must hold before an attempt starts.
    ///   - priority: the priority among runnable jobs.
    ///   - delay: how long after submission the job becomes eligible.
    ///   - startDeadline: how long after submission the first attempt must have started.
    ///   - runTimeout: how long one attempt may run.
    ///   - retry: how failures are retried.
    ///   - onRequirementsLost: what happens when the requirements stop holding during an attempt.
    ///   - uniqueKey: a key of which at most one unfinished job exists.
    ///   - onDuplicate: what happens when an unfinished job already has the key.
    ///   - serialGroup: a group whose jobs run one at a time, in submission order.
    ///   - tags: labels for cancellation and display.
    ///   - operation: the work.
    public init(
        id: ID = SyncJob.makeID(),
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
        tags: Set<String> = [],
        operation: @escaping Operation
    ) {
        self.id = id
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
        self.operation = operation
    }

    /// Returns a new identifier, unique in this process, such as `job#1z4`.
    ///
    /// Default identifiers are `job#` followed by a base-36 counter; give your own jobs identifiers of
    /// another form. They are short enough to be stored inline, without an allocation.
    public static func makeID() -> ID {
        "job#" + String(idCounter.add(1, ordering: .relaxed).newValue, radix: 36)
    }

    private static let idCounter = Atomic<UInt64>(0)

    /// The first problem with the job's values, naming the field and its value, or `nil` when valid.
    package var validationError: String? {
        if id.isEmpty { return "id must not be empty" }
        if conditions.contains(where: { !$0.isValid }) { return "conditions must not contain an empty name" }
        if let delay, delay < .zero { return "delay must not be negative, got \(delay)" }
        if let startDeadline, startDeadline <= .zero { return "startDeadline must be positive, got \(startDeadline)" }
        if let runTimeout, runTimeout <= .zero { return "runTimeout must be positive, got \(runTimeout)" }
        if let reason = retry.validationError { return reason }
        if let uniqueKey, uniqueKey.isEmpty { return "uniqueKey must not be empty" }
        if let serialGroup, serialGroup.isEmpty { return "serialGroup must not be empty" }
        if tags.contains("") { return "tags must not contain an empty tag" }
        return nil
    }
}
