/// The scheduler's shell: the state machine behind a lock, and the code that performs its actions.
///
/// Every input reaches the state machine on the thread that produced it: an environment change is
/// handled on the thread that observed it, so a job whose requirements it satisfies has its task
/// created right there, with no hop through an actor or a stream. Tasks are created and the timer is
/// re-armed inside the critical section (so a later cancel always finds the task, and armings never
/// overtake each other); continuations are resumed and tasks cancelled outside it.
final class SchedulerCore: Sendable {
    struct Payload: Sendable {
        let operation: SyncJob.Operation
        let handle: SyncJobHandle
    }

    typealias Machine = SchedulerStateMachine<Payload>

    private struct State {
        var machine: Machine
        var attempts: [Machine.Key: Task<Void, Never>] = [:]
        var timer: Task<Void, Never>?
        var shutdownWaiters: [CheckedContinuation<Void, Never>] = []
    }

    /// Work left for after the critical section.
    private struct Deferred {
        var resolutions: [(waiters: [CheckedContinuation<SyncJobOutcome?, Never>], outcome: SyncJobOutcome)] = []
        var finishedHandles: [SyncJobHandle] = []
        var cancellations: [Task<Void, Never>] = []
        var idleWaiters: [CheckedContinuation<Void, Never>] = []

        func perform() {
            for task in cancellations { task.cancel() }
            for handle in finishedHandles { handle.finishPhases() }
            for (waiters, outcome) in resolutions {
                for waiter in waiters { waiter.resume(returning: outcome) }
            }
            for waiter in idleWaiters { waiter.resume() }
        }
    }

    let environment: SyncEnvironment
    let events = EventBroadcast<SyncSchedulerEvent>()
    let timeline: ClockTimeline
    private let random: @Sendable () -> Double
    private let state: LockedState<State>
    private let observer = LockedState<UInt64?>(nil)
    /// A function boxed in a struct: reading a bare function out of a generic `inout` wraps it in one
    /// more reabstraction thunk on every access, so the calls would get slower and the stack deeper.
    private struct EventTap {
        let call: @Sendable (SyncSchedulerEvent, _ isShutDown: Bool) -> Void
    }

    private let eventTap = LockedState<EventTap?>(nil)

    init(
        environment: SyncEnvironment,
        maxConcurrentJobs: Int,
        clock: any Clock<Duration>,
        random: @escaping @Sendable () -> Double
    ) {
        self.environment = environment
        self.timeline = ClockTimeline(clock)
        self.random = random
        self.state = LockedState(
            State(machine: Machine(maxConcurrentJobs: maxConcurrentJobs, status: environment.status)))
        let token = environment.statusBroadcast.addObserver { [weak self] _ in self?.statusChanged() }
        observer.withLock { $0 = token }
        statusChanged()
    }

    deinit {
        if let token = observer.withLock({ $0 }) {
            environment.statusBroadcast.removeObserver(token)
        }
        state.withLock { $0.timer }?.cancel()
        events.finish()
    }

    // MARK: - Inputs

    func submit(_ job: SyncJob, initialFailures: Int = 0) throws(SyncSchedulerError) -> SyncJobHandle {
        if let reason = job.validationError { throw .invalidJob(reason) }
        let handle = SyncJobHandle(
            id: job.id,
            requirements: job.requirements,
            conditions: job.conditions,
            environment: environment
        ) { [weak self] key in
            self?.input { machine, now in machine.cancel(key: key, now: now) }
        }
        let payload = Payload(operation: job.operation, handle: handle)
        let now = timeline.now()
        let (result, deferred): (Machine.SubmitResult, Deferred) = state.withLock { state in
            let result = state.machine.submit(job.spec, payload: payload, now: now, initialFailures: initialFailures)
            guard case .accepted(let key, let actions) = result else { return (result, Deferred()) }
            handle.setKey(key)
            return (result, perform(actions, in: &state))
        }
        deferred.perform()
        switch result {
        case .accepted: return handle
        case .existing(let existing): return existing.handle
        case .rejected(let error): throw error
        }
    }

    func cancel(id: SyncJob.ID) {
        input { machine, now in machine.cancel(id: id, now: now) }
    }

    func cancel(tag: String) {
        input { machine, now in machine.cancel(tag: tag, now: now) }
    }

    func cancelAll() {
        input { machine, now in machine.cancelAll(now: now) }
    }

    /// Stops taking jobs and cancels every job not running; returns the handles of the running ones.
    func beginShutdown() -> [SyncJobHandle] {
        let running: [SyncJobHandle] = state.withLock { state in
            state.machine.running.compactMap { state.machine.jobs[$0]?.payload.handle }
        }
        input { machine, now in machine.shutdown(now: now) }
        return running
    }

