import SyncGateCore

/// The durable scheduler's active jobs by sequence number, with an index of their ids, so that checking a
/// new job's dependencies costs the same however many jobs are pending.
///
/// Invariant: `counts[id]` is the number of entries whose job has `id` (absent when none).
struct DurableActiveJobs: Sendable {
    private var jobs: [UInt64: DurableSchedulerStateMachine.Active] = [:]
    private var counts: [SyncJob.ID: Int] = [:]

    /// The active job with the sequence number; setting `nil` removes it.
    subscript(sequence: UInt64) -> DurableSchedulerStateMachine.Active? {
        get { jobs[sequence] }
        set {
            let old: DurableSchedulerStateMachine.Active?
            if let newValue {
                old = jobs.updateValue(newValue, forKey: sequence)
            } else {
                old = jobs.removeValue(forKey: sequence)
            }
            guard old?.id != newValue?.id else { return }
            if let old { forget(old.id) }
            if let newValue { counts[newValue.id, default: 0] += 1 }
        }
    }

    /// Makes room for `additional` more jobs, so that a restore's many activations never move those
    /// already active.
    mutating func reserveCapacity(forAdditional additional: Int) {
        jobs.reserveCapacity(jobs.count + additional)
        counts.reserveCapacity(counts.count + additional)
    }

    /// Whether a job with the id is active.
    func containsJob(id: SyncJob.ID) -> Bool {
        counts[id] != nil
    }

    /// The sequence numbers of the active jobs.
    var sequences: Dictionary<UInt64, DurableSchedulerStateMachine.Active>.Keys { jobs.keys }

    /// How many jobs are active.
    var count: Int { jobs.count }

    /// Whether no job is active.
    var isEmpty: Bool { jobs.isEmpty }

    /// The ids of the active jobs in the order of their sequence numbers.
    var idsInSequenceOrder: [SyncJob.ID] {
        jobs.sorted { $0.key < $1.key }.map(\.value.id)
    }

    private mutating func forget(_ id: SyncJob.ID) {
        if let count = counts[id], count > 1 { counts[id] = count - 1 } else { counts[id] = nil }
    }
}
