// The rtnetlink constants SyncGate uses, declared by hand from the kernel's UAPI headers.
//
// Why hand-declared rather than a C target that includes <linux/rtnetlink.h>: the codec (the
// SyncGateWire target) must compile on its own, with nothing but the standard library, so the libFuzzer
// target (Fuzz/Netlink) can build it with a single `swiftc` call, and so the package stays pure Swift on
// every platform. The values are ABI (they never change once released); each one is listed with its
// kernel name, and the codec reads and writes fields by byte offset instead of mirroring C structs, so
// nothing relies on Swift's struct layout. Sources: include/uapi/linux/{netlink,rtnetlink,if_link,if_arp,if}.h,
// torvalds/linux.

/// Namespace for the rtnetlink wire constants used by the connectivity backend.
package enum Netlink {
    /// `NETLINK_ROUTE`, the protocol argument of `socket(AF_NETLINK, …)`.
    package static let protocolRoute: Int32 = 0
    /// `AF_NETLINK` / `PF_NETLINK`.
    package static let addressFamily: UInt16 = 16
    /// `AF_UNSPEC`, the family of the link messages the cache accepts.
    package static let familyUnspecified: UInt8 = 0
    /// `AF_INET`.
    package static let familyIPv4: UInt8 = 2
    /// `AF_INET6` (Linux value).
    package static let familyIPv6: UInt8 = 10
    /// `sizeof(struct nlmsghdr)`.
    package static let headerSize = 16
    /// `sizeof(struct ifinfomsg)`.
    package static let linkHeaderSize = 16
    /// `sizeof(struct rtmsg)`.
    package static let routeHeaderSize = 12
    /// `sizeof(struct rtattr)`.
    package static let attributeHeaderSize = 4
    /// `sizeof(struct rtnexthop)`.
    package static let nextHopHeaderSize = 8
    /// `sizeof(struct sockaddr_nl)`.
    package static let socketAddressSize = 12

    /// `NLMSG_ALIGN` / `RTA_ALIGN`: rounds up to a multiple of four, or `nil` on overflow.
    package static func align(_ length: Int) -> Int? {
        let (sum, overflow) = length.addingReportingOverflow(3)
        return overflow ? nil : sum & ~3
    }

    /// `nlmsg_type` values.
    package enum MessageType {
        /// `NLMSG_NOOP`.
        package static let noop: UInt16 = 1
        /// `NLMSG_ERROR`: an error or, with code 0, an acknowledgement.
        package static let error: UInt16 = 2
        /// `NLMSG_DONE`: the end of a dump.
        package static let done: UInt16 = 3
        /// `NLMSG_OVERRUN`: data was lost.
        package static let overrun: UInt16 = 4
        /// `RTM_NEWLINK`.
        package static let newLink: UInt16 = 16
        /// `RTM_DELLINK`.
        package static let deleteLink: UInt16 = 17
        /// `RTM_GETLINK`.
        package static let getLink: UInt16 = 18
        /// `RTM_NEWROUTE`.
        package static let newRoute: UInt16 = 24
        /// `RTM_DELROUTE`.
        package static let deleteRoute: UInt16 = 25
        /// `RTM_GETROUTE`.
        package static let getRoute: UInt16 = 26
        /// `RTM_NEWRULE`.
        package static let newRule: UInt16 = 32
        /// `RTM_DELRULE`.
        package static let deleteRule: UInt16 = 33
        /// `RTM_GETRULE`.
        package static let getRule: UInt16 = 34
    }

    /// `nlmsg_flags` values.
    package enum MessageFlag {
        /// `NLM_F_REQUEST`.
        package static let request: UInt16 = 0x1
        /// `NLM_F_MULTI`: part of a multi-part reply.
        package static let multi: UInt16 = 0x2
        /// `NLM_F_ACK`.
        package static let ack: UInt16 = 0x4
        /// `NLM_F_DUMP_INTR`: the dump was interrupted by a change and is inconsistent.
        package static let dumpInterrupted: UInt16 = 0x10
        /// `NLM_F_DUMP` (`NLM_F_ROOT | NLM_F_MATCH`).
        package static let dump: UInt16 = 0x300
    }

    /// Legacy multicast group bits for `sockaddr_nl.nl_groups`.
    package enum Group {
        /// `RTMGRP_LINK`.
        package static let link: UInt32 = 0x1
        /// `RTMGRP_IPV4_ROUTE`.
        package static let ipv4Route: UInt32 = 0x40
        /// `RTMGRP_IPV6_ROUTE`.
        package static let ipv6Route: UInt32 = 0x400
        /// `RTNLGRP_IPV4_RULE` (group 8) as a legacy bit.
        package static let ipv4Rule: UInt32 = 0x80
        /// `RTNLGRP_IPV6_RULE` (group 19) as a legacy bit.
        package static let ipv6Rule: UInt32 = 0x40000
    }

    /// `rtattr` types of link messages (`IFLA_*`).
    package enum LinkAttribute {
        /// `IFLA_IFNAME`: NUL-terminated interface name.
        package static let name: UInt16 = 3
        /// `IFLA_WIRELESS`: wireless-extension event payload.
        package static let wireless: UInt16 = 11
        /// `IFLA_OPERSTATE`: `u8` RFC 2863 state.
        package static let operationalState: UInt16 = 16
        /// `IFLA_LINKINFO`: nested link information.
        package static let linkInfo: UInt16 = 18
        /// `IFLA_INFO_KIND`, nested in `IFLA_LINKINFO`: the driver kind (`veth`, `bridge`, …).
        package static let infoKind: UInt16 = 1
    }

    /// `rtattr` types of route messages (`RTA_*`).
    package enum RouteAttribute {
        /// `RTA_DST`.
        package static let destination: UInt16 = 1
        /// `RTA_OIF`: `u32` output interface index.
        package static let outputInterface: UInt16 = 4
        /// `RTA_GATEWAY`.
        package static let gateway: UInt16 = 5
        /// `RTA_PRIORITY`: `u32` metric.
        package static let priority: UInt16 = 6
        /// `RTA_MULTIPATH`: a list of `rtnexthop`.
        package static let multipath: UInt16 = 9
        /// `RTA_TABLE`: `u32` table id.
        package static let table: UInt16 = 15
    }

    /// `rtattr` types of routing policy rule messages (`FRA_*`, include/uapi/linux/fib_rules.h).
    package enum RuleAttribute {
        /// `FRA_PRIORITY`: `u32` the rule's place in the list.
        package static let priority: UInt16 = 6
        /// `FRA_SUPPRESS_IFGROUP`: `u32`, all ones when unset.
        package static let suppressInterfaceGroup: UInt16 = 13
        /// `FRA_SUPPRESS_PREFIXLEN`: `u32`, all ones when unset.
        package static let suppressPrefixLength: UInt16 = 14
        /// `FRA_TABLE`: `u32` table id.
        package static let table: UInt16 = 15
        /// `FRA_PROTOCOL`: `u8` who installed the rule.
        package static let protocolOrigin: UInt16 = 21
    }

    /// `fib_rule_hdr.action` values.
    package enum RuleAction {
        /// `FR_ACT_TO_TBL`: look the destination up in a table.
        package static let toTable: UInt8 = 1
    }

    /// `sizeof(struct fib_rule_hdr)`.
    package static let ruleHeaderSize = 12

    /// Routing table ids.
    package enum RouteTable {
        /// `RT_TABLE_MAIN`.
        package static let main: UInt32 = 254
    }

    /// `rtattr.rta_type` bits that are flags, not part of the type (`NLA_TYPE_MASK`).
    package static let attributeTypeMask: UInt16 = 0x3FFF

    /// `rtm_type` values.
    package enum RouteType {
        /// `RTN_UNICAST`.
        package static let unicast: UInt8 = 1
    }

    /// Route and next-hop flags.
    package enum RouteFlag {
        /// `RTNH_F_DEAD`.
        package static let dead: UInt32 = 0x1
        /// `RTNH_F_LINKDOWN`.
        package static let linkDown: UInt32 = 0x10
        /// `RTM_F_FIB_MATCH`: answer a lookup with the matching FIB entry.
        package static let fibMatch: UInt32 = 0x2000
    }

    /// `ifi_flags` values (`IFF_*`).
    package enum InterfaceFlag {
        /// `IFF_UP`.
        package static let up: UInt32 = 0x1
        /// `IFF_LOOPBACK`.
        package static let loopback: UInt32 = 0x8
        /// `IFF_RUNNING`.
        package static let running: UInt32 = 0x40
        /// `IFF_LOWER_UP`.
        package static let lowerUp: UInt32 = 0x10000
    }

    /// `IF_OPER_*` values carried by `IFLA_OPERSTATE`.
    package enum OperationalState {
        /// `IF_OPER_UNKNOWN`: the driver does not report it (virtual devices).
        package static let unknown: UInt8 = 0
        /// `IF_OPER_DOWN`.
        package static let down: UInt8 = 2
        /// `IF_OPER_UP`.
        package static let up: UInt8 = 6
    }

    /// `ifi_type` / sysfs `type` values (`ARPHRD_*`).
    package enum HardwareType {
        /// `ARPHRD_ETHER`.
        package static let ether: Int = 1
        /// `ARPHRD_PPP`.
        package static let ppp: Int = 512
        /// `ARPHRD_RAWIP`.
        package static let rawIP: Int = 519
        /// `ARPHRD_LOOPBACK`.
        package static let loopback: Int = 772
        /// `ARPHRD_NONE`.
        package static let none: Int = 65534
    }

    /// Linux `errno` values that appear in netlink error messages.
    package enum ErrorCode {
        /// `ENOBUFS`: the receive buffer overflowed and messages were lost.
        package static let noBufferSpace: Int32 = 105
        /// `ENETUNREACH`.
        package static let networkUnreachable: Int32 = 101
    }
}
