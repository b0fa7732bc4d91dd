#if os(Linux)
    import Foundation
    import Glibc
    import SyncGate
    import SyncGateTesting

    /// A `syncgate daemon` of the built tool inside a network namespace, with its state, socket and log in
    /// a fresh directory, and its clients run as a user runs them (outside the namespace: the socket is a
    /// file). Every wait has a deadline.
    final class DaemonHarness {
        let topology: NetnsTopology
        /// The test's directory: state, socket, log, and room for the commands' files.
        let directory: String
        var socket: String { directory + "/run/socket" }
        /// The daemon's state directory: `state` in ``directory`` unless the test chose one (on a tiny disk).
        var state: String { stateDirectory ?? directory + "/state" }
        private let stateDirectory: String?
        var log: String { directory + "/daemon.log" }
        private(set) var daemon: SpawnedProcess?

        init(topology: NetnsTopology, stateDirectory: String? = nil) throws {
            self.topology = topology
            self.stateDirectory = stateDirectory
            directory = NSTemporaryDirectory() + NetnsSupport.uniqueName("daemon")
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        }

        /// Kills what is left and removes the directory.
        func destroy() {
            daemon?.stop()
            try? FileManager.default.removeItem(atPath: directory)
        }

        /// The daemon's log so far, for failure messages.
        var logText: String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }

        /// Starts the daemon in the observed namespace (stderr appended to ``log``) and waits until it
        /// follows the namespace's routes and answers on its socket.
        @discardableResult
        func startDaemon() throws -> SpawnedProcess {
            guard let tool = NetnsSupport.toolPath else { throw NetnsError(message: "no syncgate") }
            let process = try topology.startInObserved(
                "/bin/sh",
                [
                    "-c", #"exec "$0" daemon --state-dir "$1" --socket "$2" --grace 1s --kill-grace 1s 2>>"$3""#, tool,
                    state, socket, log,
                ])
            daemon = process
            try NetnsSupport.waitForRouteSubscription(pid: process.pid)
            try eventually("the daemon answers on \(socket)") { try client(["jobs"]).status == 0 }
            return process
        }

        /// A field of the daemon's `/proc/PID/status` in KiB, such as `VmRSS` or `VmHWM` (its peak).
        func memory(_ field: String) throws -> Int {
            guard let daemon else { throw NetnsError(message: "no daemon") }
            let status = try String(contentsOfFile: "/proc/\(daemon.pid)/status", encoding: .utf8)
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }),
                let kib = Int(line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first ?? "")
            else { throw NetnsError(message: "no \(field) in /proc/\(daemon.pid)/status") }
            return kib
        }

        /// Sends the daemon SIGKILL and reaps it.
        func killDaemon() throws {
            guard let daemon else { return }
            daemon.signal(SIGKILL)
            _ = try daemon.finish(before: .now + .seconds(5))
            self.daemon = nil
        }

        /// Sends the daemon SIGTERM and returns its exit status.
        func stopDaemon() throws -> Int32 {
            guard let daemon else { return -1 }
            daemon.signal(SIGTERM)
            let (_, status) = try daemon.finish(before: .now + .seconds(10))
            self.daemon = nil
            return status
        }

        struct ClientResult {
            var stdout: String
            var stderr: String
            var status: Int32
        }

        /// Starts `syncgate ARGUMENTS` as a client of this daemon, in `workingDirectory`, optionally under
        /// `prefix` (such as `setpriv …`).
        func startClient(
            _ arguments: [String], in workingDirectory: String? = nil, prefix: [String] = []
        ) throws -> SpawnedProcess {
            guard let tool = NetnsSupport.toolPath else { throw NetnsError(message: "no syncgate") }
            let command = prefix + [tool] + arguments
            return try SpawnedProcess(
                "/bin/sh", ["-c", #"cd "$0" && exec "$@""#, workingDirectory ?? directory] + command,
                environment: ["SYNCGATE_SOCKET": socket, "NO_COLOR": "1"])
        }

        /// Runs `syncgate ARGUMENTS` as a client to its end, within `timeout`.
        func client(
            _ arguments: [String], in workingDirectory: String? = nil, prefix: [String] = [],
            within timeout: Duration = .seconds(5)
        ) throws -> ClientResult {
            let process = try startClient(arguments, in: workingDirectory, prefix: prefix)
            defer { process.stop() }
            let (stdout, status) = try process.finish(before: .now + timeout)
            return ClientResult(stdout: stdout, stderr: process.stderrText, status: status)
        }

        /// `syncgate jobs --json --all`: the jobs by id.
        func jobs() throws -> [String: [String: Any]] {
            let result = try client(["jobs", "--json", "--all"])
            guard result.status == 0,
                let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
                object["version"] as? Int == 1, let jobs = object["jobs"] as? [[String: Any]]
            else { throw NetnsError(message: "jobs --json failed: \(result)") }
            var byID: [String: [String: Any]] = [:]
            for job in jobs { if let id = job["id"] as? String { byID[id] = job } }
            return byID
        }

        /// One job's `jobs --json` object.
        func job(_ id: String) throws -> [String: Any] {
            guard let job = try jobs()[id] else { throw NetnsError(message: "no job \(id) in jobs --all") }
            return job
        }

        /// `syncgate logs --json ID`: the runs.
        func runs(_ id: String) throws -> [[String: Any]] {
            let result = try client(["logs", "--json", id])
            guard result.status == 0,
                let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
                let runs = object["runs"] as? [[String: Any]]
            else { throw NetnsError(message: "logs --json failed: \(result)") }
            return runs
        }

        /// Checks `condition` every 20 ms until it holds; throws naming `what` after `timeout`.
        func eventually(
            _ what: String, within timeout: Duration = .seconds(5), _ condition: () throws -> Bool
        ) throws {
            let deadline = ContinuousClock.now + timeout
            while true {
                if (try? condition()) == true { return }
                guard ContinuousClock.now < deadline else {
                    throw NetnsError(message: "not within \(timeout): \(what); daemon log:\n\(logText)")
                }
                var none = pollfd(fd: -1, events: 0, revents: 0)
                _ = poll(&none, 0, 20)
            }
        }

        /// Connects to the socket from this process; the caller closes the descriptor.
        func connect() throws -> Int32 {
            let descriptor = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard descriptor >= 0 else { throw NetnsError(message: "socket: errno \(errno)") }
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { buffer in
                for (index, byte) in socket.utf8.enumerated() { buffer[index] = byte }
            }
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            guard result == 0 else {
                close(descriptor)
                throw NetnsError(message: "connect \(socket): errno \(errno)")
            }
            return descriptor
        }

        /// Sends `bytes` on a new connection (closing the writing side when `close` is set) and returns
        /// what the daemon answers before it closes the connection, within `timeout`.
        func exchange(_ bytes: [UInt8], halfClose: Bool = true, within timeout: Duration = .seconds(10)) throws
            -> String
        {
            let descriptor = try connect()
            defer { close(descriptor) }
            var timeval = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: 0)
            setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeval, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeval, socklen_t(MemoryLayout<timeval>.size))
            var offset = 0
            while offset < bytes.count {
                let sent = bytes.withUnsafeBytes {
                    send(descriptor, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
                }
                // The daemon may answer and close before taking an oversized request whole.
                if sent <= 0 { break }
                offset += sent
            }
            if halfClose { shutdown(descriptor, Int32(SHUT_WR)) }
            var answer: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                if count <= 0 { break }
                answer += buffer[..<count]
            }
            return String(decoding: answer, as: UTF8.self)
        }
    }
#endif

#if os(Linux)
    import Foundation

    /// A job's `runs.jsonl` as the daemon wrote it, read without the daemon.
    struct RunLogFiles {
        struct Ended: Decodable {
            var run: Int
            var exitStatus: Int32?
            var interrupted: Bool?
        }

        /// The end lines, in order.
        let ended: [Ended]

        init(directory: String) throws {
            let text = try String(contentsOfFile: directory + "/runs.jsonl", encoding: .utf8)
            ended = text.split(separator: "\n").filter { $0.contains("\"ended\"") }.compactMap {
                try? JSONDecoder().decode(Ended.self, from: Data($0.utf8))
            }
        }
    }
#endif
