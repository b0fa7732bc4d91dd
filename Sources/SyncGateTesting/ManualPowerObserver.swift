import SyncGateCore

/// A power source a test sets by hand: a ``StatusFeed`` of ``PowerStatus``.
public typealias ManualPowerObserver = StatusFeed<PowerStatus>

extension StatusFeed where Value == PowerStatus {
    /// Creates a feed with an initial status, ``PowerStatus/unrestricted`` by default.
    public convenience init(status: PowerStatus = .unrestricted) {
        self.init(status)
    }
}
