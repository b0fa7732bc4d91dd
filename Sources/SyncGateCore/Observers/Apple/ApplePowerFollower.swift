/// Follows a ``PowerFactsReading`` seam: publishes the mapped ``PowerStatus`` at start and on every
/// reported change, and turns the platform's battery monitoring on only while it follows.
package final class ApplePowerFollower: PlatformBackend {
    /// The broadcast that holds the status.
    package let broadcast: StatusBroadcast<PowerStatus>
    private let reader: any PowerFactsReading
    private let stopped = LockedState(false)

    /// Starts observing `reader` and publishes its first reading.
    package init(reader: any PowerFactsReading) {
        self.reader = reader
        let broadcast = StatusBroadcast(PowerStatus.unrestricted)
        self.broadcast = broadcast
        reader.startObserving { [weak broadcast] in
            // Read outside every lock, then publish: the reader calls into the system.
            let status = reader.read().powerStatus
            broadcast?.send(status)
        }
        broadcast.send(reader.read().powerStatus)
    }

    /// `ProcessInfo` for Low Power Mode and the reader's origin for the battery fields.
    package var provenance: PowerProvenance {
        PowerProvenance(
            isLowPowerModeEnabled: .processInfo, isOnExternalPower: reader.batteryOrigin,
            batteryLevel: reader.batteryOrigin)
    }

    /// Stops observing, once.
    package func stop() {
        let first = stopped.withLock { wasStopped in
            defer { wasStopped = true }
            return !wasStopped
        }
        if first { reader.stopObserving() }
    }
}
