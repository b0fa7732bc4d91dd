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
///
/// **Every job requires ``SyncRequirements/network`` unless told otherwise**: `requires` defaults to
/// `.network`, so a job given only `conditions` still waits for a network path. Work that needs nothing
/// of the environment (a local migration, a cache cleanup) says `requires: .none`
/// (``SyncRequirements/none``).
@dynamicMemberLookup
public struct SyncJob: Sendable, Identifiable {
    /// A job's identifier, unique among unfinished jobs.
    public typealias ID = String
    /// The work a job does; it gets a context and may be cancelled.
    public typealias Operation = @Sendable (SyncJobContext) async throws -> Void

    /// The identifier; one from ``makeID()`` unless given.
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

    /// Creates a job from the options set most often; the others keep their defaults, and read and
    /// write as properties afterwards (`job.delay`, `job.period`), or come whole in
    /// ``init(id:options:operation:)``.
    ///
    /// Each option parameter is the ``SyncJobOptions`` field of that name (`requires` is
    /// ``SyncJobOptions/requirements``) with its default: `requires` is ``SyncRequirements/network``
    /// unless given, ``SyncRequirements/none`` for work that needs nothing of the environment.
    ///
    /// - Parameters:
    ///   - id: the identifier; one from ``makeID()`` by default. It must not be the id of an unfinished job.
    ///   - operation: the work.
    public init(
        id: ID = SyncJob.makeID(),
        requires: SyncRequirements = .network,
        conditions: Set<SyncCondition> = [],
        priority: SyncJobPriority = .normal,
        startDeadline: Duration? = nil,
        runTimeout: Duration? = nil,
        retry: RetryPolicy = .none,
        onRequirementsLost: RequirementsLostPolicy = .cancelAndRequeue,
        uniqueKey: String? = nil,
        onDuplicate: DuplicatePolicy = .keepExisting,
        serialGroup: String? = nil,
        tags: Set<String> = [],
        dependsOn: [SyncJob.ID] = [],
        operation: @escaping Operation
    ) {
        self.init(
            id: id,
            options: SyncJobOptions(
                requires: requires, conditions: conditions, priority: priority, startDeadline: startDeadline,
                runTimeout: runTimeout, retry: retry, onRequirementsLost: onRequirementsLost, uniqueKey: uniqueKey,
                onDuplicate: onDuplicate, serialGroup: serialGroup, tags: tags, dependsOn: dependsOn),
            operation: operation)
    }

    /// An option of the job, read or written as a property: `job.retry`, `job.tags`.
    public subscript<Value>(dynamicMember option: WritableKeyPath<SyncJobOptions, Value>) -> Value {
        get { options[keyPath: option] }
        set { options[keyPath: option] = newValue }
    }

    /// Returns a new identifier, distinct from every other default identifier, in this launch of the app
    /// and in earlier ones: `k3f9x2ab0#1z4`.
    ///
    /// A default identifier is a prefix drawn at random once per launch (nine base-36 characters, about
    /// 46.5 random bits), `#`, and a base-36 counter of the launch. The counter keeps identifiers of one
    /// launch apart; two launches draw the same prefix with a chance of 1 in 36⁹ (about 10¹⁴), so a job
    /// restored from a durable store does not collide with a new default identifier, and `context.jobID`
    /// serves as an idempotency key among one installation's jobs. For a key that must be unique among
    /// many devices too, give jobs identifiers of your own (a UUID); give them a form without `#` to keep
    /// them apart from default ones.
    ///
    /// For the first 60 million jobs of a launch an identifier is at most 15 bytes, which a Swift string
    /// stores inline, without an allocation.
    public static func makeID() -> ID {
        JobIDGenerator.current.next()
    }

    /// The first problem with the job's values, naming the field and its value, or `nil` when valid.
    package var validationError: SyncJobRefusal? {
        if id.isEmpty { return SyncJobRefusal(jobID: id, field: "id", value: "\"\"", reason: "id must not be empty") }
        return options.validationError?.refusing(id)
    }
}
