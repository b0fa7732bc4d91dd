import SyncGateCore

/// A ``SyncEnvironment`` whose every part a test or a demo sets by hand.
///
/// ```swift
/// let clock = ManualClock()
/// let manual = ManualSyncEnvironment(clock: clock)
/// let scheduler = SyncScheduler(environment: manual.environment, clock: clock)
/// manual.setConnectivity(.connected(via: .wifi))
/// ```
///
/// Parts left out of `monitoring` get no source: the environment treats their requirements as met, as
/// it would on a platform without that source, and their setters have no effect on it.
public final class ManualSyncEnvironment: Sendable {
    /// The environment that follows the manual sources.
    public let environment: SyncEnvironment
    /// The network source.
    public let connectivity: ManualConnectivityObserver
    /// The power source.
    public let power: ManualPowerObserver
    /// The account source.
    public let account: ManualAccountStatusProvider
    /// The cloud-drive source.
    public let cloudDrive: ManualCloudDriveObserver
    /// The sync-event source.
    public let syncEvents: ManualSyncEventObserver
    /// The free-space source.
    public let storage: StatusFeed<StorageStatus>
    /// The resource pressure and heat source.
    public let resources: StatusFeed<ResourceStatus>

    /// Creates the manual sources with initial values and an environment that monitors `monitoring`.
    public init(
        connectivity: ConnectivityStatus = .disconnected,
        power: PowerStatus = .unrestricted,
        account: AccountStatus = .available,
        isCloudDriveAvailable: Bool = false,
        syncEvent: SyncEvent = .idle,
        storage: StorageStatus = .unknown,
        resources: ResourceStatus = .unknown,
        monitoring: MonitoringOptions = .all,
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.connectivity = ManualConnectivityObserver(status: connectivity)
        self.power = ManualPowerObserver(status: power)
        self.account = ManualAccountStatusProvider(status: account)
        self.cloudDrive = ManualCloudDriveObserver(isAvailable: isCloudDriveAvailable)
        self.syncEvents = ManualSyncEventObserver(event: syncEvent)
        self.storage = StatusFeed(storage)
        self.resources = StatusFeed(resources)
        environment = SyncEnvironment(
            connectivity: monitoring.contains(.network) ? self.connectivity : nil,
            power: monitoring.contains(.power) ? self.power : nil,
            account: monitoring.contains(.account) ? self.account : nil,
            cloudDrive: monitoring.contains(.cloudDrive) ? self.cloudDrive : nil,
            syncEvents: monitoring.contains(.syncEvent) ? self.syncEvents : nil,
            storage: monitoring.contains(.storage) ? self.storage : nil,
            resources: monitoring.contains(.resources) ? self.resources : nil,
            clock: clock
        )
    }

    /// The environment's combined status now.
    public var status: SyncEnvironmentStatus { environment.status }

    /// Sets the network path.
    public func setConnectivity(_ status: ConnectivityStatus) {
        connectivity.send(status)
    }

    /// Sets the power state.
    public func setPower(_ status: PowerStatus) {
        power.send(status)
    }

    /// Sets the account status.
    public func setAccount(_ status: AccountStatus) {
        account.send(status)
    }

    /// Sets whether the cloud drive is available.
    public func setCloudDriveAvailable(_ isAvailable: Bool) {
        cloudDrive.send(isAvailable)
    }

    /// Sets the sync engine's activity.
    public func setSyncEvent(_ event: SyncEvent) {
        syncEvents.send(event)
    }

    /// Sets the free space on the watched volume.
    public func setStorage(_ status: StorageStatus) {
        storage.send(status)
    }

    /// Sets the resource pressure and heat.
    public func setResources(_ status: ResourceStatus) {
        resources.send(status)
    }

    /// Sets an app-defined condition on the environment.
    ///
    /// - Throws: ``SyncEnvironmentError/invalidArgument(parameter:message:)`` when the condition's name is empty.
    public func setCondition(_ condition: SyncCondition, isMet: Bool) throws(SyncEnvironmentError) {
        try environment.setCondition(condition, isMet: isMet)
    }
}
