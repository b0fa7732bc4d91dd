import Foundation

/// A schedule anchored to the wall clock: the local times of day (and, optionally, the weekdays) at
/// which a job runs, in a time zone, with a window in which a run may still start.
///
/// Unlike ``SyncJobPeriod``, whose next period counts from the previous run's start, a calendar schedule
/// never drifts: "every day at 02:00" runs at 02:00 local time each day, whenever the last run started
/// or ended. Each scheduled time is an *occurrence*; its run may start from the occurrence (plus its
/// ``randomizedDelay`` share) until ``window`` after it, and only while the job's requirements hold.
///
/// Local times that do not exist or exist twice follow one rule (``nextOccurrence(after:in:)``): a time
/// inside a spring-forward gap runs once, at the first instant after the gap (02:30 on the day Berlin
/// goes from 02:00 to 03:00 runs at 03:00); a time that a fall-back repeats runs once, at its first
/// pass (01:30 on the day New York goes from 02:00 back to 01:00 runs at the first 01:30 only).
///
/// ```swift
/// var options = SyncJobOptions(requires: [.unmetered, .externalPower])
/// options.calendar = SyncCalendarSchedule(hours: [2], minutes: [0], window: .seconds(3600))
/// let handle = try scheduler.submit(SyncJob(options: options) { _ in try await backUp() })
/// ```
public struct SyncCalendarSchedule: Sendable, Hashable {
    /// A day of the week, numbered as ISO 8601 does (Monday 1 … Sunday 7).
    public enum Weekday: Int, Sendable, Hashable, CaseIterable, Comparable {
        /// Monday, day 1.
        case monday = 1
        /// Tuesday.
        case tuesday
        /// Wednesday.
        case wednesday
        /// Thursday.
        case thursday
        /// Friday.
        case friday
        /// Saturday.
        case saturday
        /// Sunday, day 7.
        case sunday

        /// The three-letter English name (`Mon` … `Sun`), as systemd writes it.
        public var abbreviation: String {
            ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"][rawValue - 1]
        }

        /// Monday first.
        public static func < (lhs: Weekday, rhs: Weekday) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// What happens to an occurrence whose window closed without a run: the app was not running, or the
    /// requirements did not hold through the window.
    public enum CatchUpPolicy: Sendable, Hashable {
        /// The missed occurrence runs once, as soon as the requirements allow (systemd's `Persistent=`,
        /// anacron); any further occurrences missed meanwhile are counted as skipped and merged into that
        /// one run, never run in a burst.
        case catchUpOnce
        /// The missed occurrence is skipped and counted (``SyncJobInfo/Periods/skipped``); the job waits
        /// for its next occurrence.
        case skip
    }

    /// The days on which the job runs; empty for every day.
    public var weekdays: Set<Weekday>
    /// The hours (0–23) of the local times; at least one.
    public var hours: Set<Int>
    /// The minutes (0–59) of the local times; at least one.
    public var minutes: Set<Int>
    /// The seconds (0–59) of the local times; `[0]` unless given.
    public var seconds: Set<Int>
    /// The time zone of the local times; `nil` for the system's, read when each occurrence is planned
    /// (so a change of the system's time zone moves the runs not yet planned, and the scheduler plans
    /// again when it is told the wall clock changed).
    public var timeZone: TimeZone?
    /// How long after an occurrence its run may still start; positive. A run not started by then is a
    /// missed occurrence, handled by ``catchUp``.
    public var window: Duration
    /// The most a run is delayed after its occurrence, to spread a fleet's load (systemd's
    /// `RandomizedDelaySec=`); zero for none, and shorter than ``window``. Each occurrence's share is
    /// derived from the job's id and the occurrence (``delayShare(of:seed:)``), so it is the same on every
    /// machine for one job and stays the same across restarts.
    public var randomizedDelay: Duration
    /// What happens to an occurrence whose window closed without a run.
    public var catchUp: CatchUpPolicy

