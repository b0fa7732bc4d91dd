/// Errors of the durable-job entry points of ``SyncScheduler``.
public enum DurableJobError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No ``JobStore`` is attached; call ``SyncScheduler/attach(_:wallClock:)`` first.
    case noStore
    /// A store is already attached to this scheduler.
    case storeAlreadyAttached
    /// Durable jobs are submitted only after ``SyncScheduler/restoreDurableJobs()``, so that restored
    /// jobs keep their place, their unique keys and their serial groups.
    case notRestored
    /// The kind name is empty, or already registered; the reason names it.
    case invalidKind(String)
    /// No handler is registered for the kind.
    case unknownKind(String)
    /// The payload's type is not the one registered for the kind.
    case payloadTypeMismatch(kind: String, registered: String, submitted: String)
    /// The payload could not be encoded; nothing was stored.
    case payloadEncodingFailed(jobID: SyncJob.ID, kind: String, reason: String)

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .noStore: "no job store is attached: call attach(_:) first"
        case .storeAlreadyAttached: "a job store is already attached to this scheduler"
        case .notRestored: "call restoreDurableJobs() before submitting durable jobs"
        case .invalidKind(let reason): "invalid job kind: \(reason)"
        case .unknownKind(let kind): "no handler is registered for job kind \"\(kind)\""
        case .payloadTypeMismatch(let kind, let registered, let submitted):
            "job kind \"\(kind)\" takes payloads of type \(registered), got \(submitted)"
        case .payloadEncodingFailed(let id, let kind, let reason):
            "the payload of job \(id) (kind \"\(kind)\") could not be encoded: \(reason)"
        }
    }
}
