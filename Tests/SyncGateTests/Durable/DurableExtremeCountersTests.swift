import Foundation
import SyncGateTesting
import Testing

@testable import SyncGateCore
@testable import SyncGateDurable

/// Stored counters at the ends of their range (a store written by hand, or by a damaged program whose
/// records still pass their checksums): a restore brings them within range, so the scheduler's counting
/// from them never traps, and the jobs go on. ManualClock and a manual wall clock moved together.
@Suite("Durable extreme counters", .timeLimit(.minutes(1)))
struct DurableExtremeCountersTests {
    let directory = TemporaryDirectory()
    let clock = ManualClock()
    let wall = ManualWallClock()

    @Test(
        "a job stored with extreme failure, attempt and period counts is restored, runs and counts on",
        arguments: [
            (0, 0), (Int.max, StoredJob.counterLimit), (Int.max - 1, StoredJob.counterLimit), (Int.min, 0), (-1, 0),
        ])
    func extremeCounters(stored value: Int, restored expected: Int) async throws {
        let store = try FileJobStore(directory: directory.path)
        var options = SyncJobOptions(requires: [])
        options.retry = RetryPolicy(backoff: .fixed(.seconds(1)), maxAttempts: 4)
        var plain = StoredJob(
            sequence: 1, id: "plain", kind: "tick", payload: Data("{}".utf8), submittedAt: wall.now, options: options)
        plain.failures = value
        plain.lastStartedAttempt = value
        try store.append(.submitted(plain))
        var periodic = SyncJobOptions(requires: [])
        periodic.period = SyncJobPeriod(every: .seconds(60), flex: .seconds(10))
        var series = StoredJob(
            sequence: 2, id: "series", kind: "tick", payload: Data("{}".utf8), submittedAt: wall.now,
            options: periodic)
        series.failures = value
        series.lastStartedAttempt = value
        series.periodAnchor = wall.now
        series.periods = SyncJobInfo.Periods(succeeded: value, failed: value, skipped: value)
        try store.append(.submitted(series))
        try store.close()

        let manual = ManualSyncEnvironment(connectivity: .connected(via: .wifi), clock: clock)
        let scheduler = SyncScheduler(environment: manual.environment, clock: clock)
        let reopened = try FileJobStore(directory: directory.path)
        let durable = DurableScheduler(scheduler: scheduler, store: reopened, wallClock: wall.function)
        try durable.register("tick", payload: [String: Int].self) { _, _ in }
        let events = scheduler.events
        let report = try durable.restoreJobs()
        #expect(Set(report.restored.map(\.id)) == ["plain", "series"])
        let plainHandle = try #require(report.restored.first { $0.id == "plain" })
        #expect(try await plainHandle.outcome() == .succeeded)
        #expect(scheduler.job(id: "series")?.periods == .init(succeeded: expected, failed: expected, skipped: expected))

        // Two minutes on, a period has ended (run or skipped) and is counted on from the restored counts.
        await clock.waitForSleepers(1)
        wall.advance(by: 120)
        clock.advance(by: .seconds(120))
        let counts = try #require(await nextPeriodEnd(events))
        #expect(counts.succeeded + counts.failed + counts.skipped > 3 * expected)
        // A period restored with its attempts beyond the retry policy's may end failed without a run.
        #expect(counts.succeeded >= expected && counts.failed >= expected && counts.skipped >= expected)
        await scheduler.shutdown(gracePeriod: .zero)
        try reopened.close()
    }
}
