import SyncGateCore
import SyncGateWire

/// The pure rule that turns route lookups and the link cache into a ``ConnectivityStatus``.
///
/// Connected ⇔ a lookup found a unicast route that is neither dead nor linkdown, through a cached link
/// that is up, running (or lower-up), not loopback, with operational state up or unknown. IPv4 is
/// preferred; when only IPv6 has such a route, its links are the ones reported.
///
/// A multipath route (`RTA_MULTIPATH`) is usable through each of its next hops that is neither dead
/// nor linkdown and whose link is usable: the first of them in the route's order is the reporting link,
/// whose kind is the status's ``ConnectivityStatus/interface`` and whose name is
/// ``SyncNetwork/interfaceName``; the others follow in ``SyncNetwork/otherNextHops``, each link once, so an
/// allowlist naming any of them matches. The metered guess is the most expensive hop's: the kernel
/// spreads connections over all of them, so a route with a cellular next hop sends some traffic over
/// it, and a job that needs ``SyncRequirements/unmetered`` waits.
package enum ConnectivityEvaluator {
    /// The link that carries traffic, or `nil` when neither family has a usable route.
    package static func reportingLink(
        ipv4: RouteLookupResult,
        ipv6: RouteLookupResult,
        links: [Int32: NetlinkLink]
    ) -> NetlinkLink? {
        usableLinks(ipv4: ipv4, ipv6: ipv6, links: links).first
    }

    /// Every usable link of the preferred family's route, in the route's order, each once: the reporting
    /// link first, then a multipath route's other usable next hops; empty when neither family has a
    /// usable route.
    package static func usableLinks(
        ipv4: RouteLookupResult,
        ipv6: RouteLookupResult,
        links: [Int32: NetlinkLink]
    ) -> [NetlinkLink] {
        for lookup in [ipv4, ipv6] {
            guard let route = lookup.route else { continue }
            var usable: [NetlinkLink] = []
            for index in route.candidateInterfaces where !usable.contains(where: { $0.index == index }) {
                if let link = links[index], link.isUsable { usable.append(link) }
            }
            if !usable.isEmpty { return usable }
        }
        return []
    }

    /// The status for the given lookups and links, classifying each usable link with `classify`.
    package static func status(
        ipv4: RouteLookupResult,
        ipv6: RouteLookupResult,
        links: [Int32: NetlinkLink],
        classify: (NetlinkLink) -> LinuxInterfaceKind
    ) -> ConnectivityStatus {
        let usable = usableLinks(ipv4: ipv4, ipv6: ipv6, links: links)
        guard let link = usable.first else { return .disconnected }
        let others = usable.dropFirst().map { (link: $0, kind: classify($0)) }
        return status(through: link, kind: classify(link), otherNextHops: others)
    }

    /// The status of a path through `link`, the reporting link, whose kind is `kind`, with a multipath
    /// route's other usable next hops `otherNextHops` (their links and kinds, in the route's order).
    package static func status(
        through link: NetlinkLink, kind: LinuxInterfaceKind,
        otherNextHops: [(link: NetlinkLink, kind: LinuxInterfaceKind)] = []
    ) -> ConnectivityStatus {
        let hops = otherNextHops.map { hop in
            SyncNetwork.NextHop(interfaceName: hop.link.name ?? "", interface: hop.kind.interface)
        }
        let anyExpensive = kind.isExpensive || otherNextHops.contains { $0.kind.isExpensive }
        return kind.connectedStatus(guessingMetered: anyExpensive).with(
            network: SyncNetwork(interfaceName: link.name, otherNextHops: hops))
    }
}
