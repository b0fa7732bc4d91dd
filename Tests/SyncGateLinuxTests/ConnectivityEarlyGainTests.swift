import Testing

@testable import SyncGateCore
@testable import SyncGateLinux
@testable import SyncGateWire

/// The rule of the reader's early gain, and the decoding of the routing policy rules it depends on.
@Suite(.timeLimit(.minutes(1)))
struct ConnectivityEarlyGainTests {
    // MARK: - Rules

    /// One rule message: its `fib_rule_hdr` fields and attributes, and whether it is a plain lookup.
    struct RuleCase: Sendable, CustomTestStringConvertible {
        var name: String
        var family: UInt8 = Netlink.familyIPv4
        var sourceLength: UInt8 = 0
        var headerTable: UInt8 = 254
        var action: UInt8 = Netlink.RuleAction.toTable
        var flags: UInt32 = 0
        var attributes: [(UInt16, [UInt8])] = kernelAttributes
        var table: UInt32 = 254
        var isPlainLookup: Bool
        var testDescription: String { name }

        /// What the kernel's own main rule carries: table, unset suppressions, protocol, priority.
        static let kernelAttributes: [(UInt16, [UInt8])] = [
            (15, [254, 0, 0, 0]), (14, [255, 255, 255, 255]), (21, [2]), (6, [0xfe, 0x7f, 0, 0]),
        ]

        var message: NetlinkMessage {
            var payload: [UInt8] = [family, 0, sourceLength, 0, headerTable, 0, 0, action]
            NetlinkBytes.append(flags, to: &payload)
            for (type, value) in attributes { payload += NetlinkAttribute(type: type, payload: value).bytes }
            return NetlinkMessage(type: Netlink.MessageType.newRule, payload: payload)
        }
    }

    static let ruleCases: [RuleCase] = [
        RuleCase(name: "the kernel's main rule", isPlainLookup: true),
        RuleCase(name: "a table lookup without attributes", attributes: [], isPlainLookup: true),
        RuleCase(
            name: "a table past 255 in its attribute", headerTable: 252, attributes: [(15, [0xe8, 0x03, 0, 0])],
            table: 1000, isPlainLookup: true),
        RuleCase(
            name: "default routes suppressed", attributes: [(15, [254, 0, 0, 0]), (14, [0, 0, 0, 0])],
            isPlainLookup: false),
        RuleCase(
            name: "an interface group suppressed", attributes: [(13, [1, 0, 0, 0])], isPlainLookup: false),
        RuleCase(name: "a source prefix", sourceLength: 8, isPlainLookup: false),
        RuleCase(name: "a firewall mark", attributes: [(10, [1, 0, 0, 0])], isPlainLookup: false),
        RuleCase(name: "an input interface", attributes: [(3, Array("v0\0".utf8))], isPlainLookup: false),
        RuleCase(name: "inverted", flags: 0x2, isPlainLookup: false),
        RuleCase(name: "prohibit", headerTable: 0, action: 6, attributes: [], table: 0, isPlainLookup: false),
        RuleCase(
            name: "goto", headerTable: 0, action: 2, attributes: [(4, [0x10, 0, 0, 0])], table: 0, isPlainLookup: false),
    ]

    @Test(arguments: ruleCases)
    func ruleDecoding(_ testCase: RuleCase) throws {
        let rule = try #require(NetlinkRule.decode(testCase.message))
        #expect(rule.family == testCase.family)
        #expect(rule.table == testCase.table)
        #expect(rule.isPlainLookup == testCase.isPlainLookup)
    }

