import SyncGateTesting
import Testing

@testable import SyncGateCore

/// What `SyncEnvironment(monitoring:cloudKit:)` wires on Apple platforms, through fake factories: one
/// source per requested part and nothing else.
@Suite("Apple sources wiring", .timeLimit(.minutes(1)))
struct AppleSourcesTests {
    static let partTable: [(MonitoringOptions, [String])] = [
        ([], []),
        (.network, ["network"]),
        (.power, ["power"]),
        (.account, ["account"]),
        (.cloudDrive, ["cloudDrive"]),
        (.syncEvent, ["syncEvent"]),
        (.resources, ["resources"]),
        (.all, ["network", "power", "resources", "account", "cloudDrive", "syncEvent"]),
        ([.network, .power, .cloudDrive, .syncEvent], ["network", "power", "cloudDrive", "syncEvent"]),
    ]

    @Test("a source is created for each requested part only", arguments: partTable)
    func onlyRequestedParts(monitoring: MonitoringOptions, created: [String]) {
        let counting = CountingFactories()
        let sources = AppleSources(
            monitoring: monitoring, cloudKit: CloudKitMonitoringOptions(), factories: counting.factories,
            clock: ManualClock())
        #expect(counting.created.withLock { $0 } == created)
        #expect((sources.account != nil) == monitoring.contains(.account))
        #expect((sources.cloudDrive != nil) == monitoring.contains(.cloudDrive))
        #expect((sources.syncEvents != nil) == monitoring.contains(.syncEvent))
        #expect((sources.resources != nil) == monitoring.contains(.resources))
    }

    @Test("no CloudKit container is created when the account is not monitored")
    func noContainerWithoutAccount() {
        let counting = CountingFactories()
        _ = AppleSources(
            monitoring: [.network, .power, .cloudDrive, .syncEvent],
            cloudKit: CloudKitMonitoringOptions(containerIdentifier: "iCloud.com.example"),
            factories: counting.factories, clock: ManualClock())
        #expect(counting.accountContainers.withLock { $0 }.isEmpty)
    }

    @Test("the account source uses the given container, or the default one", arguments: [nil, "iCloud.com.example"])
    func containerIdentifier(identifier: String?) {
        let counting = CountingFactories()
        _ = AppleSources(
            monitoring: .account, cloudKit: CloudKitMonitoringOptions(containerIdentifier: identifier),
            factories: counting.factories, clock: ManualClock())
        #expect(counting.accountContainers.withLock { $0 } == [identifier])
    }

    @Test("waitUntilSyncReady times out on the clock with no change at all from the Apple sources")
    func timeoutFiresWithoutChange() async {
        let clock = ManualClock()
        let counting = CountingFactories()
        let sources = AppleSources(
            monitoring: .syncFocused, cloudKit: CloudKitMonitoringOptions(), factories: counting.factories,
            clock: clock)
        let environment = SyncEnvironment(
            connectivity: sources.connectivity, power: sources.power, account: sources.account,
            syncEvents: sources.syncEvents, clock: clock)
        // The account check never answers: nothing changes, and the timeout must fire anyway.
        let ready = Task { await environment.waitUntilSyncReady(timeout: .seconds(30)) }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(30))
        #expect(await ready.value == false)
        #expect(environment.status.account == .couldNotDetermine)
    }
}
