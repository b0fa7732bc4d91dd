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
        String(decoding: terminated(bytes), as: UTF8.self)
    }

    /// The bytes of a NUL-terminated (or unterminated) string, without the NUL and what follows it.
    package static func terminated(_ bytes: [UInt8]) -> [UInt8] {
        Array(bytes[..<(bytes.firstIndex(of: 0) ?? bytes.endIndex)])
    }

    /// Bytes that name something (an interface) as text to show: valid UTF-8 as it is, and each byte
    /// that is not part of a valid UTF-8 sequence as `\xHH` (two lowercase hex digits), so no byte is
    /// lost or merged into U+FFFD. Valid UTF-8 is left unescaped, backslashes included: the text is for
    /// reading, not for going back to the bytes.
    package static func displayName(_ bytes: [UInt8]) -> String {
        var text = ""
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                text.unicodeScalars.append(Unicode.UTF8.decode(encoded))
                offset += encoded.count
            case .error(let length):
                for byte in bytes[offset..<(offset + length)] {
                    text += "\\x" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16)
                }
                offset += length
            case .emptyInput:
                return text
            }
        }
    }
}
