/// What ``DurableScheduler/restoreJobs()`` found and did.
public struct DurableRestoreReport: Sendable, CustomStringConvertible {
    /// The handles of the restored jobs, in original submission order.
    public var restored: [SyncJobHandle]
    /// The restored jobs that were running when the process stopped; they run again (at-least-once).
    public var interrupted: [SyncJob.ID]
    /// Jobs whose start deadline passed while the app was not running; they resolved as expired.
    public var expired: [SyncJob.ID]
    /// Jobs that left the store without running: an unfinished job held their unique key (with the
    /// keep-existing policy).
    public var discarded: [SyncJob.ID]
    /// Jobs kept in the store without being restored (unknown kind, undecodable payload).
    public var kept: [KeptDurableJob]
    /// Problems met reading the store (skipped records, a cut tail).
    public var storeIssues: [JobStoreIssue]

    /// A summary followed by one line per kept job and store issue.
    public var description: String {
        var lines = [
            "restored \(restored.count) durable jobs (\(interrupted.count) interrupted), "
                + "\(expired.count) expired, \(discarded.count) discarded, \(kept.count) kept, \(storeIssues.count) store issues"
        ]
        lines += discarded.map { "discarded \($0): an unfinished job holds its unique key" }
        lines += kept.map { "kept \($0)" }
        lines += storeIssues.map { "store: \($0)" }
        return lines.joined(separator: "\n")
    }
}
