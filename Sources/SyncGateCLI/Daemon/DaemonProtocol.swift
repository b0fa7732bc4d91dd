import Foundation

/// The wire format between `syncgate` clients and `syncgate daemon`, version 1.
///
/// One connection carries one request: the client writes one JSON object on one line (at most
/// ``maximumRequestSize`` bytes with its newline) and reads one JSON line back; `submit --wait` reads a
/// second line with the job's outcome. Every message has `"version": 1`. A request that is too large,
/// not UTF-8, not one JSON object, of another version, of an unknown type or missing a field is refused
/// with `{"version":1,"ok":false,"error":"…"}` and changes nothing. The schema is in
/// `docs/daemon-protocol.md`.
package enum DaemonProtocol {
    /// The version every message carries.
    package static let version = 1
    /// The largest request, newline included: 64 KiB.
    package static let maximumRequestSize = 64 << 10

    /// Decodes one request line (without its newline).
    ///
    /// - Throws: ``DaemonProtocolError`` naming what is wrong.
    package static func decodeRequest(_ bytes: [UInt8]) throws(DaemonProtocolError) -> DaemonRequest {
        guard bytes.count < maximumRequestSize else {
            throw DaemonProtocolError("request of \(bytes.count) bytes exceeds the limit of \(maximumRequestSize)")
        }
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw DaemonProtocolError("request is not valid UTF-8")
        }
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: Data(bytes), options: .fragmentsAllowed)
        } catch {
            throw DaemonProtocolError("request is not JSON")
        }
        guard let fields = object as? [String: Any] else { throw DaemonProtocolError("request is not a JSON object") }
        struct Version: Decodable { var version: Int }
        guard fields["version"] != nil, let version = try? JSONDecoder().decode(Version.self, from: Data(bytes)).version
        else {
            throw DaemonProtocolError("request has no integer field 'version'")
        }
        guard version == Self.version else {
            throw DaemonProtocolError("unsupported version \(version) (this daemon speaks version \(Self.version))")
        }
        guard let type = fields["type"] as? String else {
            throw DaemonProtocolError("request has no string field 'type'")
        }
        guard let kind = DaemonRequest.Kind(rawValue: type) else {
            let names = DaemonRequest.Kind.allCases.map(\.rawValue).joined(separator: ", ")
            throw DaemonProtocolError("unknown request type '\(type)' (one of \(names))")
        }
        do {
            let fields = try JSONDecoder().decode(DaemonRequestFields.self, from: Data(bytes))
            _ = kind
            return try fields.validated()
        } catch let error as DaemonProtocolError {
            throw error
        } catch let DecodingError.keyNotFound(key, _) {
            throw DaemonProtocolError("request '\(type)' has no field '\(key.stringValue)'")
        } catch let DecodingError.typeMismatch(_, context) {
            throw DaemonProtocolError("request '\(type)' has a field of the wrong type at '\(path(context))'")
        } catch let DecodingError.valueNotFound(_, context) {
            throw DaemonProtocolError("request '\(type)' has a null field at '\(path(context))'")
        } catch {
            throw DaemonProtocolError("request '\(type)' is malformed")
        }
    }

    private static func path(_ context: DecodingError.Context) -> String {
        context.codingPath.map(\.stringValue).joined(separator: ".")
    }

    /// Encodes a message as one line: compact JSON with sorted keys and a newline.
    package static func encodeLine<Message: Encodable>(_ message: Message) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // The messages are plain structs of strings, numbers and arrays: encoding cannot fail.
        let data = (try? encoder.encode(message)) ?? Data("{}".utf8)
        return Array(data) + [UInt8(ascii: "\n")]
    }

    /// Decodes a response line (without its newline).
    ///
    /// - Throws: ``DaemonProtocolError`` when the line is not a version-1 response.
    package static func decodeResponse(_ bytes: [UInt8]) throws(DaemonProtocolError) -> DaemonResponse {
        let response: DaemonResponse
        do {
            response = try JSONDecoder().decode(DaemonResponse.self, from: Data(bytes))
        } catch {
            throw DaemonProtocolError("the daemon's answer is not a response")
        }
        guard response.version == version else {
            throw DaemonProtocolError("the daemon speaks version \(response.version), this client \(version)")
        }
        return response
    }
}

/// A request the daemon refused or a response the client could not read, with one line saying why.
package struct DaemonProtocolError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong, naming the field and the value.
    package let message: String

    /// Creates an error with the given message.
    package init(_ message: String) {
        self.message = message
    }

    /// The message.
    package var description: String { message }
}
