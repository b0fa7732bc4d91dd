import Foundation

/// The durable-job layer's state for one scheduler: the store, the registered kinds, and the durable
/// jobs the scheduler runs, with the journal records their events become.
///
/// ``record(_:isShutDown:)`` is the scheduler's event tap: it runs inside the scheduler's critical
/// section, in event order, so a job's records reach the journal in the order things happened, and the
/// resolution record is written before the job's handle resolves.
final class DurableJobRegistry: Sendable {
    /// A registered kind, its payload type erased.
    struct Kind: Sendable {
        let payloadType: ObjectIdentifier
        let typeName: String
        let decode: @Sendable (Data) throws -> any Sendable
        let run: @Sendable (any Sendable, SyncJobContext) async throws -> Void
    }

    /// A durable job the scheduler runs now.
    struct Active: Sendable {
        let sequence: UInt64
        var handle: SyncJobHandle?
        /// The last attempt started, 0 before the first.
        var attempt: Int
        let maxAttempts: Int
        let uniqueKey: String?
    }

    private struct State {
        var store: (any JobStore)?
        var wallClock: @Sendable () -> Date = { Date() }
        var kinds: [String: Kind] = [:]
        var active: [SyncJob.ID: Active] = [:]
        var uniqueKeys: [String: SyncJob.ID] = [:]
        var isRestored = false
        var nextSequence: UInt64 = 1
        var kept: [UInt64: KeptDurableJob] = [:]
        var storeIssues: [JobStoreIssue] = []
        var writeErrors: [String] = []
    }

    private static let maximumWriteErrors = 100
    private let state = LockedState(State())

    // MARK: - Setup

    func attach(_ store: any JobStore, wallClock: @escaping @Sendable () -> Date) throws {
        try state.withLock { state in
            if state.store != nil { throw DurableJobError.storeAlreadyAttached }
            state.store = store
            state.wallClock = wallClock
        }
    }

    func register(_ name: String, kind: Kind) throws {
        if name.isEmpty { throw DurableJobError.invalidKind("kind must not be empty") }
        try state.withLock { state in
            if state.kinds[name] != nil {
                throw DurableJobError.invalidKind("kind \"\(name)\" is already registered")
            }
            state.kinds[name] = kind
        }
    }

    var store: (any JobStore)? { state.withLock { $0.store } }
    var now: Date { state.withLock { $0.wallClock }() }
    func kind(_ name: String) -> Kind? { state.withLock { $0.kinds[name] } }

    /// The store and kind for a submission, or why it cannot be made.
    func prepareSubmit(kind name: String) throws -> (store: any JobStore, kind: Kind) {
        try state.withLock { state in
            guard let store = state.store else { throw DurableJobError.noStore }
            guard state.isRestored else { throw DurableJobError.notRestored }
            guard let kind = state.kinds[name] else { throw DurableJobError.unknownKind(name) }
            return (store, kind)
        }
    }

    /// The handle of the unfinished durable job holding the unique key, if any.
    func handle(uniqueKey: String) -> SyncJobHandle? {
        state.withLock { state in
            state.uniqueKeys[uniqueKey].flatMap { state.active[$0]?.handle }
        }
    }

    func isActive(_ id: SyncJob.ID) -> Bool {
        state.withLock { $0.active[id] != nil }
    }

    func isActive(_ id: SyncJob.ID, sequence: UInt64) -> Bool {
        state.withLock { $0.active[id]?.sequence == sequence }
    }

    func takeSequence() -> UInt64 {
        state.withLock { state in
            defer { state.nextSequence += 1 }
            return state.nextSequence
        }
    }

    // MARK: - Active jobs

    func activate(_ id: SyncJob.ID, _ job: Active) {
        state.withLock { state in
            state.active[id] = job
            if let key = job.uniqueKey { state.uniqueKeys[key] = id }
            state.kept[job.sequence] = nil
        }
    }

    /// Records the handle of a job that is still active under the same sequence number.
    func setHandle(_ id: SyncJob.ID, sequence: UInt64, _ handle: SyncJobHandle) {
        state.withLock { state in
            if state.active[id]?.sequence == sequence { state.active[id]?.handle = handle }
        }
    }

