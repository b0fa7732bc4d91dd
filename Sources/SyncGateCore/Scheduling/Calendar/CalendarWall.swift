import Foundation

/// How a scheduler's offsets (its injected monotonic clock, from its origin) map to the wall clock,
/// and the system's time zone: what the state machine needs to plan calendar jobs, as a value.
///
/// The shell reads the wall clock when it starts and each time it is told the clock was set, and hands
/// the machine a new reading (``SchedulerStateMachine/wallClockChanged(_:now:)``); between readings a
/// wall-clock instant is `offset + now`. Targets are wall-clock instants; waits are on the monotonic
/// clock, so a jump of the wall clock never fires or skips a timer by itself.
struct CalendarWall: Equatable {
    /// The wall-clock time (since 1970-01-01 UTC) at the scheduler's origin.
    var offset: Duration = .zero
    /// The system's time zone, for schedules without their own.
    var zone = TimeZone(identifier: "UTC") ?? TimeZone.current

    /// Creates the reading for a wall clock that shows `wallNow` at the scheduler offset `now`.
    init(wallNow: Date, zone: TimeZone, now: Duration) {
        // To the nanosecond until the 23rd century, in seconds beyond (a clock set that far still reads).
        offset = .saturating(seconds: wallNow.timeIntervalSince1970, rounding: .down) - now
        self.zone = zone
    }

    init() {}

    /// The wall-clock second at the scheduler offset `now`, within ±``secondsBound`` (a clock that reads
    /// further, even at `Int64.max` seconds, reads the bound: never a trap).
    func second(at now: Duration) -> Int64 {
        let wall = offset + now
        if wall >= .seconds(Self.secondsBound) { return Self.secondsBound }
        if wall <= .seconds(-Self.secondsBound) { return -Self.secondsBound }
        return Self.floorSeconds(wall)
    }

    /// The furthest from 1970 a reading of the wall clock goes, in seconds either way (2^60): beyond the
    /// occurrences' ``SyncCalendarSchedule/supportedSeconds``, and far enough from `Int64`'s limits that
    /// adding a window (at most 2^52 seconds) never overflows.
    static var secondsBound: Int64 { 1 << 60 }

    /// The scheduler offset at which the wall clock shows `second`.
    func offset(ofSecond second: Int64) -> Duration {
        .seconds(second) - offset
    }

    /// The date of a wall-clock second.
    static func date(ofSecond second: Int64) -> Date {
        Date(timeIntervalSince1970: Double(second))
    }

    private static func floorSeconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return attoseconds < 0 ? seconds - 1 : seconds
    }
}
