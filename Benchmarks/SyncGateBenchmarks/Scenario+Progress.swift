import SyncGate
import SyncGateTesting

extension Scenario {
    /// Scenario 12: the cost of one `context.reportProgress` call inside a running job, with no
    /// observer and with one task reading `handle.progressUpdates`; baseline: one uncontended
    /// `LockedState` store, the least such a report can cost.
    static func runProgress(_ sizes: BenchmarkOptions.Sizes) async throws -> ScenarioResult {
        var result = ScenarioResult(
            name: Scenario.progress.name, number: 12, title: "progress report cost inside a running job",
            measures: "the time of a loop of `context.reportProgress(fraction, message: nil)` calls in a job's "
                + "body, divided by the calls; once with nobody observing, once with one task reading "
                + "`handle.progressUpdates`; baseline: the same loop storing into a `LockedState`"
        )
        let reports = max(100_000, sizes.samples * 200)
        let manual = ManualSyncEnvironment(connectivity: .connected(via: .wiredEthernet))
        let scheduler = SyncScheduler(environment: manual.environment)

        let baselineStore = LockedState(0.0)
        let baselineStart = ContinuousClock.now
        for index in 0..<reports { baselineStore.withLock { $0 = Double(index) } }
        let baseline = baselineStart.duration(to: .now).nanoseconds / Double(reports)

        var perReport: [Double] = []
        for observed in [false, true] {
            let elapsed = LockedState<Duration?>(nil)
            let (started, startedContinuation) = AsyncStream.makeStream(of: Void.self)
            let (go, goContinuation) = AsyncStream.makeStream(of: Void.self)
            let handle = try scheduler.submit(
                SyncJob(requires: []) { context in
                    startedContinuation.yield()
                    for await _ in go { break }
                    let start = ContinuousClock.now
                    for index in 0..<reports { context.reportProgress(Double(index) / Double(reports)) }
                    elapsed.withLock { $0 = start.duration(to: .now) }
                })
            for await _ in started { break }
            let reader: Task<Int, Never>? =
                observed
                ? Task {
                    var seen = 0
                    for await _ in handle.progressUpdates { seen += 1 }
                    return seen
                } : nil
            if observed { await Task.yield() }
            goContinuation.yield()
            guard try await handle.outcome() == .succeeded, let time = elapsed.withLock({ $0 }) else {
                throw BenchmarkFailure(scenario: result.name, message: "the reporting job did not succeed")
            }
            let seen = await reader?.value ?? 0
            perReport.append(time.nanoseconds / Double(reports))
            result.checks.append(
                observed
                    ? "the job made \(reports) reports; the observer read \(seen) (it gets the newest, not every one)"
                    : "the job made \(reports) reports with nobody observing")
        }
        result.figures.append(
            Figure(
                "reportProgress, no observer", perReport[0], unit: "ns/report",
                baselineName: "LockedState store", baseline: baseline))
        result.figures.append(
            Figure(
                "reportProgress, one observer", perReport[1], unit: "ns/report",
                baselineName: "LockedState store", baseline: baseline))
        await scheduler.shutdown(gracePeriod: .zero)
        return result
    }
}
