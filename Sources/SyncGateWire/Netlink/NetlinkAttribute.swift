/// One `rtattr` (netlink attribute): a type and its payload.
package struct NetlinkAttribute: Sendable, Hashable {
    /// `rta_type` with the nested and byte-order flag bits removed.
    package var type: UInt16
    /// The bytes after the 4-byte attribute header, up to `rta_len`.
    package var payload: [UInt8]

    /// Creates an attribute from its parts.
    package init(type: UInt16, payload: [UInt8]) {
        self.type = type
        self.payload = payload
    }

    /// The payload as a `u8`, when it has at least one byte.
    package var uint8: UInt8? { payload.first }

    /// The payload as a host-order `u32`, when it has at least four bytes.
    package var uint32: UInt32? { NetlinkBytes.load(UInt32.self, from: payload, at: 0) }

    /// The payload as a NUL-terminated string.
    package var string: String { NetlinkBytes.string(payload) }

    /// The attributes nested in this one's payload.
    package var nested: [NetlinkAttribute] { Self.parse(payload, from: 0) }

    /// The wire form: header and payload, padded to a multiple of four bytes.
    package var bytes: [UInt8] {
        var bytes: [UInt8] = []
        NetlinkBytes.append(UInt16(truncatingIfNeeded: Netlink.attributeHeaderSize + payload.count), to: &bytes)
        NetlinkBytes.append(type, to: &bytes)
        bytes.append(contentsOf: payload)
        while bytes.count % 4 != 0 { bytes.append(0) }
        return bytes
    }

    /// Reads the attributes that start at `offset`, stopping at the first impossible length.
    ///
    /// Never traps: any byte sequence and any offset give some (possibly empty) list.
    package static func parse(_ bytes: [UInt8], from offset: Int) -> [NetlinkAttribute] {
        guard offset >= 0 else { return [] }
        var attributes: [NetlinkAttribute] = []
        var offset = offset
        while bytes.count - offset >= Netlink.attributeHeaderSize {
            guard let rawLength = NetlinkBytes.load(UInt16.self, from: bytes, at: offset),
                let type = NetlinkBytes.load(UInt16.self, from: bytes, at: offset + 2)
            else { break }
            let length = Int(rawLength)
            guard length >= Netlink.attributeHeaderSize, length <= bytes.count - offset,
                let aligned = Netlink.align(length)
            else { break }
            let payload = Array(bytes[(offset + Netlink.attributeHeaderSize)..<(offset + length)])
            attributes.append(NetlinkAttribute(type: type & Netlink.attributeTypeMask, payload: payload))
            offset += min(aligned, bytes.count - offset)
        }
        return attributes
    }
}
