import Foundation
import SyncGateTesting
import Testing

@testable import SyncGateCore

@testable import SyncGateDurable

/// A BGTaskScheduler a test reads: the requests submitted and cancelled.
final class FakeTaskScheduler: BackgroundTaskScheduling {
    let submitted = LockedState<[BackgroundTaskRequest]>([])
    let cancelled = LockedState<[String]>([])

    func submit(_ request: BackgroundTaskRequest) throws {
        submitted.withLock { $0.append(request) }
    }

    func cancel(identifier: String) {
        cancelled.withLock { $0.append(identifier) }
    }
}

/// A launched BGTask a test expires by hand.
final class FakeBackgroundTask: BackgroundTaskRunning {
    private let expiration = LockedState<(@Sendable () -> Void)?>(nil)
    let completed = StatusBroadcast<Bool?>(nil)

    func setExpirationHandler(_ handler: @escaping @Sendable () -> Void) {
        expiration.withLock { $0 = handler }
    }

    func setTaskCompleted(success: Bool) {
        completed.send(success)
    }

    func expire() {
        expiration.withLock { $0 }?()
    }
}

/// The BGTaskScheduler bridge on a fake task scheduler: the request built from the pending jobs, and the
/// task handler (restore, run until nothing is runnable or the task expires, shut down, schedule next).
@Suite("Background task bridge", .timeLimit(.minutes(1)))
struct BackgroundSyncBridgeTests {
    static let now = Date(timeIntervalSince1970: 1_700_000_000)

    static func job(
        _ sequence: UInt64, requires: SyncRequirements, delay: Duration? = nil, submittedAt: Date = now,
        retryAt: Date? = nil, relaxations: [SyncJobRelaxation] = [], allowedNetworks: SyncNetworkAllowlist? = nil
    ) -> StoredJob {
        var options = SyncJobOptions(requires: requires, delay: delay)
        options.relaxations = relaxations
        options.allowedNetworks = allowedNetworks
        var job = StoredJob(
            sequence: sequence, id: "job-\(sequence)", kind: "work", payload: Data("{}".utf8),
            submittedAt: submittedAt, options: options)
        job.retryAt = retryAt
        return job
    }

    /// (name, jobs, network, external power, earliest begin, or nil for no request)
    static let requestTable: [(String, [StoredJob], BackgroundTaskRequest?)] = [
        ("no job", [], nil),
        (
            "one network job", [job(1, requires: .network)],
            BackgroundTaskRequest(
                identifier: "sync", requiresNetworkConnectivity: true, requiresExternalPower: false,
                earliestBeginDate: nil)
        ),
        (
            "one job needs no network", [job(1, requires: .network), job(2, requires: .externalPower)],
            BackgroundTaskRequest(
                identifier: "sync", requiresNetworkConnectivity: false, requiresExternalPower: false,
                earliestBeginDate: nil)
        ),
        (
            "every job needs power and some network part",
            [job(1, requires: [.unmetered, .externalPower]), job(2, requires: [.validatedInternet, .externalPower])],
            BackgroundTaskRequest(
                identifier: "sync", requiresNetworkConnectivity: true, requiresExternalPower: true,
                earliestBeginDate: nil)
        ),
        (
            "a relaxation replaces external power: the launch does not ask for it",
            [
                job(
                    1, requires: [.network, .externalPower],
                    relaxations: [.replace(.externalPower, with: .batteryNotLow, after: .seconds(3600))]),
                job(2, requires: [.network, .externalPower]),
            ],
            BackgroundTaskRequest(
                identifier: "sync", requiresNetworkConnectivity: true, requiresExternalPower: false,
                earliestBeginDate: nil)
        ),
        (
            "a relaxation drops the only network part: the launch does not ask for a network",
            [job(1, requires: [.unmetered], relaxations: [.drop(.unmetered, after: .seconds(3600))])],
            BackgroundTaskRequest(
                identifier: "sync", requiresNetworkConnectivity: false, requiresExternalPower: false,
                earliestBeginDate: nil)
        ),
        (
            "allowed networks need a network",
            [job(1, requires: [], allowedNetworks: SyncNetworkAllowlist([.interfaceType(.wifi)]))],
            BackgroundTaskRequest(
                identifier: "sync", requiresNetworkConnectivity: true, requiresExternalPower: false,
                earliestBeginDate: nil)
        ),
        (
            "every job delayed: the earliest end",
            [job(1, requires: .network, delay: .seconds(600)), job(2, requires: .network, delay: .seconds(60))],
            BackgroundTaskRequest(
                identifier: "sync", requiresNetworkConnectivity: true, requiresExternalPower: false,
                earliestBeginDate: now.addingTimeInterval(60))
        ),
        (
            "one job runnable now", [job(1, requires: [], delay: .seconds(600)), job(2, requires: [])],
            BackgroundTaskRequest(
                identifier: "sync", requiresNetworkConnectivity: false, requiresExternalPower: false,
                earliestBeginDate: nil)
        ),
        (
            "a backoff after the delay counts",
            [job(1, requires: [], delay: .seconds(10), retryAt: now.addingTimeInterval(120))],
            BackgroundTaskRequest(
                identifier: "sync", requiresNetworkConnectivity: false, requiresExternalPower: false,
                earliestBeginDate: now.addingTimeInterval(120))
        ),
        (
            "a delay already over",
            [job(1, requires: [], delay: .seconds(10), submittedAt: now.addingTimeInterval(-60))],
            BackgroundTaskRequest(
                identifier: "sync", requiresNetworkConnectivity: false, requiresExternalPower: false,
                earliestBeginDate: nil)
        ),
    ]

