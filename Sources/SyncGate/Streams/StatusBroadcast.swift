import Synchronization

/// A multicast current-value stream: the one way SyncGate publishes state that changes over time.
///
/// Every access to ``stream()`` returns a new `AsyncStream` for one consumer. Its first element is the
/// current value; after it come the changes, with consecutive equal values dropped. Each stream buffers
/// only the newest value, so a slow consumer sees the latest state rather than a backlog. A consumer that
/// goes away (its task is cancelled or it stops iterating) is removed at once.
///
/// Values are yielded to subscribers inside the same critical section that registers new subscribers
/// and stores the value, so no subscriber ever receives an older value after a newer one.
///
/// ```swift
/// let broadcast = StatusBroadcast(ConnectivityStatus.disconnected)
/// Task { for await status in broadcast.stream() { print(status) } }
/// broadcast.send(ConnectivityStatus(isConnected: true, interface: .wifi, isExpensive: false, isConstrained: false))
/// ```
public final class StatusBroadcast<Value: Sendable & Equatable>: Sendable {
    /// A synchronous observer called after every change, outside the lock.
    package typealias Observer = @Sendable (Value) -> Void

    /// One stream's consumer: what it is handed of each change, and how its stream ends.
    private struct Subscriber {
        /// Yields what the stream shows of `next`, when that differs from what it showed of `previous`.
        /// Called inside the critical section; it only yields to an `AsyncStream` continuation.
        let deliver: @Sendable (_ previous: Value, _ next: Value) -> Void
        /// Ends the stream.
        let finish: @Sendable () -> Void
    }

    /// A registered observer. A struct rather than a tuple: the runtime looks a generic tuple type's
    /// metadata up on every use, and ``update(_:)`` runs on every status change.
    private struct ObserverEntry {
        let id: UInt64
        let handler: Observer
    }

    /// What a change hands out after the critical section; a struct for the same reason.
    private struct Change {
        let value: Value
        let observers: [ObserverEntry]
    }

    private struct State {
        var current: Value
        var nextID: UInt64 = 0
        var subscribers: [UInt64: Subscriber] = [:]
        var observers: [ObserverEntry] = []
        var isFinished = false
        var countWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

        /// Takes the waiters of ``waitForSubscriberCount(_:)`` whose count is reached.
        mutating func takeCountWaiters() -> [CheckedContinuation<Void, Never>] {
            guard !countWaiters.isEmpty else { return [] }
            var ready: [CheckedContinuation<Void, Never>] = []
            let count = subscribers.count
            countWaiters.removeAll { waiter in
                guard waiter.count == count else { return false }
                ready.append(waiter.continuation)
                return true
            }
            return ready
        }
    }

    private let state: LockedState<State>
    /// Subscribers whose streams ended while the lock was busy, until a task removes them; taken only
    /// inside `state`'s lock or alone, never around a call out.
    private let ended = LockedState<Set<UInt64>>([])
    /// Counts the changes of the current value; advanced inside the critical section that stores one.
    private let changes = Atomic<UInt64>(0)

    /// Creates a broadcast whose current value is `initial`.
    public init(_ initial: Value) {
        state = LockedState(State(current: initial))
    }

    /// The current value. Never blocks for longer than a short critical section.
    public var value: Value {
        state.withLock { $0.current }
    }

    /// How many times the current value has changed; a reader that saw generation `g` and then read
    /// ``value`` has a value at least as new as change `g`.
    ///
    /// A cheap check (one atomic load) of whether a copy of the value kept elsewhere may be out of date.
    package var generation: UInt64 {
        changes.load(ordering: .acquiring)
    }

    /// Whether ``finish()`` has been called.
    public var isFinished: Bool {
        state.withLock { $0.isFinished }
    }

    /// The number of live stream subscribers.
    public var subscriberCount: Int {
        state.withLock { state in
            state.subscribers.count - ended.withLock { $0.count { state.subscribers[$0] != nil } }
        }
    }

    /// Returns a new stream whose first element is the current value, followed by every change.
    ///
    /// After ``finish()``, the stream yields the last value and then ends.
    public func stream() -> AsyncStream<Value> {
        stream(retaining: nil)
    }

    /// Returns a new stream, like ``stream()``, that keeps `owner` alive for as long as it is consumed.
    ///
    /// Sources publish their streams this way, so `for await status in ConnectivityObserver().statusStream`
    /// keeps the observer (and its reader thread) alive until the loop ends, however short the source's
    /// own lifetime in the caller's code. `owner` is released when the consumer stops iterating, drops the
    /// stream, or the broadcast finishes.
    package func stream(retaining owner: (any AnyObject & Sendable)?) -> AsyncStream<Value> {
        subscribe(
            retaining: owner, first: { $0 },
            deliver: { continuation in
                { _, next in continuation.yield(next) }
            })
    }

    /// Returns a new stream of one part of the value, like ``stream(retaining:)``: the part of the current
    /// value first, then the part after every change that changes it.
    ///
    /// The environment offers its per-part streams this way, from its one combined broadcast, instead of
    /// keeping a broadcast per part in step with it.
    package func stream<Part: Sendable & Equatable>(
        retaining owner: (any AnyObject & Sendable)?,
        projecting part: @escaping @Sendable (Value) -> Part
    ) -> AsyncStream<Part> {
        subscribe(retaining: owner, first: part) { continuation in
            { previous, next in
                let shown = part(next)
                if shown != part(previous) { continuation.yield(shown) }
            }
        }
    }

