import Foundation
import SyncGateCore

/// The durable layer's journal writes after submission: records written in order, those that fail kept and
/// written again before every later record, on ``retryPending()``, and about once a ``retryInterval`` on its
/// clock.
///
/// Each failed record is reported once (logged at the `error` level, sent on ``failures`` and kept in
/// ``errors``, the last ``maximumErrors`` of them). A store that reports itself closed is never retried by
/// the timer: it would only spin. Writes happen under this writer's own lock, so records reach the store in
/// the order they were handed in.
final class DurableJournalWriter: Sendable {
    /// A record that did not reach the store yet.
    private struct Pending {
        let record: JobRecord
        let jobID: SyncJob.ID
        /// Whether the store syncs what came before before the record is appended.
        let syncsFirst: Bool
    }

    private struct State {
        var pending: [Pending] = []
        /// How many of the first pending records were reported already: each failure reports every
        /// record pending then, and records are only appended after them.
        var reported = 0
        /// The task that writes the pending records again after ``retryInterval``; `nil` while none is due.
        var retry: Task<Void, Never>?
        var errors: [String] = []
    }

    /// How many failure descriptions ``errors`` keeps.
    static let maximumErrors = 100
    /// How long after a failure the timer writes the pending records again.
    static let retryInterval = Duration.seconds(1)

    private let store: any JobStore
    private let clock: any Clock<Duration>
    private let state = LockedState(State())
    /// Told, after the writer's lock, the sequences of the `attemptStarted` records just written, in order.
    private let startsWritten = LockedState<(@Sendable ([UInt64]) -> Void)?>(nil)
    /// The failures, as they are first met.
    let failures = EventBroadcast<DurableWriteFailure>()

    /// Creates the writer of `store`, timing its retries on `clock`.
    init(store: any JobStore, clock: any Clock<Duration>) {
        self.store = store
        self.clock = clock
    }

    /// The number of records not written yet.
    var pendingCount: Int { state.withLock { $0.pending.count } }

    /// The jobs that have a record not written yet.
    var pendingJobs: Set<SyncJob.ID> { state.withLock { Set($0.pending.map(\.jobID)) } }

    /// The descriptions of the last failures, oldest first.
    var errors: [String] { state.withLock { $0.errors } }

    /// The timer's next retry, while one is due; it ends once it has written (or failed to write) the pending
    /// records.
    var scheduledRetry: Task<Void, Never>? { state.withLock { $0.retry } }

    /// Sets what is told the sequences of the `attemptStarted` records once they are in the store (however
    /// late: a record that failed is told when a retry writes it), after the writer's lock, in order.
    func onStartsWritten(_ body: @escaping @Sendable ([UInt64]) -> Void) {
        startsWritten.withLock { $0 = body }
    }

    /// Writes `record` (about job `jobID`) after the pending ones, with `syncsFirst` once the store made
    /// them durable (``JobStore/sync()``); a failure is reported and the record kept.
    func write(_ record: JobRecord, jobID: SyncJob.ID, syncsFirst: Bool = false) {
        let outcome = state.withLock { state in
            state.pending.append(Pending(record: record, jobID: jobID, syncsFirst: syncsFirst))
            return drain(&state)
        }
        report(outcome)
    }

    /// Writes `records` in order after the pending ones, now; unlike ``write(_:jobID:syncsFirst:)``, a
    /// record the store refuses is not kept, nor are those after it: the caller keeps what they are about.
    ///
    /// - Returns: how many of `records` the store took, and the store's error when it refused one (or a
    ///   pending record, which stays pending: then none of `records` was written).
    func writeNow(_ records: [(record: JobRecord, jobID: SyncJob.ID, syncsFirst: Bool)]) -> (
        written: Int, error: (any Error)?
    ) {
        let (drained, written, error) = state.withLock { state -> (Drained, Int, (any Error)?) in
            let drained = drain(&state)
            if let error = drained.error { return (drained, 0, error) }
            for (index, entry) in records.enumerated() {
                do {
                    if entry.syncsFirst { try store.sync() }
                    try store.append(entry.record)
                } catch {
                    return (drained, index, error)
                }
            }
            return (drained, records.count, nil)
        }
        report(drained)
        return (written, error)
    }

    /// Writes the pending records in order.
    ///
    /// - Throws: the store's error when a record still cannot be written; it stays pending.
    func retryPending() throws {
        let outcome = state.withLock { drain(&$0) }
        report(outcome)
        if let error = outcome.error { throw error }
    }

    /// What one pass over the pending records did.
    private struct Drained {
        /// The records newly known to have failed.
        var failed: [DurableWriteFailure] = []
        var error: (any Error)?
        /// The sequences of the `attemptStarted` records written.
        var starts: [UInt64] = []
    }

    /// Writes the pending records in order, stopping at the first failure. Each record is looked at once
    /// per call, and reported once: a store that keeps failing costs each new record one attempt, not a
    /// pass over every record pending.
    private func drain(_ state: inout State) -> Drained {
        var drained = Drained()
        var written = 0
        defer {
            state.pending.removeFirst(written)
            state.reported = max(state.reported - written, 0)
        }
        while written < state.pending.count {
            do {
                if state.pending[written].syncsFirst { try store.sync() }
                try store.append(state.pending[written].record)
                if case .attemptStarted(let sequence, _) = state.pending[written].record {
                    drained.starts.append(sequence)
                }
                written += 1
            } catch {
                let failed = state.pending[max(state.reported, written)...].map { pending in
                    DurableWriteFailure(
                        jobID: pending.jobID, sequence: pending.record.sequence,
                        record: Self.summary(of: pending.record), error: "\(error)")
                }
                state.reported = state.pending.count
                state.errors += failed.map(\.description)
                state.errors.removeFirst(max(state.errors.count - Self.maximumErrors, 0))
                let isClosed = (error as? JobStoreError)?.code == .closed
                if state.retry == nil && !isClosed {
                    state.retry = retryTask()
                }
                drained.failed = failed
                drained.error = error
                return drained
            }
        }
        return drained
    }

    /// After the lock: logs the failures and sends them on ``failures``, and tells the starts written.
    private func report(_ drained: Drained) {
        for failure in drained.failed {
            SyncGateLog.log(.error, "durable job \(failure.jobID): \(failure.record) not written: \(failure.error)")
            failures.send(failure)
        }
        if !drained.starts.isEmpty { startsWritten.withLock { $0 }?(drained.starts) }
    }

    /// A task that writes the pending records again after ``retryInterval`` (and schedules the next retry
    /// while some remain); created in the critical section that records it.
    private func retryTask() -> Task<Void, Never> {
        let clock = clock
        return Task { [weak self] in
            try? await clock.sleep(for: Self.retryInterval)
            guard let self else { return }
            let drained = self.state.withLock { state in
                state.retry = nil
                return state.pending.isEmpty ? Drained() : self.drain(&state)
            }
            self.report(drained)
        }
    }

    private static func summary(of record: JobRecord) -> String {
        switch record {
        case .submitted: "submitted"
        case .attemptStarted(_, let attempt): "attempt \(attempt) started"
        case .attemptFinished(_, let failures, _): "attempt finished (\(failures) failures)"
        case .resolved(_, let resolution): "resolved (\(resolution))"
        case .periodEnded(_, _, let periods): "period ended (\(periods))"
        case .dependencyEnded(_, let result): "dependency \(result.id) ended (\(result.resolution))"
        case .attemptStopped(_, let reason): "attempt stopped (\(reason))"
        case .calendarReplanned: "calendar series planned again from a clock set back"
        }
    }
}
