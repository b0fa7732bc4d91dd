import SyncGate

/// A sync-event source a test sets by hand; multicast.
public final class ManualSyncEventObserver: SyncEventObserving, BroadcastBacked {
    /// The broadcast that holds the event.
    package let broadcast: StatusBroadcast<SyncEvent>

    /// Creates an observer with an initial event.
    public init(event: SyncEvent = .idle) {
        broadcast = StatusBroadcast(event)
    }

    /// What the sync engine is doing; setting it is the same as ``send(_:)``.
    public var event: SyncEvent {
        get { broadcast.value }
        set { broadcast.send(newValue) }
    }

    /// A new stream: the current event first, then every change.
    public var eventStream: AsyncStream<SyncEvent> { broadcast.stream(retaining: self) }

    /// Publishes a new event (ignored when equal to the current one).
    public func send(_ event: SyncEvent) {
        broadcast.send(event)
    }
}
