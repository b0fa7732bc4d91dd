import Testing

@testable import SyncGateCore

/// The network source on Apple platforms, above its `NWPathMonitor` seam: every case of `NWPath.Status`,
/// `NWPath.UnsatisfiedReason` and `NWInterface.InterfaceType` mapped, and the follower's guarantees.
@Suite("Apple path mapping", .timeLimit(.minutes(1)))
struct PathMappingTests {
    static let statusTable: [(PathStatusMirror, Bool)] = [
        (.satisfied, true), (.unsatisfied, false), (.requiresConnection, false), (.unknown, false),
    ]

    @Test("every NWPath.Status: only a satisfied path is connected", arguments: statusTable)
    func everyStatus(status: PathStatusMirror, connected: Bool) {
        let snapshot = PathSnapshot(
            status: status, usedInterfaceTypes: [.wifi], isExpensive: true, isConstrained: true)
        #expect(snapshot.connectivityStatus.isConnected == connected)
        if connected {
            #expect(snapshot.connectivityStatus == .connected(via: .wifi, isExpensive: true, isConstrained: true))
            #expect(snapshot.unusableReason == nil)
        } else {
            #expect(snapshot.connectivityStatus == .disconnected, "flags of an unusable path must not leak")
            #expect(snapshot.unusableReason != nil)
        }
    }

    /// `isExpensive` is the system's judgement: confirmed either way, except that Low Data Mode makes an
    /// inexpensive path only a guess.
    @Test(
        "isExpensive and isConstrained to the metered confidence",
        arguments: [
            (true, false, MeteredConfidence.confirmedMetered), (true, true, .confirmedMetered),
            (false, false, .confirmedUnmetered), (false, true, .guessedUnmetered),
        ])
    func meteredConfidence(expensive: Bool, constrained: Bool, confidence: MeteredConfidence) {
        let snapshot = PathSnapshot(
            status: .satisfied, usedInterfaceTypes: [.wifi], isExpensive: expensive, isConstrained: constrained)
        #expect(snapshot.connectivityStatus.metered == confidence)
        #expect(snapshot.connectivityStatus.isExpensive == expensive)
        let unusable = PathSnapshot(status: .unsatisfied, isExpensive: expensive, isConstrained: constrained)
        #expect(unusable.connectivityStatus.metered == .unknown)
    }

    @Test("the status table covers every case") func statusTableIsComplete() {
        #expect(Set(Self.statusTable.map(\.0)) == Set(PathStatusMirror.allCases))
        #expect(Set(Self.interfaceTable.map(\.0)) == Set(InterfaceTypeMirror.allCases))
        #expect(Set(Self.reasonTable.map(\.0)) == Set(PathUnsatisfiedReasonMirror.allCases))
    }

    static let interfaceTable: [(InterfaceTypeMirror, ConnectionInterface)] = [
        (.wifi, .wifi), (.cellular, .cellular), (.wiredEthernet, .wiredEthernet), (.loopback, .other),
        (.other, .other),
    ]

    @Test("every NWInterface.InterfaceType alone names the interface", arguments: interfaceTable)
    func everyInterfaceType(type: InterfaceTypeMirror, interface: ConnectionInterface) {
        let snapshot = PathSnapshot(status: .satisfied, usedInterfaceTypes: [type])
        #expect(snapshot.connectivityStatus.interface == interface)
    }

    static let precedenceTable: [(Set<InterfaceTypeMirror>, ConnectionInterface)] = [
        ([.wifi, .cellular], .wifi),
        ([.cellular, .wiredEthernet], .cellular),
        ([.wiredEthernet, .other], .wiredEthernet),
        ([.loopback, .other], .other),
        ([.other, .wifi], .wifi),
        ([], .other),
    ]

    @Test("several types: Wi-Fi, cellular, wired, loopback, other in that order", arguments: precedenceTable)
    func precedence(types: Set<InterfaceTypeMirror>, interface: ConnectionInterface) {
        #expect(PathSnapshot(status: .satisfied, usedInterfaceTypes: types).connectivityStatus.interface == interface)
    }

    static let reasonTable: [(PathUnsatisfiedReasonMirror, String)] = [
        (.notAvailable, "no reason given"), (.cellularDenied, "cellular data denied to the app"),
        (.wifiDenied, "Wi-Fi denied to the app"), (.localNetworkDenied, "local network denied to the app"),
        (.unknown, "a reason this SyncGate does not know"),
    ]

    @Test("every NWPath.UnsatisfiedReason is named in the provenance note", arguments: reasonTable)
    func everyReason(reason: PathUnsatisfiedReasonMirror, text: String) {
        let monitor = FakePathMonitor()
        let follower = PathFollower(monitor: monitor)
        monitor.deliver(PathSnapshot(status: .unsatisfied, unsatisfiedReason: reason))
        #expect(follower.provenance.notes == ["NWPathMonitor: path unsatisfied (\(text))"])
        #expect(follower.provenance.isConnected == .networkPathMonitor)
        monitor.deliver(PathSnapshot(status: .satisfied, usedInterfaceTypes: [.wifi]))
        #expect(follower.provenance.notes.isEmpty)
    }

    @Test("the follower publishes each change once, to every subscriber (none overwrites another)")
    func followerIsMulticast() async {
        let monitor = FakePathMonitor()
        let follower = PathFollower(monitor: monitor)
        var first = follower.broadcast.stream().makeAsyncIterator()
        var second = follower.broadcast.stream().makeAsyncIterator()
        #expect(await first.next() == .disconnected)
        #expect(await second.next() == .disconnected)
        monitor.deliver(PathSnapshot(status: .satisfied, usedInterfaceTypes: [.cellular], isExpensive: true))
        let cellular = ConnectivityStatus.connected(via: .cellular, isExpensive: true)
        #expect(await first.next() == cellular)
        #expect(await second.next() == cellular)
        // The same path again is not a change; the next one is.
        monitor.deliver(PathSnapshot(status: .satisfied, usedInterfaceTypes: [.cellular], isExpensive: true))
        monitor.deliver(PathSnapshot(status: .unsatisfied, unsatisfiedReason: .cellularDenied))
        #expect(await first.next() == .disconnected)
        #expect(await second.next() == .disconnected)
    }

    @Test("waiting for the first path returns once it arrived, and gives up when none comes")
    func firstSnapshotWait() {
        let monitor = FakePathMonitor()
        let follower = PathFollower(monitor: monitor)
        #expect(!follower.waitForFirstSnapshot(seconds: 0))
        monitor.deliver(PathSnapshot(status: .satisfied, usedInterfaceTypes: [.wifi]))
        #expect(follower.waitForFirstSnapshot(seconds: 0))
        #expect(follower.waitForFirstSnapshot(seconds: 0))
    }

    @Test("stopping the follower cancels the monitor")
    func stopCancelsMonitor() {
        let monitor = FakePathMonitor()
        PathFollower(monitor: monitor).stop()
        #expect(monitor.cancelled.withLock { $0 })
    }
}
