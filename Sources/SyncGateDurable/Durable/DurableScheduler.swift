import Foundation
import SyncGateCore

/// Durable jobs: a layer over a ``SyncScheduler`` and a ``JobStore`` that keeps jobs described by data
/// on disk from before `submit` returns until they resolve, and brings them back after a restart.
///
/// ```swift
/// let scheduler = SyncScheduler(environment: environment)
/// let durable = DurableScheduler(scheduler: scheduler, store: try FileJobStore(directory: jobsDirectory))
/// try durable.register("upload", payload: UploadRequest.self) { request, context in
///     try await uploader.upload(request, idempotencyKey: context.jobID)
/// }
/// let report = try durable.restoreJobs()   // jobs left by the last run
/// try durable.submit(DurableJob(kind: "upload", payload: UploadRequest(photo: 42)))
/// ```
///
/// The jobs run in the scheduler like any other (its snapshot, events, `cancel` and `shutdown` apply);
/// this layer writes the journal from the scheduler's ordered event hook, outside the scheduler's
/// lock, and its `submit` writes the job before handing it to the scheduler. A job leaves the store
/// when it resolves (succeeded, failed for good, cancelled, expired). Shutting the scheduler down does
/// not remove jobs: those it cancels are restored by the next run. A job that was running when the
/// process died (a handler runs only once its attempt's start is written) runs again as the same
/// attempt and is reported as interrupted (at-least-once), so its handler must be idempotent: use
/// `context.jobID` as the key. Keep the durable scheduler for as long as its jobs run: without it their
/// progress is no longer written, and they run again after a restart.
///
/// A periodic job keeps its series across restarts: at the end of each period the journal records the
/// beginning of the period the series goes on from and its counts; restore skips (and counts) the
/// windows that closed while the app was not running and goes on with the open one. Cancelling ends
/// the series for good; shutting down keeps it.
///
/// A durable job may depend on unfinished durable jobs (`dependsOn`) and append to a durable job's
/// unique key (`.append`, `.appendOrReplace`). Before a job leaves the store, its result (with its
/// output, which must be `Encodable`) is recorded for each dependent; after a restart a dependent runs
/// with the outputs of the dependencies that succeeded (read them with ``SyncJobContext/input(_:from:)``),
/// fails with ``SyncJobError/dependencyDidNotSucceed(id:outcome:)`` naming the ancestor that did not
/// succeed, or waits for those still pending, and an appended job waits for the key's earlier job again.
public final class DurableScheduler: Sendable {
    /// A registered kind, its payload type erased.
    private struct Kind: Sendable {
        let payloadType: ObjectIdentifier
        let typeName: String
        let decode: @Sendable (Data) throws -> any Sendable
        let run: @Sendable (any Sendable, SyncJobContext) async throws -> Void
    }

    /// A durable job the scheduler runs now, by store sequence number.
    private struct Active: Sendable {
        let id: SyncJob.ID
        /// The last attempt started, 0 before the first.
        var attempt: Int
        let maxAttempts: Int
        /// A periodic job's series: where it stands, in wall-clock instants.
        var series: Series?
        /// The `attemptStarted` records written for it by this process (see ``waitUntilStartRecorded(_:)``).
        var startsRecorded = 0
        /// The attempts whose operation began in this process.
        var startsBegun = 0
    }

    /// Where a durable periodic job's series stands, as its `periodEnded` records say.
    private struct Series: Sendable {
        let period: SyncJobPeriod
        /// The beginning of the current period (or of one before it, if the scheduler skipped some
        /// since: their skips are counted in ``counts``).
        var anchor: Date
        var counts: SyncJobInfo.Periods
        /// When the current period's first attempt started; `nil` before it has.
        var runStartedAt: Date?
    }

    /// What this layer attaches to its jobs in the scheduler, so their events find their record.
    ///
    /// A class, so that the scheduler stores one reference per job (an existential of a struct would take
    /// four words in every queued job, durable or not).
    private final class Ticket: Sendable {
        let owner: ObjectIdentifier
        let sequence: UInt64

        init(owner: ObjectIdentifier, sequence: UInt64) {
            self.owner = owner
            self.sequence = sequence
        }
    }

    /// A dependency of an active or kept durable job, whose end the journal records for it.
    private struct Edge: Sendable {
        let id: SyncJob.ID
        /// False for the edge of an `appendOrReplace` job to the job it was appended to.
        let propagatesFailure: Bool
    }

    private struct State {
        var kinds: [String: Kind] = [:]
        var active: [UInt64: Active] = [:]
        /// The durable dependencies of active and kept jobs, by sequence number.
        var edges: [UInt64: [Edge]] = [:]
        /// The encoded output of an active job's attempt that succeeded, until its resolution is written.
        var outputs: [UInt64: Data] = [:]
        /// Results written for stored jobs that are not active (kept, or not restored yet), for restore.
        var lateResults: [UInt64: [StoredJob.DependencyResult]] = [:]
        var isRestored = false
        var nextSequence: UInt64 = 1
        var kept: [UInt64: KeptDurableJob] = [:]
        /// The unique keys of kept jobs, which hold them as unfinished jobs do.
        var keptUniqueKeys: [UInt64: String] = [:]
        var storeIssues: [JobStoreIssue] = []
        var writeErrors: [String] = []
        /// The jobs whose handles resolved while the scheduler shut down but that stay in the store for the
        /// next launch, in the order they resolved.
        var leftForNextLaunch: [SyncJob.ID] = []
        /// An operation waiting for its `attemptStarted` record, by sequence number.
        var startWaiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
    }

    /// A record written after submission that did not reach the store yet.
    private struct PendingWrite {
        let record: JobRecord
        let jobID: SyncJob.ID
        var isReported = false
    }

