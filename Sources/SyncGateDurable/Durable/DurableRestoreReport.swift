import SyncGateCore

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
    /// Jobs kept in the store without being restored (unknown kind, undecodable payload); see
    /// ``DurableScheduler/discardKeptJob(id:)``.
    public var kept: [KeptDurableJob]
    /// Problems met reading the store (skipped records, a cut tail).
    public var storeIssues: [JobStoreIssue]

    /// A summary of the counts, then one line per job: each restored one with its state now (its
    /// handle's ``SyncJobHandle/description``, marked when it was interrupted), each expired, discarded
    /// and kept one, and each store issue.
    ///
    /// ```text
    /// restored 2 durable jobs (1 interrupted), 1 expired, 0 discarded, 0 kept, 0 store issues
    /// restored up-1: waiting for [network] (interrupted: it runs again)
    /// restored up-2: waiting for [network]
    /// expired up-3: its start deadline passed while the app was not running
    /// ```
    public var description: String {
        let interruptedIDs = Set(interrupted)
        var lines = [
            "restored \(Self.counted(restored.count, "durable job")) (\(interrupted.count) interrupted), "
                + "\(expired.count) expired, \(discarded.count) discarded, \(kept.count) kept, "
                + Self.counted(storeIssues.count, "store issue")
        ]
        lines += restored.map { handle in
            "restored \(handle)" + (interruptedIDs.contains(handle.id) ? " (interrupted: it runs again)" : "")
        }
        lines += expired.map { "expired \($0): its start deadline passed while the app was not running" }
        lines += discarded.map { "discarded \($0): an unfinished job holds its unique key" }
        lines += kept.map { "kept \($0)" }
        lines += storeIssues.map { "store: \($0)" }
        return lines.joined(separator: "\n")
    }

    /// `count` and `noun`, the noun in the plural unless the count is 1: `1 durable job`, `0 store issues`.
    private static func counted(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }
}
