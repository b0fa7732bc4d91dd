/// A source of the free space on a volume: its current ``StorageStatus`` and a multicast stream of
/// changes (``PartObserving/status`` and ``PartObserving/statusStream``; the stream emits the current
/// value on subscription).
///
/// SyncGate's ``StorageObserver`` and a `StatusFeed<StorageStatus>` conform, and ``SyncEnvironment``
/// follows them synchronously; any other conforming type is followed through its stream.
public protocol StorageObserving: PartObserving where Status == StorageStatus {}
