import Foundation

/// Durable jobs: handlers registered by kind, jobs described by data and kept in a ``JobStore``.
///
/// ```swift
/// let scheduler = SyncScheduler(environment: environment)
/// try await scheduler.attach(FileJobStore(directory: jobsDirectory))
/// try await scheduler.register("upload", payload: UploadRequest.self) { request, context in
///     try await uploader.upload(request, idempotencyKey: context.jobID)
/// }
/// let report = try await scheduler.restoreDurableJobs()   // jobs left by the last run
/// try await scheduler.submit(DurableJob(kind: "upload", payload: UploadRequest(photo: 42)))
/// ```
///
/// A durable job is in the store before `submit` returns and leaves it when it resolves (succeeded,
/// failed for good, cancelled, expired). Shutting the scheduler down does not remove jobs: those it
/// cancels are restored by the next run. A job that was running when the process died runs again as
/// the same attempt (at-least-once), so its handler must be idempotent: use `context.jobID` as the key.
extension SyncScheduler {
    /// Attaches the store that keeps durable jobs; once per scheduler, before restoring.
    ///
    /// - Parameters:
    ///   - store: the store, such as a ``FileJobStore``.
    ///   - wallClock: the wall clock for stored instants (delays, deadlines, backoffs); inject one in tests.
    /// - Throws: ``DurableJobError/storeAlreadyAttached``.
    public func attach(_ store: any JobStore, wallClock: @escaping @Sendable () -> Date = { Date() }) throws {
        let registry = durableJobs
        try registry.attach(store, wallClock: wallClock)
        schedulerCore.setEventTap { event, isShutDown in registry.record(event, isShutDown: isShutDown) }
    }

