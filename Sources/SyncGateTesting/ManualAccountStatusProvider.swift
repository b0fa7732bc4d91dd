import SyncGate

/// An account source a test sets by hand; multicast, with a scriptable ``refresh()``.
public final class ManualAccountStatusProvider: AccountStatusProviding, BroadcastBacked {
    /// The broadcast that holds the status.
    package let broadcast: StatusBroadcast<AccountStatus>
    private let refreshState = LockedState<(count: Int, error: (any Error)?)>((0, nil))

    /// Creates a provider with an initial status.
    public init(status: AccountStatus = .available) {
        broadcast = StatusBroadcast(status)
    }

    /// The current status; setting it is the same as ``send(_:)``.
    public var status: AccountStatus {
        get { broadcast.value }
        set { broadcast.send(newValue) }
    }

    /// A new stream: the current status first, then every change.
    public var statusStream: AsyncStream<AccountStatus> { broadcast.stream(retaining: self) }

    /// Publishes a new status (ignored when equal to the current one).
    public func send(_ status: AccountStatus) {
        broadcast.send(status)
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
