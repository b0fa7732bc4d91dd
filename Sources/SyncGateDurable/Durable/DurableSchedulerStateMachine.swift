import Foundation
import SyncGateCore

/// The durable layer's state as a pure value: the registered kinds, the jobs running in the scheduler, the
/// jobs kept in the store, the dependency edges between them, and the records their events call for.
///
/// No lock, no I/O and no clock: ``DurableScheduler`` keeps it behind its lock, passes wall-clock instants
/// in, and performs what the mutating methods return (journal records to write, jobs to submit, start
/// waiters to resume) after releasing the lock. Invariants: a sequence number is active or kept, never
/// both; every job with edges is active, kept, or stored and not restored yet; a record about a
/// dependency's end is returned for each dependent with an edge to it, in the dependents' order.
struct DurableSchedulerStateMachine: Sendable {
    /// A durable job the scheduler runs now.
    struct Active: Sendable, Equatable {
        let id: SyncJob.ID
        /// The last attempt started, 0 before the first.
        var attempt: Int
        /// A periodic job's series: where it stands, in wall-clock instants.
        var series: DurableSeries?
        /// The `attemptStarted` records written for it by this process.
        var startsRecorded = 0
        /// The attempts whose operation began in this process.
        var startsBegun = 0
        /// A file-triggered job's series: its counts and its run's start (see ``DurableTriggerRun``).
        var trigger: DurableTriggerRun?
    }

    /// A dependency of an active or kept durable job, whose end the journal records for it.
    struct Edge: Sendable, Hashable {
        let id: SyncJob.ID
        /// False for the edge of an `appendOrReplace` job to the job it was appended to.
        let propagatesFailure: Bool
    }

    /// A journal record to write, and the job it is about.
    struct Write: Sendable, Equatable {
        let record: JobRecord
        let jobID: SyncJob.ID
        /// Whether the records before it must be durable before it is written (``JobStore/sync()``).
        var syncsFirst = false

        /// `record` of job `jobID`, written after `told` (the records telling a job's dependents how it
        /// ended): once those are durable, so that no crash keeps it without them (a dependent would wait
        /// on a job gone from the store).
        static func after(_ told: [Write], _ record: JobRecord, jobID: SyncJob.ID) -> Write {
            Write(record: record, jobID: jobID, syncsFirst: !told.isEmpty)
        }
    }

    /// A stored job that a restore pass activated, to be submitted if the pass's plan says so.
    struct Submission: Sendable {
        let stored: StoredJob
        let dependencies: DurableRestorePlan.Dependencies
        let options: SyncJobOptions
        /// The attempts the job has consumed (``DurableRestorePlan/initialFailures(continuing:now:)``).
        let initialFailures: Int
    }

    /// What a restore pass starts with: its plan, the records of the jobs that expired, and what each job
    /// activated for submission adds to its stored form, by its index in the stored jobs.
    ///
    /// A job's ``Submission`` is built only when the pass submits it (``submission(at:)``): kept for every
    /// job at once, these large values made a restore of many jobs mostly memory traffic.
    struct RestoreStart: Sendable {
        /// What activation adds to a stored job: the dependency results written after it was stored, and
        /// the dependencies they leave.
        struct Activation: Sendable {
            let lateResults: [StoredJob.DependencyResult]
            let dependencies: DurableRestorePlan.Dependencies
        }

        var plan: DurableRestorePlan
        var writes: [Write]
        /// One entry per stored job; `nil` for those not activated.
        var activations: [Activation?]
        /// The instant the pass plans at.
        let now: Date

        /// The submission of the job at `index`, or `nil` when the pass did not activate it; a
        /// file-triggered job asks `filesChanged` whether its files changed while no process watched them.
        func submission(at index: Int, filesChanged: DurableRestorePlan.FilesChanged) -> Submission? {
            guard let activation = activations[index] else { return nil }
            let stored = Self.merging(activation.lateResults, into: plan.jobs[index])
            let options = DurableRestorePlan.options(
                continuing: stored, dependencies: activation.dependencies, now: now, filesChanged: filesChanged)
            return Submission(
                stored: stored, dependencies: activation.dependencies, options: options,
                initialFailures: DurableRestorePlan.initialFailures(continuing: stored, now: now))
        }