    /// The records waiting to be written again, in order, and whether a retry is scheduled.
    private struct Writer {
        var pending: [PendingWrite] = []
        var isRetryScheduled = false
    }

    private static let maximumWriteErrors = 100

    /// The largest encoded payload a durable job may have: 64 MiB.
    ///
    /// ``submit(_:)`` refuses a larger one with ``DurableJobError/payloadTooLarge(jobID:size:limit:)``;
    /// ``FileJobStore`` reads records of this payload size plus room for the job's other fields, and
    /// refuses to write a record it could not read back.
    public static let maximumPayloadSize = 64 << 20

    /// The longest duration a durable job's option may have: 100 years.
    ///
    /// The journal keeps delays and start deadlines as wall-clock instants and restores them as
    /// durations; ``submit(_:)`` refuses a `delay`, `startDeadline`, `runTimeout`, retry backoff or
    /// period interval longer than this, naming the field.
    public static let maximumDuration = Duration.seconds(100 * 365 * 86_400)

    /// The scheduler that runs the jobs.
    public let scheduler: SyncScheduler
    /// The store that keeps them.
    public let store: any JobStore
    private let wallClock: @Sendable () -> Date
    private let state = LockedState(State())
    private let hookToken = LockedState<UInt64?>(nil)
    private let writer = LockedState(Writer())
    private let failures = EventBroadcast<DurableWriteFailure>()

    /// Creates the durable layer of `scheduler`, keeping jobs in `store`.
    ///
    /// - Parameters:
    ///   - scheduler: the scheduler that runs the jobs.
    ///   - store: the store, such as a ``FileJobStore``; give each store to one durable scheduler.
    ///   - wallClock: the wall clock for stored instants (delays, deadlines, backoffs); inject one in tests.
    public init(
        scheduler: SyncScheduler, store: any JobStore, wallClock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.scheduler = scheduler
        self.store = store
        self.wallClock = wallClock
        let token = scheduler.schedulerCore.addEventHook { [weak self] delivery in self?.record(delivery) }
        hookToken.withLock { $0 = token }
        // `.storageNotLow` watches the job store's volume unless the app chose a path.
        if let directory = (store as? FileJobStore)?.directory {
            scheduler.environment.storageObserver?.useDefaultPath(directory)
        }
    }

    deinit {
        if let token = hookToken.withLock({ $0 }) { scheduler.schedulerCore.removeEventHook(token) }
    }

    /// Registers the handler of a job kind and the type of its payload.
    ///
    /// - Throws: ``DurableJobError/invalidKind(_:)`` when the kind is empty or already registered.
    public func register<Payload: Codable & Sendable>(
        _ kind: String,
        payload: Payload.Type,
        handler: @escaping @Sendable (Payload, SyncJobContext) async throws -> Void
    ) throws(DurableJobError) {
        if kind.isEmpty { throw .invalidKind("kind must not be empty") }
        let entry = Kind(
            payloadType: ObjectIdentifier(Payload.self),
            typeName: String(reflecting: Payload.self),
            decode: { data in try JSONDecoder().decode(Payload.self, from: data) },
            run: { value, context in
                guard let payload = value as? Payload else {
                    throw DurableJobError.payloadTypeMismatch(
                        kind: kind, registered: String(reflecting: Payload.self),
                        submitted: String(reflecting: type(of: value)))
                }
                try await handler(payload, context)
            }
        )
        let isNew = state.withLock { state in
            guard state.kinds[kind] == nil else { return false }
            state.kinds[kind] = entry
            return true
        }
        if !isNew { throw .invalidKind("kind \"\(kind)\" is already registered") }
    }