    /// Creates a schedule.
    ///
    /// - Parameters:
    ///   - weekdays: the days on which the job runs; empty (the default) for every day.
    ///   - hours: the hours of the local times (0–23).
    ///   - minutes: the minutes of the local times (0–59).
    ///   - seconds: the seconds of the local times (0–59); `[0]` by default.
    ///   - timeZone: the zone of the local times; `nil` (the default) for the system's.
    ///   - window: how long after an occurrence its run may still start.
    ///   - randomizedDelay: the most a run is delayed after its occurrence; zero by default.
    ///   - catchUp: what happens to an occurrence missed entirely; ``CatchUpPolicy/catchUpOnce`` by default.
    public init(
        weekdays: Set<Weekday> = [],
        hours: Set<Int>,
        minutes: Set<Int>,
        seconds: Set<Int> = [0],
        timeZone: TimeZone? = nil,
        window: Duration,
        randomizedDelay: Duration = .zero,
        catchUp: CatchUpPolicy = .catchUpOnce
    ) {
        self.weekdays = weekdays
        self.hours = hours
        self.minutes = minutes
        self.seconds = seconds
        self.timeZone = timeZone
        self.window = window
        self.randomizedDelay = randomizedDelay
        self.catchUp = catchUp
    }

    /// Every day at `hour`:`minute`.
    public static func daily(hour: Int, minute: Int, window: Duration) -> SyncCalendarSchedule {
        SyncCalendarSchedule(hours: [hour], minutes: [minute], window: window)
    }

    /// Every hour at `minute` past.
    public static func hourly(minute: Int, window: Duration) -> SyncCalendarSchedule {
        SyncCalendarSchedule(hours: Set(0...23), minutes: [minute], window: window)
    }

    /// The first problem with the schedule, naming the field and its value, or `nil` when it is valid.
    var validationError: SyncJobRefusal? {
        if let refusal = Self.rangeError("calendar.hours", hours, 0...23) { return refusal }
        if let refusal = Self.rangeError("calendar.minutes", minutes, 0...59) { return refusal }
        if let refusal = Self.rangeError("calendar.seconds", seconds, 0...59) { return refusal }
        if window <= .zero {
            return .option("calendar.window", "\(window)", "calendar.window must be positive, got \(window)")
        }
        if randomizedDelay < .zero || randomizedDelay >= window {
            return .option(
                "calendar.randomizedDelay", "\(randomizedDelay)",
                "calendar.randomizedDelay must be zero or more and shorter than calendar.window (\(window)), "
                    + "got \(randomizedDelay)")
        }
        return nil
    }

    private static func rangeError(_ field: String, _ values: Set<Int>, _ range: ClosedRange<Int>) -> SyncJobRefusal? {
        if values.isEmpty { return .option(field, "[]", "\(field) must not be empty") }
        if let bad = values.sorted().first(where: { !range.contains($0) }) {
            return .option(
                field, "\(bad)", "\(field) must lie in \(range.lowerBound)-\(range.upperBound), got \(bad)")
        }
        return nil
    }
}

extension SyncCalendarSchedule {
    /// Where a calendar series continued after a restart stands: the latest occurrence that ran or was
    /// skipped, and the counts so far.
    ///
    /// The durable layer sets it (``SyncJobOptions/seriesResume``) on a restored calendar job; the
    /// series then treats the occurrences since as passed while the app was not running: the latest
    /// whose window closed runs once as a catch-up, or they are skipped, by ``catchUp``.
    package struct Resume: Sendable, Hashable {
        /// The latest occurrence that ran or was skipped.
        package var lastOccurrence: Date
        /// The counts of the series so far.
        package var counts: SyncJobInfo.Periods
        /// The span the series had planned through when the wall clock was set back before it: its
        /// occurrences are not planned again, and the series plans from ``lastOccurrence``, where the
        /// clock was set back to. `nil` when there is none.
        package var heldSpan: ClosedRange<Date>?

        /// Creates the position of a series whose latest occurrence was `lastOccurrence`.
        package init(lastOccurrence: Date, counts: SyncJobInfo.Periods, heldSpan: ClosedRange<Date>? = nil) {
            self.lastOccurrence = lastOccurrence
            self.counts = counts
            self.heldSpan = heldSpan
        }

        /// ``lastOccurrence`` in whole seconds since 1970, within ``SyncCalendarSchedule/supportedSeconds``
        /// of it (a damaged journal may hold any date; NaN reads as 1970).
        var lastOccurrenceSecond: Int64 { SyncCalendarSchedule.clampedSecond(of: lastOccurrence) }

        /// ``heldSpan`` in whole seconds since 1970, each end clamped as ``lastOccurrenceSecond`` is.
        var heldSpanSeconds: ClosedRange<Int64>? {
            guard let heldSpan else { return nil }
            let lower = SyncCalendarSchedule.clampedSecond(of: heldSpan.lowerBound)
            return lower...max(lower, SyncCalendarSchedule.clampedSecond(of: heldSpan.upperBound))
        }
    }
}
