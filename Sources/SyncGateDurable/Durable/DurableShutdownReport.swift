import SyncGateCore

/// What ``DurableScheduler/shutdown(gracePeriod:)`` left for the next launch.
public struct DurableShutdownReport: Sendable, CustomStringConvertible {
    /// The durable jobs whose handles resolved during the shutdown without ending: they stay in the
    /// store and run again after the next ``DurableScheduler/restoreJobs()``, although their handles
    /// report ``SyncJobOutcome/cancelled``. In the order they resolved.
    public var resumeNextLaunch: [SyncJob.ID]
    /// Jobs kept in the store without being restored in this launch (unknown kind, undecodable payload).
    public var kept: [KeptDurableJob]
    /// Records that could not be written before the store was closed; their jobs may run again after
    /// the next restore (at-least-once).
    public var unwrittenRecords: Int
    /// The store's error when writing the pending records or closing it failed; `nil` when it closed
    /// cleanly.
    public var storeError: JobStoreError?

    /// Creates a report.
    public init(
        resumeNextLaunch: [SyncJob.ID], kept: [KeptDurableJob], unwrittenRecords: Int, storeError: JobStoreError?
    ) {
        self.resumeNextLaunch = resumeNextLaunch
        self.kept = kept
        self.unwrittenRecords = unwrittenRecords
        self.storeError = storeError
    }

    /// One line: `shut down: 2 durable jobs left for the next launch (a, b), 0 kept, 0 unwritten records`.
    public var description: String {
        let ids = resumeNextLaunch.isEmpty ? "" : " (\(resumeNextLaunch.joined(separator: ", ")))"
        let jobs = resumeNextLaunch.count == 1 ? "job" : "jobs"
        let records = unwrittenRecords == 1 ? "record" : "records"
        var line =
            "shut down: \(resumeNextLaunch.count) durable \(jobs) left for the next launch\(ids), "
            + "\(kept.count) kept, \(unwrittenRecords) unwritten \(records)"
        if let storeError { line += "; store: \(storeError)" }
        return line
    }
}
