/// The network in use: the name of the default route's interface and, where a connection manager reports
/// them, the name of its connection and the SSID of its Wi-Fi network.
///
/// Each field is `nil` when no source tells it: on Linux rtnetlink gives the interface name (the link of
/// the default route) and NetworkManager the connection's `Id` and the active access point's `Ssid`; on
/// Apple platforms `NWPathMonitor` gives only the interface kind (``ConnectivityStatus/interface``), and
/// reading the SSID needs an entitlement the library does not ask for, so every field is `nil` there.
/// A status that is not connected has no network in use: ``ConnectivityStatus/network`` is ``unknown``.
public struct SyncNetwork: Sendable, Hashable, CustomStringConvertible {
    /// The default route's interface, such as `wlan0`; `nil` when not known.
    public var interfaceName: String?
    /// The connection manager's name of the connection in use (NetworkManager's connection `Id`, such as
    /// `Office`); `nil` when not known.
    public var connectionID: String?
    /// The Wi-Fi network's SSID, its bytes read as UTF-8 (an invalid sequence becomes U+FFFD); `nil`
    /// when not on Wi-Fi or not known.
    public var ssid: String?

    /// Creates a network; every field defaults to unknown.
    public init(interfaceName: String? = nil, connectionID: String? = nil, ssid: String? = nil) {
        self.interfaceName = interfaceName
        self.connectionID = connectionID
        self.ssid = ssid
    }

    /// Nothing known about the network in use.
    public static let unknown = SyncNetwork()

    /// Whether no field is known.
    public var isUnknown: Bool { self == .unknown }

    /// The known fields: `wlan0, connection "Office", ssid "Office"`, or `unknown`.
    public var description: String {
        var parts: [String] = []
        if let interfaceName { parts.append(interfaceName) }
        if let connectionID { parts.append("connection \"\(connectionID)\"") }
        if let ssid { parts.append("ssid \"\(ssid)\"") }
        return parts.isEmpty ? "unknown" : parts.joined(separator: ", ")
    }
}
