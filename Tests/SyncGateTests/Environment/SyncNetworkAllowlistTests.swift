import SyncGate
import SyncGateTesting
import Testing

/// The allowed-networks list: its text form, its matchers, its bounds, and what a status allows.
@Suite("SyncNetworkAllowlist", .timeLimit(.minutes(1)))
struct SyncNetworkAllowlistTests {
    typealias Matcher = SyncNetworkAllowlist.Matcher

    static let parsed: [(String, [Matcher])] = [
        ("wlan0", [.interface("wlan0")]),
        (
            "wlan0,eth*,ssid:Home,connection:Office,type:wifi",
            [.interface("wlan0"), .interface("eth*"), .ssid("Home"), .connection("Office"), .interfaceType(.wifi)]
        ),
        ("interface:ssid:odd", [.interface("ssid:odd")]),
        (
            "type:wired-ethernet,type:cellular,type:other",
            [.interfaceType(.wiredEthernet), .interfaceType(.cellular), .interfaceType(.other)]
        ),
        ("ssid:Caf\u{E9} \\, Bar", [.ssid("Caf\u{E9} , Bar")]),
        ("connection:a\\\\b", [.connection("a\\b")]),
        ("ssid:with:colon", [.ssid("with:colon")]),
        ("unknown:prefix", [.interface("unknown:prefix")]),
    ]

    @Test(
        "the text form reads into matchers, and each list writes back to a text that reads the same", arguments: parsed)
    func parses(text: String, matchers: [Matcher]) throws {
        let allowlist = try SyncNetworkAllowlist(parsing: text)
        #expect(allowlist.matchers == matchers)
        #expect(try SyncNetworkAllowlist(parsing: allowlist.description) == allowlist)
    }

    static let refused: [(String, String)] = [
        ("", "an empty network in the list"),
        ("wlan0,", "an empty network in the list"),
        ("ssid:", "\"ssid:\" names no network"),
        ("type:bluetooth", "unknown interface type \"bluetooth\" (expected wifi, cellular, wired-ethernet, other)"),
        ("type:none", "unknown interface type \"none\""),
        ("eth\\0", "\\ escapes only a comma or a backslash"),
        ("eth0\\", "ends in a lone \\"),
        (String(repeating: "x", count: 256), "a name is at most 255 bytes, got 256"),
        (Array(repeating: "e", count: 65).joined(separator: ","), "at most 64 networks, got 65"),
    ]

