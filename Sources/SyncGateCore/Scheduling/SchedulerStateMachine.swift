/// The scheduler's logic as a pure value: every input is a mutating method that returns the actions the
/// shell must perform. It never touches a task, a clock or a lock, so it is tested synchronously.
///
/// Time is given as offsets from the scheduler's origin (see `ClockTimeline`). `Payload` is whatever
/// the shell attaches to a job (its operation and handle); tests use plain values.
///
/// Waiting jobs live in buckets keyed by their requirement mask and interned condition mask (which holds
/// the bit of the job's network allowlist too, see `ConditionInterner`); each bucket
/// keeps one FIFO lane per priority (a `MostlyOrderedQueue` ordered by job key). A status change looks
/// only at the buckets the new status satisfies, so jobs blocked on something else cost nothing (the cost
/// rule of docs/ARCHITECTURE.md §4). Entries are removed lazily: a lane entry is live only while its job
/// is waiting with the same wait generation.
struct SchedulerStateMachine<Payload> {
    typealias Key = UInt64

    /// What the shell must do.
    enum Action {
        /// Start an attempt's task on the machine's ``status`` (the shell performs the actions inside the
        /// critical section of the input that produced them, so it is the status the start was decided
        /// on; the action does not copy it, which keeps every action small).
        ///
        /// Actions carry the job's record, one reference, rather than its payload (several): the shell
        /// reads the payload from it, and actions are copied as they are collected and performed.
        case start(Job, attempt: Int)
        /// Cancel the task of the job's running attempt.
        case cancelAttempt(Key)
        /// Record on the job's handle why its running attempt is being stopped (before any
        /// ``cancelAttempt(_:)`` of the same input is performed).
        case setStopReason(Job, SyncJobStopReason)
        /// Publish on the job's handle what it waits for after its relaxations in effect.
        case setWaitingFor(Job)
        /// Publish the job's new state on its handle (a waiting job as `JobLifecycle.waiting`).
        case setState(Job, SyncJobState)
        /// Resolve the job's handle.
        case resolve(Job, SyncJobOutcome)
        /// Publish an event about the job.
        case emit(SyncSchedulerEvent, Job)
        /// Tell the event hooks where the calendar job's series stands, with no public event: it was
        /// planned again from a wall clock set back before the span it had planned through.
        case reportSeries(Job)
        /// Make the single timer fire at the given offset (replacing any earlier arming).
        case armTimer(at: Duration)
        /// Cancel the armed timer: no timer counts any more.
        case disarmTimer
    }

    /// The result of ``submit(_:payload:now:)``.
    enum SubmitResult {
        /// Accepted under the given key.
        case accepted(Key, [Action])
        /// A job with the same unique key exists and the policy keeps it.
        case existing(Payload)
        /// Rejected; nothing changed.
        case rejected(SyncSchedulerError)
    }

    enum Phase: Equatable {
        /// In a bucket, waiting for requirements or a slot.
        case waiting
        /// Waiting out a delay or backoff.
        case delayed
        /// An attempt is running.
        case running
        /// Behind the head of its serial group, or behind the running job it replaces.
        case parked
    }

    /// One unfinished job. A class, so the dictionary of jobs holds a pointer per entry rather than the
    /// whole record (a dictionary is 50–75 % full, and a million queued jobs made that count); the
    /// machine mutates jobs in place and is never copied while it runs.
    ///
    /// A queued job is kept small: the counters are 32-bit, the start times are nanoseconds, and what only
    /// chains and periodic jobs use lives in ``Extras``, allocated the first time one of its fields is set
    /// to something other than its empty value. Every field still reads and writes as a property.
    ///
    /// The fields are declared in an order that leaves no padding between them (the 8-byte ones, then the
    /// spec, whose last field is one byte, then the small ones), so the record fits a 208-byte block.
    final class Job {
        let key: Key
        let payload: Payload
        let conditionMask: ConditionMask
        var waitGeneration: UInt64 = 0
        /// The ids of the job's live timers; 0 when none is armed (timer ids start at 1).
        var delayTimer: UInt64 = 0
        var deadlineTimer: UInt64 = 0
        var runTimer: UInt64 = 0
        private var extras: Extras?
        /// The submission and start times in nanoseconds from the scheduler's origin; `Int64.min` for none.
        private let submittedNanoseconds: Int64
        private var firstStartedNanoseconds = Int64.min
        private var lastStartedNanoseconds = Int64.min
        let spec: SyncJob.Spec
        /// The phase and the facts that hold only during it.
        var stage: Stage = .parked
        private var storedFailures: Int32 = 0
        private var storedAttempt: Int32 = 0
        private var storedAttemptsStarted: Int32 = 0

        init(key: Key, spec: SyncJob.Spec, payload: Payload, conditionMask: ConditionMask, submittedAt: Duration) {
            self.key = key
            self.spec = spec
            self.payload = payload
            self.conditionMask = conditionMask
            self.submittedNanoseconds = Self.nanoseconds(submittedAt)
        }

        /// When the job was submitted, from the scheduler's origin.
        var submittedAt: Duration { .nanoseconds(submittedNanoseconds) }

        /// The phase, without the facts of its ``stage``.
        var phase: Phase { stage.phase }
        /// Whether an attempt of the job has started.
        var hasStarted: Bool { firstStartedNanoseconds != Int64.min }
        /// Why the running attempt is being stopped; `nil` when nothing asked it to or none runs.
        var stop: SyncJobStopReason? {
            if case .running(let attempt) = stage { attempt.stop } else { nil }
        }
        /// Whether the running attempt's run timeout has passed; `false` when none runs.
        var isPastRunTimeout: Bool {
            if case .running(let attempt) = stage { attempt.isPastRunTimeout } else { false }
        }

