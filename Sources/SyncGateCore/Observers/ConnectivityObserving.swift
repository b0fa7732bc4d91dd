/// A source of the device's network path: its current ``ConnectivityStatus`` and a multicast stream of
/// changes (``PartObserving/status`` and ``PartObserving/statusStream``; the stream emits the current
/// value on subscription).
///
/// SyncGate's own ``ConnectivityObserver`` and a `StatusFeed<ConnectivityStatus>` conform, and ``SyncEnvironment``
/// follows them synchronously; any other conforming type is followed through its stream.
public protocol ConnectivityObserving: PartObserving where Status == ConnectivityStatus {}
