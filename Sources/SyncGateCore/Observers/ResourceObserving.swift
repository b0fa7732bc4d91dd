/// A source of resource pressure and heat: its current ``ResourceStatus`` and a multicast stream of
/// changes (``PartObserving/status`` and ``PartObserving/statusStream``; the stream emits the current
/// value on subscription).
///
/// SyncGate's `ResourceObserver` (Linux), its Apple source (a ``StatusObserver`` of the thermal state)
/// and a `StatusFeed<ResourceStatus>` conform, and
/// ``SyncEnvironment`` follows them synchronously; any other conforming type is followed through its
/// stream.
public protocol ResourceObserving: PartObserving where Status == ResourceStatus {}

extension StatusObserver: ResourceObserving where Status == ResourceStatus {}