        /// Why the running attempt is being stopped, or why the latest attempt was stopped (kept after it
        /// ends and after the job ends); `nil` before any stop and again once a new attempt starts.
        var lastStopReason: SyncJobStopReason? {
            get { extras?.lastStopReason }
            set { if extras != nil || newValue != nil { madeExtras().lastStopReason = newValue } }
        }

        /// Changes the running attempt's facts; nothing when no attempt runs.
        func updateRunningAttempt(_ change: (inout RunningAttempt) -> Void) {
            guard case .running(var attempt) = stage else { return }
            change(&attempt)
            stage = .running(attempt)
        }

        var bucketKey: BucketKey { BucketKey(requirements: requirements.rawValue, conditions: waitingConditionMask) }

        /// The requirements the job waits for now: its own, after the relaxations in effect.
        var requirements: SyncRequirements { extras?.relaxation?.requirements ?? spec.requirements }
        /// The conditions the job waits for now: its own, less those relaxed.
        var conditions: Set<SyncCondition> { extras?.relaxation?.conditions ?? spec.conditions }
        /// The interned mask of ``conditions``.
        var waitingConditionMask: ConditionMask { extras?.relaxation?.conditionMask ?? conditionMask }

        /// Where the job's relaxations stand; `nil` for a job without relaxations (see
        /// `SchedulerStateMachine+Relaxations.swift`).
        var relaxation: Relaxation? {
            get { extras?.relaxation }
            set { if extras != nil || newValue != nil { madeExtras().relaxation = newValue } }
        }
        var nextAttempt: Int { failures + 1 }

        /// The attempts that failed (including those consumed before a restart).
        var failures: Int {
            get { Int(storedFailures) }
            set { storedFailures = Int32(clamping: newValue) }
        }
        /// The number of the running or last attempt.
        var attempt: Int {
            get { Int(storedAttempt) }
            set { storedAttempt = Int32(clamping: newValue) }
        }
        var attemptsStarted: Int {
            get { Int(storedAttemptsStarted) }
            set { storedAttemptsStarted = Int32(clamping: newValue) }
        }
        var firstStartedAt: Duration? {
            get { Self.duration(firstStartedNanoseconds) }
            set { firstStartedNanoseconds = Self.nanoseconds(newValue) }
        }
        var lastStartedAt: Duration? {
            get { Self.duration(lastStartedNanoseconds) }
            set { lastStartedNanoseconds = Self.nanoseconds(newValue) }
        }

        /// The unfinished dependencies it waits for (see `SchedulerStateMachine+Chains.swift`).
        var pendingDependencies: [Key] {
            get { extras?.pendingDependencies ?? [] }
            set { if extras != nil || !newValue.isEmpty { madeExtras().pendingDependencies = newValue } }
        }
        /// The jobs waiting for this one, and whether its failure fails them.
        var dependents: [(key: Key, propagatesFailure: Bool)] {
            get { extras?.dependents ?? [] }
            set { if extras != nil || !newValue.isEmpty { madeExtras().dependents = newValue } }
        }
        /// The payloads of the dependencies that succeeded, in order; their outputs become inputs.
        var inputs: [(id: SyncJob.ID, payload: Payload)] {
            get { extras?.inputs ?? [] }
            set { if extras != nil || !newValue.isEmpty { madeExtras().inputs = newValue } }
        }
        /// The dependencies: `dependsOn`, then the job it was appended to.
        var dependencyIDs: [SyncJob.ID] {
            get { extras?.dependencyIDs ?? [] }
            set { if extras != nil || !newValue.isEmpty { madeExtras().dependencyIDs = newValue } }
        }
        /// A periodic job's series (see `SchedulerStateMachine+Periods.swift`).
        var series: Series? {
            get { extras?.series }
            set { if extras != nil || newValue != nil { madeExtras().series = newValue } }
        }

        private func madeExtras() -> Extras {
            if let extras { return extras }
            let made = Extras()
            extras = made
            return made
        }

        private static func duration(_ nanoseconds: Int64) -> Duration? {
            nanoseconds == .min ? nil : .nanoseconds(nanoseconds)
        }

        private static func nanoseconds(_ duration: Duration?) -> Int64 {
            guard let duration else { return .min }
            let (seconds, attoseconds) = duration.components
            return seconds &* 1_000_000_000 &+ attoseconds / 1_000_000_000
        }

        /// What only jobs in chains and periodic jobs use.
        final class Extras {
            var pendingDependencies: [Key] = []
            var dependents: [(key: Key, propagatesFailure: Bool)] = []
            var inputs: [(id: SyncJob.ID, payload: Payload)] = []
            var dependencyIDs: [SyncJob.ID] = []
            var series: Series?
            var lastStopReason: SyncJobStopReason?
            var relaxation: Relaxation?
        }
    }

    struct BucketKey: Hashable {
        var requirements: UInt64
        var conditions: ConditionMask
    }

    struct QueueEntry: Comparable {
        var key: Key
        var generation: UInt64
        static func < (lhs: QueueEntry, rhs: QueueEntry) -> Bool { lhs.key < rhs.key }
    }

    struct Bucket {
        var lanes: [MostlyOrderedQueue<QueueEntry>] = [.init(), .init(), .init()]
        var live = 0
        var entries: Int { lanes.reduce(0) { $0 + $1.count } }

        /// The most entries a lane of a bucket kept for reuse (``SchedulerStateMachine/spareBucket``) may
        /// have room for, so that a bucket emptied after a crowd does not keep the crowd's storage.
        static var spareCapacity: Int { 256 }

        /// Empties the bucket for reuse under another key, keeping its storage; `false` (and the bucket
        /// left as it is) when a lane has more room than ``spareCapacity``.
        mutating func emptyForReuse() -> Bool {
            guard lanes.allSatisfy({ $0.capacity <= Self.spareCapacity }) else { return false }
            for lane in lanes.indices { lanes[lane].removeAll() }
            live = 0
            return true
        }
    }

