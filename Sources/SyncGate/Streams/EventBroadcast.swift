/// A multicast stream of events: every subscriber receives every event sent after it subscribed.
///
/// Unlike ``StatusBroadcast``, nothing is replayed and nothing is dropped or merged: each subscriber's
/// stream buffers without bound, so a consumer that stops reading should cancel its task. A
/// subscriber is removed as soon as its consumer goes away.
public final class EventBroadcast<Element: Sendable>: Sendable {
    private struct State {
        var nextID: UInt64 = 0
        var subscribers: [UInt64: AsyncStream<Element>.Continuation] = [:]
        var isFinished = false
    }

    private let state = LockedState(State())

    /// Creates a broadcast with no subscribers.
    public init() {}

    /// The number of live subscribers.
    public var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    /// Returns a new stream of the events sent from now on; after ``finish()`` it ends at once.
    public func stream() -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream.makeStream(of: Element.self, bufferingPolicy: .unbounded)
        let id: UInt64? = state.withLock { state in
            guard !state.isFinished else { return nil }
            state.nextID += 1
            state.subscribers[state.nextID] = continuation
            return state.nextID
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            // Runs inside the runtime's lock of a cancelled consumer's task, while `send` may hold this
            // lock and yield to that task's stream, which takes the runtime's lock: never wait here.
            guard let self, self.state.withLockIfAvailable({ _ = $0.subscribers.removeValue(forKey: id) }) == nil
            else { return }
            Task { [weak self] in self?.state.withLock { _ = $0.subscribers.removeValue(forKey: id) } }
        }
        return stream
    }

    /// Delivers an event to every subscriber, in the order of calls made under one critical section.
    public func send(_ event: Element) {
        state.withLock { state in
            for continuation in state.subscribers.values {
                continuation.yield(event)
            }
        }
    }

    /// Ends every stream; later events are dropped.
    public func finish() {
        let continuations = state.withLock { state in
            state.isFinished = true
            let continuations = Array(state.subscribers.values)
            state.subscribers = [:]
            return continuations
        }
        for continuation in continuations {
            continuation.finish()
        }
    }
}
