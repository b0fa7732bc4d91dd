import Synchronization

/// A submitted job, seen from outside: its state, its changes, its outcome, and a way to cancel it.
///
/// ```swift
/// let handle = try scheduler.submit(job)
/// print(handle.state)                 // waiting for [unmetered]
/// switch try await handle.outcome() {
/// case .succeeded: print("done")
/// case .failed(let error): print("failed: \(error)")
/// case .cancelled, .expired: break
/// }
/// ```
///
/// A handle is safe to share between tasks and threads: its one mutable part is only read and written
/// under its mutex (of a shared pool), which is why its `Sendable` conformance is unchecked.
public final class SyncJobHandle: @unchecked Sendable {
    /// A caller of ``outcome()`` waiting for the job to end; resumed with `nil` when the caller is cancelled.
    typealias Waiter = (token: UInt64, continuation: CheckedContinuation<SyncJobOutcome?, Never>)

    /// Everything that changes, stored inline in the handle and guarded by the handle's mutex of the
    /// shared pool (``StripedLocks``), so a handle is one allocation without a mutex of its own: the state
    /// as the scheduler set it and the outcome, and in ``Extras``, allocated when one of them is first set,
    /// what only some jobs use: the outcome's waiters, the state broadcast (which exists only once someone
    /// has asked for ``states``), progress and output.
    ///
    /// The state is stored in five bytes (see ``Mutable/state``), so a handle fits a 112-byte block.
    /// Code holding the handle's lock never takes
    /// another handle's lock (two handles may share a mutex).
    private struct Mutable {
        var outcome: SyncJobOutcome?
        var extras: Extras?
        /// The state, compactly: its case (``Phase``) and its attempt number; a failed state's error is
        /// in ``Extras``. A waiting state is stored without blockers (`JobLifecycle.waiting`).
        private var storedAttempt: Int32 = 0
        private var phase = Phase.waiting
        var isFinished = false

        private enum Phase: UInt8 {
            case waiting, blocked, delayed, running, succeeded, failed, cancelled, expired
        }

        /// The state as the scheduler last set it (a waiting one as `JobLifecycle.waiting`).
        var state: SyncJobState {
            get {
                switch phase {
                case .waiting: JobLifecycle.waiting
                case .blocked: JobLifecycle.blocked(by: extras?.blockers ?? [])
                case .delayed: .delayed(attempt: Int(storedAttempt))
                case .running: .running(attempt: Int(storedAttempt))
                case .succeeded: .succeeded
                case .failed: .failed(extras?.failure ?? CancellationError())
                case .cancelled: .cancelled
                case .expired: .expired
                }
            }
            set {
                switch newValue {
                case .waiting: phase = .waiting
                case .blocked(let jobs):
                    phase = .blocked
                    madeExtras().blockers = jobs
                case .delayed(let attempt):
                    phase = .delayed
                    storedAttempt = Int32(clamping: attempt)
                case .running(let attempt):
                    phase = .running
                    storedAttempt = Int32(clamping: attempt)
                case .succeeded: phase = .succeeded
                case .failed(let error):
                    phase = .failed
                    madeExtras().failure = error
                case .cancelled: phase = .cancelled
                case .expired: phase = .expired
                }
            }
        }

        var waiters: [Waiter] {
            get { extras?.waiters ?? [] }
            set { if extras != nil || !newValue.isEmpty { madeExtras().waiters = newValue } }
        }

