/// Every case of Apple's `NWPath.Status`, as a platform-neutral value the network mapping can be tested
/// with on any platform.
package enum PathStatusMirror: Sendable, Hashable, CaseIterable {
    /// `.satisfied`: the path can establish connections and send data.
    case satisfied
    /// `.unsatisfied`: the path is not available for use.
    case unsatisfied
    /// `.requiresConnection`: not available now, but a new connection may activate it (a VPN on demand,
    /// a cellular context that is not up).
    case requiresConnection
    /// A status added by a later SDK (`@unknown default`).
    case unknown
}
