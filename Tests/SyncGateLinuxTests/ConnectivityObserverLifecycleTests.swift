#if os(Linux)
    import Foundation
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
