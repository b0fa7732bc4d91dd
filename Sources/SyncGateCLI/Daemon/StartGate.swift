import SyncGate

/// A gate that holds the daemon's job bodies until it opens: the daemon opens it once it has restored
/// its jobs and listens, so its log says "restored" and "listening" before any "run N started".
///
/// Opening is permanent; ``wait()`` returns at once on an open gate. Every waiter is resumed exactly
/// once, outside the lock.
final class StartGate: Sendable {
    private struct State {
        var isOpen = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = LockedState(State())

    /// Returns once the gate is open.
    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLock { state -> Bool in
                guard !state.isOpen else { return true }
                state.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    /// Opens the gate and lets every waiter go.
    func open() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.isOpen = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
