import SyncGate

/// The handles of the daemon's unfinished jobs by id, so that a request can wait for what it changed
/// (a `cancel` waits for each job's end, which comes after the durable layer tried to write it).
///
/// Handles of finished jobs are dropped whenever the table has doubled since the last sweep, so it holds
/// at most about twice the unfinished jobs.
final class JobHandles: Sendable {
    private struct Table {
        var handles: [SyncJob.ID: SyncJobHandle] = [:]
        var sweepAt = 64
    }

    private let table = LockedState(Table())

    /// Adds `handles` (a submitted or restored job's).
    func add(_ handles: [SyncJobHandle]) {
        table.withLock { table in
            for handle in handles { table.handles[handle.id] = handle }
            guard table.handles.count >= table.sweepAt else { return }
            table.handles = table.handles.filter { !$0.value.state.isTerminal }
            table.sweepAt = max(64, table.handles.count * 2)
        }
    }

    /// The handles of the jobs `ids` that the table holds.
    func handles(_ ids: [SyncJob.ID]) -> [SyncJobHandle] {
        table.withLock { table in ids.compactMap { table.handles[$0] } }
    }
}
