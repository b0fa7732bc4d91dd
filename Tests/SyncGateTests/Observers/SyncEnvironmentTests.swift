import SyncGate
import SyncGateTesting
import Testing

@Suite("SyncEnvironment", .timeLimit(.minutes(1)))
struct SyncEnvironmentTests {
    @Test("the status combines every part and reads the sources' values at once")
    func combinesParts() {
        let manual = ManualSyncEnvironment(
            connectivity: .connected(via: .wifi),
            power: PowerStatus(isOnExternalPower: false, batteryLevel: 0.5),
            account: .available,
            isCloudDriveAvailable: true,
            syncEvent: .importing
        )
        let status = manual.environment.status
        #expect(status.connectivity == .connected(via: .wifi))
        #expect(status.power.batteryLevel == 0.5)
        #expect(status.account == .available)
        #expect(status.isCloudDriveAvailable)
        #expect(status.syncEvent == .importing)
        #expect(status.monitoredParts == .all)
        #expect(manual.environment.monitoredParts == .all)
        #expect(status.isSyncReady && status.isCloudDriveReady && status.isSyncing)
    }

    @Test("a change of any part reaches the status synchronously")
    func setters() throws {
        let manual = ManualSyncEnvironment()
        manual.setConnectivity(.connected(via: .cellular, isExpensive: true))
        #expect(manual.status.connectivity.interface == .cellular)
        manual.setPower(PowerStatus(isLowPowerModeEnabled: true))
        #expect(manual.status.power.isLowPowerModeEnabled)
        manual.setAccount(.noAccount)
        #expect(manual.status.account == .noAccount)
        manual.setCloudDriveAvailable(true)
        #expect(manual.status.isCloudDriveAvailable)
        manual.setSyncEvent(.exporting)
        #expect(manual.status.syncEvent == .exporting)
        manual.setStorage(StorageStatus(path: "/data", availableBytes: 1 << 20, capacityBytes: 1 << 30))
        #expect(manual.status.storage.isLow)
        try manual.setCondition("signed-in", isMet: true)
        #expect(manual.status.conditions == ["signed-in"])
        try manual.setCondition("signed-in", isMet: false)
        #expect(manual.status.conditions.isEmpty)
    }

    @Test("parts without a source are not monitored and their requirements read as met")
    func unmonitoredParts() async throws {
        let manual = ManualSyncEnvironment(account: .noAccount, monitoring: [.network, .power])
        #expect(manual.environment.monitoredParts == [.network, .power])
        #expect(
            manual.status.requirementsTreatedAsMet
                == [.accountReady, .cloudDrive, .storageNotLow, .notUnderPressure, .notHot])
        #expect(!manual.status.isSyncReady)
        manual.setAccount(.noAccount)
        manual.setConnectivity(.connected(via: .wiredEthernet))
        #expect(manual.status.isSyncReady)
        #expect(manual.status.account == .couldNotDetermine)
        #expect(await manual.environment.waitUntilSyncReady(timeout: .zero))
    }

    @Test("the status stream starts with the current status and follows changes")
    func statusStream() async throws {
        let manual = ManualSyncEnvironment()
        var iterator = manual.environment.statusStream.makeAsyncIterator()
        #expect(await iterator.next()?.connectivity == .disconnected)
        manual.setConnectivity(.connected(via: .wifi))
        #expect(await iterator.next()?.connectivity == .connected(via: .wifi))
        try manual.setCondition("x", isMet: true)
        #expect(await iterator.next()?.conditions == ["x"])
    }

    @Test("each part has its own multicast stream")
    func partStreams() async {
        let manual = ManualSyncEnvironment()
        let environment = manual.environment
        var connectivity = environment.stream(of: \.connectivity).makeAsyncIterator()
        var power = environment.stream(of: \.power).makeAsyncIterator()
        var account = environment.accountStream.makeAsyncIterator()
        var drive = environment.stream(of: \.isCloudDriveAvailable).makeAsyncIterator()
        var events = environment.stream(of: \.syncEvent).makeAsyncIterator()
        var storage = environment.stream(of: \.storage).makeAsyncIterator()
        #expect(await connectivity.next() == .disconnected)
        #expect(await power.next() == .unrestricted)
        #expect(await account.next() == .available)
        #expect(await drive.next() == false)
        #expect(await events.next() == .idle)
        #expect(await storage.next() == .unknown)
        manual.setConnectivity(.connected(via: .wifi))
        manual.setPower(PowerStatus(isOnExternalPower: false))
        manual.setAccount(.restricted)
        manual.setCloudDriveAvailable(true)
        manual.setSyncEvent(.setup)
        manual.setStorage(StorageStatus(availableBytes: 1, capacityBytes: 1 << 30))
        #expect(await connectivity.next() == .connected(via: .wifi))
        #expect(await power.next() == PowerStatus(isOnExternalPower: false))
        #expect(await account.next() == .restricted)
        #expect(await drive.next() == true)
        #expect(await events.next() == .setup)
        #expect(await storage.next() == StorageStatus(availableBytes: 1, capacityBytes: 1 << 30))
    }

    @Test("a source that is only a stream is followed through it")
    func foreignSource() async {
        let source = StreamOnlyConnectivity()
        let environment = SyncEnvironment(connectivity: source)
        #expect(environment.status.connectivity == .disconnected)
        source.broadcast.send(.connected(via: .wifi))
        for await status in environment.statusStream where status.connectivity.isConnected { break }
        #expect(environment.status.connectivity == .connected(via: .wifi))
    }

    @Test("releasing the environment ends its subscriptions to the sources")
    func releaseUnsubscribes() async {
        let source = StreamOnlyConnectivity()
        let manual = ManualConnectivityObserver()
        var environment: SyncEnvironment? = SyncEnvironment(connectivity: source)
        var other: SyncEnvironment? = SyncEnvironment(connectivity: manual)
        await source.broadcast.waitForSubscriberCount(1)
        #expect(environment?.status.connectivity == .disconnected)
        #expect(other?.status.connectivity == .disconnected)
        environment = nil
        other = nil
        await source.broadcast.waitForSubscriberCount(0)
        manual.send(.connected(via: .wifi))
        #expect(manual.subscriberCount == 0)
    }
}