    /// Restores the jobs the store holds, in their original order, with their attempt counts.
    ///
    /// Call it after every ``register(_:payload:handler:)``, before submitting. A job whose kind is not
    /// registered, or whose payload does not decode, stays in the store and is listed in
    /// ``DurableRestoreReport/kept``; calling this again after registering its kind restores it. A job
    /// whose start deadline passed while the app was not running resolves as expired.
    ///
    /// - Throws: ``DurableJobError/storeFailed(_:)`` when the store cannot be read.
    @discardableResult
    public func restoreJobs() throws(DurableJobError) -> DurableRestoreReport {
        let contents: JobStoreContents
        do {
            contents = try store.load()
        } catch {
            throw .storeFailed(storeError(error))
        }
        let now = wallClock()
        var restored: [SyncJobHandle] = []
        var interrupted: [SyncJob.ID] = []
        var expired: [SyncJob.ID] = []
        var discarded: [SyncJob.ID] = []
        // The ids this pass handed to the scheduler, by sequence: a second stored job with one of them is
        // kept whether or not the first has already finished (the scheduler alone would take it then).
        var restoredIDs: [SyncJob.ID: UInt64] = [:]
        // A dependency restored first may end before its dependents are restored: their edges are known
        // from the start, so its end is recorded for them.
        for stored in contents.jobs { registerEdges(of: stored) }
        for var stored in contents.jobs {
            let (isActive, kind) = state.withLock { ($0.active[stored.sequence] != nil, $0.kinds[stored.kind]) }
            if isActive { continue }
            guard let kind else {
                keep(stored, reason: .unknownKind)
                continue
            }
            let payload: any Sendable
            do {
                payload = try kind.decode(stored.payload)
            } catch {
                keep(stored, reason: .undecodablePayload("\(error)"))
                continue
            }
            if !stored.hasStarted, let deadline = stored.startDeadlineAt, deadline <= now {
                unkeep(stored.sequence)
                let results = state.withLock { state in
                    Self.dependencyRecords(
                        of: stored.id, event: .expired(id: stored.id), .expired, nil, in: &state)
                }
                for (record, id) in results { write(record, jobID: id) }
                write(.resolved(sequence: stored.sequence, resolution: .expired), jobID: stored.id)
                expired.append(stored.id)
                continue
            }
            if let reason = keptHolder(id: stored.id, uniqueKey: stored.options.uniqueKey, excluding: stored.sequence) {
                // A kept job holds the id or the unique key: this one waits with it.
                keep(stored, reason: .rejected(reason.reason))
                continue
            }
            if let first = restoredIDs[stored.id] {
                let reason = "id \"\(stored.id)\" is used by the stored job \(first), restored first"
                keep(stored, reason: .rejected(reason))
                continue
            }
            for result in state.withLock({ $0.lateResults.removeValue(forKey: stored.sequence) }) ?? [] {
                stored.dependencyResults.removeAll { $0.id == result.id }
                stored.dependencyResults.append(result)
            }
            let dependencies = Self.restoredDependencies(of: stored)
            let operation = operation(
                sequence: stored.sequence, payload: payload, run: kind.run, restoredInputs: dependencies.inputs,
                order: stored.options.dependsOn)
            var job = Self.continuation(of: stored, now: now, operation: operation)
            job.options.dependsOn = dependencies.dependsOn
            job.options.restoredDependencyFailure = dependencies.failure
            activate(
                stored.sequence,
                Active(
                    id: stored.id, attempt: stored.lastStartedAttempt, maxAttempts: stored.options.retry.maxAttempts,
                    series: Self.series(of: stored, now: now)),
                edges: dependencies.failure == nil
                    ? edges(dependsOn: dependencies.dependsOn, options: stored.options) : []
            )
            let handle: SyncJobHandle
            do {
                handle = try scheduler.schedulerCore.submit(
                    job, attachment: ticket(stored.sequence), initialFailures: stored.failures)
            } catch {
                state.withLock { state in
                    state.active[stored.sequence] = nil
                    state.edges[stored.sequence] = nil
                }
                keep(stored, reason: .rejected("\(error)"))
                continue
            }
            guard handle.id == stored.id else {
                // An unfinished job holds its unique key: this one leaves the store, and says so.
                discard(stored.sequence, jobID: stored.id)
                discarded.append(stored.id)
                continue
            }
            restored.append(handle)
            restoredIDs[stored.id] = stored.sequence
            if stored.isRunning { interrupted.append(stored.id) }
        }
        let kept = state.withLock { state in
            state.isRestored = true
            state.nextSequence = max(state.nextSequence, contents.highestSequence + 1)
            state.storeIssues = contents.issues
            return state.kept.values.sorted { $0.sequence < $1.sequence }
        }
        return DurableRestoreReport(
            restored: restored, interrupted: interrupted, expired: expired, discarded: discarded, kept: kept,
            storeIssues: contents.issues)
    }

    /// Submits a durable job: it is in the store when this returns, and starts as soon as it is runnable.
    ///
    /// Synchronous like ``SyncScheduler/submit(_:)``: the job is written (and, with a synchronous store,
    /// synced) on the calling thread before the scheduler takes it, never under the scheduler's lock.
    ///
    /// - Returns: the job's handle, or the existing job's handle when an unfinished job has the same
    ///   unique key and the policy is ``DuplicatePolicy/keepExisting`` (nothing is stored then).
    /// - Throws: a ``DurableJobError``: not restored yet, unknown kind, wrong payload type, a payload that
    ///   does not encode, the scheduler's refusal (``DurableJobError/rejected(_:)``: an invalid option
    ///   naming the field, an id in use, shut down), or the store's failure to write
    ///   (``DurableJobError/storeFailed(_:)``).
    @discardableResult
    public func submit<Payload: Codable & Sendable>(_ job: DurableJob<Payload>) throws(DurableJobError)
        -> SyncJobHandle
    {
        let (isRestored, registered) = state.withLock { ($0.isRestored, $0.kinds[job.kind]) }
        guard isRestored else { throw .notRestored }
        guard let kind = registered else { throw .unknownKind(job.kind) }
        guard kind.payloadType == ObjectIdentifier(Payload.self) else {
            throw .payloadTypeMismatch(
                kind: job.kind, registered: kind.typeName, submitted: String(reflecting: Payload.self))
        }
        let payload = job.payload
        let validated = SyncJob(id: job.id, options: job.options) { _ in }
        if let refusal = validated.validationError ?? Self.rangeError(job.options)?.refusing(job.id)
            ?? dependencyError(job.options)?.refusing(job.id)
        {
            throw .rejected(.invalidJob(refusal))
        }
        if let refusal = keptHolder(id: job.id, uniqueKey: job.options.uniqueKey) {
            throw .rejected(.invalidJob(refusal))
        }
        let core = scheduler.schedulerCore
        if let uniqueKey = job.options.uniqueKey, job.options.onDuplicate == .keepExisting,
            let existing = core.existingHandle(uniqueKey: uniqueKey)
        {
            return existing
        }
        if core.hasUnfinishedJob(id: job.id) {
            throw .rejected(.invalidJob(.idTaken(job.id)))
        }
        let data: Data
        do {
            data = try JSONEncoder().encode(job.payload)
        } catch {
            throw .payloadEncodingFailed(jobID: job.id, kind: job.kind, reason: "\(error)")
        }
        if data.count > Self.maximumPayloadSize {
            throw .payloadTooLarge(jobID: job.id, size: data.count, limit: Self.maximumPayloadSize)
        }

        let now = wallClock()
        let sequence = state.withLock { state in
            defer { state.nextSequence += 1 }
            return state.nextSequence
        }
        let stored = StoredJob(
            sequence: sequence, id: job.id, kind: job.kind, payload: data, submittedAt: now, options: job.options)
        do {
            try store.append(.submitted(stored))
        } catch {
            throw .storeFailed(storeError(error))
        }
        let active = Active(
            id: job.id, attempt: 0, maxAttempts: job.options.retry.maxAttempts, series: Self.series(of: stored))
        let jobEdges = edges(dependsOn: job.options.dependsOn, options: job.options)
        if let ended = activate(sequence, active, ifActive: jobEdges) {
            // A dependency ended after the check above and before its dependents could be known to it: no
            // record of how it ended would reach this job's, so the job is withdrawn, as if checked late.
            discard(sequence, jobID: job.id)
            throw .rejected(
                .invalidJob(
                    SyncJobRefusal(
                        jobID: job.id, field: "dependsOn", value: "\"\(ended)\"", relatedJobs: [ended],
                        reason: "dependsOn names \"\(ended)\", which ended while this job was submitted: a durable job "
                            + "may depend only on unfinished durable jobs of this scheduler")))
        }
        let syncJob = SyncJob(
            id: job.id, options: job.options,
            operation: operation(sequence: sequence, payload: payload, run: kind.run, restoredInputs: [], order: []))
        let handle: SyncJobHandle
        do {
            handle = try core.submit(syncJob, attachment: ticket(sequence))
        } catch {
            discard(sequence, jobID: job.id)
            throw .rejected(error)
        }
        if handle.id != job.id {
            // An unfinished job without this layer (a closure job) holds the unique key: ours was not taken.
            discard(sequence, jobID: job.id)
        }
        return handle
    }