        /// `stored` with `results` in place of any earlier result of the same dependency.
        static func merging(_ results: [StoredJob.DependencyResult], into stored: StoredJob) -> StoredJob {
            var stored = stored
            for result in results {
                stored.dependencyResults.removeAll { $0.id == result.id }
                stored.dependencyResults.append(result)
            }
            return stored
        }
    }

    private(set) var registry = DurableKindRegistry()
    private(set) var active = DurableActiveJobs()
    /// The durable dependencies of active and kept jobs, by sequence number.
    private(set) var edges: [UInt64: [Edge]] = [:]
    /// The encoded output of an active job's attempt that succeeded, until its resolution is written.
    private var outputs: [UInt64: Data] = [:]
    /// Results written for stored jobs that are not active (kept, not restored yet, or activated by a
    /// restore pass that has not settled them), for restore.
    private(set) var lateResults: [UInt64: [StoredJob.DependencyResult]] = [:]
    /// The jobs a restore pass activated and has not settled yet.
    private var restoring = KeySet()
    private(set) var isRestored = false
    private var nextSequence: UInt64 = 1
    /// The jobs kept in the store without running; they hold their ids and unique keys.
    private(set) var kept = DurableHolds()
    /// The kept jobs whose discard has begun and is not finished (``beginDiscardingKept(id:)``).
    private var discarding = KeySet()
    private(set) var storeIssues: [JobStoreIssue] = []
    /// The jobs whose handles resolved while the scheduler shut down but that stay in the store for the
    /// next launch, in the order they resolved.
    private(set) var leftForNextLaunch: [SyncJob.ID] = []

    /// The kept jobs in sequence order.
    var keptJobs: [KeptDurableJob] { kept.jobs }

    /// The active jobs' ids in sequence order.
    var activeIDs: [SyncJob.ID] { active.idsInSequenceOrder }

    // MARK: - Kinds and submissions

    /// Registers a kind; false when the name is taken.
    mutating func register(_ name: String, _ kind: DurableKindRegistry.Kind) -> Bool {
        registry.register(name, kind)
    }

    /// Why a new job may not be submitted with these options whatever the layer holds, naming the field:
    /// names that take more than ``DurableScheduler/maximumNamesSize``, or a duration longer than
    /// ``DurableScheduler/maximumDuration``. Pure, so callers check it before they take the layer's lock.
    static func fieldRefusal(for id: SyncJob.ID, options: SyncJobOptions) -> SyncJobRefusal? {
        (sizeError(id: id, options: options) ?? rangeError(options))?.refusing(id)
    }

    /// Why a new job may not be submitted with these options given the jobs the layer holds, naming the
    /// field: a dependency (or, as `appendPredecessor`, the job of its unique key it would follow) that is
    /// not an active durable job, or an id or unique key a kept job holds. ``fieldRefusal(for:options:)``
    /// comes first.
    func refusal(for id: SyncJob.ID, options: SyncJobOptions, appendPredecessor: SyncJob.ID?) -> SyncJobRefusal? {
        if let refusal = dependencyError(options, appendPredecessor: appendPredecessor) {
            return refusal.refusing(id)
        }
        return kept.holder(of: id, uniqueKey: options.uniqueKey)
    }

    /// Reserves the next sequence number; `nil` once every number up to
    /// ``DurableScheduler/maximumSequence`` is taken.
    mutating func reserveSequence() -> UInt64? {
        guard nextSequence <= DurableScheduler.maximumSequence else { return nil }
        defer { nextSequence += 1 }
        return nextSequence
    }

