/// A complete D-Bus type, as written in a signature (`u`, `as`, `a{sv}`, `(ii)`).
///
/// A dictionary is the array of dictionary entries `a{kv}`; a dictionary entry never appears on its own.
/// Parsing enforces the specification's limits: a signature of at most 255 bytes, at most 32 nested
/// arrays, at most 32 nested structures (dictionary entries count as structures), and a basic key type.
package indirect enum DBusType: Sendable, Hashable, CustomStringConvertible {
    case byte
    case boolean
    case int16
    case uint16
    case int32
    case uint32
    case int64
    case uint64
    case double
    case string
    case objectPath
    case signature
    case unixFD
    case variant
    case array(DBusType)
    case dictionary(key: DBusType, value: DBusType)
    case structure([DBusType])

    /// The longest signature the specification allows, in bytes.
    static let maximumSignatureLength = 255
    /// The deepest nesting of arrays (and, separately, of structures) the specification allows.
    static let maximumNesting = 32

    /// The alignment of a value of this type in the marshalled stream.
    var alignment: Int {
        switch self {
        case .byte, .signature, .variant: 1
        case .int16, .uint16: 2
        case .boolean, .int32, .uint32, .string, .objectPath, .unixFD, .array, .dictionary: 4
        case .int64, .uint64, .double, .structure: 8
        }
    }

    /// Whether this is a basic type, the only kind allowed as a dictionary key.
    var isBasic: Bool {
        switch self {
        case .variant, .array, .dictionary, .structure: false
        default: true
        }
    }

    /// The type's signature, such as `a{sv}`.
    package var signature: String {
        switch self {
        case .byte: "y"
        case .boolean: "b"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .unixFD: "h"
        case .variant: "v"
        case .array(let element): "a" + element.signature
        case .dictionary(let key, let value): "a{" + key.signature + value.signature + "}"
        case .structure(let fields): "(" + fields.map(\.signature).joined() + ")"
        }
    }

    /// The signature.
    package var description: String { signature }

    /// Parses a signature into its complete types, enforcing the specification's limits.
    ///
    /// - Throws: ``DBusDecodingError`` naming the signature and what is wrong with it.
    package static func parse(_ signature: String) throws(DBusDecodingError) -> [DBusType] {
        let bytes = Array(signature.utf8)
        guard bytes.count <= maximumSignatureLength else {
            throw DBusDecodingError("signature", "is \(bytes.count) bytes long, more than 255")
        }
        var parser = SignatureParser(bytes: bytes, text: signature)
        var types: [DBusType] = []
        while parser.index < bytes.count {
            types.append(try parser.parseOne(arrays: 0, structures: 0))
        }
        return types
    }

    /// Parses a signature that must hold exactly one complete type (a variant's signature).
    static func parseSingle(_ signature: String) throws(DBusDecodingError) -> DBusType {
        let types = try parse(signature)
        guard types.count == 1, let type = types.first else {
            throw DBusDecodingError("variant signature", "\"\(signature)\" is not exactly one complete type")
        }
        return type
    }
}

/// A cursor over a signature's bytes.
private struct SignatureParser {
    let bytes: [UInt8]
    let text: String
    var index = 0

    mutating func parseOne(arrays: Int, structures: Int) throws(DBusDecodingError) -> DBusType {
        guard index < bytes.count else { throw failure("ends in the middle of a type") }
        let code = bytes[index]
        index += 1
        switch code {
        case UInt8(ascii: "y"): return .byte
        case UInt8(ascii: "b"): return .boolean
        case UInt8(ascii: "n"): return .int16
        case UInt8(ascii: "q"): return .uint16
        case UInt8(ascii: "i"): return .int32
        case UInt8(ascii: "u"): return .uint32
        case UInt8(ascii: "x"): return .int64
        case UInt8(ascii: "t"): return .uint64
        case UInt8(ascii: "d"): return .double
        case UInt8(ascii: "s"): return .string
        case UInt8(ascii: "o"): return .objectPath
        case UInt8(ascii: "g"): return .signature
        case UInt8(ascii: "h"): return .unixFD
        case UInt8(ascii: "v"): return .variant
        case UInt8(ascii: "a"):
            guard arrays < DBusType.maximumNesting else { throw failure("nests more than 32 arrays") }
            if index < bytes.count, bytes[index] == UInt8(ascii: "{") {
                index += 1
                guard structures < DBusType.maximumNesting else { throw failure("nests more than 32 structures") }
                let key = try parseOne(arrays: arrays + 1, structures: structures + 1)
                guard key.isBasic else { throw failure("has a dictionary key of non-basic type \(key)") }
                let value = try parseOne(arrays: arrays + 1, structures: structures + 1)
                guard index < bytes.count, bytes[index] == UInt8(ascii: "}") else {
                    throw failure("has a dictionary entry without exactly one key and one value")
                }
                index += 1
                return .dictionary(key: key, value: value)
            }
            return .array(try parseOne(arrays: arrays + 1, structures: structures))
        case UInt8(ascii: "("):
            guard structures < DBusType.maximumNesting else { throw failure("nests more than 32 structures") }
            var fields: [DBusType] = []
            while true {
                guard index < bytes.count else { throw failure("has an unclosed structure") }
                if bytes[index] == UInt8(ascii: ")") {
                    index += 1
                    break
                }
                fields.append(try parseOne(arrays: arrays, structures: structures + 1))
            }
            guard !fields.isEmpty else { throw failure("has an empty structure") }
            return .structure(fields)
        default:
            throw failure("has the unknown type code \(code) at offset \(index - 1)")
        }
    }

    func failure(_ reason: String) -> DBusDecodingError {
        DBusDecodingError("signature", "\"\(text)\" \(reason)")
    }
}
