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
                lastExitStatus: runLog.lastExitStatus(id: kept.id), uniqueKey: kept.uniqueKey, tags: kept.tags.sorted(),
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
        discardedKeptIDs.withLock { _ = $0.insert(id) }
        log("discarded the kept job \(discarded)")
        // Its end is on disk as a cancel's: `cancelled` counts it for clients that do not know `discarded`.
        return DaemonResponse(ok: true, cancelled: 1, discarded: 1)
    }

    /// Discards every kept job of the tag or unique key of `selector` (none for an id: ``discardKept(id:)``
    /// does that one); returns how many.
    ///
    /// - Throws: ``DaemonProtocolError`` naming the first job whose end cannot be written; it and the kept
    ///   jobs after it stay in the store, and the error says how many were discarded before it.
    func discardKept(matching selector: DaemonRequest.CancelSelector) throws(DaemonProtocolError) -> Int {
        if case .id = selector { return 0 }
        let matching = durable.snapshot().kept.filter {
            selector.matches(id: $0.id, tags: $0.tags, uniqueKey: $0.uniqueKey)
        }
        var count = 0
        for kept in matching {
            do {
                if try discardKept(id: kept.id) != nil { count += 1 }
            } catch {
                let before = count == 0 ? "" : " (\(count) kept job\(count == 1 ? "" : "s") discarded before it)"
                throw DaemonProtocolError("\(error.message)\(before)")
            }
        }
        return count
    }
}
