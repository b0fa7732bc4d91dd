extension SyncJobHandle: CustomStringConvertible {
    /// The job's id and its state now, as ``state`` reads: `upload-42: waiting for [unmetered]`,
    /// `upload-42: running attempt 2`, and once the job has ended its outcome (`upload-42: succeeded`,
    /// `upload-42: failed: <the error>`); followed by the ``stopReason`` when there is one, as
    /// ``SyncSchedulerSnapshot/Job/summary`` shows it: `upload-42: running attempt 1 (stopping: timed-out)`
    /// while the attempt is being stopped, `upload-42: cancelled (stopped: replaced)` after.
    public var description: String {
        let state = state
        guard let stopReason else { return "\(id): \(state)" }
        let stopping = if case .running = state { "stopping" } else { "stopped" }
        return "\(id): \(state) (\(stopping): \(stopReason))"
    }
}
