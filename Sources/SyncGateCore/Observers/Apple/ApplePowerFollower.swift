/// Follows a ``PowerFactsReading`` seam: publishes the status its facts map to at start and on every
/// reported change, and turns the platform's battery monitoring on only while it follows.
///
/// Two parts follow the seam: power (``ApplePowerFollower``) and heat, the resources part
/// (``AppleResourceFollower``); each follower has a reader of its own.
package final class PowerFactsFollower<Status: Sendable & Equatable, Provenance: Sendable>: PlatformBackend {
    /// The broadcast that holds the status.
    package let broadcast: StatusBroadcast<Status>
    private let reader: any PowerFactsReading
    private let describe: @Sendable (any PowerFactsReading) -> Provenance
    private let stopped = LockedState(false)

    /// Starts observing `reader` and publishes its first reading, mapped by `map`.
    package init(
        reader: any PowerFactsReading, initial: Status, map: @escaping @Sendable (ApplePowerFacts) -> Status,
        provenance: @escaping @Sendable (any PowerFactsReading) -> Provenance
    ) {
        self.reader = reader
        describe = provenance
        let broadcast = StatusBroadcast(initial)
        self.broadcast = broadcast
        reader.startObserving { [weak broadcast] in
            // Read outside every lock, then publish: the reader calls into the system.
            let status = map(reader.read())
            broadcast?.send(status)
        }
        broadcast.send(map(reader.read()))
    }

    /// Which source decided each field.
    package var provenance: Provenance { describe(reader) }

    /// Stops observing, once.
    package func stop() {
        let first = stopped.withLock { wasStopped in
            defer { wasStopped = true }
            return !wasStopped
        }
        if first { reader.stopObserving() }
    }
}

/// The power part's follower of the seam: Low Power Mode and the battery.
package typealias ApplePowerFollower = PowerFactsFollower<PowerStatus, PowerProvenance>

extension PowerFactsFollower where Status == PowerStatus, Provenance == PowerProvenance {
    /// Starts observing `reader`: `ProcessInfo` for Low Power Mode and the reader's origin for the battery
    /// fields.
    package convenience init(reader: any PowerFactsReading) {
        self.init(
            reader: reader, initial: .unrestricted, map: { $0.powerStatus },
            provenance: { reader in
                PowerProvenance(
                    isLowPowerModeEnabled: .processInfo, isOnExternalPower: reader.batteryOrigin,
                    batteryLevel: reader.batteryOrigin)
            })
    }
}

/// The resources part's follower of the seam: heat from the thermal state, with no polling. Pressure is
/// not read on Apple platforms: it stays "not under pressure", and the provenance says `unavailable`.
package typealias AppleResourceFollower = PowerFactsFollower<ResourceStatus, ResourceProvenance>

extension PowerFactsFollower where Status == ResourceStatus, Provenance == ResourceProvenance {
    /// Starts observing `reader`: `ProcessInfo` for heat; pressure unavailable.
    package convenience init(reader: any PowerFactsReading) {
        self.init(
            reader: reader, initial: .unknown, map: { $0.resourceStatus },
            provenance: { _ in
                ResourceProvenance(
                    pressure: .unavailable, heat: .processInfo,
                    notes: ["pressure: not read on Apple platforms (no source yet); never blocks"])
            })
    }
}
