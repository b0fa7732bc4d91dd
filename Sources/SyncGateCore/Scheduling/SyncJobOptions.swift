/// When and how a job runs: what it waits for, its order, its time limits, its retries and the rules
/// that tie it to other jobs. Every kind of job carries one: ``SyncJob``, ``DurableJob`` and the
/// ``StoredJob`` a ``JobStore`` keeps.
///
/// ```swift
/// var options = SyncJobOptions(requires: .largeTransfer, retry: .exponential(maxAttempts: 5))
/// options.serialGroup = "uploads"
/// let job = SyncJob(options: options) { context in try await upload(idempotencyKey: context.jobID) }
/// ```
///
/// This is the one place the whole option list is spelled. ``SyncJob`` and ``DurableJob`` take a
/// value of it whole (``SyncJob/init(id:options:operation:)``, ``DurableJob/init(id:kind:payload:options:)``),
/// offer the options set most often as parameters of their other initializer, and read and write every
/// option as a property of the job. An option is added in one place: a field here (with its default in
/// ``init(requires:conditions:priority:delay:startDeadline:runTimeout:retry:onRequirementsLost:uniqueKey:onDuplicate:serialGroup:tags:dependsOn:period:relaxations:)``),
/// its rule in ``validationError``, its entry in the journal codec's options encoding, and its tests.
public struct SyncJobOptions: Sendable, Hashable {
    /// What must hold before an attempt starts; ``SyncRequirements/network`` unless given
    /// (``SyncRequirements/none`` for work that needs nothing of the environment).
    public var requirements: SyncRequirements
    /// The app-defined conditions that must hold before an attempt starts.
    public var conditions: Set<SyncCondition>
    /// The priority among runnable jobs.
    public var priority: SyncJobPriority
    /// How long after submission the job becomes eligible; `nil` for at once. A durable job keeps it as
    /// a wall-clock instant, so the time the app was not running counts too. A periodic job's first
    /// period begins after it; a job with a ``calendar`` or a ``fileTrigger`` may not have one above zero (their
    /// occurrences and quiet period say when they run).
    public var delay: Duration?
    /// How long after submission the first attempt must have started; the job expires otherwise. Zero:
    /// it expires unless it starts as it is submitted.
    public var startDeadline: Duration?
    /// How long one attempt may run before it is cancelled and counted as failed.
    public var runTimeout: Duration?
    /// How failures are retried.
    public var retry: RetryPolicy
    /// What happens when the requirements stop holding while an attempt runs.
    public var onRequirementsLost: RequirementsLostPolicy
    /// A key of which at most one unfinished job exists (across restarts too, for durable jobs).
    public var uniqueKey: String?
    /// What happens when an unfinished job already has ``uniqueKey``.
    public var onDuplicate: DuplicatePolicy
    /// A group whose jobs run one at a time, in submission order.
    public var serialGroup: String?
    /// Labels for ``SyncScheduler/cancel(tag:)`` and for display.
    public var tags: Set<String>
    /// The jobs that must succeed before this one starts, by identifier, in the order their outputs
    /// reach ``SyncJobContext/inputs``. Each must be unfinished, or finished and kept in the history, when
    /// this job is submitted (``SyncScheduler/submit(chain:)`` submits a chain in order), so a cycle can
    /// only be a job naming itself, which is rejected like an unknown id. When one fails, is cancelled or
    /// expires, this job fails with ``SyncJobError/dependencyDidNotSucceed(id:outcome:)`` naming it, and
    /// so do the jobs that depend on this one.
    public var dependsOn: [SyncJob.ID]
    /// Makes the job periodic: it runs once per period until it is cancelled; `nil` for a one-off job.
    public var period: SyncJobPeriod?
    /// Makes the job run on a wall-clock calendar (every day at 02:00, Mondays at 18:30) until it is
    /// cancelled; `nil` for a job without one. Exclusive with ``period``.
    public var calendar: SyncCalendarSchedule?
    /// Makes the job run when files under its paths change, once the changes have been quiet for the
    /// trigger's quiet period, until it is cancelled (see ``SyncFileTrigger``); `nil` for a job without
    /// one. Exclusive with ``period`` and ``calendar``.
    public var fileTrigger: SyncFileTrigger?
    /// Fallbacks for requirements or conditions the job has waited for too long: each drops or replaces
    /// one of them once the job has waited for its time (see ``SyncJobRelaxation``); empty for none.
    public var relaxations: [SyncJobRelaxation]
    /// The networks the job may run on (see ``SyncNetworkAllowlist``); `nil` for any network. While it is
    /// set an attempt starts only when connected to a network it matches, and an attempt whose network
    /// stops matching follows ``onRequirementsLost``. A relaxation never drops it.
    public var allowedNetworks: SyncNetworkAllowlist? = nil
    /// When the wait of a restored job's relaxations began, as an offset from its submission (negative:
    /// before it, in an earlier run of the process); `nil` for a wait that begins at submission (set by
    /// the durable layer only).
    package var relaxationWaitStart: Duration?
    /// Where a restored job's period, calendar or file-trigger series continues; `nil` for a new series
    /// (set by the durable layer only).
    package var seriesResume: SyncSeriesResume?
    /// A dependency of a restored job that did not succeed in an earlier run: the job fails at once,
    /// naming it (set by the durable layer only).
    package var restoredDependencyFailure: RestoredDependencyFailure?

