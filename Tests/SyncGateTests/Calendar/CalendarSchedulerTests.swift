import Foundation
import Testing

@testable import SyncGateCore

/// Calendar jobs on the pure state machine: runs at wall-clock times that do not drift, catch-up after
/// a long offline stretch (once, never a burst), the skip policy, wall-clock jumps both ways, a change of
/// the system's time zone, a restored series, and the randomized delay.
@Suite("Calendar scheduling", .timeLimit(.minutes(1)))
struct CalendarSchedulerTests {
    typealias Harness = SchedulerStateMachineTests.Harness
    static let utc = TimeZone(identifier: "UTC")!
    static let berlin = TimeZone(identifier: "Europe/Berlin")!
    static let newYork = TimeZone(identifier: "America/New_York")!
    /// The wall clock at the machine's origin: midnight UTC.
    static let origin = CalendarOccurrenceTests.utc("2026-01-10T00:00:00Z")

    /// Every day at 02:00 (UTC unless a zone is given), startable for an hour.
    static func daily(_ catchUp: SyncCalendarSchedule.CatchUpPolicy = .catchUpOnce) -> SyncCalendarSchedule {
        var schedule = SyncCalendarSchedule.daily(hour: 2, minute: 0, window: .seconds(3600))
        schedule.catchUp = catchUp
        return schedule
    }

    static func harness(
        status: SyncEnvironmentStatus = SchedulerStateMachineTests.online, zone: TimeZone = utc
    ) -> Harness {
        var harness = Harness(status: status)
        harness.machine.wall = CalendarWall(wallNow: origin, zone: zone, now: .zero)
        return harness
    }

    static func info(_ harness: Harness, _ id: String = "backup") -> SyncJobInfo? {
        harness.machine.jobs(matching: SyncJobQuery(), now: harness.now).first { $0.id == id }
    }

    @Test("a daily job runs at 02:00 each day, however long its run took: no drift")
    func dailyDoesNotDrift() {
        var harness = Self.harness()
        harness.submit("backup") { $0.calendar = Self.daily() }
        #expect(Self.info(harness)?.nextScheduledAt == CalendarOccurrenceTests.utc("2026-01-10T02:00:00Z"))
        #expect(harness.advance(.seconds(7_199)).started.isEmpty)
        #expect(harness.advance(.seconds(1)).started == ["backup"])
        #expect(Self.info(harness)?.nextScheduledAt == nil)
        _ = harness.advance(.seconds(2_700))  // a 45-minute run
        let ended = harness.finish("backup")
        #expect(ended.events == [.periodEnded(id: "backup", periods: .init(succeeded: 1, failed: 0, skipped: 0))])
        #expect(Self.info(harness)?.nextScheduledAt == CalendarOccurrenceTests.utc("2026-01-11T02:00:00Z"))
        // From 02:45 on day 1 to 02:00 on day 2.
        #expect(harness.advance(.seconds(83_699)).started.isEmpty)
        #expect(harness.advance(.seconds(1)).started == ["backup"])
    }

    @Test("after days offline through its windows, a catch-up job runs once when it may, never a burst")
    func catchUpOnceAfterOffline() {
        var harness = Self.harness(status: SchedulerStateMachineTests.offline)
        harness.submit("backup") { $0.calendar = Self.daily() }
        var starts = 0
        for _ in 0..<(5 * 24) { starts += harness.advance(.seconds(3_600)).started.count }
        #expect(starts == 0)
        #expect(harness.phase("backup") == .waiting)
        // Five occurrences passed (days 1–5 at 02:00); the first missed one waits as the one catch-up.
        #expect(Self.info(harness)?.nextScheduledAt == CalendarOccurrenceTests.utc("2026-01-10T02:00:00Z"))
        #expect(harness.status(SchedulerStateMachineTests.online).started == ["backup"])
        let ended = harness.finish("backup")
        #expect(ended.started.isEmpty)
        #expect(Self.info(harness)?.periods == .init(succeeded: 1, failed: 0, skipped: 4))
        #expect(Self.info(harness)?.nextScheduledAt == CalendarOccurrenceTests.utc("2026-01-15T02:00:00Z"))
        #expect(harness.phase("backup") == .delayed)
    }