    /// Shuts the scheduler down, writes what is still pending and closes the store; returns what the
    /// next launch will find.
    ///
    /// Running attempts get `gracePeriod` to return, then their tasks are cancelled
    /// (``SyncScheduler/shutdown(gracePeriod:)``); waiting jobs stop at once. Shutdown is not the app
    /// giving up on its work: a durable job that did not end on its own (it was waiting, delayed or
    /// blocked, its attempt was stopped, or it failed with attempts left) stays in the store and runs
    /// again after the next ``restoreJobs()``. Its handle resolves, because nothing more happens to it in
    /// this process, with ``SyncJobOutcome/cancelled`` — for a durable job after shutdown that outcome
    /// means "left for the next launch", and the report's ``DurableShutdownReport/resumeNextLaunch``
    /// lists every such job. A job behind one that the shutdown stopped resolves `cancelled` too, never
    /// as failed by its dependency.
    ///
    /// Afterwards the store is closed (its lock released), so a new `FileJobStore` on the same directory
    /// opens, in this process or another. Calling it again returns the same kind of report and closes
    /// nothing twice.
    public func shutdown(gracePeriod: Duration) async -> DurableShutdownReport {
        await scheduler.shutdown(gracePeriod: gracePeriod)
        var closeError: JobStoreError?
        do throws(DurableJobError) {
            try retryPendingWrites()
        } catch {
            if case .storeFailed(let failure) = error { closeError = failure }
        }
        let unwritten = writer.withLock { $0.pending.count }
        let (resumed, kept) = state.withLock { state in
            (state.leftForNextLaunch, state.kept.values.sorted { $0.sequence < $1.sequence })
        }
        do {
            try store.close()
        } catch {
            closeError = closeError ?? storeError(error)
        }
        return DurableShutdownReport(
            resumeNextLaunch: resumed, kept: kept, unwrittenRecords: unwritten, storeError: closeError)
    }

    /// The durable jobs running or waiting, those kept in the store without running, and what went wrong.
    public func snapshot() -> DurableSnapshot {
        let pendingWrites = writer.withLock { $0.pending.count }
        return state.withLock { state in
            DurableSnapshot(
                active: state.active.sorted { $0.key < $1.key }.map(\.value.id),
                kept: state.kept.values.sorted { $0.sequence < $1.sequence },
                storeIssues: state.storeIssues,
                writeErrors: state.writeErrors,
                pendingWrites: pendingWrites,
                kinds: state.kinds.keys.sorted()
            )
        }
    }

    /// The journal writes that fail after submission (attempt and resolution records), as they fail.
    ///
    /// Each record is reported once; the layer keeps it and writes it again (see
    /// ``DurableWriteFailure``). Every access returns a new stream of the failures from then on.
    public var writeFailures: AsyncStream<DurableWriteFailure> {
        failures.stream()
    }

    /// The jobs that have a journal record not written yet (see ``DurableWriteFailure``): the store does
    /// not hold their latest change, so a restart before it is written brings each back as its last
    /// written record left it (a job whose cancel is pending runs again).
    ///
    /// A record is counted from the moment the layer tries to write it and fails, which is before the job's
    /// handle sees the change the record is about.
    public func jobsWithPendingWrites() -> Set<SyncJob.ID> {
        writer.withLock { Set($0.pending.map(\.jobID)) }
    }

    /// Writes the records whose writes failed, in order.
    ///
    /// The layer also retries them before every later record and about once a second (not after the
    /// store is closed); call this to retry now, such as after freeing disk space. Each failure is
    /// also logged at the `error` level (``SyncGateLog``).
    ///
    /// - Throws: ``DurableJobError/storeFailed(_:)`` when a record still cannot be written; it stays
    ///   pending.
    public func retryPendingWrites() throws(DurableJobError) {
        let (failed, error) = writer.withLock { drain(&$0) }
        publish(failed)
        if let error { throw .storeFailed(storeError(error)) }
    }

    // MARK: - Journal

