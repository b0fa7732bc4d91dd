import SyncGate

/// The structured refusal an error carries, from the scheduler or the durable layer; `nil` for any
/// other error (or none).
func refusal(of error: (any Error)?) -> SyncJobRefusal? {
    switch error {
    case SyncSchedulerError.invalidJob(let refusal)?: refusal
    case DurableJobError.rejected(.invalidJob(let refusal))?: refusal
    default: nil
    }
}

/// The refusal of a job whose identifier is that of an unfinished job.
func idTaken(_ id: SyncJob.ID) -> SyncJobRefusal {
    SyncJobRefusal(
        jobID: id, field: "id", value: "\"\(id)\"", relatedJobs: [id],
        reason: "id \"\(id)\" is already used by an unfinished job")
}
