#if os(Linux)
    import Foundation
    import Glibc
    import SyncGateTesting
    import Testing

    @testable import SyncGateCore

    @testable import SyncGateLinux

    /// Whether the real-kernel namespace tests can run here, and why not.
    enum NetnsSupport {
        /// `SYNCGATE_REQUIRE_NETNS=1` turns a skip into a failure (CI sets it).
        static let isRequired = ProcessInfo.processInfo.environment["SYNCGATE_REQUIRE_NETNS"] == "1"

        /// The `ip` binary of iproute2.
        static let ipPath: String? = ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }

        /// The helper that runs the library inside a namespace: `$SYNCGATE_NETNS_PROBE`, else next to the test
        /// binary in the build folder.
        static let probePath = builtExecutable("syncgate-netns-probe", override: "SYNCGATE_NETNS_PROBE")

        /// The command-line tool, as built: `$SYNCGATE_CLI`, else next to the test binary in the build folder.
        static let toolPath = builtExecutable("syncgate", override: "SYNCGATE_CLI")

        /// `$override` when set, else the executable `name` in the test binary's folder or one of its parents.
        private static func builtExecutable(_ name: String, override: String) -> String? {
            if let path = ProcessInfo.processInfo.environment[override] { return path }
            guard let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else {
                return nil
            }
            var directory = URL(fileURLWithPath: executable).deletingLastPathComponent()
            for _ in 0..<4 {
                let candidate = directory.appendingPathComponent(name).path
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
                directory.deleteLastPathComponent()
            }
            return nil
        }

        /// Why the tests cannot run, or `nil` when they can.
        static let unavailableReason: String? = {
            if geteuid() != 0 { return "they need root to create network namespaces and veth pairs" }
            guard let ipPath else { return "they need `ip` from iproute2 (apt-get install iproute2)" }
            guard probePath != nil else {
                return
                    "the syncgate-netns-probe executable was not found: run `swift build` first or set SYNCGATE_NETNS_PROBE"
            }
            guard toolPath != nil else {
                return "the syncgate executable was not found: run `swift build` first or set SYNCGATE_CLI"
            }
            let check = "sgcheck\(getpid())"
            guard (try? run(ipPath, ["netns", "add", check])) != nil else {
                return "`ip netns add` failed (no network namespaces in this container?)"
            }
            _ = try? run(ipPath, ["netns", "del", check])
            removeStaleNamespaces()
            return nil
        }()

        /// The process that made namespace `name`, for names made here (``uniqueName(_:)``: `sg`, its pid,
        /// `x`, a number and a role; or `sgcheck` and its pid), else `nil`.
        static func creator(ofNamespace name: String) -> pid_t? {
            guard name.hasPrefix("sg") else { return nil }
            let isCheck = name.dropFirst(2).hasPrefix("check")
            let rest = name.dropFirst(isCheck ? 7 : 2)
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            let after = rest.dropFirst(digits.count)
            guard !digits.isEmpty, isCheck ? after.isEmpty : after.hasPrefix("x") else { return nil }
            return pid_t(digits)
        }

        /// Deletes the namespaces that test processes which no longer exist left behind (a run killed
        /// midway cannot delete its own); those of live processes, and every other name, stay.
        static func removeStaleNamespaces() {
            guard let ipPath, let listing = try? run(ipPath, ["netns", "list"]) else { return }
            for line in listing.split(separator: "\n") {
                guard let name = line.split(separator: " ").first.map(String.init),
                    let pid = creator(ofNamespace: name), pid != getpid(), kill(pid, 0) == -1, errno == ESRCH
                else { continue }
                _ = try? run(ipPath, ["netns", "del", name])
            }
        }

        /// Whether the suite runs: it can, or it must (and then fails with the reason).
        static let isEnabled = unavailableReason == nil || isRequired

        /// The message shown when the suite is skipped.
        static var skipComment: Comment {
            Comment(
                rawValue: "Linux network-namespace tests skipped: \(unavailableReason ?? "")."
                    + " Run as root with iproute2; SYNCGATE_REQUIRE_NETNS=1 makes this a failure."
            )
        }

        private static let counter = LockedState(0)

        /// A namespace name unique to this process and call.
        static func uniqueName(_ role: String) -> String {
            let number = counter.withLock { value in
                value += 1
                return value
            }
            return "sg\(getpid())x\(number)\(role)"
        }

        /// Whether process `pid` holds an rtnetlink socket subscribed to multicast groups: its network observer
        /// is listening (from `/proc/PID/fd` and `/proc/PID/net/netlink`).
        static func hasRouteSubscription(pid: pid_t) -> Bool {
            guard let descriptors = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd"),
                let table = try? String(contentsOfFile: "/proc/\(pid)/net/netlink", encoding: .utf8)
            else { return false }
            let sockets = Set(
                descriptors.compactMap { name -> String? in
                    guard
                        let target = try? FileManager.default.destinationOfSymbolicLink(
                            atPath: "/proc/\(pid)/fd/\(name)"),
                        target.hasPrefix("socket:[")
                    else { return nil }
                    return String(target.dropFirst("socket:[".count).dropLast())
                })
            // sk Eth Pid Groups Rmem Wmem Dump Locks Drops Inode
            return table.split(separator: "\n").dropFirst().contains { row in
                let fields = row.split(separator: " ", omittingEmptySubsequences: true)
                return fields.count >= 10 && fields[1] == "0" && fields[3] != "00000000"
                    && sockets.contains(String(fields[9]))
            }
        }

        /// Waits until process `pid` listens to rtnetlink (``hasRouteSubscription(pid:)``); throws after `timeout`.
        static func waitForRouteSubscription(pid: pid_t, within timeout: Duration = .seconds(5)) throws {
            let deadline = ContinuousClock.now + timeout
            while !hasRouteSubscription(pid: pid) {
                guard ContinuousClock.now < deadline else {
                    throw NetnsError(message: "process \(pid) opened no rtnetlink subscription within \(timeout)")
                }
                var none = pollfd(fd: -1, events: 0, revents: 0)
                _ = poll(&none, 0, 5)
            }
        }

        /// Runs a program to completion (within 30 s); throws with its stderr when it fails.
        @discardableResult
        static func run(_ path: String, _ arguments: [String], input: String? = nil) throws -> String {
            try SpawnedProcess.run(path, arguments, input: input)
        }
    }

    /// A failure while driving namespaces, links or the probe.
    struct NetnsError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    /// Two network namespaces joined by a veth pair: `v0` in `observed` (10.200.0.2/24, where the probe runs)
    /// and `v1` in `peer` (10.200.0.1/24). Nothing outside these namespaces is touched.
    final class NetnsTopology {
        let observed = NetnsSupport.uniqueName("o")
        let peer = NetnsSupport.uniqueName("p")
        private let ip: String
        private var children: [SpawnedProcess] = []

        /// Creates the namespaces and the veth pair, both ends up; addresses and routes are up to the test.
        init() throws {
            if let reason = NetnsSupport.unavailableReason { throw NetnsError(message: "cannot run: \(reason)") }
            guard let ip = NetnsSupport.ipPath else { throw NetnsError(message: "no ip") }
            self.ip = ip
            try NetnsSupport.run(ip, ["netns", "add", observed])
            do {
                try NetnsSupport.run(ip, ["netns", "add", peer])
                try NetnsSupport.run(
                    ip,
                    ["link", "add", "v0", "netns", observed, "type", "veth", "peer", "name", "v1", "netns", peer]
                )
                try inObserved("link set v0 up")
                try inPeer("link set v1 up")
            } catch {
                destroy()
                throw error
            }
        }

        /// Adds IPv4 addresses on both ends and, when asked, the default route via the peer.
        func configureIPv4(defaultRoute: Bool = true) throws {
            try inObserved("addr add 10.200.0.2/24 dev v0")
            try inPeer("addr add 10.200.0.1/24 dev v1")
            if defaultRoute { try inObserved("route add default via 10.200.0.1 dev v0") }
        }

        /// Adds IPv6 addresses (no DAD) on both ends and, when asked, the IPv6 default route via the peer.
        func configureIPv6(defaultRoute: Bool = true) throws {
            try inObserved("addr add 2001:db8:200::2/64 dev v0 nodad")
            try inPeer("addr add 2001:db8:200::1/64 dev v1 nodad")
            if defaultRoute { try inObserved("-6 route add default via 2001:db8:200::1 dev v0") }
        }

        /// Runs `ip -n <observed> <command>`.
        func inObserved(_ command: String) throws {
            try NetnsSupport.run(ip, ["-n", observed] + command.split(separator: " ").map(String.init))
        }

        /// Runs `ip -n <peer> <command>`.
        func inPeer(_ command: String) throws {
            try NetnsSupport.run(ip, ["-n", peer] + command.split(separator: " ").map(String.init))
        }

        /// The IPv4 and IPv6 routes of the observed namespace, as `ip route show` prints them.
        func routesInObserved() throws -> String {
            try NetnsSupport.run(ip, ["-n", observed, "route", "show"])
                + NetnsSupport.run(ip, ["-n", observed, "-6", "route", "show"])
        }

        /// Runs many commands in the peer namespace with one `ip -batch -`.
        func batchInPeer(_ commands: [String]) throws {
            try NetnsSupport.run(ip, ["-n", peer, "-batch", "-"], input: commands.joined(separator: "\n") + "\n")
        }

        /// Runs many commands in the observed namespace with one `ip -batch -`.
        func batchInObserved(_ commands: [String]) throws {
            try NetnsSupport.run(ip, ["-n", observed, "-batch", "-"], input: commands.joined(separator: "\n") + "\n")
        }

        /// Starts the probe in the observed namespace.
        func startProbe(arguments: [String]) throws -> ProbeProcess {
            guard let probe = NetnsSupport.probePath else { throw NetnsError(message: "no probe") }
            return ProbeProcess(try startInObserved(probe, arguments))
        }

        /// Starts the built `syncgate` in the observed namespace, stdout and stderr pipes.
        func startTool(arguments: [String]) throws -> SpawnedProcess {
            guard let tool = NetnsSupport.toolPath else { throw NetnsError(message: "no syncgate") }
            return try startInObserved(tool, arguments)
        }

        /// Starts `path` under `ip netns exec` in the observed namespace; ``destroy()`` kills it.
        ///
        /// `ip netns exec` execs the program in its own process, so the child's id is the program's.
        func startInObserved(_ path: String, _ arguments: [String]) throws -> SpawnedProcess {
            let child = try SpawnedProcess(
                ip, ["netns", "exec", observed, path] + arguments, environment: ["NO_COLOR": "1"])
            children.append(child)
            return child
        }

        /// Kills what the test started and deletes both namespaces (which deletes the veth pair).
        func destroy() {
            for child in children { child.stop() }
            children = []
            _ = try? NetnsSupport.run(ip, ["netns", "del", observed])
            _ = try? NetnsSupport.run(ip, ["netns", "del", peer])
        }
    }

    /// One status line printed by `syncgate-netns-probe watch`.
    struct ProbeStatus: Decodable, Equatable, CustomStringConvertible {
        var seq: Int
        var connected: Bool
        var interface: String
        var expensive: Bool
        var constrained: Bool
        var evaluations: Int
        var resyncs: Int
        /// Statuses the observer published from a route's announcement, before its lookups.
        var earlyGains: Int

        var description: String { connected ? "connected(\(interface))" : "disconnected" }
    }

    /// The probe running under `ip netns exec`, with deadline-bounded readers of its JSON lines.
    final class ProbeProcess {
        /// The probe's process.
        let process: SpawnedProcess
        private(set) var received: [ProbeStatus] = []

        init(_ process: SpawnedProcess) {
            self.process = process
        }

        /// The next status line, or `nil` when none arrives before `deadline`.
        func next(before deadline: ContinuousClock.Instant) throws -> ProbeStatus? {
            guard let line = try process.nextLine(before: deadline) else { return nil }
            let status = try JSONDecoder().decode(ProbeStatus.self, from: Data(line.utf8))
            received.append(status)
            return status
        }

        /// The next status line within `timeout`; throws when none arrives.
        func next(within timeout: Duration = .seconds(10)) throws -> ProbeStatus {
            guard let status = try next(before: .now + timeout) else {
                throw NetnsError(message: "no status within \(timeout); lines so far: \(received)")
            }
            return status
        }

        /// The next line decoded as `type` within `timeout`; throws when none arrives.
        func next<Line: Decodable>(_ type: Line.Type, within timeout: Duration) throws -> Line {
            let line = try process.nextLine(within: timeout)
            do {
                return try JSONDecoder().decode(type, from: Data(line.utf8))
            } catch {
                throw NetnsError(message: "the probe printed \(line), not a \(type): \(error)")
            }
        }

        /// Every status line until `deadline`.
        func all(before deadline: ContinuousClock.Instant) throws -> [ProbeStatus] {
            var statuses: [ProbeStatus] = []
            while let status = try next(before: deadline) { statuses.append(status) }
            return statuses
        }

        /// Kills the probe and reaps it.
        func stop() {
            process.stop()
        }
    }
#endif
