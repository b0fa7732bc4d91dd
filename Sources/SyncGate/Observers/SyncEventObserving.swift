/// A source of the app's sync-engine activity (on Apple platforms, Core Data + CloudKit events).
///
/// A `StatusFeed<SyncEvent>` conforms, and ``SyncEnvironment`` follows it synchronously; any other
/// conforming type is followed through ``eventStream``.
public protocol SyncEventObserving: Sendable {
    /// What the sync engine is doing now. Thread-safe.
    var event: SyncEvent { get }
    /// Stream of activity changes. Emits the current value on subscription.
    var eventStream: AsyncStream<SyncEvent> { get }
}