    @Test("with the skip policy a window that closes while unmet is skipped and counted; the next one runs")
    func skipPolicy() {
        var harness = Self.harness(status: SchedulerStateMachineTests.offline)
        harness.submit("backup") { $0.calendar = Self.daily(.skip) }
        _ = harness.advance(.seconds(7_200))
        let closed = harness.advance(.seconds(3_600))
        #expect(closed.events == [.periodEnded(id: "backup", periods: .init(succeeded: 0, failed: 0, skipped: 1))])
        #expect(harness.status(SchedulerStateMachineTests.online).started.isEmpty)
        #expect(Self.info(harness)?.nextScheduledAt == CalendarOccurrenceTests.utc("2026-01-11T02:00:00Z"))
        #expect(harness.advance(.seconds(82_799)).started.isEmpty)
        #expect(harness.advance(.seconds(1)).started == ["backup"])
    }

    @Test("a forward jump of the wall clock past the window runs the occurrence once, at once; never skipped")
    func forwardJumpPastWindow() {
        for policy in [SyncCalendarSchedule.CatchUpPolicy.catchUpOnce, .skip] {
            var harness = Self.harness()
            harness.submit("backup") { $0.calendar = Self.daily(policy) }
            _ = harness.advance(.seconds(3_600))  // 01:00
            let jumped = harness.wallClockSet(by: .seconds(3 * 3_600))  // 04:00
            #expect(jumped.started == ["backup"])
            _ = harness.advance(.seconds(60))
            #expect(harness.finish("backup").started.isEmpty)
            #expect(Self.info(harness)?.nextScheduledAt == CalendarOccurrenceTests.utc("2026-01-11T02:00:00Z"))
            // The monotonic timers were armed for the old reading: nothing fires early or twice.
            #expect(harness.advance(.seconds(3_600)).started.isEmpty)
        }
    }

    @Test("a forward jump that does not reach the occurrence brings its run closer on the monotonic clock")
    func forwardJumpBeforeOccurrence() {
        var harness = Self.harness()
        harness.submit("backup") { $0.calendar = Self.daily() }
        _ = harness.wallClockSet(by: .seconds(3_600))  // 00:00 → 01:00
        #expect(harness.advance(.seconds(3_599)).started.isEmpty)
        #expect(harness.advance(.seconds(1)).started == ["backup"])
    }

    @Test("a backward jump after a run does not run the same occurrence again")
    func backwardJumpAfterRun() {
        var harness = Self.harness()
        harness.submit("backup") { $0.calendar = Self.daily() }
        #expect(harness.advance(.seconds(7_200)).started == ["backup"])
        _ = harness.advance(.seconds(600))
        harness.finish("backup")
        let jumped = harness.wallClockSet(by: .seconds(-3_600))  // 02:10 → 01:10
        #expect(jumped.started.isEmpty)
        // 02:00 comes round again on the wall clock after 50 minutes: it does not run again.
        var starts = 0
        for _ in 0..<120 { starts += harness.advance(.seconds(60)).started.count }
        #expect(starts == 0)
        #expect(Self.info(harness)?.nextScheduledAt == CalendarOccurrenceTests.utc("2026-01-11T02:00:00Z"))
        // It runs at the next day's 02:00, an hour later on the monotonic clock than before the jump.
        // Now 15 000 s; 11 January 02:00 on the set-back wall clock is at 27 h = 97 200 s.
        #expect(harness.advance(.seconds(97_200 - 15_000 - 1)).started.isEmpty)
        #expect(harness.advance(.seconds(1)).started == ["backup"])
    }

