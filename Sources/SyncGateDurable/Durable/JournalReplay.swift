/// The unresolved jobs a sequence of records leaves, kept up to date record by record.
///
/// Records about a sequence number that is not pending (already resolved, or lost to a skipped record)
/// are ignored; a later `submitted` record for a pending sequence (written by compaction) replaces it.
struct JournalReplay {
    /// The unresolved jobs by sequence number.
    private(set) var jobs: [UInt64: StoredJob] = [:]
    /// The highest sequence number seen.
    private(set) var highestSequence: UInt64 = 0

    /// Applies one record.
    mutating func apply(_ record: JobRecord) {
        highestSequence = max(highestSequence, record.sequence)
        switch record {
        case .submitted(let job):
            jobs[job.sequence] = job
        case .attemptStarted(let sequence, let attempt):
            jobs[sequence]?.lastStartedAttempt = attempt
            jobs[sequence]?.isRunning = true
            jobs[sequence]?.lastStopReason = nil
        case .attemptFinished(let sequence, let failures, let retryAt):
            jobs[sequence]?.failures = failures
            jobs[sequence]?.isRunning = false
            jobs[sequence]?.retryAt = retryAt
        case .attemptStopped(let sequence, let reason):
            jobs[sequence]?.lastStopReason = reason
        case .resolved(let sequence, _):
            jobs[sequence] = nil
        case .periodEnded(let sequence, let anchor, let periods):
            jobs[sequence]?.periodAnchor = anchor
            jobs[sequence]?.periods = periods
            jobs[sequence]?.failures = 0
            jobs[sequence]?.isRunning = false
            jobs[sequence]?.retryAt = nil
        case .dependencyEnded(let sequence, let result):
            // A dependency that ran again after a restart replaces its earlier result.
            jobs[sequence]?.dependencyResults.removeAll { $0.id == result.id }
            jobs[sequence]?.dependencyResults.append(result)
        }
    }

    /// The unresolved jobs in submission order.
    var orderedJobs: [StoredJob] {
        jobs.values.sorted { $0.sequence < $1.sequence }
    }
}
