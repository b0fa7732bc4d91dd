/// Combines network, power, account, cloud-drive and sync-event state into one status, and lets code
/// wait until it allows sync.
///
/// Give the environment a source for each part it should watch; a part without a source is not
/// monitored and its requirements read as satisfied (see ``MonitoringOptions``). The combined
/// ``status`` is kept current by following every source, and ``statusStream`` multicasts it.
///
/// ```swift
/// let environment = SyncEnvironment(connectivity: ConnectivityObserver(), account: myAccountSource)
/// if await environment.waitUntilSyncReady(timeout: .seconds(30)) {
///     try await syncNow()
/// }
/// ```
///
/// The environment **owns** the sources it is given: it keeps each of them alive for as long as it
/// lives, so an environment built on sources that nobody else holds (as above, or with
/// ``init(monitoring:)``) keeps following the machine. Releasing the environment releases them. Each
/// stream it hands out (``statusStream`` and ``stream(of:)``) keeps the environment alive while the
/// stream is being consumed, so `for await status in SyncEnvironment(monitoring: .all).statusStream`
/// follows the machine for as long as the loop runs.
///
/// **Two paths.** SyncGate's own observers and every ``StatusFeed`` (the source type apps create and
/// ``StatusFeed/send(_:)`` into, for the account, the cloud drive, sync events or a source of their
/// own) are followed synchronously: by the time the source's `send` returns, ``status`` holds the new
/// value, satisfied waiters are resumed and a scheduler on this environment has started the jobs it made
/// runnable, all on the sending thread. Any other type conforming to a part protocol is followed
/// through its stream, by one task per source: a task hop later, and in the order that task sees.
public final class SyncEnvironment: Sendable {
    /// The parts of the environment that were given a source.
    public let monitoredParts: MonitoringOptions

    /// The combined status: each source writes its field here directly, and the per-part streams are
    /// projections of it.
    private let combined: StatusBroadcast<SyncEnvironmentStatus>
    private let links: LockedState<[SourceLink]>
    /// The sources themselves, kept alive for as long as the environment lives. Nothing a source holds
    /// refers to the environment, so a source never keeps an environment alive; and nothing refers to the
    /// environment, its combined status or its sources weakly (a weakly referenced object's reference
    /// counts live in a side table, which slows every retain of it on the path of each change).
    private let sources: [any Sendable]
    private let waiters = LockedState(WaiterRegistry<Waiter>())
    /// Who needs the demand-driven requirements (``SyncRequirements/demandDriven``) now.
    package let demand = RequirementDemand()
    private let clock: any Clock<Duration>

    /// Creates an environment that follows the given sources.
    ///
    /// - Parameters:
    ///   - connectivity: the network source; without one the network is not monitored.
    ///   - power: the power source; without one power is not monitored.
    ///   - account: the account source; without one the account is not monitored.
    ///   - cloudDrive: the cloud-drive source; without one the cloud drive is not monitored.
    ///   - syncEvents: the sync-engine activity source; without one sync events are not monitored.
    ///   - storage: the free-space source; without one storage is not monitored. A ``StorageObserver``
    ///     reads only while a job or waiter of this environment needs ``SyncRequirements/storageNotLow``.
    ///   - resources: the resource pressure and heat source; without one resources are not monitored. A
    ///     `ResourceObserver` reads only while a job or waiter of this environment needs
    ///     ``SyncRequirements/notUnderPressure`` or ``SyncRequirements/notHot``.
    ///   - clock: the clock that times ``waitUntil(_:conditions:timeout:)``.
    public init(
        connectivity: (any ConnectivityObserving)? = nil,
        power: (any PowerObserving)? = nil,
        account: (any AccountStatusProviding)? = nil,
        cloudDrive: (any CloudDriveObserving)? = nil,
        syncEvents: (any SyncEventObserving)? = nil,
        storage: (any StorageObserving)? = nil,
        resources: (any ResourceObserving)? = nil,
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        let given: [PartSource?] = [
            connectivity.map { PartSource($0, part: .network) { $0.connectivity = $1 } },
            power.map { PartSource($0, part: .power) { $0.power = $1 } },
            account.map { PartSource($0, part: .account) { $0.account = $1 } },
            cloudDrive.map { PartSource($0, part: .cloudDrive) { $0.isCloudDriveAvailable = $1 } },
            syncEvents.map { PartSource($0, part: .syncEvent) { $0.syncEvent = $1 } },
            storage.map { PartSource($0, part: .storage) { $0.storage = $1 } },
            resources.map { PartSource($0, part: .resources) { $0.resources = $1 } },
        ]
        let parts = given.compactMap { $0 }
        let monitored = MonitoringOptions(parts.map(\.part))
        monitoredParts = monitored
        self.clock = clock
        sources = parts.map(\.source)

        var initial = SyncEnvironmentStatus(monitoredParts: monitored)
        for part in parts { part.read(into: &initial) }
        let combined = StatusBroadcast(initial)
        self.combined = combined
        links = LockedState(parts.map { $0.follow(into: combined) })

        // `combined` calls this observer itself, from a method of its own, so it is alive whenever the
        // observer runs (and a strong capture would keep it alive through its own observer list).
        let waiterLink = combined.addObserver { [waiters, unowned(unsafe) combined] _ in
            Self.releaseWaiters(waiters, on: combined)
        }
        self.links.withLock { $0.append(SourceLink(broadcast: combined, observer: waiterLink)) }
        for source in sources {
            (source as? any DemandFollowing)?.follow(demand)
        }
    }