    /// The scheduler's event hook: turns an event about one of this layer's jobs into its journal
    /// record and writes it. Runs outside the scheduler's lock, one event at a time, in order.
    ///
    /// While the scheduler shuts down, a cancelled job, or one that failed with attempts left, stays
    /// in the store: shutdown is not the app giving up on the work.
    private func record(_ delivery: SchedulerEventDelivery) {
        guard let ticket = delivery.attachment as? Ticket, ticket.owner == ObjectIdentifier(self) else { return }
        let sequence = ticket.sequence
        let records: [(JobRecord, SyncJob.ID)] = state.withLock { state in
            guard var job = state.active[sequence] else { return [] }
            let record = Self.record(of: delivery, for: &job, sequence: sequence, in: &state, now: wallClock)
            var records: [(JobRecord, SyncJob.ID)] = []
            if case .resolved(_, let resolution)? = record {
                // The dependents learn how it ended (and its output) before it leaves the store.
                let output = state.outputs[sequence]
                for result in Self.dependencyRecords(of: job.id, event: delivery.event, resolution, output, in: &state)
                {
                    records.append(result)
                }
            }
            if state.active[sequence] == nil {
                state.edges[sequence] = nil
                state.outputs[sequence] = nil
            }
            return records + (record.map { [($0, job.id)] } ?? [])
        }
        for (record, id) in records { write(record, jobID: id) }
        if case .started = delivery.event { startRecorded(sequence) }
    }

    /// Counts the `attemptStarted` record just written for the job `sequence`, and lets its operation
    /// run if it was waiting for it.
    private func startRecorded(_ sequence: UInt64) {
        let waiter: CheckedContinuation<Void, Never>? = state.withLock { state in
            guard var job = state.active[sequence] else { return state.startWaiters.removeValue(forKey: sequence) }
            job.startsRecorded += 1
            state.active[sequence] = job
            guard job.startsRecorded >= job.startsBegun else { return nil }
            return state.startWaiters.removeValue(forKey: sequence)
        }
        waiter?.resume()
    }

    /// Returns once the journal holds the `attemptStarted` record of the attempt that is about to run the
    /// handler of job `sequence`, so that a process that dies while a handler runs always finds the job
    /// marked as running (and reports it as interrupted).
    ///
    /// The scheduler creates an attempt's task before it hands the `started` event to this layer's hook,
    /// outside its lock; the hook writes the record. Every `started` event of a job is followed by exactly
    /// one run of its operation, so the operation's n-th run waits for the n-th record. The wait ends when
    /// the hook has written it (or found the job gone); the hook always comes, since the scheduler
    /// delivers every event, and this layer cannot go away meanwhile (the waiting operation holds it).
    private func waitUntilStartRecorded(_ sequence: UInt64) async {
        let isRecorded: Bool = state.withLock { state in
            guard var job = state.active[sequence] else { return true }
            job.startsBegun += 1
            state.active[sequence] = job
            return job.startsRecorded >= job.startsBegun
        }
        if isRecorded { return }
        await withCheckedContinuation { continuation in
            let isRecordedNow: Bool = state.withLock { state in
                guard let job = state.active[sequence], job.startsRecorded < job.startsBegun else { return true }
                state.startWaiters[sequence] = continuation
                return false
            }
            if isRecordedNow { continuation.resume() }
        }
    }

    /// The `dependencyEnded` records for the active and kept dependents of the job `id` that just
    /// resolved, in their submission order.
    private static func dependencyRecords(
        of id: SyncJob.ID, event: SyncSchedulerEvent, _ resolution: JobRecord.Resolution, _ output: Data?,
        in state: inout State
    ) -> [(JobRecord, SyncJob.ID)] {
        var result = StoredJob.DependencyResult(id: id, resolution: resolution)
        if resolution == .succeeded {
            result.output = output
        } else if case .failed(_, let error) = event {
            result.detail = "\(error)"
            if case SyncJobError.dependencyDidNotSucceed(let ancestor, let outcome) = error {
                // Passed on from further up the chain: the dependents name the job that did not succeed.
                result.ancestor = ancestor
                result.resolution = JobRecord.Resolution(outcome: outcome)
                if case .failed(let cause) = outcome { result.detail = "\(cause)" } else { result.detail = "" }
            }
        }
        var records: [(JobRecord, SyncJob.ID)] = []
        for (dependent, edges) in state.edges.sorted(by: { $0.key < $1.key }) {
            guard let edge = edges.first(where: { $0.id == id }) else { continue }
            if resolution != .succeeded && !edge.propagatesFailure { continue }
            let dependentID = state.active[dependent]?.id ?? state.kept[dependent]?.id ?? id
            records.append((.dependencyEnded(sequence: dependent, result: result), dependentID))
            if state.active[dependent] == nil { state.lateResults[dependent, default: []].append(result) }
        }
        return records
    }

