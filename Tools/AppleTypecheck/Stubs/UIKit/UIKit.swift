// The part of Apple's UIKit framework that ApplePowerFactsReader.swift uses on iOS, iPadOS and visionOS,
// written from the Apple documentation page above each declaration. Only ever emitted as an interface for
// the typecheck (Tools/AppleTypecheck/typecheck.sh); nothing here runs. Apple's UIKit re-exports
// Foundation.
@_exported import Foundation

/// https://developer.apple.com/documentation/uikit/uidevice
///
/// Main-actor isolated, as UIKit declares it: every member below is reachable only on the main actor
/// except the two notification names, which the pages mark `nonisolated`.
@MainActor
open class UIDevice: NSObject {
    /// https://developer.apple.com/documentation/uikit/uidevice/current
    open class var current: UIDevice { UIDevice() }

    /// https://developer.apple.com/documentation/uikit/uidevice/isbatterymonitoringenabled
    open var isBatteryMonitoringEnabled = false

    /// https://developer.apple.com/documentation/uikit/uidevice/batterystate-swift.property
    open var batteryState: UIDevice.BatteryState { .unknown }

    /// https://developer.apple.com/documentation/uikit/uidevice/batterylevel
    open var batteryLevel: Float { -1 }

    /// https://developer.apple.com/documentation/uikit/uidevice/batterystatedidchangenotification
    ///
    /// `nonisolated class let` on the page: an imported Objective-C constant, which Swift source spells
    /// `nonisolated static let`.
    nonisolated public static let batteryStateDidChangeNotification = NSNotification.Name(
        "UIDeviceBatteryStateDidChangeNotification")

    /// https://developer.apple.com/documentation/uikit/uidevice/batteryleveldidchangenotification
    nonisolated public static let batteryLevelDidChangeNotification = NSNotification.Name(
        "UIDeviceBatteryLevelDidChangeNotification")

    /// https://developer.apple.com/documentation/uikit/uidevice/batterystate-swift.enum
    public enum BatteryState: Int, Sendable {
        /// https://developer.apple.com/documentation/uikit/uidevice/batterystate-swift.enum/unknown
        case unknown = 0
        /// https://developer.apple.com/documentation/uikit/uidevice/batterystate-swift.enum/unplugged
        case unplugged = 1
        /// https://developer.apple.com/documentation/uikit/uidevice/batterystate-swift.enum/charging
        case charging = 2
        /// https://developer.apple.com/documentation/uikit/uidevice/batterystate-swift.enum/full
        case full = 3
    }
}