    /// Creates options; every parameter has the default a job gets when it does not mention it.
    ///
    /// - Parameters:
    ///   - requires: what must hold before an attempt starts; ``SyncRequirements/network`` by default.
    ///   - conditions: the app-defined conditions that must hold before an attempt starts.
    ///   - priority: the priority among runnable jobs.
    ///   - delay: how long after submission the job becomes eligible.
    ///   - startDeadline: how long after submission the first attempt must have started (zero: it starts as
    ///     it is submitted or expires).
    ///   - runTimeout: how long one attempt may run.
    ///   - retry: how failures are retried.
    ///   - onRequirementsLost: what happens when the requirements stop holding during an attempt.
    ///   - uniqueKey: a key of which at most one unfinished job exists.
    ///   - onDuplicate: what happens when an unfinished job already has the key.
    ///   - serialGroup: a group whose jobs run one at a time, in submission order.
    ///   - tags: labels for cancellation and display.
    ///   - dependsOn: the jobs that must succeed before this one starts.
    ///   - period: how the job repeats; `nil` for a one-off job.
    ///   - relaxations: fallbacks for requirements the job has waited for too long.
    public init(
        requires: SyncRequirements = .network,
        conditions: Set<SyncCondition> = [],
        priority: SyncJobPriority = .normal,
        delay: Duration? = nil,
        startDeadline: Duration? = nil,
        runTimeout: Duration? = nil,
        retry: RetryPolicy = .none,
        onRequirementsLost: RequirementsLostPolicy = .cancelAndRequeue,
        uniqueKey: String? = nil,
        onDuplicate: DuplicatePolicy = .keepExisting,
        serialGroup: String? = nil,
        tags: Set<String> = [],
        dependsOn: [SyncJob.ID] = [],
        period: SyncJobPeriod? = nil,
        relaxations: [SyncJobRelaxation] = []
    ) {
        self.requirements = requires
        self.conditions = conditions
        self.priority = priority
        self.delay = delay
        self.startDeadline = startDeadline
        self.runTimeout = runTimeout
        self.retry = retry
        self.onRequirementsLost = onRequirementsLost
        self.uniqueKey = uniqueKey
        self.onDuplicate = onDuplicate
        self.serialGroup = serialGroup
        self.tags = tags
        self.dependsOn = dependsOn
        self.period = period
        self.relaxations = relaxations
    }

    /// The first problem with the options, naming the field and its value, or `nil` when they are valid.
    ///
    /// The one place where options are checked: every kind of submission (closure, durable, restored)
    /// goes through it.
    package var validationError: SyncJobRefusal? {
        if conditions.contains(where: { !$0.isValid }) {
            return .option("conditions", nil, "conditions must not contain an empty name")
        }
        if let delay, delay < .zero { return .option("delay", "\(delay)", "delay must not be negative, got \(delay)") }
        if let startDeadline, startDeadline < .zero {
            return .option(
                "startDeadline", "\(startDeadline)", "startDeadline must not be negative, got \(startDeadline)")
        }
        if let runTimeout, runTimeout <= .zero {
            return .option("runTimeout", "\(runTimeout)", "runTimeout must be positive, got \(runTimeout)")
        }
        if let refusal = retry.validationError { return refusal }
        if let (field, value) = firstDuration(where: { $0 > Self.longestDuration }) {
            return .option(
                field, "\(value)", "\(field) must be at most \(Self.longestDuration) (Int64.max seconds), got \(value)")
        }
        if let uniqueKey, uniqueKey.isEmpty { return .option("uniqueKey", "\"\"", "uniqueKey must not be empty") }
        if let serialGroup, serialGroup.isEmpty {
            return .option("serialGroup", "\"\"", "serialGroup must not be empty")
        }
        if tags.contains("") { return .option("tags", "\"\"", "tags must not contain an empty tag") }
        if dependsOn.contains("") { return .option("dependsOn", "\"\"", "dependsOn must not contain an empty id") }
        if let repeated = Self.firstRepeated(dependsOn) {
            var refusal = SyncJobRefusal.option("dependsOn", "\"\(repeated)\"", "dependsOn names \"\(repeated)\" twice")
            refusal.relatedJobs = [repeated]
            return refusal
        }
        if let refusal = relaxationsError { return refusal }
        if let refusal = allowedNetworks?.validationError { return refusal }
        if let calendar {
            if let refusal = calendar.validationError { return refusal }
            if let period {
                return .option(
                    "period", "\(period.interval)",
                    "period must be nil for a job with a calendar, got \(period.interval)")
            }
            if let delay, delay > .zero {
                return .option(
                    "delay", "\(delay)",
                    "delay must be nil for a job with a calendar (its occurrences say when it runs), got \(delay)")
            }
        }
        if let refusal = fileTriggerError { return refusal }
        if period != nil || calendar != nil || fileTrigger != nil {
            if let refusal = period?.validationError { return refusal }
            if let startDeadline {
                return .option(
                    "startDeadline", "\(startDeadline)",
                    "startDeadline must be nil for a periodic job (each period has its window), got \(startDeadline)")
            }
            if let serialGroup {
                return .option(
                    "serialGroup", "\"\(serialGroup)\"",
                    "serialGroup must be nil for a periodic job (a series would hold its turn), got \"\(serialGroup)\"")
            }
            if onDuplicate == .append || onDuplicate == .appendOrReplace {
                return .option(
                    "onDuplicate", "\(onDuplicate)",
                    "onDuplicate must not be \(onDuplicate) for a periodic job (a series never succeeds)")
            }
        }
        return nil
    }