        var states: StatusBroadcast<SyncJobState>? {
            get { extras?.states }
            set { if extras != nil || newValue != nil { madeExtras().states = newValue } }
        }
        var progress: SyncJobProgress? {
            get { extras?.progress }
            set { if extras != nil || newValue != nil { madeExtras().progress = newValue } }
        }
        var progressStreams: SubscriberList<StreamEnd<SyncJobProgress>> {
            get { extras?.progressStreams ?? SubscriberList() }
            set { if extras != nil || newValue.count > 0 { madeExtras().progressStreams = newValue } }
        }
        var progressDeliveries: DeliveryQueue<ProgressDelivery> {
            get { extras?.progressDeliveries ?? DeliveryQueue() }
            set { madeExtras().progressDeliveries = newValue }
        }
        var output: (any Sendable)? {
            get { extras?.output }
            set { if extras != nil || newValue != nil { madeExtras().output = newValue } }
        }
        var stopReason: SyncJobStopReason? {
            get { extras?.stopReason }
            set { if extras != nil || newValue != nil { madeExtras().stopReason = newValue } }
        }
        var waitingFor: (requirements: SyncRequirements, conditions: Set<SyncCondition>)? {
            get { extras?.waitingFor }
            set { if extras != nil || newValue != nil { madeExtras().waitingFor = newValue } }
        }

        private mutating func madeExtras() -> Extras {
            if let extras { return extras }
            let made = Extras()
            extras = made
            return made
        }
    }

    /// The rarely used part of ``Mutable``; only ever touched under the handle's lock.
    private final class Extras {
        /// The error of a failed state.
        var failure: (any Error)?
        /// The jobs of a blocked state.
        var blockers: [SyncJob.ID] = []
        var waiters: [Waiter] = []
        var states: StatusBroadcast<SyncJobState>?
        var progress: SyncJobProgress?
        var progressStreams = SubscriberList<StreamEnd<SyncJobProgress>>()
        var progressDeliveries = DeliveryQueue<ProgressDelivery>()
        var output: (any Sendable)?
        var stopReason: SyncJobStopReason?
        /// What the job waits for after its relaxations in effect; `nil` while none is.
        var waitingFor: (requirements: SyncRequirements, conditions: Set<SyncCondition>)?
    }

    /// What the progress streams of one critical section are handed, after it.
    private typealias ProgressDelivery = StreamDelivery<StreamEnd<SyncJobProgress>>

    /// The job's identifier.
    public let id: SyncJob.ID
    /// What the job requires.
    public let requirements: SyncRequirements
    /// The app-defined conditions the job requires.
    public let conditions: Set<SyncCondition>
    /// The networks the job may run on (``SyncJobOptions/allowedNetworks``); `nil` for any network.
    public let allowedNetworks: SyncNetworkAllowlist?
    /// Only inside ``withLock(_:)``, which makes every access exclusive (so the runtime need not check).
    @exclusivity(unchecked) private var mutable = Mutable()
    /// The scheduler's key for the job; `UInt64.max` until the scheduler has accepted it. Atomic, so the
    /// scheduler sets it inside its critical section without taking the handle's lock.
    private let storedKey = Atomic<UInt64>(.max)
    private let environment: SyncEnvironment
    /// The scheduler that cancels the job; weak, so a handle kept after its scheduler does not keep it.
    private weak let scheduler: SchedulerShell?

    init(
        id: SyncJob.ID,
        requirements: SyncRequirements,
        conditions: Set<SyncCondition>,
        allowedNetworks: SyncNetworkAllowlist? = nil,
        environment: SyncEnvironment,
        scheduler: SchedulerShell?
    ) {
        self.id = id
        self.requirements = requirements
        self.conditions = conditions
        self.allowedNetworks = allowedNetworks
        self.environment = environment
        self.scheduler = scheduler
    }

    /// The job's state now; for a waiting job, what blocks it according to the environment's status now.
    public var state: SyncJobState {
        let state = storedState
        guard case .waiting = state else { return state }
        let status = environment.status
        let (requirements, conditions) = waitingFor
        return .waiting(unmet: status.unmetRequirements(requirements), conditions: status.unmetConditions(conditions))
    }

    /// Whether the job waits for an allowed network: it has ``allowedNetworks`` and the network in use now
    /// is not one of them (``SyncEnvironmentStatus/allows(_:)``).
    public var isWaitingForNetwork: Bool {
        allowedNetworks != nil && !environment.status.allows(allowedNetworks)
    }

