import Foundation
import SyncGate
import SyncGateTesting
import Testing

/// Durable calendar jobs across "restarts" (a store closed and a new scheduler and store opened on its
/// directory): the schedule and the last occurrence survive, and the occurrences that passed while the
/// app was not running are caught up once (or skipped, by the policy), never run in a burst.
@Suite("Durable calendar jobs", .timeLimit(.minutes(1)))
struct DurableCalendarTests {
    let directory = TemporaryDirectory()
    let clock = ManualClock()
    /// 2023-11-14 22:13:20 UTC when the manual clock shows zero; a jump stands for time the app was down.
    let followingWall: ManualSyncWallClock

    init() {
        followingWall = ManualSyncWallClock(
            following: clock, start: Date(timeIntervalSince1970: 1_700_000_000),
            timeZone: TimeZone(identifier: "UTC")!)
    }

    /// Every day at 23:00 UTC, startable for half an hour.
    static func nightly(_ catchUp: SyncCalendarSchedule.CatchUpPolicy) -> SyncCalendarSchedule {
        var schedule = SyncCalendarSchedule.daily(hour: 23, minute: 0, window: .seconds(1800))
        schedule.catchUp = catchUp
        return schedule
    }

    static func date(_ text: String) -> Date { CalendarOccurrenceTests.utc(text) }

    struct Run {
        let scheduler: SyncScheduler
        let durable: DurableScheduler
        let store: FileJobStore
        let operation = ControlledOperation()
        let runs = LockedState(0)
        /// The attempt number of each run, in order.
        let attempts = LockedState<[Int]>([])

        func stop() async throws {
            await scheduler.shutdown(gracePeriod: .zero)
            try store.close()
        }
    }

    func start() throws -> (Run, DurableRestoreReport) {
        let manual = ManualSyncEnvironment(connectivity: .connected(via: .wifi), clock: clock)
        let scheduler = SyncScheduler(environment: manual.environment, clock: clock, wallClock: followingWall)
        let store = try FileJobStore(directory: directory.path)
        let wall = followingWall
        let durable = DurableScheduler(scheduler: scheduler, store: store, wallClock: { wall.now() })
        let run = Run(scheduler: scheduler, durable: durable, store: store)
        try durable.register("backup", payload: [String: Int].self) { _, context in
            run.runs.withLock { $0 += 1 }
            run.attempts.withLock { $0.append(context.attempt) }
            try await run.operation.operation(context)
        }
        return (run, try durable.restoreJobs())
    }

    func submit(_ run: Run, _ catchUp: SyncCalendarSchedule.CatchUpPolicy) throws {
        var job = DurableJob(id: "backup", kind: "backup", payload: [String: Int]())
        job.requirements = .network
        job.calendar = Self.nightly(catchUp)
        _ = try run.durable.submit(job)
    }

    @Test("an occurrence's attempts go on across a restart within its window")
    func attemptsContinueAcrossRestart() async throws {
        struct Failure: Error {}
        let (first, _) = try start()
        var job = DurableJob(id: "backup", kind: "backup", payload: [String: Int]())
        job.calendar = Self.nightly(.catchUpOnce)
        job.retry = .fixed(delay: .seconds(1), maxAttempts: 3)
        _ = try first.durable.submit(job)
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(2_800))  // 23:00
        await first.operation.waitForStarts(1)
        first.operation.finish(.failure(Failure()))
        await clock.waitForSleeper(until: clock.now.advanced(by: .seconds(1)))  // the backoff
        clock.advance(by: .seconds(1))
        await first.operation.waitForStarts(2)
        // The process dies during attempt 2: the store closes and nothing more is written.
        try first.store.close()
        #expect(first.attempts.withLock { $0 } == [1, 2])

