import SyncGate
import SyncGateTesting

/// Scenarios 1 and 2: one job waits for the network; the clock starts just before the manual observer
/// sends "connected" and stops at the first instruction of the job's body.
///
/// The optional crowd of blocked jobs needs `[.network, .cloudDrive]`; the cloud drive stays unavailable
/// while measuring, so each change that opens the network leaves them all waiting. ``finish()`` then
/// releases them and checks each ran exactly once.
final class StatusChangeProbe: LatencyProbe {
    private let scenario: String
    private let manual = ManualSyncEnvironment(connectivity: .disconnected)
    private let scheduler: SyncScheduler
    private let blocked: RunLedger?
    private let driver: ThreadDriver?
    /// How long each `send` took to return, in nanoseconds: the work done on the sender's thread (the
    /// environment's broadcasts, the scheduler's decision, the job's task creation).
    private(set) var sendDurations: [Double] = []

    /// Creates the environment and scheduler, and queues `blockedJobs` jobs that cannot run.
    ///
    /// With `fromThread`, the change is sent from a dedicated thread outside the Swift thread pool (as
    /// the real observer's reader thread sends it) instead of from the measuring task.
    init(scenario: String, blockedJobs: Int, fromThread: Bool = false) async throws {
        self.scenario = scenario
        driver = fromThread ? ThreadDriver() : nil
        scheduler = SyncScheduler(environment: manual.environment)
        guard blockedJobs > 0 else {
            blocked = nil
            return
        }
        let ledger = RunLedger(count: blockedJobs)
        blocked = ledger
        for index in 0..<blockedJobs {
            try scheduler.submit(SyncJob(requires: [.network, .cloudDrive]) { _ in ledger.record(index) })
        }
    }

    func measure() async throws -> LatencySample {
        let stamp = Stamp()
        let started = Mailbox<Void>()
        let handle = try scheduler.submit(
            SyncJob(requires: .network) { _ in
                stamp.mark()
                started.put(())
            })
        settle()
        let start: ContinuousClock.Instant
        let trigger: UInt
        if let driver {
            let connectivity = manual.connectivity
            (start, trigger, _) = try await driver.timed(
                { connectivity.send(.connected(via: .wiredEthernet)) }, scenario: scenario,
                until: { try await handle.outcome() })
        } else {
            trigger = Stamp.currentThread()
            start = ContinuousClock.now
            manual.connectivity.send(.connected(via: .wiredEthernet))
            sendDurations.append(start.duration(to: .now).nanoseconds)
            // Suspends as the skeleton gate's probe does (a mailbox the body fills), so the body, which
            // often runs on this thread once it is free, waits for the same work on both sides.
            await started.take()
        }
        let outcome = try await handle.outcome()
        guard case .succeeded = outcome else {
            throw BenchmarkFailure(scenario: scenario, message: "a measured job ended \(outcome), expected success")
        }
        manual.connectivity.send(.disconnected)
        return try stamp.sample(from: start, trigger: trigger, scenario: scenario)
    }

    /// Checks the blocked jobs never ran, releases them, checks each ran exactly once, and shuts down.
    func finish(limit: Duration) async throws -> [String] {
        var checks: [String] = []
        if let blocked {
            guard blocked.recorded == 0 else {
                throw BenchmarkFailure(
                    scenario: scenario,
                    message: "\(blocked.recorded) blocked jobs ran while their requirement was unmet")
            }
            manual.setCloudDriveAvailable(true)
            manual.connectivity.send(.connected(via: .wiredEthernet))
            try await blocked.waitForAll(scenario: scenario, limit: limit)
            checks.append("none of the \(blocked.count) blocked jobs ran while blocked")
        }
        await scheduler.shutdown(gracePeriod: .seconds(5))
        driver?.stop()
        if let blocked {
            try blocked.verifyExactlyOnce(scenario: scenario)
            checks.append("then, released, each of them ran exactly once")
        }
        return checks
    }
}
