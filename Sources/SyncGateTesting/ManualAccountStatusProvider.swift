import SyncGateCore

/// An account source a test sets by hand, with a scriptable ``refresh()``: a ``StatusFeed`` of
/// ``AccountStatus`` plus a count of refreshes and an error to throw from them.
///
/// The environment follows it synchronously, through its feed, exactly as it follows a bare feed.
public final class ManualAccountStatusProvider: AccountStatusProviding, BroadcastBacked {
    /// The feed that holds the status.
    public let feed: StatusFeed<AccountStatus>
    private let refreshState = LockedState<(count: Int, error: (any Error)?)>((0, nil))

    /// Creates a provider with an initial status.
    public init(status: AccountStatus = .available) {
        feed = StatusFeed(status)
    }

    /// The broadcast behind ``feed``, which the environment follows.
    package var broadcast: StatusBroadcast<AccountStatus> { feed.broadcast }

    /// The current status; setting it is the same as ``send(_:)``.
    public var status: AccountStatus {
        get { feed.value }
        set { feed.send(newValue) }
    }

    /// A new stream: the current status first, then every change. It keeps the provider alive while consumed.
    public var statusStream: AsyncStream<AccountStatus> { feed.broadcast.stream(retaining: self) }

    /// Publishes a new status (ignored when equal to the current one).
    public func send(_ status: AccountStatus) {
        feed.send(status)
    }

    /// Returns the current status, or throws the error set with ``failRefreshes(with:)``.
    public func refresh() async throws -> AccountStatus {
        let error = refreshState.withLock { state in
            state.count += 1
            return state.error
        }
        if let error { throw error }
        return status
    }

    /// Makes every later ``refresh()`` throw `error`, or succeed again when `error` is `nil`.
    public func failRefreshes(with error: (any Error)?) {
        refreshState.withLock { $0.error = error }
    }

    /// How many times ``refresh()`` was called.
    public var refreshCount: Int { refreshState.withLock { $0.count } }
}
