/// One netlink message: the `nlmsghdr` fields and the payload that follows the header.
package struct NetlinkMessage: Sendable, Hashable {
    /// `nlmsg_type`.
    package var type: UInt16
    /// `nlmsg_flags`.
    package var flags: UInt16
    /// `nlmsg_seq`.
    package var sequence: UInt32
    /// `nlmsg_pid`: the sender's port id (0 for the kernel).
    package var portID: UInt32
    /// The bytes after the 16-byte header, up to `nlmsg_len`.
    package var payload: [UInt8]

    /// Creates a message from its parts.
    package init(type: UInt16, flags: UInt16 = 0, sequence: UInt32 = 0, portID: UInt32 = 0, payload: [UInt8] = []) {
        self.type = type
        self.flags = flags
        self.sequence = sequence
        self.portID = portID
        self.payload = payload
    }

    /// The `-errno` of an `NLMSG_ERROR` message turned positive, `0` for an acknowledgement, or `nil`
    /// when this is not an error message (or it is too short to carry a code).
    package var errorCode: Int32? {
        guard type == Netlink.MessageType.error,
            let raw = NetlinkBytes.load(Int32.self, from: payload, at: 0)
        else { return nil }
        return raw == .min ? .max : -raw
    }

    /// Whether the message reports lost data: `NLMSG_OVERRUN`, or an error carrying `ENOBUFS`.
    package var reportsOverflow: Bool {
        type == Netlink.MessageType.overrun || errorCode == Netlink.ErrorCode.noBufferSpace
    }

    /// Whether the message belongs to a dump that was interrupted by a concurrent change.
    package var isDumpInterrupted: Bool {
        flags & Netlink.MessageFlag.dumpInterrupted != 0
    }

    /// The wire form: header and payload, padded to a multiple of four bytes.
    package var bytes: [UInt8] {
        var bytes: [UInt8] = []
        let length = Netlink.headerSize + payload.count
        bytes.reserveCapacity(length + 3)
        NetlinkBytes.append(UInt32(truncatingIfNeeded: length), to: &bytes)
        NetlinkBytes.append(type, to: &bytes)
        NetlinkBytes.append(flags, to: &bytes)
        NetlinkBytes.append(sequence, to: &bytes)
        NetlinkBytes.append(portID, to: &bytes)
        bytes.append(contentsOf: payload)
        while bytes.count % 4 != 0 { bytes.append(0) }
        return bytes
    }

    /// The messages of one datagram, in order, and whether the datagram ended in malformed bytes.
    package struct Datagram: Sendable, Hashable {
        /// The well-formed messages, up to the first malformed header.
        package var messages: [NetlinkMessage]
        /// Whether bytes were left that do not form a message (a bad or truncated length).
        package var isMalformed: Bool
    }

    /// Splits a datagram into messages; stops at the first header whose length is impossible.
    ///
    /// Never traps: any byte sequence gives some (possibly empty) list of messages.
    package static func parse(_ bytes: [UInt8]) -> Datagram {
        var messages: [NetlinkMessage] = []
        var offset = 0
        while bytes.count - offset >= Netlink.headerSize {
            guard let rawLength = NetlinkBytes.load(UInt32.self, from: bytes, at: offset),
                let length = Int(exactly: rawLength),
                length >= Netlink.headerSize, length <= bytes.count - offset,
                let type = NetlinkBytes.load(UInt16.self, from: bytes, at: offset + 4),
                let flags = NetlinkBytes.load(UInt16.self, from: bytes, at: offset + 6),
                let sequence = NetlinkBytes.load(UInt32.self, from: bytes, at: offset + 8),
                let portID = NetlinkBytes.load(UInt32.self, from: bytes, at: offset + 12),
                let aligned = Netlink.align(length)
            else {
                return Datagram(messages: messages, isMalformed: true)
            }
            let payload = Array(bytes[(offset + Netlink.headerSize)..<(offset + length)])
            messages.append(
                NetlinkMessage(type: type, flags: flags, sequence: sequence, portID: portID, payload: payload)
            )
            offset += min(aligned, bytes.count - offset)
        }
        return Datagram(messages: messages, isMalformed: offset < bytes.count && bytes[offset...].contains { $0 != 0 })
    }
}
