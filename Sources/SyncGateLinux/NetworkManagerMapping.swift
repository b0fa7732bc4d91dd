import SyncGateCore

/// The pure rules that turn NetworkManager's properties into SyncGate's values, and merge them with the
/// rtnetlink status.
///
/// | NetworkManager | SyncGate |
/// |---|---|
/// | `Metered` YES 1 / GUESS_YES 3 | expensive: confirmed metered / guessed metered |
/// | `Metered` NO 2 / GUESS_NO 4 | not expensive: confirmed unmetered / guessed unmetered |
/// | `Metered` UNKNOWN 0, missing or undefined | the kind rule (cellular and Bluetooth are expensive), a guess |
/// | `Connectivity` FULL 4 | reachability internet |
/// | `Connectivity` PORTAL 2 | captive portal |
/// | `Connectivity` LIMITED 3 | limited |
/// | `Connectivity` NONE 1 | local |
/// | `Connectivity` UNKNOWN 0 or missing | unknown (checks off: counts as validated) |
/// | `PrimaryConnectionType` `802-11-wireless`, `802-3-ethernet`, `gsm`/`cdma`, `bluetooth` | wifi, wired Ethernet, cellular, other (expensive) |
/// | otherwise primary device `DeviceType` WIFI 2, ETHERNET 1, MODEM 8, BT 5 | the same kinds |
/// | any other non-empty connection type (`vpn`, `bond`, `bridge`…) | other |
/// | no primary connection | the sysfs heuristic |
/// | the primary connection's `Id` (`Connection.Active`) | the network's connection id |
/// | its first device's `ActiveAccessPoint` → `Ssid` (bytes, read as UTF-8) | the network's SSID; none when not on Wi-Fi |
///
/// rtnetlink stays the only source of "connected": a disconnected link is disconnected whatever
/// NetworkManager says.
///
/// The manager's `Metered` is the `Metered` of the device that holds the primary connection, which
/// NetworkManager derives from the connection's `connection.metered` setting (`yes`/`no` give YES/NO)
/// or, when that is `unknown`, from its own guess (GUESS_YES/GUESS_NO); so it is the one property read.
enum NetworkManagerMapping {
    /// NetworkManager's verdict on cost with its confidence: `nil` when it has none (`UNKNOWN`, or a value
    /// it does not define).
    static func meteredConfidence(metered: UInt32?) -> MeteredConfidence? {
        switch metered {
        case 1: .confirmedMetered
        case 2: .confirmedUnmetered
        case 3: .guessedMetered
        case 4: .guessedUnmetered
        default: nil
        }
    }

    /// The reachability for an NMConnectivityState.
    static func reachability(connectivity: UInt32?) -> ConnectivityReachability {
        switch connectivity {
        case 1: .local
        case 2: .captivePortal
        case 3: .limited
        case 4: .internet
        default: .unknown
        }
    }

    /// The interface kind of the primary connection, or `nil` when there is none.
    static func kind(connectionType: String?, deviceType: UInt32?) -> LinuxInterfaceKind? {
        switch connectionType {
        case "802-11-wireless": return .wifi
        case "802-3-ethernet": return .wiredEthernet
        case "gsm", "cdma": return .cellular
        case "bluetooth": return .bluetooth
        default: break
        }
        switch deviceType {
        case 1: return .wiredEthernet
        case 2: return .wifi
        case 5: return .bluetooth
        case 8: return .cellular
        default: break
        }
        guard let connectionType, !connectionType.isEmpty else { return nil }
        return .other
    }

    /// The status to publish and where each field came from.
    ///
    /// - Parameters:
    ///   - link: the rtnetlink/sysfs status.
    ///   - networkManager: NetworkManager's facts, or `nil` while it is absent.
    static func merge(
        link: ConnectivityStatus,
        networkManager: NetworkManagerFacts?
    ) -> (status: ConnectivityStatus, provenance: ConnectivityProvenance) {
        guard let facts = networkManager else {
            return (link, heuristicProvenance)
        }
        let kind = kind(connectionType: facts.primaryConnectionType, deviceType: facts.primaryDeviceType)
        let metered = meteredConfidence(metered: facts.metered)
        var provenance = ConnectivityProvenance(
            isConnected: .rtnetlink,
            interface: kind == nil ? .sysfsHeuristic : .networkManager,
            isExpensive: metered != nil
                ? .networkManager : kind == nil ? .sysfsHeuristic : StatusOrigin("NetworkManager connection type"),
            isConstrained: .defaultValue,
            reachability: .networkManager
        )
        provenance.networkInterface = .rtnetlink
        provenance.networkConnection = .networkManager
        guard link.isConnected else { return (link, provenance) }
        let status = ConnectivityStatus(
            isConnected: true,
            interface: kind?.interface ?? link.interface,
            metered: metered ?? kind.map { .guessed(isMetered: $0.isExpensive) } ?? link.metered,
            isConstrained: link.isConstrained,
            reachability: reachability(connectivity: facts.connectivity)
        ).with(network: network(link: link.network, facts: facts))
        return (status, provenance)
    }

    /// The network in use: the link's interface name (rtnetlink), with the primary connection's `Id` and
    /// its access point's SSID from NetworkManager (`nil` where it reports none: an empty `Id`, no access
    /// point).
    static func network(link: SyncNetwork, facts: NetworkManagerFacts) -> SyncNetwork {
        var network = link
        network.connectionID = facts.primaryConnectionID.flatMap { $0.isEmpty ? nil : $0 }
        network.ssid = facts.ssid
        return network
    }

    /// Where the fields come from without NetworkManager.
    static let heuristicProvenance: ConnectivityProvenance = {
        var provenance = ConnectivityProvenance(
            isConnected: .rtnetlink, interface: .sysfsHeuristic, isExpensive: .sysfsHeuristic,
            isConstrained: .defaultValue, reachability: .defaultValue)
        provenance.networkInterface = .rtnetlink
        return provenance
    }()
}
