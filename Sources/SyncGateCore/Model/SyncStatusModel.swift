import Observation

/// The environment's status as one `@Observable` object for SwiftUI: the status and its readiness
/// predicates, updated on the main actor.
///
/// The role of iCloudSyncStatusKit's status manager, on SyncGate's environment: views read
/// ``isSyncReady``, ``isCloudDriveReady`` or ``status`` and are redrawn when they change. The model
/// follows ``SyncEnvironment/statusStream`` from a task on the main actor for as long as it lives;
/// equal consecutive statuses never reach the views.
///
/// ```swift
/// @MainActor
/// func makeModel() -> SyncStatusModel {
///     SyncStatusModel(environment: SyncEnvironment(monitoring: .all))
/// }
/// ```
@MainActor
@Observable
public final class SyncStatusModel {
    /// The environment's status, as last delivered on the main actor.
    public private(set) var status: SyncEnvironmentStatus

    /// The environment the model follows.
    @ObservationIgnored public let environment: SyncEnvironment
    @ObservationIgnored private let follower = FollowerTask()

    /// Creates a model that follows `environment`, starting from its current status.
    public init(environment: SyncEnvironment) {
        self.environment = environment
        status = environment.status
        let stream = environment.statusStream
        follower.start { @MainActor [weak self] in
            for await status in stream {
                guard let self else { return }
                if self.status != status { self.status = status }
            }
        }
    }

    /// Network up, account available, Low Power Mode off (``SyncEnvironmentStatus/isSyncReady``).
    public var isSyncReady: Bool { status.isSyncReady }
    /// Sync-ready and the cloud drive available (``SyncEnvironmentStatus/isCloudDriveReady``).
    public var isCloudDriveReady: Bool { status.isCloudDriveReady }
    /// Connected, unmetered and unconstrained (``SyncEnvironmentStatus/isSuitableForLargeTransfer``).
    public var isSuitableForLargeTransfer: Bool { status.isSuitableForLargeTransfer }
    /// The sync engine is setting up, importing or exporting.
    public var isSyncing: Bool { status.isSyncing }
    /// The network is connected.
    public var isNetworkConnected: Bool { status.connectivity.isConnected }
    /// The account is available (or not monitored).
    public var isAccountAvailable: Bool { status.satisfies(.accountReady) }

    /// Whether `requirements` and `conditions` hold now.
    public func satisfies(_ requirements: SyncRequirements, conditions: Set<SyncCondition> = []) -> Bool {
        status.satisfies(requirements, conditions: conditions)
    }
}

/// The model's following task, cancelled when the model goes away.
private final class FollowerTask: Sendable {
    private let task = LockedState<Task<Void, Never>?>(nil)

    func start(_ body: @escaping @MainActor @Sendable () async -> Void) {
        task.withLock { $0 = Task { @MainActor in await body() } }
    }

    deinit {
        task.withLock { $0 }?.cancel()
    }
}
