/// Every case of UIKit's `UIDevice.BatteryState`, as a platform-neutral value.
package enum BatteryStateMirror: Sendable, Hashable, CaseIterable {
    /// `.unknown`: battery monitoring is off, or the device cannot tell (the simulator).
    case unknown
    /// `.unplugged`: on battery, discharging.
    case unplugged
    /// `.charging`: plugged in, below 100 %.
    case charging
    /// `.full`: plugged in, at 100 %.
    case full
}