    /// Forgets a job that the scheduler did not take, and writes that it left the store.
    func discard(_ id: SyncJob.ID, sequence: UInt64) {
        let store: (any JobStore)? = state.withLock { state in
            guard state.active[id]?.sequence == sequence else { return state.store }
            Self.remove(id, from: &state)
            return state.store
        }
        write(.resolved(sequence: sequence, resolution: .discarded), to: store)
    }

    /// Forgets a job the scheduler rejected on restore; it stays in the store.
    func discardWithoutRecord(_ id: SyncJob.ID, sequence: UInt64) {
        state.withLock { state in
            if state.active[id]?.sequence == sequence { Self.remove(id, from: &state) }
        }
    }

    func keep(_ job: KeptDurableJob) {
        state.withLock { $0.kept[job.sequence] = job }
    }

    func finishRestore(highestSequence: UInt64, issues: [JobStoreIssue]) -> [KeptDurableJob] {
        state.withLock { state in
            state.isRestored = true
            state.nextSequence = max(state.nextSequence, highestSequence + 1)
            state.storeIssues = issues
            return state.kept.values.sorted { $0.sequence < $1.sequence }
        }
    }

    /// Writes a record, remembering a failure for the snapshot instead of throwing.
    func write(_ record: JobRecord, to store: (any JobStore)?) {
        guard let store else { return }
        do {
            try store.append(record)
        } catch {
            state.withLock { state in
                state.writeErrors.append("\(error)")
                if state.writeErrors.count > Self.maximumWriteErrors { state.writeErrors.removeFirst() }
            }
        }
    }

    private static func remove(_ id: SyncJob.ID, from state: inout State) {
        guard let job = state.active.removeValue(forKey: id) else { return }
        if let key = job.uniqueKey, state.uniqueKeys[key] == id { state.uniqueKeys[key] = nil }
    }

    // MARK: - Event tap

    /// Turns a scheduler event about a durable job into its journal record and writes it.
    ///
    /// While the scheduler shuts down, a cancelled job, or one that failed with attempts left, stays
    /// in the store: shutdown is not the app giving up on the work.
    func record(_ event: SyncSchedulerEvent, isShutDown: Bool) {
        let (store, record): ((any JobStore)?, JobRecord?) = state.withLock { state in
            let id = event.jobID
            guard let store = state.store, var job = state.active[id] else { return (nil, nil) }
            let sequence = job.sequence
            switch event {
            case .submitted:
                return (nil, nil)
            case .started(_, let attempt):
                job.attempt = attempt
                state.active[id] = job
                return (store, .attemptStarted(sequence: sequence, attempt: attempt))
            case .retryScheduled(_, let attempt, let delay):
                let retryAt = state.wallClock().addingTimeInterval(delay.inSeconds)
                return (store, .attemptFinished(sequence: sequence, failures: attempt - 1, retryAt: retryAt))
            case .requeued:
                return (store, .attemptFinished(sequence: sequence, failures: max(job.attempt - 1, 0), retryAt: nil))
            case .succeeded:
                Self.remove(id, from: &state)
                return (store, .resolved(sequence: sequence, resolution: .succeeded))
            case .expired:
                Self.remove(id, from: &state)
                return (store, .resolved(sequence: sequence, resolution: .expired))
            case .cancelled:
                Self.remove(id, from: &state)
                return (store, isShutDown ? nil : .resolved(sequence: sequence, resolution: .cancelled))
            case .failed:
                Self.remove(id, from: &state)
                if isShutDown && job.attempt < job.maxAttempts {
                    return (store, .attemptFinished(sequence: sequence, failures: job.attempt, retryAt: nil))
                }
                return (store, .resolved(sequence: sequence, resolution: .failed))
            }
        }
        if let record { write(record, to: store) }
    }

    // MARK: - Snapshot

    func snapshot() -> DurableSnapshot {
        state.withLock { state in
            DurableSnapshot(
                active: state.active.sorted { $0.value.sequence < $1.value.sequence }.map(\.key),
                kept: state.kept.values.sorted { $0.sequence < $1.sequence },
                storeIssues: state.storeIssues,
                writeErrors: state.writeErrors,
                kinds: state.kinds.keys.sorted()
            )
        }
    }
}