    /// Where a periodic job's series stands.
    struct Series {
        /// When the current period ends (its window closes).
        var closesAt: Duration = .zero
        /// When the current period's first attempt started; `nil` before it has.
        var startedAt: Duration?
        var counts = SyncJobInfo.Periods(succeeded: 0, failed: 0, skipped: 0)
        /// A calendar job's occurrence this period stands for, in wall-clock seconds since 1970; `nil`
        /// for an interval series (see `SchedulerStateMachine+Calendar.swift`).
        var occurrence: Int64?
        /// A calendar job's latest occurrence that ran or was skipped, or the second it plans from (its
        /// submission, or where the wall clock was set back to); `nil` before the first.
        var lastOccurrence: Int64?
        /// Where the span of wall-clock seconds a calendar series has planned through begins (up to
        /// `lastOccurrence`): its submission, its restore, or the latest time the wall clock was set
        /// back before the span. `nil` for an interval series.
        var coveredFrom: Int64?
        /// The span a calendar series had planned through when the wall clock was set back before it:
        /// its occurrences are not planned again. Dropped once the series plans past it.
        var heldSpan: ClosedRange<Int64>?
        /// Whether a calendar job's period is the one catch-up run of a missed occurrence: it waits for
        /// its requirements with no window.
        var catchingUp = false
        /// A file-triggered job's wait for a change or for quiet; `nil` otherwise (see
        /// `SchedulerStateMachine+FileTriggers.swift`).
        var fileWait: SyncFileTrigger.Wait?
        /// Whether a file-triggered job's files changed while its run was in progress: one more run
        /// follows it.
        var changedDuringRun = false
    }

    /// A job that finished, kept for queries and for dependents submitted later: the job itself (a
    /// reference, so keeping it allocates nothing) and how and when it ended.
    struct FinishedJob {
        var job: Job
        var outcome: SyncJobOutcome
        var finishedAt: Duration

        var id: SyncJob.ID { job.spec.id }
        var payload: Payload { job.payload }
    }

    enum TimerKind { case delay, deadline, runTimeout, relax }

    struct TimerEntry: Comparable {
        var at: Duration
        var id: UInt64
        var key: Key
        var kind: TimerKind
        static func < (lhs: TimerEntry, rhs: TimerEntry) -> Bool { (lhs.at, lhs.id) < (rhs.at, rhs.id) }
    }

    let maxConcurrentJobs: Int
    let retention: SyncJobHistoryRetention
    private(set) var status: SyncEnvironmentStatus
    private var satisfied: UInt64
    private var heldConditions: ConditionMask
    private(set) var interner = ConditionInterner()

    private(set) var jobs = KeyTable<Job>()
    private var nextKey: Key = 0
    var ids = JobIDIndex()
    var uniqueKeys: [String: Key] = [:]
    /// The unfinished jobs of each unique key, oldest first (more than one only with appends).
    var uniqueChains: [String: [Key]] = [:]
    /// Finished jobs, oldest first.
    var history = RingBuffer<FinishedJob>()
    private var tagIndex: [String: Set<Key>] = [:]
    private(set) var serialGroups: [String: [Key]] = [:]
    /// The running job of each unique key (possibly one being stopped after it was replaced).
    var runningUnique: [String: Key] = [:]
    /// The job of each unique key parked until that key's running job returns.
    var parkedUnique: [String: Key] = [:]
    private var buckets: [BucketKey: Bucket] = [:]
    /// The last bucket emptied, kept with its storage for the next bucket made: a job that waits alone
    /// (the usual case) would otherwise allocate a bucket and its lanes when it starts waiting and free
    /// them when it starts.
    private var spareBucket: Bucket?
    private(set) var running = KeySet()
    /// Delayed jobs whose backoff ends early when their requirements return after a loss.
    var resettable: Set<Key> = []
    private(set) var timers = BinaryHeap<TimerEntry>()
    private var nextTimerID: UInt64 = 0
    private var armedAt: Duration?
    private(set) var isShutDown = false
    /// How the scheduler's offsets map to the wall clock, and the system's time zone (calendar jobs).
    var wall = CalendarWall()

    /// The number of queue entries dispatch has looked at, for asserting on the cost of a change.
    private(set) var jobsExamined = 0

    /// What left the machine since the shell last took it (``takeRetired()``): jobs that ended or were
    /// dropped from the history, and payloads that a finished job no longer keeps. The shell releases
    /// them after its lock, so no deinitializer of a job's captures (which may call the scheduler) runs
    /// inside the critical section.
    var retired = Retired()

    /// An emptied actions array kept for the next input (``recycle(_:)``), so that the storage of an
    /// input's actions is allocated once and reused, not grown from nothing in every critical section.
    private var spareActions: [Action] = []

    /// The most actions whose storage ``recycle(_:)`` keeps: a large release or cancellation does not
    /// leave its whole array behind.
    static var recycledActionCapacity: Int { 1_024 }

    /// What left the machine; see ``retired``.
    struct Retired {
        var jobs = InlineFirstList<Job>()
        var payloads = InlineFirstList<Payload>()
    }

    /// The most attempts one input starts; when an input could start more, it stops there and sets
    /// ``hasMoreToStart``, and the shell feeds ``continueStarting(now:)`` until it is clear, releasing
    /// its lock in between so that finishing attempts and other inputs are not held up by a long release.
    /// Each batch picks the best runnable jobs at that moment, so the order of starts (priority, then
    /// submission) and `maxConcurrentJobs` hold across batches exactly as within one.
    var startsPerInput = Int.max
    /// Whether the last dispatch stopped at ``startsPerInput`` with more jobs it could start.
    private(set) var hasMoreToStart = false

    init(
        maxConcurrentJobs: Int, status: SyncEnvironmentStatus, retention: SyncJobHistoryRetention = .init(),
        startsPerInput: Int = .max
    ) {
        self.maxConcurrentJobs = maxConcurrentJobs
        self.startsPerInput = max(1, startsPerInput)
        self.retention = retention
        self.status = status
        self.satisfied = status.satisfiedRequirements.rawValue
        self.heldConditions = ConditionMask()
    }

