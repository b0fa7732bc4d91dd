/// A source of the device's power state: its current ``PowerStatus`` and a multicast stream of changes
/// (``PartObserving/status`` and ``PartObserving/statusStream``; the stream emits the current value on
/// subscription).
///
/// SyncGate's ``PowerObserver`` and a `StatusFeed<PowerStatus>` conform, and ``SyncEnvironment`` follows
/// them synchronously; any other conforming type is followed through its stream.
public protocol PowerObserving: PartObserving where Status == PowerStatus {}
