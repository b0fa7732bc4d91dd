/// A source of the cloud drive's availability, such as an app's own source over iCloud Drive.
///
/// On Apple platforms SyncGate's ``CloudDriveSource`` follows iCloud Drive; elsewhere an app feeds one
/// through a `StatusFeed<Bool>`, which conforms and which ``SyncEnvironment`` follows synchronously (any
/// other conforming type is followed through ``availabilityStream``). Without one, the cloud drive is not monitored and
/// ``SyncRequirements/cloudDrive`` reads as met.
public protocol CloudDriveObserving: Sendable {
    /// Whether the cloud drive is available now. Thread-safe.
    var isAvailable: Bool { get }
    /// Stream of availability changes. Emits the current value on subscription.
    var availabilityStream: AsyncStream<Bool> { get }
}
