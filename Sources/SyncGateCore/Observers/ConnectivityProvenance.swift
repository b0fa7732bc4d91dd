/// Which source decided each field of a ``ConnectivityStatus``, with notes on sources that are missing.
///
/// ```swift
/// print(ConnectivityObserver().provenance)
/// // connected: rtnetlink; interface: sysfs heuristic; expensive: sysfs heuristic; …
/// ```
public struct ConnectivityProvenance: Sendable, Hashable, CustomStringConvertible {
    /// The source of ``ConnectivityStatus/isConnected``.
    public var isConnected: StatusOrigin
    /// The source of ``ConnectivityStatus/interface``.
    public var interface: StatusOrigin
    /// The source of ``ConnectivityStatus/isExpensive`` and of its confidence,
    /// ``ConnectivityStatus/metered`` (one fact): `NetworkManager` for its `Metered` verdict or guess,
    /// `NetworkManager connection type` or `sysfs heuristic` for the link-kind rule, `NWPathMonitor`.
    public var isExpensive: StatusOrigin
    /// The source of ``ConnectivityStatus/isConstrained``.
    public var isConstrained: StatusOrigin
    /// The source of ``ConnectivityStatus/reachability``.
    public var reachability: StatusOrigin
    /// The source of ``ConnectivityStatus/isRoaming``.
    public var isRoaming: StatusOrigin
    /// The source of ``SyncNetwork/interfaceName`` in ``ConnectivityStatus/network``: `rtnetlink` (the
    /// default route's link) on Linux; the default where nothing reports it (Apple platforms).
    public var networkInterface: StatusOrigin = .defaultValue
    /// The source of ``SyncNetwork/connectionID`` and ``SyncNetwork/ssid`` in
    /// ``ConnectivityStatus/network``: `NetworkManager` (the primary connection's `Id`, its device's
    /// active access point's `Ssid`); the default where nothing reports them.
    public var networkConnection: StatusOrigin = .defaultValue
    /// Why a better source is not used, and problems met with one (each once), such as
    /// `NetworkManager: org.freedesktop.NetworkManager has no owner on the system bus`.
    public var notes: [String]

    /// Creates a provenance record.
    public init(
        isConnected: StatusOrigin,
        interface: StatusOrigin,
        isExpensive: StatusOrigin,
        isConstrained: StatusOrigin,
        reachability: StatusOrigin,
        isRoaming: StatusOrigin = .defaultValue,
        notes: [String] = []
    ) {
        self.isRoaming = isRoaming
        self.isConnected = isConnected
        self.interface = interface
        self.isExpensive = isExpensive
        self.isConstrained = isConstrained
        self.reachability = reachability
        self.notes = notes
    }

    /// No source at all: every field holds its default.
    public static let none = ConnectivityProvenance(
        isConnected: .defaultValue, interface: .defaultValue, isExpensive: .defaultValue,
        isConstrained: .defaultValue, reachability: .defaultValue)

    /// Sets every field whose origin is one of `origins` to `replacement`.
    package mutating func replace(_ origins: Set<StatusOrigin>, with replacement: StatusOrigin) {
        for field in [
            \Self.isConnected, \.interface, \.isExpensive, \.isConstrained, \.reachability, \.isRoaming,
            \.networkInterface, \.networkConnection,
        ] as [WritableKeyPath<Self, StatusOrigin>] where origins.contains(self[keyPath: field]) {
            self[keyPath: field] = replacement
        }
    }

    /// One line per field, then the notes: `connected: rtnetlink; interface: NetworkManager; …`.
    public var description: String {
        let fields = [
            "connected: \(isConnected)", "interface: \(interface)", "expensive: \(isExpensive)",
            "constrained: \(isConstrained)", "reachability: \(reachability)", "roaming: \(isRoaming)",
            "network interface: \(networkInterface)", "network connection: \(networkConnection)",
        ]
        return (fields + notes.map { "note: \($0)" }).joined(separator: "; ")
    }
}
