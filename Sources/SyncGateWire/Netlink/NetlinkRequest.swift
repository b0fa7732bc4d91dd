/// Builds the requests the connectivity backend sends on its query socket.
package enum NetlinkRequest {
    /// `RTM_GETLINK` with `NLM_F_DUMP`: every link, as a multi-part reply ending in `NLMSG_DONE`.
    package static func linkDump(sequence: UInt32) -> [UInt8] {
        NetlinkMessage(
            type: Netlink.MessageType.getLink,
            flags: Netlink.MessageFlag.request | Netlink.MessageFlag.dump,
            sequence: sequence,
            payload: linkHeader(index: 0)
        ).bytes
    }

    /// `RTM_GETRULE` with `NLM_F_DUMP` and family `AF_UNSPEC`: every routing policy rule of every family, as
    /// a multi-part reply ending in `NLMSG_DONE`.
    package static func ruleDump(sequence: UInt32) -> [UInt8] {
        NetlinkMessage(
            type: Netlink.MessageType.getRule,
            flags: Netlink.MessageFlag.request | Netlink.MessageFlag.dump,
            sequence: sequence,
            payload: [UInt8](repeating: 0, count: Netlink.ruleHeaderSize)
        ).bytes
    }

    /// `RTM_GETLINK` for one interface index: one `RTM_NEWLINK` or an error.
    package static func getLink(index: Int32, sequence: UInt32) -> [UInt8] {
        NetlinkMessage(
            type: Netlink.MessageType.getLink,
            flags: Netlink.MessageFlag.request,
            sequence: sequence,
            payload: linkHeader(index: index)
        ).bytes
    }

    /// `RTM_GETROUTE` with `RTM_F_FIB_MATCH` for one destination (4 bytes IPv4, 16 bytes IPv6, network
    /// order): the FIB entry that would carry traffic there, or an error. Nothing is sent to it.
    ///
    /// - Returns: `nil` when `destination` is neither 4 nor 16 bytes long.
    package static func routeLookup(destination: [UInt8], sequence: UInt32) -> [UInt8]? {
        let family: UInt8
        switch destination.count {
        case 4: family = Netlink.familyIPv4
        case 16: family = Netlink.familyIPv6
        default: return nil
        }
        var payload: [UInt8] = [family, UInt8(destination.count * 8), 0, 0, 0, 0, 0, 0]
        NetlinkBytes.append(Netlink.RouteFlag.fibMatch, to: &payload)
        payload += NetlinkAttribute(type: Netlink.RouteAttribute.destination, payload: destination).bytes
        return NetlinkMessage(
            type: Netlink.MessageType.getRoute,
            flags: Netlink.MessageFlag.request,
            sequence: sequence,
            payload: payload
        ).bytes
    }

    /// An `ifinfomsg` of family `AF_UNSPEC` for `index` (0: all), all other fields zero.
    private static func linkHeader(index: Int32) -> [UInt8] {
        var header = [UInt8](repeating: 0, count: Netlink.linkHeaderSize)
        NetlinkBytes.store(index, into: &header, at: 4)
        return header
    }
}
