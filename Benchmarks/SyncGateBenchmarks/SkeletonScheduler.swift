import Synchronization

/// The least a job scheduler with one lock can do per job, for scenario 4's floor: a handle object and
/// an index entry per job, a FIFO of waiting jobs, a fixed number of slots, and a runner task per slot
/// that takes the next waiting job when its job ends (as `SyncScheduler`'s attempt tasks do).
///
/// No requirements, events, history, states or cancellation: the figure shows what the lock, the
/// allocations and the task hand-offs alone cost on this machine, so that the distance between it and
/// `SyncScheduler` is the scheduler's own bookkeeping.
final class SkeletonScheduler: Sendable {
    typealias Operation = @Sendable () async -> Void

    /// What a submission returns; the skeleton's stand-in for a job handle.
    final class Handle: Sendable {
        let key: UInt64
        /// Set when the job ends: the one state change a handle must publish (nothing here reads it).
        let isFinished = Atomic<Bool>(false)

        init(key: UInt64) {
            self.key = key
        }
    }

    private struct Job: Sendable {
        let operation: Operation
        let handle: Handle
    }

    private struct State: ~Copyable {
        var index: [UInt64: Handle] = [:]
        var waiting = FIFOQueue<Job>()
        var running = 0
        var nextKey: UInt64 = 0
    }

    private let state = Mutex(State())
    private let slots: Int

    init(slots: Int) {
        self.slots = slots
    }

    /// Queues the operation, or starts a runner for it when a slot is free.
    @discardableResult
    func submit(_ operation: @escaping Operation) -> Handle {
        let (handle, start): (Handle, Job?) = state.withLock { state in
            state.nextKey += 1
            let handle = Handle(key: state.nextKey)
            state.index[handle.key] = handle
            let job = Job(operation: operation, handle: handle)
            guard state.running < slots else {
                state.waiting.append(job)
                return (handle, nil)
            }
            state.running += 1
            return (handle, job)
        }
        if let start { Task { await self.run(start) } }
        return handle
    }

    /// Runs jobs until none is waiting, then frees its slot.
    private func run(_ first: Job) async {
        var next: Job? = first
        while let job = next {
            await job.operation()
            job.handle.isFinished.store(true, ordering: .releasing)
            next = state.withLock { state in
                state.index[job.handle.key] = nil
                guard let taken = state.waiting.popFirst() else {
                    state.running -= 1
                    return nil
                }
                return taken
            }
        }
    }
}
