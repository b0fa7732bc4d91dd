import SyncGateCore

/// A connectivity source a test sets by hand: a ``StatusFeed`` of ``ConnectivityStatus``, followed by an
/// environment exactly as SyncGate's own observer is.
///
/// ```swift
/// let observer = ManualConnectivityObserver()
/// observer.send(.connected(via: .wifi))
/// for await status in observer.statusStream where status.isConnected { break }
/// ```
public typealias ManualConnectivityObserver = StatusFeed<ConnectivityStatus>

extension StatusFeed where Value == ConnectivityStatus {
    /// Creates a feed with an initial status, disconnected by default.
    public convenience init(status: ConnectivityStatus = .disconnected) {
        self.init(status)
    }
}