    /// Shuts down at once when the scheduler is released: every job is cancelled, nothing new starts.
    func abandon() {
        input { machine, now in machine.shutdown(now: now) + machine.cancelAll(now: now) }
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
        state.withLock { state in
            defer { state.timer = nil }
            return state.timer
        }?.cancel()
        events.finish()
    }

    /// Differences between the state machine and what the handles show, for the reliability suite.
    ///
    /// Handles are updated inside the same critical section as the machine, so any difference is a bug.
    func consistencyViolations() -> [String] {
        state.withLock { state in
            var violations: [String] = []
            let machine = state.machine
            if machine.running.count > machine.maxConcurrentJobs {
                violations.append("\(machine.running.count) attempts running, more than \(machine.maxConcurrentJobs)")
            }
            for job in machine.jobs.values {
                let handle = job.payload.handle
                let expected: JobPhase
                switch job.phase {
                case .waiting, .parked: expected = .waiting
                case .delayed: expected = .delayed(attempt: job.nextAttempt)
                case .running: expected = .running(attempt: job.attempt)
                }
                if handle.phaseValue != expected {
                    violations.append("\(handle.id): machine says \(expected), handle says \(handle.phaseValue)")
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
        state.withLock { $0.machine.snapshot() }
    }

    /// The number of queue entries dispatch has examined so far.
    var jobsExamined: Int {
        state.withLock { $0.machine.jobsExamined }
    }

    /// The number of attempts running now.
    var runningCount: Int {
        state.withLock { $0.machine.running.count }
    }

    /// Waits until no job is left in the scheduler.
    func waitUntilIdle() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let idle = state.withLock { state in
                if state.machine.jobCount == 0 { return true }
                state.shutdownWaiters.append(continuation)
                return false
            }
            if idle { continuation.resume() }
        }
    }

    /// Installs a function called with every event inside the critical section, in order, before the
    /// event is broadcast (the durable-job journal). It must be quick and must not call the scheduler.
    func setEventTap(_ tap: (@Sendable (SyncSchedulerEvent, _ isShutDown: Bool) -> Void)?) {
        eventTap.withLock { $0 = tap.map(EventTap.init) }
    }

    // MARK: - Plumbing

    private func statusChanged() {
        input { machine, now in machine.statusChanged(self.environment.status, now: now) }
    }

    private func timerFired() {
        input { machine, now in machine.timerFired(now: now) }
    }

    private func attemptFinished(_ key: Machine.Key, attempt: Int, result: Result<Void, any Error>) {
        let random = random
        let deferred = state.withLock { state in
            state.attempts[key] = nil
            let actions = state.machine.attemptFinished(
                key,
                attempt: attempt,
                result: result,
                now: timeline.now(),
                random: random
            )
            return perform(actions, in: &state)
        }
        deferred.perform()
    }

    /// Feeds one input to the machine inside the critical section, then does the deferred work.
    private func input(_ body: (inout Machine, Duration) -> [Machine.Action]) {
        let deferred = state.withLock { state in
            let actions = body(&state.machine, timeline.now())
            return perform(actions, in: &state)
        }
        deferred.perform()
    }

    private func perform(_ actions: [Machine.Action], in state: inout State) -> Deferred {
        var deferred = Deferred()
        for action in actions {
            switch action {
            case .start(let key, let payload, let attempt, let status):
                let context = SyncJobContext(
                    jobID: payload.handle.id,
                    attempt: attempt,
                    startStatus: status,
                    requirements: payload.handle.requirements,
                    conditions: payload.handle.conditions,
                    environment: environment
                )
                let operation = payload.operation
                state.attempts[key] = Task {
                    let result: Result<Void, any Error>
                    do {
                        try await operation(context)
                        result = .success(())
                    } catch {
                        result = .failure(error)
                    }
                    self.attemptFinished(key, attempt: attempt, result: result)
                }
            case .cancelAttempt(let key):
                if let task = state.attempts[key] { deferred.cancellations.append(task) }
            case .setPhase(let payload, let phase):
                payload.handle.setPhase(phase)
                if case .finished = phase { deferred.finishedHandles.append(payload.handle) }
            case .resolve(let payload, let outcome):
                deferred.resolutions.append((payload.handle.resolve(outcome), outcome))
            case .emit(let event):
                eventTap.withLock { $0 }?.call(event, state.machine.isShutDown)
                events.send(event)
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
            deferred.idleWaiters = state.shutdownWaiters
            state.shutdownWaiters = []
        }
        return deferred
    }
}
