import SyncGateCore
import SyncGateWire

/// The NetworkManager properties SyncGate reads, parsed from `org.freedesktop.NetworkManager`'s `GetAll`.
///
/// A property of an unexpected type is left `nil` and reported in ``problems``, so a changed or broken
/// service degrades one field to the heuristic rather than breaking the source.
struct NetworkManagerFacts: Sendable, Hashable {
    /// `Metered` (NMMetered: UNKNOWN 0, YES 1, NO 2, GUESS_YES 3, GUESS_NO 4).
    var metered: UInt32?
    /// `Connectivity` (NMConnectivityState: UNKNOWN 0, NONE 1, PORTAL 2, LIMITED 3, FULL 4).
    var connectivity: UInt32?
    /// `State` (NMState, 70 = CONNECTED_GLOBAL).
    var state: UInt32?
    /// `PrimaryConnection`: the active connection that owns the default route, `/` when none.
    var primaryConnection: String?
    /// `PrimaryConnectionType`: its setting name, such as `802-11-wireless`; empty when none.
    var primaryConnectionType: String?
    /// `DeviceType` of the primary connection's first device, looked up separately.
    var primaryDeviceType: UInt32?
    /// `Id` of the primary connection (`Connection.Active`), looked up separately.
    var primaryConnectionID: String?
    /// `Ssid` of the access point the primary connection's first device is associated with
    /// (`Device.Wireless.ActiveAccessPoint`), read as UTF-8; looked up separately, `nil` when not on Wi-Fi.
    var ssid: String?
    /// Properties that had an unexpected type, described with their value.
    var problems: [String] = []

    /// Parses the manager's properties.
    init(properties: [String: DBusValue]) {
        metered = Self.read("Metered", from: properties, as: \.uint32, expected: "u", problems: &problems)
        connectivity = Self.read("Connectivity", from: properties, as: \.uint32, expected: "u", problems: &problems)
        state = Self.read("State", from: properties, as: \.uint32, expected: "u", problems: &problems)
        primaryConnection = Self.read(
            "PrimaryConnection", from: properties, as: \.objectPath, expected: "o", problems: &problems)
        primaryConnectionType = Self.read(
            "PrimaryConnectionType", from: properties, as: \.string, expected: "s", problems: &problems)
    }

    /// Creates facts from values, for tests.
    init(
        metered: UInt32? = nil,
        connectivity: UInt32? = nil,
        state: UInt32? = nil,
        primaryConnection: String? = nil,
        primaryConnectionType: String? = nil,
        primaryDeviceType: UInt32? = nil,
        primaryConnectionID: String? = nil,
        ssid: String? = nil
    ) {
        self.primaryConnectionID = primaryConnectionID
        self.ssid = ssid
        self.metered = metered
        self.connectivity = connectivity
        self.state = state
        self.primaryConnection = primaryConnection
        self.primaryConnectionType = primaryConnectionType
        self.primaryDeviceType = primaryDeviceType
    }

    private static func read<Value>(
        _ name: String,
        from properties: [String: DBusValue],
        as accessor: KeyPath<DBusValue, Value?>,
        expected: String,
        problems: inout [String]
    ) -> Value? {
        guard let raw = properties[name] else { return nil }
        guard let value = raw[keyPath: accessor] else {
            problems.append(
                "NetworkManager property \(name) has type \(raw.type) (value \(raw)), expected \(expected); ignored")
            return nil
        }
        return value
    }
}
