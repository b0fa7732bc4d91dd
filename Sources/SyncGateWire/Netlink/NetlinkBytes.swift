/// Bounds-checked reads and writes of host-order integers in netlink byte buffers.
///
/// Netlink uses the host's byte order. Every read checks its range and returns `nil` when it does not
/// fit, so a parser built on these never traps on short or malformed input.
package enum NetlinkBytes {
    /// Reads an integer at `offset`, or `nil` when it does not lie inside `bytes`.
    package static func load<T: FixedWidthInteger>(_ type: T.Type, from bytes: [UInt8], at offset: Int) -> T? {
        let size = MemoryLayout<T>.size
        guard offset >= 0, offset <= bytes.count - size else { return nil }
        return bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: T.self) }
    }

    /// Appends the bytes of an integer in host order.
    package static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value) { bytes.append(contentsOf: $0) }
    }

    /// Overwrites the bytes at `offset` with an integer in host order; the range must exist.
    package static func store<T: FixedWidthInteger>(_ value: T, into bytes: inout [UInt8], at offset: Int) {
        withUnsafeBytes(of: value) { raw in
            for (index, byte) in raw.enumerated() {
                bytes[offset + index] = byte
            }
        }
    }

    /// Decodes a NUL-terminated (or unterminated) UTF-8 string; invalid bytes become U+FFFD.
    package static func string(_ bytes: [UInt8]) -> String {
        let end = bytes.firstIndex(of: 0) ?? bytes.endIndex
        return String(decoding: bytes[..<end], as: UTF8.self)
    }
}
