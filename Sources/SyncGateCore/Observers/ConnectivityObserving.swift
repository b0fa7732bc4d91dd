/// A source of the device's network path: its current value and a multicast stream of changes.
///
/// The same protocol as in ForgeObservers, the library SyncGate grew from, so sources written for it
/// conform unchanged. SyncGate's own ``ConnectivityObserver`` and a `StatusFeed<ConnectivityStatus>`
/// conform, and ``SyncEnvironment`` follows them synchronously; any other conforming type is followed
/// through ``statusStream``.
public protocol ConnectivityObserving: Sendable {
    /// The current connectivity status. Thread-safe.
    var status: ConnectivityStatus { get }
    /// Stream of connectivity changes. Emits the current value on subscription.
    var statusStream: AsyncStream<ConnectivityStatus> { get }
}