    @Test("a bad list is refused with a reason naming the item", arguments: refused)
    func refuses(text: String, reason: String) {
        #expect {
            try SyncNetworkAllowlist(parsing: text)
        } throws: { error in
            (error as? SyncNetworkAllowlist.ParseError)?.reason.contains(reason) == true
        }
    }

    static let home = SyncNetwork(interfaceName: "wlan0", connectionID: "Home Wi-Fi", ssid: "Home")
    static let office = SyncNetwork(interfaceName: "enp3s0", connectionID: "Office", ssid: nil)
    /// A multipath default route through `enp3s0` first, then `wwan0` and `wlan0`.
    static let multipath = SyncNetwork(
        interfaceName: "enp3s0",
        otherNextHops: [
            SyncNetwork.NextHop(interfaceName: "wwan0", interface: .cellular),
            SyncNetwork.NextHop(interfaceName: "wlan0", interface: .wifi),
        ])

    static let matches: [(Matcher, ConnectivityStatus, Bool)] = [
        (.interface("wlan0"), .connected(via: .wifi).with(network: home), true),
        (.interface("wl*"), .connected(via: .wifi).with(network: home), true),
        (.interface("w?an?"), .connected(via: .wifi).with(network: home), true),
        (.interface("*0"), .connected(via: .wifi).with(network: home), true),
        (.interface("eth*"), .connected(via: .wifi).with(network: home), false),
        (.interface("wlan"), .connected(via: .wifi).with(network: home), false),
        (.interface("*"), .connected(via: .wifi), false),
        (.interface("en*s0"), .connected(via: .wiredEthernet).with(network: office), true),
        (.interfaceType(.wifi), .connected(via: .wifi), true),
        (.interfaceType(.wiredEthernet), .connected(via: .wifi).with(network: home), false),
        (.connection("Office"), .connected(via: .wiredEthernet).with(network: office), true),
        (.connection("office"), .connected(via: .wiredEthernet).with(network: office), false),
        (.ssid("Home"), .connected(via: .wifi).with(network: home), true),
        (.ssid("Home"), .connected(via: .wiredEthernet).with(network: office), false),
        (.ssid("Home"), ConnectivityStatus.disconnected.with(network: home), false),
        (.interface("enp3s0"), .connected(via: .wiredEthernet).with(network: multipath), true),
        (.interface("wwan0"), .connected(via: .wiredEthernet).with(network: multipath), true),
        (.interface("wl*"), .connected(via: .wiredEthernet).with(network: multipath), true),
        (.interface("eth*"), .connected(via: .wiredEthernet).with(network: multipath), false),
        (.interfaceType(.cellular), .connected(via: .wiredEthernet).with(network: multipath), true),
        (.interfaceType(.wiredEthernet), .connected(via: .wiredEthernet).with(network: multipath), true),
        (.interfaceType(.other), .connected(via: .wiredEthernet).with(network: multipath), false),
        (.interface("wwan0"), ConnectivityStatus.disconnected.with(network: multipath), false),
    ]

    @Test("each matcher matches the network in use it names, and never a disconnected status", arguments: matches)
    func matcherMatches(matcher: Matcher, status: ConnectivityStatus, expected: Bool) {
        #expect(SyncNetworkAllowlist([matcher]).matches(status) == expected)
    }

    @Test("a list holds when any matcher does; a disconnected status keeps no network")
    func anyMatches() {
        let list = SyncNetworkAllowlist([.ssid("Home"), .connection("Office")])
        #expect(list.matches(.connected(via: .wifi).with(network: Self.home)))
        #expect(list.matches(.connected(via: .wiredEthernet).with(network: Self.office)))
        #expect(!list.matches(.connected(via: .wifi).with(network: SyncNetwork(interfaceName: "wlan0", ssid: "Cafe"))))
        #expect(ConnectivityStatus.disconnected.with(network: Self.home).network == .unknown)
    }

    @Test("a multipath route's network names its other next hops after the first interface")
    func multipathDescription() {
        #expect(Self.multipath.description == "enp3s0 (also wwan0, wlan0)")
        #expect(SyncNetwork(otherNextHops: Self.multipath.otherNextHops).description == "also wwan0, wlan0")
        #expect(!Self.multipath.isUnknown)
    }

    @Test("the environment status allows any network without a list, and every network while not monitored")
    func statusAllows() {
        let list = SyncNetworkAllowlist([.ssid("Home")])
        let cafe = SyncEnvironmentStatus(
            connectivity: .connected(via: .wifi).with(network: SyncNetwork(ssid: "Cafe")), account: .available)
        #expect(cafe.allows(nil))
        #expect(!cafe.allows(list))
        #expect(!cafe.satisfies(.network, allowedNetworks: list))
        var unmonitored = cafe
        unmonitored.monitoredParts.remove(.network)
        #expect(unmonitored.allows(list))
    }

    @Test("a job with an invalid list is refused, naming allowedNetworks")
    func jobRefused() throws {
        let clock = ManualClock()
        let scheduler = SyncScheduler(environment: ManualSyncEnvironment(clock: clock).environment, clock: clock)
        var job = SyncJob(id: "bad") { _ in }
        job.options.allowedNetworks = SyncNetworkAllowlist([])
        #expect {
            try scheduler.submit(job)
        } throws: { error in
            guard case SyncSchedulerError.invalidJob(let refusal) = error else { return false }
            return refusal.field == "allowedNetworks"
        }
    }
}