    deinit {
        for link in links.withLock({ $0 }) {
            link.cancel()
        }
        combined.finish()
    }

    // MARK: - Reading

    /// The combined status now. Never blocks for longer than a short critical section.
    public var status: SyncEnvironmentStatus { combined.value }

    /// A new multicast stream of the combined status: the current value first, then every change.
    public var statusStream: AsyncStream<SyncEnvironmentStatus> { combined.stream(retaining: self) }

    /// A new multicast stream of one part of the status, addressed by its key path: the part's current
    /// value first, then every change of it (changes of other parts are not repeated).
    ///
    /// A part that is not monitored holds its ``SyncEnvironmentStatus`` default, such as
    /// ``ConnectivityStatus/disconnected`` for `\.connectivity`. The stream keeps the environment alive
    /// while it is being consumed.
    ///
    /// ```swift
    /// for await connectivity in environment.stream(of: \.connectivity) where connectivity.isConnected {
    ///     break
    /// }
    /// ```
    public func stream<Part: Sendable & Equatable>(
        of part: any KeyPath<SyncEnvironmentStatus, Part> & Sendable
    ) -> AsyncStream<Part> {
        combined.stream(retaining: self) { $0[keyPath: part] }
    }

    /// A new multicast stream of the account part: the same as `stream(of: \.account)`.
    public var accountStream: AsyncStream<AccountStatus> { stream(of: \.account) }

    /// The broadcast behind ``status``, for consumers in the package that follow it synchronously.
    package var statusBroadcast: StatusBroadcast<SyncEnvironmentStatus> { combined }

    /// SyncGate's storage observer, when the environment was given one.
    package var storageObserver: StorageObserver? {
        sources.lazy.compactMap { $0 as? StorageObserver }.first
    }

    /// The number of callers currently inside ``waitUntil(_:conditions:timeout:)``.
    package var waiterCount: Int { waiters.withLock { $0.count } }

    // MARK: - Conditions

    /// Marks an app-defined condition as holding or not; jobs and waiters that need it react at once.
    ///
    /// A condition with an empty name is refused the same way everywhere: here, in
    /// ``waitUntil(_:conditions:timeout:)`` and in the scheduler's `submit`.
    /// - Throws: ``SyncEnvironmentError/invalidArgument(parameter:message:)`` naming `condition` when its
    ///   name is empty; nothing changes then.
    public func setCondition(_ condition: SyncCondition, isMet: Bool) throws(SyncEnvironmentError) {
        guard condition.isValid else {
            throw .invalidArgument(parameter: "condition", message: "the name is empty (\"\")")
        }
        combined.update { status in
            if isMet {
                status.conditions.insert(condition)
            } else {
                status.conditions.remove(condition)
            }
        }
    }

    // MARK: - Waiting

    /// Waits until the environment is ready for sync (``SyncRequirements/syncReady``).
    ///
    /// Returns `true` at once when it already is. The timeout is a real timer on the environment's clock:
    /// it fires even when nothing changes. A zero or negative timeout answers from the current status,
    /// as in ``waitUntil(_:conditions:timeout:)``: a negative timeout is a deadline already past (a
    /// timeout computed as `deadline - now` may come out negative), not an error. Use `waitUntil` to tell
    /// a timeout from cancellation.
    /// - Parameter timeout: how long to wait; `nil` waits for as long as it takes.
    /// - Returns: `true` when ready; `false` on timeout or when the calling task is cancelled.
    public func waitUntilSyncReady(timeout: Duration? = nil) async -> Bool {
        do {
            _ = try await waitUntil(.syncReady, timeout: timeout)
            return true
        } catch {
            return false
        }
    }

    /// Waits until every requirement and condition given holds, and returns the status that satisfied them.
    ///
    /// Returns at once when they already hold. A zero or negative timeout answers from the current
    /// status: a negative timeout is a deadline already past (a timeout computed as `deadline - now` may
    /// come out negative), as with `Clock.sleep(until:)`, not an error; ``waitUntilSyncReady(timeout:)``
    /// follows the same rule. The timeout is a real timer on the environment's clock: it fires even when
    /// nothing changes. Nothing is left behind when the wait ends, however it ends.
    /// - Parameters:
    ///   - requirements: the requirements to wait for.
    ///   - conditions: the app-defined conditions to wait for.
    ///   - timeout: how long to wait; `nil` waits for as long as it takes.
    /// - Returns: the first status seen that satisfies the requirements and conditions.
    /// - Throws: a closed set, ``SyncEnvironmentError``: ``SyncEnvironmentError/timedOut`` when the
    ///   timeout runs out; ``SyncEnvironmentError/cancelled`` when the calling task is cancelled (also on
    ///   entry); ``SyncEnvironmentError/invalidArgument(parameter:message:)`` for a condition with an
    ///   empty name.
    public func waitUntil(
        _ requirements: SyncRequirements,
        conditions: Set<SyncCondition> = [],
        timeout: Duration? = nil
    ) async throws(SyncEnvironmentError) -> SyncEnvironmentStatus {
        try await waitUntil(requirements, allowedNetworks: nil, conditions: conditions, timeout: timeout)
    }

