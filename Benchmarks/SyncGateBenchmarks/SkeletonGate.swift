import SyncGate

/// The least a gate can do that starts each job in a task of its own when the environment lets it, for
/// the floor of scenarios 1 and 3: a lock, one flag and a list of waiting jobs. Opening it takes the
/// lock, sets the flag and takes the waiting jobs; after the lock, it creates each one's `Task`. A job
/// submitted while it is open gets its task at once.
///
/// No requirements beyond the flag, no handle, state, event, history or cancellation: the distance
/// between it and its baseline is what deciding under a lock and creating a task cost on this machine,
/// which any gate that runs each job in a cancellable task of its own pays before the job's body runs.
final class SkeletonGate: Sendable {
    typealias Operation = @Sendable () async -> Void

    private struct State {
        var isOpen = false
        var waiting: [Operation] = []
    }

    private let state = LockedState(State())

    /// Starts `operation` in a task of its own now if the gate is open, else when it opens.
    func submit(_ operation: @escaping Operation) {
        let runsNow = state.withLock { state in
            if state.isOpen { return true }
            state.waiting.append(operation)
            return false
        }
        if runsNow { Task { await operation() } }
    }

    /// Opens or closes the gate; opening starts every waiting job.
    func set(open: Bool) {
        let released: [Operation] = state.withLock { state in
            state.isOpen = open
            guard open else { return [] }
            defer { state.waiting = [] }
            return state.waiting
        }
        for operation in released { Task { await operation() } }
    }
}
