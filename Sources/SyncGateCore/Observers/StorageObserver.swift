#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The free space on the volume of one path, read with `statvfs` only while someone needs it.
///
/// The path is the one given; without one, the directory of the ``FileJobStore`` of the first
/// ``DurableScheduler`` created on a scheduler of this observer's environment, and until then (or without
/// one) the working directory.
///
/// While no job and no waiter of an environment needs ``SyncRequirements/storageNotLow``, the observer
/// reads nothing and arms no timer: its status is the last one read. When the first one needs it, the
/// observer reads at once (before the job is queued, so the job is judged on a fresh value), then again
/// every check interval on the injected clock, until nobody needs it any more. The rule for "low" is
/// ``StorageStatus/isLow``. A path that cannot be read (removed, no permission) gives an unknown amount,
/// which is not low, and a note in ``provenance``.
///
/// ```swift
/// let storage = StorageObserver(path: "/var/lib/myapp")
/// let environment = SyncEnvironment(connectivity: ConnectivityObserver(), storage: storage)
/// ```
public final class StorageObserver: StorageObserving, BroadcastBacked, DemandFollowing {
    private struct State {
        var demand: RequirementDemand?
        var timer: Task<Void, Never>?
        var generation: UInt64 = 0
        var problem: String?
        var path: String
        var isDefaultPath: Bool
        var reads = 0
        var isStopped = false
    }

    /// The broadcast that holds the status.
    package let broadcast: StatusBroadcast<StorageStatus>
    /// The path whose volume is watched.
    public var path: String { state.withLock { $0.path } }
    private let thresholdBytes: UInt64?
    private let checkInterval: Duration
    private let clock: any Clock<Duration>
    private let state: LockedState<State>

    /// Creates an observer of the volume that holds `path`, and reads it once.
    ///
    /// - Parameters:
    ///   - path: a file or directory on the volume to watch; `nil` means the job store's directory once a
    ///     durable scheduler on a ``FileJobStore`` is created on this observer's environment, and the
    ///     working directory until then.
    ///   - thresholdBytes: the free space below which storage is low; `nil` means the default rule
    ///     (``StorageStatus/defaultThreshold(capacityBytes:)``: the smaller of 5 % and 500 MiB).
    ///   - checkInterval: how often the volume is read while someone needs it. Must be positive.
    ///   - clock: the clock of the check timer.
    public init(
        path: String? = nil,
        thresholdBytes: UInt64? = nil,
        checkInterval: Duration = .seconds(60),
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        precondition(checkInterval > .zero, "StorageObserver checkInterval must be positive, got \(checkInterval)")
        let watched = path ?? Self.workingDirectory()
        state = LockedState(State(path: watched, isDefaultPath: path == nil))
        self.thresholdBytes = thresholdBytes
        self.checkInterval = checkInterval
        self.clock = clock
        broadcast = StatusBroadcast(StorageStatus(path: watched, thresholdBytes: thresholdBytes))
        read()
    }

    deinit {
        // Cancelled after the lock: a clock's cancellation handler runs on this thread.
        state.withLock { state in
            state.isStopped = true
            return state.timer.take()
        }?.cancel()
        broadcast.finish()
    }

    /// The current storage status. Thread-safe.
    public var status: StorageStatus { broadcast.value }

    /// A new stream: the current status first, then every change.
    public var statusStream: AsyncStream<StorageStatus> { broadcast.stream(retaining: self) }

    /// `statvfs` for the free space, with a note when the path could not be read.
    public var provenance: StorageProvenance {
        let problem = state.withLock { $0.problem }
        return StorageProvenance(freeSpace: .statvfs, notes: problem.map { ["storage: \($0)"] } ?? [])
    }

    /// Whether the check timer is armed (only while someone needs the requirement), for tests.
    package var isCheckTimerArmed: Bool { state.withLock { $0.timer != nil } }

    /// How many times the volume has been read, for tests.
    package var readCount: Int { state.withLock { $0.reads } }

    /// Watches `directory` instead of the working directory, when no path was given; the durable layer
    /// calls this with its job store's directory. Reads the new volume at once.
    package func useDefaultPath(_ directory: String) {
        let changed = state.withLock { state in
            guard state.isDefaultPath, state.path != directory else { return false }
            state.path = directory
            state.isDefaultPath = false
            return true
        }
        if changed { read() }
    }

    /// Follows `demand`: reads and arms the timer while it needs ``SyncRequirements/storageNotLow``.
    /// The environment calls this once, when it is given the observer.
    package func follow(_ demand: RequirementDemand) {
        state.withLock { $0.demand = demand }
        demand.addListener(for: .storageNotLow) { [weak self] in self?.demandChanged() }
        demandChanged()
    }

    private func demandChanged() {
        // The demand's lock is a leaf: reading it here keeps the newest answer whatever the call order.
        let (startedGeneration, stopped): (UInt64?, Task<Void, Never>?) = state.withLock { state in
            let needed = !state.isStopped && (state.demand?.isNeeded(.storageNotLow) ?? false)
            if needed == (state.timer != nil) { return (nil, nil) }
            state.generation &+= 1
            if needed {
                state.timer = makeTimer(generation: state.generation)
                return (state.generation, nil)
            }
            return (nil, state.timer.take())
        }
        // Cancelled after the lock: a clock's cancellation handler runs on this thread.
        stopped?.cancel()
        if startedGeneration != nil { read() }
    }

    private func makeTimer(generation: UInt64) -> Task<Void, Never> {
        let clock = clock
        let interval = checkInterval
        return Task { [weak self] in
            while !Task.isCancelled {
                do { try await clock.sleep(forAny: interval) } catch { return }
                guard let self, state.withLock({ $0.generation == generation && !$0.isStopped }) else { return }
                read()
            }
        }
    }

    /// Reads the volume now and publishes the result.
    package func read() {
        let path = self.path
        var info = statvfs()
        let result = SystemBytes.withCString(path) { statvfs($0, &info) }
        let error = result == 0 ? nil : errno
        let status: StorageStatus
        if error == nil {
            let unit = UInt64(info.f_frsize)
            status = StorageStatus(
                path: path, availableBytes: UInt64(info.f_bavail) &* unit, capacityBytes: UInt64(info.f_blocks) &* unit,
                thresholdBytes: thresholdBytes)
        } else {
            status = StorageStatus(path: path, thresholdBytes: thresholdBytes)
        }
        state.withLock { state in
            state.reads += 1
            state.problem = error.map { "statvfs(\(path)) failed: \(SystemErrorText.described($0))" }
        }
        broadcast.send(status)
    }

    private static func workingDirectory() -> String {
        SystemBytes.currentDirectory()
    }
}