    /// Activates a new job with its dependency edges only if every job they name is still active; returns
    /// the first that is not (and activates nothing then).
    mutating func activate(_ sequence: UInt64, _ job: Active, ifActive edges: [Edge]) -> SyncJob.ID? {
        if let ended = edges.first(where: { !active.containsJob(id: $0.id) }) { return ended.id }
        activate(sequence, job, edges: edges)
        return nil
    }

    /// Adds the edge of an appended job to the job of its unique key that it follows.
    mutating func addEdge(_ edge: Edge, to sequence: UInt64) {
        edges[sequence, default: []].append(edge)
    }

    /// Forgets a job the scheduler did not take; returns the record saying that it left the store.
    mutating func discard(_ sequence: UInt64, jobID: SyncJob.ID) -> Write {
        active[sequence] = nil
        edges[sequence] = nil
        outputs[sequence] = nil
        restoring.remove(sequence)
        return Write(record: .resolved(sequence: sequence, resolution: .discarded), jobID: jobID)
    }

    /// Keeps the encoded output of an attempt of job `sequence` until its resolution is written.
    mutating func keepOutput(_ data: Data?, of sequence: UInt64) {
        outputs[sequence] = data
    }

    // MARK: - Restore

    /// Starts a restore pass over `jobs` (with what the layer made of each, `readiness`) at `now`: records
    /// the dependencies of the stored jobs that are not active, keeps those that cannot run, resolves
    /// those whose start deadline passed (returning their records and their dependents'), and activates
    /// every candidate with its late results merged, so that its events find it once it is submitted.
    mutating func beginRestore(
        _ jobs: [StoredJob], readiness: [DurableRestorePlan.Readiness], now: Date
    ) -> RestoreStart {
        for stored in jobs { registerEdges(of: stored) }
        active.reserveCapacity(forAdditional: jobs.count)
        let plan = DurableRestorePlan(
            jobs: jobs, readiness: readiness, active: Set(active.sequences), kept: kept, now: now)
        var start = RestoreStart(
            plan: plan, writes: [], activations: Array(repeating: nil, count: jobs.count), now: now)
        for (index, stored) in jobs.enumerated() {
            switch plan.classifications[index] {
            case .active:
                continue
            case .keep(let reason):
                keep(stored, reason: reason)
            case .expire:
                unkeep(stored.sequence)
                let told = dependencyWrites(of: stored.id, event: .expired(id: stored.id), .expired, nil)
                start.writes += told
                start.writes.append(
                    .after(told, .resolved(sequence: stored.sequence, resolution: .expired), jobID: stored.id))
            case .candidate:
                let late = lateResults[stored.sequence] ?? []
                let dependencies = DurableRestorePlan.dependencies(
                    of: late.isEmpty ? stored : RestoreStart.merging(late, into: stored))
                start.activations[index] = RestoreStart.Activation(lateResults: late, dependencies: dependencies)
                activate(
                    stored.sequence,
                    Active(
                        id: stored.id, attempt: stored.lastStartedAttempt,
                        series: DurableSeries(of: stored, now: now),
                        trigger: DurableTriggerRun(of: stored)),
                    edges: dependencies.failure == nil
                        ? dependencies.dependsOn.map { Edge(id: $0, propagatesFailure: true) } : [])
                restoring.insert(stored.sequence)
            }
        }
        return start
    }

    /// Ends a restore pass: confirms the jobs the scheduler took, keeps again those it did not, and returns
    /// the records of the discarded ones.
    mutating func finishRestore(_ start: RestoreStart, contents: JobStoreContents) -> [Write] {
        var writes: [Write] = []
        for (index, settlement) in start.plan.settlements.sorted(by: { $0.key < $1.key }) {
            let stored = start.plan.jobs[index]
            switch settlement {
            case .restored:
                restoring.remove(stored.sequence)
                lateResults[stored.sequence] = nil
            case .discarded:
                writes.append(discard(stored.sequence, jobID: stored.id))
            case .kept(let reason):
                active[stored.sequence] = nil
                edges[stored.sequence] = nil
                outputs[stored.sequence] = nil
                restoring.remove(stored.sequence)
                keep(stored, reason: reason)
            }
        }
        isRestored = true
        // A store may report any number (a custom one, say): past the limit, no sequence is left.
        nextSequence = max(nextSequence, min(contents.highestSequence, DurableScheduler.maximumSequence) + 1)
        storeIssues = contents.issues
        return writes
    }

