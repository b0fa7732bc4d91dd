import SyncGateCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The default routes of the kernel's main routing table, read from `/proc/net/route` (IPv4) and
/// `/proc/net/ipv6_route` (IPv6), and the one of each family the kernel picks.
///
/// These files need no socket, so they can be read where rtnetlink cannot be opened (a service whose
/// systemd unit sets `RestrictAddressFamilies=` without `AF_NETLINK`). They show the main table only: with
/// policy routing (`ip rule`), the route a lookup finds may be another.
package enum DefaultRouteTable {
    /// One default route of the main table.
    package struct Route: Sendable, Hashable {
        /// The interface it leaves through; `nil` for a route without one (a `blackhole` or `throw`
        /// route, which the files show as `*`).
        package var interface: String?
        /// Its metric: of two default routes, the kernel uses the one with the lower metric.
        package var metric: UInt64
        /// Whether it refuses traffic (`RTF_REJECT`: an `unreachable` or `prohibit` route, and the IPv6
        /// table's built-in `unreachable` default on `lo`).
        package var rejects: Bool

        /// Creates a route from its parts.
        package init(interface: String?, metric: UInt64, rejects: Bool = false) {
            self.interface = interface
            self.metric = metric
            self.rejects = rejects
        }

        /// The interface traffic leaves through: `nil` when the route refuses or drops it.
        package var carrier: String? { rejects ? nil : interface }
    }

    /// `RTF_UP`: the route is usable.
    private static let routeUp: UInt64 = 0x0001
    /// `RTF_REJECT`: the route refuses traffic.
    private static let routeReject: UInt64 = 0x0200

    /// The IPv4 default routes that are up or refuse traffic, in the order of `/proc/net/route` text.
    package static func ipv4Routes(in text: String) -> [Route] {
        text.split(separator: "\n").dropFirst().compactMap { line in
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count >= 8,
                fields[1] == "00000000", fields[7] == "00000000",
                let flags = UInt64(fields[3], radix: 16), flags & (routeUp | routeReject) != 0,
                let metric = UInt64(fields[6])
            else { return nil }
            return Route(
                interface: fields[0] == "*" ? nil : String(fields[0]), metric: metric,
                rejects: flags & routeReject != 0)
        }
    }

    /// The IPv6 default routes that are up or refuse traffic, in the order of `/proc/net/ipv6_route` text.
    package static func ipv6Routes(in text: String) -> [Route] {
        let zeros = String(repeating: "0", count: 32)
        return text.split(separator: "\n").compactMap { line in
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count >= 10,
                fields[0] == zeros, fields[1] == "00",
                let metric = UInt64(fields[5], radix: 16),
                // A refusing route lacks `RTF_UP` here (the IPv4 table shows both).
                let flags = UInt64(fields[8], radix: 16), flags & (routeUp | routeReject) != 0
            else { return nil }
            return Route(
                interface: fields[9] == "*" ? nil : String(fields[9]), metric: metric,
                rejects: flags & routeReject != 0)
        }
    }

    /// The route the kernel uses among `routes`: the lowest metric, the first listed on a tie.
    package static func preferred(_ routes: [Route]) -> Route? {
        routes.enumerated().min { ($0.element.metric, $0.offset) < ($1.element.metric, $1.offset) }?.element
    }

    /// The interface that IPv4 traffic to the internet leaves through, from `/proc/net/route` text;
    /// `nil` when there is no default route or the preferred one refuses or drops traffic.
    package static func ipv4Interface(in text: String) -> String? {
        preferred(ipv4Routes(in: text))?.carrier
    }

    /// The interface that IPv6 traffic to the internet leaves through, from `/proc/net/ipv6_route` text;
    /// `nil` when the preferred default route refuses or drops traffic (as the built-in one on `lo` does).
    package static func ipv6Interface(in text: String) -> String? {
        preferred(ipv6Routes(in: text))?.carrier
    }

    /// The default route's interface on this machine (IPv4 first, then IPv6), or `nil`.
    package static func currentInterfaceName(procRoot: String = "/proc") -> String? {
        if let text = readFile(procRoot + "/net/route"), let name = ipv4Interface(in: text) { return name }
        if let text = readFile(procRoot + "/net/ipv6_route"), let name = ipv6Interface(in: text) { return name }
        return nil
    }

    /// The contents of the file at `path`, or why it could not be read.
    package static func read(_ path: String) -> Result<String, FileReadError> {
        guard let file = fopen(path, "re") else { return .failure(FileReadError(path: path, code: errno)) }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count <= 0 { break }
            bytes += buffer[0..<count]
        }
        if ferror(file) != 0 { return .failure(FileReadError(path: path, code: errno != 0 ? errno : EIO)) }
        return .success(String(decoding: bytes, as: UTF8.self))
    }

    private static func readFile(_ path: String) -> String? {
        try? read(path).get()
    }

    /// A file that could not be read: its path and the `errno` value.
    package struct FileReadError: Error, Sendable, Hashable, CustomStringConvertible {
        package var path: String
        package var code: Int32

        /// `cannot read /proc/net/route: No such file or directory (errno 2)`.
        package var description: String { "cannot read \(path): \(SystemErrorText.described(code))" }
    }
}
