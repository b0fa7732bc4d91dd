import SyncGateWire

/// A parsed D-Bus server address such as `unix:path=/run/dbus/system_bus_socket,guid=…`.
///
/// An address string may list several entries separated by `;`; each is a transport followed by
/// `key=value` pairs separated by `,`, with `%XX` escapes in values. Only the Unix transport with `path=`
/// or `abstract=` is supported; other entries are skipped.
struct DBusAddress: Sendable, Hashable {
    /// Where a Unix-domain socket lives.
    enum Location: Sendable, Hashable {
        /// A socket file.
        case path(String)
        /// A Linux abstract socket name (without the leading NUL).
        case abstract(String)
    }

    /// The socket to connect to.
    var location: Location

    /// The standard system bus socket, used when `DBUS_SYSTEM_BUS_ADDRESS` is not set.
    static let defaultSystemBus = "unix:path=/run/dbus/system_bus_socket"

    /// The Unix entries of `address`, in order.
    ///
    /// - Throws: ``DBusDecodingError`` naming the address when it has no usable entry or a bad escape.
    static func parse(_ address: String) throws(DBusDecodingError) -> [DBusAddress] {
        var result: [DBusAddress] = []
        for entry in address.split(separator: ";") {
            guard let colon = entry.firstIndex(of: ":") else {
                throw DBusDecodingError("bus address", "entry \"\(entry)\" has no transport")
            }
            guard entry[..<colon] == "unix" else { continue }
            var values: [String: String] = [:]
            for pair in entry[entry.index(after: colon)...].split(separator: ",") {
                guard let equals = pair.firstIndex(of: "=") else {
                    throw DBusDecodingError("bus address", "pair \"\(pair)\" has no '='")
                }
                values[String(pair[..<equals])] = try unescape(pair[pair.index(after: equals)...])
            }
            if let path = values["path"] {
                result.append(DBusAddress(location: .path(path)))
            } else if let name = values["abstract"] {
                result.append(DBusAddress(location: .abstract(name)))
            }
        }
        guard !result.isEmpty else {
            throw DBusDecodingError("bus address", "\"\(address)\" has no unix:path= or unix:abstract= entry")
        }
        return result
    }

    /// The address of the system bus: `environment["DBUS_SYSTEM_BUS_ADDRESS"]`, else the standard socket.
    static func systemBus(environment: [String: String]) -> String {
        environment["DBUS_SYSTEM_BUS_ADDRESS"].flatMap { $0.isEmpty ? nil : $0 } ?? defaultSystemBus
    }

    private static func unescape(_ value: Substring) throws(DBusDecodingError) -> String {
        var bytes: [UInt8] = []
        var iterator = Array(value.utf8).makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                throw DBusDecodingError("bus address", "value \"\(value)\" has a bad %-escape")
            }
            bytes.append(high << 4 | low)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
