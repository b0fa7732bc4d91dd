import SyncGate

/// Hands one value from one task to another that awaits it.
final class Mailbox<Value: Sendable>: Sendable {
    private struct State {
        var value: Value?
        var taker: CheckedContinuation<Value, Never>?
    }

    private let state = LockedState(State())

    /// Delivers the value; resumes the taker if it is already waiting.
    func put(_ value: Value) {
        let taker: CheckedContinuation<Value, Never>? = state.withLock { state in
            if let taker = state.taker {
                state.taker = nil
                return taker
            }
            state.value = value
            return nil
        }
        taker?.resume(returning: value)
    }

    /// Waits for the value.
    func take() async -> Value {
        await withCheckedContinuation { continuation in
            let value: Value? = state.withLock { state in
                if let value = state.value {
                    state.value = nil
                    return value
                }
                state.taker = continuation
                return nil
            }
            if let value { continuation.resume(returning: value) }
        }
    }
}
