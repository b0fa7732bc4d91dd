/// Holds background sync jobs and starts each one the moment the environment satisfies it.
///
/// ```swift
/// let scheduler = SyncScheduler(environment: environment)
/// let handle = try scheduler.submit(
///     SyncJob(requires: .largeTransfer, retry: .exponential(maxAttempts: 3)) { context in
///         try await uploadPendingPhotos()
///     }
/// )
/// print(handle.state)                       // waiting for [unmetered], say
/// let outcome = try await handle.outcome()
/// ```
///
/// The actor is the public face; the decisions are made by a pure state machine behind a lock, on the
/// thread that reports each change, so a job starts as soon as the environment allows it. For the same
/// reason the synchronous entry points (`submit`, `cancel`, `snapshot`) are `nonisolated`: calling them
/// costs no hop to the actor, and they need no `await`. See the
/// documentation of ``SyncJob`` for each option and docs/ARCHITECTURE.md (§4) for the full rules.
public actor SyncScheduler {
    /// The scheduler's settings.
    public struct Configuration: Sendable {
        /// How many attempts may run at once; at least 1.
        public var maxConcurrentJobs: Int = 4
        /// The random source for retry jitter, returning numbers in `0..<1`; inject a fixed one in tests.
        public var randomSource: @Sendable () -> Double = { Double.random(in: 0..<1) }
        /// How many finished jobs are kept for ``SyncScheduler/jobs(matching:)`` and for dependencies.
        public var history = SyncJobHistoryRetention()

        /// Creates a configuration.
        public init(
            maxConcurrentJobs: Int = 4, randomSource: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
            history: SyncJobHistoryRetention = SyncJobHistoryRetention()
        ) {
            self.maxConcurrentJobs = maxConcurrentJobs
            self.randomSource = randomSource
            self.history = history
        }

        /// Throws ``SyncSchedulerError/invalidConfiguration(_:)`` naming the first invalid field.
        public func validate() throws(SyncSchedulerError) {
            if maxConcurrentJobs < 1 {
                throw .invalidConfiguration("maxConcurrentJobs must be at least 1, got \(maxConcurrentJobs)")
            }
            if let reason = history.validationError { throw .invalidConfiguration(reason) }
        }
    }

    /// The environment the scheduler follows.
    public nonisolated let environment: SyncEnvironment
    /// The scheduler's settings.
    public nonisolated let configuration: Configuration
    private nonisolated let core: SchedulerShell

    /// Creates a scheduler with the default configuration.
    ///
    /// - Parameters:
    ///   - environment: the environment whose status gates the jobs.
    ///   - clock: the clock for delays, deadlines, timeouts and backoff.
    ///   - wallClock: the wall clock calendar jobs are planned on (``SyncJobOptions/calendar``).
    ///   - fileWatcher: what watches the files of file-triggered jobs (``SyncJobOptions/fileTrigger``).
    public init(
        environment: SyncEnvironment, clock: any Clock<Duration> = ContinuousClock(),
        wallClock: any SyncWallClock = SystemWallClock(), fileWatcher: any FileChangeWatching = SystemFileWatcher()
    ) {
        self.environment = environment
        self.configuration = Configuration()
        self.core = SchedulerShell(
            environment: environment,
            maxConcurrentJobs: configuration.maxConcurrentJobs,
            clock: clock,
            random: configuration.randomSource,
            wallClock: wallClock,
            fileWatcher: fileWatcher
        )
    }

    /// Creates a scheduler with the given configuration; the clocks and the file watcher are those of
    /// ``init(environment:clock:wallClock:fileWatcher:)``.
    ///
    /// - Throws: ``SyncSchedulerError/invalidConfiguration(_:)`` when a field is invalid.
    public init(
        environment: SyncEnvironment,
        configuration: Configuration,
        clock: any Clock<Duration> = ContinuousClock(),
        wallClock: any SyncWallClock = SystemWallClock(),
        fileWatcher: any FileChangeWatching = SystemFileWatcher()
    ) throws(SyncSchedulerError) {
        try configuration.validate()
        self.environment = environment
        self.configuration = configuration
        self.core = SchedulerShell(
            environment: environment,
            maxConcurrentJobs: configuration.maxConcurrentJobs,
            clock: clock,
            random: configuration.randomSource,
            history: configuration.history,
            wallClock: wallClock,
            fileWatcher: fileWatcher
        )
    }

    /// A scheduler that goes away cancels its jobs: waiting jobs resolve ``SyncJobOutcome/cancelled`` at
    /// once, running ones have their tasks cancelled and resolve when they return.
    deinit {
        core.abandon()
    }

    /// Submits a job; it starts as soon as it is runnable.
    ///
    /// - Returns: the job's handle, or the existing job's handle when a job with the same unique key is
    ///   unfinished and the job's policy is ``DuplicatePolicy/keepExisting``.
    /// - Throws: ``SyncSchedulerError/invalidJob(_:)`` naming the invalid field (nothing queued changes),
    ///   or ``SyncSchedulerError/shutDown`` after ``shutdown(gracePeriod:)``.
    @discardableResult
    public nonisolated func submit(_ job: SyncJob) throws(SyncSchedulerError) -> SyncJobHandle {
        try core.submit(job)
    }

    /// Runs an operation in a slot once the requirements hold, and returns its result.
    ///
    /// Cancelling the calling task cancels the job: while it waits, at once; while it runs, through its
    /// task. The operation is not retried.
    /// - Throws: what the operation throws; `CancellationError` when cancelled; `SyncJobError.expired`
    ///   when it does not start within `startDeadline`; `SyncSchedulerError` when rejected.
    public func run<T: Sendable>(
        requiring requirements: SyncRequirements,
        conditions: Set<SyncCondition> = [],
        startDeadline: Duration? = nil,
        _ operation: @escaping @Sendable (SyncJobContext) async throws -> T
    ) async throws -> T {
        let result = LockedState<T?>(nil)
        let job = SyncJob(requires: requirements, conditions: conditions, startDeadline: startDeadline) { context in
            let value = try await operation(context)
            result.withLock { $0 = value }
        }
        let handle = try core.submit(job)
        let outcome = await withTaskCancellationHandler {
            await handle.outcomeIgnoringCancellation()
        } onCancel: {
            handle.cancel()
        }
        switch outcome {
        case .succeeded:
            guard let value = result.withLock({ $0 }) else { preconditionFailure("succeeded without a result") }
            return value
        case .failed(let error): throw error
        case .cancelled: throw CancellationError()
        case .expired: throw SyncJobError.expired
        }
    }

    /// Cancels the unfinished job with the given identifier; an unknown identifier is ignored.
    public nonisolated func cancel(jobID: SyncJob.ID) {
        core.cancel(id: jobID)
    }

    /// Cancels every unfinished job with the given tag.
    public nonisolated func cancel(tag: String) {
        core.cancel(tag: tag)
    }

    /// Submits jobs that run one after another: each depends on the one before it (in addition to its
    /// own `dependsOn`), gets its output as an input, and fails with
    /// ``SyncJobError/dependencyDidNotSucceed(id:outcome:)`` when an earlier one does not succeed.
    ///
    /// Every job is checked before any is submitted.
    /// - Returns: the jobs' handles, in order.
    /// - Throws: ``SyncSchedulerError/invalidJob(_:)`` naming the job and field; a job rejected by the
    ///   scheduler (its id in use) leaves the earlier ones submitted.
    @discardableResult
    public nonisolated func submit(chain: [SyncJob]) throws(SyncSchedulerError) -> [SyncJobHandle] {
        var linked: [SyncJob] = []
        for job in chain {
            var job = job
            if let previous = linked.last, !job.dependsOn.contains(previous.id) { job.dependsOn.append(previous.id) }
            linked.append(job)
        }
        return try core.submit(contentsOf: linked)
    }

    /// Submits many jobs at once: the same as calling ``submit(_:)`` for each in order, with less locking.
    ///
    /// The scheduler takes its lock once for every 64 jobs instead of once per job, so an app that
    /// queues a crowd of jobs (a folder's files, a mailbox's messages) spends less time submitting and holds up running jobs less. Each job is
    /// judged exactly as ``submit(_:)`` judges it, in order: with the environment at that moment, its
    /// priority, dependencies (on any earlier job, in this call or before) and unique key.
    ///
    /// ```swift
    /// let handles = try scheduler.submit(contentsOf: files.map { file in
    ///     SyncJob(id: "upload-\(file.name)", requires: [.network, .unmetered]) { _ in try await upload(file) }
    /// })
    /// ```
    ///
    /// Every job is checked before any is submitted.
    /// - Returns: the jobs' handles, in order (for a job whose unique key keeps an existing job, that
    ///   job's handle).
    /// - Throws: ``SyncSchedulerError/invalidJob(_:)`` naming the job and field (nothing is submitted);
    ///   a job rejected by the scheduler (its id in use, or ``SyncSchedulerError/shutDown``) leaves the
    ///   earlier ones submitted and the later ones not.
    @discardableResult
    @inlinable
    public nonisolated func submit(contentsOf jobs: some Sequence<SyncJob>) throws(SyncSchedulerError)
        -> [SyncJobHandle]
    {
        // Inlinable so that the copy into an array is specialized for the caller's sequence: made inside
        // this module, it went through the sequence's witnesses one job at a time.
        try submit(array: Array(jobs))
    }

    /// Submits the jobs of ``submit(contentsOf:)``, once they are in an array.
    @usableFromInline
    nonisolated func submit(array jobs: [SyncJob]) throws(SyncSchedulerError) -> [SyncJobHandle] {
        try core.submit(contentsOf: jobs)
    }

    /// Cancels every unfinished job with the unique key (all of them, when jobs were appended).
    public nonisolated func cancel(uniqueKey: String) {
        core.cancel(uniqueKey: uniqueKey)
    }

    /// The unfinished jobs (in submission order) and then the finished ones the history keeps (oldest
    /// first) that match the query, with their state, outcome, attempts, timings and progress.
    ///
    /// ```swift
    /// for job in scheduler.jobs(matching: SyncJobQuery(uniqueKeys: ["sync-inbox"])) { print(job) }
    /// ```
    public nonisolated func jobs(matching query: SyncJobQuery = .all) -> [SyncJobInfo] {
        core.jobs(matching: query)
    }

    /// The job with the identifier: the unfinished one, else the latest kept in the history.
    public nonisolated func job(id: SyncJob.ID) -> SyncJobInfo? {
        let found = core.jobs(matching: SyncJobQuery(ids: [id]))
        return found.first { !$0.state.isTerminal } ?? found.last
    }

    /// Cancels every unfinished job.
    public nonisolated func cancelAll() {
        core.cancelAll()
    }

    /// A new multicast stream of the scheduler's events, from now on; nothing is dropped.
    public nonisolated var events: AsyncStream<SyncSchedulerEvent> {
        core.events.stream()
    }

    /// Every unfinished job with its state and what it waits for.
    public nonisolated func snapshot() -> SyncSchedulerSnapshot {
        core.snapshot()
    }

    /// Stops the scheduler: `submit` throws from now on, waiting jobs are cancelled, running attempts get
    /// `gracePeriod` to finish and are then cancelled with ``SyncJobStopReason/shutdown``; returns when every job has ended, after which the
    /// event streams end.
    ///
    /// An attempt that fails meanwhile with attempts left ends its job as cancelled, as the retry it
    /// would have waited for is not run (``SyncSchedulerEvent/retryScheduled(id:attempt:delay:)`` is
    /// emitted first, with the backoff it would have waited).
    public func shutdown(gracePeriod: Duration) async {
        let running = core.beginShutdown()
        if gracePeriod > .zero && !running.isEmpty {
            let timeline = core.timeline
            let deadline = timeline.now() + min(gracePeriod, .seconds(Int64.max))
            let core = core
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    for handle in running { _ = try? await handle.outcome() }
                }
                group.addTask {
                    try? await timeline.sleep(deadline)
                }
                await group.next()
                core.stopForShutdown()
                group.cancelAll()
            }
        }
        core.stopForShutdown()
        await core.waitUntilIdle()
        core.finish()
    }

    /// The number of queue entries the dispatcher has looked at; for tests of the cost of a change.
    package nonisolated var jobsExamined: Int { core.jobsExamined }

    /// The number of attempts running now.
    package nonisolated var runningCount: Int { core.runningCount }

    /// Differences between the scheduler's state and what its handles show; empty unless there is a bug.
    package nonisolated func consistencyViolations() -> [String] { core.consistencyViolations() }

    /// The shell, for layers built on the scheduler (durable jobs) and their event hooks.
    package nonisolated var schedulerCore: SchedulerShell { core }
}