    @Test func otherMessagesAndShortRulesAreNotRules() {
        #expect(
            NetlinkRule.decode(
                NetlinkMessage(type: Netlink.MessageType.newRoute, payload: [UInt8](repeating: 0, count: 12))) == nil)
        #expect(NetlinkRule.decode(NetlinkMessage(type: Netlink.MessageType.newRule, payload: [2, 0, 0])) == nil)
    }

    static let plainIPv4 = [255, 254, 253].map {
        NetlinkRule(family: Netlink.familyIPv4, table: $0, isPlainLookup: true)
    }
    static let plainIPv6 = [255, 254].map { NetlinkRule(family: Netlink.familyIPv6, table: $0, isPlainLookup: true) }

    @Test func rulesAllowAFamilyWhoseRulesAreAllPlainAndLookUpTheMainTable() {
        let ipv4 = Netlink.familyIPv4
        let ipv6 = Netlink.familyIPv6
        #expect(ConnectivityEarlyGain.rulesAllow(Self.plainIPv4 + Self.plainIPv6, family: ipv4))
        #expect(ConnectivityEarlyGain.rulesAllow(Self.plainIPv4 + Self.plainIPv6, family: ipv6))
        let suppressing = NetlinkRule(family: ipv6, table: 254, isPlainLookup: false)
        #expect(ConnectivityEarlyGain.rulesAllow(Self.plainIPv4 + Self.plainIPv6 + [suppressing], family: ipv4))
        #expect(!ConnectivityEarlyGain.rulesAllow(Self.plainIPv4 + Self.plainIPv6 + [suppressing], family: ipv6))
        #expect(!ConnectivityEarlyGain.rulesAllow(Self.plainIPv4.filter { $0.table != 254 }, family: ipv4))
        #expect(!ConnectivityEarlyGain.rulesAllow([], family: ipv4))
    }

    // MARK: - The early status

    static let upRunning = Netlink.InterfaceFlag.up | Netlink.InterfaceFlag.running | Netlink.InterfaceFlag.lowerUp

    /// One announcement and what the reader knew when it came.
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var published = ConnectivityStatus.disconnected
        var family = Netlink.familyIPv4
        var destinationLength: UInt8 = 0
        var table: UInt32 = 254
        var type = Netlink.RouteType.unicast
        var flags: UInt32 = 0
        var nextHops: [NetlinkRoute.NextHop] = []
        var linkFlags = upRunning
        var classified = true
        var ipv4 = RouteLookupResult.failed(errno: 101)
        var ipv6 = RouteLookupResult.failed(errno: 101)
        var ipv4Pending = false
        var rulesAllow = true
        /// The interface the early status names; `nil` when there is none.
        var reported: String?
        var testDescription: String { name }
    }

    static let connectedElsewhere = ConnectivityStatus.connected(via: .wiredEthernet, metered: .guessedUnmetered)

    static let cases: [Case] = [
        Case(name: "an IPv4 default route while nothing routed", reported: "eth0"),
        Case(name: "an IPv6 default route while nothing routed", family: Netlink.familyIPv6, reported: "eth0"),
        Case(name: "already connected", published: connectedElsewhere),
        Case(name: "not a default route", destinationLength: 24),
        Case(name: "another table", table: 100),
        Case(name: "blackhole", type: 6),
        Case(name: "unreachable", type: 7),
        Case(name: "linkdown", flags: Netlink.RouteFlag.linkDown),
        Case(name: "multipath", nextHops: [NetlinkRoute.NextHop(flags: 0, interfaceIndex: 3)]),
        Case(name: "the link without carrier", linkFlags: Netlink.InterfaceFlag.up),
        Case(name: "the link not classified yet", classified: false),
        Case(name: "the last IPv4 lookup found an unreachable route", ipv4: .failed(errno: 113)),
        Case(name: "no IPv4 answer yet", ipv4: .noAnswer),
        Case(name: "IPv6 while IPv4 is to be looked up again", family: Netlink.familyIPv6, ipv4Pending: true),
        Case(name: "the last IPv6 lookup was refused", family: Netlink.familyIPv6, ipv6: .failed(errno: 13)),
        Case(name: "rules that are not plain", rulesAllow: false),
    ]

    @Test(arguments: cases)
    func earlyStatus(_ testCase: Case) {
        var route = NetlinkRoute(
            family: testCase.family, destinationLength: testCase.destinationLength, table: testCase.table,
            type: testCase.type, flags: testCase.flags, outputInterface: 3, nextHops: testCase.nextHops)
        route.priority = 100
        let link = NetlinkLink(index: 3, flags: testCase.linkFlags, name: "eth0", operationalState: 6)
        let status = ConnectivityEarlyGain.status(
            announcedBy: route, published: testCase.published, ipv4: testCase.ipv4, ipv6: testCase.ipv6,
            ipv4Pending: testCase.ipv4Pending, rulesAllow: { _ in testCase.rulesAllow }, links: [3: link],
            kinds: testCase.classified ? [3: .wiredEthernet] : [:])
        if let reported = testCase.reported {
            // What the lookup finding this route gives, so the lookup's answer changes nothing.
            let lookedUp =
                testCase.family == Netlink.familyIPv4
                ? ConnectivityEvaluator.status(ipv4: .route(route), ipv6: testCase.ipv6, links: [3: link]) { _ in
                    .wiredEthernet
                }
                : ConnectivityEvaluator.status(ipv4: testCase.ipv4, ipv6: .route(route), links: [3: link]) { _ in
                    .wiredEthernet
                }
            #expect(status == lookedUp)
            #expect(status?.network == SyncNetwork(interfaceName: reported))
        } else {
            #expect(status == nil)
        }
    }
}