    @Test("a backward jump while waiting delays the run by the jump, and it runs once")
    func backwardJumpWhileWaiting() {
        var harness = Self.harness()
        harness.submit("backup") { $0.calendar = Self.daily() }
        _ = harness.advance(.seconds(3_600))
        _ = harness.wallClockSet(by: .seconds(-1_800))  // 01:00 → 00:30
        #expect(harness.advance(.seconds(5_399)).started.isEmpty)
        #expect(harness.advance(.seconds(1)).started == ["backup"])
    }

    @Test("a change of the system's time zone moves the planned run of a job without its own zone")
    func timeZoneChange() {
        var harness = Self.harness(zone: Self.berlin)
        var pinned = Self.daily()
        pinned.timeZone = Self.berlin
        harness.submit("backup") { $0.calendar = Self.daily() }
        harness.submit("pinned") { $0.calendar = pinned }
        #expect(Self.info(harness)?.nextScheduledAt == CalendarOccurrenceTests.utc("2026-01-10T01:00:00Z"))
        _ = harness.wallClockSet(by: .zero, zone: Self.newYork)
        #expect(Self.info(harness)?.nextScheduledAt == CalendarOccurrenceTests.utc("2026-01-10T07:00:00Z"))
        #expect(Self.info(harness, "pinned")?.nextScheduledAt == CalendarOccurrenceTests.utc("2026-01-10T01:00:00Z"))
        #expect(harness.advance(.seconds(3_600)).started == ["pinned"])
        #expect(harness.advance(.seconds(6 * 3_600)).started == ["backup"])
    }

    @Test("a restored series whose occurrences passed while the app was down catches up once")
    func restoredCatchUp() {
        var harness = Self.harness()
        harness.submit("backup") {
            $0.calendar = Self.daily()
            $0.options.seriesResume = .calendar(
                .init(
                    lastOccurrence: CalendarOccurrenceTests.utc("2026-01-06T02:00:00Z"),
                    counts: .init(succeeded: 3, failed: 0, skipped: 0)))
        }
        // The latest missed occurrence (9 January) runs at once; the two before it merge into it.
        #expect(harness.runningIDs == ["backup"])
        harness.finish("backup")
        #expect(Self.info(harness)?.periods == .init(succeeded: 4, failed: 0, skipped: 2))
        #expect(Self.info(harness)?.nextScheduledAt == CalendarOccurrenceTests.utc("2026-01-10T02:00:00Z"))
    }

    /// A journal damaged or written by hand may hold any last occurrence: restoring it never traps, and
    /// the series goes on from the next occurrence after now, or waits no further than its limits allow.
    @Test(
        "a restored series whose last occurrence is far off, or not a date, goes on",
        arguments: [1e300, Double.infinity, Double.nan, 9.3e18])
    func restoredFarLastOccurrence(seconds: Double) {
        var harness = Self.harness()
        harness.submit("backup") {
            $0.calendar = Self.daily(.skip)
            $0.options.seriesResume = .calendar(
                .init(
                    lastOccurrence: Date(timeIntervalSince1970: seconds),
                    counts: .init(succeeded: 3, failed: 0, skipped: 0)))
        }
        #expect(harness.machine.running.isEmpty)
        let next = Self.info(harness)?.nextScheduledAt
        if seconds > 0 {
            // From a last occurrence millions of years ahead, the next is as far (or beyond reckoning).
            #expect(next.map { $0 > CalendarOccurrenceTests.utc("9999-01-01T00:00:00Z") } ?? true)
        } else {
            #expect(next == CalendarOccurrenceTests.utc("2026-01-10T02:00:00Z"))
        }
    }

    /// Restored last occurrences and their whole seconds.
    static let lastOccurrenceCases: [(Double, Int64)] = [
        (1e300, SyncCalendarSchedule.supportedSeconds), (-1e300, -SyncCalendarSchedule.supportedSeconds),
        (Double.infinity, SyncCalendarSchedule.supportedSeconds),
        (-Double.infinity, -SyncCalendarSchedule.supportedSeconds), (Double.nan, 0), (-0.5, -1),
        (1_767_225_600.9, 1_767_225_600),
    ]

