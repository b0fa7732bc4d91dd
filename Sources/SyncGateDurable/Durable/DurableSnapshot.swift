import SyncGateCore

/// The durable-job layer at one moment: what it runs, what it keeps, and what went wrong.
public struct DurableSnapshot: Sendable, CustomStringConvertible {
    /// The unfinished durable jobs the scheduler runs, in submission order.
    public var active: [SyncJob.ID]
    /// Stored jobs that were not restored and stay in the store.
    public var kept: [KeptDurableJob]
    /// Problems met reading the store.
    public var storeIssues: [JobStoreIssue]
    /// Journal writes that failed after submission (attempt and resolution records), newest last; see
    /// ``DurableScheduler/writeFailures``.
    public var writeErrors: [String]
    /// The records whose writes failed and are not written yet; the layer retries them.
    public var pendingWrites: Int
    /// The registered kinds.
    public var kinds: [String]

    /// A summary followed by one line per kept job, store issue and write error.
    public var description: String {
        var lines = [
            "\(active.count) durable jobs active, \(kept.count) kept, \(storeIssues.count) store issues, "
                + "\(writeErrors.count) write errors, \(pendingWrites) writes pending"
        ]
        lines += kept.map { "kept \($0)" }
        lines += storeIssues.map { "store: \($0)" }
        lines += writeErrors.map { "write error: \($0)" }
        return lines.joined(separator: "\n")
    }
}
