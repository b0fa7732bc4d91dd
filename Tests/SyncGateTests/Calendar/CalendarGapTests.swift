import Foundation
import Testing

@testable import SyncGateCore

/// Calendar jobs after a long gap (a clock that started at 1970 and was then set, a long downtime
/// before a restore): the missed occurrences are one catch-up run, however many, and counting them
/// costs a few dozen occurrences' arithmetic.
@Suite("Calendar gaps", .timeLimit(.minutes(1)))
struct CalendarGapTests {
    typealias Harness = SchedulerStateMachineTests.Harness
    static let utc = TimeZone(identifier: "UTC")!
    static let everySecond = SyncCalendarSchedule(
        hours: Set(0...23), minutes: Set(0...59), seconds: Set(0...59), window: .seconds(1))
    static let everyMinute = SyncCalendarSchedule(hours: Set(0...23), minutes: Set(0...59), window: .seconds(30))

    static func harness(wallNow: Date) -> Harness {
        var harness = Harness(status: SchedulerStateMachineTests.online)
        harness.machine.wall = CalendarWall(wallNow: wallNow, zone: utc, now: .zero)
        return harness
    }

    static func info(_ harness: Harness) -> SyncJobInfo? {
        harness.machine.jobs(matching: SyncJobQuery(), now: harness.now).first { $0.id == "tick" }
    }

    @Test("a clock that started at 1970 and is set to 2026 runs an every-minute job once, then each minute")
    func clockSetFromNineteenSeventy() {
        let boot = CalendarOccurrenceTests.utc("1970-01-02T00:00:00Z")
        let set = CalendarOccurrenceTests.utc("2026-06-01T00:00:10Z")
        var harness = Self.harness(wallNow: boot)
        harness.submit("tick") { $0.calendar = Self.everyMinute }
        #expect(harness.advance(.seconds(10)).started.isEmpty)
        let jumped = harness.wallClockSet(by: .seconds(set.timeIntervalSince(boot) - 10))
        #expect(jumped.started == ["tick"])
        _ = harness.advance(.seconds(5))
        #expect(harness.finish("tick").started.isEmpty)
        // Every minute from 1970-01-02 00:01 to 2026-06-01 00:00 passed; the latest ran.
        let passed = Int(set.timeIntervalSince(boot) - 10) / 60
        #expect(Self.info(harness)?.periods == .init(succeeded: 1, failed: 0, skipped: passed - 1))
        #expect(Self.info(harness)?.nextScheduledAt == CalendarOccurrenceTests.utc("2026-06-01T00:01:00Z"))
        #expect(harness.advance(.seconds(44)).started.isEmpty)
        #expect(harness.advance(.seconds(1)).started == ["tick"])
    }

    @Test("an every-second series restored after 40 days down runs once, then goes on each second")
    func restoredAfterLongDowntime() {
        let now = CalendarOccurrenceTests.utc("2026-01-10T00:00:00Z")
        var harness = Self.harness(wallNow: now)
        harness.submit("tick") {
            $0.calendar = Self.everySecond
            $0.options.seriesResume = .calendar(
                .init(
                    lastOccurrence: now.addingTimeInterval(-40 * 86_400),
                    counts: .init(succeeded: 7, failed: 0, skipped: 0)))
        }
        #expect(harness.runningIDs == ["tick"])
        #expect(harness.finish("tick").started.isEmpty)
        #expect(Self.info(harness)?.periods == .init(succeeded: 8, failed: 0, skipped: 40 * 86_400 - 1))
        #expect(Self.info(harness)?.nextScheduledAt == now.addingTimeInterval(1))
        #expect(harness.advance(.seconds(1)).started == ["tick"])
    }

    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let schedule: SyncCalendarSchedule
        let start: String
        let end: String
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "every second across midnight", schedule: everySecond, start: "2026-01-10T23:00:00Z",
            end: "2026-01-11T00:30:00Z"),
        Case(
            name: "every second, odd ends", schedule: everySecond, start: "2026-01-10T03:17:41Z",
            end: "2026-01-10T04:02:05Z"),
        Case(
            name: "every ten minutes on Mon and Thu for five weeks",
            schedule: SyncCalendarSchedule(
                weekdays: [.monday, .thursday], hours: Set(0...23), minutes: Set(stride(from: 0, to: 60, by: 10)),
                window: .seconds(30)),
            start: "2026-01-10T12:34:56Z", end: "2026-02-14T05:06:07Z"),
        Case(
            name: "three times at odd seconds each weekday for a year",
            schedule: SyncCalendarSchedule(
                weekdays: [.monday, .tuesday, .wednesday, .thursday, .friday], hours: [1, 13, 22],
                minutes: [0, 29], seconds: [7, 59], window: .seconds(30)),
            start: "2025-03-03T13:29:07Z", end: "2026-03-03T13:29:07Z"),
        Case(
            name: "too few to estimate", schedule: everyMinute, start: "2026-01-10T00:00:00Z",
            end: "2026-01-10T00:30:00Z"),
        Case(name: "none", schedule: everyMinute, start: "2026-01-10T00:00:00Z", end: "2026-01-10T00:00:59Z"),
    ]

    /// In a zone without DST the count is exact however many passed, and the latest is the last one.
    @Test("the occurrences that passed in a gap, counted arithmetically, match a walk", arguments: cases)
    func passedMatchesWalk(_ testCase: Case) {
        let start = Int64(CalendarOccurrenceTests.utc(testCase.start).timeIntervalSince1970)
        let end = Int64(CalendarOccurrenceTests.utc(testCase.end).timeIntervalSince1970)
        var count = 0
        var latest: Int64?
        var cursor = start
        while let next = testCase.schedule.nextOccurrence(afterSecond: cursor, in: Self.utc), next <= end {
            count += 1
            latest = next
            cursor = next
        }
        let passed = testCase.schedule.passedOccurrences(afterSecond: start, through: end, in: Self.utc)
        #expect(passed.count == count)
        #expect(passed.latest == latest)
    }

    /// Across DST changes the latest is exact; the count is within an hour's times per change.
    @Test("across a DST change the latest is exact and the count close")
    func passedAcrossDST() {
        let berlin = TimeZone(identifier: "Europe/Berlin")!
        let start = Int64(CalendarOccurrenceTests.utc("2026-03-28T00:00:00Z").timeIntervalSince1970)
        let end = Int64(CalendarOccurrenceTests.utc("2026-03-30T00:00:00Z").timeIntervalSince1970)
        let passed = Self.everyMinute.passedOccurrences(afterSecond: start, through: end, in: berlin)
        var count = 0
        var cursor = start
        while let next = Self.everyMinute.nextOccurrence(afterSecond: cursor, in: berlin), next <= end {
            count += 1
            cursor = next
        }
        #expect(passed.latest == cursor)
        #expect(passed.count != count)  // 02:00–02:59 on 29 March is one occurrence, counted as sixty
        #expect(abs(passed.count - count) <= 60)
    }
}
