#if os(Linux)
    import Foundation
    import SyncGateTestSupport
    import Testing

    /// Allowed networks on the real kernel: the built `syncgate` inside a network namespace with two links,
    /// `v0` and `wan0`, while the tests move the default route between them from outside. A command allowed
    /// only on one link starts when the route moves there. Needs root and iproute2; skips elsewhere unless
    /// SYNCGATE_REQUIRE_NETNS=1.
    @Suite(.startsProcesses, .enabled(if: NetnsSupport.isEnabled, NetnsSupport.skipComment), .timeLimit(.minutes(1)))
    struct NetnsAllowedNetworkTests {
        /// How long a change may take to be seen: the 200 ms debounce and a wide margin.
        static let perChange = Duration.seconds(3)

        /// A fresh topology with a second link pair, `wan0` (10.201.0.2/24) in the observed namespace and
        /// `wan1` in the peer, and the default route through `v0`; deleted afterwards.
        func withTwoLinks(_ body: (NetnsTopology) throws -> Void) throws {
            let topology = try NetnsTopology()
            defer { topology.destroy() }
            try topology.configureIPv4()
            try topology.inObserved("link add wan0 type veth peer name wan1 netns \(topology.peer)")
            try topology.inObserved("addr add 10.201.0.2/24 dev wan0")
            try topology.inPeer("addr add 10.201.0.1/24 dev wan1")
            try topology.inObserved("link set wan0 up")
            try topology.inPeer("link set wan1 up")
            try body(topology)
        }

        @Test("run --network wan*: waits while the default route uses v0, starts when it moves to wan0")
        func runStartsWhenTheRouteMoves() throws {
            try withTwoLinks { topology in
                let tool = try topology.startTool(
                    arguments: ["run", "--require", "network", "--network", "wan*,ssid:Elsewhere", "--", "true"])
                try tool.waitForStderr(
                    containing: "waiting for network wan*,ssid:Elsewhere (in use: v0) before running true",
                    within: Self.perChange)
                try #require(tool.isRunning, "run returned on the wrong link: \(tool.stderrText)")
                try topology.inObserved("route replace default via 10.201.0.1 dev wan0")
                let moved = ContinuousClock.now
                let (_, status) = try tool.finish(before: moved + Self.perChange)
                #expect(status == 0, "stderr: \(tool.stderrText)")
                #expect(ContinuousClock.now - moved < Self.perChange)
            }
        }

        @Test("wait --network v0: waits on wan0, returns when the route moves back; status names the link")
        func waitAndStatusFollowTheLink() throws {
            try withTwoLinks { topology in
                try topology.inObserved("route replace default via 10.201.0.1 dev wan0")
                let status = try topology.startTool(arguments: ["status", "--json"])
                let (json, code) = try status.finish(before: .now + Self.perChange)
                #expect(code == 0)
                let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
                let network = try #require(object["network"] as? [String: Any])
                #expect(network["interfaceName"] as? String == "wan0")
                let sources = try #require((object["sources"] as? [String: Any])?["fields"] as? [String: Any])
                #expect(sources["network interface"] as? String == "rtnetlink")

                let tool = try topology.startTool(
                    arguments: ["wait", "--require", "network", "--network", "v0", "--timeout", "20s"])
                try NetnsSupport.waitForRouteSubscription(pid: tool.pid)
                try #require(tool.isRunning, "wait returned on the wrong link: \(tool.stderrText)")
                try topology.inObserved("route replace default via 10.200.0.1 dev v0")
                let (_, code2) = try tool.finish(before: .now + Self.perChange)
                #expect(code2 == 0, "stderr: \(tool.stderrText)")
            }
        }

        @Test("wait --network with a zero timeout on the wrong link times out, naming the network in use")
        func zeroTimeoutNamesTheNetwork() throws {
            try withTwoLinks { topology in
                let tool = try topology.startTool(
                    arguments: ["wait", "--require", "network", "--network", "type:wifi,wan0", "--timeout", "0s"])
                let (_, code) = try tool.finish(before: .now + Self.perChange)
                #expect(code == 124)
                #expect(
                    tool.stderrText.contains("still unmet: network type:wifi,wan0 (in use: v0)"), "\(tool.stderrText)")
            }
        }
    }
#endif