    /// The number of unfinished jobs.
    var jobCount: Int { jobs.count }

    /// An empty actions array for an input: the storage of the last one recycled, when there is one.
    mutating func newActions() -> [Action] {
        var actions: [Action] = []
        swap(&actions, &spareActions)
        return actions
    }

    /// Takes back an input's actions once the shell has performed them, and keeps their storage for the
    /// next input. The actions are destroyed here, in the caller's critical section, as they would be
    /// when the array was dropped.
    mutating func recycle(_ actions: consuming [Action]) {
        var actions = actions
        guard actions.capacity <= Self.recycledActionCapacity else { return }
        actions.removeAll(keepingCapacity: true)
        spareActions = actions
    }

    /// Hands over what left the machine since the last call (see ``retired``).
    mutating func takeRetired() -> Retired {
        defer { retired = Retired() }
        return retired
    }

    /// Whether an unfinished job has the identifier.
    func hasUnfinishedJob(id: SyncJob.ID) -> Bool { ids[id] != nil }

    /// The payload of the unfinished job that a submission with `uniqueKey` and the keep-existing policy
    /// would be given: the key's oldest unfinished job that is not being cancelled — its running job,
    /// or the first of a chain appended under the key, never a job appended behind it.
    func existingPayload(uniqueKey: String) -> Payload? {
        for key in uniqueChains[uniqueKey] ?? [] {
            if let job = jobs[key], job.stop?.endsJob != true { return job.payload }
        }
        return nil
    }

    // MARK: - Inputs

    /// Accepts a job, or says why not. The job's values must already be valid (``SyncJob/validationError``).
    ///
    /// `initialFailures` is the number of attempts already consumed (a durable job restored after a
    /// restart); the first attempt started is `initialFailures + 1`. `initialStopReason` is why the
    /// latest of them was stopped, kept as the job's ``Job/lastStopReason`` until it starts.
    mutating func submit(
        _ spec: SyncJob.Spec, payload: Payload, now: Duration, initialFailures: Int = 0,
        initialStopReason: SyncJobStopReason? = nil
    ) -> SubmitResult {
        if isShutDown { return .rejected(.shutDown) }
        if ids[spec.id] != nil {
            return .rejected(.invalidJob(.idTaken(spec.id)))
        }
        var actions = newActions()
        var replaced: [Key] = []
        var found: [Dependency]
        switch dependencies(of: spec, now: now) {
        case .success(let dependencies): found = dependencies
        case .failure(let error): return .rejected(error)
        }
        if let uniqueKey = spec.uniqueKey, let existing = existingPayload(uniqueKey: uniqueKey) {
            switch spec.onDuplicate {
            case .keepExisting:
                return .existing(existing)
            case .replace:
                replaced = uniqueChains[uniqueKey] ?? []
            case .append, .appendOrReplace:
                switch appendDependency(spec, uniqueKey: uniqueKey, policy: spec.onDuplicate) {
                case .success(let dependency): found.append(dependency)
                case .failure(let error): return .rejected(error)
                }
            }
        }

        nextKey += 1
        let key = nextKey
        var (conditionMask, added) = interner.intern(spec.conditions)
        for condition in added where status.conditions.contains(condition) {
            if let bit = interner.bit(of: condition) { heldConditions.insert(bit) }
        }
        if let allowlist = spec.allowedNetworks {
            let (bit, isNew) = interner.intern(allowlist)
            conditionMask.insert(bit)
            if isNew && status.allows(allowlist) { heldConditions.insert(bit) }
        }
        let job = Job(key: key, spec: spec, payload: payload, conditionMask: conditionMask, submittedAt: now)
        job.failures = initialFailures
        job.lastStopReason = initialStopReason
        if let startDeadline = spec.startDeadline, startDeadline > .zero {
            job.deadlineTimer = addTimer(at: now + startDeadline, key: key, kind: .deadline)
        }
        jobs[key] = job
        ids[spec.id] = key
        for tag in spec.tags { tagIndex[tag, default: []].insert(key) }
        actions.append(.emit(.submitted(id: spec.id), job))
        // After `submitted`: a restored job's wait began before this launch, so a relaxation may be due now.
        if spec.period == nil && spec.calendar == nil && spec.fileTrigger == nil {
            beginRelaxationWait(job, at: now + (spec.relaxationWaitStart ?? .zero), now: now, actions: &actions)
        }

        for replaced in replaced.reversed() {
            cancelJob(replaced, reason: .replaced, now: now, actions: &actions)
        }
        // The cancellations may have let other jobs wait for a slot (the next of a replaced job's serial
        // group): they are older than this job, so they start first.
        if !replaced.isEmpty { dispatch(now: now, actions: &actions) }
        if let uniqueKey = spec.uniqueKey {
            uniqueKeys[uniqueKey] = key
            uniqueChains[uniqueKey, default: []].append(key)
        }
        if link(key, to: found, now: now, actions: &actions) {
            rearm(&actions)
            return .accepted(key, actions)
        }

        var blocked = false
        if let group = spec.serialGroup {
            blocked = !(serialGroups[group]?.isEmpty ?? true)
            serialGroups[group, default: []].append(key)
        }
        if !job.pendingDependencies.isEmpty {
            blocked = true
        } else if let uniqueKey = spec.uniqueKey, runningUnique[uniqueKey] != nil {
            parkedUnique[uniqueKey] = key
            blocked = true
        }
        if blocked {
            actions.append(.setState(job, JobLifecycle.blocked(by: blockers(of: job))))
        } else {
            activate(key, now: now, startIfPossible: true, actions: &actions)
        }
        if spec.startDeadline == .zero && !job.hasStarted {
            // A deadline of zero: the job starts as it is submitted, or expires.
            resolve(key, .expired, now: now, actions: &actions)
        }
        rearm(&actions)
        return .accepted(key, actions)
    }

