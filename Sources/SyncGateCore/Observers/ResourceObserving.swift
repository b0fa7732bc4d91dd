/// A source of resource pressure and heat: its current ``ResourceStatus`` and a multicast stream of
/// changes (``PartObserving/status`` and ``PartObserving/statusStream``; the stream emits the current
/// value on subscription).
///
/// SyncGate's `ResourceObserver` (Linux) and a `StatusFeed<ResourceStatus>` conform, and
/// ``SyncEnvironment`` follows them synchronously; any other conforming type is followed through its
/// stream.
public protocol ResourceObserving: PartObserving where Status == ResourceStatus {}
