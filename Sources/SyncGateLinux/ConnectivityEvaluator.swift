import SyncGateCore
import SyncGateWire

/// The pure rule that turns route lookups and the link cache into a ``ConnectivityStatus``.
///
/// Connected ⇔ a lookup found a unicast route that is neither dead nor linkdown, through a cached link
/// that is up, running (or lower-up), not loopback, with operational state up or unknown. IPv4 is
/// preferred; when only IPv6 has such a route, its link is the one reported, and its name is the
/// status's ``SyncNetwork/interfaceName``.
package enum ConnectivityEvaluator {
    /// The link that carries traffic, or `nil` when neither family has a usable route.
    package static func reportingLink(
        ipv4: RouteLookupResult,
        ipv6: RouteLookupResult,
        links: [Int32: NetlinkLink]
    ) -> NetlinkLink? {
        for lookup in [ipv4, ipv6] {
            guard let route = lookup.route else { continue }
            for index in route.candidateInterfaces {
                if let link = links[index], link.isUsable {
                    return link
                }
            }
        }
        return nil
    }

    /// The status for the given lookups and links, classifying the reporting link with `classify`.
    package static func status(
        ipv4: RouteLookupResult,
        ipv6: RouteLookupResult,
        links: [Int32: NetlinkLink],
        classify: (NetlinkLink) -> LinuxInterfaceKind
    ) -> ConnectivityStatus {
        guard let link = reportingLink(ipv4: ipv4, ipv6: ipv6, links: links) else { return .disconnected }
        return status(through: link, kind: classify(link))
    }

    /// The status of a path through `link`, the reporting link, whose kind is `kind`.
    package static func status(through link: NetlinkLink, kind: LinuxInterfaceKind) -> ConnectivityStatus {
        kind.connectedStatus.with(network: SyncNetwork(interfaceName: link.name))
    }
}
