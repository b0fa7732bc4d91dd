/// The facts about the environment that a job or a waiter needs before it may start.
///
/// Each member names one fact; ``SyncEnvironmentStatus/satisfiedRequirements`` says which hold now.
/// `.unmetered`, `.unmeteredConfirmed`, `.unconstrained` and `.validatedInternet` imply `.network`: a disconnected device
/// satisfies none of them.
/// A requirement whose part of the environment is not monitored reads as satisfied (see
/// ``MonitoringOptions``), so presets such as ``syncReady`` also work where no account source exists.
/// ``named`` spells every requirement and preset; ``descriptors`` describes each single requirement once.
public struct SyncRequirements: OptionSet, Sendable, Hashable, CustomStringConvertible {
    /// The bits of the set.
    public let rawValue: UInt64

    /// Creates a set from its bits.
    public init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    /// A usable network path.
    public static let network = SyncRequirements(rawValue: 1 << 0)
    /// A network path that is not expensive (not cellular, not a hotspot, not metered).
    ///
    /// A guess counts: met for ``MeteredConfidence/confirmedUnmetered``,
    /// ``MeteredConfidence/guessedUnmetered`` and ``MeteredConfidence/unknown``; ``unmeteredConfirmed``
    /// takes only a confirmed "not metered".
    public static let unmetered = SyncRequirements(rawValue: 1 << 1)
    /// A network path that is not constrained (Low Data Mode off).
    public static let unconstrained = SyncRequirements(rawValue: 1 << 2)
    /// Low Power Mode off.
    public static let notLowPower = SyncRequirements(rawValue: 1 << 3)
    /// On external power.
    public static let externalPower = SyncRequirements(rawValue: 1 << 4)
    /// Battery not low (see ``PowerStatus/isBatteryLow``).
    public static let batteryNotLow = SyncRequirements(rawValue: 1 << 5)
    /// The sync account is available.
    public static let accountReady = SyncRequirements(rawValue: 1 << 6)
    /// The cloud drive (iCloud Drive) is available.
    public static let cloudDrive = SyncRequirements(rawValue: 1 << 7)
    /// A network path whose validator found the internet: connected, not behind a captive portal, not
    /// limited to the local network.
    ///
    /// Met when connected and ``ConnectivityStatus/reachability`` is ``ConnectivityReachability/internet``,
    /// or ``ConnectivityReachability/unknown`` because no validator exists (no NetworkManager, its checks
    /// turned off, Apple platforms) — so it never blocks where nothing can tell.
    public static let validatedInternet = SyncRequirements(rawValue: 1 << 8)
    /// Free space on the watched volume above the low-storage threshold (see ``StorageStatus/isLow``).
    ///
    /// Checked only while a job or a waiter needs it (see ``StorageObserver``).
    public static let storageNotLow = SyncRequirements(rawValue: 1 << 9)
    /// The device is idle: nobody is using it (on Linux, systemd-logind's `IdleHint`; met where nothing
    /// reports idleness, see ``PowerStatus/isDeviceIdle``).
    public static let deviceIdle = SyncRequirements(rawValue: 1 << 10)
    /// Connected, and the connection in use is not a roaming mobile connection (see
    /// ``ConnectivityStatus/isRoaming``).
    public static let notRoaming = SyncRequirements(rawValue: 1 << 11)
    /// Connected, and a source that knows says the path is not metered
    /// (``MeteredConfidence/confirmedUnmetered``): the strict form of ``unmetered``, which also takes a
    /// guess (NetworkManager's `GUESS_NO`, the link-kind rule) or no opinion.
    ///
    /// Where nothing confirms it (no NetworkManager, or NetworkManager only guessing), a job that requires
    /// it waits; see ``MeteredConfidence`` for each source's verdicts.
    public static let unmeteredConfirmed = SyncRequirements(rawValue: 1 << 12)
    /// The machine's CPU, I/O and memory are not under pressure (see ``ResourceStatus/isUnderPressure``
    /// and ``PressureThresholds``; met where pressure cannot be read).
    ///
    /// Checked only while a job or a waiter needs it (see ``RequirementDemand``).
    public static let notUnderPressure = SyncRequirements(rawValue: 1 << 13)
    /// The device is not hot (see ``ResourceStatus/isHot``; met where nothing reports heat).
    ///
    /// Checked only while a job or a waiter needs it (see ``RequirementDemand``).
    public static let notHot = SyncRequirements(rawValue: 1 << 14)

