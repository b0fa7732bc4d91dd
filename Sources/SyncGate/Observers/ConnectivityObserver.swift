#if canImport(Network) && !os(Linux)
    import Dispatch
    import Network
#endif

/// The device's network path, observed from the operating system, multicast to any number of readers.
///
/// `ConnectivityObserver()` picks the platform backend:
/// * **Linux**: rtnetlink and sysfs. One socket subscribed to link and IPv4/IPv6 route changes is read on
///   a dedicated thread; each burst of changes is coalesced (``init(debounce:sysfsRoot:clock:)``) and
///   answered by route lookups for a public IPv4 and IPv6 address (nothing is sent) plus a link cache.
///   Connected means a unicast route, not linkdown, through an interface that is up, running and not
///   loopback. The interface kind comes from sysfs; cellular and Bluetooth links are expensive; Linux
///   has no Low Data Mode, so ``ConnectivityStatus/isConstrained`` is always `false`. No polling, and no
///   wake-ups while nothing changes.
/// * **Apple platforms**: one `NWPathMonitor`.
/// * **Elsewhere**: no backend; the status stays ``ConnectivityStatus/disconnected``.
///
/// The first status is computed before the initializer returns, so ``status`` is right from the first
/// read. Releasing the observer stops its thread and closes its sockets, and ends its streams.
///
/// ```swift
/// let observer = ConnectivityObserver()
/// for await status in observer.statusStream where status.isConnected {
///     break
/// }
/// ```
public final class ConnectivityObserver: ConnectivityObserving, BroadcastBacked {
    /// The broadcast that holds the status.
    package let broadcast: StatusBroadcast<ConnectivityStatus>

    #if os(Linux)
        private let monitor: LinuxConnectivityMonitor?

        /// Creates an observer on the platform backend, with a 200 ms debounce on Linux.
        ///
        /// If the kernel refuses the netlink sockets (some sandboxes do), the observer reports
        /// ``ConnectivityStatus/disconnected`` and never changes; use ``init(debounce:sysfsRoot:clock:)`` to
        /// learn why instead.
        public convenience init() {
            self.init(monitor: try? LinuxConnectivityMonitor(configuration: ConnectivityMonitorConfiguration()))
        }

        /// Creates an observer on rtnetlink and sysfs with explicit options.
        ///
        /// - Parameters:
        ///   - debounce: how long a burst of kernel notifications is coalesced before the path is looked up
        ///     again; `.zero` looks it up after every batch read from the socket. A burst is answered
        ///     between one and two windows after its last notification.
        ///   - sysfsRoot: where sysfs is mounted; the interface kind is read below `class/net/`.
        ///   - clock: the clock that times the debounce window.
        /// - Throws: ``ConnectivityObserverError`` when the netlink sockets cannot be opened or the first
        ///   link dump fails.
        public convenience init(
            debounce: Duration = .milliseconds(200),
            sysfsRoot: String = "/sys",
            clock: any Clock<Duration> = ContinuousClock()
        ) throws(ConnectivityObserverError) {
            try self.init(
                configuration: ConnectivityMonitorConfiguration(debounce: debounce, sysfsRoot: sysfsRoot, clock: clock)
            )
        }

        /// Creates an observer with every setting of the backend, for tests and tools in the package.
        package convenience init(configuration: ConnectivityMonitorConfiguration) throws(ConnectivityObserverError) {
            self.init(monitor: try LinuxConnectivityMonitor(configuration: configuration))
        }

        private init(monitor: LinuxConnectivityMonitor?) {
            self.monitor = monitor
            broadcast = monitor?.broadcast ?? StatusBroadcast(.disconnected)
        }

        /// The descriptors the backend holds open (empty without a backend), for tests.
        package var fileDescriptors: [Int32] { monitor?.fileDescriptors ?? [] }

        /// How many evaluations and link-cache resyncs (after overflow) have happened, for tests and tools.
        package var counters: (evaluations: Int, resyncs: Int) { monitor?.counters ?? (0, 0) }

        deinit {
            monitor?.stop()
            broadcast.finish()
        }
    #elseif canImport(Network)
        // NWPathMonitor is thread-safe; the observer only calls `cancel()` on it after `init`.
        nonisolated(unsafe) private let monitor: NWPathMonitor

        /// Creates an observer on one `NWPathMonitor`.
        ///
        /// Waits up to one second for the monitor's first path, so ``status`` is right from the first read.
        public init() {
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

        deinit {
            monitor.cancel()
            broadcast.finish()
        }
    #else
        /// Creates an observer; this platform has no backend yet, so it always reports disconnected.
        public init() {
            broadcast = StatusBroadcast(.disconnected)
        }

        deinit {
            broadcast.finish()
        }
    #endif

    /// The current status. Thread-safe; never blocks for longer than a short critical section.
    public var status: ConnectivityStatus { broadcast.value }

    /// A new multicast stream: the current status first, then every change.
    public var statusStream: AsyncStream<ConnectivityStatus> { broadcast.stream() }
}
