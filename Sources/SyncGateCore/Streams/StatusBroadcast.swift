import Synchronization

/// A multicast current-value stream: the one way SyncGate publishes state that changes over time.
///
/// Every access to ``stream()`` returns a new `AsyncStream` for one consumer. Its first element is the
/// current value; after it come the changes, with consecutive equal values dropped. Each stream buffers
/// only the newest value, so a slow consumer sees the latest state rather than a backlog. A consumer that
/// goes away (its task is cancelled or it stops iterating) is removed at once.
///
/// A change is queued for the subscribers inside the critical section that stores it, and yielded after
/// it (``DeliveryQueue``), so no subscriber ever receives an older value after a newer one, and no lock
/// of the broadcast is held while a stream is yielded to or ended.
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
    package struct Subscriber: DeliveryTarget {
        /// Yields what the stream shows of `next`, when that differs from what it showed of `previous`.
        /// Called with no lock held, one delivery at a time; it only yields to an `AsyncStream`
        /// continuation.
        fileprivate let deliver: @Sendable (_ previous: Value, _ next: Value) -> Void
        /// Ends the stream.
        fileprivate let end: @Sendable () -> Void

        /// Hands over one change: the value before it and after it.
        package func receive(_ change: (previous: Value, next: Value)) {
            deliver(change.previous, change.next)
        }

        /// Ends the stream.
        package func finish() {
            end()
        }
    }

    /// What the subscribers of one critical section are handed, after it.
    fileprivate typealias Delivery = StreamDelivery<Subscriber>

    /// A delivery that a sender must still make, outside its own locks: see ``update(deferringDelivery:)``.
    ///
    /// A class, made only when there are streams to deliver to, so a change that no stream follows (the
    /// scheduler's path, which follows by an observer) hands out one empty reference, not two values.
    package final class PendingDelivery {
        fileprivate let broadcast: StatusBroadcast
        fileprivate let first: Delivery

        fileprivate init(broadcast: StatusBroadcast, first: Delivery) {
            self.broadcast = broadcast
            self.first = first
        }

        /// Makes the delivery, and every one queued after it meanwhile. Call with no lock held.
        package func deliver() {
            broadcast.drain(startingWith: first)
        }
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
        /// The delivery to the streams, when this sender must make it (see ``DeliveryQueue``).
        let delivery: PendingDelivery?
    }

    private struct State {
        var current: Value
        var nextID: UInt64 = 0
        var subscribers = SubscriberList<Subscriber>()
        var observers: [ObserverEntry] = []
        var isFinished = false
        var countWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
        var deliveries = DeliveryQueue<Delivery>()

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
        state.withLock { $0.subscribers.count }
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
        let subscriber = Subscriber(deliver: deliver(continuation), end: { continuation.finish() })
        let registration: (id: UInt64, waiters: [CheckedContinuation<Void, Never>])? = state.withLock { state in
            // No task waits on this new stream yet, so the yield resumes none; made here, it comes before
            // every change queued after this registration.
            continuation.yield(first(state.current))
            guard !state.isFinished else { return nil }
            state.nextID += 1
            state.subscribers.insert(subscriber, id: state.nextID)
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
    /// - Returns: `true` when the value changed. Observers have then been called; a stream has the value,
    ///   or gets it from the thread already delivering to the streams, right after that thread's earlier
    ///   values.
    @discardableResult
    @_specialize(where Value == ConnectivityStatus)
    @_specialize(where Value == PowerStatus)
    @_specialize(where Value == AccountStatus)
    @_specialize(where Value == SyncEvent)
    @_specialize(where Value == Bool)
    public func send(_ value: Value) -> Bool {
        update { $0 = value }
    }

    /// Changes the current value in place, atomically, and delivers the result if it differs.
    ///
    /// `body` runs inside the broadcast's critical section: it must be short and must not call back
    /// into this broadcast.
    /// - Returns: `true` when the value changed. Observers have then been called; a stream has the value,
    ///   or gets it from the thread already delivering to the streams, right after that thread's earlier
    ///   values.
    @discardableResult
    @_specialize(where Value == ConnectivityStatus)
    @_specialize(where Value == PowerStatus)
    @_specialize(where Value == AccountStatus)
    @_specialize(where Value == SyncEvent)
    @_specialize(where Value == Bool)
    public func update(_ body: (inout Value) -> Void) -> Bool {
        guard let change = store(body) else { return false }
        change.delivery?.deliver()
        for observer in change.observers {
            observer.handler(change.value)
        }
        return true
    }

    /// Stores `value` like ``send(_:)``, but leaves the delivery to the streams to the caller, who makes
    /// it after releasing its own locks; observers are not called.
    ///
    /// For a sender that must send inside its own critical section, to keep its values in order, and must
    /// not yield to streams there (a consumer's cancellation handler may take that lock). The order of
    /// values is fixed here; a later sender's values wait until the caller delivers.
    package func update(deferringDelivery value: Value) -> PendingDelivery? {
        store { $0 = value }?.delivery
    }

    /// Stores the changed value and queues it for the streams, in one critical section.
    ///
    /// The value is copied once to be changed and once to leave the lock; the new value goes in by a swap,
    /// which leaves the previous one in `next` without a copy (a status holds a dozen references, each
    /// copy retains them all).
    private func store(_ body: (inout Value) -> Void) -> Change? {
        state.withLock { state in
            guard !state.isFinished else { return nil }
            var next = state.current
            body(&next)
            guard next != state.current else { return nil }
            swap(&state.current, &next)
            changes.add(1, ordering: .releasing)
            let first =
                state.subscribers.count == 0
                ? nil : state.deliveries.enqueue(.send(state.subscribers.all, (next, state.current)))
            return Change(
                value: state.current, observers: state.observers,
                delivery: first.map { PendingDelivery(broadcast: self, first: $0) })
        }
    }

    /// Ends every stream, after the changes queued before; later changes are ignored and later streams
    /// end after the last value.
    public func finish() {
        let (first, waiters) = state.withLock { state in
            state.isFinished = true
            state.observers = []
            let subscribers = state.subscribers.removeAll()
            let first = subscribers.isEmpty ? nil : state.deliveries.enqueue(.finish(subscribers))
            return (first, state.takeCountWaiters())
        }
        if let first { drain(startingWith: first) }
        for waiter in waiters { waiter.resume() }
    }

    /// Makes `first` and every delivery queued meanwhile, with no lock held.
    fileprivate func drain(startingWith first: Delivery) {
        DeliveryQueue.drain(startingWith: first) { state.withLock { $0.deliveries.takeAll() } }
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

    /// Removes a subscriber whose stream ended.
    ///
    /// Called from the stream's `onTermination`, which may run inside the Swift runtime's lock of a task
    /// being cancelled; taking this lock there is safe because nothing yields to a stream under it.
    private func subscriberEnded(_ id: UInt64) {
        let waiters = state.withLock { state in
            state.subscribers.remove(id)
            return state.takeCountWaiters()
        }
        for waiter in waiters { waiter.resume() }
    }
}