    @Test("the request covers the first job that can run", arguments: requestTable)
    func requestBuilding(name: String, jobs: [StoredJob], expected: BackgroundTaskRequest?) {
        #expect(BackgroundTaskRequest.covering(jobs, identifier: "sync", now: Self.now) == expected, "\(name)")
    }

    @Test("a job that waits only for an allowed network leaves the scheduler idle; one that waits for a slot does not")
    func idleWithAllowedNetworks() async throws {
        let manual = ManualSyncEnvironment(connectivity: .connected(via: .cellular))
        let scheduler = try SyncScheduler(
            environment: manual.environment, configuration: .init(maxConcurrentJobs: 1))
        var options = SyncJobOptions(requires: .network)
        options.allowedNetworks = SyncNetworkAllowlist([.interfaceType(.wifi)])
        try scheduler.submit(SyncJob(id: "wifi-only", options: options) { _ in })
        #expect(BackgroundSyncBridge.isIdle(scheduler.snapshot()))
        let holder = ControlledOperation()
        try scheduler.submit(SyncJob(id: "holder", requires: []) { try await holder.operation($0) })
        try scheduler.submit(SyncJob(id: "next", requires: []) { _ in })
        await holder.waitForStarts(1)
        #expect(!BackgroundSyncBridge.isIdle(scheduler.snapshot()))
        holder.finish()
        await scheduler.shutdown(gracePeriod: .zero)
    }

    /// A store holding `jobs`, closed again so the bridge's durable scheduler can open it.
    static func seededStore(_ jobs: [StoredJob]) throws -> TemporaryDirectory {
        let directory = TemporaryDirectory()
        let store = try FileJobStore(directory: directory.path)
        for job in jobs { try store.append(.submitted(job)) }
        try store.close()
        return directory
    }

    /// A bridge whose durable scheduler runs "work" jobs with `body`, on `environment` and `clock`.
    static func bridge(
        directory: TemporaryDirectory, environment: SyncEnvironment, clock: ManualClock,
        taskScheduler: FakeTaskScheduler, body: @escaping @Sendable () async -> Void
    ) -> BackgroundSyncBridge {
        let makeDurable: @Sendable () throws -> DurableScheduler = {
            let scheduler = SyncScheduler(environment: environment, clock: clock)
            let durable = DurableScheduler(
                scheduler: scheduler, store: try FileJobStore(directory: directory.path), wallClock: { now })
            try durable.register("work", payload: [String: String].self) { _, _ in await body() }
            return durable
        }
        return BackgroundSyncBridge(
            taskIdentifier: "sync", taskScheduler: taskScheduler, wallClock: { now }, makeDurable: makeDurable)
    }

    @Test("the handler runs the runnable jobs, stops when none is left, and asks for the rest")
    func runsUntilNothingRunnable() async throws {
        let directory = try Self.seededStore([Self.job(1, requires: []), Self.job(2, requires: .network)])
        let ran = StatusBroadcast(0)
        let taskScheduler = FakeTaskScheduler()
        let bridge = Self.bridge(
            directory: directory, environment: SyncEnvironment(connectivity: StatusFeed(.disconnected)),
            clock: ManualClock(), taskScheduler: taskScheduler
        ) { ran.update { $0 += 1 } }
        let task = FakeBackgroundTask()
        #expect(await bridge.run(task))
        #expect(ran.value == 1)
        #expect(task.completed.value == true)
        #expect(
            taskScheduler.submitted.withLock { $0 } == [
                BackgroundTaskRequest(
                    identifier: "sync", requiresNetworkConnectivity: true, requiresExternalPower: false,
                    earliestBeginDate: nil)
            ])
    }

    @Test("with nothing left the pending request is cancelled")
    func nothingLeftCancels() async throws {
        let directory = try Self.seededStore([Self.job(1, requires: [])])
        let taskScheduler = FakeTaskScheduler()
        let bridge = Self.bridge(
            directory: directory, environment: SyncEnvironment(), clock: ManualClock(), taskScheduler: taskScheduler
        ) {}
        let task = FakeBackgroundTask()
        #expect(await bridge.run(task))
        #expect(taskScheduler.submitted.withLock { $0 }.isEmpty)
        #expect(taskScheduler.cancelled.withLock { $0 } == ["sync"])
    }

    @Test("expiration stops the jobs after the grace period; they stay for the next request")
    func expirationStops() async throws {
        let directory = try Self.seededStore([Self.job(1, requires: [])])
        let clock = ManualClock()
        let started = StatusBroadcast(false)
        let taskScheduler = FakeTaskScheduler()
        let bridge = Self.bridge(
            directory: directory, environment: SyncEnvironment(), clock: clock, taskScheduler: taskScheduler
        ) {
            started.send(true)
            for await _ in AsyncStream<Void>.makeStream().stream {}  // ends when the job is cancelled
        }
        let task = FakeBackgroundTask()
        let run = Task { await bridge.run(task) }
        for await isStarted in started.stream() where isStarted { break }
        task.expire()
        await clock.waitForSleepers(1)  // the grace period
        clock.advance(by: bridge.gracePeriod)
        #expect(await run.value == false)
        #expect(task.completed.value == false)
        #expect(
            taskScheduler.submitted.withLock { $0 } == [
                BackgroundTaskRequest(
                    identifier: "sync", requiresNetworkConnectivity: false, requiresExternalPower: false,
                    earliestBeginDate: nil)
            ])
    }

    @Test("a durable scheduler that cannot be built completes the task unsuccessfully")
    func buildFailure() async {
        struct Broken: Error {}
        let bridge = BackgroundSyncBridge(taskIdentifier: "sync", taskScheduler: FakeTaskScheduler()) {
            throw Broken()
        }
        let task = FakeBackgroundTask()
        #expect(await bridge.run(task) == false)
        #expect(task.completed.value == false)
    }
}
