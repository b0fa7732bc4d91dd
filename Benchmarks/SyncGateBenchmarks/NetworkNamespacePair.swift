#if os(Linux)
    import Foundation
    import Glibc

    /// Two network namespaces joined by a veth pair, made with `ip` for scenario 8 and deleted after.
    ///
    /// `v0` (10.200.0.2/24, default route via the peer) sits in ``observed``; `v1` (10.200.0.1/24) in
    /// ``peer``. Setting `v1` down or up drops or restores `v0`'s carrier, which marks the default route
    /// linkdown or usable again: the kernel event the observer reacts to. Nothing outside the two
    /// namespaces is touched.
    final class NetworkNamespacePair {
        private typealias SetNamespace = @convention(c) (Int32, Int32) -> Int32
        private static let newNetworkNamespace: Int32 = 0x4000_0000  // CLONE_NEWNET

        /// The namespace where the observer runs.
        let observed: String
        /// The namespace holding the other end of the veth pair.
        let peer: String
        private let ip: String

        /// The `ip` binary, or `nil` when iproute2 is missing.
        static let ipPath: String? = ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }

        /// Why the scenario cannot run here, or `nil` when it can.
        static var unavailableReason: String? {
            if geteuid() != 0 { return "it needs root to create network namespaces (run the harness as root)" }
            if ipPath == nil { return "it needs `ip` from iproute2 (apt-get install iproute2)" }
            if dlsym(nil, "setns") == nil { return "setns(2) is not available" }
            return nil
        }

        /// Creates both namespaces and the configured veth pair.
        init() throws {
            guard let ip = Self.ipPath else { throw BenchmarkFailure(scenario: "kernel-event", message: "no ip") }
            self.ip = ip
            observed = "sgbench\(getpid())o"
            peer = "sgbench\(getpid())p"
            try run(["netns", "add", observed])
            do {
                try run(["netns", "add", peer])
                try run(["link", "add", "v0", "netns", observed, "type", "veth", "peer", "name", "v1", "netns", peer])
                try run(["-n", observed, "link", "set", "lo", "up"])
                try run(["-n", observed, "link", "set", "v0", "up"])
                try run(["-n", peer, "link", "set", "v1", "up"])
                try run(["-n", observed, "addr", "add", "10.200.0.2/24", "dev", "v0"])
                try run(["-n", peer, "addr", "add", "10.200.0.1/24", "dev", "v1"])
                try run(["-n", observed, "route", "add", "default", "via", "10.200.0.1", "dev", "v0"])
            } catch {
                destroy()
                throw error
            }
        }

        /// Deletes both namespaces, which deletes the veth pair.
        func destroy() {
            _ = try? run(["netns", "del", observed])
            _ = try? run(["netns", "del", peer])
        }

        /// Moves the calling thread (only it) into a namespace; sockets it opens afterwards live there.
        static func enter(_ name: String) throws {
            try enter(path: "/run/netns/" + name)
        }

        /// Moves the calling thread into the namespace behind a path such as `/proc/thread-self/ns/net`.
        static func enter(path: String) throws {
            guard let symbol = dlsym(nil, "setns") else {
                throw BenchmarkFailure(scenario: "kernel-event", message: "setns(2) is not available")
            }
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                throw BenchmarkFailure(scenario: "kernel-event", message: "open \(path): errno \(errno)")
            }
            defer { close(descriptor) }
            guard unsafeBitCast(symbol, to: SetNamespace.self)(descriptor, newNetworkNamespace) == 0 else {
                throw BenchmarkFailure(scenario: "kernel-event", message: "setns \(path): errno \(errno)")
            }
        }

        private func run(_ arguments: [String]) throws {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: ip)
            process.arguments = arguments
            let errors = Pipe()
            process.standardError = errors
            try process.run()
            let message = errors.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                throw BenchmarkFailure(
                    scenario: "kernel-event",
                    message: "ip \(arguments.joined(separator: " ")) exited \(process.terminationStatus): "
                        + String(decoding: message, as: UTF8.self)
                )
            }
        }
    }
#endif
