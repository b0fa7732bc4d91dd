import Foundation
import SyncGate

/// The jobs the store keeps without running (``KeptDurableJob``: the restore could not submit them, such
/// as an `--on-change` job whose path is gone): listed by `jobs`, discarded by `cancel ID`.
extension DaemonService {
    /// The rows of `jobs` for the kept jobs, in store order: state `kept`, and `keptReason` saying why.
    func keptJobs() -> [DaemonResponse.Job] {
        durable.snapshot().kept.map { kept in
            let job = runLog.job(id: kept.id)
            return DaemonResponse.Job(
                id: kept.id, name: job?.name ?? "?", command: job?.command ?? [], state: "kept", waitingFor: [],
                attempts: runLog.runRecords(id: kept.id)?.last?.attempt ?? 0, runs: runLog.runCount(id: kept.id),
                lastExitStatus: runLog.lastExitStatus(id: kept.id), uniqueKey: nil, tags: [],
                lastStopReason: runLog.lastStopReason(id: kept.id), keptReason: kept.reason.description)
        }
    }

    /// Discards the kept job `id` when no unfinished job has that id (that one is cancelled instead);
    /// `nil` when there is no such kept job.
    ///
    /// - Throws: ``DaemonProtocolError`` naming the job and the store's error when its end cannot be
    ///   written; it stays kept.
    func discardKept(id: String) throws(DaemonProtocolError) -> DaemonResponse? {
        if durable.scheduler.job(id: id)?.state.isTerminal == false { return nil }
        let discarded: KeptDurableJob?
        do {
            discarded = try durable.discardKeptJob(id: id)
        } catch {
            throw DaemonProtocolError("cannot discard the kept job '\(id)': \(error); it stays in the store")
        }
        guard let discarded else { return nil }
        log("discarded the kept job \(discarded)")
        // Its end is on disk as a cancel's: `cancelled` counts it for clients that do not know `discarded`.
        return DaemonResponse(ok: true, cancelled: 1, discarded: 1)
    }
}
