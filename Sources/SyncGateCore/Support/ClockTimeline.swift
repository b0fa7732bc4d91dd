/// A clock seen as durations since a fixed origin, so pure code can compare and store instants.
///
/// The scheduler's state machine works with `Duration` offsets instead of the clock's opaque instant
/// type; this type converts between them and sleeps until an offset. Deadlines are absolute: a task
/// that starts sleeping late still wakes at the original instant (at once if it has passed).
package struct ClockTimeline: Sendable {
    /// The time elapsed since the origin.
    package let now: @Sendable () -> Duration
    /// Sleeps until the given offset from the origin, however far away (see `Clock.sleep(untilAnyDeadline:)`).
    package let sleep: @Sendable (Duration) async throws -> Void

    /// Creates a timeline whose origin is the clock's current instant.
    package init(_ clock: any Clock<Duration>) {
        self = Self.make(clock)
    }

    private static func make<C: Clock>(_ clock: C) -> ClockTimeline where C.Duration == Duration {
        let origin = clock.now
        return ClockTimeline(
            now: { origin.duration(to: clock.now) },
            sleep: { offset in try await clock.sleep(untilAnyDeadline: origin.advanced(by: offset)) }
        )
    }

    private init(now: @escaping @Sendable () -> Duration, sleep: @escaping @Sendable (Duration) async throws -> Void) {
        self.now = now
        self.sleep = sleep
    }
}
