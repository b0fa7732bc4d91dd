import SyncGate
import SyncGateTesting

/// Scenario 3: the environment already satisfies the job; the clock starts just before
/// `await scheduler.submit(job)` and stops at the first instruction of the job's body.
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
        let job = SyncJob(requires: .network) { _ in stamp.mark() }
        settle()
        let trigger = Stamp.currentThread()
        let start = ContinuousClock.now
        let handle = try scheduler.submit(job)
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
