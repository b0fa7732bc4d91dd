/// The parts of the environment that a ``SyncEnvironment`` watches.
///
/// A part is monitored when the environment has a source for it. A requirement whose part is not
/// monitored reads as satisfied, and the CLI and the scheduler's snapshot say "not monitored, treated as
/// met" for it.
public struct MonitoringOptions: OptionSet, Sendable, Hashable, CustomStringConvertible {
    /// The bits of the set.
    public let rawValue: Int

    /// Creates a set from its bits.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// The network path (``ConnectivityStatus``).
    public static let network = MonitoringOptions(rawValue: 1 << 0)
    /// The sync account (``AccountStatus``).
    public static let account = MonitoringOptions(rawValue: 1 << 1)
    /// The app's sync-engine activity (``SyncEvent``).
    public static let syncEvent = MonitoringOptions(rawValue: 1 << 2)
    /// The cloud drive's availability.
    public static let cloudDrive = MonitoringOptions(rawValue: 1 << 3)
    /// Power: Low Power Mode, external power, battery (``PowerStatus``).
    public static let power = MonitoringOptions(rawValue: 1 << 4)
    /// Free space on one volume (``StorageStatus``).
    public static let storage = MonitoringOptions(rawValue: 1 << 5)
    /// Resource pressure and heat (``ResourceStatus``).
    public static let resources = MonitoringOptions(rawValue: 1 << 6)

    /// Every part.
    public static let all: MonitoringOptions = [
        .network, .power, .account, .syncEvent, .cloudDrive, .storage, .resources,
    ]
    /// Network and account only.
    public static let basic: MonitoringOptions = [.network, .account]
    /// Network, power, account, cloud drive, storage and resources (storage and resources cost nothing
    /// until a job needs them).
    public static let `default`: MonitoringOptions = [
        .network, .power, .account, .cloudDrive, .storage, .resources,
    ]
    /// Network, power, account and sync events, for sync engines that do not use the cloud drive.
    public static let syncFocused: MonitoringOptions = [.network, .power, .account, .syncEvent]

    /// Every single part with its spelling.
    public static let members: [(name: String, part: MonitoringOptions)] = [
        ("network", .network),
        ("power", .power),
        ("account", .account),
        ("sync-event", .syncEvent),
        ("cloud-drive", .cloudDrive),
        ("storage", .storage),
        ("resources", .resources),
    ]

    /// The spellings of the parts in this set.
    public var names: [String] {
        Self.members.filter { contains($0.part) }.map(\.name)
    }

    /// The spellings joined by commas in brackets, such as `[network, power]`.
    public var description: String {
        "[" + names.joined(separator: ", ") + "]"
    }
}
