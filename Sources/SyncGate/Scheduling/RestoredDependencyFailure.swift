/// A dependency of a restored durable job that did not succeed in an earlier run of the app: the job
/// fails at once with ``SyncJobError/dependencyDidNotSucceed(id:outcome:)`` naming it.
struct RestoredDependencyFailure: Sendable, Hashable {
    /// The job that did not succeed (the root of a failed chain).
    var id: SyncJob.ID
    /// How it ended.
    var resolution: JobRecord.Resolution
    /// For a failure, the error's description.
    var detail: String

    /// The outcome the job ended with, as far as the journal recorded it.
    var outcome: SyncJobOutcome {
        switch resolution {
        case .cancelled, .discarded: .cancelled
        case .expired: .expired
        case .succeeded, .failed: .failed(EarlierRunFailure(description: detail))
        }
    }
}
