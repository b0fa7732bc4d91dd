import SyncGate
import SyncGateTesting
import Synchronization
import Testing

/// Jobs and waiters with allowed networks (``SyncJobOptions/allowedNetworks``), on a ManualClock and a
/// ManualSyncEnvironment: a job waits on a network it is not allowed on, starts when the network in use
/// becomes one it is, and follows its requirements-lost policy when the network changes under it.
@Suite("Allowed networks: scheduling", .timeLimit(.minutes(1)))
struct AllowedNetworkSchedulingTests {
    static let home = ConnectivityStatus.connected(via: .wifi).with(
        network: SyncNetwork(interfaceName: "wlan0", connectionID: "Home", ssid: "Home"))
    static let cafe = ConnectivityStatus.connected(via: .wifi).with(
        network: SyncNetwork(interfaceName: "wlan0", connectionID: "Cafe", ssid: "Cafe"))
    static let office = ConnectivityStatus.connected(via: .wiredEthernet).with(
        network: SyncNetwork(interfaceName: "eth0", connectionID: "Office"))

    let clock = ManualClock()
    let manual: ManualSyncEnvironment
    let scheduler: SyncScheduler

    init() throws {
        manual = ManualSyncEnvironment(connectivity: Self.cafe, clock: clock)
        scheduler = try SyncScheduler(
            environment: manual.environment, configuration: .init(maxConcurrentJobs: 4), clock: clock)
    }

    func job(
        _ id: SyncJob.ID, _ allowed: SyncNetworkAllowlist?, onLoss: RequirementsLostPolicy = .cancelAndRequeue,
        operation: @escaping SyncJob.Operation = { _ in }
    ) -> SyncJob {
        var job = SyncJob(id: id, onRequirementsLost: onLoss, operation: operation)
        job.options.allowedNetworks = allowed
        return job
    }

    @Test("a job waits on a network it is not allowed on, says so, and starts when the network changes to one")
    func waitsThenStarts() async throws {
        let allowed = SyncNetworkAllowlist([.ssid("Home"), .connection("Office")])
        let handle = try scheduler.submit(job("sync", allowed))
        let any = try scheduler.submit(job("any", nil))
        #expect(try await any.outcome() == .succeeded)
        #expect(handle.state == .waiting(unmet: [], conditions: []))
        #expect(handle.isWaitingForNetwork)
        #expect(handle.allowedNetworks == allowed)
        #expect(handle.description == "sync: waiting for an allowed network (ssid:Home,connection:Office)")
        let snapshot = try #require(scheduler.snapshot().job("sync"))
        #expect(snapshot.isNetworkNotAllowed)
        #expect(snapshot.summary == "sync: waiting for an allowed network (ssid:Home,connection:Office)")
        #expect(scheduler.job(id: "sync")?.allowedNetworks == allowed)
        #expect(scheduler.job(id: "sync")?.isNetworkNotAllowed == true)
        #expect(
            scheduler.job(id: "sync")?.description
                == "sync: waiting for an allowed network (ssid:Home,connection:Office)")
        manual.setConnectivity(.disconnected)
        #expect(handle.state == .waiting(unmet: .network, conditions: []))
        #expect(
            handle.description
                == "sync: waiting for [network] (network not allowed, needs: ssid:Home,connection:Office)")
        #expect(scheduler.job(id: "sync")?.description == handle.description)
        manual.setConnectivity(Self.office)
        #expect(try await handle.outcome() == .succeeded)
        #expect(scheduler.job(id: "sync")?.description.hasSuffix("(networks: ssid:Home,connection:Office)") == true)
        #expect(scheduler.job(id: "sync")?.isNetworkNotAllowed == false)
    }

    @Test("a running job whose network stops matching is stopped and requeued, and runs again when it matches")
    func lostNetworkRequeues() async throws {
        manual.setConnectivity(Self.home)
        let events = scheduler.events
        let clock = clock
        let runs = RunCounter()
        let handle = try scheduler.submit(
            job("sync", SyncNetworkAllowlist([.ssid("Home")])) { _ in
                // The first run waits to be stopped; the run after the requeue returns at once.
                if runs.next() == 1 { try await clock.sleep(for: .seconds(3_600)) }
            })
        var iterator = events.makeAsyncIterator()
        while let event = await iterator.next(), event != .started(id: "sync", attempt: 1) {}
        manual.setConnectivity(Self.cafe)
        var seen: [SyncSchedulerEvent] = []
        while let event = await iterator.next() {
            seen.append(event)
            if case .requeued = event { break }
        }
        #expect(seen.contains(.stopRequested(id: "sync", attempt: 1, reason: .requirementsLost([], conditions: []))))
        #expect(handle.isWaitingForNetwork)
        #expect(handle.stopReason?.description == "requirements-lost (network not allowed)")
        manual.setConnectivity(Self.home)
        #expect(try await handle.outcome() == .succeeded)
    }

    @Test("a running job with the keep-running policy goes on when its network stops matching")
    func keepRunningIgnoresTheChange() async throws {
        manual.setConnectivity(Self.office)
        let events = scheduler.events
        let clock = clock
        let handle = try scheduler.submit(
            job("keep", SyncNetworkAllowlist([.interface("eth*")]), onLoss: .keepRunning) { _ in
                try await clock.sleep(for: .seconds(10))
            })
        var iterator = events.makeAsyncIterator()
        while let event = await iterator.next(), event != .started(id: "keep", attempt: 1) {}
        manual.setConnectivity(Self.cafe)
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(10))
        #expect(try await handle.outcome() == .succeeded)
        #expect(handle.stopReason == nil)
    }

    @Test("jobs that share a list share its state: one change of network starts all of them, others stay")
    func sharedListStartsTogether() async throws {
        let home = SyncNetworkAllowlist([.ssid("Home")])
        let handles = try (0..<3).map { try scheduler.submit(job("home-\($0)", home)) }
        let wired = try scheduler.submit(job("wired", SyncNetworkAllowlist([.interfaceType(.wiredEthernet)])))
        manual.setConnectivity(Self.home)
        for handle in handles { #expect(try await handle.outcome() == .succeeded) }
        #expect(wired.isWaitingForNetwork)
        manual.setConnectivity(Self.office)
        #expect(try await wired.outcome() == .succeeded)
    }

    @Test("waitUntil with allowed networks returns when the network in use matches, and times out otherwise")
    func environmentWait() async throws {
        let environment = manual.environment
        let allowed = SyncNetworkAllowlist([.ssid("Home")])
        await #expect(throws: SyncEnvironmentError.timedOut) {
            try await environment.waitUntil(.network, allowedNetworks: allowed, timeout: .zero)
        }
        let waiter = Task { try await environment.waitUntil(.network, allowedNetworks: allowed) }
        manual.setConnectivity(Self.office)
        manual.setConnectivity(Self.home)
        let status = try await waiter.value
        #expect(status.connectivity.network.ssid == "Home")
        await #expect(throws: SyncEnvironmentError.self) {
            try await environment.waitUntil(.network, allowedNetworks: SyncNetworkAllowlist([]))
        }
    }
}

/// Counts the runs of a job's operation.
private final class RunCounter: Sendable {
    private let count = Mutex(0)

    /// The number of this run, from 1.
    func next() -> Int {
        count.withLock { count in
            count += 1
            return count
        }
    }
}
