/// Errors thrown by ``SyncScheduler``'s entry points.
public enum SyncSchedulerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The scheduler has been shut down and takes no more jobs.
    case shutDown
    /// The job was rejected: the refusal names the job, the field, its value and the other jobs
    /// involved. Nothing queued changed.
    case invalidJob(SyncJobRefusal)
    /// The configuration was rejected; the reason names the field and its value.
    case invalidConfiguration(String)

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .shutDown: "the scheduler has been shut down"
        case .invalidJob(let reason): "invalid job: \(reason)"
        case .invalidConfiguration(let reason): "invalid scheduler configuration: \(reason)"
        }
    }
}