    // MARK: - Kept jobs

    /// A kept job on its way out of the store (``beginDiscardingKept(id:)``).
    struct KeptDiscard: Sendable {
        /// The job.
        let job: KeptDurableJob
        /// The records that take it out, in order: its dependents' `dependencyEnded` records, then its
        /// `resolved` record once those are durable.
        let writes: [Write]
    }

    /// Begins discarding the kept job `id` (of lowest sequence, when several kept jobs have that id) and
    /// returns the records that take it out of the store as a cancelled job's: the records telling its
    /// dependents that it was cancelled, then its `resolved` record after them.
    ///
    /// When an active job or another kept job has the same id, the dependents are told nothing: their
    /// edges name an id, which that job still holds. The job stays kept, holding its id and unique key,
    /// until ``finishDiscardingKept(_:written:)``; a second discard of it meanwhile finds nothing. `nil`
    /// when no kept job has that id (or every one is being discarded).
    mutating func beginDiscardingKept(id: SyncJob.ID) -> KeptDiscard? {
        let discarding = discarding
        guard
            let sequence = kept.bySequence.filter({ $0.value.job.id == id && !discarding.contains($0.key) }).keys.min(),
            let hold = kept[sequence]
        else { return nil }
        self.discarding.insert(sequence)
        let sharesID =
            active.containsJob(id: id) || kept.bySequence.contains { $0.key != sequence && $0.value.job.id == id }
        let told = sharesID ? [] : dependencyWrites(telling: .init(id: id, resolution: .cancelled))
        let resolved = Write.after(told, .resolved(sequence: sequence, resolution: .cancelled), jobID: id)
        return KeptDiscard(job: hold.job, writes: told + [resolved])
    }

    /// Ends the discard begun as `discard`, of whose records the store took the first `written`; returns
    /// whether the job left.
    ///
    /// With every record written, the job leaves: its id and unique key are free, its edges and late
    /// results gone. With fewer, it stays kept (a later discard writes its records again). Either way the
    /// dependents whose records were written keep the result for restore, as the store does.
    mutating func finishDiscardingKept(_ discard: KeptDiscard, written: Int) -> Bool {
        let sequence = discard.job.sequence
        discarding.remove(sequence)
        for write in discard.writes.prefix(written) { noteLateResult(of: write) }
        guard written == discard.writes.count else { return false }
        unkeep(sequence)
        return true
    }

    // MARK: - Events

    /// The records an event of job `sequence` calls for, at `now`: its own record, preceded, when it
    /// resolves, by the records telling its dependents how it ended.
    ///
    /// While the scheduler shuts down, a cancelled job, or one that failed with attempts left, stays in
    /// the store: shutdown is not the app giving up on the work.
    mutating func event(_ delivery: SchedulerEventDelivery, of sequence: UInt64, now: Date) -> [Write] {
        guard var job = active[sequence] else { return [] }
        let record = record(of: delivery, for: &job, sequence: sequence, now: now)
        var writes: [Write] = []
        if case .resolved(_, let resolution)? = record, let event = delivery.event {
            // The dependents learn how it ended (and its output) before it leaves the store.
            writes = dependencyWrites(of: job.id, event: event, resolution, outputs[sequence])
        }
        if active[sequence] == nil {
            edges[sequence] = nil
            outputs[sequence] = nil
        }
        if let record { writes.append(.after(writes, record, jobID: job.id)) }
        return writes
    }

