import Foundation
import SyncGate

/// A dedicated thread outside the Swift thread pool that runs one action at a time on request, the way
/// the Linux observer's reader thread reports a change.
final class ThreadDriver: Sendable {
    private let go = DispatchSemaphore(value: 0)
    private let pending = LockedState<(action: @Sendable () -> Void, done: Mailbox<Void>)?>(nil)
    private let stopped = LockedState(false)

    /// How long the thread waits, once handed an action, before running it.
    static let quietPeriod = Duration.microseconds(100)

    /// Starts the thread; it sleeps until ``run(_:)`` hands it an action.
    init() {
        let thread = Thread { [go, pending, stopped] in
            while true {
                go.wait()
                if stopped.withLock({ $0 }) { return }
                guard
                    let work = pending.withLock({ state in
                        defer { state = nil }
                        return state
                    })
                else { continue }
                // The measuring task suspends as it hands the action over; let its pool thread go idle
                // first, so every trigger from this thread finds the pool as the source's own thread
                // would (no thread about to look for work), whichever probe sent it.
                settle(ThreadDriver.quietPeriod)
                work.action()
                work.done.put(())
            }
        }
        thread.start()
    }

    /// Hands `action` to the thread; the returned mailbox receives a value once the action has returned.
    func run(_ action: @escaping @Sendable () -> Void) -> Mailbox<Void> {
        let done = Mailbox<Void>()
        pending.withLock { $0 = (action, done) }
        go.signal()
        return done
    }

    /// Times a trigger sent from the thread: runs `action` there, stamped just before it starts, then
    /// waits for `effect` (what the action sets off) and for the action to return. Returns the stamp's
    /// instant and thread, for ``Stamp/sample(from:trigger:scenario:)``, with what `effect` returned.
    func timed<Effect>(
        _ action: @escaping @Sendable () -> Void, scenario: String, until effect: () async throws -> Effect
    ) async throws -> (start: ContinuousClock.Instant, thread: UInt, effect: Effect) {
        let times = Stamp()
        let done = run {
            times.mark()
            action()
        }
        let result = try await effect()
        await done.take()
        guard let start = times.instant else {
            throw BenchmarkFailure(scenario: scenario, message: "the driver thread did not run")
        }
        return (start, times.thread, result)
    }

    /// Ends the thread after its current action.
    func stop() {
        stopped.withLock { $0 = true }
        go.signal()
    }
}
