/// Every case of Apple's `NWPath.UnsatisfiedReason`, as a platform-neutral value.
package enum PathUnsatisfiedReasonMirror: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// `.notAvailable`: no reason given, or the path is satisfied.
    case notAvailable
    /// `.cellularDenied`: the user turned off cellular data for the app.
    case cellularDenied
    /// `.wifiDenied`: the user turned off Wi-Fi for the app (WLAN and cellular settings in China).
    case wifiDenied
    /// `.localNetworkDenied`: the user denied the app access to the local network.
    case localNetworkDenied
    /// A reason added by a later SDK (`@unknown default`).
    case unknown

    /// A short phrase for logs and provenance notes, such as `cellular data denied to the app`.
    package var description: String {
        switch self {
        case .notAvailable: "no reason given"
        case .cellularDenied: "cellular data denied to the app"
        case .wifiDenied: "Wi-Fi denied to the app"
        case .localNetworkDenied: "local network denied to the app"
        case .unknown: "a reason this SyncGate does not know"
        }
    }
}
