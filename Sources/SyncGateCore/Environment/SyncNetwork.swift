/// The network in use: the name of the default route's interface and, where a connection manager reports
/// them, the name of its connection and the SSID of its Wi-Fi network.
///
/// Each field is `nil` when no source tells it: on Linux rtnetlink gives the interface name (the link of
/// the default route) and NetworkManager the connection's `Id` and the active access point's `Ssid`; on
/// Apple platforms `NWPathMonitor` gives only the interface kind (``ConnectivityStatus/interface``), and
/// reading the SSID needs an entitlement the library does not ask for, so every field is `nil` there.
/// A status that is not connected has no network in use: ``ConnectivityStatus/network`` is ``unknown``.
///
/// A multipath default route (several next hops, which the kernel spreads connections over) is in use
/// through each of its usable next hops: ``interfaceName`` names the first of them in the route's order
/// (the one whose kind is ``ConnectivityStatus/interface``), and ``otherNextHops`` the rest.
public struct SyncNetwork: Sendable, Hashable, CustomStringConvertible {
    /// Another interface the default route sends through: a further next hop of a multipath route.
    public struct NextHop: Sendable, Hashable {
        /// The next hop's interface name, such as `wwan0`.
        public var interfaceName: String
        /// The next hop's interface kind.
        public var interface: ConnectionInterface

        /// Creates a next hop from its interface's name and kind.
        public init(interfaceName: String, interface: ConnectionInterface) {
            self.interfaceName = interfaceName
            self.interface = interface
        }
    }

    /// The default route's interface, such as `wlan0` (for a multipath route, its first usable next
    /// hop's); `nil` when not known. On Linux a name whose bytes are not UTF-8 is shown with each such
    /// byte written `\xHH`.
    public var interfaceName: String?
    /// The usable next hops of a multipath default route after the one ``interfaceName`` names, in the
    /// route's order, each interface once; empty for a single-path route and where no source reports
    /// next hops (Apple platforms). ``SyncNetworkAllowlist`` matches an interface name or kind against
    /// these too.
    public var otherNextHops: [NextHop]
    /// The connection manager's name of the connection in use (NetworkManager's connection `Id`, such as
    /// `Office`); `nil` when not known.
    public var connectionID: String?
    /// The Wi-Fi network's SSID, its bytes read as UTF-8 (an invalid sequence becomes U+FFFD); `nil`
    /// when not on Wi-Fi or not known.
    public var ssid: String?

    /// Creates a network; every field defaults to unknown, and to no other next hops.
    public init(
        interfaceName: String? = nil, connectionID: String? = nil, ssid: String? = nil, otherNextHops: [NextHop] = []
    ) {
        self.interfaceName = interfaceName
        self.connectionID = connectionID
        self.ssid = ssid
        self.otherNextHops = otherNextHops
    }

    /// Nothing known about the network in use.
    public static let unknown = SyncNetwork()

    /// Whether no field is known.
    public var isUnknown: Bool { self == .unknown }

    /// The known fields: `wlan0, connection "Office", ssid "Office"`, or `unknown`; a multipath route's
    /// other next hops follow the first one's name: `eth0 (also wwan0)`.
    public var description: String {
        var parts: [String] = []
        let others = otherNextHops.map(\.interfaceName).joined(separator: ", ")
        switch (interfaceName, others.isEmpty) {
        case (let name?, true): parts.append(name)
        case (let name?, false): parts.append("\(name) (also \(others))")
        case (nil, false): parts.append("also \(others)")
        case (nil, true): break
        }
        if let connectionID { parts.append("connection \"\(connectionID)\"") }
        if let ssid { parts.append("ssid \"\(ssid)\"") }
        return parts.isEmpty ? "unknown" : parts.joined(separator: ", ")
    }
}
