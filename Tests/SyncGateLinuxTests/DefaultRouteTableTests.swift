import SyncGateLinux
import Testing

/// The default routes read from `/proc/net/route` and `/proc/net/ipv6_route` text, and the one the kernel
/// uses: the lowest metric, whatever its type.
@Suite(.timeLimit(.minutes(1)))
struct DefaultRouteTableTests {
    static let header = "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT"

    /// One line of `/proc/net/route` for a default route.
    static func ipv4(_ interface: String, flags: String, metric: Int) -> String {
        "\(interface)\t00000000\t010200C0\t\(flags)\t0\t0\t\(metric)\t00000000\t0\t0\t0"
    }

    /// A table of IPv4 routes and the interface traffic leaves through, as `ip route` would set them up.
    static let ipv4Cases: [(name: String, lines: [String], expected: String?)] = [
        (
            "the lower metric wins",
            [ipv4("wlan0", flags: "0003", metric: 600), ipv4("eth0", flags: "0003", metric: 100)], "eth0"
        ),
        (
            "the first of two equal metrics wins",
            [ipv4("eth1", flags: "0003", metric: 100), ipv4("eth0", flags: "0003", metric: 100)], "eth1"
        ),
        ("a route not up is not a route", [ipv4("eth1", flags: "0002", metric: 0)], nil),
        ("a subnet route is not a default route", ["eth0\t000200C0\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0"], nil),
        (
            "a blackhole default with a lower metric drops traffic",
            [ipv4("*", flags: "0001", metric: 10), ipv4("eth0", flags: "0003", metric: 50)], nil
        ),
        (
            "an unreachable default with a lower metric refuses it",
            [ipv4("*", flags: "0201", metric: 20), ipv4("eth0", flags: "0003", metric: 50)], nil
        ),
        (
            "a refusing default with a higher metric is not used",
            [ipv4("*", flags: "0201", metric: 900), ipv4("eth0", flags: "0003", metric: 50)], "eth0"
        ),
        ("no routes", [], nil),
    ]

    @Test(arguments: ipv4Cases.indices)
    func readsTheIPv4Table(index: Int) {
        let example = Self.ipv4Cases[index]
        let text = ([Self.header] + example.lines).joined(separator: "\n")
        #expect(DefaultRouteTable.ipv4Interface(in: text) == example.expected, "\(example.name)")
    }

    @Test func emptyTextHasNoRoute() {
        #expect(DefaultRouteTable.ipv4Interface(in: "") == nil)
        #expect(DefaultRouteTable.ipv6Interface(in: "") == nil)
    }

    static let zeros = String(repeating: "0", count: 32)

    /// One line of `/proc/net/ipv6_route` for a default route.
    static func ipv6(_ interface: String, flags: String, metric: String) -> String {
        "\(zeros) 00 \(zeros) 00 fe800000000000000000000000000001 \(metric) 00000001 00000000 \(flags) \(interface)"
    }

    static let ipv6Cases: [(name: String, lines: [String], expected: String?)] = [
        (
            "the lowest metric wins over the built-in unreachable route on lo",
            [
                ipv6("lo", flags: "00200200", metric: "ffffffff"), ipv6("wlan0", flags: "00450003", metric: "00000400"),
                ipv6("eth0", flags: "00450003", metric: "00000064"),
                "fd000000000000000000000000000000 40 \(zeros) 00 \(zeros) 00000100 00000001 00000000 00000001 eth1",
            ], "eth0"
        ),
        ("only the built-in unreachable route", [ipv6("lo", flags: "00200200", metric: "ffffffff")], nil),
        (
            "an unreachable default with a lower metric refuses traffic",
            [ipv6("lo", flags: "00200200", metric: "00000005"), ipv6("eth0", flags: "00000003", metric: "00000400")],
            nil
        ),
    ]

    @Test(arguments: ipv6Cases.indices)
    func readsTheIPv6Table(index: Int) {
        let example = Self.ipv6Cases[index]
        #expect(
            DefaultRouteTable.ipv6Interface(in: example.lines.joined(separator: "\n")) == example.expected,
            "\(example.name)")
    }

    @Test func readFailureNamesThePathAndTheError() {
        let result = DefaultRouteTable.read("/nonexistent/net/route")
        guard case .failure(let error) = result else {
            Issue.record("read a file that does not exist")
            return
        }
        #expect(error.description == "cannot read /nonexistent/net/route: No such file or directory (errno 2)")
    }
}
