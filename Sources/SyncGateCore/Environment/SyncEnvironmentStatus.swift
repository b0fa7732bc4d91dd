/// Everything SyncGate knows about the environment at one moment, combined from every source.
///
/// The readiness predicates count a part that is not monitored as satisfied (see ``monitoredParts``), so
/// on Linux, where no account source exists by default, ``isSyncReady`` means "connected and not in Low
/// Power Mode".
public struct SyncEnvironmentStatus: Sendable, Hashable, CustomStringConvertible {
    /// The network path.
    public var connectivity: ConnectivityStatus
    /// The power state.
    public var power: PowerStatus
    /// The sync account.
    public var account: AccountStatus
    /// Whether the cloud drive is available.
    public var isCloudDriveAvailable: Bool
    /// What the sync engine is doing.
    public var syncEvent: SyncEvent
    /// Free space on the watched volume.
    public var storage: StorageStatus
    /// Resource pressure and heat.
    public var resources: ResourceStatus
    /// The app-defined conditions that hold now.
    public var conditions: Set<SyncCondition>
    /// The parts of the environment that have a source; the others read as satisfied.
    public var monitoredParts: MonitoringOptions

    /// Creates a status; by default every part is monitored.
    public init(
        connectivity: ConnectivityStatus = .disconnected,
        power: PowerStatus = .unrestricted,
        account: AccountStatus = .couldNotDetermine,
        isCloudDriveAvailable: Bool = false,
        syncEvent: SyncEvent = .idle,
        conditions: Set<SyncCondition> = [],
        monitoredParts: MonitoringOptions = .all,
        storage: StorageStatus = .unknown,
        resources: ResourceStatus = .unknown
    ) {
        self.storage = storage
        self.resources = resources
        self.connectivity = connectivity
        self.power = power
        self.account = account
        self.isCloudDriveAvailable = isCloudDriveAvailable
        self.syncEvent = syncEvent
        self.conditions = conditions
        self.monitoredParts = monitoredParts
    }

    /// The requirements that hold now, including those treated as met because their part is not monitored.
    ///
    /// A requirement holds when its descriptor's ``SyncRequirementDescriptor/holds`` says so (see
    /// ``SyncRequirements/descriptors``).
    public var satisfiedRequirements: SyncRequirements {
        var met = requirementsTreatedAsMet
        for rule in SyncRequirementRule.table where rule.holds(self) {
            met.formUnion(rule.requirement)
        }
        return met
    }

    /// The requirements that read as satisfied only because their part is not monitored.
    public var requirementsTreatedAsMet: SyncRequirements {
        SyncRequirements.decided(by: MonitoringOptions.all.subtracting(monitoredParts))
    }

    /// Which of `requirements` do not hold now.
    public func unmetRequirements(_ requirements: SyncRequirements) -> SyncRequirements {
        requirements.subtracting(satisfiedRequirements)
    }

    /// Which of `conditions` do not hold now.
    public func unmetConditions(_ conditions: Set<SyncCondition>) -> Set<SyncCondition> {
        conditions.subtracting(self.conditions)
    }

    /// Whether every requirement and condition given holds now.
    public func satisfies(_ requirements: SyncRequirements, conditions: Set<SyncCondition> = []) -> Bool {
        satisfiedRequirements.isSuperset(of: requirements) && self.conditions.isSuperset(of: conditions)
    }

    /// Whether the network in use is one that `allowedNetworks` allows (``SyncNetworkAllowlist/matches(_:)``);
    /// `true` for `nil`, and while the network is not monitored (as a requirement of a part that is not
    /// monitored reads as met).
    public func allows(_ allowedNetworks: SyncNetworkAllowlist?) -> Bool {
        guard let allowedNetworks, monitoredParts.contains(.network) else { return true }
        return allowedNetworks.matches(connectivity)
    }

    /// Whether every requirement and condition given holds now, and the network in use is allowed.
    public func satisfies(
        _ requirements: SyncRequirements, allowedNetworks: SyncNetworkAllowlist?, conditions: Set<SyncCondition> = []
    ) -> Bool {
        satisfies(requirements, conditions: conditions) && allows(allowedNetworks)
    }

    /// Connected, account available, and not in Low Power Mode (``SyncRequirements/syncReady``).
    public var isSyncReady: Bool { satisfies(.syncReady) }

    /// ``isSyncReady`` and the cloud drive available (``SyncRequirements/cloudDriveReady``).
    public var isCloudDriveReady: Bool { satisfies(.cloudDriveReady) }

    /// Connected, not expensive and not constrained (``SyncRequirements/largeTransfer``).
    public var isSuitableForLargeTransfer: Bool { satisfies(.largeTransfer) }

    /// Whether the sync engine is busy (any event other than ``SyncEvent/idle``).
    public var isSyncing: Bool { syncEvent != .idle }

    /// A one-line summary of every monitored part, the conditions, and the requirements that hold.
    public var description: String {
        var parts: [String] = []
        let monitored = monitoredParts
        if monitored.contains(.network) { parts.append("network: \(connectivity)") }
        if monitored.contains(.power) { parts.append("power: \(power)") }
        if monitored.contains(.account) { parts.append("account: \(account)") }
        if monitored.contains(.cloudDrive) {
            parts.append("cloud drive: \(isCloudDriveAvailable ? "available" : "unavailable")")
        }
        if monitored.contains(.syncEvent) { parts.append("sync: \(syncEvent)") }
        if monitored.contains(.storage) { parts.append("storage: \(storage)") }
        if monitored.contains(.resources) { parts.append("resources: \(resources)") }
        let names = conditions.map(\.name).sorted()
        parts.append("conditions: [\(names.joined(separator: ", "))]")
        parts.append("met: \(satisfiedRequirements)")
        return parts.joined(separator: "; ")
    }
}
