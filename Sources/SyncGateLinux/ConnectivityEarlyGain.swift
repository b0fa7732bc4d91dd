import SyncGateCore
import SyncGateWire

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The status a new default route announces while the network is down, published before the probe
/// lookups confirm it: the pure rule of the reader's early gain.
///
/// The reader decides connectivity from fresh route lookups; a lookup costs a round trip through the
/// kernel on the path from a route's appearance to the status. When nothing routed the probes before
/// (both lookups answered `ENETUNREACH`: no table of any rule held a route to them) and the routing
/// policy is the plain one (every rule of the family looks a table up, with no selector and no
/// suppression, and one of them looks up the main table), a unicast default route added to the main
/// table is exactly what the next lookup finds. Its status can then be published from the announcement
/// alone; the lookup that follows publishes its own answer at once, so a status announced early is
/// never kept against the kernel's.
///
/// No early status when: the published status is connected; the route is not a single-path unicast
/// default route of the main table, or is dead or linkdown; its link is unknown, unusable or not
/// classified yet; the family's last lookup did not answer `ENETUNREACH`; an IPv6 route while the IPv4
/// lookup is to be made again (IPv4 is preferred); or the rules are not known to be plain.
package enum ConnectivityEarlyGain {
    /// Whether `rules` (a dump of every family's rules) let a default route of the main table answer a
    /// lookup of `family` that no table answered before: each rule of the family is a plain lookup, and
    /// one of them looks up the main table.
    package static func rulesAllow(_ rules: [NetlinkRule], family: UInt8) -> Bool {
        let own = rules.filter { $0.family == family }
        return own.allSatisfy(\.isPlainLookup) && own.contains { $0.table == Netlink.RouteTable.main }
    }

    /// The status `route`'s announcement gives, or `nil` when it cannot be published before a lookup.
    ///
    /// - Parameters:
    ///   - route: a route announced by `RTM_NEWROUTE`.
    ///   - published: the status published last.
    ///   - ipv4, ipv6: the last answers of the two probe lookups.
    ///   - ipv4Pending: whether the IPv4 lookup is to be made again (a hint changed its family).
    ///   - rulesAllow: whether the rules are plain for a family (``rulesAllow(_:family:)``).
    ///   - links: the link cache.
    ///   - kinds: the links classified so far; a link not in it gives no early status (classifying reads
    ///     sysfs, which the early path never does).
    package static func status(
        announcedBy route: NetlinkRoute,
        published: ConnectivityStatus,
        ipv4: RouteLookupResult,
        ipv6: RouteLookupResult,
        ipv4Pending: Bool,
        rulesAllow: (UInt8) -> Bool,
        links: [Int32: NetlinkLink],
        kinds: [Int32: LinuxInterfaceKind]
    ) -> ConnectivityStatus? {
        guard !published.isConnected, route.destinationLength == 0, route.table == Netlink.RouteTable.main,
            route.nextHops.isEmpty, let index = route.outputInterface, route.candidateInterfaces == [index],
            rulesAllow(route.family)
        else { return nil }
        let noRoute = RouteLookupResult.failed(errno: ENETUNREACH)
        let lookups: (ipv4: RouteLookupResult, ipv6: RouteLookupResult)
        switch route.family {
        case Netlink.familyIPv4 where ipv4 == noRoute:
            lookups = (.route(route), ipv6)
        case Netlink.familyIPv6 where ipv6 == noRoute && !ipv4Pending:
            lookups = (ipv4, .route(route))
        default:
            return nil
        }
        guard let link = ConnectivityEvaluator.reportingLink(ipv4: lookups.ipv4, ipv6: lookups.ipv6, links: links),
            link.index == index, let kind = kinds[index]
        else { return nil }
        return ConnectivityEvaluator.status(through: link, kind: kind)
    }
}
