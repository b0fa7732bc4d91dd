import Synchronization

/// The scheduler's shell: the state machine behind a lock, and the code that performs its actions.
///
/// Every input reaches the state machine on the thread that produced it: an environment change is
/// handled on the thread that observed it, so a job whose requirements it satisfies has its task
/// created right there, with no hop through an actor or a stream. The timer is re-armed inside the
/// critical section (so armings never overtake each other), and so is the first task it starts; any
/// further tasks are created right after it, by the same thread, and registered in one more (see
/// ``AttemptTask``); tasks are cancelled outside it.
///
/// Events, handle resolutions and idle waiters leave through an ordered outbox: a critical section
/// appends them, and after the lock is released one thread at a time (the first to find nobody
/// delivering) hands them out in order: each event to the event hooks (``addEventHook(_:)``, the
/// durable-job layer's journal) and then to the event stream, each resolution to its handle's
/// waiters. So no hook, stream or continuation ever runs under the scheduler's lock, and everyone sees
/// one order: a job's events arrive in the order they happened, and a handle resolves only after
/// every hook has seen the event that resolved it.
package final class SchedulerShell: Sendable {
    struct Payload: Sendable {
        let operation: SyncJob.Operation
        let handle: SyncJobHandle
        /// What the submitter attached to the job; handed to the event hooks with each of its events.
        let attachment: (any AnyObject & Sendable)?
    }

    typealias Machine = SchedulerStateMachine<Payload>

    private struct State {
        var machine: Machine
        var attempts = KeyTable<AttemptTask>()
        /// The serial of the last attempt whose task was left to create after its critical section.
        var launchSerial: UInt64 = 0
        var timer: Task<Void, Never>?
        var shutdownWaiters: [CheckedContinuation<Void, Never>] = []
        /// What waits to be handed out after the critical sections that produced it, in order.
        var outbox: [Outgoing] = []
        var eventCount: UInt64 = 0
        /// The environment broadcast's generation that the machine's copy of the status is at least as new
        /// as; `UInt64.max` before the first read.
        var statusGeneration = UInt64.max
        /// The file watches of the unfinished file-triggered jobs, cancelled when the job ends.
        var fileWatches: [Machine.Key: any FileWatchCancelling] = [:]
    }

    /// A running attempt's task, or the mark of one still being created.
    ///
    /// The first new task of a critical section is created inside it, so that a single start (a status
    /// change, a submission) enqueues its job as early as it can. The others (a batch of a large release)
    /// are created after it, so that the lock is not held while 255 more tasks are allocated and enqueued
    /// (each enqueue may wake a thread, and with it an attempt's end, which then waits for the lock); the
    /// thread that created them registers them in a critical section of its own. A stop requested
    /// meanwhile is kept in the mark and carried out at registration.
    private enum AttemptTask {
        case running(Task<Void, Never>)
        /// The task of launch `serial` is being created; `cancelled` once a stop was requested.
        case creating(serial: UInt64, cancelled: Bool)
    }

    /// One item of the outbox.
    private enum Outgoing {
        case event(SchedulerEventDelivery)
        case resolution(SyncJobHandle, SyncJobOutcome)
        case idle([CheckedContinuation<Void, Never>])
    }

    /// Work left for after the critical section.
    private struct Deferred {
        var finishedHandles = InlineFirstList<SyncJobHandle>()
        var cancellations: [Task<Void, Never>] = []
        /// The outbox taken by this thread, when it became the one delivering.
        var delivery: [Outgoing]?
        /// The attempt that the finishing attempt's task runs next, instead of a new task being created.
        var next: Attempt?
        /// The attempts whose tasks this thread creates after the lock. One critical section gave them
        /// consecutive launch serials (see ``AttemptTask``), from `firstLaunchSerial` on.
        var launches: [Attempt] = []
        var firstLaunchSerial: UInt64 = 0
        /// Whether the machine stopped at its batch size with more attempts to start.
        var moreToStart = false
        /// What left the machine in the critical section: released with this value, after the lock, so
        /// that a deinitializer among a job's captures may call the scheduler.
        var retired: Machine.Retired?
        /// Outputs of earlier attempts that a start made handles forget; released the same way.
        var forgottenOutputs: [any Sendable] = []
        /// States queued for handles' ``SyncJobHandle/states`` streams, yielded after the lock: a stream's
        /// consumer may be cancelled meanwhile, and its cancellation handler may call this scheduler.
        var stateDeliveries: [StatusBroadcast<SyncJobState>.PendingDelivery] = []
        /// File watches of jobs that ended, cancelled after the lock.
        var endedWatches: [any FileWatchCancelling] = []
    }

    /// One attempt to run: what an attempt's task needs to call the job's body and report its end.
    private struct Attempt: Sendable {
        let key: Machine.Key
        let number: Int
        let operation: SyncJob.Operation
        let context: SyncJobContext
    }

    /// An attempt handed to the task of the attempt that just ended: boxed, so that the task's frame holds
    /// one reference rather than the attempt (see ``attemptTask(_:)``).
    private final class NextAttempt: Sendable {
        let attempt: Attempt

        init(_ attempt: consuming Attempt) {
            self.attempt = attempt
        }
    }

    /// The most attempts one critical section starts. A change that releases many jobs starts them in
    /// batches of this size, releasing the lock in between, so the first ones run (and finishing ones
    /// report) while later ones are still being started.
    static let startsPerCriticalSection = 256

    /// The most jobs one critical section of ``submit(contentsOf:)`` submits, so that finishing attempts
    /// and status changes get the lock between batches.
    static let submitsPerCriticalSection = 64

    /// How many attempts one task runs back to back before it yields its thread to other tasks.
    private static let attemptsPerYield = 16

    /// A function boxed in a struct: reading a bare function out of a generic `inout` wraps it in one
    /// more reabstraction thunk on every access, so the calls would get slower and the stack deeper.
    private struct EventHook {
        let id: UInt64
        let call: @Sendable (SchedulerEventDelivery) -> Void
    }

    private struct Hooks {
        var list: [EventHook] = []
        var nextID: UInt64 = 0
    }

    let environment: SyncEnvironment
    /// The environment's combined status, read by every critical section that refreshes the machine's
    /// copy: kept here, so that the read does not retain and release the environment, whose reference
    /// counts live in a side table (it is weakly referenced) and take the runtime's slow path.
    private let statusBroadcast: StatusBroadcast<SyncEnvironmentStatus>
    let events = EventBroadcast<SyncSchedulerEvent>()
    let timeline: ClockTimeline
    private let random: @Sendable () -> Double
    private let state: LockedState<State>
    /// Who hands the outbox out: bit 0 is set while a thread does, bit 1 when items were added to the
    /// outbox since that thread last took it. Changed by appenders only under the lock; the delivering
    /// thread clears it without the lock when nothing came meanwhile (``deliverAll(_:)``), so a critical
    /// section that produced events costs one lock acquisition, not two.
    private let delivery = Atomic<UInt8>(0)
    /// How many attempt tasks were created whose first attempt has not begun yet (they wait in the
    /// executor's queue). While some wait, an attempt that ends lets them begin before it records its end.
    private let unbegun = Atomic<Int>(0)
    private let observer = LockedState<UInt64?>(nil)
    /// The wall clock calendar jobs are planned on.
    let wallClock: any SyncWallClock
    /// Watches the files of file-triggered jobs (``SyncJobOptions/fileTrigger``); the durable layer asks it
    /// too whether a restored job's files changed while no process watched them.
    package let fileWatcher: any FileChangeWatching
    /// The task that follows the wall clock's changes.
    private let wallFollower = LockedState<Task<Void, Never>?>(nil)
    private let hooks = LockedState(Hooks())
    /// The number of hooks, stored inside the critical section that changes it, so that ``perform`` can
    /// tell without a lock whether an event would reach anyone.
    private let hookCount = Atomic<Int>(0)

    #if DEBUG
        /// Debug builds only: called on a thread that launches attempts, after their tasks are created and
        /// before they are registered, so tests can cancel or end an attempt in between.
        let launchProbe = LockedState<(@Sendable () -> Void)?>(nil)
    #endif

    init(
        environment: SyncEnvironment,
        maxConcurrentJobs: Int,
        clock: any Clock<Duration>,
        random: @escaping @Sendable () -> Double,
        history: SyncJobHistoryRetention = .init(),
        wallClock: any SyncWallClock = SystemWallClock(),
        fileWatcher: any FileChangeWatching = SystemFileWatcher()
    ) {
        self.environment = environment
        self.fileWatcher = fileWatcher
        self.statusBroadcast = environment.statusBroadcast
        self.timeline = ClockTimeline(clock)
        self.random = random
        self.wallClock = wallClock
        var machine = Machine(
            maxConcurrentJobs: maxConcurrentJobs, status: environment.status, retention: history,
            startsPerInput: Self.startsPerCriticalSection)
        machine.wall = CalendarWall(
            wallNow: wallClock.now(), zone: wallClock.currentTimeZone(), now: timeline.now())
        self.state = LockedState(State(machine: machine))
        let token = environment.statusBroadcast.addObserver { [weak self] _ in self?.statusChanged() }
        observer.withLock { $0 = token }
        statusChanged()
        let changes = wallClock.changes()
        let follower = Task { [weak self] in
            for await _ in changes {
                guard let self else { return }
                self.wallClockChanged()
            }
        }
        wallFollower.withLock { $0 = follower }
    }

    /// Takes a new reading of the wall clock and hands it to the machine, which plans its calendar
    /// jobs again (the wall clock was set, or the time zone changed).
    func wallClockChanged() {
        input { machine, now in
            machine.wallClockChanged(
                CalendarWall(wallNow: wallClock.now(), zone: wallClock.currentTimeZone(), now: now), now: now)
        }
    }

    deinit {
        wallFollower.withLock { $0 }?.cancel()
        if let token = observer.withLock({ $0 }) {
            environment.statusBroadcast.removeObserver(token)
        }
        locked { $0.timer }?.cancel()
        events.finish()
    }

    // MARK: - Inputs

    /// Submits a job; `attachment` is handed to the event hooks with each of the job's events,
    /// `initialFailures` counts attempts already consumed and `initialStopReason` is why the latest of
    /// them was stopped (a job continued after a restart), shown until its next attempt starts.
    package func submit(
        _ job: SyncJob, attachment: (any AnyObject & Sendable)? = nil, initialFailures: Int = 0,
        initialStopReason: SyncJobStopReason? = nil
    ) throws(SyncSchedulerError) -> SyncJobHandle {
        if let refusal = job.validationError { throw .invalidJob(refusal) }
        let submission = try prepare(job, attachment: attachment)
        // The handle is not shared yet: the reason is set before anyone can read it.
        if let initialStopReason { submission.handle.setStopReason(initialStopReason) }
        let now = timeline.now()
        var deferred = Deferred()
        let entry: Entry = locked { state in
            // The environment may have changed while its observers (this scheduler's among them) are still
            // being called: the job is judged on the status now, not on the last one this scheduler heard.
            var actions = refreshStatus(&state, now: now)
            let entry = enter(
                submission, initialFailures: initialFailures, initialStopReason: initialStopReason, now: now,
                in: &state, actions: &actions)
            perform(consume actions, in: &state, into: &deferred)
            return entry
        }
        complete(consume deferred)
        return try conclude(submission, entry)
    }

    /// Submits jobs in order, as that many calls of ``submit(_:attachment:initialFailures:)`` would, in
    /// one critical section per ``submitsPerCriticalSection`` jobs instead of one per job.
    ///
    /// Every job is checked before any is submitted. A job the state machine rejects (its id in use, the
    /// scheduler shut down) ends the batch: the jobs before it stay submitted, the later ones are not.
    package func submit(contentsOf jobs: [SyncJob]) throws(SyncSchedulerError) -> [SyncJobHandle] {
        for job in jobs {
            if let refusal = job.validationError { throw .invalidJob(refusal.namingTheJob) }
        }
        var submissions: [Submission] = []
        submissions.reserveCapacity(jobs.count)
        do {
            for job in jobs { submissions.append(try prepare(job, attachment: nil)) }
        } catch {
            for submission in submissions { submission.abandon(environment.demand) }
            throw error
        }
        var handles: [SyncJobHandle] = []
        handles.reserveCapacity(submissions.count)
        var first = 0
        while first < submissions.count {
            let range = first..<min(first + Self.submitsPerCriticalSection, submissions.count)
            let now = timeline.now()
            var deferred = Deferred()
            let entries: [Entry] = locked { state in
                var actions = refreshStatus(&state, now: now)
                var entries: [Entry] = []
                entries.reserveCapacity(range.count)
                for index in range {
                    let entry = enter(submissions[index], initialFailures: 0, now: now, in: &state, actions: &actions)
                    entries.append(entry)
                    if case .rejected = entry { break }
                }
                perform(consume actions, in: &state, into: &deferred)
                return entries
            }
            complete(consume deferred)
            for (offset, entry) in entries.enumerated() {
                if case .rejected = entry {
                    // The jobs after the rejected one were never entered: their demand ends here.
                    for later in submissions[(first + offset + 1)...] { later.abandon(environment.demand) }
                }
                handles.append(try conclude(submissions[first + offset], entry))
            }
            first = range.upperBound
        }
        return handles
    }

    /// A job made ready for the critical section: everything its submission can build without the lock,
    /// which is what limits throughput.
    private struct Submission {
        let handle: SyncJobHandle
        let payload: Payload
        let spec: SyncJob.Spec
        /// Whether the job needs a demand-driven source (free space), whose demand it holds from before
        /// it is judged until it ends.
        let demands: Bool
        /// The watch of a file-triggered job's files, started before the job is judged; the scheduler
        /// keeps it while the job is unfinished.
        let watch: (any FileWatchCancelling)?

        func endDemand(_ demand: RequirementDemand) {
            if demands { demand.release(handle.requirements) }
        }

        /// Ends what the submission holds when the job is not entered: its demand and its file watch.
        func abandon(_ demand: RequirementDemand) {
            endDemand(demand)
            watch?.cancel()
        }
    }

    /// What the state machine made of one submission.
    private enum Entry {
        case accepted
        case existing(SyncJobHandle)
        case rejected(SyncSchedulerError)
    }

    private func prepare(
        _ job: SyncJob, attachment: (any AnyObject & Sendable)?
    ) throws(SyncSchedulerError) -> Submission {
        let handle = SyncJobHandle(
            id: job.id,
            requirements: job.requirements,
            conditions: job.conditions,
            allowedNetworks: job.options.allowedNetworks,
            environment: environment,
            scheduler: self
        )
        // The watch starts before the job is judged, outside the lock (it scans the trees); a watch that
        // cannot start refuses the job. Changes it reports before the job has a key are not counted: the
        // series begins by waiting for a change anyway.
        var watch: (any FileWatchCancelling)?
        if let trigger = job.fileTrigger {
            do {
                watch = try fileWatcher.watch(paths: trigger.paths) { [weak self, weak handle] in
                    guard let self, let key = handle?.schedulerKey else { return }
                    self.filesChanged(key: key)
                }
            } catch {
                throw .invalidJob(
                    .option("fileTrigger.paths", error.path, "fileTrigger.paths: \(error)").refusing(job.id))
            }
        }
        let demands = !job.requirements.isDisjoint(with: .demandDriven)
        // A demand-driven source starts reading before the job is judged; the job's terminal state ends the
        // demand (`complete`).
        if demands { environment.demand.retain(job.requirements) }
        return Submission(
            handle: handle, payload: Payload(operation: job.operation, handle: handle, attachment: attachment),
            spec: job.spec, demands: demands, watch: watch)
    }

    /// Hands one submission to the state machine, in the critical section; its actions join `actions`.
    private func enter(
        _ submission: Submission, initialFailures: Int, initialStopReason: SyncJobStopReason? = nil, now: Duration,
        in state: inout State, actions: inout [Machine.Action]
    ) -> Entry {
        switch state.machine.submit(
            submission.spec, payload: submission.payload, now: now, initialFailures: initialFailures,
            initialStopReason: initialStopReason)
        {
        case .accepted(let key, let accepted):
            submission.handle.setKey(key)
            if let watch = submission.watch { state.fileWatches[key] = watch }
            if actions.isEmpty {
                actions = accepted
            } else {
                actions += accepted
                state.machine.recycle(accepted)
            }
            return .accepted
        case .existing(let existing): return .existing(existing.handle)
        case .rejected(let error): return .rejected(error)
        }
    }

    /// The handle a submission returns, after its critical section.
    private func conclude(_ submission: Submission, _ entry: Entry) throws(SyncSchedulerError) -> SyncJobHandle {
        switch entry {
        case .accepted: return submission.handle
        case .existing(let handle):
            submission.abandon(environment.demand)
            return handle
        case .rejected(let error):
            submission.abandon(environment.demand)
            throw error
        }
    }

    /// Takes a change to the files of the job with `key`, reported by its watch on the watcher's thread.
    func filesChanged(key: Machine.Key) {
        input { machine, now in machine.filesChanged(key: key, now: now) }
    }

    func cancel(id: SyncJob.ID) {
        input { machine, now in machine.cancel(id: id, now: now) }
    }

    /// Cancels the job with the key; what a handle's `cancel()` calls.
    func cancel(key: Machine.Key) {
        input { machine, now in machine.cancel(key: key, now: now) }
    }

    func cancel(tag: String) {
        input { machine, now in machine.cancel(tag: tag, now: now) }
    }

    func cancelAll() {
        input { machine, now in machine.cancelAll(now: now) }
    }

    /// Cancels every unfinished job of the unique key.
    func cancel(uniqueKey: String) {
        input { machine, now in machine.cancel(uniqueKey: uniqueKey, now: now) }
    }

    /// Where the relaxations of the unfinished job with the key stand now; empty once it has finished.
    func relaxations(of key: Machine.Key) -> [SyncJobRelaxation.Status] {
        let now = timeline.now()
        return locked { state in
            state.machine.jobs[key].map { state.machine.relaxationStatuses(of: $0, now: now) } ?? []
        }
    }

    /// The unfinished and kept jobs that match the query.
    func jobs(matching query: SyncJobQuery) -> [SyncJobInfo] {
        let now = timeline.now()
        return locked { $0.machine.jobs(matching: query, now: now) { $0.handle.progress } }
    }

    /// Stops taking jobs and cancels every job not running; returns the handles of the running ones.
    func beginShutdown() -> [SyncJobHandle] {
        let running: [SyncJobHandle] = locked { state in
            state.machine.running.compactMap { state.machine.jobs[$0]?.payload.handle }
        }
        input { machine, now in machine.shutdown(now: now) }
        return running
    }

    /// Cancels every unfinished job for a shutdown: running attempts are stopped with
    /// ``SyncJobStopReason/shutdown``.
    func stopForShutdown() {
        input { machine, now in machine.stopForShutdown(now: now) }
    }

    /// Shuts down at once when the scheduler is released: every job is cancelled, nothing new starts.
    func abandon() {
        stopForShutdown()
        finish()
    }

    /// Ends the scheduler's life after shutdown: no timer stays armed, the event streams end, and the
    /// environment is no longer followed.
    func finish() {
        if let token = observer.withLock({ token in
            defer { token = nil }
            return token
        }) {
            environment.statusBroadcast.removeObserver(token)
        }
        locked { state in
            defer { state.timer = nil }
            return state.timer
        }?.cancel()
        events.finish()
    }

    /// Differences between the state machine and what the handles show, for the reliability suite.
    ///
    /// Handles are updated inside the same critical section as the machine, so any difference is a bug.
    func consistencyViolations() -> [String] {
        locked { state in
            var violations: [String] = []
            let machine = state.machine
            if machine.running.count > machine.maxConcurrentJobs {
                violations.append("\(machine.running.count) attempts running, more than \(machine.maxConcurrentJobs)")
            }
            for job in machine.jobs.values {
                let handle = job.payload.handle
                let expected = JobLifecycle.handleState(
                    job.phase, attempt: job.attempt, nextAttempt: job.nextAttempt, blockers: machine.blockers(of: job))
                if handle.storedState != expected {
                    violations.append("\(handle.id): machine says \(expected), handle says \(handle.storedState)")
                }
                if handle.finalOutcome != nil {
                    violations.append("\(handle.id) is unfinished but its handle resolved")
                }
                if (job.phase == .running) != (state.attempts[job.key] != nil) {
                    violations.append(
                        "\(handle.id): running is \(job.phase == .running) but a task exists is \(state.attempts[job.key] != nil)"
                    )
                }
            }
            return violations
        }
    }

    func snapshot() -> SyncSchedulerSnapshot {
        let now = timeline.now()
        return locked { $0.machine.snapshot(now: now) { $0.handle.progress } }
    }

    /// The number of queue entries dispatch has examined so far.
    var jobsExamined: Int {
        locked { $0.machine.jobsExamined }
    }

    /// The number of attempts running now.
    var runningCount: Int {
        locked { $0.machine.running.count }
    }

    /// How many attempt tasks have been created and have not begun their first attempt.
    package var unbegunAttemptTasks: Int { unbegun.load(ordering: .relaxed) }

    /// Waits until no job is left in the scheduler.
    func waitUntilIdle() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let batch: [Outgoing]? = locked { state in
                if state.machine.jobCount > 0 {
                    state.shutdownWaiters.append(continuation)
                    return nil
                }
                // No job left; resume after the events still being handed out, in their order.
                state.outbox.append(.idle([continuation]))
                return takeOutboxIfIdle(&state)
            }
            if let batch { deliverAll(batch) }
        }
    }

    /// Adds a function called with every event from now on, in the scheduler's order, outside its lock,
    /// before the event reaches the event stream and before the handle it resolves resumes its waiters.
    ///
    /// Hooks are called one event at a time (never concurrently with each other), on the thread that
    /// happens to deliver the outbox; a hook may call the scheduler. Returns the token for
    /// ``removeEventHook(_:)``.
    package func addEventHook(_ hook: @escaping @Sendable (SchedulerEventDelivery) -> Void) -> UInt64 {
        hooks.withLock { hooks in
            hooks.nextID += 1
            hooks.list.append(EventHook(id: hooks.nextID, call: hook))
            hookCount.store(hooks.list.count, ordering: .releasing)
            return hooks.nextID
        }
    }

    /// Removes a hook added by ``addEventHook(_:)``.
    package func removeEventHook(_ token: UInt64) {
        hooks.withLock { hooks in
            hooks.list.removeAll { $0.id == token }
            hookCount.store(hooks.list.count, ordering: .releasing)
        }
    }

    /// The handle of the unfinished job that a submission with `uniqueKey` and the keep-existing policy
    /// would be given, if any.
    package func existingHandle(uniqueKey: String) -> SyncJobHandle? {
        locked { $0.machine.existingPayload(uniqueKey: uniqueKey)?.handle }
    }

    /// The handle of the key's last unfinished job: the one a job appended under the key would follow.
    package func lastHandle(uniqueKey: String) -> SyncJobHandle? {
        locked { state in state.machine.uniqueKeys[uniqueKey].flatMap { state.machine.jobs[$0]?.payload.handle } }
    }

    /// Whether an unfinished job has the identifier.
    package func hasUnfinishedJob(id: SyncJob.ID) -> Bool {
        locked { $0.machine.hasUnfinishedJob(id: id) }
    }

    // MARK: - Plumbing

    private func statusChanged() {
        var deferred = Deferred()
        locked { state in
            perform(refreshStatus(&state, now: timeline.now()), in: &state, into: &deferred)
        }
        complete(consume deferred)
    }

    /// Brings the machine's copy of the environment's status up to date, inside the critical section;
    /// returns the machine's actions (none when no change happened since the last refresh).
    ///
    /// The generation is read before the status, so the status read is at least as new as the
    /// generation recorded: a change that lands in between is read now and seen again next time.
    private func refreshStatus(_ state: inout State, now: Duration) -> [Machine.Action] {
        let broadcast = statusBroadcast
        let generation = broadcast.generation
        guard generation != state.statusGeneration else { return [] }
        state.statusGeneration = generation
        return state.machine.statusChanged(broadcast.value, now: now)
    }

    private func timerFired() {
        input { machine, now in machine.timerFired(now: now) }
    }

    /// Takes the end of an attempt, on the attempt's task; returns the attempt that this task runs next,
    /// if the end started one and the task may take it.
    ///
    /// The task may take a next attempt only when nothing was asked to stop the attempt that ended (no
    /// cancellation, timeout or loss of requirements): each of those cancels the attempt's task, possibly
    /// after this critical section, and a cancelled task cannot run another job. Such a stop is always
    /// recorded in the machine (as the job's `stop`) in the critical section that requests it, so checking
    /// it here, under the same lock, is enough.
    private func attemptFinished(
        _ key: Machine.Key, attempt: Int, result: Result<Void, any Error>
    ) -> NextAttempt? {
        let random = random
        var deferred = Deferred()
        locked { state in
            // A task not registered yet (its attempt ended before the thread that created it took the lock
            // again) is not known here, so it cannot be handed the next attempt.
            var task: Task<Void, Never>?
            if case .running(let running) = state.attempts.removeValue(forKey: key) { task = running }
            let reusable = task != nil && state.machine.jobs[key]?.stop == nil && !Task.isCancelled
            let actions = state.machine.attemptFinished(
                key,
                attempt: attempt,
                result: result,
                now: timeline.now(),
                random: random
            )
            perform(consume actions, in: &state, into: &deferred, reusing: reusable ? task : nil)
        }
        // Boxed after the lock (moved, not copied), so the critical section makes no allocation for it.
        var next: NextAttempt?
        if let attempt = deferred.next.take() { next = NextAttempt(consume attempt) }
        complete(consume deferred)
        return next
    }

    /// Creates the task that runs `first`, and then every attempt handed to it when one of its attempts
    /// ends (yielding its thread every ``attemptsPerYield`` attempts, so it never holds a thread for long).
    ///
    /// `first` moves into the task's closure and is run from there in place, so creating the task does not
    /// retain and release its references once more. The task's own frame holds no attempt: an attempt is
    /// several hundred bytes, and a frame that large does not fit the memory a new task starts with, which
    /// cost every new task two more allocations before its job's body ran. A next attempt comes boxed
    /// (``NextAttempt``) and is run by a function of its own, whose frame is allocated only when it is called.
    private func attemptTask(_ first: consuming Attempt) -> Task<Void, Never> {
        unbegun.add(1, ordering: .relaxed)
        return Task {
            self.unbegun.subtract(1, ordering: .relaxed)
            var next = await self.run(first)
            var count = 1
            while let box = next.take() {
                if count.isMultiple(of: Self.attemptsPerYield) { await Task.yield() }
                next = await self.run(boxed: box)
                count += 1
            }
        }
    }

    /// Runs one attempt's body and reports its end; returns the attempt this task runs next, if any.
    private func run(_ attempt: borrowing Attempt) async -> NextAttempt? {
        let result: Result<Void, any Error>
        do {
            try await attempt.operation(attempt.context)
            result = .success(())
        } catch {
            result = .failure(error)
        }
        // Attempts already started wait in the executor's queue behind this task (a change that released
        // many jobs at once): their bodies go first, and this end (its bookkeeping and its frees) after
        // them, once. Recording the end first would hold each of them back by an end's work.
        if unbegun.load(ordering: .relaxed) > 0 { await Task.yield() }
        return attemptFinished(attempt.key, attempt: attempt.number, result: result)
    }

    /// Runs a boxed next attempt, borrowed from its box.
    @inline(never)
    private func run(boxed box: NextAttempt) async -> NextAttempt? {
        await run(box.attempt)
    }

    /// Feeds one input to the machine inside the critical section, then does the deferred work.
    private func input(_ body: (inout Machine, Duration) -> [Machine.Action]) {
        var deferred = Deferred()
        locked { state in
            let actions = body(&state.machine, timeline.now())
            perform(consume actions, in: &state, into: &deferred)
        }
        complete(consume deferred)
    }

    /// The critical section: `body` with the state, under the lock.
    private func locked<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try state.withLock { state in
            #if DEBUG
                let outer = SchedulerLockProbe.enter()
                defer { SchedulerLockProbe.leave(outer) }
            #endif
            return try body(&state)
        }
    }

    /// Does the work of a critical section after the lock is released: cancels tasks, ends phase
    /// streams, and, on the thread that became the one delivering, hands out the outbox in order until
    /// it is empty.
    ///
    /// When the critical section left attempts to start (a batch of a large release), this thread starts
    /// the next batches, one critical section each, until none is left.
    private func complete(_ deferred: consuming Deferred) {
        var more = deferred.moreToStart
        completeOne(consume deferred)
        while more {
            var next = Deferred()
            locked { state in
                perform(state.machine.continueStarting(now: timeline.now()), in: &state, into: &next)
            }
            more = next.moreToStart
            completeOne(consume next)
        }
    }

    private func completeOne(_ deferred: consuming Deferred) {
        launch(&deferred)
        for delivery in deferred.stateDeliveries { delivery.deliver() }
        for task in deferred.cancellations { task.cancel() }
        for watch in deferred.endedWatches { watch.cancel() }
        for handle in deferred.finishedHandles {
            handle.finishStates()
            if !handle.requirements.isDisjoint(with: .demandDriven) { environment.demand.release(handle.requirements) }
        }
        if let batch = deferred.delivery { deliverAll(batch) }
    }

    /// Creates the tasks of attempts started in a critical section of this thread, then registers them
    /// in one more, cancelling at once each one whose stop was requested meanwhile. A task whose attempt
    /// has already ended (it ran before the registration) is not registered.
    ///
    /// Each attempt moves into its task (copied, its dozen references would be retained once more).
    private func launch(_ deferred: inout Deferred) {
        guard !deferred.launches.isEmpty else { return }
        var launches = deferred.launches
        deferred.launches = []
        var created: [(key: Machine.Key, task: Task<Void, Never>)] = []
        created.reserveCapacity(launches.count)
        launches.reverse()
        while let attempt = launches.popLast() {
            let key = attempt.key
            created.append((key, attemptTask(consume attempt)))
        }
        let firstSerial = deferred.firstLaunchSerial
        #if DEBUG
            launchProbe.withLock { $0 }?()
        #endif
        let stopped: [Task<Void, Never>] = locked { state in
            var stopped: [Task<Void, Never>] = []
            for (offset, (key, task)) in created.enumerated() {
                // Not marked with this launch's serial: the attempt ended before (its entry is gone, or is
                // its next attempt's); the task is not registered.
                guard case .creating(let serial, let cancelled) = state.attempts[key],
                    serial == firstSerial + UInt64(offset)
                else { continue }
                state.attempts[key] = .running(task)
                if cancelled { stopped.append(task) }
            }
            return stopped
        }
        for task in stopped { task.cancel() }
    }

    /// Hands out `batch` and then whatever was added to the outbox meanwhile, until nothing was; the
    /// caller is the delivering thread (it took `batch` with ``takeOutboxIfIdle(_:)``).
    private func deliverAll(_ first: [Outgoing]) {
        var batch = first
        while true {
            deliver(batch)
            // Nothing added since the last take: stop delivering, without the lock.
            if delivery.compareExchange(expected: 1, desired: 0, ordering: .acquiringAndReleasing).exchanged {
                return
            }
            batch = locked { state in
                delivery.store(1, ordering: .releasing)
                defer { state.outbox = [] }
                return state.outbox
            }
        }
    }

    /// Inside the critical section, after items were added to the outbox: takes the outbox when no thread
    /// is handing it out (this thread then delivers it, after the lock), or tells the delivering thread
    /// that more came.
    private func takeOutboxIfIdle(_ state: inout State) -> [Outgoing]? {
        guard !state.outbox.isEmpty else { return nil }
        var current = delivery.load(ordering: .acquiring)
        while true {
            let desired: UInt8 = current & 1 == 0 ? 1 : current | 2
            if desired == current { return nil }
            let (exchanged, original) = delivery.compareExchange(
                expected: current, desired: desired, ordering: .acquiringAndReleasing)
            if exchanged {
                guard current & 1 == 0 else { return nil }
                defer { state.outbox = [] }
                return state.outbox
            }
            current = original
        }
    }

    /// What the event hooks get for `event` about `job` (`nil`: a calendar series' position alone), with
    /// a calendar job's series as it stands.
    private static func delivery(
        _ event: SyncSchedulerEvent?, of job: Machine.Job, sequence: UInt64, isShutDown: Bool
    ) -> SchedulerEventDelivery {
        var delivery = SchedulerEventDelivery(
            sequence: sequence, event: event, attachment: job.payload.attachment, isShutDown: isShutDown)
        if job.spec.calendar != nil, let series = job.series {
            delivery.calendar = Machine.calendarProgress(of: series)
        }
        return delivery
    }

    private func deliver(_ batch: [Outgoing]) {
        // Without hooks (the usual case) their lock is not taken for every batch.
        let hooks = hookCount.load(ordering: .acquiring) == 0 ? [] : hooks.withLock { $0.list }
        for item in batch {
            switch item {
            case .event(let delivery):
                for hook in hooks { hook.call(delivery) }
                if let event = delivery.event { events.send(event) }
            case .resolution(let handle, let outcome):
                for waiter in handle.resolve(outcome) { waiter.resume(returning: outcome) }
            case .idle(let waiters):
                for waiter in waiters { waiter.resume() }
            }
        }
    }

    /// Performs the machine's actions inside the critical section. With `reusing`, the first attempt the
    /// actions start is handed to that task (the task of the attempt that just ended) as `next`, instead
    /// of a new task being created for it.
    ///
    /// The work left for after the lock goes into `deferred`, which the caller declares outside the
    /// critical section, so the struct is not copied on its way out.
    ///
    /// An event that no hook and no stream would receive is counted (its sequence number is used up) but
    /// not built: a scheduler nobody listens to builds no events.
    ///
    /// The actions' array goes back to the machine afterwards (``SchedulerStateMachine/recycle(_:)``), so
    /// the next input reuses its storage; and the outbox is given room for this section's items at once.
    private func perform(
        _ actions: consuming [Machine.Action], in state: inout State, into deferred: inout Deferred,
        reusing: Task<Void, Never>? = nil
    ) {
        var reusable = reusing
        var createdOne = false
        let listened = hookCount.load(ordering: .acquiring) > 0 || events.hasSubscribers
        if state.outbox.isEmpty { state.outbox.reserveCapacity(actions.count) }
        // By index: iterating would consume the array, which goes back to the machine below.
        for index in actions.indices {
            switch actions[index] {
            case .start(let job, let attempt):
                let (key, payload) = (job.key, job.payload)
                let context = SyncJobContext(
                    jobID: payload.handle.id,
                    attempt: attempt,
                    startStatus: state.machine.status,
                    requirements: payload.handle.requirements,
                    conditions: payload.handle.conditions,
                    appliedRequirements: job.requirements,
                    appliedConditions: job.conditions,
                    relaxations: state.machine.appliedRelaxations(of: job),
                    environment: environment,
                    inputs: state.machine.inputs(of: key).compactMap { input in
                        input.payload.handle.output.map { (input.id, $0) }
                    },
                    handle: payload.handle
                )
                let next = Attempt(
                    key: key, number: attempt, operation: payload.operation, context: consume context)
                if let task = reusable {
                    reusable = nil
                    state.attempts[key] = .running(task)
                    deferred.next = next
                } else if !createdOne {
                    createdOne = true
                    state.attempts[key] = .running(attemptTask(consume next))
                } else {
                    state.launchSerial += 1
                    state.attempts[key] = .creating(serial: state.launchSerial, cancelled: false)
                    if deferred.launches.isEmpty { deferred.firstLaunchSerial = state.launchSerial }
                    deferred.launches.append(consume next)
                }
            case .setStopReason(let job, let reason):
                job.payload.handle.setStopReason(reason)
            case .setWaitingFor(let job):
                job.payload.handle.setWaitingFor(job.requirements, job.conditions)
            case .cancelAttempt(let key):
                switch state.attempts[key] {
                case .running(let task): deferred.cancellations.append(task)
                case .creating(let serial, _): state.attempts[key] = .creating(serial: serial, cancelled: true)
                case nil: break
                }
            case .setState(let job, let jobState):
                let handle = job.payload.handle
                let (forgotten, delivery) = handle.setState(jobState)
                if let forgotten { deferred.forgottenOutputs.append(forgotten) }
                if let delivery { deferred.stateDeliveries.append(delivery) }
                if jobState.isTerminal { deferred.finishedHandles.append(handle) }
            case .resolve(let job, let outcome):
                state.outbox.append(.resolution(job.payload.handle, outcome))
                if job.spec.fileTrigger != nil, let watch = state.fileWatches.removeValue(forKey: job.key) {
                    deferred.endedWatches.append(watch)
                }
            case .emit(let event, let job):
                state.eventCount += 1
                guard listened else { continue }
                let isShutDown = state.machine.isShutDown
                state.outbox.append(
                    .event(Self.delivery(event, of: job, sequence: state.eventCount, isShutDown: isShutDown)))
            case .reportSeries(let job):
                // For the hooks alone: no public event, no sequence number of its own.
                guard hookCount.load(ordering: .acquiring) > 0 else { continue }
                let isShutDown = state.machine.isShutDown
                state.outbox.append(
                    .event(Self.delivery(nil, of: job, sequence: state.eventCount, isShutDown: isShutDown)))
            case .disarmTimer:
                if let previous = state.timer.take() { deferred.cancellations.append(previous) }
            case .armTimer(let offset):
                if let previous = state.timer { deferred.cancellations.append(previous) }
                let timeline = timeline
                state.timer = Task { [weak self] in
                    do { try await timeline.sleep(offset) } catch { return }
                    self?.timerFired()
                }
            }
        }
        if state.machine.jobCount == 0 && !state.shutdownWaiters.isEmpty {
            state.outbox.append(.idle(state.shutdownWaiters))
            state.shutdownWaiters = []
        }
        state.machine.recycle(actions)
        deferred.moreToStart = state.machine.hasMoreToStart
        deferred.retired = state.machine.takeRetired()
        deferred.delivery = takeOutboxIfIdle(&state)
    }
}