    /// The last occurrence in whole seconds stays within the occurrences' range, whatever the date.
    @Test("a restored last occurrence reads within the supported seconds", arguments: lastOccurrenceCases)
    func lastOccurrenceSecond(seconds: Double, expected: Int64) {
        let resume = SyncCalendarSchedule.Resume(
            lastOccurrence: Date(timeIntervalSince1970: seconds), counts: .init(succeeded: 0, failed: 0, skipped: 0))
        #expect(resume.lastOccurrenceSecond == expected)
    }

    @Test("a restored series with the skip policy skips what passed and waits for the next occurrence")
    func restoredSkip() {
        var harness = Self.harness()
        harness.submit("backup") {
            $0.calendar = Self.daily(.skip)
            $0.options.seriesResume = .calendar(
                .init(
                    lastOccurrence: CalendarOccurrenceTests.utc("2026-01-06T02:00:00Z"),
                    counts: .init(succeeded: 3, failed: 0, skipped: 0)))
        }
        #expect(harness.machine.running.isEmpty)
        #expect(Self.info(harness)?.periods == .init(succeeded: 3, failed: 0, skipped: 3))
        #expect(Self.info(harness)?.nextScheduledAt == CalendarOccurrenceTests.utc("2026-01-10T02:00:00Z"))
    }

    @Test("the wait of a calendar job's relaxation starts at its scheduled time, not at its submission")
    func relaxationWaitStartsAtTheScheduledTime() {
        let metered = SyncEnvironmentStatus(
            connectivity: .connected(via: .cellular, isExpensive: true), account: .available)
        var harness = Self.harness(status: metered)
        harness.submit("backup") {
            $0.requirements = [.network, .unmetered]
            $0.calendar = Self.daily()
            $0.relaxations = [.drop(.unmetered, after: .seconds(600))]
        }
        // Submitted at 00:00: a wait counted from submission would have dropped unmetered at 00:10.
        #expect(harness.advance(.seconds(7_200)).started.isEmpty)
        #expect(harness.advance(.seconds(599)).started.isEmpty)
        let relaxed = harness.advance(.seconds(1))
        #expect(relaxed.started == ["backup"])
        #expect(relaxed.events.contains(.relaxed(id: "backup", relaxation: .drop(.unmetered, after: .seconds(600)))))
        harness.finish("backup")
        // The next occurrence waits for unmetered again, ten minutes from its own scheduled time.
        #expect(harness.advance(.seconds(86_400 - 600)).started.isEmpty)
        #expect(harness.advance(.seconds(599)).started.isEmpty)
        #expect(harness.advance(.seconds(1)).started == ["backup"])
    }

    @Test("the randomized delay starts each run inside its window, at the job's seeded share", arguments: 0..<8)
    func randomizedDelayInsideWindow(_ index: Int) {
        var harness = Self.harness()
        var schedule = Self.daily()
        schedule.randomizedDelay = .seconds(1_800)
        let id = "job-\(index)"
        harness.submit(id) { $0.calendar = schedule }
        let occurrence = CalendarOccurrenceTests.utc("2026-01-10T02:00:00Z")
        let share = schedule.delayShare(of: occurrence, seed: SyncCalendarSchedule.seed(forJobID: id))
        #expect(share <= schedule.randomizedDelay)
        let due = Duration.seconds(7_200) + share
        #expect(harness.advance(due - .nanoseconds(1)).started.isEmpty)
        #expect(harness.advance(.nanoseconds(1)).started == [id])
        #expect(harness.now < .seconds(7_200) + schedule.window)
    }
}

extension SchedulerStateMachineTests.Harness {
    /// The wall clock was set by `offset` (and the system's zone changed to `zone`), the monotonic clock
    /// unmoved: hands the machine the new reading.
    mutating func wallClockSet(by offset: Duration, zone: TimeZone? = nil) -> [SchedulerStateMachineTests.Machine
        .Action]
    {
        var reading = machine.wall
        reading.offset += offset
        if let zone { reading.zone = zone }
        return record(machine.wallClockChanged(reading, now: now))
    }
}
