import SyncGateCore
import SyncGateWire

/// The kind of a Linux network interface as far as SyncGate cares, decided from sysfs facts.
///
/// Linux has no Low Data Mode, so a Linux interface is never constrained; ``isExpensive`` is the
/// heuristic (cellular and Bluetooth PAN links) until NetworkManager's verdict is used.
package enum LinuxInterfaceKind: Sendable, Hashable, CaseIterable {
    /// An 802.11 station (`DEVTYPE=wlan`, `wireless/`, or `phy80211`).
    case wifi
    /// A WWAN modem (`DEVTYPE=wwan`, or a raw-IP/PPP/none-type device backed by hardware).
    case cellular
    /// Physical Ethernet, USB Ethernet adapters included (`type` 1 with a `device` link).
    case wiredEthernet
    /// A Bluetooth PAN link (`DEVTYPE=bluetooth`): reported as `other`, but expensive.
    case bluetooth
    /// Anything else: veth, bridge, bond, VLAN, tun/tap, WireGuard, PPP VPN, unknown.
    case other

    /// The public interface value this kind reports.
    package var interface: ConnectionInterface {
        switch self {
        case .wifi: .wifi
        case .cellular: .cellular
        case .wiredEthernet: .wiredEthernet
        case .bluetooth, .other: .other
        }
    }

    /// Whether traffic over this kind of link is assumed to cost money (cellular, Bluetooth tethering).
    package var isExpensive: Bool {
        self == .cellular || self == .bluetooth
    }

    /// The connected status for a path through a link of this kind (never constrained on Linux); its
    /// ``ConnectivityStatus/metered`` is a guess from the kind.
    package var connectedStatus: ConnectivityStatus { connectedStatus(guessingMetered: isExpensive) }

    /// The connected status for a path through a link of this kind whose metered guess is `isMetered`
    /// (a multipath route's is any of its next hops').
    package func connectedStatus(guessingMetered isMetered: Bool) -> ConnectivityStatus {
        ConnectivityStatus(
            isConnected: true, interface: interface, metered: .guessed(isMetered: isMetered), isConstrained: false)
    }

    /// Classifies an interface from its sysfs facts.
    ///
    /// The rules, first match wins: `DEVTYPE=wlan`, a `wireless/` directory or a `phy80211` link → Wi-Fi;
    /// `DEVTYPE=wwan` → cellular; `DEVTYPE=bluetooth` → Bluetooth; any other `DEVTYPE`, an rtnetlink link
    /// kind (bridge, vlan, wireguard…) or a device under `/sys/devices/virtual` → other; then by hardware
    /// type: Ethernet with a `device` link → wired Ethernet; PPP, raw IP or none with a `device` link →
    /// cellular (WWAN modems); everything else → other.
    package static func classify(_ facts: SysfsInterfaceFacts) -> LinuxInterfaceKind {
        let devType = facts.devType?.lowercased()
        if devType == "wlan" || facts.hasWirelessDirectory || facts.hasPhy80211Link {
            return .wifi
        }
        if devType == "wwan" {
            return .cellular
        }
        if devType == "bluetooth" {
            return .bluetooth
        }
        if devType != nil || facts.linkKind != nil || facts.isVirtual {
            // bridge, vlan, bond, wireguard, gadget…, any rtnetlink "kind", or /sys/devices/virtual.
            return .other
        }
        switch facts.hardwareType {
        case Netlink.HardwareType.ether?:
            return facts.hasDeviceLink ? .wiredEthernet : .other
        case Netlink.HardwareType.ppp?, Netlink.HardwareType.rawIP?, Netlink.HardwareType.none?:
            // WWAN raw-IP net devices use these types; a PPP link without hardware is a VPN or pppd.
            return facts.hasDeviceLink ? .cellular : .other
        default:
            return .other
        }
    }
}