    /// Takes a new environment status: stops attempts that lost their requirements, ends backoffs that
    /// reset, and starts what became runnable.
    mutating func statusChanged(_ newStatus: SyncEnvironmentStatus, now: Duration) -> [Action] {
        let previousSatisfied = satisfied
        let previousConditions = heldConditions
        status = newStatus
        satisfied = newStatus.satisfiedRequirements.rawValue
        heldConditions = interner.heldMask(in: newStatus)
        guard satisfied != previousSatisfied || heldConditions != previousConditions else { return [] }

        var actions = newActions()
        for key in running {
            guard let job = jobs[key], job.spec.onRequirementsLost == .cancelAndRequeue, job.stop == nil,
                !isRunnable(job)
            else { continue }
            let lost = SyncJobStopReason.requirementsLost(
                newStatus.unmetRequirements(job.requirements),
                conditions: newStatus.unmetConditions(job.conditions))
            requestStop(job, reason: lost, actions: &actions)
        }
        for key in resettable.isEmpty ? [] : resettable.sorted() {
            guard let job = jobs[key], case .delayed(let lossSeen) = job.stage else { continue }
            if !isRunnable(job) {
                job.stage = .delayed(lossSeen: true)
            } else if lossSeen {
                job.delayTimer = 0
                resettable.remove(key)
                enterWaiting(key, now: now, startIfPossible: false, actions: &actions)
            }
        }
        dispatch(now: now, actions: &actions)
        rearm(&actions)
        return actions
    }

    /// Takes the end of an attempt.
    mutating func attemptFinished(
        _ key: Key,
        attempt: Int,
        result: Result<Void, any Error>,
        now: Duration,
        random: () -> Double
    ) -> [Action] {
        guard let job = jobs[key], job.phase == .running, job.attempt == attempt else {
            preconditionFailure("attempt \(attempt) of job \(key) finished but is not running")
        }
        running.remove(key)
        job.runTimer = 0
        // Every way on from here leaves the running stage (or the job), and with it the attempt's facts.
        let stop = job.stop
        var actions = newActions()

        switch (stop, result) {
        case (let stop?, _) where stop.endsJob:
            resolve(key, .cancelled, now: now, actions: &actions)
        case (_, .success):
            if job.series != nil && !isShutDown {
                endPeriod(key, succeeded: true, now: now, actions: &actions)
            } else {
                resolve(key, .succeeded, now: now, actions: &actions)
            }
        case (.requirementsLost(let lost, _), .failure):
            if isShutDown {
                resolve(key, .cancelled, now: now, actions: &actions)
            } else {
                actions.append(.emit(.requeued(id: job.spec.id, lost: lost), job))
                enterWaiting(key, now: now, startIfPossible: false, actions: &actions)
                keepInWindow(key, now: now, actions: &actions)
            }
        case (.timedOut, .failure):
            fail(key, error: SyncJobError.runTimedOut, now: now, random: random, actions: &actions)
        case (_, .failure(let error)):
            fail(key, error: error, now: now, random: random, actions: &actions)
        }
        releaseUniqueKey(of: job, now: now, actions: &actions)
        dispatch(now: now, actions: &actions)
        rearm(&actions)
        return actions
    }

    /// Takes the firing of the timer armed by the last `armTimer` action.
    mutating func timerFired(now: Duration) -> [Action] {
        armedAt = nil
        var actions = newActions()
        while let top = timers.top, top.at <= now {
            timers.popTop()
            guard let job = jobs[top.key] else { continue }
            switch top.kind {
            case .delay:
                guard job.delayTimer == top.id else { continue }
                job.delayTimer = 0
                resettable.remove(top.key)
                if job.series?.fileWait != nil { endQuiet(job, now: now, actions: &actions) }
                enterWaiting(top.key, now: now, startIfPossible: false, actions: &actions)
            case .deadline:
                guard job.deadlineTimer == top.id else { continue }
                job.deadlineTimer = 0
                if job.series != nil {
                    closeWindow(top.key, now: now, actions: &actions)
                } else if !job.hasStarted {
                    resolve(top.key, .expired, now: now, actions: &actions)
                }
            case .relax:
                guard job.relaxation?.timer == top.id else { continue }
                relaxationTimerFired(top.key, now: now, actions: &actions)
            case .runTimeout:
                guard job.runTimer == top.id else { continue }
                job.runTimer = 0
                job.updateRunningAttempt { $0.isPastRunTimeout = true }
                if job.stop == nil { requestStop(job, reason: .timedOut, actions: &actions) }
            }
        }
        dispatch(now: now, actions: &actions)
        rearm(&actions)
        return actions
    }

    /// Cancels one job by id; an unknown id is ignored.
    mutating func cancel(id: SyncJob.ID, now: Duration) -> [Action] {
        guard let key = ids[id] else { return [] }
        return cancel(keys: [key], now: now)
    }

    /// Cancels one job by key; a finished job is ignored.
    mutating func cancel(key: Key, now: Duration) -> [Action] {
        cancel(keys: [key], now: now)
    }

    /// Cancels every unfinished job with the tag.
    mutating func cancel(tag: String, now: Duration) -> [Action] {
        cancel(keys: tagIndex[tag]?.sorted() ?? [], now: now)
    }

    /// Cancels every unfinished job.
    mutating func cancelAll(now: Duration) -> [Action] {
        cancel(keys: jobs.keys.sorted(), now: now)
    }

    /// Stops taking jobs and cancels every job that is not running; running attempts go on.
    mutating func shutdown(now: Duration) -> [Action] {
        isShutDown = true
        let waiting = jobs.values.filter { $0.phase != .running }.map(\.key).sorted()
        return cancel(keys: waiting, now: now)
    }

