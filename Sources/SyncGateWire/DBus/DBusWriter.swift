/// Marshals values into little-endian D-Bus wire format; offsets count from the message's first byte.
struct DBusWriter {
    /// The bytes written so far.
    private(set) var bytes: [UInt8] = []

    /// Appends zero bytes up to the next multiple of `alignment`.
    mutating func pad(to alignment: Int) {
        while bytes.count % alignment != 0 { bytes.append(0) }
    }

    /// Appends an integer, aligned to its size, little-endian.
    mutating func write<T: FixedWidthInteger>(_ value: T) {
        pad(to: MemoryLayout<T>.size)
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// Overwrites four bytes at `offset` with a little-endian `UInt32`.
    mutating func store(_ value: UInt32, at offset: Int) {
        withUnsafeBytes(of: value.littleEndian) { raw in
            for (index, byte) in raw.enumerated() { bytes[offset + index] = byte }
        }
    }

    /// Appends a value and everything inside it.
    mutating func write(_ value: DBusValue) {
        switch value {
        case .byte(let value): bytes.append(value)
        case .boolean(let value): write(UInt32(value ? 1 : 0))
        case .int16(let value): write(value)
        case .uint16(let value): write(value)
        case .int32(let value): write(value)
        case .uint32(let value): write(value)
        case .int64(let value): write(value)
        case .uint64(let value): write(value)
        case .double(let value): write(value.bitPattern)
        case .string(let value), .objectPath(let value):
            let utf8 = Array(value.utf8)
            write(UInt32(utf8.count))
            bytes.append(contentsOf: utf8)
            bytes.append(0)
        case .signature(let value):
            writeSignature(value)
        case .unixFD(let value): write(value)
        case .array(let element, let elements):
            writeArray(alignment: element.alignment) {
                for element in elements { $0.write(element) }
            }
        case .dictionary(_, _, let entries):
            writeArray(alignment: 8) {
                for entry in entries {
                    $0.pad(to: 8)
                    $0.write(entry.key)
                    $0.write(entry.value)
                }
            }
        case .structure(let fields):
            pad(to: 8)
            for field in fields { write(field) }
        case .variant(let inner):
            writeSignature(inner.type.signature)
            write(inner)
        }
    }

    private mutating func writeSignature(_ signature: String) {
        let utf8 = Array(signature.utf8)
        bytes.append(UInt8(truncatingIfNeeded: utf8.count))
        bytes.append(contentsOf: utf8)
        bytes.append(0)
    }

    private mutating func writeArray(alignment: Int, _ body: (inout DBusWriter) -> Void) {
        write(UInt32(0))
        let lengthOffset = bytes.count - 4
        pad(to: alignment)
        let start = bytes.count
        body(&self)
        store(UInt32(bytes.count - start), at: lengthOffset)
    }
}
