/// A source of the device's power state: its current value and a multicast stream of changes.
///
/// SyncGate's ``PowerObserver`` and a `StatusFeed<PowerStatus>` conform, and ``SyncEnvironment`` follows
/// them synchronously; any other conforming type is followed through ``statusStream``.
public protocol PowerObserving: Sendable {
    /// The current power status. Thread-safe.
    var status: PowerStatus { get }
    /// Stream of power changes. Emits the current value on subscription.
    var statusStream: AsyncStream<PowerStatus> { get }
}
