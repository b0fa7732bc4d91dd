/// A route decoded from `RTM_NEWROUTE` or `RTM_DELROUTE`: the fields that decide whether it carries traffic,
/// and those that name its entry in the routing table.
package struct NetlinkRoute: Sendable, Hashable {
    /// One next hop of a multipath route (`rtnexthop`).
    package struct NextHop: Sendable, Hashable {
        /// `rtnh_flags` (`RTNH_F_*`).
        package var flags: UInt32
        /// `rtnh_ifindex`.
        package var interfaceIndex: Int32

        /// Creates a next hop from its parts.
        package init(flags: UInt32, interfaceIndex: Int32) {
            self.flags = flags
            self.interfaceIndex = interfaceIndex
        }
    }

    /// `rtm_family`.
    package var family: UInt8
    /// `rtm_dst_len`: the prefix length of the destination.
    package var destinationLength: UInt8
    /// `rtm_table`, or `RTA_TABLE` when present.
    package var table: UInt32
    /// `rtm_type` (`RTN_*`).
    package var type: UInt8
    /// `rtm_flags` (`RTM_F_*` and `RTNH_F_*`).
    package var flags: UInt32
    /// `RTA_OIF`, when present.
    package var outputInterface: Int32?
    /// The entries of `RTA_MULTIPATH`; empty for a single-path route.
    package var nextHops: [NextHop]
    /// `RTA_DST`: the destination prefix's bytes; empty for a default route.
    package var destination: [UInt8] = []
    /// `RTA_GATEWAY`: the gateway's address bytes; empty when the route has none.
    package var gateway: [UInt8] = []
    /// `RTA_PRIORITY`: the route's metric, when present.
    package var priority: UInt32?

    /// What names one entry of the kernel's routing table: the same entry announced by `RTM_DELROUTE`
    /// and answered by a lookup with `RTM_F_FIB_MATCH` has the same key (flags and next-hop states,
    /// which describe the entry's condition rather than which entry it is, are left out).
    package struct EntryKey: Sendable, Hashable {
        let family: UInt8
        let destination: [UInt8]
        let destinationLength: UInt8
        let table: UInt32
        let type: UInt8
        let priority: UInt32
        let gateway: [UInt8]
        let outputInterface: Int32?
        let nextHopInterfaces: [Int32]
    }

    /// This route's entry key.
    package var entryKey: EntryKey {
        EntryKey(
            family: family, destination: destination, destinationLength: destinationLength, table: table,
            type: type, priority: priority ?? 0, gateway: gateway, outputInterface: outputInterface,
            nextHopInterfaces: nextHops.map(\.interfaceIndex))
    }

    /// Creates a route from its parts.
    package init(
        family: UInt8,
        destinationLength: UInt8 = 0,
        table: UInt32 = 254,
        type: UInt8 = Netlink.RouteType.unicast,
        flags: UInt32 = 0,
        outputInterface: Int32? = nil,
        nextHops: [NextHop] = []
    ) {
        self.family = family
        self.destinationLength = destinationLength
        self.table = table
        self.type = type
        self.flags = flags
        self.outputInterface = outputInterface
        self.nextHops = nextHops
    }

    /// The interfaces this route can send through, in order: the usable next hops of a multipath
    /// route, else its output interface. Empty when the route is not unicast, or is dead or linkdown.
    package var candidateInterfaces: [Int32] {
        let broken = Netlink.RouteFlag.dead | Netlink.RouteFlag.linkDown
        guard type == Netlink.RouteType.unicast, flags & broken == 0 else { return [] }
        if !nextHops.isEmpty {
            return nextHops.filter { $0.flags & broken == 0 }.map(\.interfaceIndex)
        }
        return outputInterface.map { [$0] } ?? []
    }

    /// Decodes an `RTM_NEWROUTE` or `RTM_DELROUTE` message; `nil` for anything else.
    package static func decode(_ message: NetlinkMessage) -> NetlinkRoute? {
        guard message.type == Netlink.MessageType.newRoute || message.type == Netlink.MessageType.deleteRoute
        else { return nil }
        let payload = message.payload
        guard payload.count >= Netlink.routeHeaderSize,
            let flags = NetlinkBytes.load(UInt32.self, from: payload, at: 8)
        else { return nil }
        var route = NetlinkRoute(
            family: payload[0],
            destinationLength: payload[1],
            table: UInt32(payload[4]),
            type: payload[7],
            flags: flags
        )
        for attribute in NetlinkAttribute.parse(payload, from: Netlink.routeHeaderSize) {
            switch attribute.type {
            case Netlink.RouteAttribute.outputInterface:
                route.outputInterface = attribute.uint32.map { Int32(bitPattern: $0) }
            case Netlink.RouteAttribute.table:
                if let table = attribute.uint32 { route.table = table }
            case Netlink.RouteAttribute.multipath:
                route.nextHops = parseNextHops(attribute.payload)
            case Netlink.RouteAttribute.destination:
                route.destination = attribute.payload
            case Netlink.RouteAttribute.gateway:
                route.gateway = attribute.payload
            case Netlink.RouteAttribute.priority:
                route.priority = attribute.uint32
            default:
                break
            }
        }
        return route
    }

    /// Reads the `rtnexthop` list of `RTA_MULTIPATH`, stopping at the first impossible length.
    package static func parseNextHops(_ bytes: [UInt8]) -> [NextHop] {
        var hops: [NextHop] = []
        var offset = 0
        while bytes.count - offset >= Netlink.nextHopHeaderSize {
            guard let rawLength = NetlinkBytes.load(UInt16.self, from: bytes, at: offset),
                let index = NetlinkBytes.load(Int32.self, from: bytes, at: offset + 4)
            else { break }
            let length = Int(rawLength)
            guard length >= Netlink.nextHopHeaderSize, length <= bytes.count - offset,
                let aligned = Netlink.align(length)
            else { break }
            hops.append(NextHop(flags: UInt32(bytes[offset + 2]), interfaceIndex: index))
            offset += min(aligned, bytes.count - offset)
        }
        return hops
    }
}
