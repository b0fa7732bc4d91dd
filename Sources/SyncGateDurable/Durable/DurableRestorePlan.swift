import Foundation
import SyncGateCore

/// The decisions of one restore pass over the jobs a store holds: which to submit, which to keep in the
/// store without running, which expired, which were discarded, and what a restored job keeps of its
/// dependencies. Pure: no scheduler, store, lock or clock; `now` is passed in.
///
/// The pass goes through the stored jobs in their order with ``next()``. A job that ``next()`` says to
/// submit is settled with ``settle(_:)`` before the next call: whether the scheduler took it decides what
/// the later jobs find (a job the scheduler refused is kept and holds its id and unique key; a second
/// stored job with the id of one restored in this pass is kept).
struct DurableRestorePlan: Sendable {
    /// What the layer could make of a stored job before the pass: its kind and payload.
    enum Readiness: Sendable, Hashable {
        case unknownKind
        case undecodable(String)
        case ready
    }

    /// What a stored job's own fields and the layer's state say about it, before any job of the pass is
    /// submitted.
    enum Classification: Sendable, Hashable {
        /// It runs in the scheduler already (restored by an earlier pass): left alone.
        case active
        /// It stays in the store, for this reason.
        case keep(KeptDurableJob.Reason)
        /// Its start deadline passed before it started: it resolves as expired.
        case expire
        /// It may be submitted, unless a kept job holds its id or unique key.
        case candidate
    }

    /// One decision of the pass, about the stored job at `index`.
    struct Step: Sendable, Hashable {
        enum Action: Sendable, Hashable {
            case skip
            case keep(KeptDurableJob.Reason)
            case expire
            case submit
        }
        let index: Int
        let action: Action
    }

    /// What became of a job the pass submitted.
    enum Outcome: Sendable, Hashable {
        /// The scheduler took it under its id.
        case restored
        /// An unfinished job holds its unique key: it leaves the store.
        case discarded
        /// The scheduler refused it, for this reason: it stays in the store.
        case rejected(String)
    }

    /// How a stored job the pass could have submitted ended up.
    enum Settlement: Sendable, Hashable {
        case restored
        case discarded
        case kept(KeptDurableJob.Reason)
    }

    /// A job kept in the store, which holds its id and unique key as an unfinished job would.
    struct Hold: Sendable, Hashable {
        let job: KeptDurableJob
        let uniqueKey: String?
    }

    /// What a restored job keeps of its dependencies.
    struct Dependencies: Sendable {
        /// The dependencies still to end.
        var dependsOn: [SyncJob.ID]
        /// The outputs of those that succeeded.
        var inputs: [(id: SyncJob.ID, value: any Sendable)]
        /// The first that did not succeed: the job then fails at once, naming it.
        var failure: RestoredDependencyFailure?
    }

    let jobs: [StoredJob]
    let classifications: [Classification]
    private var position = 0
    private var awaitingSettlement: Int?
    /// The kept jobs, by sequence, as the pass has gone so far.
    private(set) var holds: DurableHolds
    /// The ids restored by this pass, by sequence.
    private var restoredIDs: [SyncJob.ID: UInt64] = [:]
    private(set) var expired: [SyncJob.ID] = []
    private(set) var discarded: [SyncJob.ID] = []
    /// How each candidate of the pass ended up so far, by index.
    private(set) var settlements: [Int: Settlement] = [:]

    /// A pass over `jobs`, given what the layer made of each (`readiness`, in the same order), the
    /// sequences already active, the jobs kept before the pass and the wall-clock instant `now`.
    init(
        jobs: [StoredJob], readiness: [Readiness], active: Set<UInt64>, kept: DurableHolds, now: Date
    ) {
        precondition(jobs.count == readiness.count, "one readiness per stored job")
        self.jobs = jobs
        self.classifications = zip(jobs, readiness).map { stored, readiness in
            Self.classify(stored, readiness, isActive: active.contains(stored.sequence), now: now)
        }
        self.holds = kept
    }

    /// What `stored`'s own fields say: active jobs are left alone, a job whose kind is unknown or whose
    /// payload does not decode is kept, one whose start deadline passed before it started expires.
    static func classify(_ stored: StoredJob, _ readiness: Readiness, isActive: Bool, now: Date) -> Classification {
        if isActive { return .active }
        switch readiness {
        case .unknownKind: return .keep(.unknownKind)
        case .undecodable(let reason): return .keep(.undecodablePayload(reason))
        case .ready: break
        }
        if !stored.hasStarted, let deadline = stored.startDeadlineAt, deadline <= now { return .expire }
        return .candidate
    }

