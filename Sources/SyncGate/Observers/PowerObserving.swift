/// A source of the device's power state: its current value and a multicast stream of changes.
public protocol PowerObserving: Sendable {
    /// The current power status. Thread-safe.
    var status: PowerStatus { get }
    /// Stream of power changes. Emits the current value on subscription.
    var statusStream: AsyncStream<PowerStatus> { get }
}
