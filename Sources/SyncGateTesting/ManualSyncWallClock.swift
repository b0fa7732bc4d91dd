import Foundation
import SyncGateCore

/// A wall clock for tests: it follows a ``ManualClock`` from a start date, and jumps, or changes its
/// time zone, only when a test tells it to.
///
/// Its time is the start date plus the manual clock's time plus every jump so far, so advancing the
/// manual clock moves both clocks together, as on a machine whose wall clock nobody sets. ``jump(by:)``
/// and ``setTimeZone(_:)`` are what an NTP step, a user setting the clock, a resume from suspend or a
/// move across zones look like to a scheduler: the wall clock changes without the monotonic clock
/// moving, and every stream of ``changes()`` yields. Nothing here touches the machine's real clock.
public final class ManualSyncWallClock: SyncWallClock {
    private struct State {
        var jumped: Duration = .zero
        var zone: TimeZone
        var subscribers: [AsyncStream<Void>.Continuation] = []
    }

    private let clock: ManualClock
    private let start: Date
    private let state: LockedState<State>

    /// Creates a wall clock that shows `start` when `clock` shows zero, in `timeZone`.
    public init(following clock: ManualClock, start: Date, timeZone: TimeZone) {
        self.clock = clock
        self.start = start
        self.state = LockedState(State(zone: timeZone))
    }

    /// The start date plus the manual clock's time plus every jump.
    public func now() -> Date {
        let elapsed = clock.now.offset + state.withLock { $0.jumped }
        let (seconds, attoseconds) = elapsed.components
        return start.addingTimeInterval(Double(seconds) + Double(attoseconds) / 1e18)
    }

    /// The time zone the test set last.
    public func currentTimeZone() -> TimeZone { state.withLock { $0.zone } }

    /// A stream that yields after every ``jump(by:)`` and ``setTimeZone(_:)`` made from now on.
    public func changes() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self)
        state.withLock { $0.subscribers.append(continuation) }
        return stream
    }

    /// Sets the wall clock `offset` forwards (positive) or backwards (negative), without moving the
    /// manual clock, and tells every stream of ``changes()``.
    public func jump(by offset: Duration) {
        let subscribers = state.withLock { state in
            state.jumped += offset
            return state.subscribers
        }
        for subscriber in subscribers { subscriber.yield() }
    }

    /// Changes the system's time zone and tells every stream of ``changes()``.
    public func setTimeZone(_ zone: TimeZone) {
        let subscribers = state.withLock { state in
            state.zone = zone
            return state.subscribers
        }
        for subscriber in subscribers { subscriber.yield() }
    }
}
