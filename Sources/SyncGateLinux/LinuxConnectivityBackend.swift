import SyncGateCore

#if os(Linux)
    /// The connectivity backend on Linux: rtnetlink and sysfs (``LinuxConnectivityReader``), merged with
    /// NetworkManager's and ModemManager's facts from the system bus (``LinuxConnectivityMerger``,
    /// ``NetworkManagerFollower``, ``ModemManagerFollower``).
    final class LinuxConnectivityBackend: PlatformBackend {
        /// The broadcast that holds the merged status (the merger's).
        let broadcast: StatusBroadcast<ConnectivityStatus>
        private let reader: LinuxConnectivityReader?
        /// Why rtnetlink's reader could not start, and what follows the default route instead.
        typealias Fallback = (failure: ConnectivityObserverError, poller: PolledRouteReader)

        /// The fallback, when rtnetlink's reader could not start.
        private let fallback: Fallback?
        private let merger: LinuxConnectivityMerger
        private let link: StatusBroadcast<ConnectivityStatus>
        private let linkObserver: UInt64
        private let networkManager: NetworkManagerFollower?
        private let modemManager: ModemManagerFollower?

        /// Creates a backend on the reader `reader` made, or, when it could not start, on the routing
        /// tables polled from `/proc` (the reader `poll` makes), with the failure among the notes of
        /// ``provenance``.
        convenience init(
            reader: Result<LinuxConnectivityReader, ConnectivityObserverError>,
            networkManager: DBusFollowerConfiguration?, modemManager: DBusFollowerConfiguration?,
            poll: () -> PolledRouteReader = { PolledRouteReader() }
        ) {
            switch reader {
            case .success(let started):
                self.init(
                    reader: started, link: started.broadcast, networkManager: networkManager,
                    modemManager: modemManager)
            case .failure(let failure):
                let poller = poll()
                self.init(
                    reader: nil, link: poller.broadcast, networkManager: networkManager,
                    modemManager: modemManager, fallback: (failure, poller))
            }
        }

        /// Creates a backend whose link status comes from `link`, merged with NetworkManager's facts when
        /// `networkManager` is given and with ModemManager's when `modemManager` is; waits up to each
        /// configuration's `initialWait` for that service's first answer.
        init(
            reader: LinuxConnectivityReader?,
            link: StatusBroadcast<ConnectivityStatus>,
            networkManager configuration: DBusFollowerConfiguration?,
            modemManager modemConfiguration: DBusFollowerConfiguration?,
            fallback: Fallback? = nil
        ) {
            self.reader = reader
            self.fallback = fallback
            self.link = link
            let merger = LinuxConnectivityMerger(link: link.value)
            self.merger = merger
            broadcast = merger.broadcast
            // No weak references on the kernel's path: an object ever weakly referenced keeps its reference
            // counts in a side table, and every retain of it takes the runtime's slow path. `link` calls this
            // observer itself, from a method of its own, so it is alive whenever the observer runs; `merger`
            // is held until ``stop()`` removes the observer.
            linkObserver = link.addObserver { [unowned(unsafe) link, merger] _ in
                merger.update(link: link.value)
            }
            merger.update(link: link.value)
            if let configuration {
                let source = NetworkManagerFollower(configuration: configuration) { [weak merger] facts in
                    merger?.update(networkManager: facts)
                }
                source.start(waitingUpTo: configuration.initialWait)
                networkManager = source
            } else {
                networkManager = nil
            }
            if let modemConfiguration {
                let source = ModemManagerFollower(configuration: modemConfiguration) { [weak merger] facts in
                    merger?.update(modemManager: facts)
                }
                source.start(waitingUpTo: modemConfiguration.initialWait)
                modemManager = source
            } else {
                modemManager = nil
            }
        }

        /// The descriptors the reader holds open (empty without one).
        var fileDescriptors: [Int32] { reader?.fileDescriptors ?? [] }

        /// How many evaluations and link-cache resyncs (after overflow) have happened.
        var counters: ConnectivityReaderCounters { reader?.counters ?? ConnectivityReaderCounters() }

        /// Why rtnetlink is not watched and what is read instead; `nil` while rtnetlink is watched.
        var fallbackNote: String? { fallback.map(Self.note(for:)) }

        /// The note of ``provenance`` and ``fallbackNote`` for `fallback`.
        private static func note(for fallback: Fallback) -> String {
            "rtnetlink: cannot watch the network (\(fallback.failure)); the routing tables are read from "
                + "/proc/net/route and /proc/net/ipv6_route every \(fallback.poller.interval) instead"
        }

        /// rtnetlink, the sysfs heuristic, NetworkManager or ModemManager per field, with their notes.
        var provenance: ConnectivityProvenance {
            var provenance =
                reader == nil && fallback == nil && networkManager == nil && modemManager == nil
                ? ConnectivityProvenance.none : merger.provenance
            if let fallback {
                // The routing tables polled from /proc decide what rtnetlink would have.
                provenance.replace([.rtnetlink], with: .procNetRoute)
                provenance.notes.append(Self.note(for: fallback))
                if let problem = fallback.poller.problem {
                    provenance.notes.append("\(StatusOrigin.procNetRoute): \(problem); IPv4 routes are not followed")
                }
            }
            provenance.notes += networkManager?.notes ?? ["NetworkManager: not consulted"]
            provenance.notes += modemManager?.notes ?? ["ModemManager: not consulted"]
            return provenance
        }

        /// Stops NetworkManager's and ModemManager's sources, unhooks the merger and stops the reader thread.
        func stop() {
            networkManager?.stop()
            modemManager?.stop()
            link.removeObserver(linkObserver)
            reader?.stop()
            fallback?.poller.stop()
        }
    }

    extension ConnectivityObserver {
        /// Creates an observer on the platform backend; on Linux, losses are coalesced for 200 ms and gains
        /// reported at once (see ``init(debounce:sysfsRoot:clock:)``).
        ///
        /// If the kernel refuses the netlink sockets (a systemd unit whose `RestrictAddressFamilies=` leaves
        /// out `AF_NETLINK`, some sandboxes, a process out of descriptors), the observer reads the kernel's
        /// main routing table from `/proc/net/route` and `/proc/net/ipv6_route` every second instead: a
        /// change is seen up to a second late, a loss is reported only when a second reading 200 ms later
        /// still finds it, and policy routing (`ip rule`) is not followed. Its
        /// ``provenance`` then says why in a note and attributes the fields rtnetlink would decide to
        /// ``StatusOrigin/procNetRoute``; if those files cannot be read either, it reports
        /// ``ConnectivityStatus/disconnected`` and a second note says why. Use
        /// ``init(debounce:sysfsRoot:clock:)`` to get the error thrown instead.
        public convenience init() {
            self.init(
                backend: LinuxConnectivityBackend(
                    reader: Result { () throws(ConnectivityObserverError) in
                        try LinuxConnectivityReader(configuration: ConnectivityReaderConfiguration())
                    },
                    networkManager: DBusFollowerConfiguration(), modemManager: DBusFollowerConfiguration()))
        }

        /// Creates an observer on rtnetlink and sysfs (and NetworkManager on the system bus) with explicit options.
        ///
        /// - Parameters:
        ///   - debounce: how long a burst of kernel notifications is coalesced before a loss is reported.
        ///     A burst is answered between one and two windows after its last notification; but while the
        ///     status lacks a network requirement, each batch is also looked up at once, and a result that
        ///     gains a requirement and loses none is reported at once. `.zero` looks the path up and
        ///     reports it after every batch read from the socket.
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
                configuration: ConnectivityReaderConfiguration(debounce: debounce, sysfsRoot: sysfsRoot, clock: clock),
                networkManager: DBusFollowerConfiguration(), modemManager: DBusFollowerConfiguration()
            )
        }

        /// Creates an observer with every setting of the backend, for tests and tools in the package.
        ///
        /// - Parameters:
        ///   - configuration: the rtnetlink reader's settings.
        ///   - networkManager: where to follow NetworkManager; `nil` (the default) uses rtnetlink and sysfs
        ///     alone.
        ///   - modemManager: where to follow ModemManager for roaming; `nil` (the default) reports no roaming.
        package convenience init(
            configuration: ConnectivityReaderConfiguration,
            networkManager: DBusFollowerConfiguration? = nil,
            modemManager: DBusFollowerConfiguration? = nil
        ) throws(ConnectivityObserverError) {
            self.init(
                backend: LinuxConnectivityBackend(
                    reader: .success(try LinuxConnectivityReader(configuration: configuration)),
                    networkManager: networkManager, modemManager: modemManager)
            )
        }

        /// Creates an observer whose link status comes from `linkStatus` instead of rtnetlink, merged with
        /// NetworkManager's (and, when `modemManager` is given, ModemManager's) facts from the given buses;
        /// for tests of the D-Bus sources.
        package convenience init(
            linkStatus: StatusBroadcast<ConnectivityStatus>, networkManager: DBusFollowerConfiguration?,
            modemManager: DBusFollowerConfiguration? = nil
        ) {
            self.init(
                backend: LinuxConnectivityBackend(
                    reader: nil, link: linkStatus, networkManager: networkManager, modemManager: modemManager))
        }

        /// Why the kernel's notifications are not followed and what is read instead, when the kernel refused
        /// the rtnetlink sockets (the first note of ``provenance`` then); `nil` while they are followed.
        package var kernelRefusal: String? { backend(as: LinuxConnectivityBackend.self).fallbackNote }

        /// The descriptors the backend holds open (empty without a backend), for tests.
        package var fileDescriptors: [Int32] { backend(as: LinuxConnectivityBackend.self).fileDescriptors }

        /// How many evaluations, link-cache resyncs (after overflow) and stale lookups have happened, for tests
        /// and tools.
        package var counters: ConnectivityReaderCounters { backend(as: LinuxConnectivityBackend.self).counters }
    }
#endif
