import SyncGate
import Testing

/// `StatusFeed`, the public source apps feed by hand, takes the synchronous path of SyncGate's own
/// observers: the environment and a scheduler on it have reacted by the time `send` returns.
@Suite("StatusFeed", .timeLimit(.minutes(1)))
struct StatusFeedTests {
    @Test("every part fed through a StatusFeed is in the environment's status when send returns")
    func everyPartIsFollowedSynchronously() {
        let connectivity = StatusFeed(ConnectivityStatus.disconnected)
        let power = StatusFeed(PowerStatus.unrestricted)
        let account = StatusFeed(AccountStatus.noAccount)
        let cloudDrive = StatusFeed(false)
        let syncEvents = StatusFeed(SyncEvent.idle)
        let storage = StatusFeed(StorageStatus.unknown)
        let resources = StatusFeed(ResourceStatus.unknown)
        let environment = SyncEnvironment(
            connectivity: connectivity, power: power, account: account, cloudDrive: cloudDrive,
            syncEvents: syncEvents, storage: storage, resources: resources)
        #expect(environment.monitoredParts == .all)

        connectivity.send(.connected(via: .wifi))
        #expect(environment.status.connectivity == .connected(via: .wifi))
        power.status = PowerStatus(isOnExternalPower: false, batteryLevel: 0.5)
        #expect(environment.status.power == PowerStatus(isOnExternalPower: false, batteryLevel: 0.5))
        account.send(.available)
        #expect(environment.status.account == .available)
        cloudDrive.isAvailable = true
        #expect(environment.status.isCloudDriveAvailable)
        syncEvents.update { $0 = .importing }
        #expect(environment.status.syncEvent == .importing)
        storage.status = StorageStatus(availableBytes: 1, capacityBytes: 1 << 30)
        #expect(environment.status.storage.isLow)
        #expect(!environment.status.satisfies(.storageNotLow))
        resources.send(ResourceStatus(isUnderPressure: true, pressure: PressureLevels(cpu: 90)))
        #expect(environment.status.resources.pressure?.cpu == 90)
        #expect(!environment.status.satisfies(.notUnderPressure))
        #expect(environment.status.satisfies(.notHot))
    }

    @Test("a job waiting for the account is running when the feed's send returns")
    func schedulerStartsJobBeforeSendReturns() async throws {
        let account = StatusFeed(AccountStatus.noAccount)
        let scheduler = SyncScheduler(environment: SyncEnvironment(account: account))
        let release = AsyncStream.makeStream(of: Void.self)
        let handle = try scheduler.submit(
            SyncJob(requires: .accountReady) { _ in
                for await _ in release.stream { break }
            })
        #expect(handle.state == .waiting(unmet: .accountReady, conditions: []))
        #expect(account.send(.available))
        #expect(handle.state == .running(attempt: 1))
        release.continuation.yield()
        #expect(try await handle.outcome().state == .succeeded)
    }

    @Test("a feed is multicast, current-value-first, and drops repeated values")
    func multicastCurrentValueFirst() async throws {
        let feed = StatusFeed(SyncEvent.idle)
        var first = feed.stream().makeAsyncIterator()
        var second = feed.eventStream.makeAsyncIterator()
        #expect(feed.subscriberCount == 2)
        #expect(await first.next() == .idle)
        #expect(await second.next() == .idle)
        #expect(!feed.send(.idle))
        #expect(feed.send(.exporting))
        #expect(await first.next() == .exporting)
        #expect(await second.next() == .exporting)
        #expect(try await feedRefresh() == .available)
    }

    private func feedRefresh() async throws -> AccountStatus {
        try await StatusFeed(AccountStatus.available).refresh()
    }
}
