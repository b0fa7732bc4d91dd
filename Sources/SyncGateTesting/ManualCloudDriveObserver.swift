import SyncGate

/// A cloud-drive source a test sets by hand; multicast.
public final class ManualCloudDriveObserver: CloudDriveObserving, BroadcastBacked {
    /// The broadcast that holds the availability.
    package let broadcast: StatusBroadcast<Bool>

    /// Creates an observer with an initial availability.
    public init(isAvailable: Bool = false) {
        broadcast = StatusBroadcast(isAvailable)
    }

    /// Whether the cloud drive is available; setting it is the same as ``send(_:)``.
    public var isAvailable: Bool {
        get { broadcast.value }
        set { broadcast.send(newValue) }
    }

    /// A new stream: the current availability first, then every change.
    public var availabilityStream: AsyncStream<Bool> { broadcast.stream(retaining: self) }

    /// Publishes a new availability (ignored when equal to the current one).
    public func send(_ isAvailable: Bool) {
        broadcast.send(isAvailable)
    }
}