    /// The next decision, or `nil` at the end of the pass.
    mutating func next() -> Step? {
        precondition(awaitingSettlement == nil, "settle the submitted job first")
        guard position < jobs.count else { return nil }
        let index = position
        position += 1
        let stored = jobs[index]
        let action: Step.Action
        switch classifications[index] {
        case .active:
            action = .skip
        case .keep(let reason):
            action = .keep(reason)
        case .expire:
            holds[stored.sequence] = nil
            expired.append(stored.id)
            action = .expire
        case .candidate:
            if let refusal = holds.holder(
                of: stored.id, uniqueKey: stored.options.uniqueKey, excluding: stored.sequence)
            {
                action = .keep(.rejected(refusal.reason))
            } else if let first = restoredIDs[stored.id] {
                action = .keep(.rejected("id \"\(stored.id)\" is used by the stored job \(first), restored first"))
            } else {
                awaitingSettlement = index
                holds[stored.sequence] = nil
                return Step(index: index, action: .submit)
            }
        }
        if case .keep(let reason) = action {
            if case .candidate = classifications[index] { settlements[index] = .kept(reason) }
            holds[stored.sequence] = Hold(
                job: KeptDurableJob(
                    id: stored.id, kind: stored.kind, sequence: stored.sequence, reason: reason,
                    uniqueKey: stored.options.uniqueKey, tags: stored.options.tags),
                uniqueKey: stored.options.uniqueKey)
        }
        return Step(index: index, action: action)
    }

    /// Settles the job the last ``next()`` said to submit.
    mutating func settle(_ outcome: Outcome) {
        guard let index = awaitingSettlement else { preconditionFailure("no job awaits settlement") }
        awaitingSettlement = nil
        let stored = jobs[index]
        switch outcome {
        case .restored:
            settlements[index] = .restored
            restoredIDs[stored.id] = stored.sequence
        case .discarded:
            settlements[index] = .discarded
            discarded.append(stored.id)
        case .rejected(let reason):
            settlements[index] = .kept(.rejected(reason))
            holds[stored.sequence] = Hold(
                job: KeptDurableJob(
                    id: stored.id, kind: stored.kind, sequence: stored.sequence, reason: .rejected(reason),
                    uniqueKey: stored.options.uniqueKey, tags: stored.options.tags),
                uniqueKey: stored.options.uniqueKey)
        }
    }

    /// What a restored job keeps of its dependencies: those still to end, the outputs of those that
    /// succeeded, and the first that did not succeed (the job then fails at once, naming it).
    static func dependencies(of stored: StoredJob) -> Dependencies {
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
        if failure != nil { return Dependencies(dependsOn: [], inputs: [], failure: failure) }
        return Dependencies(
            dependsOn: stored.options.dependsOn.filter { !succeeded.contains($0) }, inputs: inputs, failure: nil)
    }

    /// The attempts a restored job has consumed: its stored failures, which belong to its current
    /// period for a periodic job; none when that period's window closed while the app was not running
    /// (the series goes on from a later period, which starts with none).
    static func initialFailures(continuing stored: StoredJob, now: Date) -> Int {
        guard let series = DurableSeries(of: stored, now: now) else { return stored.failures }
        return series.counts.skipped > (stored.periods?.skipped ?? 0) ? 0 : stored.failures
    }

    /// Whether anything under the paths changed after the instant (the scheduler's file watcher's
    /// ``FileChangeWatching/changed(under:since:)``).
    typealias FilesChanged = (_ paths: [String], _ since: Date) -> Bool

    /// The options that continue `stored` at `now`: its instants turned into what is left of them, a
    /// periodic job's series resumed at the period open at `now`, the wait of a one-off job's relaxations
    /// counted from its submission, and its dependencies as `dependencies`. A file-triggered job asks
    /// `filesChanged` whether its files changed since its last run started (or its submission).
    static func options(
        continuing stored: StoredJob, dependencies: Dependencies, now: Date, filesChanged: FilesChanged
    ) -> SyncJobOptions {
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
        if let series = DurableSeries(of: stored, now: now) {
            // The series goes on from its period; the scheduler skips (and counts) every period whose
            // window closed while the app was not running.
            options.delay = nil
            options.seriesResume = .period(
                SyncJobPeriod.Resume(
                    anchor: .saturating(seconds: series.anchor.timeIntervalSince(now)), counts: series.counts))
        }
        if options.calendar != nil {
            // The series goes on after its latest occurrence that ran or was skipped (its submission,
            // before any): what passed while the app was not running is caught up once or skipped.
            options.delay = nil
            options.seriesResume = .calendar(
                SyncCalendarSchedule.Resume(
                    lastOccurrence: stored.periodAnchor ?? stored.submittedAt,
                    counts: stored.periods ?? SyncJobInfo.Periods(succeeded: 0, failed: 0, skipped: 0),
                    heldSpan: stored.calendarHeldSpan))
        }
        if let trigger = options.fileTrigger {
            // The series goes on with its counts; it begins with a quiet period when its files changed
            // after its last run started (or its submission), or a run was in progress or due a retry.
            options.delay = nil
            let since = stored.periodAnchor ?? stored.submittedAt
            let changed =
                stored.isRunning || stored.retryAt != nil
                || filesChanged(trigger.paths, since)
            options.seriesResume = .fileTrigger(
                SyncFileTrigger.Resume(
                    counts: stored.periods ?? SyncJobInfo.Periods(succeeded: 0, failed: 0, skipped: 0),
                    changed: changed))
        }
        if !options.relaxations.isEmpty && options.period == nil && options.calendar == nil
            && options.fileTrigger == nil
        {
            // The wait of a one-off job's relaxations began at its submission, also across restarts (a
            // periodic or calendar job's begins with each period's window, which the resumed series knows).
            options.relaxationWaitStart = .saturating(seconds: stored.submittedAt.timeIntervalSince(now))
        }
        options.dependsOn = dependencies.dependsOn
        options.restoredDependencyFailure = dependencies.failure
        return options
    }
}
