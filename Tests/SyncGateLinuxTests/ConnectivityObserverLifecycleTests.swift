#if os(Linux)
    import Foundation
    import SyncGateTesting
    import Testing

    @testable import SyncGateCore

    @testable import SyncGateLinux

    /// In-process checks of the real observer in the test's own network namespace. They need no root:
    /// opening rtnetlink sockets and looking up routes are unprivileged, and nothing is sent anywhere.
    @Suite(.timeLimit(.minutes(2)))
    struct ConnectivityObserverLifecycleTests {
        /// What `/proc/self/fd/N` points at (`socket:[inode]`, `pipe:[inode]`), or `nil` when N is closed.
        static func identity(of descriptor: Int32) -> String? {
            try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(descriptor)")
        }

        /// The observer of a reader that could not start (the kernel refused its sockets, or no descriptor
        /// was left), on routing tables polled from a fixture root.
        private func observerWithoutReader(withNetworkManager: Bool, fixture: RouteTableFixture) -> ConnectivityObserver
        {
            let networkManager =
                withNetworkManager
                ? DBusFollowerConfiguration(
                    address: "unix:path=/nonexistent-syncgate-\(getpid())/bus", clock: ManualClock(), initialWait: .zero
                )
                : nil
            return ConnectivityObserver(
                backend: LinuxConnectivityBackend(
                    reader: .failure(ConnectivityObserverError(operation: "socket", code: EMFILE)),
                    networkManager: networkManager, modemManager: nil,
                    poll: {
                        PolledRouteReader(
                            procRoot: fixture.procRoot, sysfsRoot: fixture.sysfsRoot, clock: ManualClock())
                    }))
        }

        /// A reader that could not start: the observer follows the routing tables polled from `/proc`,
        /// attributes to them what rtnetlink would decide, and says why in a note, with NetworkManager
        /// absent as with it not consulted.
        @Test(arguments: [false, true])
        func aReaderThatCouldNotStartIsReplacedByThePolledTables(withNetworkManager: Bool) throws {
            let fixture = try RouteTableFixture()
            try fixture.setIPv4([DefaultRouteTableTests.ipv4("eth0", flags: "0003", metric: 100)])
            try fixture.add(.init(name: "eth0"), index: 2)
            let observer = observerWithoutReader(withNetworkManager: withNetworkManager, fixture: fixture)
            #expect(observer.status.isConnected)
            #expect(observer.status.interface == .wiredEthernet)
            #expect(observer.status.network.interfaceName == "eth0")
            let provenance = observer.provenance
            #expect(provenance.isConnected == .procNetRoute)
            #expect(provenance.interface == .sysfsHeuristic)
            #expect(provenance.networkInterface == .procNetRoute)
            let note =
                "rtnetlink: cannot watch the network (socket failed: \(SystemErrorText.described(EMFILE))); the "
                + "routing tables are read from /proc/net/route and /proc/net/ipv6_route every 1.0 seconds instead"
            #expect(provenance.notes.contains(note), "\(provenance.notes)")
        }

        /// A reader that could not start, and routing tables that cannot be read either: the observer
        /// reports disconnected and says why in a second note.
        @Test func unreadableTablesAreReportedDisconnected() throws {
            let fixture = try RouteTableFixture()
            let observer = observerWithoutReader(withNetworkManager: false, fixture: fixture)
            #expect(observer.status == .disconnected)
            let problem =
                "/proc/net/route (polled): cannot read \(fixture.procRoot)/net/route: "
                + "\(SystemErrorText.described(ENOENT)); IPv4 routes are not followed"
            #expect(observer.provenance.notes.contains(problem), "\(observer.provenance.notes)")
        }

        @Test func descriptorsAreClosedWhenReleased() throws {
            var observer: ConnectivityObserver? = try ConnectivityObserver(debounce: .zero)
            let owned = observer?.fileDescriptors ?? []
            #expect(owned.count == 4)
            let identities = owned.map(Self.identity(of:))
            #expect(identities.allSatisfy { $0?.hasPrefix("socket:") == true || $0?.hasPrefix("pipe:") == true })
            observer = nil
            // A closed number may already be reused by a parallel test, but never for the same socket or pipe.
            for (descriptor, identity) in zip(owned, identities) {
                #expect(Self.identity(of: descriptor) != identity, "descriptor \(descriptor) still open")
            }
        }

        @Test(.timeLimit(.minutes(1)))
        func streamKeepsObserverAliveUntilDropped() async throws {
            weak var released: ConnectivityObserver?
            var owned: [Int32] = []
            var identities: [String?] = []
            do {
                var observer: ConnectivityObserver? = try ConnectivityObserver(debounce: .milliseconds(200))
                released = observer
                owned = observer?.fileDescriptors ?? []
                identities = owned.map(Self.identity(of:))
                let first = observer?.status
                var statuses = try #require(observer?.statusStream).makeAsyncIterator()
                observer = nil
                #expect(released != nil, "a stream being consumed keeps its observer alive")
                #expect(await statuses.next() == first)
            }
            #expect(released == nil, "dropping the stream releases the observer")
            for (descriptor, identity) in zip(owned, identities) {
                #expect(Self.identity(of: descriptor) != identity, "descriptor \(descriptor) still open")
            }
        }

        @Test func firstStatusIsReadyBeforeInitReturns() throws {
            let observer = try ConnectivityObserver(debounce: .zero)
            let plain = ConnectivityObserver()
            #expect(observer.status == plain.status)
            #expect(observer.status.isConstrained == false)
            #expect(observer.counters.evaluations >= 1)
        }

        @Test func environmentMonitorsTheNetworkOnLinux() {
            let environment = SyncEnvironment(monitoring: .default)
            #expect(environment.monitoredParts.contains(.network))
            #expect(!environment.monitoredParts.contains(.account))
            #expect(!environment.monitoredParts.contains(.cloudDrive))
            #expect(SyncEnvironment(monitoring: [.account, .syncEvent]).monitoredParts.isEmpty)
        }
    }
#endif
