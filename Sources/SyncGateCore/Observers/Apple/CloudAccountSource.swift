/// The iCloud account source: `CKContainer.accountStatus()` at start and on every `CKAccountChanged`,
/// mapped onto ``AccountStatus``.
///
/// Created on Apple platforms by ``SyncEnvironment/init(monitoring:cloudKit:)`` when the account is
/// monitored (and only then, so no `CKContainer` exists otherwise), for the container identifier given
/// there or the default container. A failed check reads as ``AccountStatus/couldNotDetermine`` and keeps
/// the error in ``lastError``; a transient one (network, service, rate limit) is retried with backoff
/// on the source's clock (``CloudAccountRetry``). A change that arrives while a check or a retry is
/// pending supersedes it: only the newest check's answer is published.
public final class CloudAccountSource: BroadcastBacked, AccountStatusProviding {
    private struct State {
        var generation = 0
        var retry: Task<Void, Never>?
        var lastError: CloudKitAccountError?
        var isStopped = false
    }

    /// The broadcast that holds the status.
    package let broadcast: StatusBroadcast<AccountStatus>
    private let checker: any AccountStatusChecking
    private let clock: any Clock<Duration>
    private let retry: CloudAccountRetry
    private let state = LockedState(State())

    /// Starts following `checker`: observes its changes and checks once now.
    init(
        checker: any AccountStatusChecking, retry: CloudAccountRetry = CloudAccountRetry(),
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        broadcast = StatusBroadcast(.couldNotDetermine)
        self.checker = checker
        self.retry = retry
        self.clock = clock
        checker.startObserving { [weak self] in self?.accountChanged() }
        accountChanged()
    }

    deinit {
        stop()
        broadcast.finish()
    }

    /// The last known status. Thread-safe.
    public var status: AccountStatus { broadcast.value }

    /// A new multicast stream: the current status first, then every change.
    public var statusStream: AsyncStream<AccountStatus> { broadcast.stream(retaining: self) }

    /// The error of the last check when it failed, `nil` after a check that succeeded.
    public var lastError: CloudKitAccountError? { state.withLock { $0.lastError } }

    /// Checks the account now (superseding a pending retry), publishes and returns the result.
    ///
    /// - Throws: ``CloudKitAccountError`` when CloudKit cannot tell; ``status`` is then
    ///   ``AccountStatus/couldNotDetermine``.
    public func refresh() async throws -> AccountStatus {
        let generation = nextGeneration()
        let outcome = await check(generation: generation, attempt: 1, scheduleRetry: false)
        return try outcome.get()
    }

    /// Stops observing and cancels a pending retry; the status stays as it is.
    func stop() {
        let (retryTask, wasStopped) = state.withLock { state in
            defer {
                state.isStopped = true
                state.retry = nil
            }
            return (state.retry, state.isStopped)
        }
        retryTask?.cancel()
        if !wasStopped { checker.stopObserving() }
    }

    private func accountChanged() {
        let generation = nextGeneration()
        Task { [weak self] in _ = await self?.check(generation: generation, attempt: 1, scheduleRetry: true) }
    }

    /// Starts a new generation: a pending retry is cancelled and older answers are ignored.
    private func nextGeneration() -> Int {
        let (generation, retryTask) = state.withLock { state in
            state.generation += 1
            defer { state.retry = nil }
            return (state.generation, state.retry)
        }
        retryTask?.cancel()
        return generation
    }

    /// One check; publishes its answer unless a newer generation started, and schedules the retry of a
    /// transient failure.
    private func check(generation: Int, attempt: Int, scheduleRetry: Bool) async
        -> Result<AccountStatus, CloudKitAccountError>
    {
        let result: Result<CloudAccountStatusMirror, CloudKitAccountError>
        do throws(CloudKitAccountError) {
            result = .success(try await checker.accountStatus())
        } catch {
            result = .failure(error)
        }
        let isCurrent = state.withLock { state in
            guard state.generation == generation, !state.isStopped else { return false }
            switch result {
            case .success: state.lastError = nil
            case .failure(let error): state.lastError = error
            }
            return true
        }
        switch result {
        case .success(let mirror):
            let status = mirror.accountStatus
            if isCurrent {
                broadcast.send(status)
                if attempt > 1 { SyncGateLog.log(.info, "account source regained: \(status)") }
            }
            return .success(status)
        case .failure(let error):
            guard isCurrent else { return .failure(error) }
            broadcast.send(.couldNotDetermine)
            if scheduleRetry, error.facts.isTransient, attempt < retry.maxAttempts {
                let delay = retry.delay(after: attempt, facts: error.facts)
                SyncGateLog.log(
                    .warning, "account source lost: check \(attempt) failed (\(error)); retrying in \(delay)")
                scheduleCheck(generation: generation, attempt: attempt + 1, after: delay)
            } else {
                SyncGateLog.log(.warning, "account source lost: check \(attempt) failed (\(error)); not retried")
            }
            return .failure(error)
        }
    }

    private func scheduleCheck(generation: Int, attempt: Int, after delay: Duration) {
        let sleep = clock.sleeper(for: delay)
        let task = Task { [weak self] in
            do {
                try await sleep()
            } catch {
                return
            }
            _ = await self?.check(generation: generation, attempt: attempt, scheduleRetry: true)
        }
        let stale = state.withLock { state in
            guard state.generation == generation, !state.isStopped else { return true }
            state.retry = task
            return false
        }
        if stale { task.cancel() }
    }
}
