import SyncGate
import SyncGateTesting

/// Scenario 3: the environment already satisfies the job; the clock starts just before
/// `scheduler.submit(job)` and stops at the first instruction of the job's body. The measuring task then
/// awaits a mailbox the body fills, as ``SkeletonGateProbe`` does, and only after it the job's outcome.
final class SubmitProbe: LatencyProbe {
    private let scenario: String
    private let manual = ManualSyncEnvironment(connectivity: .connected(via: .wiredEthernet))
    private let scheduler: SyncScheduler

    init(scenario: String) {
        self.scenario = scenario
        scheduler = SyncScheduler(environment: manual.environment)
    }

    func measure() async throws -> LatencySample {
        let stamp = Stamp()
        let started = Mailbox<Void>()
        let job = SyncJob(requires: .network) { _ in
            stamp.mark()
            started.put(())
        }
        settle()
        let trigger = Stamp.currentThread()
        let start = ContinuousClock.now
        let handle = try scheduler.submit(job)
        // Suspends as the skeleton gate's probe does (a mailbox the body fills), so the body, which often
        // runs on this thread once it is free, waits for the same work on both sides.
        await started.take()
        let outcome = try await handle.outcome()
        guard case .succeeded = outcome else {
            throw BenchmarkFailure(scenario: scenario, message: "a measured job ended \(outcome), expected success")
        }
        return try stamp.sample(from: start, trigger: trigger, scenario: scenario)
    }

    /// Shuts the scheduler down.
    func finish() async {
        await scheduler.shutdown(gracePeriod: .seconds(5))
    }
}
