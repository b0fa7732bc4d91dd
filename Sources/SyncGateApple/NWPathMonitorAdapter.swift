import SyncGateCore

#if canImport(Network)
    import Dispatch
    import Network

    /// The ``PathMonitoring`` seam on one `NWPathMonitor`, delivering on a private serial queue.
    final class NWPathMonitorAdapter: PathMonitoring {
        // NWPathMonitor is thread-safe; only `start` and `cancel` are called on it.
        private let monitor = UncheckedSendable(NWPathMonitor())

        func start(_ handler: @escaping @Sendable (PathSnapshot) -> Void) {
            monitor.value.pathUpdateHandler = { path in handler(PathSnapshot(path)) }
            monitor.value.start(queue: DispatchQueue(label: "SyncGate.ConnectivityObserver"))
        }

        func cancel() {
            monitor.value.cancel()
        }
    }

    extension PathSnapshot {
        /// The facts of `path`, every enum case mapped by name.
        init(_ path: NWPath) {
            let status: PathStatusMirror =
                switch path.status {
                case .satisfied: .satisfied
                case .unsatisfied: .unsatisfied
                case .requiresConnection: .requiresConnection
                @unknown default: .unknown
                }
            let reason: PathUnsatisfiedReasonMirror =
                switch path.unsatisfiedReason {
                case .notAvailable: .notAvailable
                case .cellularDenied: .cellularDenied
                case .wifiDenied: .wifiDenied
                case .localNetworkDenied: .localNetworkDenied
                @unknown default: .unknown
                }
            let types: [(NWInterface.InterfaceType, InterfaceTypeMirror)] = [
                (.wifi, .wifi), (.cellular, .cellular), (.wiredEthernet, .wiredEthernet), (.loopback, .loopback),
                (.other, .other),
            ]
            self.init(
                status: status, unsatisfiedReason: reason,
                usedInterfaceTypes: Set(types.filter { path.usesInterfaceType($0.0) }.map(\.1)),
                isExpensive: path.isExpensive, isConstrained: path.isConstrained)
        }
    }

    extension ConnectivityObserver {
        /// Creates an observer on one `NWPathMonitor`.
        ///
        /// Waits up to one second for the monitor's first path, so ``status`` is right from the first read.
        public convenience init() {
            let follower = PathFollower(monitor: NWPathMonitorAdapter())
            follower.waitForFirstSnapshot(seconds: 1)
            self.init(backend: follower)
        }
    }
#endif
