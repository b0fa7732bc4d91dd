#if os(Linux)
    import Foundation
    import Glibc
    import SyncGateTestSupport
    import Testing

    /// `syncgate submit --network` end to end: the built tool as the daemon inside a network namespace with
    /// two links, `v0` and `wan0`, killed with SIGKILL and restarted on the same state directory while the
    /// job waits for its network. Needs root and iproute2; skips elsewhere unless SYNCGATE_REQUIRE_NETNS=1.
    @Suite(.startsProcesses, .enabled(if: NetnsSupport.isEnabled, NetnsSupport.skipComment), .timeLimit(.minutes(3)))
    struct NetnsDaemonNetworkTests {
        /// A job allowed only on `wan0` waits while the default route uses `v0`, keeps its list across a
        /// kill (the journal), and runs once the route moves to `wan0`.
        @Test func aJobRunsWhenTheRouteMovesToItsNetworkAcrossAKill() throws {
            let topology = try NetnsTopology()
            defer { topology.destroy() }
            let harness = try DaemonHarness(topology: topology)
            defer { harness.destroy() }
            try topology.configureIPv4(defaultRoute: true)
            try topology.inObserved("link add wan0 type veth peer name wan1 netns \(topology.peer)")
            try topology.inObserved("addr add 10.201.0.2/24 dev wan0")
            try topology.inPeer("addr add 10.201.0.1/24 dev wan1")
            try topology.inObserved("link set wan0 up")
            try topology.inPeer("link set wan1 up")
            try harness.startDaemon()
            let runs = harness.directory + "/runs"
            let submitted = try harness.client([
                "submit", "--require", "network", "--network", "wan0,ssid:Nowhere", "--name", "wan-only", "--",
                "sh", "-c", "echo ran >> \(runs)",
            ])
            #expect(submitted.status == 0, "\(submitted)")
            let id = submitted.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            let job = try harness.job(id)
            #expect(job["networks"] as? String == "wan0,ssid:Nowhere", "\(job)")
            #expect(job["state"] as? String == "waiting", "\(job)")
            #expect((job["waitingFor"] as? [String]) == ["network wan0,ssid:Nowhere"], "\(job)")
            let table = try harness.client(["jobs"])
            #expect(table.stdout.contains("NETWORKS"), "\(table)")
            let refused = try harness.client(["submit", "--network", "type:modem", "--", "true"])
            #expect(refused.status == 2, "\(refused)")

            try harness.killDaemon()
            try harness.startDaemon()
            #expect(try harness.job(id)["networks"] as? String == "wan0,ssid:Nowhere")
            #expect(!FileManager.default.fileExists(atPath: runs))
            try topology.inObserved("route replace default via 10.201.0.1 dev wan0")
            try harness.eventually("the job succeeded on wan0", within: .seconds(40)) {
                try harness.job(id)["state"] as? String == "succeeded"
            }
            #expect(try String(contentsOfFile: runs, encoding: .utf8) == "ran\n")
            #expect(try harness.stopDaemon() == 0)
        }
    }
#endif
