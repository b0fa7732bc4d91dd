import SyncGateCore

/// A counting semaphore for suites: at most `capacity` holders at once, the rest wait in arrival order.
///
/// ``acquire()`` suspends its task (it never blocks a thread) until a slot is free; every ``acquire()`` is
/// matched by one ``release()``, which hands the slot to the longest waiter, resumed outside the lock.
package final class SuiteSlots: Sendable {
    private struct State {
        var free: Int
        var waiters: [CheckedContinuation<Void, Never>] = []
        var next = 0
    }

    private let state: LockedState<State>

    /// Creates the semaphore with `capacity` slots (at least one).
    package init(capacity: Int) {
        state = LockedState(State(free: max(1, capacity)))
    }

    /// Waits for a slot and takes it.
    package func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let granted = state.withLock { state in
                if state.free > 0 && state.next == state.waiters.count {
                    state.free -= 1
                    return true
                }
                state.waiters.append(continuation)
                return false
            }
            if granted { continuation.resume() }
        }
    }

    /// Gives a slot back: to the longest waiter, or to the pool when none waits.
    package func release() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard state.next < state.waiters.count else {
                state.free += 1
                return nil
            }
            let waiter = state.waiters[state.next]
            state.next += 1
            if state.next == state.waiters.count {
                state.waiters.removeAll()
                state.next = 0
            }
            return waiter
        }
        waiter?.resume()
    }

    /// How many tasks wait for a slot now.
    package var waiting: Int {
        state.withLock { $0.waiters.count - $0.next }
    }
}
