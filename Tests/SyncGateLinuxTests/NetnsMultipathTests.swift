#if os(Linux)
    import Foundation
    import SyncGateTestSupport
    import SyncGateTesting
    import Testing

    @testable import SyncGateCore

    @testable import SyncGateLinux

    /// A multipath default route on the real kernel: two veth pairs, `v0` and `wan0`, in the observed
    /// namespace, and `ip route add default nexthop via … dev v0 nexthop via … dev wan0`. The network is
    /// in use through both: the status names `v0` (the first next hop) and lists `wan0` after it, and an
    /// allowlist naming either matches. Needs root and iproute2; skips elsewhere unless
    /// SYNCGATE_REQUIRE_NETNS=1.
    @Suite(.startsProcesses, .enabled(if: NetnsSupport.isEnabled, NetnsSupport.skipComment), .timeLimit(.minutes(1)))
    struct NetnsMultipathTests {
        /// A fresh topology with a second link pair, `wan0` (10.201.0.2/24) in the observed namespace and
        /// `wan1` in the peer, and no default route; deleted afterwards.
        func withTwoLinks(_ body: (NetnsTopology) async throws -> Void) async throws {
            let topology = try NetnsTopology()
            defer { topology.destroy() }
            try topology.configureIPv4(defaultRoute: false)
            try topology.inObserved("link add wan0 type veth peer name wan1 netns \(topology.peer)")
            try topology.inObserved("addr add 10.201.0.2/24 dev wan0")
            try topology.inPeer("addr add 10.201.0.1/24 dev wan1")
            try topology.inObserved("link set wan0 up")
            try topology.inPeer("link set wan1 up")
            try await body(topology)
        }

        static let multipathRoute =
            "route add default nexthop via 10.200.0.1 dev v0 nexthop via 10.201.0.1 dev wan0"

        @Test("the observer reports every next hop; an allowlist naming the second one, or its kind, matches")
        func observerReportsEveryNextHop() async throws {
            try await withTwoLinks { topology in
                // wan0 reads as Wi-Fi in the fixture, v0 as a plain virtual link: the kinds differ.
                let sysfs = try SysfsFixture(interfaces: [(Array("v0".utf8), nil), (Array("wan0".utf8), "wlan")])
                defer { sysfs.remove() }
                let observer = try NetnsObserverHost.observer(inNamespace: topology.observed, sysfsRoot: sysfs.root)
                #expect(!observer.status.isConnected)
                try topology.inObserved(Self.multipathRoute)
                let status = try await awaitValue(observer.statusStream, within: .seconds(10), "the multipath route") {
                    $0.isConnected
                }
                #expect(status.network.interfaceName == "v0")
                #expect(status.interface == .other, "the first next hop's kind is the status's")
                #expect(status.network.otherNextHops == [SyncNetwork.NextHop(interfaceName: "wan0", interface: .wifi)])
                #expect(status.network.description == "v0 (also wan0)")
                #expect(SyncNetworkAllowlist([.interface("wan0")]).matches(status))
                #expect(SyncNetworkAllowlist([.interface("wan*")]).matches(status))
                #expect(SyncNetworkAllowlist([.interfaceType(.wifi)]).matches(status))
                #expect(SyncNetworkAllowlist([.interface("v0")]).matches(status))
                #expect(!SyncNetworkAllowlist([.interface("eth*"), .interfaceType(.cellular)]).matches(status))

                // The second next hop's link goes down: the route is used through v0 alone.
                try topology.inObserved("link set wan0 down")
                let single = try await awaitValue(observer.statusStream, within: .seconds(10), "v0 alone") {
                    $0.isConnected && $0.network.otherNextHops.isEmpty
                }
                #expect(single.network == SyncNetwork(interfaceName: "v0"))
                #expect(!SyncNetworkAllowlist([.interface("wan0")]).matches(single))
            }
        }

        @Test("wait --network wan0 holds at once on a multipath route whose second next hop is wan0")
        func toolMatchesTheSecondNextHop() async throws {
            try await withTwoLinks { topology in
                try topology.inObserved(Self.multipathRoute)
                let tool = try topology.startTool(
                    arguments: ["wait", "--require", "network", "--network", "wan0", "--timeout", "0s"])
                let (_, code) = try tool.finish(before: .now + .seconds(10))
                #expect(code == 0, "stderr: \(tool.stderrText)")

                let other = try topology.startTool(
                    arguments: ["wait", "--require", "network", "--network", "eth9", "--timeout", "0s"])
                let (_, otherCode) = try other.finish(before: .now + .seconds(10))
                #expect(otherCode == 124)
                #expect(other.stderrText.contains("(in use: v0 (also wan0))"), "\(other.stderrText)")
            }
        }

        @Test("status --json lists the other next hops of a multipath route, each with its name and kind")
        func statusJSONListsTheOtherNextHops() async throws {
            try await withTwoLinks { topology in
                try topology.inObserved(Self.multipathRoute)
                let tool = try topology.startTool(arguments: ["status", "--json"])
                let (json, code) = try tool.finish(before: .now + .seconds(10))
                #expect(code == 0, "stderr: \(tool.stderrText)")
                let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
                let network = try #require(object["network"] as? [String: Any])
                #expect(network["interfaceName"] as? String == "v0")
                let hops = try #require(network["otherNextHops"] as? [[String: Any]], "\(network)")
                let names = hops.map { $0["interfaceName"] as? String }
                let kinds = hops.map { $0["interface"] as? String }
                #expect(names == ["wan0"])
                #expect(kinds == ["other"], "a veth reads as neither wired nor wireless")
            }
        }
    }
#endif
