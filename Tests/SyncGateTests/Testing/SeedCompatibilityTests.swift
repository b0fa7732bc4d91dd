import SyncGate
import SyncGateTesting
import Testing

/// The ForgeObservers connectivity snippets, compiled unchanged against a `ManualConnectivityObserver`.
@Suite("Seed API compatibility", .timeLimit(.minutes(1)))
struct SeedCompatibilityTests {
    @Test("the seed's usage snippets compile and behave")
    func seedSnippets() async {
        let manual = ManualConnectivityObserver(
            status: ConnectivityStatus(isConnected: true, interface: .wifi, isExpensive: false, isConstrained: false)
        )
        let observer: any ConnectivityObserving = manual

        let status = observer.status
        #expect(status.isConnected)
        #expect(status.interface == .wifi)
        let shouldDeferLargeDownloads = status.isExpensive || status.isConstrained
        #expect(!shouldDeferLargeDownloads)

        var seen: [ConnectivityStatus] = []
        for await status in observer.statusStream {
            seen.append(status)
            if !status.isConnected { break }
            manual.send(.disconnected)
        }
        #expect(seen.map(\.isConnected) == [true, false])
        #expect(
            ConnectivityStatus.disconnected
                == ConnectivityStatus(isConnected: false, interface: .none, isExpensive: false, isConstrained: false))
    }

    @Test("manual sources are multicast and current-value-first")
    func manualSourcesMulticast() async throws {
        let power = ManualPowerObserver()
        let account = ManualAccountStatusProvider(status: .noAccount)
        var first = power.statusStream.makeAsyncIterator()
        var second = power.statusStream.makeAsyncIterator()
        #expect(power.subscriberCount == 2)
        power.status = PowerStatus(isOnExternalPower: false, batteryLevel: 0.1)
        #expect(await first.next() == PowerStatus(isOnExternalPower: false, batteryLevel: 0.1))
        #expect(await second.next() == PowerStatus(isOnExternalPower: false, batteryLevel: 0.1))
        #expect(try await account.refresh() == .noAccount)
        account.failRefreshes(with: SyncEnvironmentError.timedOut)
        await #expect(throws: SyncEnvironmentError.timedOut) { try await account.refresh() }
        #expect(account.refreshCount == 2)
        let drive = ManualCloudDriveObserver()
        drive.isAvailable = true
        var driveValues = drive.availabilityStream.makeAsyncIterator()
        #expect(await driveValues.next() == true)
        let events = ManualSyncEventObserver()
        events.event = .importing
        var eventValues = events.eventStream.makeAsyncIterator()
        #expect(await eventValues.next() == .importing)
    }
}
