import SyncGate
import SyncGateTesting

extension Scenario {
    /// Scenario 7: resident memory per waiting job, beyond its closure.
    static func runMemory(_ sizes: BenchmarkOptions.Sizes) async throws -> ScenarioResult {
        let name = Scenario.memory.name
        let count = sizes.memoryJobs
        var result = ScenarioResult(
            name: name, number: 7, title: "memory per waiting job (\(count) queued)",
            measures: "resident memory (/proc/self/statm, after malloc_trim) before and after submitting \(count) "
                + "jobs that wait for the network, handles dropped by the caller; the closure's own size is "
                + "measured the same way by building \(count) identical closures into a pre-sized array"
        )
        let ledger = RunLedger(count: count)
        var operations: [SyncJob.Operation] = []
        operations.reserveCapacity(count)
        ProcessMemory.trim()
        guard let closuresBefore = ProcessMemory.residentBytes() else {
            result.skipped = "/proc/self/statm cannot be read on this system"
            return result
        }
        for index in 0..<count {
            operations.append { _ in ledger.record(index) }
        }
        let closuresAfter = ProcessMemory.residentBytes() ?? closuresBefore
        let closureBytes = Double(closuresAfter - closuresBefore) / Double(count)
        operations = []

        let manual = ManualSyncEnvironment(connectivity: .disconnected)
        let scheduler = try SyncScheduler(environment: manual.environment, configuration: .init(maxConcurrentJobs: 64))
        ProcessMemory.trim()
        let jobsBefore = ProcessMemory.residentBytes() ?? 0
        for index in 0..<count {
            try scheduler.submit(SyncJob(requires: .network) { _ in ledger.record(index) })
        }
        let jobsAfter = ProcessMemory.residentBytes() ?? jobsBefore
        let perJob = Double(jobsAfter - jobsBefore) / Double(count)
        let beyond = perJob - closureBytes
        result.figures += [
            Figure(
                "resident bytes per waiting job beyond its closure", beyond, unit: "bytes",
                goal: "≤ 384 bytes", goalMet: beyond <= 384
            ),
            Figure("resident bytes per waiting job, closure included", perJob, unit: "bytes"),
            Figure("resident bytes per closure (context; subtracted above)", closureBytes, unit: "bytes"),
            Figure("resident growth for all jobs", Double(jobsAfter - jobsBefore) / 1_048_576, unit: "MiB"),
        ]

        guard ledger.recorded == 0 else {
            throw BenchmarkFailure(scenario: name, message: "\(ledger.recorded) jobs ran before the network came up")
        }
        manual.connectivity.send(.connected(via: .wiredEthernet))
        try await ledger.waitForAll(scenario: name, limit: sizes.patience)
        await scheduler.shutdown(gracePeriod: .seconds(5))
        try ledger.verifyExactlyOnce(scenario: name)
        result.checks.append("no job ran while queued; released, each of the \(count) ran exactly once")
        result.notes.append(
            "each job carries the default id (a per-launch prefix, `#` and a base-36 counter, stored inline) and an "
                + "unretained "
                + "handle; the SyncJob value itself is transient")
        return result
    }
}
