import SyncGateCore

/// A sync-event source a test sets by hand: a ``StatusFeed`` of ``SyncEvent``.
public typealias ManualSyncEventObserver = StatusFeed<SyncEvent>

extension StatusFeed where Value == SyncEvent {
    /// Creates a feed with an initial event, ``SyncEvent/idle`` by default.
    public convenience init(event: SyncEvent = .idle) {
        self.init(event)
    }
}