    /// Registers the handler of a job kind and the type of its payload.
    ///
    /// - Throws: ``DurableJobError/invalidKind(_:)`` when the kind is empty or already registered.
    public func register<Payload: Codable & Sendable>(
        _ kind: String,
        payload: Payload.Type,
        handler: @escaping @Sendable (Payload, SyncJobContext) async throws -> Void
    ) throws {
        let entry = DurableJobRegistry.Kind(
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
        try durableJobs.register(kind, kind: entry)
    }

    /// Restores the jobs the store holds, in their original order, with their attempt counts.
    ///
    /// Call it once after ``attach(_:wallClock:)`` and every ``register(_:payload:handler:)``, before
    /// submitting durable jobs. A job whose kind is not registered, or whose payload does not decode,
    /// stays in the store and is listed in ``DurableRestoreReport/kept``; calling this again after
    /// registering its kind restores it. A job whose start deadline passed while the app was not
    /// running resolves as expired.
    ///
    /// - Throws: ``DurableJobError/noStore``, or the store's error when it cannot be read.
    @discardableResult
    public func restoreDurableJobs() throws -> DurableRestoreReport {
        let registry = durableJobs
        guard let store = registry.store else { throw DurableJobError.noStore }
        let contents = try store.load()
        let now = registry.now
        var restored: [SyncJobHandle] = []
        var interrupted: [SyncJob.ID] = []
        var expired: [SyncJob.ID] = []
        for stored in contents.jobs where !registry.isActive(stored.id, sequence: stored.sequence) {
            guard let kind = registry.kind(stored.kind) else {
                registry.keep(
                    KeptDurableJob(id: stored.id, kind: stored.kind, sequence: stored.sequence, reason: .unknownKind))
                continue
            }
            let payload: any Sendable
            do {
                payload = try kind.decode(stored.payload)
            } catch {
                registry.keep(
                    KeptDurableJob(
                        id: stored.id, kind: stored.kind, sequence: stored.sequence,
                        reason: .undecodablePayload("\(error)")))
                continue
            }
            if !stored.hasStarted, let deadline = stored.startDeadlineAt, deadline <= now {
                registry.write(.resolved(sequence: stored.sequence, resolution: .expired), to: store)
                expired.append(stored.id)
                continue
            }
            let run = kind.run
            let job = Self.restoredJob(stored, now: now) { context in try await run(payload, context) }
            registry.activate(
                stored.id,
                .init(
                    sequence: stored.sequence, attempt: stored.lastStartedAttempt,
                    maxAttempts: stored.options.retry.maxAttempts, uniqueKey: stored.options.uniqueKey))
            let handle: SyncJobHandle
            do {
                handle = try schedulerCore.submit(job, initialFailures: stored.failures)
            } catch {
                registry.discardWithoutRecord(stored.id, sequence: stored.sequence)
                registry.keep(
                    KeptDurableJob(
                        id: stored.id, kind: stored.kind, sequence: stored.sequence, reason: .rejected("\(error)")))
                continue
            }
            guard handle.id == stored.id else {
                registry.discard(stored.id, sequence: stored.sequence)
                continue
            }
            registry.setHandle(stored.id, sequence: stored.sequence, handle)
            restored.append(handle)
            if stored.isRunning { interrupted.append(stored.id) }
        }
        let kept = registry.finishRestore(highestSequence: contents.highestSequence, issues: contents.issues)
        return DurableRestoreReport(
            restored: restored, interrupted: interrupted, expired: expired, kept: kept, storeIssues: contents.issues)
    }

    /// Submits a durable job: it is in the store when this returns, and starts as soon as it is runnable.
    ///
    /// - Returns: the job's handle, or the existing job's handle when an unfinished job has the same
    ///   unique key and the policy is ``DuplicatePolicy/keepExisting`` (nothing is stored then).
    /// - Throws: ``DurableJobError`` (no store, not restored yet, unknown kind, wrong payload type,
    ///   payload that does not encode: nothing stored), ``SyncSchedulerError`` (an invalid option,
    ///   naming the field; shut down), or ``JobStoreError`` when the store cannot write.
    @discardableResult
    public func submit<Payload: Codable & Sendable>(_ job: DurableJob<Payload>) throws -> SyncJobHandle {
        let registry = durableJobs
        let (store, kind) = try registry.prepareSubmit(kind: job.kind)
        guard kind.payloadType == ObjectIdentifier(Payload.self) else {
            throw DurableJobError.payloadTypeMismatch(
                kind: job.kind, registered: kind.typeName, submitted: String(reflecting: Payload.self))
        }
        let run = kind.run
        let payload = job.payload
        let syncJob = SyncJob(id: job.id, options: job.options) { context in try await run(payload, context) }
        if let reason = syncJob.validationError { throw SyncSchedulerError.invalidJob(reason) }
        if let uniqueKey = job.uniqueKey, job.onDuplicate == .keepExisting,
            let existing = registry.handle(uniqueKey: uniqueKey)
        {
            return existing
        }
        if registry.isActive(job.id) {
            throw SyncSchedulerError.invalidJob("id \"\(job.id)\" is already used by an unfinished job")
        }
        let data: Data
        do {
            data = try JSONEncoder().encode(job.payload)
        } catch {
            throw DurableJobError.payloadEncodingFailed(jobID: job.id, kind: job.kind, reason: "\(error)")
        }

        let now = registry.now
        let sequence = registry.takeSequence()
        let stored = StoredJob(
            sequence: sequence, id: job.id, kind: job.kind, payload: data, submittedAt: now, options: job.options)
        try store.append(.submitted(stored))
        registry.activate(
            job.id, .init(sequence: sequence, attempt: 0, maxAttempts: job.retry.maxAttempts, uniqueKey: job.uniqueKey))
        let handle: SyncJobHandle
        do {
            handle = try schedulerCore.submit(syncJob)
        } catch {
            registry.discard(job.id, sequence: sequence)
            throw error
        }
        guard handle.id == job.id else {
            // An unfinished closure job holds the unique key: the new job was not taken.
            registry.discard(job.id, sequence: sequence)
            return handle
        }
        registry.setHandle(job.id, sequence: sequence, handle)
        return handle
    }

    /// The durable jobs running or waiting, those kept in the store without running, and what went wrong.
    public func durableSnapshot() -> DurableSnapshot {
        durableJobs.snapshot()
    }

    /// The closure job that continues a stored job, its instants turned into what is left of them.
    private static func restoredJob(
        _ stored: StoredJob, now: Date, operation: @escaping SyncJob.Operation
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
        return SyncJob(id: stored.id, options: options, operation: operation)
    }
}