    private func subscribe<Element: Sendable>(
        retaining owner: (any AnyObject & Sendable)?,
        first: (Value) -> Element,
        deliver: (AsyncStream<Element>.Continuation) -> @Sendable (Value, Value) -> Void
    ) -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream.makeStream(of: Element.self, bufferingPolicy: .bufferingNewest(1))
        let subscriber = Subscriber(deliver: deliver(continuation), finish: { continuation.finish() })
        let registration: (id: UInt64, waiters: [CheckedContinuation<Void, Never>])? = state.withLock { state in
            continuation.yield(first(state.current))
            guard !state.isFinished else { return nil }
            state.nextID += 1
            state.subscribers[state.nextID] = subscriber
            return (state.nextID, state.takeCountWaiters())
        }
        guard let (id, waiters) = registration else {
            continuation.finish()
            return stream
        }
        for waiter in waiters { waiter.resume() }
        continuation.onTermination = { [weak self, owner] _ in
            withExtendedLifetime(owner) {
                self?.subscriberEnded(id)
            }
        }
        return stream
    }

    /// Stores `value` and delivers it to every subscriber, unless it equals the current value.
    ///
    /// - Returns: `true` when the value changed and was delivered.
    @discardableResult
    public func send(_ value: Value) -> Bool {
        update { $0 = value }
    }

    /// Changes the current value in place, atomically, and delivers the result if it differs.
    ///
    /// `body` runs inside the broadcast's critical section: it must be short and must not call back
    /// into this broadcast.
    /// - Returns: `true` when the value changed and was delivered.
    @discardableResult
    public func update(_ body: (inout Value) -> Void) -> Bool {
        let change: Change? = state.withLock { state in
            guard !state.isFinished else { return nil }
            let previous = state.current
            var next = previous
            body(&next)
            guard next != previous else { return nil }
            state.current = next
            changes.add(1, ordering: .releasing)
            for subscriber in state.subscribers.values {
                subscriber.deliver(previous, next)
            }
            return Change(value: next, observers: state.observers)
        }
        guard let change else { return false }
        for observer in change.observers {
            observer.handler(change.value)
        }
        return true
    }

    /// Ends every stream; later changes are ignored and later streams end after the last value.
    public func finish() {
        let (subscribers, waiters) = state.withLock { state in
            state.isFinished = true
            state.observers = []
            let subscribers = Array(state.subscribers.values)
            state.subscribers = [:]
            return (subscribers, state.takeCountWaiters())
        }
        for subscriber in subscribers {
            subscriber.finish()
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Registers a synchronous observer, called after each change on the thread that made it.
    ///
    /// Observers run outside the lock, so two changes made at once from two threads may reach an observer
    /// in either order; an observer that needs the newest value reads ``value`` again inside its own
    /// critical section. The handler must not be slow: it runs on the sender's thread.
    /// - Returns: a token for ``removeObserver(_:)``.
    package func addObserver(_ handler: @escaping Observer) -> UInt64 {
        state.withLock { state in
            state.nextID += 1
            state.observers.append(ObserverEntry(id: state.nextID, handler: handler))
            return state.nextID
        }
    }

    /// Removes an observer registered with ``addObserver(_:)``.
    package func removeObserver(_ id: UInt64) {
        state.withLock { state in
            state.observers.removeAll { $0.id == id }
        }
    }

    /// Waits until the number of stream subscribers is exactly `count`; for tests.
    package func waitForSubscriberCount(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let reached = state.withLock { state in
                if state.subscribers.count == count { return true }
                state.countWaiters.append((count, continuation))
                return false
            }
            if reached { continuation.resume() }
        }
    }

    /// Removes a subscriber whose stream ended, without waiting for the lock.
    ///
    /// A stream's `onTermination` may run inside the Swift runtime's lock of its consumer's task (when
    /// that task is cancelled), while ``update(_:)`` holds this broadcast's lock and yields to the same
    /// stream, which takes the runtime's lock: waiting for the lock here would deadlock. So the
    /// subscriber is removed now if the lock is free, else marked ended (no longer counted) and removed
    /// from a new task.
    private func subscriberEnded(_ id: UInt64) {
        if let waiters = state.withLockIfAvailable({ state in Self.remove(id, from: &state) }) {
            for waiter in waiters { waiter.resume() }
            return
        }
        ended.withLock { _ = $0.insert(id) }
        Task { [weak self] in self?.removeEndedSubscriber(id) }
    }

    private func removeEndedSubscriber(_ id: UInt64) {
        let waiters = state.withLock { state in
            let waiters = Self.remove(id, from: &state)
            ended.withLock { _ = $0.remove(id) }
            return waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    private static func remove(_ id: UInt64, from state: inout State) -> [CheckedContinuation<Void, Never>] {
        _ = state.subscribers.removeValue(forKey: id)
        return state.takeCountWaiters()
    }
}