    /// The record of one event of an active job, updating the layer's state.
    private static func record(
        of delivery: SchedulerEventDelivery, for job: inout Active, sequence: UInt64, in state: inout State,
        now wallClock: () -> Date
    ) -> JobRecord? {
        switch delivery.event {
        case .submitted:
            return nil
        case .periodEnded(_, let counts):
            guard var series = job.series else { return nil }
            series.anchor = Self.nextAnchor(of: series, counts: counts, now: wallClock())
            series.counts = counts
            series.runStartedAt = nil
            job.series = series
            state.active[sequence] = job
            return .periodEnded(sequence: sequence, anchor: series.anchor, periods: counts)
        case .started(_, let attempt):
            job.attempt = attempt
            if job.series != nil && job.series?.runStartedAt == nil { job.series?.runStartedAt = wallClock() }
            state.active[sequence] = job
            return .attemptStarted(sequence: sequence, attempt: attempt)
        case .retryScheduled(_, let attempt, let delay):
            let retryAt = wallClock().addingTimeInterval(delay.inSeconds)
            return .attemptFinished(sequence: sequence, failures: attempt - 1, retryAt: retryAt)
        case .requeued:
            return .attemptFinished(sequence: sequence, failures: max(job.attempt - 1, 0), retryAt: nil)
        case .succeeded, .failed, .cancelled, .expired:
            state.active[sequence] = nil
            if delivery.isShutDown {
                if case .cancelled = delivery.event {
                    state.leftForNextLaunch.append(job.id)
                    return nil
                }
                if var series = job.series, case .succeeded = delivery.event {
                    // A period's run that returned while the scheduler shut down: the series goes on.
                    series.counts.succeeded += 1
                    let anchor = series.runStartedAt ?? wallClock()
                    state.leftForNextLaunch.append(job.id)
                    return .periodEnded(sequence: sequence, anchor: anchor, periods: series.counts)
                }
                if delivery.event.isFailed && job.attempt < job.maxAttempts {
                    state.leftForNextLaunch.append(job.id)
                    return .attemptFinished(sequence: sequence, failures: job.attempt, retryAt: nil)
                }
            }
            return JobLifecycle.resolution(of: delivery.event).map { .resolved(sequence: sequence, resolution: $0) }
        }
    }

    private func ticket(_ sequence: UInt64) -> Ticket {
        Ticket(owner: ObjectIdentifier(self), sequence: sequence)
    }

    /// Activates a new job with its dependency edges only if every job they name is still active, in one
    /// critical section with the event hook's lookup of dependents; returns the first that is not.
    private func activate(_ sequence: UInt64, _ job: Active, ifActive edges: [Edge]) -> SyncJob.ID? {
        state.withLock { state in
            if !edges.isEmpty {
                let activeIDs = Set(state.active.values.map(\.id))
                if let ended = edges.first(where: { !activeIDs.contains($0.id) }) { return ended.id }
            }
            state.active[sequence] = job
            state.edges[sequence] = edges.isEmpty ? nil : edges
            state.kept[sequence] = nil
            state.keptUniqueKeys[sequence] = nil
            return nil
        }
    }

    private func activate(_ sequence: UInt64, _ job: Active, edges: [Edge]) {
        state.withLock { state in
            state.active[sequence] = job
            state.edges[sequence] = edges.isEmpty ? nil : edges
            state.kept[sequence] = nil
            state.keptUniqueKeys[sequence] = nil
        }
    }

    private func keep(_ stored: StoredJob, reason: KeptDurableJob.Reason) {
        let kept = KeptDurableJob(id: stored.id, kind: stored.kind, sequence: stored.sequence, reason: reason)
        state.withLock { state in
            state.kept[stored.sequence] = kept
            state.keptUniqueKeys[stored.sequence] = stored.options.uniqueKey
        }
        registerEdges(of: stored)
    }

    /// Records the dependencies of a stored job that is not active, which have not ended yet.
    private func registerEdges(of stored: StoredJob) {
        let ended = Set(stored.dependencyResults.map(\.id))
        let edges = stored.options.dependsOn.filter { !ended.contains($0) }.map {
            Edge(id: $0, propagatesFailure: true)
        }
        state.withLock { state in
            guard state.active[stored.sequence] == nil else { return }
            state.edges[stored.sequence] = edges.isEmpty ? nil : edges
        }
    }

    private func unkeep(_ sequence: UInt64) {
        state.withLock { state in
            state.kept[sequence] = nil
            state.keptUniqueKeys[sequence] = nil
            state.edges[sequence] = nil
            state.lateResults[sequence] = nil
        }
    }

    /// Why a new job may not take the id or unique key: a kept job holds it, as an unfinished job would.
    private func keptHolder(id: SyncJob.ID, uniqueKey: String?, excluding: UInt64? = nil) -> SyncJobRefusal? {
        state.withLock { state in
            for (sequence, kept) in state.kept.sorted(by: { $0.key < $1.key }) where sequence != excluding {
                if kept.id == id {
                    return SyncJobRefusal(
                        jobID: id, field: "id", value: "\"\(id)\"", relatedJobs: [kept.id],
                        reason: "id \"\(id)\" is held by the stored job \(kept.id) (kind \"\(kept.kind)\"), kept until "
                            + "it can be restored")
                }
                if let uniqueKey, state.keptUniqueKeys[sequence] == uniqueKey {
                    return SyncJobRefusal(
                        jobID: id, field: "uniqueKey", value: "\"\(uniqueKey)\"", relatedJobs: [kept.id],
                        reason: "uniqueKey \"\(uniqueKey)\" is held by the stored job \(kept.id) (kind "
                            + "\"\(kept.kind)\"), kept until it can be restored")
                }
            }
            return nil
        }
    }

    // MARK: - Dependencies

    /// The operation of a durable job: once the attempt's start is in the journal, runs the handler with
    /// the inputs restored from the journal, and keeps the encoded output of an attempt that succeeded
    /// for the journal.
    private func operation(
        sequence: UInt64, payload: any Sendable,
        run: @escaping @Sendable (any Sendable, SyncJobContext) async throws -> Void,
        restoredInputs: [(id: SyncJob.ID, value: any Sendable)], order: [SyncJob.ID]
    ) -> SyncJob.Operation {
        { [weak self] context in
            await self?.waitUntilStartRecorded(sequence)
            let context = restoredInputs.isEmpty ? context : context.adding(inputs: restoredInputs, order: order)
            try await run(payload, context)
            try self?.keepOutput(of: context, sequence: sequence)
        }
    }

