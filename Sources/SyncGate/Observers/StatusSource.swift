/// Where one field of a status came from, such as `rtnetlink`, `NetworkManager` or `sysfs heuristic`.
///
/// Shown by tools (`syncgate status`) next to each field, so a value is never a silent guess.
public struct StatusSource: Sendable, Hashable, CustomStringConvertible {
    /// A short name of the source.
    public let name: String

    /// Creates a source with the given name.
    public init(_ name: String) {
        self.name = name
    }

    /// The name.
    public var description: String { name }

    /// The kernel's routing tables, read over rtnetlink.
    public static let rtnetlink = StatusSource("rtnetlink")
    /// The interface kind read from `/sys/class/net`, and the rule that cellular and Bluetooth cost money.
    public static let sysfsHeuristic = StatusSource("sysfs heuristic")
    /// NetworkManager over the system D-Bus.
    public static let networkManager = StatusSource("NetworkManager")
    /// `/sys/class/power_supply`.
    public static let sysfs = StatusSource("sysfs power_supply")
    /// UPower over the system D-Bus.
    public static let upower = StatusSource("UPower")
    /// power-profiles-daemon (or a compatible daemon) over the system D-Bus, under the given bus name.
    public static func powerProfiles(busName: String) -> StatusSource {
        StatusSource("power-profiles-daemon (\(busName))")
    }
    /// Apple's `NWPathMonitor`.
    public static let networkPathMonitor = StatusSource("NWPathMonitor")
    /// Apple's `ProcessInfo`.
    public static let processInfo = StatusSource("ProcessInfo")
    /// Nothing on this machine reports the field; it holds its default value.
    public static let defaultValue = StatusSource("default (no source)")
}