@Suite("SyncEnvironment.waitUntil", .timeLimit(.minutes(1)))
struct SyncEnvironmentWaitTests {
    @Test("returns at once when the requirements already hold")
    func alreadySatisfied() async throws {
        let manual = ManualSyncEnvironment(connectivity: .connected(via: .wifi))
        let status = try await manual.environment.waitUntil(.network, timeout: .zero)
        #expect(status.connectivity.isConnected)
        #expect(await manual.environment.waitUntilSyncReady())
    }

    @Test("resumes when a change satisfies the requirements and conditions")
    func resumesOnChange() async throws {
        let clock = ManualClock()
        let manual = ManualSyncEnvironment(clock: clock)
        let waiter = Task {
            try await manual.environment.waitUntil(.network, conditions: ["ready"], timeout: .seconds(30))
        }
        await clock.waitForSleepers(1)
        manual.setConnectivity(.connected(via: .wifi))
        #expect(manual.environment.waiterCount == 1)
        try manual.setCondition("ready", isMet: true)
        let status = try await waiter.value
        #expect(status.conditions == ["ready"])
        #expect(manual.environment.waiterCount == 0)
        #expect(clock.sleeperCount == 0)
    }

    @Test("the timeout fires on the clock even when nothing changes")
    func timeoutWithoutChange() async {
        let clock = ManualClock()
        let manual = ManualSyncEnvironment(clock: clock)
        let waiter = Task { try await manual.environment.waitUntil(.network, timeout: .seconds(5)) }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(4))
        #expect(manual.environment.waiterCount == 1)
        clock.advance(by: .seconds(1))
        await #expect(throws: SyncEnvironmentError.timedOut) { try await waiter.value }
        #expect(manual.environment.waiterCount == 0)
    }

    @Test("waitUntilSyncReady returns false on timeout and true when ready")
    func syncReadyBool() async {
        let clock = ManualClock()
        let manual = ManualSyncEnvironment(clock: clock)
        let timedOut = Task { await manual.environment.waitUntilSyncReady(timeout: .seconds(1)) }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        #expect(await timedOut.value == false)
        let ready = Task { await manual.environment.waitUntilSyncReady(timeout: .seconds(1)) }
        await clock.waitForSleepers(1)
        manual.setConnectivity(.connected(via: .wifi))
        #expect(await ready.value == true)
        #expect(await manual.environment.waitUntilSyncReady(timeout: .seconds(-1)) == true)
    }

    @Test("cancelling a suspended waiter throws cancelled and leaves nothing behind")
    func cancelWhileWaiting() async {
        let clock = ManualClock()
        let manual = ManualSyncEnvironment(clock: clock)
        let waiter = Task { try await manual.environment.waitUntil(.network, timeout: .seconds(60)) }
        await clock.waitForSleepers(1)
        waiter.cancel()
        await #expect(throws: SyncEnvironmentError.cancelled) { try await waiter.value }
        #expect(manual.environment.waiterCount == 0)
        let readyWaiter = Task { await manual.environment.waitUntilSyncReady(timeout: .seconds(60)) }
        await clock.waitForSleepers(1)
        readyWaiter.cancel()
        #expect(await readyWaiter.value == false)
        #expect(manual.environment.waiterCount == 0)
    }

    @Test("a caller cancelled before it waits throws cancelled")
    func cancelBeforeWaiting() async {
        let manual = ManualSyncEnvironment()
        let waiter = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await manual.environment.waitUntil(.network)
        }
        await #expect(throws: SyncEnvironmentError.cancelled) { try await waiter.value }
        #expect(manual.environment.waiterCount == 0)
    }

    @Test("a zero timeout answers from the current status")
    func zeroTimeout() async {
        let manual = ManualSyncEnvironment()
        await #expect(throws: SyncEnvironmentError.timedOut) {
            try await manual.environment.waitUntil(.network, timeout: .zero)
        }
        #expect(await manual.environment.waitUntilSyncReady(timeout: .zero) == false)
        #expect(manual.environment.waiterCount == 0)
    }

    @Test("bad input names the parameter and its value")
    func badInput() async {
        let manual = ManualSyncEnvironment(connectivity: .connected(via: .wifi))
        await #expect(
            throws: SyncEnvironmentError.invalidArgument(
                parameter: "conditions", message: "a condition's name is empty")
        ) {
            try await manual.environment.waitUntil(.network, conditions: [""])
        }
        #expect(manual.environment.waiterCount == 0)
    }

    @Test(
        "a negative timeout answers from the current status in both waits, as a zero one does",
        arguments: [Duration.zero, .nanoseconds(-1), .milliseconds(-1), .seconds(-30)]
    )
    func negativeTimeout(timeout: Duration) async throws {
        let clock = ManualClock()
        let manual = ManualSyncEnvironment(account: .available, clock: clock)
        await #expect(throws: SyncEnvironmentError.timedOut) {
            try await manual.environment.waitUntil(.network, timeout: timeout)
        }
        #expect(await manual.environment.waitUntilSyncReady(timeout: timeout) == false)

        manual.setConnectivity(.connected(via: .wifi))
        let status = try await manual.environment.waitUntil(.network, timeout: timeout)
        #expect(status.connectivity.isConnected)
        #expect(await manual.environment.waitUntilSyncReady(timeout: timeout))
        #expect(manual.environment.waiterCount == 0)
        #expect(clock.sleeperCount == 0)
    }

    @Test("10 000 waiters all resume after one change")
    func manyWaiters() async throws {
        let clock = ManualClock()
        let manual = ManualSyncEnvironment(clock: clock)
        let environment = manual.environment
        let count = 10_000
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<count {
                group.addTask {
                    try await environment.waitUntil(.network, timeout: .seconds(3_600)).connectivity.isConnected
                }
            }
            await clock.waitForSleepers(count)
            #expect(environment.waiterCount == count)
            manual.setConnectivity(.connected(via: .wiredEthernet))
            var resumed = 0
            for try await connected in group where connected { resumed += 1 }
            #expect(resumed == count)
        }
        #expect(environment.waiterCount == 0)
        #expect(clock.sleeperCount == 0)
    }
}

/// A connectivity source that offers only a stream, like an app's own observer would.
final class StreamOnlyConnectivity: ConnectivityObserving {
    let broadcast = StatusBroadcast(ConnectivityStatus.disconnected)
    var status: ConnectivityStatus { broadcast.value }
    var statusStream: AsyncStream<ConnectivityStatus> { broadcast.stream() }
}