    /// Cancels every unfinished job because the scheduler is shutting down: running attempts are stopped
    /// with ``SyncJobStopReason/shutdown``.
    mutating func stopForShutdown(now: Duration) -> [Action] {
        isShutDown = true
        return cancel(keys: jobs.keys.sorted(), reason: .shutdown, now: now)
    }

    // MARK: - Transitions

    /// Starts the next batch of the jobs that the last input could not start within ``startsPerInput``.
    mutating func continueStarting(now: Duration) -> [Action] {
        guard hasMoreToStart else { return [] }
        var actions = newActions()
        dispatch(now: now, actions: &actions)
        rearm(&actions)
        return actions
    }

    mutating func cancel(keys: [Key], reason: SyncJobStopReason = .cancelled, now: Duration) -> [Action] {
        var actions = newActions()
        for key in keys { cancelJob(key, reason: reason, now: now, actions: &actions) }
        dispatch(now: now, actions: &actions)
        rearm(&actions)
        return actions
    }

    /// Ends a job as cancelled: at once when no attempt runs, else by stopping its attempt with `reason`
    /// (one of the reasons that end a job).
    private mutating func cancelJob(
        _ key: Key, reason: SyncJobStopReason, now: Duration, actions: inout [Action]
    ) {
        guard let job = jobs[key] else { return }
        if job.phase == .running {
            if job.stop?.endsJob != true { requestStop(job, reason: reason, actions: &actions) }
        } else {
            resolve(key, .cancelled, now: now, actions: &actions)
        }
    }

    /// Records why the job's running attempt is stopped (on the attempt, the job and its handle), reports
    /// it, and cancels the attempt's task unless an earlier stop already did.
    private mutating func requestStop(_ job: Job, reason: SyncJobStopReason, actions: inout [Action]) {
        let alreadyStopping = job.stop != nil
        job.updateRunningAttempt { $0.stop = reason }
        job.lastStopReason = reason
        actions.append(.setStopReason(job, reason))
        actions.append(.emit(.stopRequested(id: job.spec.id, attempt: job.attempt, reason: reason), job))
        if !alreadyStopping { actions.append(.cancelAttempt(job.key)) }
    }

    private mutating func fail(
        _ key: Key,
        error: any Error,
        now: Duration,
        random: () -> Double,
        actions: inout [Action]
    ) {
        guard let job = jobs[key] else { return }
        if case SyncJobError.doNotRetry(let underlying) = error {
            giveUp(key, error: underlying, now: now, actions: &actions)
            return
        }
        job.failures += 1
        guard job.failures < job.spec.retry.maxAttempts else {
            giveUp(key, error: error, now: now, actions: &actions)
            return
        }
        let delay = job.spec.retry.delay(
            afterFailures: job.failures, random: job.spec.retry.jitter > 0 ? random() : 0.5)
        actions.append(.emit(.retryScheduled(id: job.spec.id, attempt: job.nextAttempt, delay: delay), job))
        if isShutDown {
            // The retry is left undone: the job did not end on its own, so it ends as cancelled (a durable
            // job keeps the retry, and its backoff, for the next launch).
            resolve(key, .cancelled, now: now, actions: &actions)
            return
        }
        delayJob(
            key, until: now + delay, now: now, resettable: job.spec.retry.resetWhenRequirementsReturn, actions: &actions
        )
        keepInWindow(key, now: now, actions: &actions)
    }

    /// Ends a job whose attempts are used up: it fails, or a periodic job's period counts as failed.
    private mutating func giveUp(_ key: Key, error: any Error, now: Duration, actions: inout [Action]) {
        if jobs[key]?.series != nil && !isShutDown {
            endPeriod(key, succeeded: false, now: now, actions: &actions)
        } else {
            resolve(key, .failed(error), now: now, actions: &actions)
        }
    }

    /// Makes a job that has no blocker eligible: delayed while its initial delay lasts, else waiting.
    mutating func activate(_ key: Key, now: Duration, startIfPossible: Bool, actions: inout [Action]) {
        guard let job = jobs[key] else { return }
        if job.spec.fileTrigger != nil && job.series == nil {
            beginFileTrigger(key, now: now, actions: &actions)
        } else if (job.spec.period != nil || job.spec.calendar != nil) && job.series == nil {
            beginSeries(key, now: now, startIfPossible: startIfPossible, actions: &actions)
        } else if let delay = job.spec.delay, job.submittedAt + delay > now, !job.hasStarted {
            delayJob(key, until: job.submittedAt + delay, now: now, resettable: false, actions: &actions)
        } else {
            enterWaiting(key, now: now, startIfPossible: startIfPossible, actions: &actions)
        }
    }

    mutating func delayJob(
        _ key: Key, until: Duration, now: Duration, resettable reset: Bool, actions: inout [Action]
    ) {
        guard let job = jobs[key] else { return }
        job.stage = .delayed(lossSeen: false)
        job.delayTimer = addTimer(at: until, key: key, kind: .delay)
        if reset { resettable.insert(key) }
        actions.append(.setState(job, .delayed(attempt: job.nextAttempt)))
    }

    /// Puts a job in its bucket, or starts it at once when `startIfPossible` and it can run now.
    ///
    /// Starting at once is only right when nothing else may be runnable (a single submission): dispatch
    /// keeps the invariant that a free slot means no runnable job is waiting.
    mutating func enterWaiting(_ key: Key, now: Duration, startIfPossible: Bool, actions: inout [Action]) {
        guard let job = jobs[key] else { return }
        // The wait may have lasted long enough for a relaxation (a retry or requeue after its instant).
        if job.relaxation != nil { applyDueRelaxations(job, now: now, actions: &actions) }
        // While a batched release is unfinished, jobs it has not reached may outrank this one: it queues.
        if startIfPossible && !hasMoreToStart && running.count < maxConcurrentJobs && isRunnable(job) {
            start(key, now: now, actions: &actions)
            return
        }
        job.stage = .waiting
        job.waitGeneration += 1
        let lane = Self.lane(job.spec.priority)
        let bucketKey = job.bucketKey
        let entry = QueueEntry(key: key, generation: job.waitGeneration)
        if let index = buckets.index(forKey: bucketKey) {
            buckets.values[index].lanes[lane].insert(entry)
            buckets.values[index].live += 1
        } else {
            var bucket = spareBucket.take() ?? Bucket()
            bucket.lanes[lane].insert(entry)
            bucket.live = 1
            buckets[bucketKey] = bucket
        }
        actions.append(.setState(job, JobLifecycle.waiting))
    }

