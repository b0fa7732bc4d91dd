import SyncGateCore

/// The durable scheduler's active jobs by sequence number, with an index of their ids, so that checking a
/// new job's dependencies costs the same however many jobs are pending.
///
/// The jobs themselves live in a ``ChunkedArray`` and a ``KeyTable`` (sequence numbers are handed out in
/// order) holds their places, so a growing set of active jobs never moves the jobs, only their places; a
/// removed job's place is used again.
///
/// Invariants: `places` and the non-empty entries of `slots` are the same jobs; `free` lists exactly the
/// empty entries of `slots`; `counts[id]` is the number of jobs with `id` (absent when none).
struct DurableActiveJobs: Sendable {
    private var places = KeyTable<Int>()
    private var slots = ChunkedArray<DurableSchedulerStateMachine.Active?>()
    private var free: [Int] = []
    private var counts: [SyncJob.ID: Int] = [:]

    /// The active job with the sequence number; setting `nil` removes it.
    subscript(sequence: UInt64) -> DurableSchedulerStateMachine.Active? {
        get { places[sequence].flatMap { slots[$0] } }
        set {
            let old: DurableSchedulerStateMachine.Active?
            if let place = places[sequence] {
                old = slots[place].take()
                if let newValue {
                    slots[place] = newValue
                } else {
                    places[sequence] = nil
                    free.append(place)
                }
            } else {
                old = nil
                if let newValue { places[sequence] = store(newValue) }
            }
            guard old?.id != newValue?.id else { return }
            if let old { forget(old.id) }
            if let newValue { counts[newValue.id, default: 0] += 1 }
        }
    }

    /// Makes room for `additional` more jobs, so that a restore's many activations never grow the index
    /// while it is being filled.
    mutating func reserveCapacity(forAdditional additional: Int) {
        places.reserveCapacity(places.count + additional)
        counts.reserveCapacity(counts.count + additional)
    }

    /// Puts `job` in an empty place, or a new one; returns the place.
    private mutating func store(_ job: DurableSchedulerStateMachine.Active) -> Int {
        if let place = free.popLast() {
            slots[place] = job
            return place
        }
        slots.append(job)
        return slots.count - 1
    }

    /// Whether a job with the id is active.
    func containsJob(id: SyncJob.ID) -> Bool {
        counts[id] != nil
    }

    /// The sequence numbers of the active jobs.
    var sequences: [UInt64] { places.keys }

    /// How many jobs are active.
    var count: Int { places.count }

    /// Whether no job is active.
    var isEmpty: Bool { places.isEmpty }

    /// The ids of the active jobs in the order of their sequence numbers.
    var idsInSequenceOrder: [SyncJob.ID] {
        places.keys.sorted().compactMap { places[$0].flatMap { slots[$0]?.id } }
    }

    private mutating func forget(_ id: SyncJob.ID) {
        if let count = counts[id], count > 1 { counts[id] = count - 1 } else { counts[id] = nil }
    }
}
