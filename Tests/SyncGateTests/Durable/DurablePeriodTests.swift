import Foundation
import SyncGate
import SyncGateTesting
import Testing

/// Durable periodic jobs across "restarts" (a store closed and a new scheduler and store opened on its
/// directory): the schedule goes on from the end of the last run's period, missed windows are skipped and counted,
/// and cancelling ends the series for good. ManualClock and a manual wall clock moved together.
@Suite("Durable periodic jobs", .timeLimit(.minutes(1)))
struct DurablePeriodTests {
    let directory = TemporaryDirectory()
    let clock = ManualClock()
    let wall = ManualWallClock()
    static let period = SyncJobPeriod(every: .seconds(60), flex: .seconds(10))

    /// One process lifetime.
    struct Run {
        let manual: ManualSyncEnvironment
        let scheduler: SyncScheduler
        let durable: DurableScheduler
        let store: FileJobStore
        let operation = ControlledOperation()
        let runs = LockedState<[String]>([])
        /// The attempt number of each run, in order.
        let attempts = LockedState<[Int]>([])

        /// Ends the process: the scheduler shuts down (which keeps the series), then the store closes.
        func stop() async throws {
            await scheduler.shutdown(gracePeriod: .zero)
            try store.close()
        }
    }

    func start(connected: Bool) throws -> (Run, DurableRestoreReport) {
        let manual = ManualSyncEnvironment(
            connectivity: connected ? .connected(via: .wifi) : .disconnected, clock: clock)
        let scheduler = SyncScheduler(environment: manual.environment, clock: clock)
        let store = try FileJobStore(directory: directory.path)
        let durable = DurableScheduler(scheduler: scheduler, store: store, wallClock: wall.function)
        let run = Run(manual: manual, scheduler: scheduler, durable: durable, store: store)
        try durable.register("tick", payload: [String: Int].self) { _, context in
            run.runs.withLock { $0.append(context.jobID) }
            run.attempts.withLock { $0.append(context.attempt) }
            try await run.operation.operation(context)
        }
        return (run, try durable.restoreJobs())
    }

    func submitTick(_ run: Run) throws -> SyncJobHandle {
        var job = DurableJob(id: "tick", kind: "tick", payload: [String: Int]())
        job.period = Self.period
        return try run.durable.submit(job)
    }

    /// Moves the monotonic clock and the wall clock together, as they move in a running process.
    func advance(by seconds: Int) {
        wall.advance(by: Double(seconds))
        clock.advance(by: .seconds(seconds))
    }

    @Test("the schedule survives a restart: the next period begins where the last run's period ended")
    func scheduleSurvivesRestart() async throws {
        let (first, _) = try start(connected: true)
        let events = first.scheduler.events
        _ = try submitTick(first)
        await clock.waitForSleepers(1)
        advance(by: 50)  // the first window is 50–60 s
        await first.operation.waitForStarts(1)
        first.operation.finish()
        #expect(await nextPeriodEnd(events) == .init(succeeded: 1, failed: 0, skipped: 0))
        // The series goes on from the end of the run's period (60 s), not from the run's start (50 s).
        let stored = try #require(try first.store.load().jobs.first)
        #expect(stored.periodAnchor == wall.now.addingTimeInterval(10))
        #expect(stored.periods == .init(succeeded: 1, failed: 0, skipped: 0))
        try await first.stop()

        wall.advance(by: 30)  // 80 s: the next period began at 60 s; its window is 110–120 s
        let (second, report) = try start(connected: true)
        let handle = try #require(report.restored.first)
        #expect(handle.id == "tick")
        #expect(handle.state == .delayed(attempt: 1))
        #expect(second.scheduler.job(id: "tick")?.periods == .init(succeeded: 1, failed: 0, skipped: 0))
        await clock.waitForSleepers(1)
        advance(by: 29)
        #expect(second.runs.withLock { $0.count } == 0)
        advance(by: 1)
        await second.operation.waitForStarts(1)
        #expect(second.runs.withLock { $0 } == ["tick"])
        handle.cancel()
        #expect(try await handle.outcome() == .cancelled)
        try await second.stop()
    }

    @Test(
        "a period's attempts go on across a restart while its window is open; a period skipped meanwhile starts anew",
        arguments: [(down: 2, attempts: [2, 3]), (down: 70, attempts: [1])])
    func attemptsContinueAcrossRestart(down: Int, attempts expected: [Int]) async throws {
        struct Failure: Error {}
        let (first, _) = try start(connected: true)
        var job = DurableJob(id: "tick", kind: "tick", payload: [String: Int]())
        job.period = Self.period
        job.retry = .fixed(delay: .seconds(1), maxAttempts: 3)
        _ = try first.durable.submit(job)
        await clock.waitForSleepers(1)
        advance(by: 50)  // the first window is 50–60 s
        await first.operation.waitForStarts(1)
        first.operation.finish(.failure(Failure()))
        await clock.waitForSleeper(until: clock.now.advanced(by: .seconds(1)))  // the backoff
        advance(by: 1)
        await first.operation.waitForStarts(2)
        // The process dies during attempt 2: the store closes and nothing more is written.
        try first.store.close()
        #expect(first.attempts.withLock { $0 } == [1, 2])

        // Back after `down` seconds: 53 s (the window is open) or 121 s (the window of 110–120 s closed).
        wall.advance(by: Double(down))
        let (second, report) = try start(connected: true)
        let handle = try #require(report.restored.first)
        let events = second.scheduler.events
        if expected.first == 2 {
            await second.operation.waitForStarts(1)  // attempt 2 again, at once
            second.operation.finish(.failure(Failure()))
            await clock.waitForSleeper(until: clock.now.advanced(by: .seconds(1)))  // the backoff
            advance(by: 1)
            await second.operation.waitForStarts(2)
            second.operation.finish(.failure(Failure()))  // the last of the three attempts
        } else {
            advance(by: 49)  // the open period is 120–180 s: its window is 170–180 s (an absolute deadline)
            await second.operation.waitForStarts(1)
            second.operation.finish()
        }
        let counts = await nextPeriodEnd(events)
        #expect(second.attempts.withLock { $0 } == expected)
        #expect(counts?.failed == (expected.first == 2 ? 1 : 0))
        handle.cancel()
        await first.scheduler.shutdown(gracePeriod: .zero)
        try await second.stop()
    }

