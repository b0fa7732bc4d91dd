import SyncGate

/// An account source the way an app writes one without SyncGate's help: its own `AsyncStream` per
/// subscriber, no broadcast. The environment can only follow it through its stream.
final class StreamAccountSource: AccountStatusProviding {
    private struct State {
        var current: AccountStatus
        var nextID = 0
        var continuations: [Int: AsyncStream<AccountStatus>.Continuation] = [:]
    }

    private let state: LockedState<State>

    init(_ initial: AccountStatus) {
        state = LockedState(State(current: initial))
    }

    deinit {
        for continuation in state.withLock({ $0.continuations.values }) { continuation.finish() }
    }

    var status: AccountStatus { state.withLock { $0.current } }

    var statusStream: AsyncStream<AccountStatus> {
        let (stream, continuation) = AsyncStream.makeStream(of: AccountStatus.self)
        let id = state.withLock { state in
            continuation.yield(state.current)
            state.nextID += 1
            state.continuations[state.nextID] = continuation
            return state.nextID
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.continuations.removeValue(forKey: id) }
        }
        return stream
    }

    func refresh() async throws -> AccountStatus { status }

    /// Publishes a change to every stream, in the order of calls.
    func send(_ status: AccountStatus) {
        state.withLock { state in
            state.current = status
            for continuation in state.continuations.values { continuation.yield(status) }
        }
    }
}
