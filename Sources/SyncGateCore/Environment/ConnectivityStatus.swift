/// A snapshot of the device's network path.
///
/// Read it field by field (`status.isConnected`, `status.interface == .wifi`). The facts a source may be
/// unable to tell (reachability, roaming) default to values that restrict nothing.
///
/// Whether the path is metered is one fact, ``metered``, with the source's confidence; ``isExpensive`` is
/// its yes-or-no reading. A status that is not connected has no path to judge: its ``metered`` is always
/// ``MeteredConfidence/unknown`` (so ``isExpensive`` is `false`), whatever the initializer was given.
public struct ConnectivityStatus: Sendable, Hashable, CustomStringConvertible {
    /// Whether the device has a usable network path.
    public let isConnected: Bool
    /// The primary network interface in use.
    public let interface: ConnectionInterface
    /// Whether the path is metered, and how sure its source is (see ``MeteredConfidence``); always
    /// ``MeteredConfidence/unknown`` when not connected.
    public let metered: MeteredConfidence
    /// Whether the path is expensive (cellular, a personal hotspot, a metered connection): ``metered`` is
    /// ``MeteredConfidence/guessedMetered`` or ``MeteredConfidence/confirmedMetered``.
    public var isExpensive: Bool { metered.isMetered }
    /// Whether the path is constrained (Low Data Mode).
    public let isConstrained: Bool
    /// How far the path is known to reach; ``ConnectivityReachability/unknown`` where no validator exists.
    public let reachability: ConnectivityReachability
    /// Whether the connection in use is a mobile connection that is roaming (on Linux: ModemManager's
    /// 3GPP registration state of the primary modem, while the path goes through a cellular interface);
    /// `false` where nothing reports roaming.
    public let isRoaming: Bool
    /// The network in use (interface name, connection, SSID, each where a source tells it); always
    /// ``SyncNetwork/unknown`` when not connected. Set with ``with(network:)``.
    public private(set) var network: SyncNetwork = .unknown

    /// Creates a status from its facts; `reachability` defaults to unknown (no validator), `isRoaming` to
    /// `false`.
    ///
    /// `isExpensive` is taken as the caller's verdict: ``metered`` is
    /// ``MeteredConfidence/confirmedMetered`` or ``MeteredConfidence/confirmedUnmetered`` (or
    /// ``MeteredConfidence/unknown`` when not connected). A source that only guesses uses
    /// ``init(isConnected:interface:metered:isConstrained:reachability:isRoaming:)``.
    public init(
        isConnected: Bool, interface: ConnectionInterface, isExpensive: Bool, isConstrained: Bool,
        reachability: ConnectivityReachability = .unknown, isRoaming: Bool = false
    ) {
        self.init(
            isConnected: isConnected, interface: interface, metered: .confirmed(isMetered: isExpensive),
            isConstrained: isConstrained, reachability: reachability, isRoaming: isRoaming)
    }

    /// Creates a status from its facts, with the metered verdict and its confidence; `metered` is replaced
    /// by ``MeteredConfidence/unknown`` when not connected.
    public init(
        isConnected: Bool,
        interface: ConnectionInterface,
        metered: MeteredConfidence,
        isConstrained: Bool,
        reachability: ConnectivityReachability = .unknown,
        isRoaming: Bool = false
    ) {
        self.isConnected = isConnected
        self.interface = interface
        self.metered = isConnected ? metered : .unknown
        self.isConstrained = isConstrained
        self.reachability = reachability
        self.isRoaming = isRoaming
    }

    /// No usable path: not connected, no interface, neither expensive nor constrained.
    public static let disconnected = ConnectivityStatus(
        isConnected: false,
        interface: .none,
        isExpensive: false,
        isConstrained: false
    )

    /// Whether a validator confirmed the internet, or none exists to say otherwise (what
    /// ``SyncRequirements/validatedInternet`` checks, besides being connected).
    public var isInternetValidatedOrUnknown: Bool {
        reachability == .internet || reachability == .unknown
    }

    /// A readable summary, such as `connected via wifi (expensive)`, `connected via wifi (captive-portal)`
    /// or `disconnected`. Reachability is shown only when a validator found less than the internet.
    public var description: String {
        guard isConnected else { return "disconnected" }
        var flags: [String] = []
        if isExpensive { flags.append("expensive") }
        if isConstrained { flags.append("constrained") }
        if isRoaming { flags.append("roaming") }
        if !isInternetValidatedOrUnknown { flags.append(reachability.description) }
        let suffix = flags.isEmpty ? "" : " (\(flags.joined(separator: ", ")))"
        return "connected via \(interface)\(suffix)"
    }
}

extension ConnectivityStatus {
    /// A connected status through the given interface; `isExpensive` is the caller's verdict, confirmed
    /// (see ``init(isConnected:interface:isExpensive:isConstrained:reachability:isRoaming:)``).
    ///
    /// ```swift
    /// let hotspot = ConnectivityStatus.connected(via: .wifi, isExpensive: true)
    /// ```
    public static func connected(
        via interface: ConnectionInterface, isExpensive: Bool = false, isConstrained: Bool = false,
        reachability: ConnectivityReachability = .unknown, isRoaming: Bool = false
    ) -> ConnectivityStatus {
        connected(
            via: interface, metered: .confirmed(isMetered: isExpensive), isConstrained: isConstrained,
            reachability: reachability, isRoaming: isRoaming)
    }

    /// A connected status through the given interface, with the metered verdict and its confidence.
    ///
    /// ```swift
    /// let office = ConnectivityStatus.connected(via: .wifi, metered: .guessedUnmetered)
    /// ```
    public static func connected(
        via interface: ConnectionInterface,
        metered: MeteredConfidence,
        isConstrained: Bool = false,
        reachability: ConnectivityReachability = .unknown,
        isRoaming: Bool = false
    ) -> ConnectivityStatus {
        ConnectivityStatus(
            isConnected: true, interface: interface, metered: metered, isConstrained: isConstrained,
            reachability: reachability, isRoaming: isRoaming)
    }
}

extension ConnectivityStatus {
    /// The same status with ``isRoaming`` replaced.
    package func with(isRoaming: Bool) -> ConnectivityStatus {
        ConnectivityStatus(
            isConnected: isConnected, interface: interface, metered: metered, isConstrained: isConstrained,
            reachability: reachability, isRoaming: isRoaming
        ).with(network: network)
    }

    /// The same status with ``network`` replaced; a status that is not connected keeps
    /// ``SyncNetwork/unknown``.
    ///
    /// ```swift
    /// let home = ConnectivityStatus.connected(via: .wifi).with(network: SyncNetwork(interfaceName: "wlan0", ssid: "Home"))
    /// ```
    public func with(network: SyncNetwork) -> ConnectivityStatus {
        var status = self
        status.network = isConnected ? network : .unknown
        return status
    }
}
