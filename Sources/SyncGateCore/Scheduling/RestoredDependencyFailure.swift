/// A dependency of a restored durable job that did not succeed in an earlier run of the app: the job
/// fails at once with ``SyncJobError/dependencyDidNotSucceed(id:outcome:)`` naming it.
package struct RestoredDependencyFailure: Sendable, Hashable {
    /// The job that did not succeed (the root of a failed chain).
    package var id: SyncJob.ID
    /// The outcome the job ended with, as far as the journal recorded it.
    package var outcome: SyncJobOutcome

    /// Creates the failure of dependency `id`, which ended with `outcome`.
    package init(id: SyncJob.ID, outcome: SyncJobOutcome) {
        self.id = id
        self.outcome = outcome
    }

    /// Hashes the job's ID alone: equal failures name the same job.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(id)
    }
}
