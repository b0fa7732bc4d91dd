#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Finds the name of the interface that carries the default route, from `/proc/net/route` and
/// `/proc/net/ipv6_route`.
///
/// SyncGate's ``SyncGate/ConnectivityObserver`` reports the kind of the interface (Wi-Fi, Ethernet, …)
/// but not its name, so `syncgate status` reads the name here, from the same kernel routing table; in
/// setups with policy routing the default route may differ from the route the observer looked up.
package enum DefaultRouteTable {
    /// The interface of the lowest-metric IPv4 default route that is up, from `/proc/net/route` text.
    package static func ipv4Interface(in text: String) -> String? {
        var best: (name: String, metric: UInt64)?
        for line in text.split(separator: "\n").dropFirst() {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count >= 8,
                fields[1] == "00000000", fields[7] == "00000000",
                let flags = UInt64(fields[3], radix: 16), flags & 0x1 != 0,
                let metric = UInt64(fields[6])
            else { continue }
            if best == nil || metric < best!.metric { best = (String(fields[0]), metric) }
        }
        return best?.name
    }

    /// The interface of the lowest-metric IPv6 default route that is up and not on `lo`, from
    /// `/proc/net/ipv6_route` text.
    package static func ipv6Interface(in text: String) -> String? {
        var best: (name: String, metric: UInt64)?
        for line in text.split(separator: "\n") {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count >= 10,
                fields[0] == String(repeating: "0", count: 32), fields[1] == "00",
                fields[9] != "lo",
                let metric = UInt64(fields[5], radix: 16),
                let flags = UInt64(fields[8], radix: 16), flags & 0x1 != 0
            else { continue }
            if best == nil || metric < best!.metric { best = (String(fields[9]), metric) }
        }
        return best?.name
    }

    /// The default route's interface on this machine (IPv4 first, then IPv6), or `nil`.
    package static func currentInterfaceName(procRoot: String = "/proc") -> String? {
        if let text = readFile(procRoot + "/net/route"), let name = ipv4Interface(in: text) { return name }
        if let text = readFile(procRoot + "/net/ipv6_route"), let name = ipv6Interface(in: text) { return name }
        return nil
    }

    private static func readFile(_ path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count <= 0 { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