    /// No requirement: the empty set, which every status satisfies; spelled `none` in ``named`` and by
    /// the `syncgate` tool.
    ///
    /// A job's requirements default to ``network`` (see ``SyncJob``); a job that needs nothing of the
    /// environment, such as a local database migration, says `requires: .none` and then waits only for
    /// its conditions, delay, dependencies and turn. Where the expected type is optional
    /// (`SyncRequirements?`), `.none` means `nil`: write `SyncRequirements.none` there.
    public static let none: SyncRequirements = []

    /// The requirements whose source is consulted only while someone needs them: a job that requires one,
    /// or a waiter waiting for one, registers its demand with the environment (``RequirementDemand``).
    ///
    /// The descriptors marked ``SyncRequirementDescriptor/isDemandDriven``.
    package static let demandDriven: SyncRequirements = descriptors.filter(\.isDemandDriven).reduce(into: []) {
        $0.formUnion($1.requirement)
    }

    /// What ``SyncEnvironmentStatus/isSyncReady`` checks: network, account ready, not in Low Power Mode.
    public static let syncReady: SyncRequirements = [.network, .accountReady, .notLowPower]
    /// What ``SyncEnvironmentStatus/isCloudDriveReady`` checks: ``syncReady`` plus the cloud drive.
    public static let cloudDriveReady: SyncRequirements = [.syncReady, .cloudDrive]
    /// What ``SyncEnvironmentStatus/isSuitableForLargeTransfer`` checks: network, unmetered, unconstrained.
    public static let largeTransfer: SyncRequirements = [.network, .unmetered, .unconstrained]

    /// Creates the requirements with the given spelling in `table`: a requirement (`"external-power"`),
    /// a preset (`"sync-ready"`) or `"none"` (the empty set).
    ///
    /// Returns `nil` for an unknown name. Matching ignores case, and `_` may stand for `-`.
    /// - Parameters:
    ///   - name: the spelling.
    ///   - table: the spellings to look in; ``named`` unless a tool extends it.
    public init?(name: String, in table: [SyncRequirementName] = named) {
        let key = String(name.lowercased().map { $0 == "_" ? "-" : $0 })
        guard let match = table.first(where: { $0.name == key }) else { return nil }
        self = match.requirement
    }

    /// The spellings of the single requirements in this set, in the order of ``members``.
    public var names: [String] {
        Self.members.filter { contains($0.requirement) }.map(\.name)
    }

    /// The part of the environment whose source decides these requirements: the union of their
    /// descriptors' ``SyncRequirementDescriptor/part``.
    public var monitoredParts: MonitoringOptions {
        var parts: MonitoringOptions = []
        for rule in SyncRequirementRule.table where contains(rule.requirement) {
            parts.formUnion(rule.part)
        }
        return parts
    }

    /// The requirements decided by the given parts of the environment: those whose descriptor's
    /// ``SyncRequirementDescriptor/part`` is among `parts`.
    public static func decided(by parts: MonitoringOptions) -> SyncRequirements {
        var requirements: SyncRequirements = []
        for rule in SyncRequirementRule.table where parts.contains(rule.part) {
            requirements.formUnion(rule.requirement)
        }
        return requirements
    }

    /// The spellings joined by commas in brackets, such as `[network, unmetered]`, or `[]`.
    public var description: String {
        "[" + names.joined(separator: ", ") + "]"
    }
}
