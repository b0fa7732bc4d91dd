/// A source of the cloud drive's availability (iCloud Drive on Apple platforms).
///
/// A `StatusFeed<Bool>` conforms, and ``SyncEnvironment`` follows it synchronously; any other
/// conforming type is followed through ``availabilityStream``.
public protocol CloudDriveObserving: Sendable {
    /// Whether the cloud drive is available now. Thread-safe.
    var isAvailable: Bool { get }
    /// Stream of availability changes. Emits the current value on subscription.
    var availabilityStream: AsyncStream<Bool> { get }
}
