import SyncGate

/// This machine's environment as the tool sees it: the platform's observers, and which source decided
/// each field.
public struct MachineEnvironment: Sendable {
    /// The environment built on the observers.
    public let environment: SyncEnvironment
    #if os(Linux) || canImport(Network)
        private let connectivity: ConnectivityObserver
    #endif
    private let power: PowerObserver

    /// Creates the platform's network and power observers and an environment over them.
    public init() {
        power = PowerObserver()
        #if os(Linux) || canImport(Network)
            connectivity = ConnectivityObserver()
            environment = SyncEnvironment(connectivity: connectivity, power: power)
        #else
            environment = SyncEnvironment(power: power)
        #endif
    }

    /// Which source decided each field now, with notes on sources that are missing.
    public var sources: StatusOrigins {
        #if os(Linux) || canImport(Network)
            StatusOrigins(connectivity: connectivity.provenance, power: power.provenance)
        #else
            StatusOrigins(connectivity: nil, power: power.provenance)
        #endif
    }
}
