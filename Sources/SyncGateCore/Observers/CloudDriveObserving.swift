/// A source of the cloud drive's availability, such as an app's own source over iCloud Drive.
///
/// On Apple platforms SyncGate's ``CloudDriveSource`` follows iCloud Drive; elsewhere an app feeds one
/// through a `StatusFeed<Bool>`, which conforms and which ``SyncEnvironment`` follows synchronously (any
/// other conforming type is followed through ``availabilityStream``). Without one, the cloud drive is not
/// monitored and ``SyncRequirements/cloudDrive`` reads as met. As a ``PartObserving`` source its
/// ``PartObserving/status`` is ``isAvailable`` and its ``PartObserving/statusStream`` is
/// ``availabilityStream``.
public protocol CloudDriveObserving: PartObserving where Status == Bool {
    /// Whether the cloud drive is available now. Thread-safe.
    var isAvailable: Bool { get }
    /// Stream of availability changes. Emits the current value on subscription.
    var availabilityStream: AsyncStream<Bool> { get }
}

extension CloudDriveObserving {
    /// The same as ``isAvailable``.
    public var status: Bool { isAvailable }
    /// The same as ``availabilityStream``.
    public var statusStream: AsyncStream<Bool> { availabilityStream }
}
