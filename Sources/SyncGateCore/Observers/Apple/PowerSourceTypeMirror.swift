/// Every value IOKit's `IOPSGetProvidingPowerSourceType` returns on macOS (`kIOPMACPowerKey`,
/// `kIOPMBatteryPowerKey`, `kIOPMUPSPowerKey`), as a platform-neutral value.
package enum PowerSourceTypeMirror: Sendable, Hashable, CaseIterable {
    /// `"AC Power"`: the wall.
    case acPower
    /// `"Battery Power"`: the internal battery.
    case batteryPower
    /// `"UPS Power"`: an uninterruptible power supply, running on its own battery.
    case upsPower
    /// Any other string, or none.
    case unknown

    /// The mirror of IOKit's string.
    package init(ioKitValue: String?) {
        switch ioKitValue {
        case "AC Power": self = .acPower
        case "Battery Power": self = .batteryPower
        case "UPS Power": self = .upsPower
        default: self = .unknown
        }
    }
}