    /// Counts an attempt of job `sequence` whose operation begins; returns whether its `attemptStarted`
    /// record is written already (or the job is gone), so that the operation may run.
    mutating func attemptBegins(_ sequence: UInt64) -> Bool {
        guard var job = active[sequence] else { return true }
        job.startsBegun += 1
        active[sequence] = job
        return job.startsRecorded >= job.startsBegun
    }

    /// Whether every attempt of job `sequence` that began has its `attemptStarted` record (or the job is
    /// gone).
    func isStartRecorded(_ sequence: UInt64) -> Bool {
        guard let job = active[sequence] else { return true }
        return job.startsRecorded >= job.startsBegun
    }

    /// Counts the `attemptStarted` record just written for job `sequence`; returns whether an operation
    /// waiting for it may run now.
    mutating func startRecorded(_ sequence: UInt64) -> Bool {
        guard var job = active[sequence] else { return true }
        job.startsRecorded += 1
        active[sequence] = job
        return job.startsRecorded >= job.startsBegun
    }

    /// The record of one event of the active job `sequence` (`job`, updated and stored back, or removed
    /// when the event resolves it), at `now`; `nil` when the event calls for none.
    private mutating func record(
        of delivery: SchedulerEventDelivery, for job: inout Active, sequence: UInt64, now: Date
    ) -> JobRecord? {
        guard let event = delivery.event else {
            // A calendar series planned again from a wall clock set back before its span.
            guard let calendar = delivery.calendar, let heldSpan = calendar.heldSpan else { return nil }
            return .calendarReplanned(
                sequence: sequence, anchor: calendar.lastOccurrence ?? now, periods: calendar.counts,
                heldSpan: heldSpan)
        }
        switch event {
        case .submitted, .relaxed:
            // A relaxation is no record: its instant follows from the submission's (or the period's)
            // instant and the job's options, which restore reads.
            return nil
        case .stopRequested(_, _, let reason):
            return .attemptStopped(sequence: sequence, reason: reason)
        case .periodEnded(_, let counts):
            if let calendar = delivery.calendar {
                // A calendar series goes on after its latest occurrence that ran or was skipped.
                return .periodEnded(sequence: sequence, anchor: calendar.lastOccurrence ?? now, periods: counts)
            }
            if var trigger = job.trigger {
                // A file-triggered series: the anchor is the ended run's start, which restore compares the
                // files' change times with.
                let anchor = trigger.runStartedAt ?? now
                trigger.counts = counts
                trigger.runStartedAt = nil
                job.trigger = trigger
                active[sequence] = job
                return .periodEnded(sequence: sequence, anchor: anchor, periods: counts)
            }
            guard var series = job.series else { return nil }
            series.anchor = series.nextAnchor(counts: counts)
            series.counts = counts
            job.series = series
            active[sequence] = job
            return .periodEnded(sequence: sequence, anchor: series.anchor, periods: counts)
        case .started(_, let attempt):
            job.attempt = attempt
            if job.trigger != nil && job.trigger?.runStartedAt == nil { job.trigger?.runStartedAt = now }
            active[sequence] = job
            return .attemptStarted(sequence: sequence, attempt: attempt)
        case .retryScheduled(_, let attempt, let delay):
            let retryAt = now.addingTimeInterval(delay.inSeconds)
            return .attemptFinished(sequence: sequence, failures: attempt - 1, retryAt: retryAt)
        case .requeued:
            return .attemptFinished(sequence: sequence, failures: max(job.attempt - 1, 0), retryAt: nil)
        case .succeeded, .failed, .cancelled, .expired:
            active[sequence] = nil
            if delivery.isShutDown {
                if case .cancelled = event {
                    leftForNextLaunch.append(job.id)
                    return nil
                }
                if let calendar = delivery.calendar, case .succeeded = event {
                    // A calendar run that returned while the scheduler shut down: its occurrence ran.
                    var counts = calendar.counts
                    counts.succeeded += 1
                    leftForNextLaunch.append(job.id)
                    let anchor = calendar.occurrence ?? calendar.lastOccurrence ?? now
                    return .periodEnded(sequence: sequence, anchor: anchor, periods: counts)
                }
                if var trigger = job.trigger, case .succeeded = event {
                    // A file-triggered run that returned while the scheduler shut down: the series goes on.
                    trigger.counts.succeeded += 1
                    leftForNextLaunch.append(job.id)
                    return .periodEnded(
                        sequence: sequence, anchor: trigger.runStartedAt ?? now, periods: trigger.counts)
                }
                if var series = job.series, case .succeeded = event {
                    // A period's run that returned while the scheduler shut down: the series goes on.
                    var counts = series.counts
                    counts.succeeded += 1
                    let anchor = series.nextAnchor(counts: counts)
                    series.counts = counts
                    leftForNextLaunch.append(job.id)
                    return .periodEnded(sequence: sequence, anchor: anchor, periods: series.counts)
                }
            }
            return JobLifecycle.resolution(of: event).map { .resolved(sequence: sequence, resolution: $0) }
        }
    }

