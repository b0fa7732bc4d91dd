import SyncGate

/// A connectivity source a test sets by hand; multicast like the real observer.
///
/// ```swift
/// let observer = ManualConnectivityObserver()
/// observer.send(.connected(via: .wifi))
/// for await status in observer.statusStream where status.isConnected { break }
/// ```
public final class ManualConnectivityObserver: ConnectivityObserving, BroadcastBacked {
    /// The broadcast that holds the status.
    package let broadcast: StatusBroadcast<ConnectivityStatus>

    /// Creates an observer with an initial status.
    public init(status: ConnectivityStatus = .disconnected) {
        broadcast = StatusBroadcast(status)
    }

    /// The current status; setting it is the same as ``send(_:)``.
    public var status: ConnectivityStatus {
        get { broadcast.value }
        set { broadcast.send(newValue) }
    }

    /// A new stream: the current status first, then every change.
    public var statusStream: AsyncStream<ConnectivityStatus> { broadcast.stream(retaining: self) }

    /// Publishes a new status (ignored when equal to the current one).
    public func send(_ status: ConnectivityStatus) {
        broadcast.send(status)
    }

    /// The number of live stream subscribers.
    public var subscriberCount: Int { broadcast.subscriberCount }
}
