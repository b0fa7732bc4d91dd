import SyncGateCore

/// A job described by data, so it can be kept on disk and run again after a restart.
///
/// The ``kind`` names a handler registered with ``DurableScheduler/register(_:payload:handler:)``; the
/// ``payload`` is encoded with `JSONEncoder` when the job is submitted and decoded when it is restored.
/// Its ``options`` are those of every job (``SyncJobOptions``) and read and write as properties of the
/// job too; `delay` and `startDeadline` are kept as wall-clock instants, so they count the time the app
/// was not running too.
///
/// ```swift
/// try durable.submit(DurableJob(kind: "upload", payload: UploadRequest(photo: 42),
///                               requires: .largeTransfer, retry: .exponential(maxAttempts: 5)))
/// ```
@dynamicMemberLookup
public struct DurableJob<Payload: Codable & Sendable>: Sendable, Identifiable {
    /// The identifier; the handler's idempotency key (`context.jobID`).
    public var id: SyncJob.ID
    /// The registered kind whose handler runs the job.
    public var kind: String
    /// The data the handler gets.
    public var payload: Payload
    /// When and how the job runs.
    public var options: SyncJobOptions

    /// Creates a durable job from its options.
    public init(id: SyncJob.ID = SyncJob.makeID(), kind: String, payload: Payload, options: SyncJobOptions) {
        self.id = id
        self.kind = kind
        self.payload = payload
        self.options = options
    }

    /// Creates a durable job from the options a durable job sets most often; the others keep their
    /// defaults, and read and write as properties afterwards (`job.startDeadline`, `job.period`), or come
    /// whole in ``init(id:kind:payload:options:)``.
    ///
    /// Each option parameter is the ``SyncJobOptions`` field of that name (`requires` is
    /// ``SyncJobOptions/requirements``) with its default: as for a ``SyncJob``, `requires` is
    /// ``SyncRequirements/network`` unless given; a job that needs nothing of the environment says
    /// `requires: .none`. `uniqueKey` holds across restarts. `dependsOn` names unfinished durable
    /// jobs of the same ``DurableScheduler`` (so that a restart finds them in the store); after a restart
    /// the job still waits for them, or fails naming one that did not succeed.
    ///
    /// A periodic durable job (`period`) keeps its schedule across restarts: see ``DurableScheduler``.
    ///
    /// - Parameters:
    ///   - id: the identifier; one from ``SyncJob/makeID()`` by default.
    ///   - kind: the registered kind whose handler runs the job.
    ///   - payload: the data the handler gets.
    public init(
        id: SyncJob.ID = SyncJob.makeID(),
        kind: String,
        payload: Payload,
        requires: SyncRequirements = .network,
        conditions: Set<SyncCondition> = [],
        retry: RetryPolicy = .none,
        uniqueKey: String? = nil,
        onDuplicate: DuplicatePolicy = .keepExisting,
        serialGroup: String? = nil,
        dependsOn: [SyncJob.ID] = []
    ) {
        self.init(
            id: id, kind: kind, payload: payload,
            options: SyncJobOptions(
                requires: requires, conditions: conditions, retry: retry, uniqueKey: uniqueKey,
                onDuplicate: onDuplicate, serialGroup: serialGroup, dependsOn: dependsOn))
    }

    /// An option of the job, read or written as a property: `job.retry`, `job.tags`.
    public subscript<Value>(dynamicMember option: WritableKeyPath<SyncJobOptions, Value>) -> Value {
        get { options[keyPath: option] }
        set { options[keyPath: option] = newValue }
    }
}
