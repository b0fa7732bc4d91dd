#if os(Linux)
    import Foundation
    import Glibc
    import SyncGateTestSupport
    import SyncGateTesting
    import Testing

    /// The built `syncgate` binary, run as a user runs it, inside a network namespace (`ip netns exec NS
    /// syncgate …`, stdout a pipe) while the tests change the namespace's network from outside. Needs root
    /// and iproute2; skips elsewhere unless SYNCGATE_REQUIRE_NETNS=1.
    @Suite(.startsProcesses, .enabled(if: NetnsSupport.isEnabled, NetnsSupport.skipComment), .timeLimit(.minutes(1)))
    struct NetnsToolTests {
        /// How long a line may take after the change that causes it: the 200 ms debounce and a wide margin.
        static let perLine = Duration.seconds(3)

        /// Runs `body` with a fresh topology and always deletes it afterwards.
        func withTopology(_ body: (NetnsTopology) throws -> Void) throws {
            let topology = try NetnsTopology()
            defer { topology.destroy() }
            try body(topology)
        }

        /// The `network` object of a `watch --json` line.
        private func network(_ line: String) throws -> [String: Any] {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["schemaVersion"] as? Int == 1)
            return try #require(object["network"] as? [String: Any], "no network in \(line)")
        }

        /// Whether two `network` objects hold the same values (compared as JSON with sorted keys).
        private static func same(_ one: [String: Any], _ other: [String: Any]) throws -> Bool {
            let sorted = { try JSONSerialization.data(withJSONObject: $0, options: .sortedKeys) }
            return try sorted(one) == sorted(other)
        }

        /// Asserts that the observed namespace has no default route, IPv4 or IPv6.
        private func expectNoDefaultRoute(_ topology: NetnsTopology) throws {
            let routes = try topology.routesInObserved()
            try #require(!routes.contains("default"), "the namespace already has a default route: \(routes)")
        }

        @Test(arguments: NetnsScenario.all)
        func watchPrintsOneLinePerChange(scenario: NetnsScenario) throws {
            try withTopology { topology in
                try scenario.configure(topology)
                let tool = try topology.startTool(arguments: ["watch", "--json"])
                var last = try network(tool.nextLine(within: Self.perLine))
                #expect(last["monitored"] as? Bool == true)
                #expect(last["connected"] as? Bool == scenario.startsConnected)
                for step in scenario.steps {
                    try NetnsScenario.apply(step, to: topology)
                    // `--json` prints every change of any part; a line whose network is the last one's is
                    // another part's (the machine's pressure moves under load) and is passed over.
                    var line = last
                    while try Self.same(line, last) {
                        line = try network(tool.nextLine(within: Self.perLine))
                    }
                    last = line
                    #expect(line["connected"] as? Bool == step.connected, "after \(step.commands)")
                    #expect(line["interface"] as? String == step.interface, "after \(step.commands)")
                    // The name comes from the namespace's own /proc/net routing tables.
                    #expect(
                        (line["interfaceName"] as? String) == (step.connected ? "v0" : nil), "after \(step.commands)")
                }
                tool.signal(SIGINT)
                let (rest, status) = try tool.finish(before: .now + Self.perLine)
                let networkChanges = try rest.split(separator: "\n").map { try network(String($0)) }.filter {
                    try !Self.same($0, last)
                }
                #expect(networkChanges.isEmpty, "network changes after the last step: \(rest)")
                #expect(status == 130)
            }
        }

        @Test func waitExitsWhenTheRouteAppears() throws {
            try withTopology { topology in
                try topology.configureIPv4(defaultRoute: false)
                try expectNoDefaultRoute(topology)
                let tool = try topology.startTool(arguments: ["wait", "--require", "network", "--timeout", "10s"])
                try NetnsSupport.waitForRouteSubscription(pid: tool.pid)
                try #require(tool.isRunning, "wait returned before the route existed: \(tool.stderrText)")
                try topology.inObserved("route add default via 10.200.0.1 dev v0")
                let added = ContinuousClock.now
                let (stdout, status) = try tool.finish(before: added + Self.perLine)
                #expect(status == 0, "stderr: \(tool.stderrText)")
                #expect(stdout.isEmpty)
                #expect(tool.stderrText.isEmpty)
                #expect(ContinuousClock.now - added < Self.perLine)
            }
        }

        /// A program that runs its arguments as a command with `socket(AF_NETLINK, …)` refused
        /// (`EAFNOSUPPORT`), as systemd's `RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6` refuses it: a
        /// seccomp filter installed by Python through `prctl`, then `exec`.
        static let refusingNetlink = #"""
            import ctypes, os, struct, sys
            def stmt(code, k): return struct.pack('HBBI', code, 0, 0, k)
            def jump(k, jt, jf): return struct.pack('HBBI', 0x15, jt, jf, k)
            allow, refuse = 0x7fff0000, 0x00050000 | 97
            program = b''.join([
                stmt(0x20, 4), jump(0xc000003e, 1, 0), stmt(0x06, allow),  # x86-64 only
                stmt(0x20, 0), jump(41, 1, 0), stmt(0x06, allow),          # socket(2)
                stmt(0x20, 16), jump(16, 0, 1), stmt(0x06, refuse),        # domain AF_NETLINK
                stmt(0x06, allow)])
            buffer = ctypes.create_string_buffer(program)
            class Program(ctypes.Structure): _fields_ = [('len', ctypes.c_ushort), ('filter', ctypes.c_void_p)]
            libc = ctypes.CDLL(None, use_errno=True)
            if libc.prctl(38, 1, 0, 0, 0) != 0 or libc.prctl(22, 2, ctypes.byref(Program(len(program) // 8, ctypes.addressof(buffer))), 0, 0) != 0:
                sys.exit('seccomp: ' + os.strerror(ctypes.get_errno()))
            os.execv(sys.argv[1], sys.argv[1:])
            """#

        /// Runs `body` with a function that starts `syncgate arguments` in the observed namespace with
        /// netlink sockets refused.
        private func withoutNetlink(
            _ topology: NetnsTopology, _ body: (_ start: ([String]) throws -> SpawnedProcess) throws -> Void
        ) throws {
            let tool = try #require(NetnsSupport.toolPath, "no syncgate binary")
            let python = try #require(
                ["/usr/bin/python3", "/usr/local/bin/python3"].first {
                    FileManager.default.isExecutableFile(atPath: $0)
                },
                "python3 is needed to refuse netlink sockets")
            let script = NSTemporaryDirectory() + "syncgate-without-netlink-\(UUID().uuidString).py"
            try Data(Self.refusingNetlink.utf8).write(to: URL(fileURLWithPath: script))
            defer { try? FileManager.default.removeItem(atPath: script) }
            try body { arguments in try topology.startInObserved(python, [script, tool] + arguments) }
        }

        @Test func runWaitsForTheRouteWhereNetlinkIsRefused() throws {
            try withTopology { topology in
                try topology.configureIPv4(defaultRoute: false)
                try expectNoDefaultRoute(topology)
                try withoutNetlink(topology) { start in
                    let tool = try start(["run", "--require", "network", "--timeout", "20s", "--", "echo", "ran"])
                    try tool.waitForStderr(
                        containing: "syncgate: waiting for network before running echo\n", within: Self.perLine)
                    try topology.inObserved("route add default via 10.200.0.1 dev v0")
                    let added = ContinuousClock.now
                    // The routing tables are read every second.
                    let (stdout, status) = try tool.finish(before: added + Self.perLine)
                    #expect(status == 0, "stderr: \(tool.stderrText)")
                    #expect(stdout == "ran\n")
                    #expect(ContinuousClock.now - added < Self.perLine)

                    let report = try start(["status", "--json"])
                    let (json, reportStatus) = try report.finish(before: .now + Self.perLine)
                    #expect(reportStatus == 0, "stderr: \(report.stderrText)")
                    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
                    let network = try #require(object["network"] as? [String: Any])
                    #expect(network["connected"] as? Bool == true)
                    #expect(network["interfaceName"] as? String == "v0")
                    let sources = try #require(object["sources"] as? [String: Any])
                    let fields = try #require(sources["fields"] as? [String: String])
                    #expect(fields["connected"] == "/proc/net/route (polled)")
                    let notes = try #require(sources["notes"] as? [String])
                    let refusal =
                        "rtnetlink: cannot watch the network (socket failed: Address family not supported by protocol "
                        + "(errno 97)); the routing tables are read from /proc/net/route and /proc/net/ipv6_route every"
                    let explained = notes.contains { $0.hasPrefix(refusal) }
                    #expect(explained, "notes: \(notes)")
                    let powerRefusal =
                        "uevents: cannot listen (uevent socket: socket failed: Address family not supported by "
                        + "protocol (errno 97)); /sys/class/power_supply is re-read every"
                    let powerExplained = notes.contains { $0.hasPrefix(powerRefusal) }
                    #expect(powerExplained, "notes: \(notes)")

                    // A daemon under such a unit says so in its log, where its administrator looks.
                    let directory = NSTemporaryDirectory() + "syncgate-netlink-daemon-\(UUID().uuidString)"
                    defer { try? FileManager.default.removeItem(atPath: directory) }
                    let daemon = try start([
                        "daemon", "--state-dir", directory + "/state", "--socket", directory + "/socket",
                    ])
                    try daemon.waitForStderr(containing: "syncgate daemon: \(refusal)", within: Self.perLine)
                    try daemon.waitForStderr(containing: "syncgate daemon: \(powerRefusal)", within: Self.perLine)
                    daemon.signal(SIGTERM)
                    let (_, daemonStatus) = try daemon.finish(before: .now + Self.perLine)
                    #expect(daemonStatus == 0, "stderr: \(daemon.stderrText)")
                }
            }
        }

        /// Waits until no process has id `pid` any more (it exited and was reaped); throws after `timeout`.
        private func waitUntilGone(_ pid: pid_t, within timeout: Duration) throws {
            let deadline = ContinuousClock.now + timeout
            while kill(pid, 0) == 0 || errno != ESRCH {
                guard ContinuousClock.now < deadline else {
                    throw NetnsError(message: "process \(pid) still exists after \(timeout)")
                }
                var none = pollfd(fd: -1, events: 0, revents: 0)
                _ = poll(&none, 0, 5)
            }
        }

        @Test func runStopsItsCommandOnLossAndRestartsIt() throws {
            // Each start prints its pid; the shell then becomes `sleep`, so SIGTERM reaches it directly.
            let script = #"echo "start $$"; exec sleep 60"#
            try withTopology { topology in
                try topology.configureIPv4(defaultRoute: false)
                try expectNoDefaultRoute(topology)
                let tool = try topology.startTool(arguments: [
                    "run", "--stop-on-loss", "--require", "network", "--grace", "5s", "--", "sh", "-c", script,
                ])
                // The tool has judged the network absent once it says so; a route added before that would be
                // seen at once, and the run would start without waiting.
                try tool.waitForStderr(
                    containing: "syncgate: waiting for network before running sh\n", within: Self.perLine)

                try topology.inObserved("route add default via 10.200.0.1 dev v0")
                let first = try tool.nextLine(within: Self.perLine)
                let firstPID = try #require(pid_t(first.dropFirst("start ".count)), "first line: \(first)")

                // Stopped: the command ends (and is reaped) without the route, and nothing else starts.
                try topology.inObserved("route del default")
                try waitUntilGone(firstPID, within: Self.perLine)
                #expect(try tool.nextLine(before: .now + .milliseconds(300)) == nil)

                try topology.inObserved("route add default via 10.200.0.1 dev v0")
                let second = try tool.nextLine(within: Self.perLine)
                let secondPID = try #require(pid_t(second.dropFirst("start ".count)), "second line: \(second)")
                #expect(secondPID != firstPID)

                // SIGTERM is forwarded to the running command, whose status (killed by SIGTERM) ends the run.
                tool.signal(SIGTERM)
                let (rest, status) = try tool.finish(before: .now + Self.perLine)
                #expect(rest.isEmpty)
                #expect(status == 143)
                let stderr = tool.stderrText
                #expect(stderr.hasPrefix("syncgate: waiting for network before running sh\n"), "stderr: \(stderr)")
                #expect(
                    stderr.contains(
                        "syncgate: requirements lost (network); sh was stopped and runs again when they hold\n"),
                    "stderr: \(stderr)")
            }
        }

        @Test func demoSeesTheRouteAppear() throws {
            try withTopology { topology in
                try topology.configureIPv4(defaultRoute: false)
                try expectNoDefaultRoute(topology)
                // At --speed 3, refresh-feed (needs the network) expires 8/3 s after the start if it cannot run.
                let tool = try topology.startTool(arguments: ["demo", "--speed", "3"])
                var before: [String] = []
                while !(before.last ?? "").contains("refresh-feed      waiting for network") {
                    before.append(try tool.nextLine(within: Self.perLine))
                }
                let saysDisconnected = before.contains { $0.hasPrefix("this machine now: disconnected;") }
                #expect(saysDisconnected)
                #expect(
                    before.contains("no network here: jobs that need it wait, then expire at their start deadline."))

                try topology.inObserved("route add default via 10.200.0.1 dev v0")
                let (rest, status) = try tool.finish(before: .now + .seconds(15))
                #expect(status == 0)
                let after = rest.split(separator: "\n").map { String($0.drop { $0 != " " }.drop { $0 == " " }) }
                #expect(after.contains("refresh-feed      started attempt 1"), "output: \(rest)")
                #expect(rest.contains("  refresh-feed      succeeded (started at"), "output: \(rest)")
            }
        }
    }
#endif
