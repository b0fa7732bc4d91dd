/// A source an app feeds by hand: create one, give it to a ``SyncEnvironment``, and ``send(_:)`` each
/// change; the environment follows it synchronously, on the thread that sends, exactly as it follows
/// SyncGate's own observers.
///
/// Use it for the parts SyncGate has no system source for: the sync account (your sign-in state),
/// the cloud drive, the sync engine's activity, or a network or power source of your own. A feed is
/// multicast and current-value-first like every SyncGate source: each ``stream()`` starts with the
/// current value, consecutive equal values are dropped, and a slow consumer gets only the newest.
///
/// Every feed is a ``PartObserving`` source of its value, and a feed conforms to the part protocol that
/// matches its value: `StatusFeed<AccountStatus>` is an ``AccountStatusProviding``, `StatusFeed<Bool>` a
/// ``CloudDriveObserving``, `StatusFeed<SyncEvent>` a ``SyncEventObserving``,
/// `StatusFeed<ConnectivityStatus>` a ``ConnectivityObserving``, `StatusFeed<PowerStatus>` a
/// ``PowerObserving`` and `StatusFeed<StorageStatus>` a ``StorageObserving``.
///
/// ```swift
/// let account = StatusFeed(AccountStatus.couldNotDetermine)
/// let environment = SyncEnvironment(connectivity: ConnectivityObserver(), account: account)
/// auth.onSignInChange { signedIn in
///     account.send(signedIn ? .available : .noAccount)
/// }
/// ```
///
/// By the time ``send(_:)`` returns, the environment's ``SyncEnvironment/status`` holds the new value,
/// `waitUntil` callers it satisfies are resumed, and a ``SyncScheduler`` on that environment has started
/// the jobs it made runnable. A type of your own that conforms to a part protocol works too, but the
/// environment can only follow it through its stream, one task hop later; to keep your own type and
/// still take the synchronous path, let it hold a feed and hand the feed to the environment.
public final class StatusFeed<Value: Sendable & Equatable>: BroadcastBacked {
    /// The broadcast that holds the value.
    package let broadcast: StatusBroadcast<Value>

    /// Creates a feed whose current value is `initial`.
    public init(_ initial: Value) {
        broadcast = StatusBroadcast(initial)
    }

    deinit {
        broadcast.finish()
    }

    /// The current value. Thread-safe; never blocks for longer than a short critical section.
    public var value: Value { broadcast.value }

    /// Publishes `value` to the environments and streams that follow the feed, unless it equals the
    /// current value.
    ///
    /// Environments following the feed are updated before `send` returns, on the calling thread.
    /// - Returns: `true` when the value changed. Observers have then been called; a stream has the value,
    ///   or gets it from the thread already delivering to the streams, right after that thread's earlier
    ///   values.
    @discardableResult
    public func send(_ value: Value) -> Bool {
        broadcast.send(value)
    }

    /// Changes the current value in place, atomically, and publishes the result if it differs.
    ///
    /// `body` runs inside the feed's critical section: it must be short and must not call into SyncGate
    /// (this feed, another source, an environment or a scheduler).
    /// - Returns: `true` when the value changed. Observers have then been called; a stream has the value,
    ///   or gets it from the thread already delivering to the streams, right after that thread's earlier
    ///   values.
    @discardableResult
    public func update(_ body: (inout Value) -> Void) -> Bool {
        broadcast.update(body)
    }

    /// A new multicast stream: the current value first, then every change. The stream keeps the feed
    /// alive while it is being consumed.
    public func stream() -> AsyncStream<Value> {
        broadcast.stream(retaining: self)
    }

    /// The number of live stream subscribers (environments following the feed synchronously are not
    /// stream subscribers).
    public var subscriberCount: Int { broadcast.subscriberCount }
}

extension StatusFeed: PartObserving {
    /// The current value; setting it is the same as ``send(_:)``.
    public var status: Value {
        get { value }
        set { send(newValue) }
    }

    /// A new multicast stream: the current value first, then every change.
    public var statusStream: AsyncStream<Value> { stream() }
}

extension StatusFeed: ConnectivityObserving where Value == ConnectivityStatus {}

extension StatusFeed: PowerObserving where Value == PowerStatus {}

extension StatusFeed: StorageObserving where Value == StorageStatus {}

extension StatusFeed: ResourceObserving where Value == ResourceStatus {}

extension StatusFeed: AccountStatusProviding where Value == AccountStatus {
    /// Returns the current status: a feed knows only what it was sent.
    public func refresh() async throws -> AccountStatus { value }
}

extension StatusFeed: CloudDriveObserving where Value == Bool {
    /// Whether the cloud drive is available; setting it is the same as ``send(_:)``.
    public var isAvailable: Bool {
        get { value }
        set { send(newValue) }
    }

    /// A new multicast stream: the current availability first, then every change.
    public var availabilityStream: AsyncStream<Bool> { stream() }
}

extension StatusFeed: SyncEventObserving where Value == SyncEvent {
    /// What the sync engine is doing; setting it is the same as ``send(_:)``.
    public var event: SyncEvent {
        get { value }
        set { send(newValue) }
    }

    /// A new multicast stream: the current event first, then every change.
    public var eventStream: AsyncStream<SyncEvent> { stream() }
}
