/// A source of the free space on a volume: its current value and a multicast stream of changes.
///
/// SyncGate's ``StorageObserver`` and a `StatusFeed<StorageStatus>` conform, and ``SyncEnvironment``
/// follows them synchronously; any other conforming type is followed through ``statusStream``.
public protocol StorageObserving: Sendable {
    /// The current storage status. Thread-safe.
    var status: StorageStatus { get }
    /// Stream of storage changes. Emits the current value on subscription.
    var statusStream: AsyncStream<StorageStatus> { get }
}

extension StatusFeed: StorageObserving where Value == StorageStatus {
    /// The current storage status; setting it is the same as ``send(_:)``.
    public var status: StorageStatus {
        get { value }
        set { send(newValue) }
    }

    /// A new multicast stream: the current status first, then every change.
    public var statusStream: AsyncStream<StorageStatus> { stream() }
}
