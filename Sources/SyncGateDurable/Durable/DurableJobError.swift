import SyncGateCore

/// Errors of ``DurableScheduler``: the one error type its `register`, `restoreJobs`, `submit`,
/// `submitWithoutBlocking` and `discardKeptJob` throw.
public enum DurableJobError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Durable jobs are submitted only after ``DurableScheduler/restoreJobs()``, so that restored jobs
    /// keep their place, their unique keys and their serial groups.
    case notRestored
    /// The kind name is empty, or already registered; the reason names it.
    case invalidKind(String)
    /// No handler is registered for the kind.
    case unknownKind(String)
    /// The payload's type is not the one registered for the kind.
    case payloadTypeMismatch(kind: String, registered: String, submitted: String)
    /// The payload could not be encoded; nothing was stored.
    case payloadEncodingFailed(jobID: SyncJob.ID, kind: String, reason: String)
    /// The encoded payload is larger than ``DurableScheduler/maximumPayloadSize``; nothing was stored.
    case payloadTooLarge(jobID: SyncJob.ID, size: Int, limit: Int)
    /// The scheduler refused the job: an invalid option (naming the field and the value), an id or
    /// unique key held by an unfinished job or a kept one, or a scheduler that has shut down. Nothing stays in the store.
    case rejected(SyncSchedulerError)
    /// The store could not be read or written; a submission that throws this was not stored.
    case storeFailed(JobStoreError)
    /// A durable job's attempt set an output that is not `Encodable`, or that did not encode: the
    /// journal keeps outputs as JSON, so the attempt fails with this error.
    case outputEncodingFailed(jobID: SyncJob.ID, type: String, reason: String)

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .notRestored: "call restoreJobs() before submitting durable jobs"
        case .invalidKind(let reason): "invalid job kind: \(reason)"
        case .unknownKind(let kind): "no handler is registered for job kind \"\(kind)\""
        case .payloadTypeMismatch(let kind, let registered, let submitted):
            "job kind \"\(kind)\" takes payloads of type \(registered), got \(submitted)"
        case .payloadEncodingFailed(let id, let kind, let reason):
            "the payload of job \(id) (kind \"\(kind)\") could not be encoded: \(reason)"
        case .payloadTooLarge(let id, let size, let limit):
            "the payload of job \(id) is \(size) bytes, over the limit of \(limit) bytes"
        case .rejected(let error): "\(error)"
        case .storeFailed(let error): "\(error)"
        case .outputEncodingFailed(let id, let type, let reason):
            "the output of durable job \(id), of type \(type), did not encode: \(reason)"
        }
    }
}
