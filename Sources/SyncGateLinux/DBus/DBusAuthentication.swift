/// The client side of the SASL `EXTERNAL` handshake that opens a D-Bus connection.
///
/// The client sends one NUL byte and `AUTH EXTERNAL <hex of the decimal uid>`; the server answers
/// `OK <guid>` (or `REJECTED <mechanisms>`); the client then sends `BEGIN` and the message stream starts.
enum DBusAuthentication {
    /// What the server's line means.
    enum Reply: Sendable, Hashable {
        /// Accepted; the server's GUID.
        case ok(guid: String)
        /// Refused, or an answer this client does not understand.
        case rejected(String)
    }

    /// The longest line the client accepts from the server before giving up.
    static let maximumLineLength = 512

    /// The NUL byte and the `AUTH EXTERNAL` line for `uid`.
    static func initialBytes(uid: UInt32) -> [UInt8] {
        let hex = String(uid).utf8.map { byte in
            let digits = Array("0123456789abcdef".utf8)
            return String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 0xF)]], as: UTF8.self)
        }.joined()
        return [0] + Array("AUTH EXTERNAL \(hex)\r\n".utf8)
    }

    /// The line that ends the handshake.
    static let begin = Array("BEGIN\r\n".utf8)

    /// Interprets one server line, without its `\r\n`.
    static func parse(line: String) -> Reply {
        let parts = line.split(separator: " ", maxSplits: 1)
        guard parts.first == "OK", parts.count == 2 else { return .rejected(line) }
        return .ok(guid: String(parts[1]))
    }
}