    // MARK: - Helpers

    private mutating func activate(_ sequence: UInt64, _ job: Active, edges: [Edge]) {
        active[sequence] = job
        self.edges[sequence] = edges.isEmpty ? nil : edges
        kept[sequence] = nil
    }

    private mutating func keep(_ stored: StoredJob, reason: KeptDurableJob.Reason) {
        kept[stored.sequence] = DurableRestorePlan.Hold(
            job: KeptDurableJob(
                id: stored.id, kind: stored.kind, sequence: stored.sequence, reason: reason,
                uniqueKey: stored.options.uniqueKey, tags: stored.options.tags),
            uniqueKey: stored.options.uniqueKey)
        registerEdges(of: stored)
    }

    private mutating func unkeep(_ sequence: UInt64) {
        kept[sequence] = nil
        edges[sequence] = nil
        lateResults[sequence] = nil
    }

    /// Records the dependencies of a stored job that is not active, which have not ended yet.
    private mutating func registerEdges(of stored: StoredJob) {
        guard active[stored.sequence] == nil else { return }
        let ended = Set(stored.dependencyResults.map(\.id))
        let edges = stored.options.dependsOn.filter { !ended.contains($0) }.map {
            Edge(id: $0, propagatesFailure: true)
        }
        self.edges[stored.sequence] = edges.isEmpty ? nil : edges
    }

    /// The `dependencyEnded` records for the active and kept dependents of the job `id` that just
    /// resolved, in their submission order.
    private mutating func dependencyWrites(
        of id: SyncJob.ID, event: SyncSchedulerEvent, _ resolution: JobRecord.Resolution, _ output: Data?
    ) -> [Write] {
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
        let writes = dependencyWrites(telling: result)
        for write in writes { noteLateResult(of: write) }
        return writes
    }

    /// The `dependencyEnded` records telling the active and kept dependents of the job `result` is about
    /// how it ended, in their submission order; those whose edge does not pass a failure on learn only a
    /// success.
    private func dependencyWrites(telling result: StoredJob.DependencyResult) -> [Write] {
        var writes: [Write] = []
        for (dependent, edges) in edges.sorted(by: { $0.key < $1.key }) {
            guard let edge = edges.first(where: { $0.id == result.id }) else { continue }
            if result.resolution != .succeeded && !edge.propagatesFailure { continue }
            let dependentID = active[dependent]?.id ?? kept[dependent]?.job.id ?? result.id
            writes.append(Write(record: .dependencyEnded(sequence: dependent, result: result), jobID: dependentID))
        }
        return writes
    }

    /// Keeps the result a `dependencyEnded` record carries for restore, when its dependent is not active
    /// (or a restore pass has not settled it).
    private mutating func noteLateResult(of write: Write) {
        guard case .dependencyEnded(let dependent, let result) = write.record else { return }
        if active[dependent] == nil || restoring.contains(dependent) {
            lateResults[dependent, default: []].append(result)
        }
    }
}
