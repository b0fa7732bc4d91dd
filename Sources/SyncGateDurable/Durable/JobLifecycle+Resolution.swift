import SyncGateCore

extension JobLifecycle {
    /// The journal resolution of a terminal event; `nil` for an event that does not end the job.
    ///
    /// `JobRecord.Resolution.discarded` has no event: the durable layer writes it for a submission the
    /// scheduler refused after it was stored.
    static func resolution(of event: SyncSchedulerEvent) -> JobRecord.Resolution? {
        switch event {
        case .submitted, .started, .retryScheduled, .requeued, .stopRequested, .periodEnded, .relaxed: nil
        case .succeeded: .succeeded
        case .failed: .failed
        case .cancelled: .cancelled
        case .expired: .expired
        }
    }
}
