/// One marshalled D-Bus value with its type.
///
/// Arrays and dictionaries carry their element types so that empty ones keep a signature. The typed
/// accessors (``uint32``, ``string``…) look through one variant, which is how properties arrive.
package indirect enum DBusValue: Sendable, Hashable, CustomStringConvertible {
    case byte(UInt8)
    case boolean(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(String)
    case signature(String)
    case unixFD(UInt32)
    case array(DBusType, [DBusValue])
    case dictionary(key: DBusType, value: DBusType, [DBusDictionaryEntry])
    case structure([DBusValue])
    case variant(DBusValue)

    /// The value's type.
    package var type: DBusType {
        switch self {
        case .byte: .byte
        case .boolean: .boolean
        case .int16: .int16
        case .uint16: .uint16
        case .int32: .int32
        case .uint32: .uint32
        case .int64: .int64
        case .uint64: .uint64
        case .double: .double
        case .string: .string
        case .objectPath: .objectPath
        case .signature: .signature
        case .unixFD: .unixFD
        case .array(let element, _): .array(element)
        case .dictionary(let key, let value, _): .dictionary(key: key, value: value)
        case .structure(let fields): .structure(fields.map(\.type))
        case .variant: .variant
        }
    }

    /// The value inside a variant, or the value itself.
    package var unwrapped: DBusValue {
        if case .variant(let inner) = self { return inner }
        return self
    }

    /// The `u` value, through a variant.
    package var uint32: UInt32? {
        if case .uint32(let value) = unwrapped { return value }
        return nil
    }

    /// The `b` value, through a variant.
    package var bool: Bool? {
        if case .boolean(let value) = unwrapped { return value }
        return nil
    }

    /// The `s` value, through a variant.
    package var string: String? {
        if case .string(let value) = unwrapped { return value }
        return nil
    }

    /// The `o` value, through a variant.
    package var objectPath: String? {
        if case .objectPath(let value) = unwrapped { return value }
        return nil
    }

    /// The elements of an `ao`, through a variant.
    package var objectPaths: [String]? {
        guard case .array(.objectPath, let elements) = unwrapped else { return nil }
        return elements.compactMap(\.objectPath)
    }

    /// The elements of an `ay`, through a variant.
    package var bytes: [UInt8]? {
        guard case .array(.byte, let elements) = unwrapped else { return nil }
        return elements.compactMap { if case .byte(let byte) = $0 { byte } else { nil } }
    }

    /// The elements of an `as`, through a variant.
    package var strings: [String]? {
        guard case .array(.string, let elements) = unwrapped else { return nil }
        return elements.compactMap(\.string)
    }

    /// An `a{sv}` as a dictionary from name to the variant's content, through a variant.
    package var properties: [String: DBusValue]? {
        guard case .dictionary(.string, .variant, let entries) = unwrapped else { return nil }
        var result: [String: DBusValue] = [:]
        for entry in entries {
            guard case .string(let name) = entry.key else { return nil }
            result[name] = entry.value.unwrapped
        }
        return result
    }

    /// An `a{sv}` built from a dictionary, entries sorted by name.
    package static func properties(_ values: [String: DBusValue]) -> DBusValue {
        .dictionary(
            key: .string,
            value: .variant,
            values.sorted { $0.key < $1.key }.map {
                DBusDictionaryEntry(key: .string($0.key), value: .variant($0.value))
            }
        )
    }

    /// A short rendering such as `uint32 3` or `"power-saver"`, for logs and errors.
    package var description: String {
        switch self {
        case .byte(let value): "byte \(value)"
        case .boolean(let value): "\(value)"
        case .int16(let value): "int16 \(value)"
        case .uint16(let value): "uint16 \(value)"
        case .int32(let value): "int32 \(value)"
        case .uint32(let value): "uint32 \(value)"
        case .int64(let value): "int64 \(value)"
        case .uint64(let value): "uint64 \(value)"
        case .double(let value): "double \(value)"
        case .string(let value): "\"\(value)\""
        case .objectPath(let value): "objectpath \(value)"
        case .signature(let value): "signature \(value)"
        case .unixFD(let value): "fd \(value)"
        case .array(_, let elements): "[" + elements.map(\.description).joined(separator: ", ") + "]"
        case .dictionary(_, _, let entries):
            "{" + entries.map { "\($0.key.description): \($0.value.description)" }.joined(separator: ", ") + "}"
        case .structure(let fields): "(" + fields.map(\.description).joined(separator: ", ") + ")"
        case .variant(let inner): "<\(inner.description)>"
        }
    }
}

/// One entry of a D-Bus dictionary.
package struct DBusDictionaryEntry: Sendable, Hashable {
    /// The key, of a basic type.
    package var key: DBusValue
    /// The value.
    package var value: DBusValue
}
