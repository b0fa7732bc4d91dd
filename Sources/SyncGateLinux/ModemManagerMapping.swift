import SyncGateCore
import SyncGateWire

/// The pure rules that pick the primary modem from ModemManager's objects and decide whether the
/// connection in use is roaming.
///
/// * **Primary modem**: among the objects under `/org/freedesktop/ModemManager1` that have the
///   `org.freedesktop.ModemManager1.Modem.Modem3gpp` interface, a connected one (`Modem.State` CONNECTED 11)
///   first, then the lowest modem number.
/// * **Roaming registration states** (`MMModem3gppRegistrationState`): ROAMING 5, ROAMING_SMS_ONLY 7,
///   ROAMING_CSFB_NOT_PREFERRED 10; every other state (home, searching, idle, denied, unknown…) is not
///   roaming.
/// * **The status**: ``ConnectivityStatus/isRoaming`` holds when the path is connected through a cellular
///   interface and the primary modem is roaming; on Wi-Fi or Ethernet a roaming modem does not matter.
enum ModemManagerMapping {
    /// The modem interface.
    static let modemInterface = "org.freedesktop.ModemManager1.Modem"
    /// The 3GPP interface of a modem.
    static let modem3gppInterface = "org.freedesktop.ModemManager1.Modem.Modem3gpp"

    /// Whether a registration state is a roaming one.
    static func isRoaming(registrationState: UInt32?) -> Bool {
        switch registrationState {
        case 5, 7, 10: true
        default: false
        }
    }

    /// The primary modem in a `GetManagedObjects` reply body (`a{oa{sa{sv}}}`), or ``ModemManagerFacts/noModem``;
    /// `nil` when the body has another shape.
    static func facts(managedObjects body: [DBusValue]) -> ModemManagerFacts? {
        guard body.count == 1, case .dictionary(.objectPath, _, let objects) = body[0] else { return nil }
        var modems: [(path: String, number: Int, connected: Bool, state: UInt32?)] = []
        for object in objects {
            guard case .objectPath(let path) = object.key, case .dictionary(.string, _, let interfaces) = object.value
            else { return nil }
            var byName: [String: [String: DBusValue]] = [:]
            for interface in interfaces {
                guard case .string(let name) = interface.key, let properties = interface.value.properties else {
                    return nil
                }
                byName[name] = properties
            }
            guard let threeGPP = byName[modem3gppInterface] else { continue }
            let number = Int(path.split(separator: "/").last ?? "") ?? Int.max
            let connected = byName[modemInterface]?["State"].map(isConnectedState) ?? false
            modems.append((path, number, connected, threeGPP["RegistrationState"]?.uint32))
        }
        let primary = modems.min { left, right in
            if left.connected != right.connected { return left.connected }
            if left.number != right.number { return left.number < right.number }
            return left.path < right.path
        }
        guard let primary else { return .noModem }
        return ModemManagerFacts(primaryModem: primary.path, registrationState: primary.state)
    }

    /// Whether a `Modem.State` (`i`, an `MMModemState`) is CONNECTED 11.
    static func isConnectedState(_ value: DBusValue) -> Bool {
        if case .int32(11) = value.unwrapped { return true }
        return value.uint32 == 11
    }

    /// `status` with ``ConnectivityStatus/isRoaming`` decided by ModemManager's facts (`nil`: absent), and
    /// where it came from.
    static func apply(_ facts: ModemManagerFacts?, to status: ConnectivityStatus) -> (ConnectivityStatus, StatusOrigin)
    {
        guard let facts else { return (status.with(isRoaming: false), .defaultValue) }
        let roaming =
            status.isConnected && status.interface == .cellular && isRoaming(registrationState: facts.registrationState)
        return (status.with(isRoaming: roaming), .modemManager)
    }
}
