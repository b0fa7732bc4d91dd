/// Why a D-Bus connection or call failed.
enum DBusError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The bus could not be reached or refused the handshake.
    case connectFailed(String)
    /// No reply arrived in time.
    case timedOut(member: String, timeout: Duration)
    /// The connection closed before the reply arrived.
    case disconnected(String)
    /// The peer answered with an error message.
    case remote(name: String, message: String)
    /// The caller cancelled the call.
    case cancelled

    /// A one-line explanation.
    var description: String {
        switch self {
        case .connectFailed(let reason): "cannot connect to the bus: \(reason)"
        case .timedOut(let member, let timeout): "\(member) got no reply within \(timeout)"
        case .disconnected(let reason): "the bus connection closed: \(reason)"
        case .remote(let name, let message): message.isEmpty ? name : "\(name): \(message)"
        case .cancelled: "cancelled"
        }
    }

    /// Whether the error says the destination has no owner (the service is not running).
    var isServiceAbsent: Bool {
        guard case .remote(let name, _) = self else { return false }
        return name == "org.freedesktop.DBus.Error.NameHasNoOwner"
            || name == "org.freedesktop.DBus.Error.ServiceUnknown"
    }
}
