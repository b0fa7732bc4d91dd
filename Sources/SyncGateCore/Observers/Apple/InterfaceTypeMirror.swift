/// Every case of Apple's `NWInterface.InterfaceType`, as a platform-neutral value.
package enum InterfaceTypeMirror: Sendable, Hashable, CaseIterable {
    /// `.wifi`.
    case wifi
    /// `.cellular`.
    case cellular
    /// `.wiredEthernet`.
    case wiredEthernet
    /// `.loopback`.
    case loopback
    /// `.other`: a virtual or otherwise unclassified interface (VPN tunnels, Bluetooth PAN).
    case other

    /// The order in which a path's interface types are tried to name its primary interface: the same as
    /// iCloudSyncStatusKit's (Wi-Fi, cellular, wired, loopback, other).
    static let precedence: [InterfaceTypeMirror] = [.wifi, .cellular, .wiredEthernet, .loopback, .other]

    /// The ``ConnectionInterface`` reported for a path that uses this type; loopback and `.other` are
    /// both ``ConnectionInterface/other`` (SyncGate's interface has no loopback case).
    var connectionInterface: ConnectionInterface {
        switch self {
        case .wifi: .wifi
        case .cellular: .cellular
        case .wiredEthernet: .wiredEthernet
        case .loopback, .other: .other
        }
    }
}
