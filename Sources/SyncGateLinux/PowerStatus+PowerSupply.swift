import SyncGateCore

extension PowerStatus {
    /// Maps the supplies of `/sys/class/power_supply` to a power status.
    ///
    /// * Device-scoped supplies (a mouse's battery, a keyboard's) and absent batteries are ignored.
    /// * `isOnExternalPower` is `true` when a non-battery supply is online, when a system battery
    ///   reports `Charging`, `Full` or `Not charging`, or when there is no system battery at all.
    /// * `batteryLevel` combines the system batteries whose level is known, weighted by their full
    ///   energy when every one of them has it, otherwise averaged; `nil` without a known level.
    /// * `isLowPowerModeEnabled` is always `false`: sysfs has no such notion (power-profiles-daemon's
    ///   `power-saver` profile comes over D-Bus).
    package init(powerSupplies supplies: [PowerSupply]) {
        let batteries = supplies.filter(\.isSystemBattery)
        let isOnExternalPower =
            batteries.isEmpty
            || supplies.contains(where: \.isOnlineExternalSupply)
            || batteries.contains(where: \.statusImpliesExternalPower)
        self.init(
            isLowPowerModeEnabled: false,
            isOnExternalPower: isOnExternalPower,
            batteryLevel: Self.combinedLevel(of: batteries)
        )
    }

    private static func combinedLevel(of batteries: [PowerSupply]) -> Double? {
        let known = batteries.compactMap { battery in battery.level.map { (level: $0, weight: battery.fullEnergy) } }
        guard !known.isEmpty else { return nil }
        let weights = known.compactMap(\.weight)
        if weights.count == known.count {
            let total = weights.reduce(0, +)
            if total > 0 {
                return known.reduce(0) { $0 + $1.level * ($1.weight ?? 0) } / total
            }
        }
        return known.reduce(0) { $0 + $1.level } / Double(known.count)
    }
}
