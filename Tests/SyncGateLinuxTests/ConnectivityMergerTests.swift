#if os(Linux)
    import Foundation
    import SyncGateTesting
    import Testing

    @testable import SyncGateCore

    @testable import SyncGateLinux

    /// The merger of rtnetlink and NetworkManager publishes outside its lock: whoever follows the
    /// observer synchronously may call back into it.
    @Suite(.timeLimit(.minutes(1)))
    struct ConnectivityMergerTests {
        @Test("a synchronous observer of the observer's broadcast can read provenance")
        func synchronousObserverReadsProvenance() async throws {
            let link = StatusBroadcast(ConnectivityStatus.disconnected)
            let observer = ConnectivityObserver(
                linkStatus: link,
                networkManager: DBusFollowerConfiguration(
                    address: "unix:path=/nonexistent/syncgate-bus", clock: ManualClock(), initialWait: .seconds(10)))
            let seen = AsyncStream.makeStream(of: ConnectivityProvenance.self)
            let token = observer.broadcast.addObserver { [weak observer] _ in
                guard let observer else { return }
                seen.continuation.yield(observer.provenance)
            }
            defer { observer.broadcast.removeObserver(token) }
            // Sent from a thread of its own, as the reader thread sends: a deadlock there fails this test
            // at its time limit instead of blocking a thread of the test runner's pool.
            Thread { link.send(.connected(via: .wiredEthernet)) }.start()
            var provenances = seen.stream.makeAsyncIterator()
            let provenance = try #require(await provenances.next())
            #expect(provenance.isConnected == .rtnetlink)
            #expect(observer.status == .connected(via: .wiredEthernet))
        }
    }
#endif
