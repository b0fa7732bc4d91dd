/// Something that happened to a job, as reported by ``SyncScheduler/events``.
public enum SyncSchedulerEvent: Sendable, Hashable, CustomStringConvertible {
    /// The job was accepted.
    case submitted(id: SyncJob.ID)
    /// An attempt started (1 for the first).
    case started(id: SyncJob.ID, attempt: Int)
    /// The job succeeded.
    case succeeded(id: SyncJob.ID)
    /// The job failed for good; `error` describes the last error.
    case failed(id: SyncJob.ID, error: String)
    /// An attempt failed and the job will try again after `delay`.
    case retryScheduled(id: SyncJob.ID, attempt: Int, delay: Duration)
    /// The job's requirements were lost while it ran; it waits again for the ones listed.
    case requeued(id: SyncJob.ID, lost: SyncRequirements)
    /// The job was cancelled.
    case cancelled(id: SyncJob.ID)
    /// The job did not start before its start deadline.
    case expired(id: SyncJob.ID)

    /// The job the event is about.
    public var jobID: SyncJob.ID {
        switch self {
        case .submitted(let id), .started(let id, _), .succeeded(let id), .failed(let id, _),
            .retryScheduled(let id, _, _), .requeued(let id, _), .cancelled(let id), .expired(let id):
            id
        }
    }

    /// A one-line summary such as `started upload-1 (attempt 2)`.
    public var description: String {
        switch self {
        case .submitted(let id): "submitted \(id)"
        case .started(let id, let attempt): "started \(id) (attempt \(attempt))"
        case .succeeded(let id): "succeeded \(id)"
        case .failed(let id, let error): "failed \(id): \(error)"
        case .retryScheduled(let id, let attempt, let delay): "retry \(id) as attempt \(attempt) in \(delay)"
        case .requeued(let id, let lost): "requeued \(id), lost \(lost)"
        case .cancelled(let id): "cancelled \(id)"
        case .expired(let id): "expired \(id)"
        }
    }
}
