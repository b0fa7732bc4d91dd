import Foundation
import SyncGate
import SyncGateTesting
import Testing

/// Calendar jobs through `SyncScheduler`: the monotonic `ManualClock` for waiting, a `ManualSyncWallClock`
/// for the targets, and its change stream (the seam a Linux `timerfd` feeds) for jumps.
@Suite("Calendar jobs in the scheduler", .timeLimit(.minutes(1)))
struct CalendarShellTests {
    static let start = CalendarOccurrenceTests.utc("2026-01-10T00:00:00Z")

    static func make(
        start: Date = start
    ) throws -> (ManualClock, ManualSyncWallClock, ManualSyncEnvironment, SyncScheduler) {
        let clock = ManualClock()
        let wall = ManualSyncWallClock(following: clock, start: start, timeZone: TimeZone(identifier: "UTC")!)
        let manual = ManualSyncEnvironment(account: .available, clock: clock)
        manual.setConnectivity(.connected(via: .wifi))
        let scheduler = try SyncScheduler(
            environment: manual.environment, configuration: .init(randomSource: { 0.5 }), clock: clock,
            wallClock: wall)
        return (clock, wall, manual, scheduler)
    }

    /// Submits `nightly`, every day at 02:00 with a 10-minute window; its stream yields once per run.
    static func submitNightly(
        _ scheduler: SyncScheduler, catchUp: SyncCalendarSchedule.CatchUpPolicy = .catchUpOnce
    ) throws -> (SyncJobHandle, AsyncStream<Void>) {
        var options = SyncJobOptions(requires: .network)
        options.calendar = .daily(hour: 2, minute: 0, window: .seconds(600))
        options.calendar?.catchUp = catchUp
        let ran = AsyncStream.makeStream(of: Void.self)
        let handle = try scheduler.submit(SyncJob(id: "nightly", options: options) { _ in ran.continuation.yield() })
        return (handle, ran.stream)
    }

    /// Waits until the handle reaches a state `matches` accepts.
    static func waitFor(_ handle: SyncJobHandle, _ matches: (SyncJobState) -> Bool) async {
        for await state in handle.states where matches(state) { return }
    }

    @Test("a run at 02:00 waits on the monotonic clock; the handle, snapshot and description show the time")
    func runsAtItsTime() async throws {
        let (clock, _, _, scheduler) = try Self.make()
        let (handle, ran) = try Self.submitNightly(scheduler)
        let next = CalendarOccurrenceTests.utc("2026-01-10T02:00:00Z")
        #expect(scheduler.job(id: "nightly")?.nextScheduledAt == next)
        #expect(scheduler.snapshot().job("nightly")?.nextScheduledAt == next)
        #expect(scheduler.snapshot().job("nightly")?.summary.contains("next: 2026-01-10T02:00:00Z") == true)
        #expect(scheduler.job(id: "nightly")?.description.contains("next: 2026-01-10T02:00:00Z") == true)
        await clock.waitForSleeper(until: .init(offset: .seconds(7_200)))
        clock.advance(by: .seconds(7_200))
        var runs = ran.makeAsyncIterator()
        _ = await runs.next()
        await Self.waitFor(handle) { if case .delayed = $0 { true } else { false } }
        #expect(scheduler.job(id: "nightly")?.nextScheduledAt == CalendarOccurrenceTests.utc("2026-01-11T02:00:00Z"))
        handle.cancel()
    }

    /// A wall clock past 2262-04-11 reads more nanoseconds since 1970 than an `Int64` holds: creating a
    /// scheduler there trapped. In the year 2300 the nightly job still runs at 02:00.
    @Test("a wall clock in the year 2300: the scheduler starts and the nightly job runs at 02:00")
    func farFutureWallClock() async throws {
        let (clock, _, _, scheduler) = try Self.make(start: CalendarOccurrenceTests.utc("2300-01-10T00:00:00Z"))
        let (handle, ran) = try Self.submitNightly(scheduler)
        #expect(scheduler.job(id: "nightly")?.nextScheduledAt == CalendarOccurrenceTests.utc("2300-01-10T02:00:00Z"))
        await clock.waitForSleeper(until: .init(offset: .seconds(7_200)))
        clock.advance(by: .seconds(7_200))
        var runs = ran.makeAsyncIterator()
        _ = await runs.next()
        await Self.waitFor(handle) { if case .delayed = $0 { true } else { false } }
        #expect(scheduler.job(id: "nightly")?.nextScheduledAt == CalendarOccurrenceTests.utc("2300-01-11T02:00:00Z"))
        handle.cancel()
    }

    @Test("a wall clock set forward past the window (through the seam) runs the occurrence once, at once")
    func forwardJumpThroughTheSeam() async throws {
        let (clock, wall, _, scheduler) = try Self.make()
        let (handle, ran) = try Self.submitNightly(scheduler, catchUp: .skip)
        await clock.waitForSleepers(1)
        wall.jump(by: .seconds(3 * 3_600))
        var runs = ran.makeAsyncIterator()
        _ = await runs.next()
        await Self.waitFor(handle) { if case .delayed = $0 { true } else { false } }
        let info = scheduler.job(id: "nightly")
        #expect(info?.runs == 1)
        #expect(info?.nextScheduledAt == CalendarOccurrenceTests.utc("2026-01-11T02:00:00Z"))
        handle.cancel()
    }

    @Test("a change of the system's time zone (through the seam) moves the next run")
    func timeZoneChangeThroughTheSeam() async throws {
        let (clock, wall, _, scheduler) = try Self.make()
        let (handle, ran) = try Self.submitNightly(scheduler)
        await clock.waitForSleepers(1)
        wall.setTimeZone(TimeZone(identifier: "America/New_York")!)
        // The re-planned wait is for 07:00 UTC (02:00 in New York).
        await clock.waitForSleeper(until: .init(offset: .seconds(7 * 3_600)))
        #expect(scheduler.job(id: "nightly")?.nextScheduledAt == CalendarOccurrenceTests.utc("2026-01-10T07:00:00Z"))
        clock.advance(by: .seconds(7 * 3_600))
        var runs = ran.makeAsyncIterator()
        _ = await runs.next()
        handle.cancel()
    }
}
