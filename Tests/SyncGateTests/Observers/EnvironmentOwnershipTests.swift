import SyncGate
import SyncGateTesting
import Testing

/// The environment owns its sources: built on sources nobody else holds, it keeps following them, and
/// releasing it releases them. Each test holds only what a user would hold: the environment, plus a weak
/// reference used to reach the source and to see when it goes.
@Suite("SyncEnvironment owns its sources", .timeLimit(.minutes(1)))
struct EnvironmentOwnershipTests {
    @Test("a SyncGate-provided source held by nobody else stays alive and followed")
    func keepsBroadcastBackedSourceAlive() {
        weak var source: ManualConnectivityObserver?
        var environment: SyncEnvironment? = {
            let observer = ManualConnectivityObserver()
            source = observer
            return SyncEnvironment(connectivity: observer)
        }()
        #expect(source != nil, "the environment must keep its connectivity source alive")
        source?.send(.connected(via: .wifi))
        #expect(environment?.status.connectivity == .connected(via: .wifi))
        environment = nil
        #expect(source == nil, "releasing the environment releases its sources")
    }

    @Test("a source the app keeps after its environment keeps none of the environment, and sends to nobody")
    func aSourceThatOutlivesItsEnvironment() async throws {
        let source = ManualConnectivityObserver()
        weak var released: SyncEnvironment?
        do {
            let environment = SyncEnvironment(connectivity: source)
            released = environment
            let scheduler = SyncScheduler(environment: environment)
            source.send(.connected(via: .wifi))
            #expect(environment.status.connectivity == .connected(via: .wifi))
            source.send(.disconnected)
            // A job that waits: the scheduler follows the environment through the source's changes, and
            // no task of the job's outlives the shutdown. (A job that ran would do: its task lets go of
            // the scheduler, and so of the environment, a moment after its outcome is handed out.)
            let handle = try scheduler.submit(SyncJob(requires: .network) { _ in })
            #expect(handle.state == .waiting(unmet: .network, conditions: []))
            await scheduler.shutdown(gracePeriod: .seconds(5))
            #expect(try await handle.outcome() == .cancelled)
        }
        #expect(released == nil, "the source must not keep the environment alive")
        // Its observers went with the environment: sending now reaches nothing and must not crash.
        source.send(.disconnected)
        source.send(.connected(via: .wiredEthernet))
        #expect(source.status == .connected(via: .wiredEthernet))
    }

    @Test("every part's source is kept alive for as long as the environment lives")
    func keepsEverySourceAlive() {
        weak var connectivity: ManualConnectivityObserver?
        weak var power: ManualPowerObserver?
        weak var account: ManualAccountStatusProvider?
        weak var cloudDrive: ManualCloudDriveObserver?
        weak var syncEvents: ManualSyncEventObserver?
        weak var storage: StatusFeed<StorageStatus>?
        weak var resources: StatusFeed<ResourceStatus>?
        var environment: SyncEnvironment? = {
            let sources = (
                ManualConnectivityObserver(), ManualPowerObserver(), ManualAccountStatusProvider(),
                ManualCloudDriveObserver(), ManualSyncEventObserver(), StatusFeed(StorageStatus.unknown),
                StatusFeed(ResourceStatus.unknown)
            )
            (connectivity, power, account, cloudDrive, syncEvents, storage, resources) = sources
            return SyncEnvironment(
                connectivity: sources.0, power: sources.1, account: sources.2, cloudDrive: sources.3,
                syncEvents: sources.4, storage: sources.5, resources: sources.6)
        }()
        #expect(connectivity != nil && power != nil && account != nil && cloudDrive != nil && syncEvents != nil)
        #expect(storage != nil && resources != nil)
        #expect(environment?.monitoredParts == .all)
        environment = nil
        #expect(connectivity == nil && power == nil && account == nil && cloudDrive == nil && syncEvents == nil)
        #expect(storage == nil && resources == nil)
    }

    @Test("an app's own source, followed through its stream, stays alive and followed")
    func keepsStreamSourceAlive() async throws {
        weak var source: StreamAccountSource?
        let environment: SyncEnvironment = {
            let provider = StreamAccountSource()
            source = provider
            return SyncEnvironment(account: provider)
        }()
        try #require(source != nil, "the environment must keep its account source alive")
        var changes = environment.accountStream.makeAsyncIterator()
        #expect(await changes.next() == .couldNotDetermine)
        source?.set(.available)
        #expect(await changes.next() == .available)
        #expect(environment.status.account == .available)
    }
}

@Suite("Streams keep their source alive while consumed", .timeLimit(.minutes(1)))
struct StreamOwnershipTests {
    @Test("iterating an environment's stream keeps the environment and its sources alive")
    func environmentStreamKeepsEnvironmentAlive() async throws {
        weak var source: ManualConnectivityObserver?
        weak var environment: SyncEnvironment?
        do {
            let stream: AsyncStream<SyncEnvironmentStatus> = {
                let observer = ManualConnectivityObserver()
                source = observer
                let created = SyncEnvironment(connectivity: observer)
                environment = created
                return created.statusStream
            }()
            var changes = stream.makeAsyncIterator()
            #expect(await changes.next()?.connectivity == .disconnected)
            try #require(environment != nil, "a stream being consumed must keep its environment alive")
            try #require(source != nil)
            source?.send(.connected(via: .wifi))
            #expect(await changes.next()?.connectivity == .connected(via: .wifi))
        }
        #expect(environment == nil, "dropping the stream releases the environment")
        #expect(source == nil)
    }

    @Test("iterating a source's stream keeps the source alive")
    func sourceStreamKeepsSourceAlive() async throws {
        weak var source: ManualPowerObserver?
        do {
            let stream: AsyncStream<PowerStatus> = {
                let observer = ManualPowerObserver()
                source = observer
                return observer.statusStream
            }()
            var changes = stream.makeAsyncIterator()
            #expect(await changes.next() == .unrestricted)
            try #require(source != nil, "a stream being consumed must keep its source alive")
            source?.send(PowerStatus(isLowPowerModeEnabled: true))
            #expect(await changes.next()?.isLowPowerModeEnabled == true)
        }
        #expect(source == nil, "dropping the stream releases the source")
    }
}

/// An account source the way an app writes one: its own stream, no SyncGate broadcast.
private final class StreamAccountSource: AccountStatusProviding {
    private struct State {
        var current: AccountStatus = .couldNotDetermine
        var continuations: [AsyncStream<AccountStatus>.Continuation] = []
    }
    private let state = LockedState(State())

    var status: AccountStatus { state.withLock { $0.current } }

    var statusStream: AsyncStream<AccountStatus> {
        AsyncStream { continuation in
            state.withLock { state in
                continuation.yield(state.current)
                state.continuations.append(continuation)
            }
        }
    }

    func refresh() async throws -> AccountStatus { status }

    func set(_ status: AccountStatus) {
        let targets = state.withLock { state in
            state.current = status
            return state.continuations
        }
        for continuation in targets { continuation.yield(status) }
    }

    deinit {
        for continuation in state.withLock({ $0.continuations }) { continuation.finish() }
    }
}
