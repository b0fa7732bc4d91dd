import SyncGate

/// A power source a test sets by hand; multicast like the real observer.
public final class ManualPowerObserver: PowerObserving, BroadcastBacked {
    /// The broadcast that holds the status.
    package let broadcast: StatusBroadcast<PowerStatus>

    /// Creates an observer with an initial status.
    public init(status: PowerStatus = .unrestricted) {
        broadcast = StatusBroadcast(status)
    }

    /// The current status; setting it is the same as ``send(_:)``.
    public var status: PowerStatus {
        get { broadcast.value }
        set { broadcast.send(newValue) }
    }

    /// A new stream: the current status first, then every change.
    public var statusStream: AsyncStream<PowerStatus> { broadcast.stream(retaining: self) }

    /// Publishes a new status (ignored when equal to the current one).
    public func send(_ status: PowerStatus) {
        broadcast.send(status)
    }

    /// The number of live stream subscribers.
    public var subscriberCount: Int { broadcast.subscriberCount }
}
