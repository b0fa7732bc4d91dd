import SyncGate
import Testing

@Suite("Readable descriptions", .timeLimit(.minutes(1)))
struct DescriptionTests {
    @Test(
        "values describe themselves",
        arguments: [
            (ConnectivityStatus.disconnected.description, "disconnected"),
            (ConnectivityStatus.connected(via: .wifi).description, "connected via wifi"),
            (
                ConnectivityStatus.connected(via: .cellular, isExpensive: true, isConstrained: true).description,
                "connected via cellular (expensive, constrained)"
            ),
            (ConnectionInterface.wiredEthernet.description, "wired-ethernet"),
            (
                ConnectivityStatus.connected(via: .wifi, isExpensive: true, reachability: .captivePortal).description,
                "connected via wifi (expensive, captive-portal)"
            ),
            (ConnectivityStatus.connected(via: .wifi, reachability: .internet).description, "connected via wifi"),
            (ConnectivityReachability.limited.description, "limited"),
            (PowerStatus.unrestricted.description, "external power"),
            (
                PowerStatus(isLowPowerModeEnabled: true, isOnExternalPower: false, batteryLevel: 0.15).description,
                "on battery, battery 15% (low), low power mode"
            ),
            (AccountStatus.temporarilyUnavailable.description, "temporarily-unavailable"),
            (SyncEvent.exporting.description, "exporting"),
            (SyncCondition("db-migrated").description, "db-migrated"),
            (MonitoringOptions.basic.description, "[network, account]"),
            (SyncEnvironmentError.timedOut.description, "timed out waiting for the requirements"),
            (
                SyncEnvironmentError.invalidArgument(parameter: "timeout", message: "-1.0 seconds is negative")
                    .description,
                "invalid timeout: -1.0 seconds is negative"
            ),
        ]
    )
    func describes(actual: String, expected: String) {
        #expect(actual == expected)
    }

    /// Values out of range read as the nearest end, set through the initializer (which clamps) or directly
    /// (which the description clamps); NaN and infinities never trap.
    @Test(
        "out-of-range progress and battery levels read as the nearest end",
        arguments: [
            (-0.5, "0%", "on battery, battery 0% (low)"),
            (1.5, "100%", "on battery, battery 100%"),
            (-Double.infinity, "0%", "on battery, battery 0% (low)"),
            (Double.infinity, "100%", "on battery, battery 100%"),
            (Double.nan, "0%", "on battery"),
            (0.425, "42%", "on battery, battery 43%"),
        ]
    )
    func outOfRange(value: Double, progress: String, power: String) {
        #expect(SyncJobProgress(fraction: value).description == progress)
        var progressSetDirectly = SyncJobProgress(fraction: 0)
        progressSetDirectly.fraction = value
        #expect(progressSetDirectly.description == progress)
        let status = PowerStatus(isOnExternalPower: false, batteryLevel: value)
        #expect(status.description == power)
        #expect(status.batteryLevel.map { (0...1).contains($0) } ?? true)
        var powerSetDirectly = PowerStatus(isOnExternalPower: false)
        powerSetDirectly.batteryLevel = value
        #expect(powerSetDirectly.description == power)
    }

    @Test("a combined status names its monitored parts and what holds")
    func combined() {
        let status = SyncEnvironmentStatus(
            connectivity: .connected(via: .wifi),
            account: .available,
            conditions: ["b", "a"],
            monitoredParts: [.network, .account]
        )
        #expect(
            status.description
                == "network: connected via wifi; account: available; conditions: [a, b]; "
                + "met: [network, unmetered, unmetered-confirmed, unconstrained, validated-internet, not-low-power, external-power, "
                + "battery-not-low, "
                + "account-ready, cloud-drive, storage-not-low, device-idle, not-roaming, not-under-pressure, not-hot]"
        )
    }
}