    /// What the job waits for now: its ``requirements`` and ``conditions`` after the relaxations in effect
    /// (and its ``allowedNetworks``, never relaxed).
    public var waitingFor: (requirements: SyncRequirements, conditions: Set<SyncCondition>) {
        withLock { $0.waitingFor } ?? (requirements, conditions)
    }

    /// Where the job's relaxations stand now: when each takes effect and whether it has (see
    /// ``SyncJobRelaxation``); empty for a job without relaxations and once the job has finished.
    public var relaxations: [SyncJobRelaxation.Status] {
        let key = storedKey.load(ordering: .acquiring)
        guard key != .max, let scheduler else { return [] }
        return scheduler.relaxations(of: key)
    }

    /// A new multicast stream of the job's state: the current state first, then every change, ending
    /// after the terminal state. While the job waits, changes of what blocks it are reported too.
    public var states: AsyncStream<SyncJobState> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: SyncJobState.self,
            bufferingPolicy: .bufferingNewest(1)
        )
        let last = LockedState<SyncJobState?>(nil)
        let emit: @Sendable () -> Bool = { [self] in
            last.withLock { last in
                let state = self.state
                if state != last {
                    last = state
                    continuation.yield(state)
                }
                return state.isTerminal
            }
        }
        if emit() {
            continuation.finish()
            return stream
        }
        let changes = stateBroadcast().stream()
        let statuses = environment.statusStream
        let task = Task {
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await _ in changes where emit() { return }
                }
                group.addTask {
                    for await _ in statuses where emit() { return }
                }
                await group.next()
                group.cancelAll()
            }
            _ = emit()
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// Cancels the job: a waiting job ends at once; a running one has its task cancelled and ends when
    /// its operation returns. Cancelling a finished job does nothing.
    public func cancel() {
        let key = storedKey.load(ordering: .acquiring)
        if key != .max { scheduler?.cancel(key: key) }
    }

    /// Waits until the job has finished and returns how it ended; any number of callers may wait.
    ///
    /// Waiting is cancellable and waiting only: when the calling task is cancelled (a SwiftUI `.task`
    /// whose view went away, a request handler whose client left), this throws `CancellationError` at
    /// once, and the job goes on as if nobody had waited; other callers still get its outcome. To stop
    /// the job itself, call ``cancel()``; ``finalOutcome`` reads the outcome without waiting.
    ///
    /// ```swift
    /// switch try await handle.outcome() {
    /// case .succeeded: print("done")
    /// case .failed(let error): print("failed: \(error)")
    /// case .cancelled, .expired: break
    /// }
    /// ```
    /// - Throws: `CancellationError` when the calling task is cancelled before the job ends (also when it
    ///   is cancelled already on entry and the job has not ended yet).
    public func outcome() async throws(CancellationError) -> SyncJobOutcome {
        guard let outcome = await wait(cancellable: true) else { throw CancellationError() }
        return outcome
    }

    /// Waits until the job has finished, whatever happens to the calling task; for the scheduler's `run`,
    /// which cancels the job when its caller is cancelled and then reports how the job ended.
    func outcomeIgnoringCancellation() async -> SyncJobOutcome {
        guard let outcome = await wait(cancellable: false) else {
            preconditionFailure("a wait that ignores cancellation ended without an outcome")
        }
        return outcome
    }

    /// Waits for the outcome; `nil` when `cancellable` and the calling task is cancelled first.
    private func wait(cancellable: Bool) async -> SyncJobOutcome? {
        let token = Self.waiterTokens.add(1, ordering: .relaxed).newValue
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<SyncJobOutcome?, Never>) in
                // Reading the cancellation flag inside the lock pairs with `stopWaiting`: the flag is set
                // before the handler runs, so either the handler finds this waiter or this check sees it.
                let answer = withLock { mutable -> SyncJobOutcome?? in
                    if let outcome = mutable.outcome { return .some(outcome) }
                    if cancellable && Task.isCancelled { return .some(nil) }
                    mutable.waiters.append((token, continuation))
                    return nil
                }
                if let answer { continuation.resume(returning: answer) }
            }
        } onCancel: {
            if cancellable { stopWaiting(token) }
        }
    }

    /// Resumes the waiter with the given token with `nil`, if it still waits.
    private func stopWaiting(_ token: UInt64) {
        let continuation = withLock { mutable -> CheckedContinuation<SyncJobOutcome?, Never>? in
            guard let index = mutable.waiters.firstIndex(where: { $0.token == token }) else { return nil }
            return mutable.waiters.remove(at: index).continuation
        }
        continuation?.resume(returning: nil)
    }

    /// Tokens that tell the waiters of a handle apart; shared by all handles so a handle stores none.
    private static let waiterTokens = Atomic<UInt64>(0)

    /// The outcome if the job has finished.
    public var finalOutcome: SyncJobOutcome? {
        withLock { $0.outcome }
    }

    /// The number of callers waiting in ``outcome()`` now; for tests of cancelled waits.
    package var outcomeWaiterCount: Int { withLock { $0.waiters.count } }

    /// The state as the scheduler last set it (a waiting job as `JobLifecycle.waiting`, without blockers).
    var storedState: SyncJobState { withLock { $0.state } }

    /// The scheduler's key for the job; `nil` before it was accepted.
    var schedulerKey: UInt64? {
        let key = storedKey.load(ordering: .acquiring)
        return key == .max ? nil : key
    }

    /// Records the scheduler's key for the job, so ``cancel()`` can name it.
    func setKey(_ key: UInt64) {
        storedKey.store(key, ordering: .releasing)
    }

    /// Publishes a new state; called by the scheduler inside its critical section, so states are in order.
    ///
    /// A running state begins an attempt: the previous attempt's output, progress and stop reason are
    /// forgotten in the same critical section.
    ///
    /// Returns the output that a running state forgot, for the caller to release after its own lock (the
    /// value's deinitializer may call the scheduler), and the delivery of the state to the ``states``
    /// streams, for the caller to make after its own lock (a consumer's cancellation handler may call
    /// the scheduler).
    func setState(
        _ newState: SyncJobState
    ) -> (forgotten: (any Sendable)?, delivery: StatusBroadcast<SyncJobState>.PendingDelivery?) {
        let (states, forgotten) = withLock { mutable -> (StatusBroadcast<SyncJobState>?, (any Sendable)?) in
            mutable.state = newState
            var forgotten: (any Sendable)?
            if case .running = newState, mutable.extras != nil {
                forgotten = mutable.output
                mutable.output = nil
                mutable.progress = nil
                mutable.stopReason = nil
            }
            return (mutable.states, forgotten)
        }
        return (forgotten, states?.update(deferringDelivery: newState))
    }

    /// Records the outcome and returns the waiters to resume, outside any lock.
    func resolve(_ outcome: SyncJobOutcome) -> [CheckedContinuation<SyncJobOutcome?, Never>] {
        withLock { mutable -> [CheckedContinuation<SyncJobOutcome?, Never>] in
            guard mutable.outcome == nil else { return [] }
            mutable.outcome = outcome
            defer { mutable.waiters = [] }
            return mutable.waiters.map { $0.continuation }
        }
    }

    /// Ends the state and progress streams after the terminal state.
    func finishStates() {
        let (states, progress) = withLock { mutable in
            mutable.isFinished = true
            let streams = mutable.progressStreams.removeAll()
            return (mutable.states, streams.isEmpty ? nil : mutable.progressDeliveries.enqueue(.finish(streams)))
        }
        states?.finish()
        if let progress { drainProgress(startingWith: progress) }
    }

    // MARK: - Stop reason, progress and output

    /// Why the running attempt is being stopped, or why the latest attempt was stopped: set before the
    /// attempt's task is cancelled, kept after the attempt and the job end, and `nil` before any stop and
    /// again once a new attempt starts (the same rule as ``progress``). ``SyncJobContext/stopReason``
    /// reads it.
    ///
    /// One short lock of the handle and no allocation: safe to read in a task cancellation handler.
    public var stopReason: SyncJobStopReason? {
        withLock { $0.stopReason }
    }

    /// Records why the running attempt is being stopped; called by the scheduler inside its critical
    /// section, before it cancels the attempt's task.
    func setStopReason(_ reason: SyncJobStopReason) {
        withLock { $0.stopReason = reason }
    }

    /// Records what the job waits for after its relaxations in effect; called by the scheduler inside its
    /// critical section when a relaxation takes effect or a period's wait begins with none.
    func setWaitingFor(_ requirements: SyncRequirements, _ conditions: Set<SyncCondition>) {
        withLock { $0.waitingFor = (requirements, conditions) }
    }

    /// The progress the latest attempt last reported: while it runs, and kept after the job ends (the
    /// point a failed or cancelled job reached); `nil` before its attempt reports any (a new attempt
    /// starts with none). ``SyncJobInfo/progress`` follows the same rule.
    public var progress: SyncJobProgress? {
        withLock { $0.progress }
    }

    /// A new stream of the job's progress reports: the latest one first (if any), then each new one; a
    /// slow reader gets the newest. It ends when the job finishes.
    public var progressUpdates: AsyncStream<SyncJobProgress> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: SyncJobProgress.self, bufferingPolicy: .bufferingNewest(1))
        let token = Self.waiterTokens.add(1, ordering: .relaxed).newValue
        let isFinished = withLock { mutable in
            // No task waits on this new stream yet, so the yield resumes none; made here, it comes before
            // every report queued after this registration.
            if let progress = mutable.progress { continuation.yield(progress) }
            guard !mutable.isFinished else { return true }
            mutable.progressStreams.insert(StreamEnd(continuation), id: token)
            return false
        }
        if isFinished {
            continuation.finish()
        } else {
            continuation.onTermination = { [weak self] _ in
                // May run inside the runtime's lock of a cancelled consumer's task: safe, because nothing
                // yields to a stream under the handle's lock.
                self?.withLock { $0.progressStreams.remove(token) }
            }
        }
        return stream
    }

    /// Records a progress report and hands it to the open streams, after the handle's lock.
    func setProgress(_ progress: SyncJobProgress) {
        let first = withLock { mutable -> ProgressDelivery? in
            mutable.progress = progress
            let streams = mutable.progressStreams
            return streams.count == 0 ? nil : mutable.progressDeliveries.enqueue(.send(streams.all, progress))
        }
        if let first { drainProgress(startingWith: first) }
    }

    /// Makes `first` and every progress delivery queued meanwhile, with no lock held.
    private func drainProgress(startingWith first: ProgressDelivery) {
        DeliveryQueue.drain(startingWith: first) { withLock { $0.progressDeliveries.takeAll() } }
    }

    /// The output the job set (``SyncJobContext/setOutput(_:)``), if any.
    package var output: (any Sendable)? {
        withLock { $0.output }
    }

    /// Records the job's output.
    func setOutput(_ value: any Sendable) {
        // The replaced value is released after the lock: its deinitializer may take locks.
        let replaced = withLock { mutable -> (any Sendable)? in
            defer { mutable.output = value }
            return mutable.output
        }
        withExtendedLifetime(replaced) {}
    }

    /// Runs `body` with exclusive access to the mutable part, under the handle's mutex of the shared pool.
    @inline(__always)
    private func withLock<Result>(_ body: (inout Mutable) throws -> Result) rethrows -> Result {
        try StripedLocks.shared.withLock(for: self) { try body(&mutable) }
    }

    /// The state broadcast, created on first use with the current state.
    private func stateBroadcast() -> StatusBroadcast<SyncJobState> {
        withLock { mutable in
            if let states = mutable.states { return states }
            let states = StatusBroadcast(mutable.state)
            if mutable.state.isTerminal { states.finish() }
            mutable.states = states
            return states
        }
    }
}
