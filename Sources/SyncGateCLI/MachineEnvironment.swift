import SyncGate

/// This machine's environment as the tool sees it: the platform's observers, and which source decided
/// each field.
package struct MachineEnvironment: Sendable {
    /// The environment built on the observers.
    package let environment: SyncEnvironment
    #if os(Linux) || canImport(Network)
        private let connectivity: ConnectivityObserver
    #endif
    private let power: PowerObserver
    private let storage: StorageObserver
    #if os(Linux)
        private let resources: ResourceObserver
    #endif

    /// The process's machine environment, created on first use and never stopped.
    ///
    /// The commands that follow the machine (`wait`, `run`, `watch`, `status`) end by exiting the
    /// process, and the kernel then closes the observers' sockets and ends their threads. Stopping them
    /// first would only delay that exit: each observer joins its thread, and each D-Bus follower's
    /// socket wait releases an inotify instance, which waits for the kernel's grace period.
    package static let process = MachineEnvironment()

    /// Creates the platform's network, power and storage observers (storage on the working directory), on
    /// Linux the resource observer (PSI and thermal zones), and an environment over them.
    package init() {
        power = PowerObserver()
        storage = StorageObserver()
        #if os(Linux)
            connectivity = ConnectivityObserver()
            resources = ResourceObserver()
            environment = SyncEnvironment(
                connectivity: connectivity, power: power, storage: storage, resources: resources)
        #elseif canImport(Network)
            connectivity = ConnectivityObserver()
            environment = SyncEnvironment(connectivity: connectivity, power: power, storage: storage)
        #else
            environment = SyncEnvironment(power: power, storage: storage)
        #endif
    }

    /// Which source decided each field now, with notes on sources that are missing.
    package var sources: StatusOrigins {
        #if os(Linux)
            StatusOrigins(
                connectivity: connectivity.provenance, power: power.provenance, storage: storage.provenance,
                resources: resources.provenance)
        #elseif canImport(Network)
            StatusOrigins(connectivity: connectivity.provenance, power: power.provenance, storage: storage.provenance)
        #else
            StatusOrigins(connectivity: nil, power: power.provenance, storage: storage.provenance)
        #endif
    }
}
