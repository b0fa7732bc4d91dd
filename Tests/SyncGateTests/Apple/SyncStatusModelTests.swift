import Observation
import Testing

@testable import SyncGateCore

/// The `@Observable` status model, observed with `withObservationTracking` as SwiftUI does.
@Suite("SyncStatusModel", .timeLimit(.minutes(1)))
@MainActor
struct SyncStatusModelTests {
    /// Waits for the next change of what `read` reads on `model`.
    private func nextChange(_ read: @escaping @MainActor () -> Void) -> AsyncStream<Void> {
        let (changes, change) = AsyncStream.makeStream(of: Void.self)
        withObservationTracking {
            read()
        } onChange: {
            change.yield()
            change.finish()
        }
        return changes
    }

    @Test("a status change reaches the model on the main actor and notifies its observers")
    func statusChangeNotifies() async {
        let connectivity = StatusFeed(ConnectivityStatus.disconnected)
        let account = StatusFeed(AccountStatus.available)
        let model = SyncStatusModel(environment: SyncEnvironment(connectivity: connectivity, account: account))
        #expect(!model.isSyncReady)
        #expect(!model.isNetworkConnected)
        let changed = nextChange { _ = model.isSyncReady }
        connectivity.send(.connected(via: .wifi))
        for await _ in changed {}
        #expect(model.isSyncReady)
        #expect(model.isNetworkConnected)
        #expect(model.isSuitableForLargeTransfer)
        #expect(model.isAccountAvailable)
        #expect(model.isCloudDriveReady, "an unmonitored cloud drive reads as available")
    }

    @Test("every predicate follows the status", arguments: [true, false])
    func predicates(ready: Bool) async {
        let account = StatusFeed(ready ? AccountStatus.noAccount : .available)
        let syncEvents = StatusFeed(SyncEvent.idle)
        let cloudDrive = StatusFeed(false)
        let model = SyncStatusModel(
            environment: SyncEnvironment(
                connectivity: StatusFeed(ConnectivityStatus.connected(via: .cellular, isExpensive: true)),
                account: account, cloudDrive: cloudDrive, syncEvents: syncEvents))
        let changed = nextChange { _ = model.status }
        account.send(ready ? .available : .noAccount)
        for await _ in changed {}
        #expect(model.isSyncReady == ready)
        #expect(model.isAccountAvailable == ready)
        #expect(!model.isSuitableForLargeTransfer)
        #expect(!model.isCloudDriveReady)
        #expect(model.satisfies(.network))
        let syncing = nextChange { _ = model.isSyncing }
        syncEvents.send(.exporting)
        for await _ in syncing {}
        #expect(model.isSyncing)
    }

    @Test("two models on one environment are both updated: none takes the other's updates")
    func twoModels() async {
        let connectivity = StatusFeed(ConnectivityStatus.disconnected)
        let environment = SyncEnvironment(connectivity: connectivity)
        let first = SyncStatusModel(environment: environment)
        let second = SyncStatusModel(environment: environment)
        let firstChanged = nextChange { _ = first.status }
        let secondChanged = nextChange { _ = second.status }
        connectivity.send(.connected(via: .wiredEthernet))
        for await _ in firstChanged {}
        for await _ in secondChanged {}
        #expect(first.status.connectivity.interface == .wiredEthernet)
        #expect(second.status.connectivity.interface == .wiredEthernet)
    }
}
