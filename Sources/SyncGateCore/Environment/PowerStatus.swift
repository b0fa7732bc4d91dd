/// A snapshot of the device's power state.
public struct PowerStatus: Sendable, Hashable, CustomStringConvertible {
    /// Whether the user turned on Low Power Mode (on Linux: the `power-saver` profile).
    public var isLowPowerModeEnabled: Bool
    /// Whether the device runs on external power; `true` on machines without a battery.
    public var isOnExternalPower: Bool
    /// The battery's charge from 0 to 1; `nil` when there is no battery or its level is unknown.
    ///
    /// The initializer clamps it (NaN is unknown); a value set directly outside `0...1` reads in
    /// ``description`` as the nearest end, and NaN is left out there.
    public var batteryLevel: Double?
    /// Whether nobody is using the device (on Linux: systemd-logind's `IdleHint`, which holds when every
    /// session is idle); `true` where nothing reports idleness, so ``SyncRequirements/deviceIdle`` never
    /// blocks there.
    public var isDeviceIdle: Bool

    /// The level at or below which a battery counts as low while not on external power.
    public static let lowBatteryThreshold = 0.2

    /// Creates a power status; the defaults describe an idle machine on external power without a battery.
    ///
    /// `batteryLevel` is clamped to `0...1`; NaN counts as unknown (`nil`).
    public init(
        isLowPowerModeEnabled: Bool = false, isOnExternalPower: Bool = true, batteryLevel: Double? = nil,
        isDeviceIdle: Bool = true
    ) {
        self.isLowPowerModeEnabled = isLowPowerModeEnabled
        self.isOnExternalPower = isOnExternalPower
        self.batteryLevel = batteryLevel.flatMap { $0.isNaN ? nil : $0.clampedToUnitInterval }
        self.isDeviceIdle = isDeviceIdle
    }

    /// Whether the battery is low: its level is known, at most ``lowBatteryThreshold``, and the device
    /// is not on external power.
    public var isBatteryLow: Bool {
        guard let batteryLevel, !isOnExternalPower else { return false }
        return batteryLevel <= Self.lowBatteryThreshold
    }

    /// No restriction: Low Power Mode off, on external power, no battery level, idle.
    public static let unrestricted = PowerStatus()

    /// A readable summary, such as `external power, battery 80%` or
    /// `battery 15% (low), low power mode, in use` (`in use` when the device is not idle).
    public var description: String {
        var parts: [String] = [isOnExternalPower ? "external power" : "on battery"]
        if let batteryLevel, !batteryLevel.isNaN {
            let percent = Int((batteryLevel.clampedToUnitInterval * 100).rounded())
            parts.append("battery \(percent)%" + (isBatteryLow ? " (low)" : ""))
        }
        if isLowPowerModeEnabled { parts.append("low power mode") }
        if !isDeviceIdle { parts.append("in use") }
        return parts.joined(separator: ", ")
    }
}
