import SyncGateCore

extension StoredJob {
    /// The largest value a restored counter keeps (2^50): far beyond any count a job can reach, and far
    /// enough below `Int.max` that the scheduler's counting from it never overflows.
    static let counterLimit = 1 << 50

    /// Brings every counter (``failures``, ``lastStartedAttempt`` and the ``periods`` counts) within
    /// `0...counterLimit`, a negative one to 0; a counter already within it is left as it is.
    ///
    /// A store written by hand, or by a damaged program whose records still pass their checksums, can
    /// hold any integer; the scheduler counts on from what a restore hands it, and would trap on an
    /// overflow.
    mutating func bringCountersInRange() {
        func clamped(_ value: Int) -> Int { min(max(value, 0), Self.counterLimit) }
        failures = clamped(failures)
        lastStartedAttempt = clamped(lastStartedAttempt)
        if let counts = periods {
            periods = SyncJobInfo.Periods(
                succeeded: clamped(counts.succeeded), failed: clamped(counts.failed), skipped: clamped(counts.skipped))
        }
    }
}