    /// Waits until every requirement and condition given holds and the network in use is one that
    /// `allowedNetworks` allows (``SyncEnvironmentStatus/allows(_:)``), and returns the status that
    /// satisfied them; otherwise as ``waitUntil(_:conditions:timeout:)``.
    ///
    /// ```swift
    /// let office = SyncNetworkAllowlist([.connection("Office"), .interface("eth*")])
    /// _ = try await environment.waitUntil(.network, allowedNetworks: office, timeout: .seconds(60))
    /// ```
    /// - Throws: as ``waitUntil(_:conditions:timeout:)``, and
    ///   ``SyncEnvironmentError/invalidArgument(parameter:message:)`` naming `allowedNetworks` for a list
    ///   that a job would be refused (empty, an empty name).
    public func waitUntil(
        _ requirements: SyncRequirements,
        allowedNetworks: SyncNetworkAllowlist?,
        conditions: Set<SyncCondition> = [],
        timeout: Duration? = nil
    ) async throws(SyncEnvironmentError) -> SyncEnvironmentStatus {
        if let refusal = allowedNetworks?.validationError {
            throw .invalidArgument(parameter: "allowedNetworks", message: refusal.reason)
        }
        if conditions.contains(where: { !$0.isValid }) {
            throw .invalidArgument(parameter: "conditions", message: "a condition's name is empty")
        }
        if Task.isCancelled { throw .cancelled }
        // A demand-driven source reads while this wait lasts, and reads now, before the check below.
        demand.retain(requirements)
        defer { demand.release(requirements) }
        let current = status
        if current.satisfies(requirements, allowedNetworks: allowedNetworks, conditions: conditions) { return current }
        if let timeout, timeout <= .zero { throw .timedOut }

        let key = WaiterRegistry<Waiter>.Key(
            requirements: requirements,
            conditions: conditions,
            allowedNetworks: allowedNetworks
        )
        let id = waiters.withLock { $0.register(key) }
        let timer: Task<Void, Never>? = timeout.map { timeout in
            let sleep = clock.sleeper(for: timeout)
            return Task { [waiters] in
                do { try await sleep() } catch { return }
                Self.endWaiter(id, .timedOut, in: waiters)
            }
        }
        defer { timer?.cancel() }
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: Waiter) in
                let outcome = waiters.withLock { registry in
                    registry.suspend(id, continuation, status: combined.value)
                }
                if let outcome { Self.resume(continuation, with: outcome) }
            }
        } onCancel: {
            Self.endWaiter(id, .cancelled, in: waiters)
        }
        return try result.get()
    }

    /// A suspended caller of ``waitUntil(_:conditions:timeout:)``, resumed with its result.
    private typealias Waiter = CheckedContinuation<Result<SyncEnvironmentStatus, SyncEnvironmentError>, Never>

    private static func endWaiter(
        _ id: UInt64, _ outcome: WaiterRegistry<Waiter>.Outcome, in waiters: LockedState<WaiterRegistry<Waiter>>
    ) {
        if let continuation = waiters.withLock({ $0.end(id, outcome) }) {
            resume(continuation, with: outcome)
        }
    }

    /// Resumes the waiters that `combined`'s status now satisfies; called by `combined` on each change.
    private static func releaseWaiters(
        _ waiters: LockedState<WaiterRegistry<Waiter>>, on combined: StatusBroadcast<SyncEnvironmentStatus>
    ) {
        let (status, continuations) = waiters.withLock {
            registry -> (SyncEnvironmentStatus?, [Waiter]) in
            // Every status change comes here; with nobody waiting there is nothing to read or release.
            guard registry.groupCount > 0 else { return (nil, []) }
            let status = combined.value
            return (status, registry.release(on: status))
        }
        guard let status else { return }
        for continuation in continuations {
            continuation.resume(returning: .success(status))
        }
    }

    private static func resume(
        _ continuation: Waiter,
        with outcome: WaiterRegistry<Waiter>.Outcome
    ) {
        switch outcome {
        case .satisfied(let status): continuation.resume(returning: .success(status))
        case .timedOut: continuation.resume(returning: .failure(.timedOut))
        case .cancelled: continuation.resume(returning: .failure(.cancelled))
        }
    }
}