    /// Encodes the output an attempt set and keeps it until the job's resolution is written.
    private func keepOutput(of context: SyncJobContext, sequence: UInt64) throws(DurableJobError) {
        var data: Data?
        if let output = context.output {
            let typeName = String(reflecting: type(of: output))
            if let stored = output as? DurableOutput {
                data = stored.json
            } else if let encodable = output as? any Encodable {
                do {
                    data = try JSONEncoder().encode(encodable)
                } catch {
                    throw .outputEncodingFailed(jobID: context.jobID, type: typeName, reason: "\(error)")
                }
            } else {
                throw .outputEncodingFailed(jobID: context.jobID, type: typeName, reason: "the type is not Encodable")
            }
            if let data, data.count > Self.maximumPayloadSize {
                throw .outputEncodingFailed(
                    jobID: context.jobID, type: typeName,
                    reason: "\(data.count) bytes encoded, more than the limit of \(Self.maximumPayloadSize)")
            }
        }
        state.withLock { $0.outputs[sequence] = data }
    }

    /// The durable dependencies of a job about to be handed to the scheduler: its `dependsOn`, and for
    /// an append the job of its unique key that it will follow.
    private func edges(dependsOn: [SyncJob.ID], options: SyncJobOptions) -> [Edge] {
        var edges = dependsOn.map { Edge(id: $0, propagatesFailure: true) }
        if let uniqueKey = options.uniqueKey, options.onDuplicate == .append || options.onDuplicate == .appendOrReplace,
            let previous = scheduler.schedulerCore.existingHandle(uniqueKey: uniqueKey)
        {
            edges.append(Edge(id: previous.id, propagatesFailure: options.onDuplicate == .append))
        }
        return edges
    }

    /// Why a new durable job may not have its dependencies, naming the field and the value: each job it
    /// depends on (or is appended to) must be an unfinished durable job of this layer, so that a restart
    /// finds it in the store.
    private func dependencyError(_ options: SyncJobOptions) -> SyncJobRefusal? {
        let activeIDs = state.withLock { Set($0.active.values.map(\.id)) }
        if let id = options.dependsOn.first(where: { !activeIDs.contains($0) }) {
            var refusal = SyncJobRefusal.option(
                "dependsOn", "\"\(id)\"",
                "dependsOn names \"\(id)\", which is not an unfinished durable job of this scheduler: a durable "
                    + "job may depend only on those, so that a restart finds them")
            refusal.relatedJobs = [id]
            return refusal
        }
        if let uniqueKey = options.uniqueKey, options.onDuplicate == .append || options.onDuplicate == .appendOrReplace,
            let previous = scheduler.schedulerCore.lastHandle(uniqueKey: uniqueKey),
            !activeIDs.contains(previous.id)
        {
            var refusal = SyncJobRefusal.option(
                "onDuplicate", "\(options.onDuplicate)",
                "onDuplicate \(options.onDuplicate) would follow job \"\(previous.id)\" of uniqueKey \"\(uniqueKey)\", "
                    + "which is not a durable job")
            refusal.relatedJobs = [previous.id]
            return refusal
        }
        return nil
    }

    /// What a restored job keeps of its dependencies: those still to end, the outputs of those that
    /// succeeded, and the first that did not succeed (the job then fails at once, naming it).
    private static func restoredDependencies(
        of stored: StoredJob
    ) -> (dependsOn: [SyncJob.ID], inputs: [(id: SyncJob.ID, value: any Sendable)], failure: RestoredDependencyFailure?)
    {
        var inputs: [(id: SyncJob.ID, value: any Sendable)] = []
        var succeeded: Set<SyncJob.ID> = []
        var failure: RestoredDependencyFailure?
        let appendPropagates = stored.options.uniqueKey != nil && stored.options.onDuplicate == .append
        for result in stored.dependencyResults {
            if result.resolution == .succeeded {
                succeeded.insert(result.id)
                if let output = result.output { inputs.append((result.id, DurableOutput(json: output))) }
            } else if failure == nil && (stored.options.dependsOn.contains(result.id) || appendPropagates) {
                failure = RestoredDependencyFailure(
                    id: result.culprit, resolution: result.resolution, detail: result.detail)
            }
        }
        if failure != nil { return ([], [], failure) }
        return (stored.options.dependsOn.filter { !succeeded.contains($0) }, inputs, nil)
    }

    /// The first duration option longer than ``maximumDuration``, naming the field and the value.
    private static func rangeError(_ options: SyncJobOptions) -> SyncJobRefusal? {
        var durations: [(String, Duration?)] = [
            ("delay", options.delay), ("startDeadline", options.startDeadline), ("runTimeout", options.runTimeout),
            ("period.interval", options.period?.interval),
        ]
        switch options.retry.backoff {
        case .fixed(let delay): durations.append(("retry delay", delay))
        case .exponential(let initial, _, let maxDelay):
            durations += [("retry.initial", initial), ("retry.maxDelay", maxDelay)]
        }
        for case (let field, let value?) in durations where value > maximumDuration {
            return .option(
                field, "\(value)",
                "\(field) must be at most \(maximumDuration) (100 years) in a durable job, got \(value)")
        }
        return nil
    }

    /// Forgets a job that the scheduler did not take, and writes that it left the store.
    private func discard(_ sequence: UInt64, jobID: SyncJob.ID) {
        state.withLock { state in
            state.active[sequence] = nil
            state.edges[sequence] = nil
            state.outputs[sequence] = nil
        }
        write(.resolved(sequence: sequence, resolution: .discarded), jobID: jobID)
    }

