/// The networks a job may run on: "only on my home Wi-Fi or the office Ethernet".
///
/// It holds when the device is connected and the network in use (``ConnectivityStatus/network`` and
/// ``ConnectivityStatus/interface``) matches any of its matchers. A multipath default route is in use
/// through each of its next hops: an interface name or type matches when any next hop's interface does
/// (the first one's, ``SyncNetwork/interfaceName`` and ``ConnectivityStatus/interface``, or one of
/// ``SyncNetwork/otherNextHops``). A job takes one as
/// ``SyncJobOptions/allowedNetworks``; ``SyncEnvironment/waitUntil(_:allowedNetworks:conditions:timeout:)``
/// waits for one.
///
/// ```swift
/// let homeOrOffice = SyncNetworkAllowlist([.ssid("Home"), .connection("Office"), .interface("eth*")])
/// ```
///
/// A matcher of a fact no source reports never matches: on Apple platforms only
/// ``Matcher/interfaceType(_:)`` can (see ``SyncNetwork``). The text form (``description``,
/// ``init(parsing:)``) is what the `syncgate` tool's `--network` takes: matchers separated by commas,
/// `type:`, `ssid:`, `connection:` or `interface:` before a value, a bare value an interface name or
/// pattern, and `\` escaping a comma or a backslash in a value.
public struct SyncNetworkAllowlist: Sendable, Hashable, CustomStringConvertible {
    /// One way a network can be allowed.
    public enum Matcher: Sendable, Hashable, CustomStringConvertible {
        /// The default route's interface name matches the pattern: `*` stands for any run of characters
        /// and `?` for one character; every other character stands for itself (`wlan0`, `wl*`, `eth?`).
        /// For a multipath route, any next hop's name may match (``SyncNetwork/otherNextHops``).
        case interface(String)
        /// The interface is of the kind (``ConnectivityStatus/interface``): the one matcher Apple
        /// platforms can decide. For a multipath route, any next hop's kind may match.
        case interfaceType(ConnectionInterface)
        /// The connection manager's connection name is exactly this (NetworkManager's connection `Id`).
        case connection(String)
        /// The Wi-Fi network's SSID is exactly this.
        case ssid(String)

        /// Whether the network in use matches; a connected status only (``SyncNetworkAllowlist/matches(_:)``
        /// checks that).
        public func matches(_ status: ConnectivityStatus) -> Bool {
            switch self {
            case .interface(let pattern):
                let names =
                    [status.network.interfaceName].compactMap { $0 }
                    + status.network.otherNextHops.map(\.interfaceName)
                let scalars = Array(pattern.unicodeScalars)
                return names.contains { Self.glob(scalars, Array($0.unicodeScalars)) }
            case .interfaceType(let type):
                return status.interface == type || status.network.otherNextHops.contains { $0.interface == type }
            case .connection(let id): return status.network.connectionID == id
            case .ssid(let ssid): return status.network.ssid == ssid
            }
        }

        /// The matcher's text, as ``SyncNetworkAllowlist/init(parsing:)`` reads it: `wl*`, `type:wifi`,
        /// `connection:Office`, `ssid:Home` (a value that would read as a prefix is written with
        /// `interface:`; commas and backslashes in a value are escaped).
        public var description: String {
            switch self {
            case .interface(let pattern):
                let prefixed = SyncNetworkAllowlist.prefixes.contains { pattern.hasPrefix($0 + ":") }
                return (prefixed ? "interface:" : "") + SyncNetworkAllowlist.escaped(pattern)
            case .interfaceType(let type): return "type:\(type)"
            case .connection(let id): return "connection:" + SyncNetworkAllowlist.escaped(id)
            case .ssid(let ssid): return "ssid:" + SyncNetworkAllowlist.escaped(ssid)
            }
        }

        /// The matched value: the pattern, the kind's name, the connection name or the SSID.
        var value: String {
            switch self {
            case .interface(let value), .connection(let value), .ssid(let value): value
            case .interfaceType(let type): type.description
            }
        }

        /// A shell-style match of `*` and `?` over Unicode scalars, iterative with one backtrack point.
        private static func glob(_ pattern: [Unicode.Scalar], _ name: [Unicode.Scalar]) -> Bool {
            var (p, n) = (0, 0)
            var star: (p: Int, n: Int)?
            while n < name.count {
                if p < pattern.count && (pattern[p] == "?" || (pattern[p] != "*" && pattern[p] == name[n])) {
                    p += 1
                    n += 1
                } else if p < pattern.count && pattern[p] == "*" {
                    star = (p, n)
                    p += 1
                } else if let last = star {
                    p = last.p + 1
                    n = last.n + 1
                    star = (last.p, last.n + 1)
                } else {
                    return false
                }
            }
            while p < pattern.count && pattern[p] == "*" { p += 1 }
            return p == pattern.count
        }
    }

    /// The matchers, in the order given; the list holds when any matches.
    public let matchers: [Matcher]

    /// Creates a list; it must not be empty, and every value must be non-empty and at most
    /// ``maximumValueBytes`` long (``SyncJobOptions`` refuses a job otherwise).
    public init(_ matchers: [Matcher]) {
        self.matchers = matchers
    }

    /// The most matchers one list may have.
    public static let maximumMatchers = 64
    /// The most UTF-8 bytes one matcher's value may have.
    public static let maximumValueBytes = 255

    /// Whether the device is connected and the network in use matches any matcher.
    public func matches(_ status: ConnectivityStatus) -> Bool {
        status.isConnected && matchers.contains { $0.matches(status) }
    }

    /// The matchers' texts separated by commas: `wlan0,type:wifi,ssid:Home` (see ``init(parsing:)``).
    public var description: String {
        matchers.map(\.description).joined(separator: ",")
    }

    /// The first problem with the list, naming it and the value, or `nil` when it is valid: empty, more
    /// than ``maximumMatchers``, an empty or overlong value, or ``ConnectionInterface/none`` as a type.
    package var validationError: SyncJobRefusal? {
        if matchers.isEmpty {
            return .option("allowedNetworks", "[]", "allowedNetworks must name at least one network")
        }
        if matchers.count > Self.maximumMatchers {
            return .option(
                "allowedNetworks", "\(matchers.count) networks",
                "allowedNetworks: at most \(Self.maximumMatchers) networks, got \(matchers.count)")
        }
        for matcher in matchers {
            if matcher.value.isEmpty {
                return .option(
                    "allowedNetworks", "\"\(matcher)\"",
                    "allowedNetworks must not contain an empty name, got \"\(matcher)\"")
            }
            if matcher.value.utf8.count > Self.maximumValueBytes {
                return .option(
                    "allowedNetworks", "\(matcher.value.utf8.count) bytes",
                    "allowedNetworks: a name is at most \(Self.maximumValueBytes) bytes, got \(matcher.value.utf8.count)"
                )
            }
            if matcher == .interfaceType(.none) {
                return .option(
                    "allowedNetworks", "\"type:none\"", "allowedNetworks: type:none never matches a connected network")
            }
        }
        return nil
    }
}
