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

        /// A reader that could not start (the kernel refused its sockets, or no descriptor was left): the
        /// observer reports disconnected, attributes nothing to rtnetlink or sysfs, and says why in a note,
        /// with NetworkManager absent as with it not consulted.
        @Test(arguments: [false, true])
        func aReaderThatCouldNotStartIsNamedInTheProvenance(withNetworkManager: Bool) throws {
            let networkManager =
                withNetworkManager
                ? DBusFollowerConfiguration(
                    address: "unix:path=/nonexistent-syncgate-\(getpid())/bus", clock: ManualClock(), initialWait: .zero
                )
                : nil
            let observer = ConnectivityObserver(
                backend: LinuxConnectivityBackend(
                    reader: .failure(ConnectivityObserverError(operation: "socket", code: EMFILE)),
                    networkManager: networkManager, modemManager: nil))
            #expect(observer.status == .disconnected)
            let provenance = observer.provenance
            #expect(provenance.isConnected == .defaultValue)
            #expect(provenance.interface == .defaultValue)
            #expect(provenance.networkInterface == .defaultValue)
            #expect(
                provenance.notes.contains(
                    "rtnetlink: cannot watch the network (socket failed: \(SystemErrorText.described(EMFILE))); it is reported disconnected"
                ),
                "\(provenance.notes)")
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
