import SyncGate
import SyncGateCore

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

    /// The process's machine environment, created by the first call with `pressureThresholds` and never
    /// stopped; every later call returns that same environment.
    ///
    /// A process follows one environment, with one set of thresholds: a later call with other thresholds
    /// is a programming error and traps. The commands that follow the machine (`wait`, `run`, `watch`,
    /// `status`) end by exiting the process, and the kernel then closes the observers' sockets and ends
    /// their threads. Stopping them first would only delay that exit: each observer joins its thread, and
    /// each D-Bus follower's socket wait releases an inotify instance, which waits for the kernel's grace
    /// period.
    package static func process(pressureThresholds: PressureThresholds = .default) -> MachineEnvironment {
        processEnvironment.withLock { machine in
            if let machine {
                precondition(
                    machine.pressureThresholds == pressureThresholds,
                    "MachineEnvironment.process: created with pressure thresholds \(machine.pressureThresholds), "
                        + "asked for \(pressureThresholds)")
                return machine
            }
            let created = MachineEnvironment(pressureThresholds: pressureThresholds)
            machine = created
            return created
        }
    }

    private static let processEnvironment = LockedState<MachineEnvironment?>(nil)

    /// The thresholds at or above which a resource counts as under pressure (on Linux, the resource
    /// observer's; elsewhere pressure is not read and they decide nothing).
    package let pressureThresholds: PressureThresholds

    /// Creates the platform's network, power and storage observers (storage on the working directory), on
    /// Linux the resource observer (PSI with `pressureThresholds`, and thermal zones), and an environment
    /// over them.
    ///
    /// - Parameter pressureThresholds: each above 0 and at most 100
    ///   (``SyncGate/PressureThresholds/validationError``); ``PressureThresholdParser`` reads only such.
    package init(pressureThresholds: PressureThresholds = .default) {
        self.pressureThresholds = pressureThresholds
        power = PowerObserver()
        storage = StorageObserver()
        #if os(Linux)
            connectivity = ConnectivityObserver()
            resources = ResourceObserver(thresholds: pressureThresholds)
            environment = SyncEnvironment(
                connectivity: connectivity, power: power, storage: storage, resources: resources)
        #elseif canImport(Network)
            connectivity = ConnectivityObserver()
            environment = SyncEnvironment(connectivity: connectivity, power: power, storage: storage)
        #else
            environment = SyncEnvironment(power: power, storage: storage)
        #endif
    }

    /// Why kernel notifications that the observers need are not followed, and what they read instead
    /// (rtnetlink, uevents); empty where they are followed.
    package var kernelRefusals: [String] {
        #if os(Linux)
            [connectivity.kernelRefusal, power.kernelRefusal].compactMap { $0 }
        #else
            []
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