    @Test("windows missed while the app was not running are skipped and counted, then one run, no burst")
    func missedWindowsSkipped() async throws {
        let (first, _) = try start(connected: false)
        _ = try submitTick(first)
        try await first.stop()

        // 250 s later: the windows ending at 60, 120, 180 and 240 s closed; the open one is 290–300 s.
        wall.advance(by: 250)
        let (second, report) = try start(connected: true)
        let handle = try #require(report.restored.first)
        let events = second.scheduler.events
        #expect(second.scheduler.job(id: "tick")?.periods == .init(succeeded: 0, failed: 0, skipped: 4))
        #expect(handle.state == .delayed(attempt: 1))
        await clock.waitForSleepers(1)
        advance(by: 39)
        #expect(second.runs.withLock { $0.count } == 0)
        advance(by: 1)
        await second.operation.waitForStarts(1)
        second.operation.finish()
        #expect(await nextPeriodEnd(events) == .init(succeeded: 1, failed: 0, skipped: 4))
        #expect(second.runs.withLock { $0.count } == 1)
        // The record says the series goes on from the end of this run's period (300 s), with the skips
        // counted once.
        let stored = try #require(try second.store.load().jobs.first)
        #expect(stored.periodAnchor == wall.now.addingTimeInterval(10))
        #expect(stored.periods == .init(succeeded: 1, failed: 0, skipped: 4))
        try await second.stop()

        wall.advance(by: 200)  // 490 s: periods ending at 360, 420 and 480 s closed; 480–540 s is open
        let (third, thirdReport) = try start(connected: true)
        #expect(thirdReport.restored.map(\.id) == ["tick"])
        #expect(third.scheduler.job(id: "tick")?.periods == .init(succeeded: 1, failed: 0, skipped: 7))
        try await third.stop()
    }

    @Test("cancelling a durable periodic job ends the series: the next process does not restore it")
    func cancelEndsSeries() async throws {
        let (first, _) = try start(connected: false)
        let handle = try submitTick(first)
        #expect(try first.store.load().jobs.map(\.id) == ["tick"])
        handle.cancel()
        #expect(try await handle.outcome() == .cancelled)
        #expect(try first.store.load().jobs.isEmpty)
        try await first.stop()

        let (second, report) = try start(connected: true)
        #expect(report.restored.isEmpty)
        #expect(second.scheduler.snapshot().jobs.isEmpty)
        try await second.stop()
    }

    @Test("a period's run that returns while the scheduler shuts down ends its period; the series stays")
    func runEndingDuringShutdown() async throws {
        let (first, _) = try start(connected: true)
        let events = first.scheduler.events
        _ = try submitTick(first)
        // A job that waits for a condition nobody sets: its cancel says the shutdown has begun.
        try first.durable.submit(
            DurableJob(id: "waits", kind: "tick", payload: [String: Int](), requires: [], conditions: ["never"]))
        await clock.waitForSleepers(1)
        advance(by: 50)
        await first.operation.waitForStarts(1)
        let startedAt = wall.now
        async let stopped: Void = first.scheduler.shutdown(gracePeriod: .seconds(30))
        for await event in events where event == .cancelled(id: "waits") { break }
        advance(by: 3)
        first.operation.finish()
        await stopped
        let stored = try first.store.load().jobs
        #expect(stored.map(\.id) == ["tick", "waits"])
        // The series goes on from the end of the run's period (60 s).
        #expect(stored.first?.periodAnchor == startedAt.addingTimeInterval(10))
        #expect(stored.first?.periods == .init(succeeded: 1, failed: 0, skipped: 0))
        #expect(stored.first?.isRunning == false)
        try first.store.close()
    }

    @Test("a period interval longer than the durable limit is refused, naming the field")
    func intervalLimit() throws {
        let (run, _) = try start(connected: false)
        var job = DurableJob(id: "tick", kind: "tick", payload: [String: Int]())
        job.period = SyncJobPeriod(every: DurableScheduler.maximumDuration + .seconds(1), flex: .seconds(1))
        let error = try #require(throws: DurableJobError.self) { try run.durable.submit(job) }
        #expect("\(error)".contains("period.interval must be at most"))
        #expect(try run.store.load().jobs.isEmpty)
        try run.store.close()
    }

    @Test("a period's run interrupted by a crash runs again in its window when the window is still open")
    func interruptedPeriodRunsAgain() async throws {
        let (first, _) = try start(connected: true)
        _ = try submitTick(first)
        await clock.waitForSleepers(1)
        advance(by: 55)
        await first.operation.waitForStarts(1)
        try first.store.close()  // the process "dies" with the period's run under way

        wall.advance(by: 2)  // 57 s: the first window (50–60 s) is still open
        let (second, report) = try start(connected: true)
        #expect(report.interrupted == ["tick"])
        await second.operation.waitForStarts(1)
        #expect(second.runs.withLock { $0 } == ["tick"])
        second.operation.finish()
        first.operation.finish()
        await first.scheduler.shutdown(gracePeriod: .zero)
        try await second.stop()
    }
}
