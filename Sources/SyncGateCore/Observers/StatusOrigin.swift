/// Where one field of a status came from, such as `rtnetlink`, `NetworkManager` or `sysfs heuristic`.
///
/// Shown by tools (`syncgate status`) next to each field, so a value is never a silent guess.
public struct StatusOrigin: Sendable, Hashable, CustomStringConvertible {
    /// A short name of the source.
    public let name: String

    /// Creates a source with the given name.
    public init(_ name: String) {
        self.name = name
    }

    /// The name.
    public var description: String { name }

    /// The kernel's routing tables, read over rtnetlink.
    public static let rtnetlink = StatusOrigin("rtnetlink")
    /// The kernel's main routing table, read from `/proc/net/route` and `/proc/net/ipv6_route` at an
    /// interval: Linux's source of the default route where rtnetlink cannot be opened.
    public static let procNetRoute = StatusOrigin("/proc/net/route (polled)")
    /// The interface kind read from `/sys/class/net`, and the rule that cellular and Bluetooth cost money.
    public static let sysfsHeuristic = StatusOrigin("sysfs heuristic")
    /// NetworkManager over the system D-Bus.
    public static let networkManager = StatusOrigin("NetworkManager")
    /// `/sys/class/power_supply`.
    public static let sysfs = StatusOrigin("sysfs power_supply")
    /// UPower over the system D-Bus.
    public static let upower = StatusOrigin("UPower")
    /// power-profiles-daemon (or a compatible daemon) over the system D-Bus, under the given bus name.
    public static func powerProfiles(busName: String) -> StatusOrigin {
        StatusOrigin("power-profiles-daemon (\(busName))")
    }
    /// systemd-logind over the system D-Bus.
    public static let logind = StatusOrigin("systemd-logind")
    /// ModemManager over the system D-Bus.
    public static let modemManager = StatusOrigin("ModemManager")
    /// `statvfs` on the watched path.
    public static let statvfs = StatusOrigin("statvfs")
    /// Apple's `NWPathMonitor`.
    public static let networkPathMonitor = StatusOrigin("NWPathMonitor")
    /// Apple's `ProcessInfo` (Low Power Mode, the thermal state).
    public static let processInfo = StatusOrigin("ProcessInfo")
    /// UIKit's `UIDevice` battery state and level (iOS, iPadOS).
    public static let uiDevice = StatusOrigin("UIDevice")
    /// IOKit's power sources (macOS).
    public static let ioKitPowerSources = StatusOrigin("IOKit power sources")
    /// The kernel's pressure stall information, `/proc/pressure/{cpu,io,memory}` (triggers, then `avg10`).
    public static let psi = StatusOrigin("PSI /proc/pressure")
    /// The kernel's thermal zones, `/sys/class/thermal/thermal_zone*` (temperature and passive trip point).
    public static let thermalZones = StatusOrigin("sysfs thermal_zone")
    /// The source exists on the platform but cannot be read here (a note says why); the field holds a
    /// value that never blocks.
    public static let unavailable = StatusOrigin("unavailable")
    /// Nothing on this machine reports the field; it holds its default value.
    public static let defaultValue = StatusOrigin("default (no source)")
}
