/// The power facts an Apple platform gives, as a platform-neutral value: what the power seam reads and
/// the power mapping turns into a ``PowerStatus``.
package struct ApplePowerFacts: Sendable, Hashable {
    /// Where the battery facts come from, which differs per platform.
    package enum Battery: Sendable, Hashable {
        /// No battery source: watchOS, tvOS and visionOS give none to apps (see the README); power then
        /// never blocks except for Low Power Mode.
        case none
        /// iOS and iPadOS: `UIDevice.batteryState` and `UIDevice.batteryLevel` (from 0 to 1, −1 when
        /// unknown).
        case device(state: BatteryStateMirror, level: Float)
        /// macOS: IOKit's providing power source, and each internal battery's current and maximum
        /// capacity (`kIOPSCurrentCapacityKey`, `kIOPSMaxCapacityKey`).
        case powerSources(providing: PowerSourceTypeMirror, batteries: [Capacity])
    }

    /// One internal battery's capacity, in IOKit's units.
    package struct Capacity: Sendable, Hashable {
        /// `kIOPSCurrentCapacityKey`.
        package var current: Int
        /// `kIOPSMaxCapacityKey`.
        package var maximum: Int

        /// Creates a battery's capacity from IOKit's two keys.
        package init(current: Int, maximum: Int) {
            self.current = current
            self.maximum = maximum
        }
    }

    /// `ProcessInfo.processInfo.isLowPowerModeEnabled`.
    package var isLowPowerModeEnabled: Bool
    /// The battery facts.
    package var battery: Battery
    /// `ProcessInfo.processInfo.thermalState`.
    package var thermalState: ThermalStateMirror

    /// Creates the facts from Low Power Mode, the battery facts and the thermal state.
    package init(isLowPowerModeEnabled: Bool, battery: Battery, thermalState: ThermalStateMirror = .nominal) {
        self.isLowPowerModeEnabled = isLowPowerModeEnabled
        self.battery = battery
        self.thermalState = thermalState
    }

    /// The resource status these facts describe: hot in the thermal states ``ThermalStateMirror/isHot``
    /// names; pressure is not among the facts, so never under pressure.
    var resourceStatus: ResourceStatus {
        ResourceStatus(isHot: thermalState.isHot)
    }

    /// The power status these facts describe.
    ///
    /// * iOS: on external power when the battery is charging or full; on battery when unplugged; an
    ///   unknown state (monitoring off, the simulator) does not block (external power, unknown level).
    ///   A level below 0 is unknown; levels are rounded to the whole percent.
    /// * macOS: on external power unless the providing source is the battery or a UPS; the level is the
    ///   internal batteries' summed current capacity over their summed maximum; a Mac without a battery
    ///   has no level.
    var powerStatus: PowerStatus {
        switch battery {
        case .none:
            return PowerStatus(isLowPowerModeEnabled: isLowPowerModeEnabled)
        case .device(let state, let level):
            // UIKit's levels are whole percents in a Float: 0.2 as a Float is 0.2000000030 as a Double,
            // which would no longer count as low. Round to the percent.
            let known = level >= 0 ? (Double(min(level, 1)) * 100).rounded() / 100 : nil
            switch state {
            case .unknown:
                return PowerStatus(isLowPowerModeEnabled: isLowPowerModeEnabled, isOnExternalPower: true)
            case .unplugged:
                return PowerStatus(
                    isLowPowerModeEnabled: isLowPowerModeEnabled, isOnExternalPower: false, batteryLevel: known)
            case .charging, .full:
                return PowerStatus(
                    isLowPowerModeEnabled: isLowPowerModeEnabled, isOnExternalPower: true, batteryLevel: known)
            }
        case .powerSources(let providing, let batteries):
            let maximum = batteries.reduce(0) { $0 + max($1.maximum, 0) }
            let current = batteries.reduce(0) { $0 + max($1.current, 0) }
            let level = maximum > 0 ? min(Double(current) / Double(maximum), 1) : nil
            let external = providing != .batteryPower && providing != .upsPower
            return PowerStatus(
                isLowPowerModeEnabled: isLowPowerModeEnabled, isOnExternalPower: external, batteryLevel: level)
        }
    }
}
