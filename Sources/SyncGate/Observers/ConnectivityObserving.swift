/// A source of the device's network path: its current value and a multicast stream of changes.
///
/// The ForgeObservers protocol, unchanged. SyncGate's own ``ConnectivityObserver`` conforms, and so
/// does `ManualConnectivityObserver` in SyncGateTesting.
public protocol ConnectivityObserving: Sendable {
    /// The current connectivity status. Thread-safe.
    var status: ConnectivityStatus { get }
    /// Stream of connectivity changes. Emits the current value on subscription.
    var statusStream: AsyncStream<ConnectivityStatus> { get }
}