    /// The first problem with ``fileTrigger``: an invalid trigger, or one combined with a period, a
    /// calendar or a delay.
    private var fileTriggerError: SyncJobRefusal? {
        guard let fileTrigger else { return nil }
        if let refusal = fileTrigger.validationError { return refusal }
        if let period {
            return .option(
                "period", "\(period.interval)",
                "period must be nil for a job with a fileTrigger, got \(period.interval)")
        }
        if calendar != nil {
            return .option("calendar", nil, "calendar must be nil for a job with a fileTrigger")
        }
        if let delay, delay > .zero {
            return .option(
                "delay", "\(delay)",
                "delay must be nil for a job with a fileTrigger (its quietPeriod says how long after a change it "
                    + "runs), got \(delay)")
        }
        return nil
    }

    /// The longest duration any option may hold: `.seconds(Int64.max)`, the "never" apps write.
    ///
    /// The scheduler adds options to clock readings and to each other; durations up to this bound keep
    /// every such sum far inside what a `Duration` holds.
    package static let longestDuration = Duration.seconds(Int64.max)

    /// The first duration the options hold that `matches`, with the name of its field, visiting the fields
    /// in the order they are declared: the one walk over a job's durations that range checks go through.
    ///
    /// It allocates nothing: every submission's check goes through it.
    package func firstDuration(where matches: (Duration) -> Bool) -> (field: String, value: Duration)? {
        if let delay, matches(delay) { return ("delay", delay) }
        if let startDeadline, matches(startDeadline) { return ("startDeadline", startDeadline) }
        if let runTimeout, matches(runTimeout) { return ("runTimeout", runTimeout) }
        switch retry.backoff {
        case .fixed(let delay):
            if matches(delay) { return ("retry.delay", delay) }
        case .exponential(let initial, _, let maxDelay):
            if matches(initial) { return ("retry.initial", initial) }
            if matches(maxDelay) { return ("retry.maxDelay", maxDelay) }
        }
        if let period {
            if matches(period.interval) { return ("period.interval", period.interval) }
            if matches(period.flex) { return ("period.flex", period.flex) }
        }
        if let calendar {
            if matches(calendar.window) { return ("calendar.window", calendar.window) }
            if matches(calendar.randomizedDelay) { return ("calendar.randomizedDelay", calendar.randomizedDelay) }
        }
        if let fileTrigger, matches(fileTrigger.quietPeriod) {
            return ("fileTrigger.quietPeriod", fileTrigger.quietPeriod)
        }
        for relaxation in relaxations where matches(relaxation.after) { return ("relaxations", relaxation.after) }
        return nil
    }

    /// The most relaxations one job may declare (the scheduler keeps which are in effect in one 64-bit word).
    package static let maximumRelaxations = 64

    /// The first problem with ``relaxations``: more than ``maximumRelaxations``, one that does not fit the
    /// job, or two that relax the same requirement or condition.
    private var relaxationsError: SyncJobRefusal? {
        if relaxations.count > Self.maximumRelaxations {
            return .option(
                "relaxations", "\(relaxations.count) relaxations",
                "relaxations: at most \(Self.maximumRelaxations) per job, got \(relaxations.count)")
        }
        var seen: Set<SyncJobRelaxation.Relaxed> = []
        for relaxation in relaxations {
            if let refusal = relaxation.validationError(requirements: requirements, conditions: conditions) {
                return refusal
            }
            if !seen.insert(relaxation.relaxed).inserted {
                return .option(
                    "relaxations", "\(relaxation.relaxed)", "relaxations relax \(relaxation.relaxed) twice")
            }
        }
        return nil
    }

    private static func firstRepeated(_ ids: [SyncJob.ID]) -> SyncJob.ID? {
        var seen: Set<SyncJob.ID> = []
        return ids.first { !seen.insert($0).inserted }
    }
}