    /// Removes a waiting job from its bucket's live count; its lane entry goes stale.
    mutating func leaveBucket(_ job: Job) {
        // In place: one lookup, and no removal and reinsertion of the bucket on every start.
        guard let index = buckets.index(forKey: job.bucketKey) else { return }
        buckets.values[index].live -= 1
        let live = buckets.values[index].live
        if live == 0 {
            var bucket = buckets.remove(at: index).value
            if spareBucket == nil && bucket.emptyForReuse() { spareBucket = bucket }
            return
        }
        guard buckets.values[index].entries > 2 * live + 64 else { return }
        let jobs = jobs
        let leaving = job.key
        for lane in 0..<3 {
            buckets.values[index].lanes[lane].filter { entry in
                guard let waiting = jobs[entry.key], entry.key != leaving else { return false }
                return waiting.phase == .waiting && waiting.waitGeneration == entry.generation
            }
        }
    }

    private mutating func start(_ key: Key, now: Duration, actions: inout [Action]) {
        guard let job = jobs[key] else { return }
        if job.phase == .waiting { leaveBucket(job) }
        job.stage = .running(RunningAttempt())
        job.lastStopReason = nil
        job.attempt = job.nextAttempt
        job.deadlineTimer = 0
        job.attemptsStarted += 1
        job.firstStartedAt = job.firstStartedAt ?? now
        job.lastStartedAt = now
        if job.series != nil, job.series?.startedAt == nil { job.series?.startedAt = now }
        // A run covers every change made before it starts.
        if job.series?.changedDuringRun == true { job.series?.changedDuringRun = false }
        if let runTimeout = job.spec.runTimeout {
            job.runTimer = addTimer(at: now + runTimeout, key: key, kind: .runTimeout)
        }
        running.insert(key)
        if let uniqueKey = job.spec.uniqueKey { runningUnique[uniqueKey] = key }
        actions.append(.setState(job, .running(attempt: job.attempt)))
        actions.append(.emit(.started(id: job.spec.id, attempt: job.attempt), job))
        actions.append(.start(job, attempt: job.attempt))
    }

    /// Ends a job, and then the dependents that its outcome fails (iteratively, so a long chain does not
    /// deepen the stack).
    mutating func resolve(_ key: Key, _ outcome: SyncJobOutcome, now: Duration, actions: inout [Action]) {
        var pending = [(key, outcome)]
        while let (next, nextOutcome) = pending.popLast() {
            pending += resolveOne(next, nextOutcome, now: now, actions: &actions)
        }
    }

    /// Ends one job; returns its dependents that its outcome fails.
    private mutating func resolveOne(
        _ key: Key, _ outcome: SyncJobOutcome, now: Duration, actions: inout [Action]
    ) -> [(Key, SyncJobOutcome)] {
        // The history keeps the job, or `record` retires it: either way its last reference is not released
        // in this critical section.
        guard let job = jobs.removeValue(forKey: key) else { return [] }
        if job.phase == .waiting { leaveBucket(job) }
        running.remove(key)
        if !resettable.isEmpty { resettable.remove(key) }
        ids[job.spec.id] = nil
        for tag in job.spec.tags {
            tagIndex[tag]?.remove(key)
            if tagIndex[tag]?.isEmpty == true { tagIndex[tag] = nil }
        }
        if let uniqueKey = job.spec.uniqueKey {
            uniqueChains[uniqueKey]?.removeAll { $0 == key }
            if uniqueChains[uniqueKey]?.isEmpty == true { uniqueChains[uniqueKey] = nil }
            if uniqueKeys[uniqueKey] == key { uniqueKeys[uniqueKey] = uniqueChains[uniqueKey]?.last }
            if parkedUnique[uniqueKey] == key { parkedUnique[uniqueKey] = nil }
        }
        record(job, outcome: outcome, now: now)

        actions.append(.setState(job, JobLifecycle.state(of: outcome)))
        actions.append(.emit(JobLifecycle.event(for: outcome, id: job.spec.id), job))
        actions.append(.resolve(job, outcome))

        if let group = job.spec.serialGroup, var queue = serialGroups[group], let index = queue.firstIndex(of: key) {
            queue.remove(at: index)
            serialGroups[group] = queue.isEmpty ? nil : queue
            // The job that was behind it now waits for the one ahead of it, or for nothing in its group.
            if index < queue.count, let behind = jobs[queue[index]], behind.phase == .parked {
                if index == 0 && !isBlocked(behind.key) {
                    activate(behind.key, now: now, startIfPossible: false, actions: &actions)
                } else {
                    publishBlockers(of: behind, actions: &actions)
                }
            }
        }
        return releaseDependents(of: job, outcome: outcome, now: now, actions: &actions)
    }

    /// Whether a job must stay parked: behind its serial group's head, or behind a running job with its
    /// unique key.
    func isBlocked(_ key: Key) -> Bool {
        guard let job = jobs[key] else { return false }
        if !job.pendingDependencies.isEmpty { return true }
        if let group = job.spec.serialGroup, serialGroups[group]?.first != key { return true }
        if let uniqueKey = job.spec.uniqueKey, let runner = runningUnique[uniqueKey], runner != key { return true }
        return false
    }