        clock.advance(by: .seconds(60))  // back at 23:01: the occurrence's window (to 23:30) is open
        let (second, report) = try start()
        let handle = try #require(report.restored.first)
        let events = second.scheduler.events
        await second.operation.waitForStarts(1)  // attempt 2 again, at once
        second.operation.finish(.failure(Failure()))
        await clock.waitForSleeper(until: clock.now.advanced(by: .seconds(1)))  // the backoff
        clock.advance(by: .seconds(1))
        await second.operation.waitForStarts(2)
        second.operation.finish(.failure(Failure()))  // the last of the three attempts
        #expect(await nextPeriodEnd(events) == .init(succeeded: 0, failed: 1, skipped: 0))
        #expect(second.attempts.withLock { $0 } == [2, 3])
        handle.cancel()
        await first.scheduler.shutdown(gracePeriod: .zero)
        try await second.stop()
    }

    @Test("the schedule and the last occurrence survive; three days down, the restore catches up once")
    func catchUpOnceAfterRestart() async throws {
        let (first, _) = try start()
        let events = first.scheduler.events
        try submit(first, .catchUpOnce)
        #expect(first.scheduler.job(id: "backup")?.nextScheduledAt == Self.date("2023-11-14T23:00:00Z"))
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(2_800))  // 23:00
        await first.operation.waitForStarts(1)
        first.operation.finish()
        #expect(await nextPeriodEnd(events) == .init(succeeded: 1, failed: 0, skipped: 0))
        let stored = try #require(try first.store.load().jobs.first)
        #expect(stored.periodAnchor == Self.date("2023-11-14T23:00:00Z"))
        #expect(stored.options.calendar == Self.nightly(.catchUpOnce))
        try await first.stop()

        // Down for three days and an hour: the windows of 15, 16 and 17 November closed.
        followingWall.jump(by: .seconds(3 * 86_400 + 3_600))
        let (second, report) = try start()
        let secondEvents = second.scheduler.events
        #expect(report.restored.map(\.id) == ["backup"])
        await second.operation.waitForStarts(1)
        second.operation.finish()
        #expect(await nextPeriodEnd(secondEvents) == .init(succeeded: 2, failed: 0, skipped: 2))
        #expect(second.runs.withLock { $0 } == 1)
        #expect(second.scheduler.job(id: "backup")?.nextScheduledAt == Self.date("2023-11-18T23:00:00Z"))
        #expect(try second.store.load().jobs.first?.periodAnchor == Self.date("2023-11-17T23:00:00Z"))
        try await second.stop()
    }

    @Test("with the skip policy the restore skips what passed, counts it, and waits for the next occurrence")
    func skipAfterRestart() async throws {
        let (first, _) = try start()
        try submit(first, .skip)
        try await first.stop()
        followingWall.jump(by: .seconds(2 * 86_400))
        let (second, _) = try start()
        let info = second.scheduler.job(id: "backup")
        #expect(info?.periods == .init(succeeded: 0, failed: 0, skipped: 2))
        #expect(info?.nextScheduledAt == Self.date("2023-11-16T23:00:00Z"))
        #expect(second.runs.withLock { $0 } == 0)
        try await second.stop()
    }

    /// A clock far ahead when the job was submitted and ran, then set back: the series plans from the
    /// corrected time, and so does a restart before its next run (the correction is journaled).
    @Test("a clock set back after a run far ahead: a restart plans from the corrected time, not the far date")
    func clockSetBackSurvivesRestart() async throws {
        let ahead = Duration.seconds(6_000 * 86_400)  // about sixteen years
        followingWall.jump(by: ahead)
        let (first, _) = try start()
        let events = first.scheduler.events
        try submit(first, .catchUpOnce)
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(2_800))  // 23:00, sixteen years ahead
        await first.operation.waitForStarts(1)
        first.operation.finish()
        #expect(await nextPeriodEnd(events) == .init(succeeded: 1, failed: 0, skipped: 0))

        // Set back to 21:00 on the day of the real clock: the next run is at 23:00 that day.
        followingWall.jump(by: .zero - ahead - .seconds(7_200))
        await clock.waitForSleeper(until: clock.now.advanced(by: .seconds(7_200)))
        #expect(first.scheduler.job(id: "backup")?.nextScheduledAt == Self.date("2023-11-14T23:00:00Z"))
        // A later event comes after the correction's record: once it is out, the journal has the record.
        try first.scheduler.submit(SyncJob(id: "marker", requires: .none) { _ in })
        for await event in events where event == .submitted(id: "marker") { break }
        try await first.stop()

        let (second, report) = try start()
        #expect(report.restored.map(\.id) == ["backup"])
        #expect(second.scheduler.job(id: "backup")?.nextScheduledAt == Self.date("2023-11-14T23:00:00Z"))
        let stored = try #require(try second.store.load().jobs.first)
        let submittedAhead = Date(timeIntervalSince1970: 1_700_000_000 + 6_000 * 86_400)
        #expect(stored.calendarHeldSpan == submittedAhead...submittedAhead.addingTimeInterval(2_800))
        #expect(stored.periodAnchor == Self.date("2023-11-14T21:00:00Z"))
        await clock.waitForSleeper(until: clock.now.advanced(by: .seconds(7_200)))
        clock.advance(by: .seconds(7_200))
        await second.operation.waitForStarts(1)
        second.operation.finish()
        try await second.stop()
    }
}
