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
    /// The state machine, the event hook's token and the operations waiting for their start records.
    private struct State {
        var machine = DurableSchedulerStateMachine()
        var hookToken: UInt64?
        /// An operation waiting for its `attemptStarted` record, by sequence number.
        var startWaiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
    }

    /// The scheduler that runs the jobs.
    public let scheduler: SyncScheduler
    /// The store that keeps them.
    public let store: any JobStore
    private let wallClock: @Sendable () -> Date
    private let state = LockedState(State())
    /// Held for a whole restore pass and a whole discard of a kept job, so that neither sees the other
    /// half done: a pass that loaded the store before a discard's records would restore the discarded job.
    private let passes = LockedState(())
    private let writer: DurableJournalWriter

    /// Creates the durable layer of `scheduler`, keeping jobs in `store`.
    ///
    /// - Parameters:
    ///   - scheduler: the scheduler that runs the jobs.
    ///   - store: the store, such as a ``FileJobStore``; give each store to one durable scheduler.
    ///   - wallClock: the wall clock for stored instants (delays, deadlines, backoffs); inject one in tests.
    ///   - retryClock: the clock that paces the writing again of records the store failed to take (about
    ///     once a second until they are written); inject one in tests. It is independent of the clock the
    ///     scheduler's jobs run on.
    public init(
        scheduler: SyncScheduler, store: any JobStore, wallClock: @escaping @Sendable () -> Date = { Date() },
        retryClock: any Clock<Duration> = ContinuousClock()
    ) {
        self.scheduler = scheduler
        self.store = store
        self.wallClock = wallClock
        self.writer = DurableJournalWriter(store: store, clock: retryClock)
        writer.onStartsWritten { [weak self] sequences in self?.startsWritten(sequences) }
        let token = scheduler.schedulerCore.addEventHook { [weak self] delivery in self?.record(delivery) }
        state.withLock { $0.hookToken = token }
        // `.storageNotLow` watches the job store's volume unless the app chose a path.
        if let directory = (store as? FileJobStore)?.directory {
            scheduler.environment.storageObserver?.useDefaultPath(directory)
        }
    }

    deinit {
        if let token = state.withLock({ $0.hookToken }) { scheduler.schedulerCore.removeEventHook(token) }
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
        let entry = DurableKindRegistry.kind(kind, payload: payload, handler: handler)
        if !state.withLock({ $0.machine.register(kind, entry) }) {
            throw .invalidKind("kind \"\(kind)\" is already registered")
        }
    }

    /// Restores the jobs the store holds, in their original order, with their attempt counts.
    ///
    /// Call it after every ``register(_:payload:handler:)``, before submitting. A job whose kind is not
    /// registered, or whose payload does not decode, stays in the store and is listed in
    /// ``DurableRestoreReport/kept``; calling this again after registering its kind restores it. A job
    /// whose start deadline passed while the app was not running resolves as expired. Passes, and
    /// ``discardKeptJob(id:)`` calls, run one at a time: each waits for the one under way.
    ///
    /// - Throws: ``DurableJobError/storeFailed(_:)`` when the store cannot be read.
    @discardableResult
    public func restoreJobs() throws(DurableJobError) -> DurableRestoreReport {
        try passes.withLock { _ in Result { () throws(DurableJobError) in try restorePass() } }.get()
    }

    /// One restore pass; the caller holds ``passes``.
    private func restorePass() throws(DurableJobError) -> DurableRestoreReport {
        var contents: JobStoreContents
        do {
            contents = try store.load()
        } catch {
            throw .storeFailed(storeError(error))
        }
        for index in contents.jobs.indices { contents.jobs[index].bringCountersInRange() }
        let now = wallClock()
        // Payloads decode outside the lock; the pass then takes it twice, whatever the number of jobs.
        let (registry, active) = state.withLock { ($0.machine.registry, Set($0.machine.active.sequences)) }
        let (readiness, payloads) = registry.decode(contents.jobs, skipping: active)
        var start = state.withLock { $0.machine.beginRestore(contents.jobs, readiness: readiness, now: now) }
        for write in start.writes { writer.write(write.record, jobID: write.jobID, syncsFirst: write.syncsFirst) }
        var restored: [SyncJobHandle] = []
        var interrupted: [SyncJob.ID] = []
        // What changed while no process watched is read as the scheduler's watcher would watch it.
        let watcher = scheduler.schedulerCore.fileWatcher
        while let step = start.plan.next() {
            guard case .submit = step.action,
                let submission = start.submission(at: step.index, filesChanged: watcher.changed(under:since:))
            else { continue }
            let (outcome, handle) = submit(submission, payload: payloads[step.index], registry: registry)
            start.plan.settle(outcome)
            if let handle {
                restored.append(handle)
                if submission.stored.isRunning { interrupted.append(submission.stored.id) }
            }
        }
        let (writes, kept) = state.withLock { state in
            (state.machine.finishRestore(start, contents: contents), state.machine.keptJobs)
        }
        for write in writes { writer.write(write.record, jobID: write.jobID, syncsFirst: write.syncsFirst) }
        return DurableRestoreReport(
            restored: restored, interrupted: interrupted, expired: start.plan.expired,
            discarded: start.plan.discarded, kept: kept, storeIssues: contents.issues)
    }

    /// Discards the kept job `id`: the stored job that a restore kept (see ``DurableRestoreReport/kept``)
    /// leaves the store as a cancelled job, and lets go of its id and unique key.
    ///
    /// For a job that cannot run, such as one whose kind is gone for good. Its dependents learn that it
    /// was cancelled, as from any dependency that leaves the store: their `dependencyEnded` records are
    /// written, then its `resolved` record, once they are durable. A kept dependent keeps the result, and
    /// the next restore fails it, naming this job. When an active job or another kept job has the same id,
    /// the dependents wait for that one and are told nothing. When several kept jobs have `id`, the one of
    /// lowest sequence is discarded; call again for the next. Neither ``snapshot()`` nor a later
    /// ``restoreJobs()``, in this process or after a restart, lists the job again, and a new job may take
    /// its id and unique key.
    ///
    /// The records are written at once, after any pending record (``retryPendingWrites()``), not kept for
    /// a retry: when the store refuses one, the job stays kept and this throws. The dependents whose
    /// records were written before the failure keep the result; calling again writes the rest.
    ///
    /// - Returns: the job discarded; `nil` when no kept job has `id` (nothing is written).
    /// - Throws: ``DurableJobError/storeFailed(_:)`` when a record cannot be written; the job stays kept.
    @discardableResult
    public func discardKeptJob(id: SyncJob.ID) throws(DurableJobError) -> KeptDurableJob? {
        try passes.withLock { _ in Result { () throws(DurableJobError) in try discardKept(id: id) } }.get()
    }

    /// Discards the kept job `id`; the caller holds ``passes``.
    private func discardKept(id: SyncJob.ID) throws(DurableJobError) -> KeptDurableJob? {
        guard let discard = state.withLock({ $0.machine.beginDiscardingKept(id: id) }) else { return nil }
        let (written, error) = writer.writeNow(discard.writes.map { ($0.record, $0.jobID, $0.syncsFirst) })
        state.withLock { _ = $0.machine.finishDiscardingKept(discard, written: written) }
        if let error { throw .storeFailed(storeError(error)) }
        return discard.job
    }

    /// Hands a stored job that a restore pass activated to the scheduler.
    private func submit(
        _ submission: DurableSchedulerStateMachine.Submission, payload: (any Sendable)?,
        registry: DurableKindRegistry
    ) -> (outcome: DurableRestorePlan.Outcome, handle: SyncJobHandle?) {
        let stored = submission.stored
        guard let payload, let kind = registry[stored.kind] else { return (.rejected("not decoded"), nil) }
        let core = scheduler.schedulerCore
        if submission.dependencies.failure == nil, let edge = appendEdge(options: stored.options) {
            state.withLock { $0.machine.addEdge(edge, to: stored.sequence) }
        }
        let operation = operation(
            sequence: stored.sequence, payload: payload, run: kind.run, restoredInputs: submission.dependencies.inputs,
            order: stored.options.dependsOn)
        let job = SyncJob(id: stored.id, options: submission.options, operation: operation)
        do {
            let handle = try core.submit(
                job, attachment: ticket(stored.sequence), initialFailures: submission.initialFailures,
                initialStopReason: stored.lastStopReason)
            // An unfinished job holds its unique key: this one leaves the store, and says so.
            return handle.id == stored.id ? (.restored, handle) : (.discarded, nil)
        } catch {
            return (.rejected("\(error)"), nil)
        }
    }

    /// Submits a durable job: it is in the store when this returns, and starts as soon as it is runnable.
    ///
    /// Synchronous like ``SyncScheduler/submit(_:)``: the job is written (and, with a synchronous store,
    /// synced) on the calling thread before the scheduler takes it, never under the scheduler's lock. From
    /// a task, ``submitWithoutBlocking(_:)`` does the same without holding the task's thread during the sync.
    ///
    /// - Returns: the job's handle, or the existing job's handle when an unfinished job has the same
    ///   unique key and the policy is ``DuplicatePolicy/keepExisting`` (nothing is stored then).
    /// - Throws: a ``DurableJobError``: not restored yet, unknown kind, wrong payload type, a payload that
    ///   does not encode, the scheduler's refusal (``DurableJobError/rejected(_:)``: an invalid option
    ///   naming the field, an id in use, shut down), or the store's failure to write or to number the
    ///   job (``DurableJobError/storeFailed(_:)``; ``JobStoreError/Code/sequencesExhausted`` once every
    ///   sequence number up to ``maximumSequence`` is taken).
    @discardableResult
    public func submit<Payload: Codable & Sendable>(_ job: DurableJob<Payload>) throws(DurableJobError)
        -> SyncJobHandle
    {
        let submission: PreparedSubmission
        switch try prepareSubmission(job) {
        case .existing(let handle): return handle
        case .prepared(let prepared): submission = prepared
        }
        do {
            try store.append(.submitted(submission.stored))
        } catch {
            throw .storeFailed(storeError(error))
        }
        return try enter(submission)
    }

    /// Submits a durable job as ``submit(_:)`` does, suspending the calling task instead of blocking its
    /// thread while the job's record is made durable: it is in the store when this returns.
    ///
    /// The store's ``JobStore/appendWithoutBlocking(_:)`` writes the record; ``FileJobStore`` syncs it on a
    /// thread of its own, one `fdatasync` for every submission written before the sync began, so many tasks
    /// submitting at once share syncs without holding a thread of the Swift pool each. Cancelling the task
    /// does not interrupt the submission.
    ///
    /// - Returns: the job's handle, or the existing job's handle when an unfinished job has the same
    ///   unique key and the policy is ``DuplicatePolicy/keepExisting`` (nothing is stored then).
    /// - Throws: what ``submit(_:)`` throws, in the same cases.
    @discardableResult
    public func submitWithoutBlocking<Payload: Codable & Sendable>(_ job: DurableJob<Payload>)
        async throws(DurableJobError) -> SyncJobHandle
    {
        let submission: PreparedSubmission
        switch try prepareSubmission(job) {
        case .existing(let handle): return handle
        case .prepared(let prepared): submission = prepared
        }
        do {
            try await store.appendWithoutBlocking(.submitted(submission.stored))
        } catch {
            throw .storeFailed(storeError(error))
        }
        return try enter(submission)
    }

    /// A submission checked and numbered, whose record the store is to take before the scheduler takes
    /// its job.
    private struct PreparedSubmission {
        let stored: StoredJob
        let payload: any Sendable
        let run: @Sendable (any Sendable, SyncJobContext) async throws -> Void
    }

    /// What a submission finds before its record is written.
    private enum SubmissionStart {
        /// An unfinished job with the same unique key stays (``DuplicatePolicy/keepExisting``).
        case existing(SyncJobHandle)
        case prepared(PreparedSubmission)
    }

    /// Checks `job` (the layer's state, its kind and payload type, its options, its id), encodes its payload
    /// and numbers it; nothing is written.
    private func prepareSubmission<Payload: Codable & Sendable>(_ job: DurableJob<Payload>) throws(DurableJobError)
        -> SubmissionStart
    {
        let core = scheduler.schedulerCore
        let predecessor =
            DurableSchedulerStateMachine.appends(job.options)
            ? job.options.uniqueKey.flatMap { core.lastHandle(uniqueKey: $0)?.id } : nil
        // The size and range checks read only the job, so they run before the lock.
        let fieldRefusal = DurableSchedulerStateMachine.fieldRefusal(for: job.id, options: job.options)
        let (isRestored, registered, refusal) = state.withLock { state in
            (
                state.machine.isRestored, state.machine.registry[job.kind],
                fieldRefusal
                    ?? state.machine.refusal(for: job.id, options: job.options, appendPredecessor: predecessor)
            )
        }
        guard isRestored else { throw .notRestored }
        let kind = try DurableKindRegistry.check(registered, named: job.kind, for: Payload.self)
        let validated = SyncJob(id: job.id, options: job.options) { _ in }
        if let refusal = validated.validationError ?? refusal { throw .rejected(.invalidJob(refusal)) }
        if let uniqueKey = job.options.uniqueKey, job.options.onDuplicate == .keepExisting,
            let existing = core.existingHandle(uniqueKey: uniqueKey)
        {
            return .existing(existing)
        }
        if core.hasUnfinishedJob(id: job.id) {
            throw .rejected(.invalidJob(.idTaken(job.id)))
        }
        let data = try DurableKindRegistry.encode(job.payload, of: job, limit: Self.maximumPayloadSize)

        let now = wallClock()
        guard let sequence = state.withLock({ $0.machine.reserveSequence() }) else {
            throw .storeFailed(
                JobStoreError(
                    .sequencesExhausted, path: storePath,
                    cause: "every sequence number up to \(Self.maximumSequence) (DurableScheduler.maximumSequence) "
                        + "is taken"))
        }
        let stored = StoredJob(
            sequence: sequence, id: job.id, kind: job.kind, payload: data, submittedAt: now, options: job.options)
        return .prepared(PreparedSubmission(stored: stored, payload: job.payload, run: kind.run))
    }

    /// Hands a submission whose record the store took to the scheduler; returns its handle.
    private func enter(_ submission: PreparedSubmission) throws(DurableJobError) -> SyncJobHandle {
        let stored = submission.stored
        let sequence = stored.sequence
        let active = DurableSchedulerStateMachine.Active(
            id: stored.id, attempt: 0, series: DurableSeries(of: stored),
            trigger: DurableTriggerRun(of: stored))
        let edges =
            stored.options.dependsOn.map { DurableSchedulerStateMachine.Edge(id: $0, propagatesFailure: true) }
            + (appendEdge(options: stored.options).map { [$0] } ?? [])
        if let ended = state.withLock({ $0.machine.activate(sequence, active, ifActive: edges) }) {
            // A dependency ended after the check above and before its dependents could be known to it: no
            // record of how it ended would reach this job's, so the job is withdrawn, as if checked late.
            discard(sequence, jobID: stored.id)
            throw .rejected(.invalidJob(DurableSchedulerStateMachine.endedDependencyRefusal(stored.id, ended: ended)))
        }
        let syncJob = SyncJob(
            id: stored.id, options: stored.options,
            operation: operation(
                sequence: sequence, payload: submission.payload, run: submission.run, restoredInputs: [], order: []))
        let handle: SyncJobHandle
        do {
            handle = try scheduler.schedulerCore.submit(syncJob, attachment: ticket(sequence))
        } catch {
            discard(sequence, jobID: stored.id)
            throw .rejected(error)
        }
        if handle.id != stored.id {
            // An unfinished job without this layer (a closure job) holds the unique key: ours was not taken.
            discard(sequence, jobID: stored.id)
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
        let unwritten = writer.pendingCount
        let (resumed, kept) = state.withLock { ($0.machine.leftForNextLaunch, $0.machine.keptJobs) }
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
        let (pendingWrites, writeErrors) = (writer.pendingCount, writer.errors)
        return state.withLock { state in
            DurableSnapshot(
                active: state.machine.activeIDs, kept: state.machine.keptJobs, storeIssues: state.machine.storeIssues,
                writeErrors: writeErrors, pendingWrites: pendingWrites, kinds: state.machine.registry.names)
        }
    }

    /// The write retry the ``init(scheduler:store:wallClock:retryClock:)`` clock will run next, while one is due.
    var scheduledWriteRetry: Task<Void, Never>? { writer.scheduledRetry }

    /// The journal writes that fail after submission (attempt and resolution records), as they fail.
    ///
    /// Each record is reported once; the layer keeps it and writes it again (see
    /// ``DurableWriteFailure``). Every access returns a new stream of the failures from then on.
    public var writeFailures: AsyncStream<DurableWriteFailure> {
        writer.failures.stream()
    }

    /// The jobs that have a journal record not written yet (see ``DurableWriteFailure``): the store does
    /// not hold their latest change, so a restart before it is written brings each back as its last
    /// written record left it (a job whose cancel is pending runs again).
    ///
    /// A record is counted from the moment the layer tries to write it and fails, which is before the job's
    /// handle sees the change the record is about.
    public func jobsWithPendingWrites() -> Set<SyncJob.ID> {
        writer.pendingJobs
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
        do {
            try writer.retryPending()
        } catch {
            throw .storeFailed(storeError(error))
        }
    }

    // MARK: - Journal

    /// The scheduler's event hook: turns an event about one of this layer's jobs into its journal
    /// records and writes them. Runs outside the scheduler's lock, one event at a time, in order.
    private func record(_ delivery: SchedulerEventDelivery) {
        guard let ticket = delivery.attachment as? DurableTicket, ticket.owner == ObjectIdentifier(self) else { return }
        let sequence = ticket.sequence
        let now = wallClock()
        let writes = state.withLock { $0.machine.event(delivery, of: sequence, now: now) }
        for write in writes { writer.write(write.record, jobID: write.jobID, syncsFirst: write.syncsFirst) }
    }

    /// Counts the `attemptStarted` records the store took, in order, and lets the operation waiting for
    /// each run.
    private func startsWritten(_ sequences: [UInt64]) {
        for sequence in sequences {
            let waiter: CheckedContinuation<Void, Never>? = state.withLock { state in
                state.machine.startRecorded(sequence) ? state.startWaiters.removeValue(forKey: sequence) : nil
            }
            waiter?.resume()
        }
    }

    /// Returns once the store holds the `attemptStarted` record of the attempt that is about to run the
    /// handler of job `sequence` (`true`), so that a process that dies while a handler runs always finds
    /// the job marked as running (and reports it as interrupted); or once the calling task is cancelled
    /// before that (`false`: the handler must not run).
    ///
    /// The scheduler creates an attempt's task before it hands the `started` event to this layer's hook,
    /// outside its lock; the hook writes the record. Every `started` event of a job is followed by exactly
    /// one run of its operation, so the operation's n-th run waits for the n-th record. The wait ends when
    /// the store has taken it, which may be long after the event when the store fails (a full disk): the
    /// journal writer writes it again with every later record and about once a second, and tells this
    /// layer when it is in (``DurableJournalWriter/onStartsWritten(_:)``). A stop of the attempt meanwhile
    /// (its cancellation, a run timeout, a shutdown) ends the wait.
    private func waitUntilStartRecorded(_ sequence: UInt64) async -> Bool {
        if state.withLock({ $0.machine.attemptBegins(sequence) }) { return true }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // Under the lock that the cancellation handler takes: it either finds this waiter, or ran
                // before and left the task cancelled.
                let resumeNow: Bool = state.withLock { state in
                    if state.machine.isStartRecorded(sequence) || Task.isCancelled { return true }
                    state.startWaiters[sequence] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { $0.startWaiters.removeValue(forKey: sequence) }
            waiter?.resume()
        }
        return state.withLock { $0.machine.isStartRecorded(sequence) }
    }

    private func ticket(_ sequence: UInt64) -> DurableTicket {
        DurableTicket(owner: ObjectIdentifier(self), sequence: sequence)
    }

    /// Forgets a job that the scheduler did not take, and writes that it left the store.
    private func discard(_ sequence: UInt64, jobID: SyncJob.ID) {
        let write = state.withLock { $0.machine.discard(sequence, jobID: jobID) }
        writer.write(write.record, jobID: write.jobID)
    }

    /// The edge of an appended job to the unfinished job of its unique key that it will follow.
    private func appendEdge(options: SyncJobOptions) -> DurableSchedulerStateMachine.Edge? {
        guard DurableSchedulerStateMachine.appends(options), let uniqueKey = options.uniqueKey,
            let previous = scheduler.schedulerCore.existingHandle(uniqueKey: uniqueKey)
        else { return nil }
        return DurableSchedulerStateMachine.Edge(id: previous.id, propagatesFailure: options.onDuplicate == .append)
    }

    /// The operation of a durable job: once the attempt's start is in the journal, runs the handler with
    /// the inputs restored from the journal, and keeps the encoded output of an attempt that succeeded
    /// for the journal.
    private func operation(
        sequence: UInt64, payload: any Sendable,
        run: @escaping @Sendable (any Sendable, SyncJobContext) async throws -> Void,
        restoredInputs: [(id: SyncJob.ID, value: any Sendable)], order: [SyncJob.ID]
    ) -> SyncJob.Operation {
        { [weak self] context in
            // Stopped before the journal held its start, the attempt does not run its handler.
            guard await self?.waitUntilStartRecorded(sequence) ?? true else { throw CancellationError() }
            let context = restoredInputs.isEmpty ? context : context.adding(inputs: restoredInputs, order: order)
            try await run(payload, context)
            try self?.keepOutput(of: context, sequence: sequence)
        }
    }

    /// Encodes the output an attempt set and keeps it until the job's resolution is written.
    private func keepOutput(of context: SyncJobContext, sequence: UInt64) throws(DurableJobError) {
        var data: Data?
        if let output = context.output {
            data = try DurableOutput.encoded(output, jobID: context.jobID, limit: Self.maximumPayloadSize)
        }
        state.withLock { $0.machine.keepOutput(data, of: sequence) }
    }

    private func storeError(_ error: any Error) -> JobStoreError {
        if let error = error as? JobStoreError { return error }
        return JobStoreError(.ioFailure, path: String(reflecting: type(of: store)), cause: "\(error)")
    }

    /// What errors about the store name as its path: a ``FileJobStore``'s journal, or another store's type.
    private var storePath: String {
        (store as? FileJobStore)?.journalPath ?? String(reflecting: type(of: store))
    }
}