    /// Writes a record after the pending ones; a failure is published and the record kept for a retry.
    private func write(_ record: JobRecord, jobID: SyncJob.ID) {
        let (failed, _) = writer.withLock { writer in
            writer.pending.append(PendingWrite(record: record, jobID: jobID))
            return drain(&writer)
        }
        publish(failed)
    }

    /// Writes the pending records in order, stopping at the first failure; returns the records newly
    /// known to have failed, and the error.
    private func drain(_ writer: inout Writer) -> ([DurableWriteFailure], (any Error)?) {
        while let next = writer.pending.first {
            do {
                try store.append(next.record)
                writer.pending.removeFirst()
            } catch {
                var failed: [DurableWriteFailure] = []
                for index in writer.pending.indices where !writer.pending[index].isReported {
                    writer.pending[index].isReported = true
                    let pending = writer.pending[index]
                    failed.append(
                        DurableWriteFailure(
                            jobID: pending.jobID, sequence: pending.record.sequence,
                            record: Self.summary(of: pending.record), error: "\(error)"))
                }
                // A closed store never takes a write again: retrying it would only spin.
                let isClosed = (error as? JobStoreError)?.code == .closed
                if !writer.isRetryScheduled && !isClosed {
                    writer.isRetryScheduled = true
                    scheduleRetry()
                }
                return (failed, error)
            }
        }
        return ([], nil)
    }

    /// Records the failures for the snapshot and sends them on ``writeFailures``.
    private func publish(_ failed: [DurableWriteFailure]) {
        guard !failed.isEmpty else { return }
        state.withLock { state in
            state.writeErrors += failed.map(\.description)
            state.writeErrors.removeFirst(max(state.writeErrors.count - Self.maximumWriteErrors, 0))
        }
        for failure in failed {
            SyncGateLog.log(.error, "durable job \(failure.jobID): \(failure.record) not written: \(failure.error)")
            failures.send(failure)
        }
    }

    /// Retries the pending records in about a second, and again while some remain.
    private func scheduleRetry() {
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(1)) { [weak self] in
            guard let self else { return }
            let failed = self.writer.withLock { writer in
                writer.isRetryScheduled = false
                return writer.pending.isEmpty ? [] : self.drain(&writer).0
            }
            self.publish(failed)
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
        }
    }

    private func storeError(_ error: any Error) -> JobStoreError {
        if let error = error as? JobStoreError { return error }
        return JobStoreError(.ioFailure, path: String(reflecting: type(of: store)), cause: "\(error)")
    }

    /// The series of a stored periodic job: it goes on from its last `periodEnded` record, or begins
    /// when the job became eligible; with `now`, every period whose window closed by then is skipped
    /// and counted (as the scheduler would have), so the series stands at the period open at `now`.
    private static func series(of stored: StoredJob, now: Date? = nil) -> Series? {
        guard let period = stored.options.period else { return nil }
        var series = Series(
            period: period, anchor: stored.periodAnchor ?? stored.eligibleAt ?? stored.submittedAt,
            counts: stored.periods ?? SyncJobInfo.Periods(succeeded: 0, failed: 0, skipped: 0))
        let interval = period.interval.inSeconds
        if let now, interval > 0, series.anchor.addingTimeInterval(interval) <= now {
            // Rounding may put the quotient one off; a few corrections at most (a bounded loop, whatever
            // the interval's size).
            var missed = min((now.timeIntervalSince(series.anchor) / interval).rounded(.down), 1e15)
            for _ in 0..<2 where series.anchor.addingTimeInterval(interval * (missed + 1)) <= now { missed += 1 }
            for _ in 0..<2 where missed > 0 && series.anchor.addingTimeInterval(interval * missed) > now { missed -= 1 }
            series.anchor = series.anchor.addingTimeInterval(interval * missed)
            series.counts.skipped += Int(missed)
        }
        return series
    }

    /// The beginning of the period a series goes on from after a period ended with `counts`: the
    /// ended run's start when a run ended it, else the old anchor; then one interval later per
    /// period skipped since (the scheduler skips from there in steps of the interval).
    private static func nextAnchor(of series: Series, counts: SyncJobInfo.Periods, now: Date) -> Date {
        let ran = counts.succeeded + counts.failed > series.counts.succeeded + series.counts.failed
        let base = ran ? (series.runStartedAt ?? now) : series.anchor
        let skipped = max(counts.skipped - series.counts.skipped, 0)
        return base.addingTimeInterval(series.period.interval.inSeconds * Double(skipped))
    }

    /// The closure job that continues a stored job, its instants turned into what is left of them.
    private static func continuation(
        of stored: StoredJob, now: Date, operation: @escaping SyncJob.Operation
    ) -> SyncJob {
        func remaining(_ instant: Date?) -> Duration? {
            guard let instant else { return nil }
            let seconds = instant.timeIntervalSince(now)
            return seconds > 0 ? .saturating(seconds: seconds) : nil
        }
        var options = stored.options
        if stored.isRunning {
            options.delay = nil
        } else if stored.retryAt != nil {
            options.delay = remaining(stored.retryAt)
        } else {
            options.delay = stored.hasStarted ? nil : remaining(stored.eligibleAt)
        }
        options.startDeadline = stored.hasStarted ? nil : remaining(stored.startDeadlineAt)
        if let series = series(of: stored, now: now) {
            // The series goes on from its period; the scheduler skips (and counts) every period whose
            // window closed while the app was not running.
            options.delay = nil
            options.periodResume = SyncJobPeriod.Resume(
                anchor: .saturating(seconds: series.anchor.timeIntervalSince(now)), counts: series.counts)
        }
        return SyncJob(id: stored.id, options: options, operation: operation)
    }
}
