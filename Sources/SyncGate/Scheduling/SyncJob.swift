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
///
/// Every option lives in ``options`` (a ``SyncJobOptions``) and reads and writes as a property of the
/// job too: `job.retry`, `job.uniqueKey`.
@dynamicMemberLookup
public struct SyncJob: Sendable, Identifiable {
    /// A job's identifier, unique among unfinished jobs.
    public typealias ID = String
    /// The work a job does; it gets a context and may be cancelled.
    public typealias Operation = @Sendable (SyncJobContext) async throws -> Void

    /// The identifier; a random one unless given.
    public var id: ID
    /// When and how the job runs.
    public var options: SyncJobOptions
    /// The work.
    public var operation: Operation

    /// Creates a job from its options.
    ///
    /// - Parameters:
    ///   - id: the identifier; a random one by default. It must not be the id of an unfinished job.
    ///   - options: when and how the job runs.
    ///   - operation: the work.
    public init(id: ID = SyncJob.makeID(), options: SyncJobOptions, operation: @escaping Operation) {
        self.id = id
        self.options = options
        self.operation = operation
    }

    /// Creates a job; the parameters are those of ``SyncJobOptions``.
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
        self.init(
            id: id,
            options: SyncJobOptions(
                requires: requires, conditions: conditions, priority: priority, delay: delay,
                startDeadline: startDeadline, runTimeout: runTimeout, retry: retry,
                onRequirementsLost: onRequirementsLost, uniqueKey: uniqueKey, onDuplicate: onDuplicate,
                serialGroup: serialGroup, tags: tags),
            operation: operation)
    }

    /// An option of the job, read or written as a property: `job.retry`, `job.tags`.
    public subscript<Value>(dynamicMember option: WritableKeyPath<SyncJobOptions, Value>) -> Value {
        get { options[keyPath: option] }
        set { options[keyPath: option] = newValue }
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
        id.isEmpty ? "id must not be empty" : options.validationError
    }
}
