#if os(Linux)
    import Foundation
    import Glibc
    import Testing

    @testable import SyncGate

    /// Whether the real-kernel namespace tests can run here, and why not.
    enum NetnsSupport {
        /// `SYNCGATE_REQUIRE_NETNS=1` turns a skip into a failure (CI sets it).
        static let isRequired = ProcessInfo.processInfo.environment["SYNCGATE_REQUIRE_NETNS"] == "1"

        /// The `ip` binary of iproute2.
        static let ipPath: String? = ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }

        /// The helper that runs the observer inside a namespace: `$SYNCGATE_NETNS_PROBE`, else next to the
        /// test binary in the build folder.
        static let probePath: String? = {
            if let path = ProcessInfo.processInfo.environment["SYNCGATE_NETNS_PROBE"] { return path }
            guard let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else {
                return nil
            }
            var directory = URL(fileURLWithPath: executable).deletingLastPathComponent()
            for _ in 0..<4 {
                let candidate = directory.appendingPathComponent("syncgate-netns-probe").path
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
                directory.deleteLastPathComponent()
            }
            return nil
        }()

        /// Why the tests cannot run, or `nil` when they can.
        static let unavailableReason: String? = {
            if geteuid() != 0 { return "they need root to create network namespaces and veth pairs" }
            guard let ipPath else { return "they need `ip` from iproute2 (apt-get install iproute2)" }
            guard probePath != nil else {
                return
                    "the syncgate-netns-probe executable was not found: run `swift build` first or set SYNCGATE_NETNS_PROBE"
            }
            let check = "sgcheck\(getpid())"
            guard (try? run(ipPath, ["netns", "add", check])) != nil else {
                return "`ip netns add` failed (no network namespaces in this container?)"
            }
            _ = try? run(ipPath, ["netns", "del", check])
            return nil
        }()

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

        /// Runs a program to completion; throws with its stderr when it fails.
        @discardableResult
        static func run(_ path: String, _ arguments: [String], input: String? = nil) throws -> String {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: path)
            process.arguments = arguments
            let output = Pipe()
            let errors = Pipe()
            process.standardOutput = output
            process.standardError = errors
            let inputPipe = input.map { _ in Pipe() }
            if let inputPipe { process.standardInput = inputPipe }
            try process.run()
            if let input, let inputPipe {
                inputPipe.fileHandleForWriting.write(Data(input.utf8))
                try inputPipe.fileHandleForWriting.close()
            }
            let out = output.fileHandleForReading.readDataToEndOfFile()
            let err = errors.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                throw NetnsError(
                    message: "\(path) \(arguments.joined(separator: " ")) exited \(process.terminationStatus): "
                        + String(decoding: err, as: UTF8.self)
                )
            }
            return String(decoding: out, as: UTF8.self)
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
        private var probes: [ProbeProcess] = []

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
            let probe = try ProbeProcess(ip: ip, namespace: observed, arguments: arguments)
            probes.append(probe)
            return probe
        }

        /// Stops the probes and deletes both namespaces (which deletes the veth pair).
        func destroy() {
            for probe in probes { probe.stop() }
            probes = []
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

        var description: String { connected ? "connected(\(interface))" : "disconnected" }
    }

    /// The probe running under `ip netns exec`, with a deadline-bounded reader of its output lines.
    final class ProbeProcess {
        private let process = Process()
        private let input = Pipe()
        private let output = Pipe()
        private var buffer: [UInt8] = []
        private(set) var received: [ProbeStatus] = []

        init(ip: String, namespace: String, arguments: [String]) throws {
            guard let probe = NetnsSupport.probePath else { throw NetnsError(message: "no probe") }
            process.executableURL = URL(fileURLWithPath: ip)
            process.arguments = ["netns", "exec", namespace, probe] + arguments
            process.standardInput = input
            process.standardOutput = output
            try process.run()
        }

        /// The next status line, or `nil` when none arrives before `deadline`.
        func next(before deadline: ContinuousClock.Instant) throws -> ProbeStatus? {
            let descriptor = output.fileHandleForReading.fileDescriptor
            while true {
                if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = Array(buffer[..<newline])
                    buffer.removeSubrange(...newline)
                    let status = try JSONDecoder().decode(ProbeStatus.self, from: Data(line))
                    received.append(status)
                    return status
                }
                let remaining = ContinuousClock.now.duration(to: deadline)
                guard remaining > .zero else { return nil }
                let milliseconds = Int32(clamping: remaining.components.seconds * 1_000 + 1)
                var descriptorSet = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                guard poll(&descriptorSet, 1, milliseconds) > 0 else { continue }
                var chunk = [UInt8](repeating: 0, count: 4096)
                let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                guard count > 0 else { throw NetnsError(message: "the probe exited; lines so far: \(received)") }
                buffer += chunk[..<count]
            }
        }

        /// The next status line within `timeout`; throws when none arrives.
        func next(within timeout: Duration = .seconds(10)) throws -> ProbeStatus {
            guard let status = try next(before: .now + timeout) else {
                throw NetnsError(message: "no status within \(timeout); lines so far: \(received)")
            }
            return status
        }

        /// Every status line until `deadline`.
        func all(before deadline: ContinuousClock.Instant) throws -> [ProbeStatus] {
            var statuses: [ProbeStatus] = []
            while let status = try next(before: deadline) { statuses.append(status) }
            return statuses
        }

        /// Closes the probe's stdin (it exits on EOF) and waits for it, killing it if needed.
        func stop() {
            try? input.fileHandleForWriting.close()
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }
    }
#endif
