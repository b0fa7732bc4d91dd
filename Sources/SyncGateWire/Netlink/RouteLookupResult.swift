/// The kernel's answer to one `RTM_GETROUTE` lookup.
package enum RouteLookupResult: Sendable, Hashable {
    /// The FIB entry that would carry traffic to the probe address.
    case route(NetlinkRoute)
    /// An `NLMSG_ERROR` with this (positive) errno, such as `ENETUNREACH`: no route.
    case failed(errno: Int32)
    /// No answer arrived (the request could not be sent, or timed out): treated as no route.
    case noAnswer

    /// The answer to the request with `sequence` among `messages`, or `nil` when none of them is it.
    ///
    /// An acknowledgement (error code 0) is not an answer; a route message of another sequence is ignored.
    package static func answer(in messages: [NetlinkMessage], sequence: UInt32) -> RouteLookupResult? {
        for message in messages where message.sequence == sequence {
            if let code = message.errorCode, code != 0 {
                return .failed(errno: code)
            }
            if message.type == Netlink.MessageType.newRoute, let route = NetlinkRoute.decode(message) {
                return .route(route)
            }
        }
        return nil
    }

    /// The route, when the lookup found one.
    package var route: NetlinkRoute? {
        if case .route(let route) = self { return route }
        return nil
    }
}
