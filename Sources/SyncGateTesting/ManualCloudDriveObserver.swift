import SyncGateCore

/// A cloud-drive source a test sets by hand: a ``StatusFeed`` of the drive's availability.
public typealias ManualCloudDriveObserver = StatusFeed<Bool>

extension StatusFeed where Value == Bool {
    /// Creates a feed with an initial availability, unavailable by default.
    public convenience init(isAvailable: Bool = false) {
        self.init(isAvailable)
    }
}