    /// Releases the job parked behind the unique key of a job whose attempt ended.
    private mutating func releaseUniqueKey(of job: Job, now: Duration, actions: inout [Action]) {
        guard let uniqueKey = job.spec.uniqueKey, runningUnique[uniqueKey] == job.key else { return }
        runningUnique[uniqueKey] = nil
        // The entry goes in any case: a parked job still behind its serial group is activated by the
        // group's release, which no longer finds the key held.
        if let parked = parkedUnique.removeValue(forKey: uniqueKey), let job = jobs[parked], job.phase == .parked {
            if isBlocked(parked) {
                publishBlockers(of: job, actions: &actions)
            } else {
                activate(parked, now: now, startIfPossible: false, actions: &actions)
            }
        }
    }

    /// The ids of the jobs a parked job waits for, each once: its unfinished dependencies, the job ahead
    /// of it in its serial group, and the running job of its unique key when the job is the one parked
    /// behind it (``SyncJobState/blocked(by:)``).
    func blockers(of job: Job) -> [SyncJob.ID] {
        var ids: [SyncJob.ID] = []
        func add(_ key: Key) {
            guard let blocker = jobs[key], !ids.contains(blocker.spec.id) else { return }
            ids.append(blocker.spec.id)
        }
        for dependency in job.pendingDependencies { add(dependency) }
        if let group = job.spec.serialGroup, let queue = serialGroups[group],
            let index = queue.lastIndex(of: job.key), index > 0
        {
            add(queue[index - 1])
        }
        if let uniqueKey = job.spec.uniqueKey, parkedUnique[uniqueKey] == job.key,
            let runner = runningUnique[uniqueKey]
        {
            add(runner)
        }
        return ids
    }

    /// Publishes what a parked job waits for on its handle, after that changed.
    mutating func publishBlockers(of job: Job, actions: inout [Action]) {
        guard job.phase == .parked else { return }
        actions.append(.setState(job, JobLifecycle.blocked(by: blockers(of: job))))
    }

    // MARK: - Dispatch

    func isRunnable(_ job: Job) -> Bool {
        job.requirements.rawValue & ~satisfied == 0 && job.waitingConditionMask.isSubset(of: heldConditions)
    }

    private static func lane(_ priority: SyncJobPriority) -> Int {
        switch priority {
        case .high: 0
        case .normal: 1
        case .low: 2
        }
    }

    /// Starts the best runnable waiting jobs while slots are free: highest priority first, then
    /// submission order, looking only at buckets the current status satisfies.
    mutating func dispatch(now: Duration, actions: inout [Action]) {
        hasMoreToStart = false
        guard running.count < maxConcurrentJobs, !buckets.isEmpty else { return }
        var started = 0
        while running.count < maxConcurrentJobs {
            if started == startsPerInput {
                hasMoreToStart = true
                return
            }
            started += 1
            // Buckets are visited by index (no hashing, no array of the runnable ones); a start may remove
            // the bucket it starts from, so indices are not kept across starts.
            var best: (bucket: Dictionary<BucketKey, Bucket>.Index, lane: Int, entry: QueueEntry)?
            var index = buckets.startIndex
            while index != buckets.endIndex {
                let bucketKey = buckets.keys[index]
                if bucketKey.requirements & ~satisfied == 0 && bucketKey.conditions.isSubset(of: heldConditions) {
                    for lane in 0..<3 {
                        guard let entry = liveTop(at: index, lane: lane) else { continue }
                        if let current = best, (current.lane, current.entry.key) <= (lane, entry.key) { continue }
                        best = (index, lane, entry)
                    }
                }
                buckets.formIndex(after: &index)
            }
            guard let best else { break }
            // Popping stale entries changed values only, so the index is still valid.
            buckets.values[best.bucket].lanes[best.lane].popTop()
            start(best.entry.key, now: now, actions: &actions)
        }
    }

    /// The live entry at the top of a lane of the bucket at `index`, dropping stale entries on the way.
    private mutating func liveTop(at index: Dictionary<BucketKey, Bucket>.Index, lane: Int) -> QueueEntry? {
        while let entry = buckets.values[index].lanes[lane].top {
            jobsExamined += 1
            if let job = jobs[entry.key], job.phase == .waiting, job.waitGeneration == entry.generation {
                return entry
            }
            buckets.values[index].lanes[lane].popTop()
        }
        return nil
    }

    // MARK: - Timers

    mutating func addTimer(at: Duration, key: Key, kind: TimerKind) -> UInt64 {
        nextTimerID += 1
        timers.insert(TimerEntry(at: at, id: nextTimerID, key: key, kind: kind))
        return nextTimerID
    }

    /// When the earliest timer that still counts falls due (the model stress checks that one is armed
    /// by then).
    var earliestLiveTimer: Duration? { timers.unordered.lazy.filter(isLive).map { $0.at }.min() }

    private func isLive(_ timer: TimerEntry) -> Bool {
        guard let job = jobs[timer.key] else { return false }
        switch timer.kind {
        case .delay: return job.delayTimer == timer.id
        case .deadline: return job.deadlineTimer == timer.id
        case .runTimeout: return job.runTimer == timer.id
        case .relax: return job.relaxation?.timer == timer.id
        }
    }

    /// When the shell's timer is armed to fire; `nil` when it is not armed.
    var armedTimer: Duration? { armedAt }

    /// Keeps the shell's timer armed for exactly the earliest live timer: re-armed when that changes,
    /// later as well as earlier, and disarmed when no timer counts.
    ///
    /// After every input the armed time is ``earliestLiveTimer`` (a dead timer's time is never left armed,
    /// so a clock's only sleeper is the next deadline that matters).
    mutating func rearm(_ actions: inout [Action]) {
        while let top = timers.top, !isLive(top) { timers.popTop() }
        let due = timers.top?.at
        guard due != armedAt else { return }
        armedAt = due
        actions.append(due.map { .armTimer(at: $0) } ?? .disarmTimer)
    }
}
