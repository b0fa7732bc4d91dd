#if canImport(Network) && !os(Linux)
    import Dispatch
    import Network

    /// The connectivity backend on Apple platforms: one `NWPathMonitor`.
    final class AppleConnectivityBackend: PlatformBackend {
        /// The broadcast that holds the status.
        let broadcast: StatusBroadcast<ConnectivityStatus>
        // NWPathMonitor is thread-safe; the backend only calls `cancel()` on it after `init`.
        nonisolated(unsafe) private let monitor: NWPathMonitor

        /// Starts one `NWPathMonitor` and waits up to one second for its first path.
        init() {
            let monitor = NWPathMonitor()
            let broadcast = StatusBroadcast(ConnectivityStatus.disconnected)
            let first = DispatchSemaphore(value: 0)
            monitor.pathUpdateHandler = { path in
                broadcast.send(Self.status(of: path))
                first.signal()
            }
            monitor.start(queue: DispatchQueue(label: "SyncGate.ConnectivityObserver"))
            _ = first.wait(timeout: .now() + 1)
            self.monitor = monitor
            self.broadcast = broadcast
        }

        private static func status(of path: NWPath) -> ConnectivityStatus {
            guard path.status == .satisfied else { return .disconnected }
            let order: [(NWInterface.InterfaceType, ConnectionInterface)] = [
                (.wifi, .wifi), (.cellular, .cellular), (.wiredEthernet, .wiredEthernet),
            ]
            let interface = order.first { path.usesInterfaceType($0.0) }?.1 ?? .other
            return ConnectivityStatus(
                isConnected: true,
                interface: interface,
                isExpensive: path.isExpensive,
                isConstrained: path.isConstrained
            )
        }

        /// `NWPathMonitor` for every field except reachability (no validator).
        var provenance: ConnectivityProvenance {
            ConnectivityProvenance(
                isConnected: .networkPathMonitor, interface: .networkPathMonitor, isExpensive: .networkPathMonitor,
                isConstrained: .networkPathMonitor, reachability: .defaultValue)
        }

        /// Cancels the path monitor.
        func stop() {
            monitor.cancel()
        }
    }

    extension ConnectivityObserver {
        /// Creates an observer on one `NWPathMonitor`.
        ///
        /// Waits up to one second for the monitor's first path, so ``status`` is right from the first read.
        public convenience init() {
            self.init(backend: AppleConnectivityBackend())
        }
    }
#endif
