extension Clock where Duration == Swift.Duration {
    /// The longest single sleep the timers ask of a clock: about 136 years.
    ///
    /// A deadline further away is reached in sleeps of at most this length. Swift's own clocks hand a
    /// deadline to the runtime as whole seconds in an `Int64`, and trap on one beyond it (a job delayed
    /// by `.seconds(Int64.max)`, a "never" some apps write); every step of this length stays far inside.
    package static var longestSleep: Swift.Duration { .seconds(1 << 32) }

    /// Returns a function that sleeps until `duration` after now, with now read at this call.
    ///
    /// Reading the clock here rather than when the returned function runs keeps a timer's deadline
    /// tied to the moment it was requested, however late the sleeping task starts. Any duration is
    /// accepted: one beyond `.seconds(Int64.max)` sleeps that long (see ``sleep(untilAnyDeadline:)``).
    package func sleeper(for duration: Swift.Duration) -> @Sendable () async throws -> Void {
        let deadline = now.advanced(by: min(duration, .seconds(Int64.max)))
        return { try await self.sleep(untilAnyDeadline: deadline) }
    }

    /// Sleeps until `deadline`, however far away it is: one sleep when it is within ``longestSleep``,
    /// otherwise sleeps of at most that length until it is. Throws `CancellationError` when the task is
    /// cancelled, as `sleep(until:tolerance:)` does.
    package func sleep(untilAnyDeadline deadline: Instant) async throws {
        while now.duration(to: deadline) > Self.longestSleep {
            try await sleep(until: now.advanced(by: Self.longestSleep), tolerance: nil)
        }
        try await sleep(until: deadline, tolerance: nil)
    }

    /// Sleeps for `duration` from now, however long (see ``sleep(untilAnyDeadline:)``); at most
    /// `.seconds(Int64.max)`.
    package func sleep(forAny duration: Swift.Duration) async throws {
        try await sleep(untilAnyDeadline: now.advanced(by: min(duration, .seconds(Int64.max))))
    }
}
