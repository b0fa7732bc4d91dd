import Synchronization

/// A multicast stream of events: every subscriber receives every event sent after it subscribed.
///
/// Unlike ``StatusBroadcast``, nothing is replayed and nothing is dropped or merged: each subscriber's
/// stream buffers without bound, so a consumer that stops reading should cancel its task. A
/// subscriber is removed as soon as its consumer goes away.
///
/// An event is queued for the subscribers of the moment inside the critical section of ``send(_:)``, and
/// yielded after it (``DeliveryQueue``): streams see events in the order of those critical sections, and
/// no lock of the broadcast is held while a stream is yielded to or ended.
public final class EventBroadcast<Element: Sendable>: Sendable {
    private typealias Subscriber = StreamEnd<Element>

    private struct State {
        var nextID: UInt64 = 0
        var subscribers = SubscriberList<Subscriber>()
        var isFinished = false
        var deliveries = DeliveryQueue<StreamDelivery<Subscriber>>()
    }

    private let state = LockedState(State())
    /// The number of subscribers, stored inside the critical section that changes it; read without the
    /// lock by senders that can skip making an event nobody would receive (``hasSubscribers``).
    private let listeners = Atomic<Int>(0)

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
            state.subscribers.insert(StreamEnd(continuation), id: state.nextID)
            listeners.store(state.subscribers.count, ordering: .releasing)
            return state.nextID
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            // May run inside the runtime's lock of a cancelled consumer's task: safe, because nothing
            // yields to a stream under this lock.
            self?.subscriberEnded(id)
        }
        return stream
    }

    /// Whether the broadcast has a subscriber now: one atomic load, no lock.
    ///
    /// A sender may skip building an event when this is `false`: an event sent while nobody is subscribed
    /// reaches nobody. A stream created before the check (on any thread that synchronized with the
    /// checking one) is counted; one created concurrently may or may not be, which is the same as its
    /// ``stream()`` call coming just after or just before the event.
    package var hasSubscribers: Bool {
        listeners.load(ordering: .acquiring) > 0
    }

    /// Delivers an event to every current subscriber; streams see events in the order of the critical
    /// sections of their `send` calls.
    ///
    /// When another thread is delivering at that moment, `send` returns at once and that thread yields
    /// the event after the ones before it.
    public func send(_ event: Element) {
        let first = state.withLock { state in
            state.subscribers.count == 0 ? nil : state.deliveries.enqueue(.send(state.subscribers.all, event))
        }
        if let first { drain(startingWith: first) }
    }

    /// Ends every stream, after the events sent before; later events are dropped.
    public func finish() {
        let first = state.withLock { state in
            state.isFinished = true
            let subscribers = state.subscribers.removeAll()
            listeners.store(0, ordering: .releasing)
            return subscribers.isEmpty ? nil : state.deliveries.enqueue(.finish(subscribers))
        }
        if let first { drain(startingWith: first) }
    }

    private func subscriberEnded(_ id: UInt64) {
        state.withLock { state in
            state.subscribers.remove(id)
            listeners.store(state.subscribers.count, ordering: .releasing)
        }
    }

    /// Makes `first` and every delivery queued meanwhile, with no lock held.
    private func drain(startingWith first: StreamDelivery<Subscriber>) {
        DeliveryQueue.drain(startingWith: first) { state.withLock { $0.deliveries.takeAll() } }
    }
}
