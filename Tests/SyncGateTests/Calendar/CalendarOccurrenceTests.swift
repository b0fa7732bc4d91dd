import Foundation
import SyncGateTesting
import Testing

@testable import SyncGateCore

/// The pure occurrence arithmetic of `SyncCalendarSchedule`: daily, weekly and hourly schedules across
/// both DST transitions in Europe/Berlin and America/New_York, a change of zone, and the randomized
/// delay's share.
@Suite("Calendar occurrences", .timeLimit(.minutes(1)))
struct CalendarOccurrenceTests {
    static let berlin = TimeZone(identifier: "Europe/Berlin")!
    static let newYork = TimeZone(identifier: "America/New_York")!

    static func utc(_ text: String) -> Date {
        // A fixed table of literals: a typo is a test bug, caught by the crash.
        try! Date(text, strategy: .iso8601)
    }

    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let schedule: SyncCalendarSchedule
        let zone: TimeZone
        let after: String
        /// The next occurrences after `after`, in order (UTC).
        let expected: [String]
        var testDescription: String { name }
    }

    static let daily0230 = SyncCalendarSchedule(hours: [2], minutes: [30], window: .seconds(3600))
    static let daily0130 = SyncCalendarSchedule(hours: [1], minutes: [30], window: .seconds(3600))

    static let cases: [Case] = [
        Case(
            name: "Berlin spring forward: 02:30 does not exist on 29 March, runs once at 03:00 CEST",
            schedule: daily0230, zone: berlin, after: "2026-03-27T12:00:00Z",
            expected: ["2026-03-28T01:30:00Z", "2026-03-29T01:00:00Z", "2026-03-30T00:30:00Z"]),
        Case(
            name: "Berlin fall back: 02:30 happens twice on 25 October, runs at the first only",
            schedule: daily0230, zone: berlin, after: "2026-10-24T12:00:00Z",
            expected: ["2026-10-25T00:30:00Z", "2026-10-26T01:30:00Z"]),
        Case(
            name: "New York spring forward: 02:30 does not exist on 8 March, runs once at 03:00 EDT",
            schedule: daily0230, zone: newYork, after: "2026-03-06T12:00:00Z",
            expected: ["2026-03-07T07:30:00Z", "2026-03-08T07:00:00Z", "2026-03-09T06:30:00Z"]),
        Case(
            name: "New York fall back: 01:30 happens twice on 1 November, runs at the first only",
            schedule: daily0130, zone: newYork, after: "2026-10-31T12:00:00Z",
            expected: ["2026-11-01T05:30:00Z", "2026-11-02T06:30:00Z"]),
        Case(
            name: "Berlin weekly, Mondays and Thursdays at 18:30, across spring forward",
            schedule: SyncCalendarSchedule(
                weekdays: [.monday, .thursday], hours: [18], minutes: [30], window: .seconds(600)),
            zone: berlin, after: "2026-03-25T00:00:00Z",
            expected: ["2026-03-26T17:30:00Z", "2026-03-30T16:30:00Z", "2026-04-02T16:30:00Z"]),
        Case(
            name: "New York weekly, Sundays at 02:30, on the spring-forward Sunday and after fall back",
            schedule: SyncCalendarSchedule(weekdays: [.sunday], hours: [2], minutes: [30], window: .seconds(600)),
            zone: newYork, after: "2026-03-02T00:00:00Z",
            expected: ["2026-03-08T07:00:00Z", "2026-03-15T06:30:00Z"]),
        Case(
            name: "New York weekly, Sundays at 01:30, on the fall-back Sunday runs once",
            schedule: SyncCalendarSchedule(weekdays: [.sunday], hours: [1], minutes: [30], window: .seconds(600)),
            zone: newYork, after: "2026-10-26T00:00:00Z",
            expected: ["2026-11-01T05:30:00Z", "2026-11-08T06:30:00Z"]),
        Case(
            name: "Berlin hourly at :15 over the gap: 02:15 runs at 03:00, then 03:15",
            schedule: .hourly(minute: 15, window: .seconds(300)), zone: berlin, after: "2026-03-29T00:15:00Z",
            expected: ["2026-03-29T01:00:00Z", "2026-03-29T01:15:00Z", "2026-03-29T02:15:00Z"]),
        Case(
            name: "UTC daily at 02:00, seconds given, strictly after an occurrence",
            schedule: SyncCalendarSchedule(hours: [2], minutes: [0], seconds: [0, 30], window: .seconds(10)),
            zone: TimeZone(identifier: "UTC")!, after: "2026-01-01T02:00:00Z",
            expected: ["2026-01-01T02:00:30Z", "2026-01-02T02:00:00Z"]),
    ]

    @Test("the next occurrences", arguments: cases)
    func nextOccurrences(_ testCase: Case) {
        var cursor = Self.utc(testCase.after)
        var found: [Date] = []
        for _ in testCase.expected {
            guard let next = testCase.schedule.nextOccurrence(after: cursor, in: testCase.zone) else { break }
            found.append(next)
            cursor = next
        }
        #expect(found == testCase.expected.map(Self.utc))
    }

    /// Dates as far as `Date` goes, or beyond what `Int64` seconds hold, answer without trapping: an
    /// occurrence within ``SyncCalendarSchedule/supportedSeconds`` of 1970, `nil` past it.
    @Test(
        "far dates answer without trapping",
        arguments: [
            (Date.distantFuture.timeIntervalSince1970, true), (Date.distantPast.timeIntervalSince1970, true),
            (Double(SyncCalendarSchedule.supportedSeconds) - 86_400, true),
            (Double(SyncCalendarSchedule.supportedSeconds) + 1, false), (1e19, false), (-1e19, false),
            (Double.infinity, false), (-Double.infinity, false), (Double.nan, false),
        ]
    )
    func farDates(seconds: Double, answers: Bool) throws {
        let after = Date(timeIntervalSince1970: seconds)
        let next = Self.daily0230.nextOccurrence(after: after, in: Self.berlin)
        #expect((next != nil) == answers)
        if let next {
            #expect(next > after)
            #expect(next.timeIntervalSince(after) <= 86_400 + 3_600)
        }
        #expect(Self.daily0230.nextOccurrence(afterSecond: .max, in: Self.berlin) == nil)
        #expect(Self.daily0230.nextOccurrence(afterSecond: .min, in: Self.berlin) == nil)
    }

    @Test("a change of time zone moves the occurrences by the zones' difference")
    func timeZoneChangeMovesRuns() {
        let after = Self.utc("2026-06-01T12:00:00Z")
        let inBerlin = Self.daily0230.nextOccurrence(after: after, in: Self.berlin)
        let inNewYork = Self.daily0230.nextOccurrence(after: after, in: Self.newYork)
        #expect(inBerlin == Self.utc("2026-06-02T00:30:00Z"))
        #expect(inNewYork == Self.utc("2026-06-02T06:30:00Z"))
    }

    @Test("each occurrence's delay share stays within the randomized delay, is stable, and spreads (seeded)")
    func delayShareStaysInside() {
        var schedule = SyncCalendarSchedule.daily(hour: 2, minute: 0, window: .seconds(3600))
        schedule.randomizedDelay = .seconds(1800)
        let seed = SyncCalendarSchedule.seed(forJobID: "backup")
        #expect(seed == SyncCalendarSchedule.seed(forJobID: "backup"))
        #expect(seed != SyncCalendarSchedule.seed(forJobID: "backup2"))
        var shares: Set<Duration> = []
        var cursor = Self.utc("2026-01-01T00:00:00Z")
        for _ in 0..<500 {
            guard let next = schedule.nextOccurrence(after: cursor, in: Self.berlin) else { break }
            let share = schedule.delayShare(of: next, seed: seed)
            #expect(share >= .zero && share <= schedule.randomizedDelay)
            #expect(share < schedule.window)
            #expect(share == schedule.delayShare(of: next, seed: seed))
            shares.insert(share)
            cursor = next
        }
        #expect(shares.count > 400)
        #expect(shares.contains { $0 < .seconds(600) } && shares.contains { $0 > .seconds(1200) })
        schedule.randomizedDelay = .zero
        #expect(schedule.delayShare(of: cursor, seed: seed) == .zero)
    }

    /// An invalid schedule's hours or minutes (`Int.max`) overflowed the arithmetic of the public
    /// `nextOccurrence(after:in:)`, whose documentation promised `nil` for an invalid schedule.
    @Test("an invalid schedule has no next occurrence", arguments: [[Int.max], [-1], [24]] as [Set<Int>])
    func invalidScheduleHasNone(hours: Set<Int>) {
        let schedule = SyncCalendarSchedule(hours: hours, minutes: [0], window: .seconds(60))
        #expect(schedule.nextOccurrence(after: Self.utc("2026-01-10T00:00:00Z"), in: .gmt) == nil)
        let minutes = SyncCalendarSchedule(hours: [2], minutes: [Int.max], window: .seconds(60))
        #expect(minutes.nextOccurrence(after: Self.utc("2026-01-10T00:00:00Z"), in: .gmt) == nil)
    }

    @Test("a randomized delay past 292 years draws within it, for any date", arguments: [1, 2, 3] as [UInt64])
    func farRandomizedDelays(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        let longest = Duration.seconds(Int64.max - 1)
        let schedule = SyncCalendarSchedule(
            hours: [2], minutes: [0], window: .seconds(Int64.max), randomizedDelay: longest)
        #expect(schedule.delayShare(of: Date(timeIntervalSince1970: 1e30), seed: seed) <= longest)
        #expect(schedule.delayShare(of: Date(timeIntervalSince1970: -1e30), seed: seed) <= longest)
        for notADate in [Double.nan, .infinity, -.infinity] {
            #expect(schedule.delayShare(of: Date(timeIntervalSince1970: notADate), seed: seed) <= longest)
        }
        for _ in 0..<200 {
            let date = Date(timeIntervalSince1970: Double(random.next(below: 4_000_000_000)))
            let share = schedule.delayShare(of: date, seed: random.next())
            #expect(share >= .zero && share <= longest)
        }
    }

    struct Invalid: Sendable {
        let schedule: SyncCalendarSchedule
        let field: String
        let value: String
    }

    @Test(
        "an invalid schedule is refused naming the field and the value",
        arguments: [
            Invalid(
                schedule: .init(hours: [24], minutes: [0], window: .seconds(60)), field: "calendar.hours", value: "24"),
            Invalid(
                schedule: .init(hours: [], minutes: [0], window: .seconds(60)), field: "calendar.hours", value: "[]"),
            Invalid(
                schedule: .init(hours: [1], minutes: [60], window: .seconds(60)), field: "calendar.minutes", value: "60"
            ),
            Invalid(
                schedule: .init(hours: [1], minutes: [0], seconds: [-1], window: .seconds(60)),
                field: "calendar.seconds", value: "-1"),
            Invalid(
                schedule: .init(hours: [1], minutes: [0], window: .zero), field: "calendar.window", value: "0.0 seconds"
            ),
            Invalid(
                schedule: .init(hours: [1], minutes: [0], window: .seconds(60), randomizedDelay: .seconds(60)),
                field: "calendar.randomizedDelay", value: "60.0 seconds"),
        ])
    func invalidSchedules(_ invalid: Invalid) {
        var options = SyncJobOptions(requires: .none)
        options.calendar = invalid.schedule
        let refusal = options.validationError
        #expect(refusal?.field == invalid.field)
        #expect(refusal?.value == invalid.value)
    }

    @Test("a calendar job may not also be periodic, have a delay, a start deadline or a serial group")
    func exclusiveOptions() {
        var options = SyncJobOptions(requires: .none)
        options.calendar = .daily(hour: 2, minute: 0, window: .seconds(60))
        options.period = SyncJobPeriod(every: .seconds(60), flex: .seconds(10))
        #expect(options.validationError?.field == "period")
        options.period = nil
        options.delay = .seconds(30)
        #expect(options.validationError?.field == "delay")
        #expect(options.validationError?.reason.contains("occurrences") == true)
        options.delay = nil
        options.startDeadline = .seconds(5)
        #expect(options.validationError?.field == "startDeadline")
        options.startDeadline = nil
        options.serialGroup = "g"
        #expect(options.validationError?.field == "serialGroup")
        options.serialGroup = nil
        #expect(options.validationError == nil)
    }
}
