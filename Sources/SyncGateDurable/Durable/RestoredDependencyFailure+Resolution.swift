import SyncGateCore

extension RestoredDependencyFailure {
    /// Creates the failure of dependency `id` from the journal's record of its end.
    ///
    /// - Parameters:
    ///   - id: the job that did not succeed (the root of a failed chain).
    ///   - resolution: how it ended.
    ///   - detail: for a failure, the error's description.
    init(id: SyncJob.ID, resolution: JobRecord.Resolution, detail: String) {
        let outcome: SyncJobOutcome =
            switch resolution {
            case .cancelled, .discarded: .cancelled
            case .expired: .expired
            case .succeeded, .failed: .failed(EarlierRunFailure(description: detail))
            }
        self.init(id: id, outcome: outcome)
    }
}
