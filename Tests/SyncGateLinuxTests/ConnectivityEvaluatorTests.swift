import Testing

@testable import SyncGateCore
@testable import SyncGateLinux
@testable import SyncGateWire

@Suite(.timeLimit(.minutes(1)))
struct ConnectivityEvaluatorTests {
    static let upRunning = Netlink.InterfaceFlag.up | Netlink.InterfaceFlag.running | Netlink.InterfaceFlag.lowerUp

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var flags: UInt32
        var operationalState: UInt8?
        var routeType: UInt8 = Netlink.RouteType.unicast
        var routeFlags: UInt32 = 0
        var connected: Bool
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "up and running", flags: upRunning, operationalState: 6, connected: true),
        Case(name: "lower-up without running", flags: 0x1 | 0x10000, operationalState: 6, connected: true),
        Case(name: "operstate unknown (virtual)", flags: upRunning, operationalState: 0, connected: true),
        Case(name: "no operstate", flags: upRunning, operationalState: nil, connected: true),
        Case(name: "admin down", flags: 0, operationalState: 2, connected: false),
        Case(name: "no carrier", flags: 0x1, operationalState: 5, connected: false),
        Case(name: "dormant", flags: upRunning, operationalState: 5, connected: false),
        Case(name: "lowerlayerdown", flags: upRunning, operationalState: 3, connected: false),
        Case(
            name: "loopback", flags: upRunning | Netlink.InterfaceFlag.loopback, operationalState: 0, connected: false),
        Case(name: "linkdown route", flags: upRunning, operationalState: 6, routeFlags: 0x10, connected: false),
        Case(name: "dead route", flags: upRunning, operationalState: 6, routeFlags: 0x1, connected: false),
        Case(name: "unreachable route", flags: upRunning, operationalState: 6, routeType: 7, connected: false),
        Case(name: "blackhole route", flags: upRunning, operationalState: 6, routeType: 6, connected: false),
        Case(name: "fibmatch flag only", flags: upRunning, operationalState: 6, routeFlags: 0x2000, connected: true),
    ]

    @Test(arguments: cases)
    func ipv4Table(_ testCase: Case) {
        let link = NetlinkLink(
            index: 3, flags: testCase.flags, name: "eth0", operationalState: testCase.operationalState)
        let route = NetlinkRoute(
            family: Netlink.familyIPv4,
            type: testCase.routeType,
            flags: testCase.routeFlags,
            outputInterface: 3
        )
        let status = ConnectivityEvaluator.status(
            ipv4: .route(route),
            ipv6: .failed(errno: 101),
            links: [3: link]
        ) { _ in .wiredEthernet }
        #expect(status.isConnected == testCase.connected)
        #expect(
            status
                == (testCase.connected
                    ? ConnectivityStatus.connected(via: .wiredEthernet, metered: .guessedUnmetered).with(
                        network: SyncNetwork(interfaceName: "eth0"))
                    : .disconnected))
    }

    @Test func multipathRouteIsInUseThroughEveryUsableNextHop() {
        let links: [Int32: NetlinkLink] = [
            3: NetlinkLink(index: 3, flags: Self.upRunning, name: "eth0"),
            4: NetlinkLink(index: 4, flags: 0, name: "eth1"),
            5: NetlinkLink(index: 5, flags: Self.upRunning, name: "wwan0"),
            6: NetlinkLink(index: 6, flags: Self.upRunning, name: "wlan0"),
        ]
        let hops = ([3, 4, 5, 3, 6] as [Int32]).map {
            NetlinkRoute.NextHop(flags: $0 == 6 ? Netlink.RouteFlag.dead : 0, interfaceIndex: $0)
        }
        let route = NetlinkRoute(family: Netlink.familyIPv4, nextHops: hops)
        let kinds: [Int32: LinuxInterfaceKind] = [3: .wiredEthernet, 5: .cellular, 6: .wifi]
        let status = ConnectivityEvaluator.status(ipv4: .route(route), ipv6: .failed(errno: 101), links: links) {
            kinds[$0.index] ?? .other
        }
        #expect(status.interface == .wiredEthernet)
        #expect(status.isExpensive, "a cellular next hop carries some of the traffic: metered, guessed")
        #expect(status.metered == .guessed(isMetered: true))
        #expect(status.network.interfaceName == "eth0")
        #expect(status.network.otherNextHops == [SyncNetwork.NextHop(interfaceName: "wwan0", interface: .cellular)])
        #expect(SyncNetworkAllowlist([.interface("wwan*")]).matches(status))
        #expect(SyncNetworkAllowlist([.interfaceType(.cellular)]).matches(status))
        #expect(
            !SyncNetworkAllowlist([.interface("eth1"), .interface("wlan0"), .interfaceType(.wifi)]).matches(status))
        #expect(status.network.description == "eth0 (also wwan0)")
    }

    @Test func ipv4IsPreferredOverIPv6() {
        let links: [Int32: NetlinkLink] = [
            2: NetlinkLink(index: 2, flags: Self.upRunning, name: "wlan0"),
            3: NetlinkLink(index: 3, flags: Self.upRunning, name: "wwan0"),
        ]
        let link = ConnectivityEvaluator.reportingLink(
            ipv4: .route(NetlinkRoute(family: Netlink.familyIPv4, outputInterface: 3)),
            ipv6: .route(NetlinkRoute(family: Netlink.familyIPv6, outputInterface: 2)),
            links: links
        )
        #expect(link?.index == 3)
    }

    @Test func ipv6OnlyIsConnected() {
        let status = ConnectivityEvaluator.status(
            ipv4: .failed(errno: 101),
            ipv6: .route(NetlinkRoute(family: Netlink.familyIPv6, outputInterface: 2)),
            links: [2: NetlinkLink(index: 2, flags: Self.upRunning)]
        ) { _ in .cellular }
        #expect(status == .connected(via: .cellular, metered: .guessedMetered))
    }

    @Test func unusableIPv4FallsBackToIPv6() {
        let links: [Int32: NetlinkLink] = [
            2: NetlinkLink(index: 2, flags: Netlink.InterfaceFlag.up),
            3: NetlinkLink(index: 3, flags: Self.upRunning),
        ]
        let link = ConnectivityEvaluator.reportingLink(
            ipv4: .route(NetlinkRoute(family: Netlink.familyIPv4, outputInterface: 2)),
            ipv6: .route(NetlinkRoute(family: Netlink.familyIPv6, outputInterface: 3)),
            links: links
        )
        #expect(link?.index == 3)
    }

    @Test func unknownLinkOrNoAnswerIsDisconnected() {
        let route = RouteLookupResult.route(NetlinkRoute(family: Netlink.familyIPv4, outputInterface: 9))
        #expect(ConnectivityEvaluator.status(ipv4: route, ipv6: .noAnswer, links: [:]) { _ in .other } == .disconnected)
        #expect(
            ConnectivityEvaluator.status(ipv4: .noAnswer, ipv6: .noAnswer, links: [:]) { _ in .other } == .disconnected)
    }

    @Test func routeWithoutInterfaceIsDisconnected() {
        let route = RouteLookupResult.route(NetlinkRoute(family: Netlink.familyIPv4))
        #expect(ConnectivityEvaluator.reportingLink(ipv4: route, ipv6: .noAnswer, links: [:]) == nil)
    }
}
