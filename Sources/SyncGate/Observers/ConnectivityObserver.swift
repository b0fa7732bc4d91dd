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
///   wake-ups while nothing changes. When NetworkManager runs on the system bus, its `Metered` verdict,
///   its primary connection's kind and its connectivity check (``ConnectivityStatus/reachability``) win
///   over the heuristic, followed through `PropertiesChanged`; rtnetlink stays the source of "connected".
///   Without the bus or NetworkManager (or when it stops), the heuristic applies, and NetworkManager is
///   picked up again when it returns. ``provenance`` tells which source decided each field.
/// * **Apple platforms**: one `NWPathMonitor`.
/// * **Elsewhere**: no backend; the status stays ``ConnectivityStatus/disconnected``.
///
/// The first status is computed before the initializer returns, so ``status`` is right from the first
/// read; on Linux the initializer waits up to one second for NetworkManager's first answer (no wait at
/// all when there is no system bus). Releasing the observer stops its thread and closes its sockets; a stream
/// obtained from ``statusStream`` keeps the observer alive while it is being consumed.
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
        private let merger: LinuxConnectivityMerger
        private let link: StatusBroadcast<ConnectivityStatus>
        private let linkObserver: UInt64
        private let networkManager: NetworkManagerSource?

        /// Creates an observer on the platform backend, with a 200 ms debounce on Linux.
        ///
        /// If the kernel refuses the netlink sockets (some sandboxes do), the observer reports
        /// ``ConnectivityStatus/disconnected`` and never changes; use ``init(debounce:sysfsRoot:clock:)`` to
        /// learn why instead.
        public convenience init() {
            self.init(
                monitor: try? LinuxConnectivityMonitor(configuration: ConnectivityMonitorConfiguration()),
                networkManager: DBusSourceConfiguration()
            )
        }

        /// Creates an observer on rtnetlink and sysfs (and NetworkManager on the system bus) with explicit options.
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
                configuration: ConnectivityMonitorConfiguration(debounce: debounce, sysfsRoot: sysfsRoot, clock: clock),
                networkManager: DBusSourceConfiguration()
            )
        }

        /// Creates an observer with every setting of the backend, for tests and tools in the package.
        ///
        /// - Parameter networkManager: where to follow NetworkManager; `nil` (the default) uses rtnetlink
        ///   and sysfs alone.
        package convenience init(
            configuration: ConnectivityMonitorConfiguration,
            networkManager: DBusSourceConfiguration? = nil
        ) throws(ConnectivityObserverError) {
            self.init(
                monitor: try LinuxConnectivityMonitor(configuration: configuration), networkManager: networkManager)
        }

        /// Creates an observer whose link status comes from `linkStatus` instead of rtnetlink, merged with
        /// NetworkManager's facts from the given bus; for tests of the D-Bus source.
        package convenience init(
            linkStatus: StatusBroadcast<ConnectivityStatus>, networkManager: DBusSourceConfiguration?
        ) {
            self.init(monitor: nil, link: linkStatus, networkManager: networkManager)
        }

        private convenience init(monitor: LinuxConnectivityMonitor?, networkManager: DBusSourceConfiguration?) {
            self.init(
                monitor: monitor, link: monitor?.broadcast ?? StatusBroadcast(.disconnected),
                networkManager: networkManager)
        }

        private init(
            monitor: LinuxConnectivityMonitor?,
            link: StatusBroadcast<ConnectivityStatus>,
            networkManager configuration: DBusSourceConfiguration?
        ) {
            self.monitor = monitor
            self.link = link
            let merger = LinuxConnectivityMerger(link: link.value)
            self.merger = merger
            broadcast = merger.broadcast
            linkObserver = link.addObserver { [weak link, weak merger] _ in
                guard let link, let merger else { return }
                merger.update(link: link.value)
            }
            merger.update(link: link.value)
            if let configuration {
                let source = NetworkManagerSource(configuration: configuration) { [weak merger] facts in
                    merger?.update(networkManager: facts)
                }
                source.start(waitingUpTo: configuration.initialWait)
                networkManager = source
            } else {
                networkManager = nil
            }
        }

        /// The descriptors the backend holds open (empty without a backend), for tests.
        package var fileDescriptors: [Int32] { monitor?.fileDescriptors ?? [] }

        /// How many evaluations and link-cache resyncs (after overflow) have happened, for tests and tools.
        package var counters: (evaluations: Int, resyncs: Int) { monitor?.counters ?? (0, 0) }

        /// Which source decided each field of ``status`` (rtnetlink, sysfs heuristic or NetworkManager), with
        /// notes on why NetworkManager is not used and on problems met with it.
        public var provenance: ConnectivityProvenance {
            var provenance = monitor == nil && networkManager == nil ? ConnectivityProvenance.none : merger.provenance
            provenance.notes += networkManager?.notes ?? ["NetworkManager: not consulted"]
            return provenance
        }

        deinit {
            networkManager?.stop()
            link.removeObserver(linkObserver)
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

        /// Which source decided each field of ``status``: `NWPathMonitor`, except reachability (no validator).
        public var provenance: ConnectivityProvenance {
            ConnectivityProvenance(
                isConnected: .networkPathMonitor, interface: .networkPathMonitor, isExpensive: .networkPathMonitor,
                isConstrained: .networkPathMonitor, reachability: .defaultValue)
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

        /// Which source decided each field of ``status``: none on this platform.
        public var provenance: ConnectivityProvenance { .none }

        deinit {
            broadcast.finish()
        }
    #endif

    /// The current status. Thread-safe; never blocks for longer than a short critical section.
    public var status: ConnectivityStatus { broadcast.value }

    /// A new multicast stream: the current status first, then every change.
    public var statusStream: AsyncStream<ConnectivityStatus> { broadcast.stream(retaining: self) }
}
