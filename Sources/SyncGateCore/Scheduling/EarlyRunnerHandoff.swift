import Synchronization

/// Hands an early runner its first attempt: the task a status change creates before the scheduler's
/// machine decides what the change starts (see `SchedulerShell.statusChanged()`).
///
/// The thread that made the change ``decide(_:)``s once, after its critical section; the runner
/// ``take()``s once. A runner that begins first never waits for the scheduler's lock: it retries for up
/// to ``spinBudget`` (the decision is usually microseconds away: the thread that created it is still in
/// its critical section), then suspends, and `decide` resumes it, outside this handoff's lock. The value
/// is `nil` when the change started nothing for the runner, which then ends.
final class EarlyRunnerHandoff<Value: Sendable>: Sendable {
    private enum State {
        case deciding
        case waiting(CheckedContinuation<Value?, Never>)
        case decided(Value?)
        case taken
    }

    /// How long a runner that begins before the decision retries before it suspends.
    static var spinBudget: Duration { .microseconds(20) }

    private let state = LockedState(State.deciding)
    /// Set, inside the lock, once the state is `decided`: read by a retrying runner without the lock.
    private let isDecided = Atomic<Bool>(false)

    /// Gives the runner `value`, or resumes the runner waiting for it.
    func decide(_ value: Value?) {
        let waiter: CheckedContinuation<Value?, Never>? = state.withLock { state in
            switch state {
            case .deciding:
                state = .decided(value)
                isDecided.store(true, ordering: .releasing)
                return nil
            case .waiting(let continuation):
                state = .taken
                return continuation
            case .decided, .taken:
                preconditionFailure("an early runner's attempt was decided twice")
            }
        }
        waiter?.resume(returning: value)
    }

    /// Returns the runner's first attempt, waiting for the decision if it has not come yet.
    func take() async -> Value? {
        if let value = takeIfDecided() { return value }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: Self.spinBudget)
        repeat {
            for _ in 0..<64 where isDecided.load(ordering: .relaxed) { break }
            if let value = takeIfDecided() { return value }
        } while clock.now < deadline
        return await withCheckedContinuation { (continuation: CheckedContinuation<Value?, Never>) in
            let decided: Value?? = state.withLock { state in
                guard case .decided(let value) = state else {
                    state = .waiting(continuation)
                    return nil
                }
                state = .taken
                return .some(value)
            }
            if let decided { continuation.resume(returning: decided) }
        }
    }

    /// The decided value (wrapped once more), or `nil` when the decision has not come yet.
    private func takeIfDecided() -> Value?? {
        guard isDecided.load(ordering: .acquiring) else { return nil }
        return state.withLock { state in
            guard case .decided(let value) = state else { return nil }
            state = .taken
            return .some(value)
        }
    }
}
