/// The kind of network interface that carries the device's traffic.
public enum ConnectionInterface: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// A Wi-Fi (802.11) link.
    case wifi
    /// A cellular (WWAN) link.
    case cellular
    /// A wired Ethernet link, USB Ethernet adapters included.
    case wiredEthernet
    /// Any other link: VPN tunnels, bridges, virtual Ethernet, Bluetooth PAN and the like.
    case other
    /// No interface: the device is not connected.
    case none

    /// A short lowercase name, such as `wifi` or `wired-ethernet`.
    public var description: String {
        switch self {
        case .wifi: "wifi"
        case .cellular: "cellular"
        case .wiredEthernet: "wired-ethernet"
        case .other: "other"
        case .none: "none"
        }
    }
}
