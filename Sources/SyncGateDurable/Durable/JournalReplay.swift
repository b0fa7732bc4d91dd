import SyncGateCore

/// The unresolved jobs a sequence of records leaves, kept up to date record by record.
///
/// Records about a sequence number that is not pending (already resolved, or lost to a skipped record)
/// are ignored; a later `submitted` record for a pending sequence (written by compaction) replaces it.
///
/// The jobs live in a ``ChunkedArray`` in the order they were first submitted, which is the order of
/// their sequence numbers as every writer appends them, so ``orderedJobs`` is a pass over it rather than
/// a sort; a resolved job leaves a hole that is closed once holes outnumber the jobs. A job, several
/// hundred bytes, is never moved by the growth of the store: a dictionary keyed by sequence number, or
/// an array, would move every job at each of its resizes, into memory touched for the first time.
struct JournalReplay {
    /// The unresolved jobs, and holes where resolved ones were, in the order of their first submission.
    private var slots = ChunkedArray<StoredJob?>()
    /// Where each unresolved job is in `slots`, by sequence number.
    private var slotOfSequence = KeyTable<Int>()
    /// Whether the sequence numbers in `slots` rise; `false` once a submission came out of order.
    private var slotsAreOrdered = true
    /// The highest sequence number seen.
    private(set) var highestSequence: UInt64 = 0

    /// The number of unresolved jobs.
    var count: Int { slotOfSequence.count }

    /// The unresolved job of `sequence`, or `nil` when it is not pending.
    func job(_ sequence: UInt64) -> StoredJob? {
        slotOfSequence[sequence].flatMap { slots[$0] }
    }

    /// Applies one record.
    mutating func apply(_ record: JobRecord) {
        if case .submitted(let job) = record {
            submit(job)
            return
        }
        if case .resolved(let sequence, _) = record {
            resolve(sequence)
            return
        }
        highestSequence = max(highestSequence, record.sequence)
        guard let slot = slotOfSequence[record.sequence] else { return }
        // In place: the optional is unwrapped without copying the job out of the array.
        slots[slot]!.apply(record)
    }

    /// The unresolved jobs in submission order.
    var orderedJobs: [StoredJob] {
        var jobs: [StoredJob] = []
        jobs.reserveCapacity(count)
        for case let job? in slots { jobs.append(job) }
        if !slotsAreOrdered { jobs.sort { $0.sequence < $1.sequence } }
        return jobs
    }

    private mutating func submit(_ job: StoredJob) {
        if let slot = slotOfSequence[job.sequence] {
            slots[slot] = job
        } else {
            if job.sequence <= highestSequence && !slots.isEmpty { slotsAreOrdered = false }
            slotOfSequence[job.sequence] = slots.count
            slots.append(job)
        }
        highestSequence = max(highestSequence, job.sequence)
    }

    private mutating func resolve(_ sequence: UInt64) {
        highestSequence = max(highestSequence, sequence)
        guard let slot = slotOfSequence.removeValue(forKey: sequence) else { return }
        slots[slot] = nil
        let holes = slots.count - count
        if holes > count && holes >= 64 { closeHoles() }
    }

    private mutating func closeHoles() {
        var kept = ChunkedArray<StoredJob?>()
        for case let job? in slots {
            slotOfSequence[job.sequence] = kept.count
            kept.append(job)
        }
        slots = kept
    }
}

extension StoredJob {
    /// Applies a record about this job other than its submission or resolution.
    fileprivate mutating func apply(_ record: JobRecord) {
        switch record {
        case .submitted, .resolved:
            break
        case .attemptStarted(_, let attempt):
            lastStartedAttempt = attempt
            isRunning = true
            lastStopReason = nil
        case .attemptFinished(_, let failures, let retryAt):
            self.failures = failures
            isRunning = false
            self.retryAt = retryAt
        case .attemptStopped(_, let reason):
            lastStopReason = reason
        case .periodEnded(_, let anchor, let periods):
            periodAnchor = anchor
            self.periods = periods
            failures = 0
            isRunning = false
            retryAt = nil
        case .calendarReplanned(_, let anchor, let periods, let heldSpan):
            // The series planned its period again: it keeps no failures and no retry.
            periodAnchor = anchor
            self.periods = periods
            calendarHeldSpan = heldSpan
            failures = 0
            retryAt = nil
        case .dependencyEnded(_, let result):
            // A dependency that ran again after a restart replaces its earlier result.
            dependencyResults.removeAll { $0.id == result.id }
            dependencyResults.append(result)
        }
    }
}
