/// A source of one part of a ``SyncEnvironment``: its current value and a multicast stream of changes.
///
/// Each part protocol refines this one with its value type: ``ConnectivityObserving``,
/// ``PowerObserving``, ``AccountStatusProviding``, ``CloudDriveObserving``, ``SyncEventObserving`` and
/// ``StorageObserving``. A ``StatusFeed`` and a ``StatusObserver`` conform for every value type, so they
/// are sources of whichever part their value belongs to. The environment follows every part through this
/// protocol alone: synchronously when the source is SyncGate's own or a ``StatusFeed``, otherwise through
/// ``statusStream``.
public protocol PartObserving<Status>: Sendable {
    /// The value the source publishes.
    associatedtype Status: Sendable & Equatable
    /// The current value. Thread-safe.
    var status: Status { get }
    /// A stream of changes. Emits the current value on subscription.
    var statusStream: AsyncStream<Status> { get }
}
