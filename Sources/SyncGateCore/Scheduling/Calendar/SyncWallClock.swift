import Foundation

/// The wall clock a scheduler plans calendar jobs on: the time, the system's time zone, and the news
/// that either was set.
///
/// A scheduler targets each occurrence on this clock and waits on its monotonic clock
/// (`any Clock<Duration>`), so a jump of the wall clock neither fires nor skips a wait by itself; it
/// plans again when ``changes()`` yields. Tests inject `ManualSyncWallClock` from SyncGateTesting; the
/// system's is ``SystemWallClock``.
public protocol SyncWallClock: Sendable {
    /// The wall-clock time now.
    func now() -> Date
    /// The system's time zone now, for calendar schedules without a zone of their own.
    func currentTimeZone() -> TimeZone
    /// A stream that yields each time the wall clock was set (an NTP step, a user, a resume from
    /// suspend) or the time zone changed. Each call returns a new stream; one that never yields is
    /// allowed for a clock that cannot tell (its jumps are then seen only at the next planned time).
    func changes() -> AsyncStream<Void>
}

/// The machine's wall clock: `Date()` and the system's time zone, with the "clock was set" news from
/// the system (on Linux, the process's ``WallClockSetWatch``, a `timerfd` that the kernel cancels when
/// the clock is set) or from an injected source.
public struct SystemWallClock: SyncWallClock {
    private let watch: (@Sendable () -> AsyncStream<Void>)?

    /// The machine's wall clock with the system's "clock was set" news: on Linux from
    /// ``WallClockSetWatch/shared`` (started on first use, one `timerfd` per process, no wake-up while
    /// nobody sets the clock). Elsewhere, and where the kernel refuses the timer, no source tells it the
    /// clock was set, and a jump is seen at the next planned time.
    public init() {
        #if os(Linux)
            watch = WallClockSetWatch.shared.map { shared in shared.changes }
        #else
            watch = nil
        #endif
    }

    private init(watch: (@Sendable () -> AsyncStream<Void>)?) {
        self.watch = watch
    }

    /// A wall clock whose ``changes()`` come from `changes`, called once per stream.
    public init(changes: @escaping @Sendable () -> AsyncStream<Void>) {
        self.init(watch: changes)
    }

    /// The wall-clock time now.
    public func now() -> Date { Date() }

    /// The system's time zone now.
    public func currentTimeZone() -> TimeZone { TimeZone.current }

    /// The injected source's stream, or one that never yields.
    public func changes() -> AsyncStream<Void> {
        if let watch { return watch() }
        return AsyncStream { _ in }
    }
}
