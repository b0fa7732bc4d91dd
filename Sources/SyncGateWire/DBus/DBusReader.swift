/// Unmarshals D-Bus values from a message in either byte order, checking every bound and limit.
///
/// Offsets count from the message's first byte, as alignment does. Every failure is a
/// ``DBusDecodingError`` naming the field; nothing traps on hostile input.
struct DBusReader {
    /// The longest array the specification allows, in bytes.
    static let maximumArrayLength = 1 << 26
    /// The deepest total nesting of containers and variants the specification allows.
    static let maximumDepth = 64

    private let bytes: [UInt8]
    private let isBigEndian: Bool
    /// The next byte to read.
    private(set) var offset: Int
    /// Where reading must stop.
    var limit: Int
    private var depth = 0

    /// Creates a reader of `bytes` from `offset`, in the given byte order.
    init(bytes: [UInt8], offset: Int = 0, limit: Int? = nil, isBigEndian: Bool) {
        self.bytes = bytes
        self.offset = offset
        self.limit = min(limit ?? bytes.count, bytes.count)
        self.isBigEndian = isBigEndian
    }

    /// Whether every byte up to the limit has been read.
    var isAtEnd: Bool { offset >= limit }

    /// Skips the padding up to `alignment`, which must be zero bytes.
    mutating func align(_ alignment: Int, field: String) throws(DBusDecodingError) {
        let padded = (offset + alignment - 1) / alignment * alignment
        guard padded <= limit else { throw DBusDecodingError(field, "ends inside alignment padding") }
        while offset < padded {
            guard bytes[offset] == 0 else {
                throw DBusDecodingError(field, "has non-zero padding byte \(bytes[offset]) at offset \(offset)")
            }
            offset += 1
        }
    }

    /// Reads an aligned integer in the message's byte order.
    mutating func read<T: FixedWidthInteger>(_: T.Type, field: String) throws(DBusDecodingError) -> T {
        let size = MemoryLayout<T>.size
        try align(size, field: field)
        guard limit - offset >= size else { throw DBusDecodingError(field, "is truncated at offset \(offset)") }
        var value: T = 0
        for index in 0..<size {
            let byte = T(truncatingIfNeeded: bytes[offset + index])
            value |= isBigEndian ? byte << (8 * (size - 1 - index)) : byte << (8 * index)
        }
        offset += size
        return value
    }

    /// Reads one value of `type`.
    mutating func readValue(_ type: DBusType, field: String) throws(DBusDecodingError) -> DBusValue {
        switch type {
        case .byte: return .byte(try read(UInt8.self, field: field))
        case .boolean:
            let raw = try read(UInt32.self, field: field)
            guard raw <= 1 else { throw DBusDecodingError(field, "has boolean value \(raw), not 0 or 1") }
            return .boolean(raw == 1)
        case .int16: return .int16(try read(Int16.self, field: field))
        case .uint16: return .uint16(try read(UInt16.self, field: field))
        case .int32: return .int32(try read(Int32.self, field: field))
        case .uint32: return .uint32(try read(UInt32.self, field: field))
        case .int64: return .int64(try read(Int64.self, field: field))
        case .uint64: return .uint64(try read(UInt64.self, field: field))
        case .double: return .double(Double(bitPattern: try read(UInt64.self, field: field)))
        case .unixFD: return .unixFD(try read(UInt32.self, field: field))
        case .string:
            return .string(try readString(field: field))
        case .objectPath:
            let path = try readString(field: field)
            guard DBusNames.isValidObjectPath(path) else {
                throw DBusDecodingError(field, "has invalid object path \"\(path)\"")
            }
            return .objectPath(path)
        case .signature:
            let signature = try readSignature(field: field)
            _ = try DBusType.parse(signature)
            return .signature(signature)
        case .variant:
            return try nested(field: field) { reader throws(DBusDecodingError) in
                let signature = try reader.readSignature(field: field)
                let inner = try DBusType.parseSingle(signature)
                return .variant(try reader.readValue(inner, field: field))
            }
        case .structure(let fields):
            return try nested(field: field) { reader throws(DBusDecodingError) in
                try reader.align(8, field: field)
                var values: [DBusValue] = []
                for fieldType in fields { values.append(try reader.readValue(fieldType, field: field)) }
                return .structure(values)
            }
        case .array(let element):
            return try nested(field: field) { reader throws(DBusDecodingError) in
                let elements = try reader.readArray(alignment: element.alignment, field: field) {
                    reader throws(DBusDecodingError) in try reader.readValue(element, field: field)
                }
                return .array(element, elements)
            }
        case .dictionary(let key, let value):
            return try nested(field: field) { reader throws(DBusDecodingError) in
                let entries = try reader.readArray(alignment: 8, field: field) { reader throws(DBusDecodingError) in
                    try reader.align(8, field: field)
                    let keyValue = try reader.readValue(key, field: field)
                    return DBusDictionaryEntry(key: keyValue, value: try reader.readValue(value, field: field))
                }
                return .dictionary(key: key, value: value, entries)
            }
        }
    }

    /// Reads a `g`: one length byte, the bytes, a NUL.
    mutating func readSignature(field: String) throws(DBusDecodingError) -> String {
        let length = Int(try read(UInt8.self, field: field))
        return try readTerminated(length: length, field: field)
    }

    private mutating func readString(field: String) throws(DBusDecodingError) -> String {
        let length = Int(try read(UInt32.self, field: field))
        return try readTerminated(length: length, field: field)
    }

    private mutating func readTerminated(length: Int, field: String) throws(DBusDecodingError) -> String {
        guard length < limit - offset else {
            throw DBusDecodingError(field, "declares a string of \(length) bytes past the end of the message")
        }
        let slice = bytes[offset..<offset + length]
        guard bytes[offset + length] == 0 else { throw DBusDecodingError(field, "has a string without its NUL") }
        guard !slice.contains(0) else { throw DBusDecodingError(field, "has a string with an embedded NUL") }
        guard let string = String(validating: slice, as: UTF8.self) else {
            throw DBusDecodingError(field, "has a string that is not valid UTF-8")
        }
        offset += length + 1
        return string
    }

    private mutating func readArray<Element>(
        alignment: Int,
        field: String,
        element: (inout DBusReader) throws(DBusDecodingError) -> Element
    ) throws(DBusDecodingError) -> [Element] {
        let length = Int(try read(UInt32.self, field: field))
        guard length <= Self.maximumArrayLength else {
            throw DBusDecodingError(field, "declares an array of \(length) bytes, more than 64 MiB")
        }
        try align(alignment, field: field)
        guard length <= limit - offset else {
            throw DBusDecodingError(field, "declares an array of \(length) bytes past the end of the message")
        }
        let end = offset + length
        let outerLimit = limit
        limit = end
        defer { limit = outerLimit }
        var elements: [Element] = []
        while offset < end {
            elements.append(try element(&self))
        }
        return elements
    }

    private mutating func nested<Result>(
        field: String,
        _ body: (inout DBusReader) throws(DBusDecodingError) -> Result
    ) throws(DBusDecodingError) -> Result {
        guard depth < Self.maximumDepth else {
            throw DBusDecodingError(field, "nests containers and variants deeper than 64")
        }
        depth += 1
        defer { depth -= 1 }
        return try body(&self)
    }
}
