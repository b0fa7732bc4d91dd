import Foundation
import Testing

@testable import SyncGateCore

/// Calendar jobs when the wall clock was wrong: set back after it ran ahead (what ran stays covered,
/// what has not run is planned again from the corrected time), and readings too far from 1970 to
/// compute occurrences for (no trap; the job waits with no next time until the clock is set).
@Suite("Calendar clock corrections", .timeLimit(.minutes(1)))
struct CalendarClockCorrectionTests {
    typealias Harness = SchedulerStateMachineTests.Harness
    static let utc = TimeZone(identifier: "UTC")!

    static func harness(wallNow: Date, status: SyncEnvironmentStatus = SchedulerStateMachineTests.online) -> Harness {
        var harness = Harness(status: status)
        harness.machine.wall = CalendarWall(wallNow: wallNow, zone: utc, now: .zero)
        return harness
    }

    static func info(_ harness: Harness) -> SyncJobInfo? {
        harness.machine.jobs(matching: SyncJobQuery(), now: harness.now).first { $0.id == "backup" }
    }

    static func date(_ text: String) -> Date { CalendarOccurrenceTests.utc(text) }

    /// The wall clock now reads `wallNow`, the monotonic clock unmoved.
    static func setClock(_ harness: inout Harness, to wallNow: Date) -> [SchedulerStateMachineTests.Machine.Action] {
        harness.record(
            harness.machine.wallClockChanged(
                CalendarWall(wallNow: wallNow, zone: utc, now: harness.now), now: harness.now))
    }

    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let submitted: String
        let corrected: String
        let next: String
        var testDescription: String { name }
    }

    static let submittedAhead: [Case] = [
        Case(
            name: "years ahead", submitted: "2040-01-01T00:00:00Z", corrected: "2026-06-01T00:00:00Z",
            next: "2026-06-01T02:00:00Z"),
        Case(
            name: "a day ahead", submitted: "2026-06-02T05:00:00Z", corrected: "2026-06-01T05:00:00Z",
            next: "2026-06-02T02:00:00Z"),
    ]

    @Test(
        "a daily job submitted while the clock was ahead runs at the corrected clock's next 02:00",
        arguments: submittedAhead)
    func submittedWhileAhead(_ testCase: Case) {
        var harness = Self.harness(wallNow: Self.date(testCase.submitted))
        harness.submit("backup") { $0.calendar = CalendarSchedulerTests.daily() }
        #expect(Self.setClock(&harness, to: Self.date(testCase.corrected)).started.isEmpty)
        #expect(Self.info(harness)?.nextScheduledAt == Self.date(testCase.next))
        let wait = Self.date(testCase.next).timeIntervalSince(Self.date(testCase.corrected))
        #expect(harness.advance(.seconds(wait - 1)).started.isEmpty)
        let started = harness.advance(.seconds(1)).started
        #expect(started == ["backup"])
        guard started == ["backup"] else { return }
        harness.finish("backup")
        #expect(Self.info(harness)?.periods == .init(succeeded: 1, failed: 0, skipped: 0))
    }

    @Test("a job that ran while the clock was years ahead runs the next day after the correction")
    func ranWhileAhead() {
        var harness = Self.harness(wallNow: Self.date("2040-01-01T00:00:00Z"))
        harness.submit("backup") { $0.calendar = CalendarSchedulerTests.daily() }
        #expect(harness.advance(.seconds(7_200)).started == ["backup"])
        _ = harness.advance(.seconds(60))
        harness.finish("backup")
        _ = Self.setClock(&harness, to: Self.date("2026-06-01T03:00:00Z"))
        #expect(Self.info(harness)?.nextScheduledAt == Self.date("2026-06-02T02:00:00Z"))
        #expect(harness.advance(.seconds(23 * 3_600 - 1)).started.isEmpty)
        #expect(harness.advance(.seconds(1)).started == ["backup"])
    }

    @Test("a catch-up waiting for a time the corrected clock has not reached is planned at its time again")
    func catchUpWhileAhead() {
        var harness = Self.harness(
            wallNow: Self.date("2040-01-01T00:00:00Z"), status: SchedulerStateMachineTests.offline)
        harness.submit("backup") { $0.calendar = CalendarSchedulerTests.daily() }
        _ = harness.advance(.seconds(4 * 3_600))  // the window of 2040-01-01 02:00 closed: it waits to catch up
        #expect(Self.info(harness)?.nextScheduledAt == Self.date("2040-01-01T02:00:00Z"))
        _ = Self.setClock(&harness, to: Self.date("2026-06-01T00:00:00Z"))
        #expect(Self.info(harness)?.nextScheduledAt == Self.date("2026-06-01T02:00:00Z"))
        #expect(harness.status(SchedulerStateMachineTests.online).started.isEmpty)
        #expect(harness.advance(.seconds(7_199)).started.isEmpty)
        #expect(harness.advance(.seconds(1)).started == ["backup"])
    }

    @Test("set back before its submission, an every-minute job runs the minutes it never ran, never one twice")
    func setBackBeforeRunsRunsNoneTwice() {
        var harness = Self.harness(wallNow: Self.date("2026-06-01T12:00:30Z"))
        harness.submit("backup") {
            $0.calendar = SyncCalendarSchedule(hours: Set(0...23), minutes: Set(0...59), window: .seconds(30))
        }
        var started: [Date] = []
        func step(_ harness: inout Harness, _ seconds: Int64) {
            let wallNow = harness.machine.wall.second(at: harness.now + .seconds(seconds))
            if !harness.advance(.seconds(seconds)).started.isEmpty {
                started.append(CalendarWall.date(ofSecond: wallNow))
                harness.finish("backup")
            }
        }
        for _ in 0..<(5 * 60 + 29) { step(&harness, 1) }  // runs 12:01 … 12:05; now 12:05:59
        _ = Self.setClock(&harness, to: Self.date("2026-06-01T11:58:00Z"))
        for _ in 0..<(10 * 60) { step(&harness, 1) }  // to 12:08:00
        let minutes = ["12:01", "12:02", "12:03", "12:04", "12:05", "11:59", "12:00", "12:06", "12:07", "12:08"]
        #expect(started == minutes.map { Self.date("2026-06-01T\($0):00Z") })
    }

    /// Wall-clock readings, in seconds since 1970, too far to compute occurrences for.
    static let farReadings: [Double] = [9.3e18, Double(Int64.max), 1e30, -1e30, 0x1p51, -0x1p51]

    @Test(
        "a clock that reads too far from 1970 never traps: the job waits with no next time until it is set",
        arguments: farReadings)
    func farClock(_ seconds: Double) {
        var harness = Self.harness(wallNow: Date(timeIntervalSince1970: seconds))
        _ = harness.advance(.seconds(1))  // the wall clock reads past its reading at the origin
        harness.submit("backup") { $0.calendar = CalendarSchedulerTests.daily() }
        #expect(harness.phase("backup") == .delayed)
        #expect(Self.info(harness)?.nextScheduledAt == nil)
        #expect(harness.advance(.seconds(86_400 * 30)).started.isEmpty)
        let origin = Self.date("2026-06-01T00:00:00Z")
        #expect(Self.setClock(&harness, to: origin).started.isEmpty)
        #expect(Self.info(harness)?.nextScheduledAt == Self.date("2026-06-01T02:00:00Z"))
        #expect(harness.advance(.seconds(7_200)).started == ["backup"])
    }
}
