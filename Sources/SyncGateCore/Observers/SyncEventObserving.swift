/// A source of the app's sync-engine activity, such as an app's own source over Core Data + CloudKit events.
///
/// On Apple platforms SyncGate's ``CloudKitSyncEventSource`` follows Core Data's CloudKit events; elsewhere
/// an app feeds one through a `StatusFeed<SyncEvent>`, which conforms and
/// which ``SyncEnvironment`` follows synchronously (any other conforming type is followed through
/// ``eventStream``). Without one, sync events are not monitored. As a ``PartObserving`` source its
/// ``PartObserving/status`` is ``event`` and its ``PartObserving/statusStream`` is ``eventStream``.
public protocol SyncEventObserving: PartObserving where Status == SyncEvent {
    /// What the sync engine is doing now. Thread-safe.
    var event: SyncEvent { get }
    /// Stream of activity changes. Emits the current value on subscription.
    var eventStream: AsyncStream<SyncEvent> { get }
}

extension SyncEventObserving {
    /// The same as ``event``.
    public var status: SyncEvent { event }
    /// The same as ``eventStream``.
    public var statusStream: AsyncStream<SyncEvent> { eventStream }
}
